//! The Z80 behind one small contract, whatever core emulates it.
//!
//! A machine hands the CPU a [`Bus`] (its memory map as the CPU sees it) and
//! a [`Marks`] map of the addresses where execution must come back to the
//! machine before the instruction there runs (traps, watches, breakpoints,
//! everything outside executable RAM). The CPU runs until it reaches a marked
//! address, the T-state count it was given, a HALT, or a signal the bus
//! raised during an instruction (a fault, a keyboard poll); it always stops at
//! an instruction boundary and never does I/O of its own.
//!
//! The contract is in the spirit of `iz80`'s `Machine` (peek, poke, ports)
//! and of rustzx's host: the CPU knows nothing of ZX81s or Spectrums.

pub mod check;
pub mod cores;
pub mod iz80;
pub mod lockstep;
pub mod own;
pub mod z80emu;

use std::fmt;

pub use cores::Core;

use super::{Fault, Watches};

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

/// Memory as a program's host sees it: reads and writes with no side
/// effects (no fault is recorded, no poll noticed). What drivers, traps
/// and loaders use.
pub trait Memory {
    /// Reads a byte (what the CPU would read; ROM without a table reads 0xFF).
    fn peek(&self, addr: u16) -> u8;
    /// Writes a byte where the hardware would (ROM writes are ignored).
    fn poke(&mut self, addr: u16, value: u8);

    /// Reads a little-endian word.
    fn peek16(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.peek(addr), self.peek(addr.wrapping_add(1))])
    }

    /// Writes a little-endian word.
    fn poke16(&mut self, addr: u16, value: u16) {
        let [lo, hi] = value.to_le_bytes();
        self.poke(addr, lo);
        self.poke(addr.wrapping_add(1), hi);
    }

    /// Writes `bytes` from `addr` on, as `poke` each (a bus may note them
    /// as one span of host writes rather than one a byte).
    fn poke_bytes(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.poke(addr.wrapping_add(i as u16), b);
        }
    }
}

/// The memory map and ports as the CPU sees them. (A copy of a bus is what
/// the lockstep core runs its second CPU on.)
pub trait Bus: Memory + Clone + 'static {
    /// A read by the CPU (opcode fetch or data). May record a fault or a
    /// poll, and raise the signal that ends the run after this instruction.
    fn read(&self, addr: u16) -> u8;
    /// A write by the CPU.
    fn write(&mut self, addr: u16, value: u8);
    /// `IN`: nothing is connected unless a machine says so.
    fn input(&mut self, _port: u16) -> u8 {
        0xFF
    }
    /// `OUT`: ignored unless a machine says so.
    fn output(&mut self, _port: u16, _value: u8) {}
    /// Did an instruction raise a signal (fault, poll) the machine must see
    /// before the next one runs?
    fn signalled(&self) -> bool;
    /// The bad access the last instructions made, if any, cleared (its PC
    /// is filled in by the run loop).
    fn take_fault(&mut self) -> Option<Fault>;
    /// Can the CPU run code at `addr`? Everything else (ROM, unmapped
    /// space) is where high-level routines are trapped or faults reported.
    fn executable(&self, addr: u16) -> bool;
    /// The RAM as the bus keeps it (for comparisons).
    fn ram(&self) -> &[u8];

    /// Can the CPU read `addr` as part of an instruction with no effect
    /// but the byte (no fault, no poll)? Our core pre-decodes only
    /// instructions whose bytes all are; the others it reads as it runs.
    fn plain(&self, addr: u16) -> bool {
        self.executable(addr)
    }

    /// The memory cell behind `addr`: addresses that mirror each other
    /// (the ZX81's 1K repeats through its RAM space) share one, so that a
    /// write through either reaches code decoded from the other.
    fn cell(&self, addr: u16) -> u16 {
        addr
    }

    /// The cells written by anyone but the CPU (loaders, traps, the
    /// machine's clock) since the last call, as a few spans, cleared. A bus
    /// that does not keep track answers "all of them", which is always
    /// right and only slower.
    fn take_host_writes(&mut self) -> HostWrites {
        HostWrites::ALL
    }

    /// Performs the ROM routine at `pc`, which the CPU has just reached by
    /// a call (its return address on the stack), if the bus can do it
    /// alone from A and its memory, exactly as the machine's run loop
    /// would there, leaving every register but PC and SP as it is, and if
    /// it takes fewer than `room` T-states: the T-states to charge for it.
    /// Our core then returns from it (`RET`) and runs on, instead of
    /// ending its run at the ROM address; `None` (the default) leaves the
    /// routine to the run loop.
    fn routine(&mut self, _pc: u16, _a: u8, _room: u64) -> Option<u64> {
        None
    }

    /// Blocks of known programs compiled for our core on this bus (see
    /// [`own::Compiled`]), by start address: none unless the bus has some.
    fn compiled() -> &'static [own::Compiled<Self>]
    where
        Self: Sized,
    {
        &[]
    }
}

/// The cells a bus has had written by its host since the CPU last asked
/// (see [`Bus::take_host_writes`]), as at most [`HostWrites::SPANS`] spans
/// that cover every cell written (and may cover some that were not). A new
/// bus starts with every cell written: nothing the CPU decoded before can
/// be trusted on it.
///
/// Several spans, not one: a driver's writes between two moves fall on
/// either side of the program (the board below it, a return address on
/// the stack above it), and one span over them would cover the program's
/// code too, which would then be decoded afresh for every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostWrites {
    /// The first `len` are the spans (`first..=last`).
    spans: [(u16, u16); HostWrites::SPANS + 1],
    len: u8,
}

impl Default for HostWrites {
    fn default() -> Self {
        HostWrites::ALL
    }
}

impl HostWrites {
    /// The most spans kept: when a write would make one more, the two
    /// nearest each other become one.
    pub const SPANS: usize = 8;

    /// Writes this far apart or closer (in cells) go into one span.
    const NEAR: u16 = 16;

    /// Every cell written.
    pub const ALL: HostWrites = HostWrites {
        spans: [(0, 0xFFFF); HostWrites::SPANS + 1],
        len: 1,
    };

    /// No cell written.
    pub const NONE: HostWrites = HostWrites {
        spans: [(0, 0); HostWrites::SPANS + 1],
        len: 0,
    };

    /// Notes that the host wrote `cell`.
    #[inline]
    pub fn note(&mut self, cell: u16) {
        self.span(cell, cell);
    }

    /// Notes that the host wrote the cells `first..=last`.
    pub fn span(&mut self, first: u16, last: u16) {
        let len = usize::from(self.len);
        // Most writes come in runs within a span already there (a program
        // loaded, a screen drawn): the one written last is looked at first
        // (kept at the end).
        if let Some(&(lo, hi)) = self.spans[..len].last()
            && lo <= first
            && last <= hi
        {
            return;
        }
        let near = |&(lo, hi): &(u16, u16)| {
            first <= hi.saturating_add(Self::NEAR) && lo <= last.saturating_add(Self::NEAR)
        };
        if let Some(k) = self.spans[..len].iter().position(near) {
            let s = &mut self.spans[k];
            *s = (s.0.min(first), s.1.max(last));
            self.spans.swap(k, len - 1);
            return;
        }
        self.spans[len] = (first, last);
        if len < Self::SPANS {
            self.len += 1;
            return;
        }
        // One too many: join the two nearest (in order of their starts,
        // the gap between one's end and the next one's start).
        let spans = &mut self.spans;
        spans.sort_unstable();
        let gap = |i: usize| spans[i + 1].0.saturating_sub(spans[i].1);
        let i = (0..Self::SPANS).min_by_key(|&i| gap(i)).unwrap_or(0);
        spans[i] = (spans[i].0, spans[i].1.max(spans[i + 1].1));
        spans.copy_within(i + 2.., i + 1);
    }

    /// The spans, in no particular order.
    pub fn spans(&self) -> &[(u16, u16)] {
        &self.spans[..usize::from(self.len)]
    }

    /// What was written since the last call; clears it.
    #[inline]
    pub fn take(&mut self) -> HostWrites {
        // Nothing written is the common case between two runs (and after
        // a print that only changed the print position or colours).
        if self.len == 0 {
            return HostWrites::NONE;
        }
        std::mem::replace(self, HostWrites::NONE)
    }
}

/// Addresses where execution returns to the machine before running the
/// instruction there, one byte of flags per address of the 64K space, and
/// a version that changes whenever they do.
///
/// They also keep the last few addresses *raised* (marked where none was),
/// so that a CPU which made something for one version (our core's blocks,
/// which run with no look at the marks) can tell whether what changed since
/// concerns it: only a raise can, a mark cleared cannot.
pub struct Marks {
    flags: Box<[u8; 0x10000]>,
    version: u64,
    /// Which marks these are: unique in the process, as versions are.
    id: u64,
    /// The last raises, a ring: (the version the raise made, address).
    raised: [(u64, u16); RAISES_KEPT],
    /// Where the next raise goes in the ring.
    next_raise: usize,
    /// The version of the newest raise no longer in the ring (0: none).
    forgotten: u64,
}

/// How many raises [`Marks`] keep.
const RAISES_KEPT: usize = 8;

/// Versions of marks, unique across every [`Marks`] of the process (a CPU
/// that ran with one set of marks and then another sees them differ).
static MARKS_VERSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_marks_version() -> u64 {
    MARKS_VERSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Marks {
    /// Outside executable RAM: a ROM routine (trapped or not) or a fault.
    pub const ROM: u8 = 1;
    /// A watched address (counted).
    pub const WATCH: u8 = 2;
    /// The breakpoint of the current run.
    pub const BREAK: u8 = 4;
    /// A trap supplied by a driver.
    pub const TRAP: u8 = 8;
    /// The return address of a call made from Rust.
    pub const RETURN: u8 = 16;
    /// A probe: the registers and chosen bytes are copied there.
    pub const PROBE: u8 = 32;

    /// No address marked.
    pub fn new() -> Marks {
        let version = new_marks_version();
        Marks {
            flags: Box::new([0; 0x10000]),
            version,
            id: version,
            raised: [(0, 0); RAISES_KEPT],
            next_raise: 0,
            forgotten: 0,
        }
    }

    /// The flags at `addr`.
    #[inline(always)]
    pub fn at(&self, addr: u16) -> u8 {
        self.flags[usize::from(addr)]
    }

    /// Which marks these are: a number that changes when any flag does.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Which marks these are (the same for every version of them).
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The addresses raised (marked where none was) after `version` of
    /// these marks, some perhaps cleared again since; `None` if the oldest
    /// of them is no longer kept.
    pub fn raised_since(&self, version: u64) -> Option<impl Iterator<Item = u16> + '_> {
        (self.forgotten <= version).then(|| {
            self.raised
                .iter()
                .filter(move |&&(v, _)| v > version)
                .map(|&(_, addr)| addr)
        })
    }

    fn update(&mut self, addr: usize, value: u8) {
        if self.flags[addr] != value {
            let raise = self.flags[addr] == 0;
            self.flags[addr] = value;
            self.version = new_marks_version();
            if raise {
                let slot = &mut self.raised[self.next_raise];
                self.forgotten = self.forgotten.max(slot.0);
                *slot = (self.version, addr as u16);
                self.next_raise = (self.next_raise + 1) % RAISES_KEPT;
            }
        }
    }

    /// Sets `flag` at `addr`.
    pub fn set(&mut self, addr: u16, flag: u8) {
        let a = usize::from(addr);
        self.update(a, self.flags[a] | flag);
    }

    /// Clears `flag` at `addr`.
    pub fn clear(&mut self, addr: u16, flag: u8) {
        let a = usize::from(addr);
        self.update(a, self.flags[a] & !flag);
    }

    /// Sets (`on`) or clears `flag` on the 256 addresses of `page`: one
    /// new version for them all, and raises too many to keep one by one.
    pub fn page(&mut self, page: u8, flag: u8, on: bool) {
        let start = usize::from(page) << 8;
        let (mut changed, mut raised) = (false, false);
        for old in &mut self.flags[start..start + 256] {
            let value = if on { *old | flag } else { *old & !flag };
            changed |= value != *old;
            raised |= *old == 0 && value != 0;
            *old = value;
        }
        if changed {
            self.version = new_marks_version();
        }
        if raised {
            self.forgotten = self.version;
        }
    }
}

impl Default for Marks {
    fn default() -> Self {
        Marks::new()
    }
}

/// Why a run of the CPU ended (always at an instruction boundary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The next instruction is at a marked address (not run).
    Marked,
    /// The CPU's T-state count reached the limit it was given.
    Limit,
    /// The bus raised its signal during the last instruction.
    Signal,
    /// The CPU executed HALT and waits for an interrupt.
    Halt,
}

/// The CPU of a machine: one of the cores, behind one set of methods.
pub enum Cpu {
    Own(own::Own),
    Z80emu(z80emu::Z80emu),
    Iz80(iz80::Iz80),
    Lockstep(Box<lockstep::Lockstep>),
}

/// Calls `$method` on whichever core (the lockstep pair answers with its
/// leading core, or runs both where it has its own method).
macro_rules! each {
    ($self:expr, $cpu:ident => $call:expr, $pair:ident => $pair_call:expr) => {
        match $self {
            Cpu::Own($cpu) => $call,
            Cpu::Z80emu($cpu) => $call,
            Cpu::Iz80($cpu) => $call,
            Cpu::Lockstep($pair) => $pair_call,
        }
    };
    ($self:expr, $cpu:ident => $call:expr) => {
        each!($self, $cpu => $call, pair => { let $cpu = &pair.lead; $call })
    };
}

impl Cpu {
    /// A Z80 as after power-on, emulated by `core`.
    pub fn new(core: Core) -> Cpu {
        match core {
            Core::Own => Cpu::Own(own::Own::new()),
            Core::LockstepOwn => Cpu::Lockstep(Box::new(lockstep::Lockstep::own())),
            Core::Z80emu => Cpu::Z80emu(z80emu::Z80emu::new()),
            Core::Iz80 => Cpu::Iz80(iz80::Iz80::new()),
            Core::Lockstep => Cpu::Lockstep(Box::default()),
        }
    }

    /// Drops it, leaving what can be used again to the next CPU made on
    /// this thread (our core's decoded tables).
    pub fn retire(self) {
        if let Cpu::Own(own) = self {
            own.retire();
        }
    }

    /// The core emulating it.
    pub fn core(&self) -> Core {
        match self {
            Cpu::Own(_) => Core::Own,
            Cpu::Z80emu(_) => Core::Z80emu,
            Cpu::Iz80(_) => Core::Iz80,
            Cpu::Lockstep(pair) => match pair.follow {
                lockstep::Follow::Own(_) => Core::LockstepOwn,
                lockstep::Follow::Iz80(_) => Core::Lockstep,
            },
        }
    }

    /// Every register.
    pub fn regs(&self) -> Regs {
        each!(self, cpu => cpu.regs())
    }

    /// Sets every register (and leaves the CPU not halted).
    pub fn set_regs(&mut self, regs: &Regs) {
        each!(self, cpu => cpu.set_regs(regs), pair => pair.set_regs(regs))
    }

    #[inline]
    pub fn pc(&self) -> u16 {
        each!(self, cpu => cpu.pc())
    }

    /// Sets PC (and leaves the CPU not halted).
    pub fn set_pc(&mut self, pc: u16) {
        each!(self, cpu => cpu.set_pc(pc), pair => {
            pair.lead.set_pc(pc);
            pair.follow.set_pc(pc)
        })
    }

    #[inline]
    pub fn sp(&self) -> u16 {
        each!(self, cpu => cpu.sp())
    }

    pub fn set_sp(&mut self, sp: u16) {
        each!(self, cpu => cpu.set_sp(sp), pair => {
            pair.lead.set_sp(sp);
            pair.follow.set_sp(sp)
        })
    }

    /// The flags register.
    pub fn f(&self) -> u8 {
        each!(self, cpu => cpu.f())
    }

    /// The accumulator.
    pub fn a(&self) -> u8 {
        each!(self, cpu => cpu.a())
    }

    /// T-states the CPU has run since power-on.
    #[inline]
    pub fn tstates(&self) -> u64 {
        each!(self, cpu => cpu.tstates())
    }

    /// Sets the T-state counter (when a machine changes cores).
    pub fn set_tstates(&mut self, tstates: u64) {
        each!(self, cpu => cpu.set_tstates(tstates), pair => {
            pair.lead.set_tstates(tstates);
            pair.follow.set_tstates(tstates)
        })
    }

    /// Is the CPU halted (waiting for an interrupt)?
    pub fn halted(&self) -> bool {
        each!(self, cpu => cpu.halted())
    }

    /// The address of the last instruction begun (for fault reports).
    pub fn last_pc(&self) -> u16 {
        each!(self, cpu => cpu.last_pc())
    }

    /// Runs from the current PC until `until` T-states (the CPU's own
    /// count), a marked address, a bus signal or a HALT. The instruction at
    /// the current PC runs even if its address is marked.
    ///
    /// Our own core does not stop at an address marked only as watched: it
    /// counts the visit in `watches` and goes on, as the driver's loop
    /// would have after a stop (see [`own::Own::run_counting`]). The other
    /// cores stop there, and the caller counts.
    #[inline]
    pub fn run<B: Bus>(
        &mut self,
        bus: &mut B,
        marks: &Marks,
        watches: &mut Watches,
        until: u64,
    ) -> RunEnd {
        match self {
            Cpu::Own(cpu) => cpu.run_counting(bus, marks, watches, until),
            Cpu::Z80emu(cpu) => cpu.run(bus, marks, until),
            Cpu::Iz80(cpu) => cpu.run(bus, marks, until),
            Cpu::Lockstep(pair) => pair.run(bus, marks, until),
        }
    }

    /// The T-states of the ROM routines the bus performed inside the last
    /// run ([`Bus::routine`], our core only), which the machine charges;
    /// zeroed.
    pub fn take_charged(&mut self) -> u64 {
        match self {
            Cpu::Own(cpu) => cpu.take_charged(),
            _ => 0,
        }
    }

    /// Runs one instruction, marks or not.
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        each!(self, cpu => cpu.step(bus), pair => pair.step(bus))
    }

    /// Accepts a mode 1 interrupt: PC pushed, interrupts off, PC = 0x0038.
    /// Returns false if the CPU cannot accept one now (interrupts off, or
    /// just after `EI`).
    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        each!(self, cpu => cpu.interrupt_im1(bus), pair => pair.interrupt_im1(bus))
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
