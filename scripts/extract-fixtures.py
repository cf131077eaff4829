#!/usr/bin/env python3
"""Regenerate the seed-derived test fixtures (tests/fixtures/) from the seeds.

The tests never read the seeds: what they take from them lives in
tests/fixtures/ as data, and this script is how that data was made.  It reads
the seed documents (by default ../shared/seeds beside the repository) and
writes, or with --check compares:

  1k-listing-bytes.txt   seed 000: the byte columns of the disassembly and of
                         the display-file table, "ADDR B1 B2 ..." per line
  1k-boot-screen.txt     seed 000: the display-file table decoded into the 24
                         text lines `retrochess screen` prints
  chesskelet-games.txt   seed 001, chapter 12: the three published games in
                         coordinates, one "WHITE BLACK" pair per line

Usage: scripts/extract-fixtures.py [--seeds DIR] [--check]
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SEED_1K = "000_ba85231f1aeef1c5.txt"
SEED_CHESSKELET = "001_d23a17487034822d.txt"

# The 1K ZX Chess tape image occupies 0x4009..0x43B5.
TAPE_START, TAPE_END = 0x4009, 0x43B6


def listing_lines(seed):
    """Lines "ADDR  B1 B2 ..." of the disassembly and display tables.

    A line counts when it starts with four hex digits and two spaces; its
    bytes are the whitespace-separated two-digit hex words that follow, up
    to the first word that is not one (a label, a mnemonic, a comment)."""
    out = []
    for line in seed.splitlines():
        m = re.match(r"^([0-9A-F]{4})  ", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if not TAPE_START <= addr < TAPE_END:
            continue
        data = []
        for word in line.split()[1:]:
            if not re.fullmatch(r"[0-9A-Fa-f]{2}", word):
                break
            data.append(word.upper())
        if data:
            out.append(f"{addr:04X} " + " ".join(data))
    return out


# ZX81 character set as `retrochess screen` renders it in plain text: inverse
# letters in lower case, inverse space as a full block, graphic 0x08 as grey.
PUNCT = "\"£$:?()><=+-*/;,."
GRAPHICS = {0x00: " ", 0x08: "▒"}


def zx81_char(code):
    inverse, c = code & 0x80, code & 0x7F
    if c in GRAPHICS:
        glyph = GRAPHICS[c]
    elif 0x0B <= c <= 0x1B:
        glyph = PUNCT[c - 0x0B]
    elif 0x1C <= c <= 0x25:
        glyph = chr(ord("0") + c - 0x1C)
    elif 0x26 <= c <= 0x3F:
        glyph = chr(ord("A") + c - 0x26)
    else:
        sys.exit(f"extract-fixtures: display code {code:02X} not handled")
    if inverse:
        return "█" if glyph == " " else glyph.lower()
    return glyph


def boot_screen(seed):
    """The display file 0x4332..0x43AE (seed 000, "Riformattando il
    contenuto del Display file"): NEWLINE first, then 24 lines each ended by
    NEWLINE (0x76), trailing blanks trimmed."""
    start = seed.index("Riformattando il contenuto del Display file")
    codes = []
    for line in listing_lines(seed[start:]):
        addr, *data = line.split()
        codes.extend(int(b, 16) for b in data)
        if int(addr, 16) == 0x43AE:
            break
    if codes[0] != 0x76:
        sys.exit("extract-fixtures: the display file does not start with NEWLINE")
    rows, row = [], ""
    for code in codes[1:]:
        if code == 0x76:
            rows.append(row.rstrip(" "))
            row = ""
        else:
            row += zx81_char(code)
    if len(rows) != 24 or row:
        sys.exit(f"extract-fixtures: display file has {len(rows)} lines, expected 24")
    return rows


# "9.A3-A3": a misprint in seed 001 for a2a3 (the only pawn move to a3).
CORRECTIONS = {"A3-A3": "a2a3"}


def coordinate(move):
    if move in CORRECTIONS:
        return CORRECTIONS[move]
    m = re.fullmatch(r"([A-H][1-8])[-x]([A-H][1-8])\+?[?!]*", move)
    if not m:
        sys.exit(f"extract-fixtures: move {move!r} not in coordinate notation")
    return (m.group(1) + m.group(2)).lower()


def chesskelet_games(seed):
    """Seed 001, chapter 12: a title line "White (score) - Black (score)",
    then numbered lines "N.WHITE BLACK   comment"."""
    chapter = seed[seed.index("Chapter 12: Games"):]
    games = []
    for line in chapter.splitlines():
        line = line.strip()
        title = re.fullmatch(r"(.+?) \([0-9.]+\) - (.+?) \([0-9.]+\)", line)
        if title:
            games.append([f"game {title.group(1)} - {title.group(2)}"])
            continue
        move = re.match(r"^(\d+)\.\s*(\S+)\s+(\S+)", line)
        if move and games:
            number = int(move.group(1))
            if number != len(games[-1]):
                sys.exit(f"extract-fixtures: move {number} out of order in {games[-1][0]}")
            games[-1].append(f"{coordinate(move.group(2))} {coordinate(move.group(3))}")
    if len(games) != 3:
        sys.exit(f"extract-fixtures: {len(games)} games in chapter 12, expected 3")
    return [line for game in games for line in game]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=str(ROOT.parent / "shared" / "seeds"))
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    seeds = pathlib.Path(args.seeds)
    seed_1k = (seeds / SEED_1K).read_text(encoding="utf-8")
    seed_cs = (seeds / SEED_CHESSKELET).read_text(encoding="utf-8")
    made = {
        "1k-listing-bytes.txt": listing_lines(seed_1k),
        "1k-boot-screen.txt": boot_screen(seed_1k),
        "chesskelet-games.txt": chesskelet_games(seed_cs),
    }
    stale = []
    for name, lines in made.items():
        text = "".join(f"{line}\n" for line in lines)
        path = FIXTURES / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote tests/fixtures/{name} ({len(lines)} lines)")
    if stale:
        sys.exit("extract-fixtures: differs from the seeds: " + ", ".join(stale))
    if args.check:
        print("tests/fixtures agree with the seeds")


main()
