"""The peer of the draughts interop scripts: pydraughts 0.6.7, or a clear
failure (exit status 2) saying how to install it."""

import sys

INSTALL = "pip install pydraughts==0.6.7"

try:
    import draughts
except ImportError:
    sys.stderr.write(f"pydraughts is missing: {INSTALL}\n")
    sys.exit(2)
if draughts.__version__ != "0.6.7":
    sys.stderr.write(f"pydraughts {draughts.__version__} found: {INSTALL}\n")
    sys.exit(2)

from draughts import Board, Move  # noqa: E402,F401
