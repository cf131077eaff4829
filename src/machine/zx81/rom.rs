//! The ZX81 ROM routines our programs call, emulated at high level.
//!
//! A run that reaches one of these addresses does what the ROM routine does,
//! charges the T-states the routine would take, and returns (`RET`). Facts
//! are from the ZX81 ROM as described in seed 000 (disassembly of 1K ZX
//! Chess, routines TKP and SCORE) and the ZX81 keyboard layout:
//! - [`KEYBOARD`] (0x02BB, "KEYBOARD SCANNING"): returns in HL the key that
//!   is down, or L=0xFF for none.
//! - [`DECODE`] (0x07BD, "KEYBOARD DECODE"): turns the HL of KEYBOARD (passed
//!   in BC) into HL pointing at the key's character code in the key table.
//! - [`STORE_BCED`] (0x0724, the tail of the NEWLINE key routine): stores B,
//!   C, E, D downwards from (HL), leaving HL three lower.
//!
//! Any other ROM address is a [`Fault::RomCall`]; an address that is neither
//! ROM nor RAM (the RAM's echo above 0x8000) is [`Fault::Unmapped`].

use super::keyboard::{KEY_TABLE, key_position};
use super::{Devices, Zx81Bus, Zx81Devices};
use crate::machine::emulator::Emulator;
use crate::machine::{Fault, Stop};

/// ROM "KEYBOARD SCANNING".
pub const KEYBOARD: u16 = 0x02BB;
/// ROM "KEYBOARD DECODE".
pub const DECODE: u16 = 0x07BD;
/// ROM 0x0724, tail of the NEWLINE key routine: `ld (hl),b; dec hl; ld (hl),c;
/// dec hl; ld (hl),e; dec hl; ld (hl),d; ret` (seed 000, routine SCORE).
pub const STORE_BCED: u16 = 0x0724;

/// T-states of the trapped routines, counted from their instructions
/// (including the final RET; the caller's CALL is executed by the CPU).
const KEYBOARD_TSTATES: u64 = 712;
const STORE_BCED_TSTATES: u64 = 56;

/// Performs the ROM routine at `pc`, or names why it cannot.
pub(super) fn call(dev: &mut Zx81Devices, emu: &mut Emulator<Zx81Bus>, pc: u16) -> Option<Stop> {
    match pc {
        KEYBOARD => keyboard(dev, emu),
        DECODE => {
            decode(emu);
            None
        }
        STORE_BCED => {
            store_bced(emu);
            None
        }
        _ if pc & 0x4000 == 0 => Some(Stop::Fault(Fault::RomCall { pc })),
        _ => Some(Stop::Fault(Fault::Unmapped { pc })),
    }
}

/// KEYBOARD: the key down now, or [`Stop::WaitingForKey`] with PC left at
/// the routine when nothing is down or scheduled.
fn keyboard(dev: &mut Zx81Devices, emu: &mut Emulator<Zx81Bus>) -> Option<Stop> {
    let Some(key) = dev.key_down(emu) else {
        return Some(Stop::WaitingForKey);
    };
    // Position of the key: half-row `row` has its select bit low in L;
    // column `col` is a low bit in H, shifted left once with the SHIFT key's
    // state (high: not pressed) in bit 0.
    let (row, col) = key_position(key).unwrap_or((0, 0));
    let l = !(1u8 << row);
    let h = ((0xE0 | (0x1F & !(1u8 << col))) << 1) | 1;
    let mut regs = emu.regs();
    regs.hl = u16::from_be_bytes([h, l]);
    regs.bc = 0xFEFE;
    emu.set_regs(&regs);
    emu.ret(KEYBOARD_TSTATES);
    None
}

/// DECODE: HL to the key's entry in the key table, DE its index, carry set.
fn decode(emu: &mut Emulator<Zx81Bus>) {
    let mut regs = emu.regs();
    let [b, c] = regs.bc.to_be_bytes();
    let row = (!c).trailing_zeros() as u16;
    let col = ((!b >> 1) & 0x1F).trailing_zeros() as u16;
    let shifted = b & 1 == 0;
    // Entries run half-row by half-row, 5 per row, less SHIFT. (A pattern
    // that is not one key points outside the table, and the caller's read of
    // it is then reported as a ROM read.)
    let index = (5 * row + col)
        .wrapping_sub(1)
        .wrapping_add(if shifted { 39 } else { 0 });
    regs.hl = KEY_TABLE.wrapping_add(index);
    regs.de = index & 0xFF;
    regs.af |= 0x01;
    emu.set_regs(&regs);
    // Two bit-search loops of 28 T-states per step plus ~130 fixed.
    emu.ret(130 + 28 * (u64::from(row) + u64::from(col) + 2));
}

/// The tail of NEWLINE: (HL)=B, (HL−1)=C, (HL−2)=E, (HL−3)=D.
fn store_bced(emu: &mut Emulator<Zx81Bus>) {
    let mut regs = emu.regs();
    let mut hl = regs.hl;
    let [b, c] = regs.bc.to_be_bytes();
    let [d, e] = regs.de.to_be_bytes();
    for v in [b, c, e] {
        emu.bus_mut().store(hl, v);
        hl = hl.wrapping_sub(1);
    }
    emu.bus_mut().store(hl, d);
    regs.hl = hl;
    emu.set_regs(&regs);
    emu.ret(STORE_BCED_TSTATES);
}

impl Devices<Zx81Bus> for Zx81Devices {
    fn next_event(&self) -> u64 {
        self.next_frame_at
    }

    fn event(&mut self, emu: &mut Emulator<Zx81Bus>) -> Option<Stop> {
        self.tick(emu);
        None
    }

    fn rom(&mut self, emu: &mut Emulator<Zx81Bus>, pc: u16) -> Option<Stop> {
        call(self, emu, pc)
    }

    fn after(&mut self, emu: &mut Emulator<Zx81Bus>) -> Option<Stop> {
        self.tick(emu);
        None
    }

    /// We deliver no interrupts: in SLOW mode the real machine's display
    /// NMIs would end a HALT within a scan line, but their time is folded
    /// into the frame model; in FAST mode nothing would.
    fn wakes_halt(&self, _emu: &Emulator<Zx81Bus>) -> bool {
        false
    }
}
