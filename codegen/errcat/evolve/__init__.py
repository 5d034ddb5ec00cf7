"""Catalogue evolution: the changes between two catalogues, their rules, the version they need, the changelog."""
