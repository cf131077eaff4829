//! The Z80's registers ([`Regs`]), and what their flags decide: whether a
//! jump's condition holds ([`condition`]) and whether a jump to itself
//! runs forever ([`is_self_jump`]).

use std::fmt;

/// The Z80's registers, both banks, and its interrupt state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub af: u16,
    pub bc: u16,
    pub de: u16,
    pub hl: u16,
    pub ix: u16,
    pub iy: u16,
    pub sp: u16,
    pub pc: u16,
    /// The alternate bank (AF', BC', DE', HL').
    pub af_alt: u16,
    pub bc_alt: u16,
    pub de_alt: u16,
    pub hl_alt: u16,
    pub i: u8,
    pub r: u8,
    pub iff1: bool,
    pub iff2: bool,
    /// Interrupt mode (0, 1 or 2).
    pub im: u8,
}

impl Regs {
    /// The accumulator.
    pub fn a(&self) -> u8 {
        (self.af >> 8) as u8
    }

    /// The flags register.
    pub fn f(&self) -> u8 {
        self.af as u8
    }

    /// Does the condition `cc` of a conditional jump hold? See [`condition`].
    pub fn condition(&self, cc: u8) -> bool {
        condition(self.f(), cc)
    }
}

/// Does the condition `cc` (bits 5..3 of a `JP cc`/`CALL cc`/`RET cc`
/// opcode: NZ Z NC C PO PE P M) hold for the flags `f`?
pub fn condition(f: u8, cc: u8) -> bool {
    let bit = [0x40, 0x01, 0x04, 0x80][usize::from(cc >> 1) & 3];
    (f & bit != 0) == (cc & 1 == 1)
}

impl fmt::Display for Regs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PC {:04X} SP {:04X} AF {:04X} BC {:04X} DE {:04X} HL {:04X} IX {:04X} IY {:04X} \
             AF' {:04X} BC' {:04X} DE' {:04X} HL' {:04X} I {:02X} IFF {}{} IM {}",
            self.pc,
            self.sp,
            self.af,
            self.bc,
            self.de,
            self.hl,
            self.ix,
            self.iy,
            self.af_alt,
            self.bc_alt,
            self.de_alt,
            self.hl_alt,
            self.i,
            u8::from(self.iff1),
            u8::from(self.iff2),
            self.im
        )
    }
}

/// Is the instruction at `pc` a jump to itself whose condition holds for
/// the flags `f`, so that the CPU will run it forever? `code(i)` reads the
/// byte at `pc + i`. (A jump does not change the flags: a condition that
/// holds once holds for ever.)
pub fn is_self_jump(pc: u16, f: u8, code: impl Fn(u16) -> u8) -> bool {
    let op = code(0);
    let target = || u16::from_le_bytes([code(1), code(2)]);
    match op {
        0xC3 => target() == pc,
        0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => {
            target() == pc && condition(f, (op >> 3) & 7)
        }
        0x18 => code(1) == 0xFE,
        0x20 | 0x28 | 0x30 | 0x38 => code(1) == 0xFE && condition(f, (op >> 3) & 3),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_follow_the_flags() {
        let regs = |f: u8| Regs {
            af: u16::from(f),
            ..Regs::default()
        };
        // NZ Z NC C PO PE P M
        assert_eq!(
            (0..8)
                .map(|cc| regs(0x40).condition(cc))
                .collect::<Vec<_>>(),
            [false, true, true, false, true, false, true, false]
        );
        assert!(regs(0x01).condition(3) && regs(0x04).condition(5) && regs(0x80).condition(7));
    }

    #[test]
    fn self_jumps_are_recognised_only_when_taken() {
        let code = |b: [u8; 3]| move |i: u16| b[usize::from(i)];
        assert!(is_self_jump(0x4000, 0, code([0x18, 0xFE, 0])));
        assert!(!is_self_jump(0x4000, 0, code([0x18, 0xFD, 0])));
        // JR Z,$ with Z clear falls through; with Z set it loops.
        assert!(!is_self_jump(0x4000, 0, code([0x28, 0xFE, 0])));
        assert!(is_self_jump(0x4000, 0x40, code([0x28, 0xFE, 0])));
        // JP Z,42C0 at 42C0 (1K ZX Chess's dead end).
        assert!(is_self_jump(0x42C0, 0x40, code([0xCA, 0xC0, 0x42])));
        assert!(!is_self_jump(0x42C0, 0x00, code([0xCA, 0xC0, 0x42])));
        assert!(!is_self_jump(0x42C0, 0x40, code([0xCA, 0xC1, 0x42])));
        assert!(!is_self_jump(0x42C0, 0x40, code([0x00, 0xC0, 0x42])));
    }
}
