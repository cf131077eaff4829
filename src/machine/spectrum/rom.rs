//! The Spectrum ROM routines our programs call, emulated at high level.
//!
//! Facts from the Spectrum's documented ROM entry points and system
//! variables and from what ChesSkelet (seed 001) says it relies on:
//! - [`PRINT_A`] (0x0010, `RST 16`): prints the code in A on the upper screen
//!   ([`super::print`]) and draws it into the display file and attributes
//!   ([`super::display`], with our own character set). The ROM's PRINT-OUT keeps BC, DE and HL and spoils
//!   AF and BC'/DE'; the trap keeps every register, which no caller can tell
//!   apart from the ROM unless it reads A after the call (ChesSkelet never
//!   does). Like the ROM it goes through the current channel (CURCHL → the
//!   record's output address): if that address is no longer PRINT-OUT — a
//!   program's stack has overwritten the channel area — the run stops with
//!   [`Fault::RomCall`] at 0x0010, since the real machine would jump wherever
//!   the bytes point. The printing is the bus's (`SpectrumBus::print_a`,
//!   the printer beside the display file), so that our core performs a
//!   print where its run reaches 0x0010 without ending the run
//!   ([`crate::machine::cpu::Bus::routine`]); the other cores stop there
//!   and the run loop calls it here. Both charge the same T-states and
//!   leave the same machine.
//! - [`CL_ALL`] (0x0DAF, CLS): clears the screen and leaves the registers as
//!   the ROM's CL-ALL does on its way out through CL-SET/PO-STORE: A=0,
//!   BC=0x1821, DE=0, HL=0x4000, Z set. ChesSkelet relies on L=0 and C=0x21
//!   ("C is always $21", chapter 5).
//! - [`CHAN_OPEN`] (0x1601): streams 2 and −2 (0xFE) select the upper screen,
//!   the only channel printed to here: CURCHL is set from STRMS and CHANS as
//!   the ROM does (both initialised at power-on). The ROM leaves HL=0x5C91
//!   (P_FLAG, written last by TEMPS), C='S' and D=0; ChesSkelet's first
//!   `genlis` pass uses the H it leaves.
//!
//! Any other ROM address is a [`Fault::RomCall`].

use super::bus::SpectrumBus;
use super::memory_map::{
    CHAN_OPEN, CHAN_OPEN_TSTATES, CL_ALL, CLS_TSTATES, PRINT_A, PRINT_TSTATES, RAM_START, sysvar,
};
use crate::machine::emulator::Emulator;
use crate::machine::{Fault, Stop};

/// Performs the ROM routine at `pc`, or names why it cannot.
pub(super) fn call(emu: &mut Emulator<SpectrumBus>, pc: u16) -> Option<Stop> {
    match pc {
        PRINT_A => print_a(emu),
        CL_ALL => {
            cl_all(emu);
            None
        }
        CHAN_OPEN => chan_open(emu),
        _ => Some(Stop::Fault(Fault::RomCall { pc })),
    }
}

/// `RST 16` through the current channel (the bus prints:
/// `SpectrumBus::print_a`).
fn print_a(emu: &mut Emulator<SpectrumBus>) -> Option<Stop> {
    let a = emu.a();
    if let Err(fault) = emu.bus_mut().print_a(a) {
        return Some(Stop::Fault(fault));
    }
    emu.ret(PRINT_TSTATES);
    None
}

/// CL-ALL: text, attributes (ATTR_P), print position home; the registers as
/// the ROM leaves them.
fn cl_all(emu: &mut Emulator<SpectrumBus>) {
    emu.bus_mut().printer.clear();
    let attr = emu.peek(sysvar::ATTR_P);
    emu.bus_mut().fill(0x4000..0x5800, 0);
    emu.bus_mut().fill(0x5800..0x5B00, attr);
    emu.poke16(sysvar::S_POSN, 0x1821);
    emu.poke16(sysvar::DF_CC, 0x4000);
    let mut regs = emu.regs();
    regs.af = 0x0044; // A=0, Z and P/V as BIT leaves them
    regs.bc = 0x1821;
    regs.de = 0x0000;
    regs.hl = 0x4000;
    emu.set_regs(&regs);
    emu.ret(CLS_TSTATES);
}

/// CHAN-OPEN for the upper screen's streams.
fn chan_open(emu: &mut Emulator<SpectrumBus>) -> Option<Stop> {
    let mut regs = emu.regs();
    let a = regs.a();
    if a != 2 && a != 0xFE {
        return Some(Stop::Fault(Fault::RomCall { pc: CHAN_OPEN }));
    }
    // STR-DATA / CHAN-OP: CURCHL = CHANS + offset − 1; the channel must be
    // the upper screen's.
    let stream = sysvar::STRMS + 2 * u16::from(a.wrapping_add(3));
    let offset = emu.peek16(stream);
    let record = emu
        .peek16(sysvar::CHANS)
        .wrapping_add(offset)
        .wrapping_sub(1);
    if offset == 0 || record < RAM_START || emu.peek(record.wrapping_add(4)) != b'S' {
        return Some(Stop::Fault(Fault::RomCall { pc: CHAN_OPEN }));
    }
    emu.poke16(sysvar::CURCHL, record);
    let p_flag = emu.peek(sysvar::P_FLAG);
    let tv = emu.peek(sysvar::TV_FLAG);
    emu.poke(sysvar::TV_FLAG, tv & !1);
    regs.af = (u16::from(p_flag) << 8) | (regs.af & 0xFF);
    regs.bc = (regs.bc & 0xFF00) | u16::from(b'S');
    regs.de &= 0x00FF;
    regs.hl = sysvar::P_FLAG;
    emu.set_regs(&regs);
    emu.ret(CHAN_OPEN_TSTATES);
    None
}
