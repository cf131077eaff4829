//! The Z80's flag arithmetic, as the NMOS Z80 computes it, undocumented
//! bits 3 (X) and 5 (Y) included.
//!
//! Sources of the facts: the Z80 manual (Zilog UM0080) for the documented
//! flags; Sean Young, "The Undocumented Z80 Documented" (2005), for bits 3
//! and 5, the block instructions' flags and DAA. Checked against `z80emu`
//! by the lockstep runs and the fuzz target.

pub const C: u8 = 0x01;
pub const N: u8 = 0x02;
pub const PV: u8 = 0x04;
pub const X: u8 = 0x08;
pub const H: u8 = 0x10;
pub const Y: u8 = 0x20;
pub const Z: u8 = 0x40;
pub const S: u8 = 0x80;
pub const XY: u8 = X | Y;

/// S, Z, Y, X of a result.
pub const SZXY: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let v = i as u8;
        t[i] = (v & (S | XY)) | if v == 0 { Z } else { 0 };
        i += 1;
    }
    t
};

/// S, Z, Y, X and parity of a result.
pub const SZXYP: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let v = i as u8;
        t[i] = SZXY[i]
            | if v.count_ones().is_multiple_of(2) {
                PV
            } else {
                0
            };
        i += 1;
    }
    t
};

/// `ADD`/`ADC`: the sum of `a`, `v` and `carry` (0 or 1), and its flags.
#[inline(always)]
pub fn add8(a: u8, v: u8, carry: u8) -> (u8, u8) {
    let wide = u16::from(a) + u16::from(v) + u16::from(carry);
    let r = wide as u8;
    let f = SZXY[usize::from(r)]
        | ((a ^ v ^ r) & H)
        | ((((a ^ r) & (v ^ r)) >> 5) & PV)
        | (wide >> 8) as u8;
    (r, f)
}

/// `SUB`/`SBC`: `a - v - carry`, and its flags.
#[inline(always)]
pub fn sub8(a: u8, v: u8, carry: u8) -> (u8, u8) {
    let wide = u16::from(a)
        .wrapping_sub(u16::from(v))
        .wrapping_sub(u16::from(carry));
    let r = wide as u8;
    let f = SZXY[usize::from(r)]
        | N
        | ((a ^ v ^ r) & H)
        | ((((a ^ v) & (a ^ r)) >> 5) & PV)
        | ((wide >> 8) as u8 & C);
    (r, f)
}

/// `CP`: the flags of `a - v`, with X and Y from the operand.
#[inline(always)]
pub fn cp8(a: u8, v: u8) -> u8 {
    let (_, f) = sub8(a, v, 0);
    (f & !XY) | (v & XY)
}

/// The eight ALU operations of `ADD ADC SUB SBC AND XOR OR CP` (bits 5..3
/// of the opcode): the new accumulator and flags.
#[inline(always)]
pub fn alu(op: u8, a: u8, v: u8, f: u8) -> (u8, u8) {
    match op & 7 {
        0 => add8(a, v, 0),
        1 => add8(a, v, f & C),
        2 => sub8(a, v, 0),
        3 => sub8(a, v, f & C),
        4 => {
            let r = a & v;
            (r, SZXYP[usize::from(r)] | H)
        }
        5 => {
            let r = a ^ v;
            (r, SZXYP[usize::from(r)])
        }
        6 => {
            let r = a | v;
            (r, SZXYP[usize::from(r)])
        }
        _ => (a, cp8(a, v)),
    }
}

/// `INC r`: the result and flags (C kept from `f`).
#[inline(always)]
pub fn inc8(v: u8, f: u8) -> (u8, u8) {
    let r = v.wrapping_add(1);
    let flags = (f & C)
        | SZXY[usize::from(r)]
        | if v & 0x0F == 0x0F { H } else { 0 }
        | if v == 0x7F { PV } else { 0 };
    (r, flags)
}

/// `DEC r`: the result and flags (C kept from `f`).
#[inline(always)]
pub fn dec8(v: u8, f: u8) -> (u8, u8) {
    let r = v.wrapping_sub(1);
    let flags = (f & C)
        | N
        | SZXY[usize::from(r)]
        | if v & 0x0F == 0 { H } else { 0 }
        | if v == 0x80 { PV } else { 0 };
    (r, flags)
}

/// `ADD HL,rr`: the sum and flags (S, Z, P/V kept from `f`).
#[inline(always)]
pub fn add16(a: u16, v: u16, f: u8) -> (u16, u8) {
    let wide = u32::from(a) + u32::from(v);
    let r = wide as u16;
    let flags = (f & (S | Z | PV))
        | ((r >> 8) as u8 & XY)
        | ((((a ^ v ^ r) >> 8) as u8) & H)
        | (wide >> 16) as u8;
    (r, flags)
}

/// `ADC HL,rr`.
#[inline(always)]
pub fn adc16(a: u16, v: u16, f: u8) -> (u16, u8) {
    let wide = u32::from(a) + u32::from(v) + u32::from(f & C);
    let r = wide as u16;
    let hi = (r >> 8) as u8;
    let flags = (hi & (S | XY))
        | if r == 0 { Z } else { 0 }
        | ((((a ^ v ^ r) >> 8) as u8) & H)
        | (((((a ^ r) & (v ^ r)) >> 13) as u8) & PV)
        | (wide >> 16) as u8;
    (r, flags)
}

/// `SBC HL,rr`.
#[inline(always)]
pub fn sbc16(a: u16, v: u16, f: u8) -> (u16, u8) {
    let wide = u32::from(a)
        .wrapping_sub(u32::from(v))
        .wrapping_sub(u32::from(f & C));
    let r = wide as u16;
    let hi = (r >> 8) as u8;
    let flags = (hi & (S | XY))
        | N
        | if r == 0 { Z } else { 0 }
        | ((((a ^ v ^ r) >> 8) as u8) & H)
        | (((((a ^ v) & (a ^ r)) >> 13) as u8) & PV)
        | ((wide >> 16) as u8 & C);
    (r, flags)
}

/// The CB-prefixed shifts and rotations `RLC RRC RL RR SLA SRA SLL SRL`
/// (bits 5..3 of the opcode): the result and flags.
#[inline(always)]
pub fn rot(op: u8, v: u8, f: u8) -> (u8, u8) {
    let (r, carry) = match op & 7 {
        0 => (v.rotate_left(1), v >> 7),
        1 => (v.rotate_right(1), v & 1),
        2 => ((v << 1) | (f & C), v >> 7),
        3 => ((v >> 1) | ((f & C) << 7), v & 1),
        4 => (v << 1, v >> 7),
        5 => ((v >> 1) | (v & 0x80), v & 1),
        6 => ((v << 1) | 1, v >> 7),
        _ => (v >> 1, v & 1),
    };
    (r, SZXYP[usize::from(r)] | carry)
}

/// `BIT b,v` with X and Y taken from `xy` (the operand for a register,
/// MEMPTR's high byte or the address's for memory).
#[inline(always)]
pub fn bit(b: u8, v: u8, xy: u8, f: u8) -> u8 {
    let m = v & (1 << (b & 7));
    (f & C) | H | (xy & XY) | (m & S) | if m == 0 { Z | PV } else { 0 }
}

/// `DAA`: the adjusted accumulator and flags.
pub fn daa(a: u8, f: u8) -> (u8, u8) {
    let low = a & 0x0F;
    let mut diff = 0;
    let mut carry = f & C;
    if f & H != 0 || low > 9 {
        diff |= 0x06;
    }
    if carry != 0 || a > 0x99 {
        diff |= 0x60;
        carry = C;
    }
    let (r, half) = if f & N != 0 {
        (a.wrapping_sub(diff), f & H != 0 && low < 6)
    } else {
        (a.wrapping_add(diff), low > 9)
    };
    (
        r,
        SZXYP[usize::from(r)] | (f & N) | carry | if half { H } else { 0 },
    )
}
