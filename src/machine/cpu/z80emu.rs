//! `z80emu` 0.11.0 (NMOS Z80, exact T-states) behind the CPU contract,
//! driven in long runs.
//!
//! The CPU runs with `execute_with_limit` until the limit it is given; to
//! stop it at a marked address, the opcode fetch there (`read_opcode`)
//! answers HALT instead of the byte in memory. The CPU then "halts" at that
//! address; the run takes back what the fetch cost (4 T-states, one R
//! increment) and the halt, so the machine sees the CPU at the instruction
//! boundary with nothing run. The same happens at the fetch after an
//! instruction during which the bus raised its signal. Fetches that
//! continue an instruction (after a CB, ED, DD or FD prefix) are never
//! stopped: a mark is always an instruction's first byte. Telling them
//! apart costs the hot path a record of the last fetch and a test for the
//! four prefix-like bytes; the rest is decided off it (`Z80emuBus::note_prefix`,
//! `Z80emuBus::starts_instruction`).

use std::num::Wrapping;

use z80emu::host::TsCounter;
use z80emu::{Clock, Cpu as _, CpuDebug, InterruptMode, Io, Prefix, StkReg16, Z80NMOS};

use super::{Bus, Marks, Regs, RunEnd};

const HALT: u8 = 0x76;

type NoDebug = Option<fn(CpuDebug)>;

/// A `z80emu` CPU and its T-state counter.
#[derive(Clone)]
pub struct Z80emu {
    cpu: Z80NMOS,
    clock: TsCounter<u64>,
    last_pc: u16,
}

/// No fetch recorded.
const NONE: u32 = u32::MAX;

/// The byte of a recorded opcode fetch (address in the low 16 bits, byte
/// above) if it was at `at`.
fn fetched(record: u32, at: u16) -> Option<u8> {
    (record != NONE && record as u16 == at).then_some((record >> 16) as u8)
}

/// Is the fetch in `record` the one of a prefix-like byte (CB, ED, DD,
/// FD) at `at`? Only then is the [`PrefixFetch`] at `at` the record of that
/// fetch, not of an earlier one (code may have changed since).
fn is_prefix(record: u32, at: u16) -> bool {
    fetched(record, at).is_some_and(|op| matches!(op, 0xCB | 0xDD | 0xED | 0xFD))
}

/// The last fetch of a byte that can be a prefix (CB, ED, DD, FD).
#[derive(Clone, Copy)]
struct PrefixFetch {
    at: u16,
    /// The next opcode fetch continues its instruction: the byte acts as a
    /// prefix (it is not the second byte of a CB or ED instruction, as DD
    /// is in `SET 3,L`), and not after DD CB, whose displacement and opcode
    /// are read as data.
    continued: bool,
    /// The first byte of its instruction.
    start: u16,
}

/// A bus as `z80emu` wants it, with the marks that stop a run (none when
/// single-stepping).
struct Z80emuBus<'a, B> {
    bus: &'a mut B,
    marks: Option<&'a Marks>,
    /// The last opcode fetch (see [`fetched`]).
    last: u32,
    /// The one before it: tells a prefix followed by its instruction from
    /// a jump to the byte after a prefix fetched earlier (`FD 30 FE`,
    /// `JR NC` to itself past its prefix).
    before: u32,
    /// The last fetch of a prefix-like byte, if any in this run.
    prefix: Option<PrefixFetch>,
    /// The last fetch was answered with a HALT to stop the run.
    trapped: bool,
}

impl<'a, B: Bus> Z80emuBus<'a, B> {
    fn new(bus: &'a mut B, marks: Option<&'a Marks>) -> Self {
        Z80emuBus {
            bus,
            marks,
            last: NONE,
            before: NONE,
            prefix: None,
            trapped: false,
        }
    }

    /// Does the opcode fetch at `pc`, coming right after the fetch in
    /// `last`, continue a prefixed instruction?
    fn continues(&self, pc: u16) -> Option<PrefixFetch> {
        self.prefix
            .filter(|p| p.continued && p.at == pc.wrapping_sub(1) && is_prefix(self.last, p.at))
    }

    /// Does the fetch at `pc` start an instruction?
    fn starts_instruction(&self, pc: u16) -> bool {
        self.continues(pc).is_none()
    }

    /// Notes the fetch of a prefix-like byte (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn note_prefix(&mut self, pc: u16, op: u8) {
        let (acting, start, after_index) = match self.continues(pc) {
            Some(p) if matches!(self.bus.peek(p.at), 0xCB | 0xED) => (false, p.start, false),
            Some(p) => (true, p.start, true),
            None => (true, pc, false),
        };
        self.prefix = Some(PrefixFetch {
            at: pc,
            continued: acting && !(op == 0xCB && after_index),
            start,
        });
    }

    /// The first byte of the last instruction fetched (for fault reports).
    fn last_instruction(&self) -> Option<u16> {
        let at = (self.last != NONE).then_some(self.last as u16)?;
        Some(match self.prefix {
            // A prefix, or a prefix-like byte as the opcode of a CB or ED
            // instruction (`SET 5,L` is CB ED): its instruction's start.
            Some(p) if is_prefix(self.last, p.at) => p.start,
            // The fetch after a prefix, when the prefix was the fetch
            // before it (not when a jump came back to the byte after a
            // prefix run earlier).
            Some(p)
                if p.continued && p.at == at.wrapping_sub(1) && is_prefix(self.before, p.at) =>
            {
                p.start
            }
            _ => at,
        })
    }
}

impl<B: Bus> z80emu::Memory for Z80emuBus<'_, B> {
    type Timestamp = u64;

    #[inline(always)]
    fn read_mem(&self, address: u16, _ts: u64) -> u8 {
        self.bus.read(address)
    }

    #[inline(always)]
    fn read_mem16(&self, address: u16, _ts: u64) -> u16 {
        u16::from_le_bytes([
            self.bus.read(address),
            self.bus.read(address.wrapping_add(1)),
        ])
    }

    #[inline(always)]
    fn read_opcode(&mut self, pc: u16, _ir: u16, _ts: u64) -> u8 {
        if let Some(marks) = self.marks
            && (marks.at(pc) != 0) | self.bus.signalled()
            && self.starts_instruction(pc)
        {
            self.trapped = true;
            return HALT;
        }
        let op = self.bus.read(pc);
        if matches!(op, 0xCB | 0xDD | 0xED | 0xFD) {
            self.note_prefix(pc, op);
        }
        self.before = self.last;
        self.last = u32::from(pc) | (u32::from(op) << 16);
        op
    }

    #[inline(always)]
    fn write_mem(&mut self, address: u16, value: u8, _ts: u64) {
        self.bus.write(address, value)
    }

    fn read_debug(&self, address: u16) -> u8 {
        self.bus.peek(address)
    }
}

impl<B: Bus> Io for Z80emuBus<'_, B> {
    type Timestamp = u64;
    type WrIoBreak = ();
    type RetiBreak = ();

    fn read_io(&mut self, port: u16, _ts: u64) -> (u8, Option<std::num::NonZeroU16>) {
        (self.bus.input(port), None)
    }

    fn write_io(
        &mut self,
        port: u16,
        data: u8,
        _ts: u64,
    ) -> (Option<()>, Option<std::num::NonZeroU16>) {
        self.bus.output(port, data);
        (None, None)
    }
}

/// Nothing at all: what a NOP fed to the CPU touches.
struct NoBus;

impl z80emu::Memory for NoBus {
    type Timestamp = u64;
}

impl Io for NoBus {
    type Timestamp = u64;
    type WrIoBreak = ();
    type RetiBreak = ();
}

impl Z80emu {
    pub fn new() -> Z80emu {
        Z80emu {
            cpu: Z80NMOS::new(),
            clock: TsCounter::default(),
            last_pc: 0,
        }
    }

    pub fn regs(&self) -> Regs {
        let c = &self.cpu;
        let (iff1, iff2) = c.get_iffs();
        Regs {
            af: c.get_reg16(StkReg16::AF),
            bc: c.get_reg16(StkReg16::BC),
            de: c.get_reg16(StkReg16::DE),
            hl: c.get_reg16(StkReg16::HL),
            ix: c.get_index16(Prefix::Xdd),
            iy: c.get_index16(Prefix::Yfd),
            sp: c.get_sp(),
            pc: c.get_pc(),
            af_alt: c.get_alt_reg16(StkReg16::AF),
            bc_alt: c.get_alt_reg16(StkReg16::BC),
            de_alt: c.get_alt_reg16(StkReg16::DE),
            hl_alt: c.get_alt_reg16(StkReg16::HL),
            i: c.get_i(),
            r: c.get_r(),
            iff1,
            iff2,
            im: c.get_im() as u8,
        }
    }

    pub fn set_regs(&mut self, v: &Regs) {
        self.unhalt();
        let c = &mut self.cpu;
        // No setters for the alternate bank: set the main one and swap.
        for (reg, value) in [
            (StkReg16::AF, v.af_alt),
            (StkReg16::BC, v.bc_alt),
            (StkReg16::DE, v.de_alt),
            (StkReg16::HL, v.hl_alt),
        ] {
            c.set_reg16(reg, value);
        }
        c.ex_af_af();
        c.exx();
        for (reg, value) in [
            (StkReg16::AF, v.af),
            (StkReg16::BC, v.bc),
            (StkReg16::DE, v.de),
            (StkReg16::HL, v.hl),
        ] {
            c.set_reg16(reg, value);
        }
        c.set_index16(Prefix::Xdd, v.ix);
        c.set_index16(Prefix::Yfd, v.iy);
        c.set_sp(v.sp);
        c.set_pc(v.pc);
        c.set_i(v.i);
        c.set_r(v.r);
        c.set_iffs(v.iff1, v.iff2);
        c.set_im(match v.im {
            0 => InterruptMode::Mode0,
            2 => InterruptMode::Mode2,
            _ => InterruptMode::Mode1,
        });
    }

    /// Leaves the halt state: `z80emu` clears it when it executes an
    /// instruction, so it is fed a NOP, which takes no time once fetched.
    fn unhalt(&mut self) {
        if self.cpu.is_halt() {
            let _ = self
                .cpu
                .execute_instruction(&mut NoBus, &mut self.clock, NoDebug::None, 0x00);
        }
    }

    #[inline]
    pub fn pc(&self) -> u16 {
        self.cpu.get_pc()
    }

    pub fn set_pc(&mut self, pc: u16) {
        self.unhalt();
        self.cpu.set_pc(pc);
    }

    #[inline]
    pub fn sp(&self) -> u16 {
        self.cpu.get_sp()
    }

    pub fn set_sp(&mut self, sp: u16) {
        self.cpu.set_sp(sp);
    }

    pub fn a(&self) -> u8 {
        self.cpu.get_acc()
    }

    pub fn f(&self) -> u8 {
        self.cpu.get_flags().bits()
    }

    #[inline]
    pub fn tstates(&self) -> u64 {
        self.clock.as_timestamp()
    }

    pub fn set_tstates(&mut self, tstates: u64) {
        self.clock = TsCounter::from(tstates);
    }

    pub fn halted(&self) -> bool {
        self.cpu.is_halt()
    }

    /// MEMPTR, the internal address register (for comparisons).
    pub fn memptr(&self) -> u16 {
        self.cpu.get_memptr()
    }

    /// Was the last instruction `EI` (no interrupt accepted now)?
    pub fn after_ei(&self) -> bool {
        self.cpu.is_after_ei()
    }

    pub fn last_pc(&self) -> u16 {
        self.last_pc
    }

    pub fn run<B: Bus>(&mut self, bus: &mut B, marks: &Marks, until: u64) -> RunEnd {
        if !self.cpu.is_halt() {
            // The instruction at PC runs whatever is marked there.
            self.step(bus);
            if self.cpu.is_halt() {
                return RunEnd::Halt;
            }
            if bus.signalled() {
                return RunEnd::Signal;
            }
        }
        if self.clock.is_past_limit(until) {
            return RunEnd::Limit;
        }
        let mut wire = Z80emuBus::new(bus, Some(marks));
        let result = self
            .cpu
            .execute_with_limit(&mut wire, &mut self.clock, until);
        self.last_pc = wire.last_instruction().unwrap_or(self.last_pc);
        let trapped = wire.trapped;
        let signalled = wire.bus.signalled();
        if result.is_ok() {
            // The limit may fall between a prefix and its instruction (or
            // within a chain of prefixes): finish it, an instruction begun
            // at its first prefix (`step` would report where it went on).
            let start = self.last_pc;
            let prefixed = self.cpu.get_prefix().is_some();
            while self.cpu.get_prefix().is_some() {
                self.step(bus);
            }
            if prefixed && self.cpu.is_halt() {
                // `DD HALT`: the run ends on the HALT, as when a HALT
                // begins before the limit (and as our core has it).
                self.last_pc = self.cpu.get_pc();
                return RunEnd::Halt;
            }
            self.last_pc = start;
            return RunEnd::Limit;
        }
        if !trapped {
            self.last_pc = self.cpu.get_pc();
            return RunEnd::Halt;
        }
        // Take back the HALT fed at the marked address.
        self.clock.0 -= Wrapping(4);
        self.cpu.add_r(-1);
        self.unhalt();
        if signalled {
            RunEnd::Signal
        } else {
            RunEnd::Marked
        }
    }

    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.last_pc = self.pc();
        let mut wire = Z80emuBus::new(bus, None);
        loop {
            let _ = self
                .cpu
                .execute_next(&mut wire, &mut self.clock, NoDebug::None);
            if self.cpu.get_prefix().is_none() {
                break;
            }
        }
    }

    /// Accepts a mode 1 interrupt whatever mode the program set (as our
    /// core and `iz80` do: the CPU contract; a machine refuses the other
    /// modes before asking for one), the mode kept.
    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        if !self.cpu.is_irq_allowed() {
            return false;
        }
        let mode = self.cpu.get_im();
        self.cpu.set_im(InterruptMode::Mode1);
        let mut wire = Z80emuBus::new(bus, None);
        let taken = self
            .cpu
            .irq(&mut wire, &mut self.clock, NoDebug::None)
            .is_some();
        self.cpu.set_im(mode);
        taken
    }
}

impl Default for Z80emu {
    fn default() -> Self {
        Z80emu::new()
    }
}
