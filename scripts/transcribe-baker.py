#!/usr/bin/env python3
"""Rebuild Toni Baker's draughts routines from part three (seed 003) and check them.

Seed 003 prints, in Toni Baker's "Mastering Machine Code on Your ZX81"
(draughts, part three, as transcribed on the web by "Thunor"), the routines
SQUAREVAL (0x4DF1), EVALUATE (0x4E43) and WHAT (0x4E9F) as listings: one line
per instruction, "BYTES  [LABEL]  MNEMONIC  comment", the hex without spaces;
"[Write to XXXXh.]" notes give the addresses.  It also prints two short
previews of the same code ("4E43: CDF14D ...") and two unaddressed pieces:
the ADDASTEP sketch and the NEW ROM SAVE patch.  This script:

  1. extracts every printed line into tests/fixtures/baker/listing.txt
     (with its seed line number), and the addresses the code names
     (INITIAL, TABLE, SCANSQR, LBASE, KPCHKNG, ...) from the operand bytes of
     the instructions that use them -- WKBOARD from the text's "left
     unchanged at 403C", its high byte checked against "LD H,40";
  2. applies tests/fixtures/baker/resolutions.txt (ours: the listing's
     inconsistencies and the deliberate-mistake fix, argued in
     tapes/BAKER.md) and checks that the routines are contiguous
     0x4DF1..0x4ED0, that each "[Write to]" address is where the previous
     code ended, and that the previews agree;
  3. assembles every used instruction with pasmo, names and labels as the
     listing gives them, and checks that it gives the used bytes at its
     address; every printed line NOT in the resolutions must assemble to its
     printed bytes, so no inconsistency goes undocumented;
  4. writes tapes/baker-draughts.bin (resolved, fix applied) and
     tapes/baker-draughts-printed.bin (every byte as first printed, fix
     applied: the evidence for the crash investigation), both loaded at
     0x4DF1.

Usage:
  scripts/transcribe-baker.py [SEED]   regenerate the fixture and the images
  scripts/transcribe-baker.py --check  no seed: rebuild from the committed
                                       fixture and fail if an image differs

SEED defaults to ../shared/seeds/003_029020bca594eee3.txt beside the
repository; without it the committed fixture is used.  Needs pasmo.
"""
import hashlib
import os
import re
import sys

from pasmo_listing import assemble as assemble_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = os.path.join(ROOT, "..", "shared", "seeds", "003_029020bca594eee3.txt")
FIX_DIR = os.path.join(ROOT, "tests", "fixtures", "baker")
LISTING = os.path.join(FIX_DIR, "listing.txt")
RESOLUTIONS = os.path.join(FIX_DIR, "resolutions.txt")
LAYOUT = os.path.join(FIX_DIR, "layout.txt")
RESOLVED = os.path.join(ROOT, "tapes", "baker-draughts.bin")
PRINTED = os.path.join(ROOT, "tapes", "baker-draughts-printed.bin")
START, END = 0x4DF1, 0x4ED0  # SQUAREVAL .. the last byte of WHAT

MARK = re.compile(r"^\[Write to ([0-9A-F]{4})h\.\]")
PREVIEW = re.compile(r"^([0-9A-F]{4}): (.*)$")
HEX = re.compile(r"^(?:[0-9A-F]{2}){1,4}$")
WKBOARD_TEXT = re.compile(r"WKBOARD should be left unchanged at ([0-9A-F]{4})")
# Opcodes whose last two bytes are a 16-bit address named in the mnemonic.
WORD_OPS = {(0x32,), (0x11,), (0x21,), (0x22,), (0x3A,), (0xC3,), (0xCA,), (0xCD,),
            (0xED, 0x53), (0xED, 0x5B), (0xED, 0x7B)}


def listing_line(s):
    """(bytes, label, instruction) of a printed line, or None."""
    if not HEX.match(s[:10].strip()) or (len(s) > 10 and s[9] != " "):
        return None
    rest = s[20:].strip()
    if len(s) <= 20 or not rest:
        return None
    ins = re.split(r"\s{2,}", rest)[0]
    return bytes.fromhex(s[:10].strip()), s[10:20].strip(), ins


def parse_seed(text):
    """Blocks [(kind, address|None, [(seedline, bytes, label, ins)])] and names."""
    blocks, cur = [], None
    for no, raw in enumerate(text.splitlines(), 1):
        m = MARK.match(raw)
        if m:
            cur = None
            blocks.append(("listing", int(m.group(1), 16), []))
            continue
        m = PREVIEW.match(raw)
        if m and listing_line(m.group(2)):
            cur = ("preview", int(m.group(1), 16), [])
            blocks.append(cur)
            raw = m.group(2)
        elif raw.startswith("      ") and cur and cur[0] == "preview" and listing_line(raw[6:]):
            raw = raw[6:]
        line = listing_line(raw)
        if line:
            if blocks and blocks[-1][0] == "listing" and not blocks[-1][2]:
                cur = blocks[-1]
            if cur is None:
                cur = ("sketch", None, [])
                blocks.append(cur)
            cur[2].append((no,) + line)
        elif raw and not raw[0].isspace():
            cur = None
    blocks = [b for b in blocks if b[2]]
    m = WKBOARD_TEXT.search(text)
    if not m:
        sys.exit("seed: no WKBOARD address in the text")
    return blocks, {"WKBOARD": (int(m.group(1), 16), "text: left unchanged at NEW ROM")}


def derive_names(blocks, names):
    """Addresses named in mnemonics, read from the operand bytes that encode them."""
    labels = {lab for _, _, lines in blocks for _, _, lab, _ in lines if lab}
    for _, _, lines in blocks:
        for no, code, _, ins in lines:
            syms = [w for w in re.findall(r"[A-Z][A-Z_]+", ins.split(None, 1)[-1])
                    if w not in {"A", "B", "C", "D", "E", "H", "L", "HL", "DE", "BC", "SP", "NZ", "Z", "NC"}]
            if len(syms) != 1 or syms[0] in labels or len(code) < 3 or tuple(code[:-2]) not in WORD_OPS:
                continue
            value = code[-2] | code[-1] << 8
            old = names.get(syms[0])
            if old and old[0] != value:
                sys.exit(f"{syms[0]} is {old[0]:04X} and {value:04X} (seed line {no})")
            names.setdefault(syms[0], (value, f"seed line {no}: {code.hex().upper()} {ins}"))
    return names


def write_listing(blocks, names):
    out = [
        "# Toni Baker's draughts, part three (seed 003): every printed code line.",
        "# Extracted by scripts/transcribe-baker.py; do not edit by hand.",
        "# name NAME ADDRESS|where it comes from",
        "# block KIND ADDRESS   -- listing (\"[Write to]\"), preview, sketch (no address)",
        "# SEEDLINE|BYTES|LABEL|INSTRUCTION -- as printed",
    ]
    out += [f"name {n} {v:04x}|{why}" for n, (v, why) in sorted(names.items(), key=lambda kv: kv[1][0])]
    for kind, addr, lines in blocks:
        out.append(f"block {kind} {'-' if addr is None else f'{addr:04x}'}")
        out += [f"{no}|{code.hex(' ')}|{lab}|{ins}" for no, code, lab, ins in lines]
    return "\n".join(out) + "\n"


def read_listing(text):
    blocks, names = [], {}
    for raw in text.splitlines():
        if raw.startswith("#") or not raw.strip():
            continue
        if raw.startswith("name "):
            head, why = raw.split("|", 1)
            _, n, v = head.split()
            names[n] = (int(v, 16), why)
        elif raw.startswith("block "):
            _, kind, addr = raw.split()
            blocks.append((kind, None if addr == "-" else int(addr, 16), []))
        else:
            no, code, lab, ins = raw.split("|")
            blocks[-1][2].append((int(no), bytes.fromhex(code), lab, ins))
    return blocks, names


def read_resolutions():
    out = []
    for raw in open(RESOLUTIONS).read().splitlines():
        if raw.startswith("#") or not raw.strip():
            continue
        addr, printed, ins, action, used, used_ins = raw.split("|")
        out.append({"addr": int(addr, 16), "printed": bytes.fromhex(printed), "ins": ins,
                    "action": action, "used": bytes.fromhex(used), "used_ins": used_ins, "hits": 0})
    return out


def entry_for(res, code, ins):
    hits = [r for r in res if r["printed"] == code and r["ins"] == ins]
    if len(hits) > 1:
        sys.exit(f"resolutions: {code.hex()} {ins} listed twice")
    return hits[0] if hits else None


def routines(blocks, res):
    """The resolved and the printed code: lists of (addr, bytes, label, ins, seedline, entry)."""
    resolved, printed, twins_done = [], [], set()
    twins = {r["addr"] for r in res if r["action"] == "drop"}
    pc_r = pc_p = None
    for kind, addr, lines in blocks:
        if kind != "listing":
            continue
        if pc_r is not None and addr != pc_r:
            sys.exit(f"[Write to {addr:04X}h] but the code before ends at {pc_r - 1:04X}")
        pc_r = addr if pc_r is None else pc_r
        pc_p = addr if pc_p is None else pc_p
        for no, code, lab, ins in lines:
            e = entry_for(res, code, ins)
            if e:
                e["hits"] += 1
                last = resolved[-1][0] if resolved else None
                if e["addr"] != pc_r and not (e["action"] == "drop" and e["addr"] == last):
                    sys.exit(f"resolution {e['addr']:04X} {ins}: the line falls at {pc_r:04X}")
            if e is None or e["action"] != "drop":
                use = (e["used"], e["used_ins"]) if e else (code, ins)
                resolved.append((pc_r, use[0], lab, use[1], no, e))
                pc_r += len(use[0])
            if e and e["addr"] in twins:
                if e["addr"] in twins_done:
                    continue
                twins_done.add(e["addr"])
            fixed = e["used"] if e and e["action"] == "fix" else code
            printed.append((pc_p, fixed, lab, ins, no, e))
            pc_p += len(fixed)
    for r in res:
        if r["hits"] != 1:
            sys.exit(f"resolution {r['addr']:04X} {r['ins']} matches {r['hits']} printed lines")
    return resolved, printed


def image(code, what):
    out = b"".join(c for _, c, *_ in code)
    if code[0][0] != START or code[-1][0] + len(code[-1][1]) != END + 1 or len(out) != END + 1 - START:
        sys.exit(f"{what}: {len(out)} bytes from {code[0][0]:04X}, expected {START:04X}..{END:04X}")
    return out


def pasmo(names, blocks_src):
    """Assemble [(org, [(tag, label, ins)])]; return ({tag: address}, at(address, n) -> bytes)."""
    src = [f"{n} equ 0{v:04X}H" for n, (v, _) in names.items()]
    for org, lines in blocks_src:
        src.append(f" org 0{org:04X}H")
        for tag, label, ins in lines:
            if label:
                src.append(f"{label}:")
            src.append(f"{tag}: {normalise(ins)}")
        src.append(f"{lines[-1][0]}_end:")
    built, symbols, base = assemble_lines(src)
    return symbols, lambda a, n: built[a - base: a - base + n]


def normalise(ins):
    """Baker writes hex operands bare ("CP 27", "LD HL,0000"): give pasmo 027H."""
    op, _, args = ins.partition(" ")
    hexnum = lambda a: re.fullmatch(r"[0-9A-F]{2}|[0-9A-F]{4}", a) and a not in ("BC", "DE")
    parts = [f"0{a}H" if hexnum(a) else a for a in args.split(",")]
    return f"{op} {','.join(parts)}" if args else op


def check_assembly(names, resolved, blocks):
    """Every used line assembles to its used bytes; every unlisted printed line to its printed bytes."""
    code = [(f"_R{i}", lab, ins) for i, (_, _, lab, ins, _, _) in enumerate(resolved)]
    sketches = [(kind, lines) for kind, addr, lines in blocks if kind == "sketch"]
    src = [(START, code)]
    for j, (_, lines) in enumerate(sketches):
        src.append((0x8000 + 0x100 * j, [(f"_S{j}_{i}", lab, ins) for i, (_, _, lab, ins) in enumerate(lines)]))
    symbols, at = pasmo(names, src)
    bad = []
    for i, (addr, used, _, ins, no, _) in enumerate(resolved):
        got = at(symbols[f"_R{i}"], len(used))
        if symbols[f"_R{i}"] != addr or got != used:
            bad.append(f"  seed line {no}, {addr:04X} {ins}: uses {used.hex()}, assembles to {got.hex()}")
    for j, (_, lines) in enumerate(sketches):
        for i, (no, printed, _, ins) in enumerate(lines):
            got = at(symbols[f"_S{j}_{i}"], len(printed))
            if got != printed:
                bad.append(f"  seed line {no} (sketch) {ins}: printed {printed.hex()}, assembles to {got.hex()}")
    return bad, len(resolved) + sum(len(l) for _, l in sketches)


def check_previews(blocks, img):
    for kind, addr, lines in blocks:
        if kind != "preview":
            continue
        pc = addr
        for no, code, _, ins in lines:
            if img[pc - START: pc - START + len(code)] != code:
                sys.exit(f"preview at seed line {no} ({pc:04X} {ins}) disagrees with the routine")
            pc += len(code)


def layout():
    """OURS: where the glue keeps PDN square n (tapes/src/baker-glue.asm, FIRSTSQ)."""
    out = [
        "# The working board of our glue for Toni Baker's routines (NOT Toni Baker's:",
        "# part two's layout is not in the seed). See tapes/BAKER.md \"The glue\".",
        "# Written by scripts/transcribe-baker.py; do not edit by hand.",
        "# pdn: square 1..32 with the computer on 1..12, moving towards 32;",
        "# when the computer plays White, square n of the game is pdn 33-n here.",
        "# address = 404b + (n-1) + (n-1)/8; 4053, 405c, 4065 are guards.",
        "# pdn|address",
    ]
    out += [f"{n}|{0x404B + (n - 1) + (n - 1) // 8:04x}" for n in range(1, 33)]
    return "\n".join(out) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    seed = args[0] if args else SEED
    if not check and os.path.exists(seed):
        blocks, names = parse_seed(open(seed, encoding="utf-8").read())
        names = derive_names(blocks, names)
        open(LISTING, "w").write(write_listing(blocks, names))
        print(f"wrote {os.path.relpath(LISTING, ROOT)} from {seed}")
    else:
        blocks, names = read_listing(open(LISTING).read())
    if check:
        if open(LAYOUT).read() != layout():
            sys.exit("tests/fixtures/baker/layout.txt differs from the glue's layout")
    else:
        open(LAYOUT, "w").write(layout())
    if names["WKBOARD"][0] >> 8 != 0x40:
        sys.exit("WKBOARD is not in page 0x40, which LD H,40 requires")
    res = read_resolutions()
    resolved, printed = routines(blocks, res)
    img, img_printed = image(resolved, "resolved"), image(printed, "printed")
    check_previews(blocks, img)
    bad, n = check_assembly(names, resolved, blocks)
    print(f"{n} instructions assembled by pasmo; mismatches: {len(bad)}")
    if bad:
        sys.exit("\n".join(bad))
    for n_, (v, why) in sorted(names.items(), key=lambda kv: kv[1][0]):
        print(f"  {n_:10} {v:04X}  ({why})")
    diffs = [f"{START + i:04X}: {a:02X}->{b:02X}" for i, (a, b) in enumerate(zip(img_printed, img)) if a != b]
    print(f"printed vs resolved: {', '.join(diffs)}")
    for path, data in ((RESOLVED, img), (PRINTED, img_printed)):
        name = os.path.relpath(path, ROOT)
        print(f"{name}: {len(data)} bytes at {START:04X}, sha256 {hashlib.sha256(data).hexdigest()}")
        if check:
            if open(path, "rb").read() != data:
                sys.exit(f"{name} differs from the listing")
        else:
            open(path, "wb").write(data)
    print("committed images match the listing" if check else "wrote the images")


main()
