"""Entry point of ``python -m errcat``."""

from errcat.cli import main

main()
