"""Reading a catalogue: YAML with the line and column of every node (load, yamltext, scalars, document)."""
