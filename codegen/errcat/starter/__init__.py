"""``errcat init``: a starter catalogue for a new API (template, cli)."""
