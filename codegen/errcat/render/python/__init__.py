"""The Python SDK target: the generated package of errors, catalogue data, sanitizer rules and envelope models."""
