//! Our own Z80 core, instruction by instruction: the T-states of every
//! documented opcode and prefix from the Z80 manual (Zilog UM0080, the
//! instruction tables; both cases of each conditional), the R register's
//! count of M1 cycles, and flag results worked out by hand (the manual's
//! flag columns; bits 3 and 5, MEMPTR and Q after Sean Young, "The
//! Undocumented Z80 Documented", 2005).

use retrochess::machine::Regs;
use retrochess::machine::cpu::check::FlatBus;
use retrochess::machine::cpu::own::Own;

/// Where the code under test goes.
const AT: u16 = 0x8000;

/// T-states of the unprefixed opcodes, from the manual; conditional
/// instructions as not taken (taken in [`TAKEN`]). 0: a prefix.
#[rustfmt::skip]
const MAIN: [u8; 256] = [
//  0   1   2   3   4   5   6   7   8   9   A   B   C   D   E   F
    4, 10,  7,  6,  4,  4,  7,  4,  4, 11,  7,  6,  4,  4,  7,  4, // 0
    8, 10,  7,  6,  4,  4,  7,  4, 12, 11,  7,  6,  4,  4,  7,  4, // 1
    7, 10, 16,  6,  4,  4,  7,  4,  7, 11, 16,  6,  4,  4,  7,  4, // 2
    7, 10, 13,  6, 11, 11, 10,  4,  7, 11, 13,  6,  4,  4,  7,  4, // 3
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // 4
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // 5
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // 6
    7,  7,  7,  7,  7,  7,  4,  7,  4,  4,  4,  4,  4,  4,  7,  4, // 7
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // 8
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // 9
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // A
    4,  4,  4,  4,  4,  4,  7,  4,  4,  4,  4,  4,  4,  4,  7,  4, // B
    5, 10, 10, 10, 10, 11,  7, 11,  5, 10, 10,  0, 10, 17,  7, 11, // C
    5, 10, 10, 11, 10, 11,  7, 11,  5,  4, 10, 11, 10,  0,  7, 11, // D
    5, 10, 10, 19, 10, 11,  7, 11,  5,  4, 10,  4, 10,  0,  7, 11, // E
    5, 10, 10,  4, 10, 11,  7, 11,  5,  6, 10,  4, 10,  0,  7, 11, // F
];

/// Conditional instructions taken: DJNZ 13, JR cc 12, RET cc 11, CALL cc
/// 17 (JP cc is 10 either way).
fn taken(op: u8) -> Option<u8> {
    match op {
        0x10 => Some(13),
        0x20 | 0x28 | 0x30 | 0x38 => Some(12),
        _ if op & 0xC7 == 0xC0 => Some(11),
        _ if op & 0xC7 == 0xC4 => Some(17),
        _ if op & 0xC7 == 0xC2 => Some(10),
        _ => None,
    }
}

/// The documented ED opcodes and their T-states (block instructions as
/// the last repetition; a repetition is 21).
#[rustfmt::skip]
const ED: [(u8, u8); 58] = [
    (0x40, 12), (0x48, 12), (0x50, 12), (0x58, 12), (0x60, 12), (0x68, 12), (0x78, 12),
    (0x41, 12), (0x49, 12), (0x51, 12), (0x59, 12), (0x61, 12), (0x69, 12), (0x79, 12),
    (0x42, 15), (0x52, 15), (0x62, 15), (0x72, 15), (0x4A, 15), (0x5A, 15), (0x6A, 15), (0x7A, 15),
    (0x43, 20), (0x53, 20), (0x63, 20), (0x73, 20), (0x4B, 20), (0x5B, 20), (0x6B, 20), (0x7B, 20),
    (0x44, 8), (0x45, 14), (0x4D, 14), (0x46, 8), (0x56, 8), (0x5E, 8),
    (0x47, 9), (0x4F, 9), (0x57, 9), (0x5F, 9), (0x67, 18), (0x6F, 18),
    (0xA0, 16), (0xA1, 16), (0xA2, 16), (0xA3, 16), (0xA8, 16), (0xA9, 16), (0xAA, 16), (0xAB, 16),
    (0xB0, 16), (0xB1, 16), (0xB2, 16), (0xB3, 16), (0xB8, 16), (0xB9, 16), (0xBA, 16), (0xBB, 16),
];

/// The documented DD opcodes (FD the same with IY) and their T-states.
#[rustfmt::skip]
const DD: [(u8, u8); 36] = [
    (0x09, 15), (0x19, 15), (0x29, 15), (0x39, 15), (0x21, 14), (0x22, 20), (0x2A, 20),
    (0x23, 10), (0x2B, 10), (0x34, 23), (0x35, 23), (0x36, 19),
    (0x46, 19), (0x4E, 19), (0x56, 19), (0x5E, 19), (0x66, 19), (0x6E, 19), (0x7E, 19),
    (0x70, 19), (0x71, 19), (0x72, 19), (0x73, 19), (0x74, 19), (0x75, 19), (0x77, 19),
    (0x86, 19), (0x8E, 19), (0x96, 19), (0x9E, 19), (0xA6, 19), (0xAE, 19), (0xB6, 19), (0xBE, 19),
    (0xE1, 14), (0xE5, 15),
];

/// Three more DD opcodes: EX (SP),IX 23, JP (IX) 8, LD SP,IX 10.
const DD_MORE: [(u8, u8); 3] = [(0xE3, 23), (0xE9, 8), (0xF9, 10)];

/// A CPU with `regs` (PC at [`AT`]) and memory holding `code` there.
fn cpu(code: &[u8], regs: Regs) -> (Own, FlatBus) {
    let mut bus = FlatBus::new(&[]);
    for (i, b) in code.iter().enumerate() {
        bus.mem[usize::from(AT) + i] = *b;
    }
    let mut cpu = Own::new();
    cpu.set_regs(&Regs { pc: AT, ..regs });
    (cpu, bus)
}

/// Registers where nothing loops, halts or jumps far: BC 1 (block
/// instructions stop after one), SP and HL in RAM, interrupts on.
fn plain(f: u8) -> Regs {
    Regs {
        af: 0x1200 | u16::from(f),
        bc: 0x0001,
        de: 0x9000,
        hl: 0xA000,
        ix: 0xB000,
        iy: 0xC000,
        sp: 0xF000,
        iff1: true,
        iff2: true,
        im: 1,
        ..Regs::default()
    }
}

/// T-states and R increments of the instruction `code` with flags `f`.
fn run(code: &[u8], f: u8) -> (u64, u8) {
    let (mut cpu, mut bus) = cpu(code, plain(f));
    let r = cpu.regs().r;
    cpu.step(&mut bus);
    (cpu.tstates(), cpu.regs().r.wrapping_sub(r) & 0x7F)
}

/// The flags for which condition `cc` of `op` (bits 5..3, or 4..3 for
/// JR) does not hold, and those for which it does.
fn flags_for(op: u8) -> (u8, u8) {
    let cc = if matches!(op, 0x20 | 0x28 | 0x30 | 0x38) {
        (op >> 3) & 3
    } else {
        (op >> 3) & 7
    };
    let bit = [0x40, 0x01, 0x04, 0x80][usize::from(cc >> 1)];
    if cc & 1 == 1 { (0, bit) } else { (bit, 0) }
}

#[test]
fn every_unprefixed_opcode_takes_the_manuals_t_states() {
    let mut checked = 0;
    for op in 0..=255u8 {
        if matches!(op, 0xCB | 0xDD | 0xED | 0xFD) {
            continue;
        }
        let code = [op, 0x00, 0x90];
        if op == 0x10 {
            // DJNZ: B 1 falls through, B 2 jumps.
            for (b, t) in [(1, 8), (2, 13)] {
                let (mut c, mut bus) = cpu(
                    &code,
                    Regs {
                        bc: b << 8,
                        ..plain(0)
                    },
                );
                c.step(&mut bus);
                assert_eq!(c.tstates(), t, "DJNZ with B {b}");
            }
            checked += 2;
            continue;
        }
        match taken(op) {
            Some(t) if op != 0x18 => {
                let (no, yes) = flags_for(op);
                assert_eq!(
                    run(&code, no),
                    (u64::from(MAIN[usize::from(op)]), 1),
                    "{op:02X} not taken"
                );
                assert_eq!(run(&code, yes), (u64::from(t), 1), "{op:02X} taken");
                checked += 2;
            }
            _ => {
                assert_eq!(
                    run(&code, 0),
                    (u64::from(MAIN[usize::from(op)]), 1),
                    "{op:02X}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 252 + 8 + 8 + 4 + 1 + 8);
}

#[test]
fn every_cb_opcode_takes_the_manuals_t_states() {
    for op in 0..=255u8 {
        // Registers 8; (HL): BIT 12, the others 15.
        let t = match (op & 7, op >> 6) {
            (6, 1) => 12,
            (6, _) => 15,
            _ => 8,
        };
        assert_eq!(run(&[0xCB, op], 0), (t, 2), "CB {op:02X}");
    }
}

#[test]
fn every_documented_ed_opcode_takes_the_manuals_t_states() {
    for (op, t) in ED {
        // The block I/O instructions count B, the others BC: one to go.
        let bc = if op >= 0xA0 && op & 2 != 0 {
            0x0100
        } else {
            0x0001
        };
        let (mut c, mut bus) = cpu(&[0xED, op, 0x00, 0x90], Regs { bc, ..plain(0) });
        c.step(&mut bus);
        let (tstates, r) = (c.tstates(), c.regs().r & 0x7F);
        assert_eq!(tstates, u64::from(t), "ED {op:02X}");
        // LD R,A sets R (to A, 0x12).
        assert_eq!(r, if op == 0x4F { 0x12 } else { 2 }, "ED {op:02X}");
    }
    // A block instruction that repeats: 21, PC back on it.
    for op in [0xB0, 0xB1, 0xB2, 0xB3, 0xB8, 0xB9, 0xBA, 0xBB] {
        let (mut c, mut bus) = cpu(
            &[0xED, op],
            Regs {
                bc: 0x0202,
                ..plain(0)
            },
        );
        bus.mem[0xA000] = 0x55;
        c.step(&mut bus);
        assert_eq!((c.tstates(), c.pc()), (21, AT), "ED {op:02X} repeating");
    }
    // Undocumented ED opcodes run as 8 T-state NOPs.
    let (mut c, mut bus) = cpu(&[0xED, 0x00], plain(0));
    c.step(&mut bus);
    assert_eq!((c.tstates(), c.pc()), (8, AT + 2));
}

#[test]
fn every_documented_index_opcode_takes_the_manuals_t_states() {
    for prefix in [0xDD, 0xFD] {
        for (op, t) in DD.into_iter().chain(DD_MORE) {
            assert_eq!(
                run(&[prefix, op, 0x05, 0x90], 0),
                (u64::from(t), 2),
                "{prefix:02X} {op:02X}"
            );
        }
        for op in 0..=255u8 {
            // DD CB d op: BIT 20, the others 23; two M1 cycles.
            let t = if op >> 6 == 1 { 20 } else { 23 };
            assert_eq!(
                run(&[prefix, 0xCB, 0x05, op], 0),
                (t, 2),
                "{prefix:02X} CB {op:02X}"
            );
        }
        // A prefix before an instruction that does not use HL: 4 more.
        assert_eq!(run(&[prefix, 0x00], 0), (8, 2));
        assert_eq!(run(&[prefix, prefix, 0x21, 0, 0], 0), (18, 3));
    }
}

/// Runs `code` from `regs` and gives the registers after.
fn after(code: &[u8], regs: Regs, memory: &[(u16, u8)]) -> (Regs, Own) {
    let (mut c, mut bus) = cpu(code, regs);
    for &(a, v) in memory {
        bus.mem[usize::from(a)] = v;
    }
    let end = AT + code.len() as u16;
    while c.pc() != end && c.tstates() < 1000 {
        c.step(&mut bus);
    }
    (c.regs(), c)
}

/// One instruction on A and an operand in B, from flags `f`: (A, F) after.
fn alu(code: &[u8], a: u8, b: u8, f: u8) -> (u8, u8) {
    let regs = Regs {
        af: u16::from_be_bytes([a, f]),
        bc: u16::from_be_bytes([b, 0]),
        ..plain(0)
    };
    let (r, _) = after(code, regs, &[]);
    (r.a(), r.f())
}

/// A hand-worked case: code, A, B, F before, A after, F after.
type Worked = (&'static [u8], u8, u8, u8, u8, u8);

#[test]
fn arithmetic_sets_the_flags_worked_out_by_hand() {
    // (code, A, B, F before, A after, F after); F is S Z Y H X P/V N C.
    #[rustfmt::skip]
    let cases: [Worked; 26] = [
        // ADD A,B: 0x7F + 0x01 = 0x80: S, H (F+1), overflow; Y X from 0x80 (0).
        (&[0x80], 0x7F, 0x01, 0x00, 0x80, 0x94),
        // 0xFF + 0x01 = 0x00: Z, H, C.
        (&[0x80], 0xFF, 0x01, 0x00, 0x00, 0x51),
        // 0x14 + 0x14 = 0x28: Y and X from the result (0x28).
        (&[0x80], 0x14, 0x14, 0x00, 0x28, 0x28),
        // ADC A,B with carry: 0x0F + 0x00 + 1 = 0x10: H.
        (&[0x88], 0x0F, 0x00, 0x01, 0x10, 0x10),
        // SUB B: 0x80 - 0x01 = 0x7F: H (borrow from bit 4), overflow, N; Y X of 0x7F.
        (&[0x90], 0x80, 0x01, 0x00, 0x7F, 0x3E),
        // 0x00 - 0x01 = 0xFF: S, Y, H, X, N, C.
        (&[0x90], 0x00, 0x01, 0x00, 0xFF, 0xBB),
        // SBC A,B with carry: 0x10 - 0x0F - 1 = 0x00: Z, H, N.
        (&[0x98], 0x10, 0x0F, 0x01, 0x00, 0x52),
        // AND B: 0xF0 & 0x3C = 0x30: Y, H, parity even (2 bits).
        (&[0xA0], 0xF0, 0x3C, 0x00, 0x30, 0x34),
        // XOR B: 0xFF ^ 0xFF = 0: Z, P.
        (&[0xA8], 0xFF, 0xFF, 0x01, 0x00, 0x44),
        // OR B: 0x80 | 0x01 = 0x81: S, parity even.
        (&[0xB0], 0x80, 0x01, 0x00, 0x81, 0x84),
        // CP B: 0x10 - 0x28, A kept: C, N, H clear (0 - 8 borrows: H set),
        // Y and X from the operand 0x28; result 0xE8: S.
        (&[0xB8], 0x10, 0x28, 0x00, 0x10, 0xBB),
        // INC B is on B: INC A: 0x7F -> 0x80: S, H, overflow; C kept.
        (&[0x3C], 0x7F, 0x00, 0x01, 0x80, 0x95),
        // DEC A: 0x01 -> 0x00: Z, N; C kept.
        (&[0x3D], 0x01, 0x00, 0x01, 0x00, 0x43),
        // DEC A: 0x80 -> 0x7F: H, overflow, N, Y X of 0x7F.
        (&[0x3D], 0x80, 0x00, 0x00, 0x7F, 0x3E),
        // NEG: 0x01 -> 0xFF: S, Y, H, X, N, C.
        (&[0xED, 0x44], 0x01, 0x00, 0x00, 0xFF, 0xBB),
        // NEG: 0x80 -> 0x80: S, overflow, N, C.
        (&[0xED, 0x44], 0x80, 0x00, 0x00, 0x80, 0x87),
        // CPL: 0x5A -> 0xA5: H, N set, Y from 0xA5 (1), X (0); S Z P C kept.
        (&[0x2F], 0x5A, 0x00, 0xC5, 0xA5, 0xF7),
        // DAA after ADD 0x15 + 0x27 = 0x3C: adjusted to 0x42, H (low nibble > 9), parity even.
        (&[0x27], 0x3C, 0x00, 0x00, 0x42, 0x14),
        // DAA after SUB 0x42 - 0x15 = 0x2D (N, H): 0x27, N; Y of 0x27, parity even.
        (&[0x27], 0x2D, 0x00, 0x12, 0x27, 0x26),
        // DAA on 0x9A: 0x00 with C, H, Z, P.
        (&[0x27], 0x9A, 0x00, 0x00, 0x00, 0x55),
        // RLCA: 0x81 -> 0x03, C; S Z P kept.
        (&[0x07], 0x81, 0x00, 0xC4, 0x03, 0xC5),
        // RRA with carry: 0x01 -> 0x80, C out.
        (&[0x1F], 0x01, 0x00, 0x01, 0x80, 0x01),
        // RL B... on A: CB 17 (RL A): 0x80 -> 0x00 with no carry in: Z, P, C.
        (&[0xCB, 0x17], 0x80, 0x00, 0x00, 0x00, 0x45),
        // SRA A: 0x81 -> 0xC0: S, parity even, C.
        (&[0xCB, 0x2F], 0x81, 0x00, 0x00, 0xC0, 0x85),
        // SLL A (undocumented, CB 37): 0x80 -> 0x01, C.
        (&[0xCB, 0x37], 0x80, 0x00, 0x00, 0x01, 0x01),
        // BIT 7,A on 0x80: S, H, Y X of A (0); C kept.
        (&[0xCB, 0x7F], 0x80, 0x00, 0x01, 0x80, 0x91),
    ];
    for (i, &(code, a, b, f, a_after, f_after)) in cases.iter().enumerate() {
        assert_eq!(
            alu(code, a, b, f),
            (a_after, f_after),
            "case {i}: {code:02X?} A {a:02X} B {b:02X} F {f:02X}"
        );
    }
}

#[test]
fn sixteen_bit_arithmetic_sets_the_flags_worked_out_by_hand() {
    let hl = |code: &[u8], hl: u16, bc: u16, f: u8| {
        let regs = Regs {
            af: u16::from(f),
            hl,
            bc,
            ..plain(0)
        };
        let (r, c) = after(code, regs, &[]);
        (r.hl, r.f(), c.memptr())
    };
    // ADD HL,BC: 0x0FFF + 0x0001 = 0x1000: H from bit 11; S Z P kept; Y X
    // of the high byte 0x10 (0); MEMPTR is HL + 1 before.
    assert_eq!(hl(&[0x09], 0x0FFF, 0x0001, 0xC4), (0x1000, 0xD4, 0x1000));
    // ADC HL,BC: 0x7FFF + 0 + carry = 0x8000: S, H, overflow.
    assert_eq!(
        hl(&[0xED, 0x4A], 0x7FFF, 0x0000, 0x01),
        (0x8000, 0x94, 0x8000)
    );
    // SBC HL,BC: 0x0000 - 0x0001 = 0xFFFF: S, Y, H, X, N, C.
    assert_eq!(
        hl(&[0xED, 0x42], 0x0000, 0x0001, 0x00),
        (0xFFFF, 0xBB, 0x0001)
    );
    // SBC HL,BC: equal: Z, N.
    assert_eq!(
        hl(&[0xED, 0x42], 0x1234, 0x1234, 0x00),
        (0x0000, 0x42, 0x1235)
    );
}

#[test]
fn scf_and_ccf_take_bits_3_and_5_from_q() {
    // After an instruction that set the flags, X and Y come from A alone;
    // otherwise from A | F (the NMOS Z80's (Q ^ F) | A).
    let scf = |code: &[u8], a: u8, f: u8| {
        let (r, _) = after(
            code,
            Regs {
                af: u16::from_be_bytes([a, f]),
                ..plain(0)
            },
            &[],
        );
        r.f()
    };
    // OR A (A 0x00 -> Z P), then SCF: X Y from A (0): Z P C.
    assert_eq!(scf(&[0xB7, 0x37], 0x00, 0x28), 0x45);
    // NOP, then SCF with F's X Y set: kept from F: X Y C.
    assert_eq!(scf(&[0x00, 0x37], 0x00, 0x28), 0x29);
    // CCF with carry: H from the old carry, C cleared; X Y from A 0x28.
    assert_eq!(scf(&[0x00, 0x3F], 0x28, 0x01), 0x38);
    // POP AF does not set Q: SCF after it takes F's X Y (0x28 from the stack).
    let (r, _) = after(
        &[0xF1, 0x37],
        Regs {
            sp: 0xF000,
            ..plain(0)
        },
        &[(0xF000, 0x28), (0xF001, 0x00)],
    );
    assert_eq!(r.f(), 0x29);
}

#[test]
fn bit_on_memory_takes_bits_3_and_5_from_memptr() {
    // LD A,(0x2800) leaves MEMPTR 0x2801; BIT 0,(HL) on a byte with bit 0
    // set: H; X and Y from MEMPTR's high byte 0x28; C kept.
    let (r, c) = after(
        &[0x3A, 0x00, 0x28, 0xCB, 0x46],
        Regs {
            hl: 0xA000,
            af: 0x0001,
            ..plain(0)
        },
        &[(0xA000, 0x01)],
    );
    assert_eq!((r.f(), c.memptr()), (0x39, 0x2801));
    // BIT 1,(IX+5): X and Y from the address's high byte (0xB0 -> Y).
    let (r, _) = after(
        &[0xDD, 0xCB, 0x05, 0x4E],
        Regs {
            ix: 0xB000,
            af: 0x0000,
            ..plain(0)
        },
        &[(0xB005, 0x00)],
    );
    assert_eq!(r.f(), 0x74);
}

#[test]
fn block_instructions_set_the_flags_worked_out_by_hand() {
    // LDI of 0x20 with A 0x08: n = 0x28: X from bit 3 (1), Y from bit 1 (0);
    // BC 2 -> 1: P/V; S Z C kept.
    let (r, _) = after(
        &[0xED, 0xA0],
        Regs {
            af: 0x08C1,
            bc: 2,
            hl: 0xA000,
            de: 0x9000,
            ..plain(0)
        },
        &[(0xA000, 0x20)],
    );
    assert_eq!((r.f(), r.bc, r.hl, r.de), (0xCD, 1, 0xA001, 0x9001));
    // CPI finding A: Z, N, BC 1 -> 0 (P/V clear); n = 0: no X Y.
    let (r, _) = after(
        &[0xED, 0xA1],
        Regs {
            af: 0x5500,
            bc: 1,
            hl: 0xA000,
            ..plain(0)
        },
        &[(0xA000, 0x55)],
    );
    assert_eq!((r.f(), r.bc), (0x42, 0));
    // LDIR moving 3 bytes: 21 + 21 + 16 T-states, P/V clear at the end.
    let (r, c) = after(
        &[0xED, 0xB0],
        Regs {
            af: 0x0000,
            bc: 3,
            hl: 0xA000,
            de: 0x9000,
            ..plain(0)
        },
        &[(0xA000, 1), (0xA001, 2), (0xA002, 3)],
    );
    assert_eq!((c.tstates(), r.bc, r.f() & 0x04), (58, 0, 0));
}

#[test]
fn r_counts_m1_cycles_and_keeps_bit_7() {
    // LD A,0x80; LD R,A; NOP x3; LD A,R: R was 0x80 after LD R,A, three
    // NOPs and LD A,R's two fetches make 0x85; bit 7 kept.
    let (r, _) = after(
        &[0x3E, 0x80, 0xED, 0x4F, 0x00, 0x00, 0x00, 0xED, 0x5F],
        plain(0),
        &[],
    );
    assert_eq!(r.a(), 0x85);
    // P/V of LD A,R is IFF2 (interrupts on here).
    assert_eq!(r.f() & 0x04, 0x04);
}

#[test]
fn an_interrupt_takes_13_t_states_and_waits_one_instruction_after_ei() {
    let (mut c, mut bus) = cpu(
        &[0xFB, 0x00, 0x76],
        Regs {
            iff1: false,
            iff2: false,
            ..plain(0)
        },
    );
    c.step(&mut bus); // EI
    assert!(!c.interrupt_im1(&mut bus), "not just after EI");
    c.step(&mut bus); // NOP
    let t = c.tstates();
    assert!(c.interrupt_im1(&mut bus));
    let r = c.regs();
    assert_eq!(
        (c.tstates() - t, r.pc, r.sp, r.iff1),
        (13, 0x0038, 0xEFFE, false)
    );
    assert_eq!(
        u16::from_le_bytes([bus.mem[0xEFFE], bus.mem[0xEFFF]]),
        AT + 2
    );
    // On a HALT the pushed address is past it.
    let (mut c, mut bus) = cpu(&[0x76], plain(0));
    c.step(&mut bus);
    assert!(c.halted() && c.pc() == AT);
    c.step(&mut bus); // halted: an M1 cycle
    assert_eq!(c.tstates(), 8);
    assert!(c.interrupt_im1(&mut bus));
    assert_eq!(
        u16::from_le_bytes([bus.mem[0xEFFE], bus.mem[0xEFFF]]),
        AT + 1
    );
}
