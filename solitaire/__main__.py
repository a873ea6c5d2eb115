"""``python -m solitaire``: see ``python -m solitaire --help``."""
from .cli import main

raise SystemExit(main())
