#!/usr/bin/env python3
"""Wrap a raw CODE image in a ZX Spectrum .tap with a BASIC loader.

    mktap.py NAME ORIGIN IMAGE OUT.tap

Writes four standard-speed blocks, as the ROM's SAVE would:

  1. header  "Program: NAME", autostart line 10
  2. data    10 CLEAR ORIGIN-1: LOAD "" CODE : RANDOMIZE USR ORIGIN
  3. header  "Bytes: NAME", start ORIGIN, length of IMAGE
  4. data    IMAGE

so the tape loads on a real 48K Spectrum with LOAD "".  The output depends
only on the arguments (no dates, no host data): builds are reproducible.

Tape format: each block is a little-endian 16-bit length, a flag byte
(0 = header, 255 = data), the bytes, and an XOR checksum of flag + bytes.
BASIC: line number big-endian, text length little-endian, tokens, numbers as
their digits followed by 0x0E and the 5-byte small-integer form.
"""

import sys

TOK_CLEAR = 0xFD
TOK_LOAD = 0xEF
TOK_CODE = 0xAF
TOK_RANDOMIZE = 0xF9
TOK_USR = 0xC0
ENTER = 0x0D
NUMBER = 0x0E


def number(n: int) -> bytes:
    """A BASIC numeric literal: its digits, then the hidden 5-byte form."""
    if not 0 <= n <= 65535:
        raise ValueError(f"number out of range: {n}")
    return str(n).encode("ascii") + bytes([NUMBER, 0, 0, n & 0xFF, n >> 8, 0])


def basic_line(line: int, body: bytes) -> bytes:
    text = body + bytes([ENTER])
    return bytes([line >> 8, line & 0xFF, len(text) & 0xFF, len(text) >> 8]) + text


def block(flag: int, data: bytes) -> bytes:
    payload = bytes([flag]) + data
    check = 0
    for b in payload:
        check ^= b
    payload += bytes([check])
    return len(payload).to_bytes(2, "little") + payload


def header(kind: int, name: str, length: int, param1: int, param2: int) -> bytes:
    raw = name.encode("ascii")
    if len(raw) > 10:
        raise ValueError(f"tape name too long: {name!r}")
    raw = raw.ljust(10, b" ")
    data = (
        bytes([kind])
        + raw
        + length.to_bytes(2, "little")
        + param1.to_bytes(2, "little")
        + param2.to_bytes(2, "little")
    )
    return block(0x00, data)


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    name, origin_s, image_path, out_path = sys.argv[1:]
    origin = int(origin_s, 0)
    with open(image_path, "rb") as f:
        image = f.read()
    if not image or origin + len(image) > 0x10000 or origin < 0x5D00:
        print(f"bad image: {len(image)} bytes at {origin:#06x}", file=sys.stderr)
        return 1

    body = (
        bytes([TOK_CLEAR])
        + number(origin - 1)
        + b":"
        + bytes([TOK_LOAD])
        + b'""'
        + bytes([TOK_CODE])
        + b":"
        + bytes([TOK_RANDOMIZE, TOK_USR])
        + number(origin)
    )
    program = basic_line(10, body)

    tape = (
        header(0, name, len(program), 10, len(program))
        + block(0xFF, program)
        + header(3, name, len(image), origin, 32768)
        + block(0xFF, image)
    )
    with open(out_path, "wb") as f:
        f.write(tape)
    return 0


if __name__ == "__main__":
    sys.exit(main())
