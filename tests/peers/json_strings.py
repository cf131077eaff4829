"""Reads a JSON answer of `retrochess serve` (standard input) with
Python's own parser, strict (a raw control character inside a string is
refused), and checks string fields against the expected text.

Usage: json_strings.py KEY=FILE ...  -- each FILE holds the expected value
of KEY as raw UTF-8 (no JSON). Prints `equal KEY` for each; exits 1 with
both values' reprs on the first that differs.
"""

import json
import sys

answer = json.loads(sys.stdin.buffer.read().decode("utf-8"), strict=True)
for arg in sys.argv[1:]:
    key, path = arg.split("=", 1)
    with open(path, encoding="utf-8", newline="") as f:
        expected = f.read()
    got = answer.get(key)
    if got != expected:
        print(f"{key}: got {got!r}, expected {expected!r}", file=sys.stderr)
        sys.exit(1)
    print(f"equal {key}")
