"""``python -m solitaire``: see ``python -m solitaire --help``."""
try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while Python was still loading the kit: nothing was begun
    import sys
    print("\npython -m solitaire: interrupted while starting: nothing was done", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(main())
