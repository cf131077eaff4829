#!/usr/bin/env python3
"""Rebuild tapes/draughts-1k.bin from the listing in seed 002 and check every line.

Seed 002 (an Italian study, "Draughts 1K") prints the machine-code routine of
the draughts program in "Not Only 30 Programs for the Sinclair ZX81: 1K" as a
commented disassembly: one line per instruction, "ADDR BYTES [LABEL] mnemonic
; comment", 0x4082..0x4130.  This script:

  1. extracts those lines (address, bytes, label, instruction) and the named
     addresses the seed's comments define (PRBUFF, D_FILE, SAFE_ORG ...) into
     tests/fixtures/draughts-1k/listing.txt -- data the tests read instead of
     the seed;
  2. checks that the lines are contiguous from 0x4082 to 0x4130 (175 bytes);
  3. assembles every printed instruction with pasmo, labels and names as the
     seed gives them, and checks that each assembles to the printed bytes at
     the printed address (so every jump displacement and operand agrees with
     its mnemonic);
  4. writes tapes/draughts-1k.bin, the 175 raw bytes loaded at 0x4082;
  5. copies the seed's picture of the board (its comment block) into
     tests/fixtures/draughts-1k/board.txt and writes the square mapping we
     derived from the code (tapes/DRAUGHTS-1K.md) into
     tests/fixtures/draughts-1k/layout.txt.

Usage:
  scripts/transcribe-draughts-1k.py [SEED]   regenerate fixture and image
  scripts/transcribe-draughts-1k.py --check  no seed: rebuild from the
                                             committed fixture, assemble, and
                                             fail if the committed image differs

SEED defaults to ../shared/seeds/002_736885a8c9d091cf.txt beside the
repository; when it is absent the committed fixture is used.  Needs Debian's
pasmo (apt-get install pasmo).
"""
import hashlib
import os
import re
import sys

from pasmo_listing import assemble as assemble_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = os.path.join(ROOT, "..", "shared", "seeds", "002_736885a8c9d091cf.txt")
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "draughts-1k", "listing.txt")
IMAGE = os.path.join(ROOT, "tapes", "draughts-1k.bin")
BOARD = os.path.join(ROOT, "tests", "fixtures", "draughts-1k", "board.txt")
LAYOUT = os.path.join(ROOT, "tests", "fixtures", "draughts-1k", "layout.txt")
START, END = 0x4082, 0x4130  # inclusive, as the seed states

LINE = re.compile(r"^([0-9a-f]{4}) ((?:[0-9a-f]{2} )+)\s*(.*)$")
BODY = re.compile(r"^(?:([A-Z][A-Z0-9_]*)\s+)?([a-z][^;]*?)\s*(?:;.*)?$")
# "; PRBUFF = 403c" and "; PRBUFF 403c SAFE_ORG" in the seed's preamble.
NAME_EQ = re.compile(r"^;\s*([A-Z_]+)\s*=\s*([0-9a-f]{4})\s*$")
NAME_TABLE = re.compile(r"^;\s*(?:PRBUFF\s+)?([0-9a-f]{4})\s+([A-Z_]+)\s*$")


def parse_seed(text):
    """(names, lines) from the seed: names {NAME: addr}, lines [(addr, bytes, label, instr)]."""
    names, lines = {}, []
    for raw in text.splitlines():
        m = NAME_EQ.match(raw) or None
        if m:
            names[m.group(1)] = int(m.group(2), 16)
            continue
        m = NAME_TABLE.match(raw)
        if m:
            names[m.group(2)] = int(m.group(1), 16)
            continue
        m = LINE.match(raw)
        if not m:
            continue
        body = BODY.match(m.group(3))
        if not body:
            sys.exit(f"unreadable listing line: {raw!r}")
        code = bytes(int(h, 16) for h in m.group(2).split())
        lines.append((int(m.group(1), 16), code, body.group(1) or "", body.group(2)))
    return names, lines


def board_picture(text):
    """The seed's eight-line picture of the starting board ("1B B B B␊" ...)."""
    rows = [m.group(1) for m in re.finditer(r"^;\s{5}(\S.{7})␊\s*$", text, re.M)]
    if len(rows) != 8:
        sys.exit(f"board picture: {len(rows)} rows found, expected 8")
    head = [
        "# Draughts 1K (seed 002): the starting board as the seed's comment draws it,",
        "# one display-file row each (8 characters; the seed marks the NEWLINE with ␊).",
        "# █ is the seed's empty square (its comment says code 00; the code uses 08).",
        "# Extracted by scripts/transcribe-draughts-1k.py; do not edit by hand.",
    ]
    return "\n".join(head + rows) + "\n"


def layout():
    """PDN square -> display-file offset, derived in tapes/DRAUGHTS-1K.md."""
    out = [
        "# Draughts 1K: where each square of English checkers lives in the display file.",
        "# Derived from the code (tapes/DRAUGHTS-1K.md), not printed by the seed.",
        "# Written by scripts/transcribe-draughts-1k.py; do not edit by hand.",
        "# pdn: PDN square 1..32, Black (the routine's B) on 1..12 at the top.",
        "# offset: address - (D_FILE); row r (0 = top) and column c live at 1 + 9r + c.",
        "# book: the book's coordinates, column A..H left to right, row 1..8 top to bottom.",
        "# pdn|offset|book|row|col",
    ]
    for n in range(1, 33):
        r, k = divmod(n - 1, 4)
        c = 2 * k + (1 if r % 2 == 0 else 0)
        out.append(f"{n}|{1 + 9 * r + c}|{'ABCDEFGH'[c]}{r + 1}|{r}|{c}")
    return "\n".join(out) + "\n"


def write_fixture(names, lines):
    out = [
        "# Draughts 1K (seed 002): the routine 0x4082..0x4130 as the seed prints it.",
        "# Extracted by scripts/transcribe-draughts-1k.py; do not edit by hand.",
        "# name NAME ADDRESS      -- named addresses from the seed's comments",
        "# ADDRESS|BYTES|LABEL|INSTRUCTION -- one printed line each",
    ]
    out += [f"name {n} {a:04x}" for n, a in sorted(names.items(), key=lambda kv: (kv[1], kv[0]))]
    out += [f"{a:04x}|{c.hex(' ')}|{lab}|{ins}" for a, c, lab, ins in lines]
    return "\n".join(out) + "\n"


def read_fixture(text):
    names, lines = {}, []
    for raw in text.splitlines():
        if raw.startswith("#") or not raw.strip():
            continue
        if raw.startswith("name "):
            _, n, a = raw.split()
            names[n] = int(a, 16)
            continue
        a, c, lab, ins = raw.split("|")
        lines.append((int(a, 16), bytes.fromhex(c), lab, ins))
    return names, lines


def image_of(lines):
    pc = START
    for addr, code, _, ins in lines:
        if addr != pc:
            sys.exit(f"listing not contiguous: {ins!r} at {addr:04X}, expected {pc:04X}")
        pc += len(code)
    if pc != END + 1:
        sys.exit(f"listing ends at {pc - 1:04X}, expected {END:04X}")
    return b"".join(code for _, code, _, _ in lines)


def assemble(names, lines):
    """Assemble each printed instruction with pasmo; return the mismatches."""
    src = [f"{n} equ 0{a:04X}H" for n, a in names.items()]
    src.append(f" org 0{START:04X}H")
    for addr, _, label, ins in lines:
        if label:
            src.append(f"{label}:")
        src.append(f"_L{addr:04X}: {ins}")
    src.append(f"_L{END + 1:04X}:")
    built, symbols, _ = assemble_lines(src)
    bad = []
    for addr, code, _, ins in lines:
        at = symbols[f"_L{addr:04X}"]
        got = built[at - START : at - START + len(code)]
        if at != addr or got != code:
            bad.append(f"  {addr:04X} {ins}: printed {code.hex(' ')}, assembles to {got.hex(' ')} at {at:04X}")
    return bad


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    seed = args[0] if args else SEED
    if not check and os.path.exists(seed):
        text = open(seed, encoding="utf-8").read()
        names, lines = parse_seed(text)
        open(FIXTURE, "w").write(write_fixture(names, lines))
        open(BOARD, "w", encoding="utf-8").write(board_picture(text))
        open(LAYOUT, "w").write(layout())
        print(f"wrote {os.path.relpath(FIXTURE, ROOT)}, board.txt and layout.txt from {seed}")
    else:
        if open(LAYOUT).read() != layout():
            sys.exit("tests/fixtures/draughts-1k/layout.txt differs from the derived mapping")
        names, lines = read_fixture(open(FIXTURE).read())
    image = image_of(lines)
    bad = assemble(names, lines)
    print(f"{len(lines)} printed instructions assembled by pasmo; mismatches: {len(bad)}")
    if bad:
        sys.exit("\n".join(bad))
    print(f"draughts-1k.bin: {len(image)} bytes at {START:04X}, sha256 {hashlib.sha256(image).hexdigest()}")
    if check:
        if open(IMAGE, "rb").read() != image:
            sys.exit("tapes/draughts-1k.bin differs from the listing")
        print("tapes/draughts-1k.bin matches the listing")
    else:
        open(IMAGE, "wb").write(image)
        print(f"wrote {os.path.relpath(IMAGE, ROOT)}")


main()
