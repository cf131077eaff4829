#!/usr/bin/env python3
"""Write the snapshot seeds of the `tapes` fuzz target from a .tap.

    fuzz/make-snapshots.py TAPES/chesskelet.tap OUTDIR

Takes the tape's CODE block (header block 3 gives its start) and writes it
into a 48K RAM image, stopped at its start, as three snapshots:

  chesskelet.sna      48K .sna: 27-byte header, RAM; PC pushed on the stack
  chesskelet-v1.z80   .z80 version 1, compressed
  chesskelet-v3.z80   .z80 version 3 (54-byte extended header), pages 8, 4,
                      5, each compressed

They are seeds for the fuzzer, not programs to play: the machine state
around the code (system variables, screen) is empty.
"""
import struct
import sys

RAM_START, RAM_SIZE = 0x4000, 0xC000
SP = 0xFF00


def code_block(tap):
    blocks, at = [], 0
    while at + 2 <= len(tap):
        (n,) = struct.unpack_from("<H", tap, at)
        blocks.append(tap[at + 2 : at + 2 + n])
        at += 2 + n
    for header, data in zip(blocks, blocks[1:]):
        if header[0] == 0 and header[1] == 3 and data[0] == 0xFF:
            start = struct.unpack_from("<H", header, 14)[0]
            return start, data[1:-1]
    sys.exit("make-snapshots: no CODE block")


def compress(data):
    """The .z80 run-length code: ED ED n b for runs of 5 or more, and for
    any run of EDs of 2 or more; a byte after a single ED is never coded."""
    out, i = bytearray(), 0
    while i < len(data):
        b, n = data[i], 1
        while i + n < len(data) and data[i + n] == b and n < 255:
            n += 1
        if n >= 5 or (b == 0xED and n >= 2):
            out += bytes([0xED, 0xED, n, b])
            i += n
        else:
            out.append(b)
            i += 1
            if b == 0xED and i < len(data):
                out.append(data[i])
                i += 1
    return bytes(out)


def main():
    tap, outdir = open(sys.argv[1], "rb").read(), sys.argv[2]
    start, code = code_block(tap)
    ram = bytearray(RAM_SIZE)
    ram[start - RAM_START : start - RAM_START + len(code)] = code
    ram[SP - RAM_START : SP - RAM_START + 2] = struct.pack("<H", start)

    # .sna: I, HL' DE' BC' AF', HL DE BC IY IX, IFF2, R, AF, SP, IM, border.
    sna = struct.pack("<B4H5HBB2HBB", 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x5C3A, 0, 0, 0, 0, SP, 1, 7)
    open(f"{outdir}/chesskelet.sna", "wb").write(sna + ram)

    # .z80 v1: A F BC HL PC SP I R flags1 DE BC' DE' HL' A' F' IY IX IFF1 IFF2 flags2.
    head = struct.pack("<BBHHHHBBBHHHHBBHHBBB", 0, 0, 0, 0, start, SP, 0x3F, 0,
                       0x20 | (7 << 1), 0, 0, 0, 0, 0, 0, 0x5C3A, 0, 0, 0, 1)
    v1 = head + compress(bytes(ram)) + bytes([0, 0xED, 0xED, 0])
    open(f"{outdir}/chesskelet-v1.z80", "wb").write(v1)

    # .z80 v3: PC 0 in the v1 header, then a 54-byte extension: PC, hardware 0 (48K).
    head3 = head[:6] + b"\0\0" + head[8:]
    ext = struct.pack("<HHBBBB", 54, start, 0, 0, 0, 0) + bytes(54 - 6)
    pages = b""
    for page, base in [(8, 0x4000), (4, 0x8000), (5, 0xC000)]:
        data = compress(bytes(ram[base - RAM_START : base - RAM_START + 0x4000]))
        pages += struct.pack("<HB", len(data), page) + data
    open(f"{outdir}/chesskelet-v3.z80", "wb").write(head3 + ext + pages)


main()
