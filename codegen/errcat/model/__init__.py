"""The model of a checked catalogue: frozen dataclasses the renderers only print."""
