"""Assemble a generated listing with Debian's pasmo (used by scripts/transcribe-*.py).

assemble(source_lines) writes the lines to a temporary file, runs
`pasmo FILE.asm FILE.bin FILE.sym`, and returns (binary, {symbol: value},
base) where base is the lowest ORG (pasmo's raw binary starts there).  It
exits with a clear message when pasmo is missing or fails.
"""
import os
import re
import subprocess
import sys
import tempfile


def assemble(src):
    with tempfile.TemporaryDirectory() as tmp:
        asm, binf, sym = (os.path.join(tmp, f) for f in ("l.asm", "l.bin", "l.sym"))
        open(asm, "w").write("\n".join(src) + "\n")
        try:
            run = subprocess.run(["pasmo", asm, binf, sym], capture_output=True, text=True)
        except FileNotFoundError:
            sys.exit("pasmo not found (apt-get install pasmo)")
        if run.returncode != 0:
            sys.exit(f"pasmo failed:\n{run.stdout}{run.stderr}")
        built = open(binf, "rb").read()
        symbols = {m.group(1): int(m.group(2), 16)
                   for m in re.finditer(r"^(\w+)\s+EQU\s+0*([0-9A-F]+)H", open(sym).read(), re.M)}
    orgs = [int(m.group(1), 16) for line in src if (m := re.match(r"^\s+org\s+0([0-9A-F]+)H", line))]
    return built, symbols, min(orgs)
