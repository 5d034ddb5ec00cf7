"""Entry point of ``python -m errcat``."""

try:
    from errcat.cli import main
except KeyboardInterrupt:  # Ctrl-C while starting: nothing was read or written yet
    raise SystemExit(130) from None

main()
