"""``python -m solitaire``: see ``python -m solitaire --help``."""
try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while Python was still loading the kit: nothing was begun
    import os
    import sys
    print("\npython -m solitaire: interrupted while starting: nothing was done", file=sys.stderr, flush=True)
    os._exit(130)  # at once: there is nothing to clean up, and no second Ctrl-C may break into an exit

raise SystemExit(main())
