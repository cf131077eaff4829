#!/usr/bin/env python3
"""Rebuild tapes/1k-zx-chess.p from the hex dump in seed 000 and cross-check it.

The seed (an Italian study of 1K ZX Chess) prints the original tape image as a
hex dump ("Offset(h) 00 01 ..."), then a commented disassembly whose byte
columns give the same bytes by Z80 address.  The tape loads at 0x4009, so tape
offset N is address 0x4009 + N.  This script:

  1. takes the first complete dump (offsets 0x000..0x3AC, 0x3AD bytes);
  2. compares every byte with the disassembly columns and the reformatted
     display-file table, printing each difference;
  3. writes the image (or, with --check, compares it with the committed file).

Usage: scripts/transcribe-1k-tape.py SEED [OUT] [--check]
"""
import hashlib, re, sys

LOAD = 0x4009
LENGTH = 0x3AD

def dump_bytes(text):
    image = {}
    for line in text.splitlines():
        m = re.match(r"^([0-9A-F]{8})  ((?:[0-9A-F]{2} ?){1,16})\s*$", line)
        if not m:
            continue
        base = int(m.group(1), 16)
        for i, h in enumerate(m.group(2).split()):
            image.setdefault(base + i, int(h, 16))  # the first dump wins
    return bytes(image[i] for i in range(LENGTH))

def listing_bytes(text):
    """Address -> byte from the disassembly and display tables ("4082  06 05 ...")."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^([0-9A-F]{4})  ((?:[0-9A-F]{2} )*[0-9A-F]{2})(?:\s|$)", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        for i, h in enumerate(m.group(2).split()):
            out[addr + i] = int(h, 16)
    return out

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seed = open(args[0], encoding="utf-8").read()
    image = dump_bytes(seed)
    listed = listing_bytes(seed)
    diffs = [a for a in sorted(listed) if LOAD <= a < LOAD + LENGTH and listed[a] != image[a - LOAD]]
    checked = sum(1 for a in listed if LOAD <= a < LOAD + LENGTH)
    print(f"tape: {len(image)} bytes, sha256 {hashlib.sha256(image).hexdigest()}")
    print(f"listing bytes cross-checked: {checked}, differences: {len(diffs)}")
    for a in diffs:
        print(f"  {a:04X}: tape {image[a - LOAD]:02X}, listing {listed[a]:02X}")
    unexpected = [a for a in diffs if not 0x400E <= a <= 0x401D]
    if unexpected:
        sys.exit(f"unexpected differences outside 0x400E..0x401D: {len(unexpected)}")
    if len(args) > 1:
        if "--check" in sys.argv:
            if open(args[1], "rb").read() != image:
                sys.exit(f"{args[1]} differs from the seed's dump")
            print(f"{args[1]} matches the seed")
        else:
            open(args[1], "wb").write(image)
            print(f"wrote {args[1]}")

main()
