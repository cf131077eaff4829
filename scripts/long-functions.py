#!/usr/bin/env python3
"""Lists the functions of src/ longer than a limit (default 80 lines, from
`fn` to its closing brace), outside `#[cfg(test)]` modules, longest first.

Usage: scripts/long-functions.py [SRC [LIMIT]]"""
import re, sys
from pathlib import Path
root = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 80
out = []
for p in sorted(root.rglob("*.rs")):
    lines = p.read_text().split("\n")
    test_from = None
    for i, l in enumerate(lines):
        if re.match(r"\s*#\[cfg\(test\)\]", l) and i + 1 < len(lines) and re.match(r"\s*(pub\s+)?mod\s+\w+", lines[i + 1]):
            test_from = i; break
    i = 0
    n = len(lines) if test_from is None else test_from
    while i < n:
        m = re.match(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)", lines[i])
        if m and not lines[i].strip().startswith("//"):
            # find the opening brace and match
            depth = 0; started = False; j = i
            while j < len(lines):
                code = re.sub(r"//.*", "", lines[j])
                code = re.sub(r"'(\\.|[^'\\])'", "", code)
                code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
                if not started and ";" in code and "{" not in code:
                    break
                for ch in code:
                    if ch == "{": depth += 1; started = True
                    elif ch == "}": depth -= 1
                if started and depth == 0:
                    break
                j += 1
            if started:
                length = j - i + 1
                if length > limit:
                    out.append((length, f"{p}:{i+1}", m.group(6)))
        i += 1
for length, where, name in sorted(out, reverse=True):
    print(f"{length:5} {where} {name}")
print(f"{len(out)} functions over {limit} lines")
