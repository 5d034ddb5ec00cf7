"""Names: how codes become class names and constants, the target languages, the names a runtime reserves."""
