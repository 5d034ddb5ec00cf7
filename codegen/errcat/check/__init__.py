"""Checking a loaded catalogue: the meta-schema, then every catalogue rule; problems say file:line:column."""
