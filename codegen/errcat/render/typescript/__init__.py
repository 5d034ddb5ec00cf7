"""The TypeScript SDK target: the generated modules of errors, catalogue data, sanitizer rules and envelope types."""
