//! The emulated machines: the only code that touches a Z80 core (`z80emu`,
//! our own, and `iz80` as the reference).
//!
//! A machine here is a Z80 ([`cpu`]), a memory map and a handful of
//! *high-level ROM traps*: we never load a ROM image, so when a program calls
//! one of the few ROM routines it needs, the run loop notices the program
//! counter at the routine's address, does in Rust what the routine does, and
//! returns to the caller. Any other jump into the ROM is reported, never
//! silently executed. Drivers may add traps of their own ([`Trap`]).
//!
//! Runs are bounded by a budget of emulated T-states and end in a named
//! [`Stop`]; the one run loop is [`emulator::Emulator`]. Nothing in this
//! layer knows about chess, stdin or stdout.
//!
//! - [`cpu`]: the CPU contract ([`Regs`], [`Memory`], the bus) and its cores.
//! - [`emulator`]: the run loop, clock, budget, watches, traps and calls.
//! - [`cut`]: a run ended from outside ([`Cut`]), for limits not counted
//!   in T-states (the GUI's clock, at the protocol edge).
//! - [`host`]: the host contract drivers use ([`Host`]) and the one
//!   wrapper ([`Machine`]) that runs every machine model ([`Model`]).
//! - [`zx81`]: the ZX81 (1K or 16K), its ROM traps, keyboard, `.p` tapes.
//! - [`spectrum`]: the 48K Spectrum, its ROM traps and interrupt, `RST 16`
//!   printing, `.tap` tapes and `.sna`/`.z80` snapshots.

pub mod charset;
pub mod cpu;
pub mod cut;
pub mod display;
pub mod emulator;
pub mod host;
pub mod profile;
pub mod screen;
pub mod spectrum;
pub mod zx81;

use std::fmt;
use std::io::Read;
use std::path::Path;

pub use cpu::{Memory, Regs};
pub use cut::Cut;
pub use display::Display;
pub use emulator::{CALL_RETURN, Resume, Trap};
pub use host::{Host, Machine, Model};
pub use screen::{Cell, ScreenStyle, TextScreen};

/// The Z80 core a machine runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Core {
    /// `z80emu` 0.11.0: the T-states of the Z80 manual, driven in long
    /// runs; the default before our own core.
    Z80emu,
    /// Our own core ([`cpu::own`]), the default: the T-states of the Z80
    /// manual, and everything `z80emu` computes (the same registers,
    /// memory, timing and stops, compared after every instruction), 2–3×
    /// as fast.
    #[default]
    Own,
    /// `iz80` 0.5.1, the reference: reproduces games recorded before
    /// `z80emu` became the default. Known timing differences: a `JR cc` not
    /// taken counts 8 T-states (the manual: 7), a `JP cc` not taken 7 (the
    /// manual: 10); see [`cpu::lockstep::KNOWN_TSTATE_DIFFERENCES`].
    Iz80,
    /// `z80emu` and `iz80`, compared after every instruction (`z80emu`
    /// leads); slow, for tests ([`cpu::lockstep`]).
    Lockstep,
    /// `z80emu` and our own core, compared exactly after every
    /// instruction (`z80emu` leads); slow, for tests.
    LockstepOwn,
}

impl Core {
    /// Every core, by name.
    pub const ALL: [Core; 5] = [
        Core::Own,
        Core::Z80emu,
        Core::Iz80,
        Core::Lockstep,
        Core::LockstepOwn,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Core::Own => "own",
            Core::Z80emu => "z80emu",
            Core::Iz80 => "iz80",
            Core::Lockstep => "lockstep",
            Core::LockstepOwn => "lockstep-own",
        }
    }
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counters of how often execution reaches chosen addresses (how drivers
/// count the moves a program evaluates).
#[derive(Clone, Debug, Default)]
pub struct Watches(Vec<(u16, u64)>);

impl Watches {
    /// Watches `addrs`, with counts from zero.
    pub fn new(addrs: &[u16]) -> Watches {
        Watches(addrs.iter().map(|&a| (a, 0)).collect())
    }

    /// Counts a visit to `pc` if it is watched.
    #[inline]
    pub fn visit(&mut self, pc: u16) {
        for w in self.0.iter_mut().filter(|w| w.0 == pc) {
            w.1 += 1;
        }
    }

    /// How often the `i`-th watched address was reached.
    pub fn hits(&self, i: usize) -> u64 {
        self.0.get(i).map_or(0, |w| w.1)
    }

    /// The watched addresses.
    pub fn addrs(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().map(|w| w.0)
    }
}

/// What a probe copies out of the machine at its address, before the
/// instruction there runs: it reads, it cannot write (it gets `&` only).
pub type ProbeRead = fn(&cpu::Regs, &dyn cpu::Memory) -> Vec<u8>;

/// One visit of a probed address: where, when, the registers and the bytes
/// the probe chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub pc: u16,
    /// Machine time of the visit.
    pub tstates: u64,
    pub regs: cpu::Regs,
    pub bytes: Vec<u8>,
}

/// Why a run of the emulated machine ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The program polls the keyboard and no key is down or scheduled: it
    /// waits for a person. The program counter is left at the keyboard
    /// routine, so the next run re-enters it with whatever was typed.
    WaitingForKey,
    /// Execution reached the breakpoint the caller asked for.
    Breakpoint { pc: u16 },
    /// The T-state budget ran out with the program still running.
    BudgetExhausted { pc: u16 },
    /// The run was cut from outside ([`Cut`]) with the program still
    /// running: its deadline came.
    Cut { pc: u16 },
    /// The program jumped to itself (a jump whose condition holds): it will
    /// never do anything else.
    Stuck { pc: u16 },
    /// The CPU executed the HALT at `pc` and no interrupt the machine
    /// delivers will ever end it.
    Halted { pc: u16 },
    /// A routine called from Rust ([`emulator::Emulator::call`]) returned.
    Returned,
    /// Something the emulation cannot do faithfully.
    Fault(Fault),
}

/// A run that left the emulated hardware's documented behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Execution reached a ROM address that has no high-level trap.
    RomCall { pc: u16 },
    /// A data read from ROM outside the few tables we provide.
    RomRead { addr: u16, pc: u16 },
    /// Execution left RAM (an address no program of ours runs at).
    Unmapped { pc: u16 },
    /// An interrupt mode iz80 cannot emulate (it would panic on IM 0/2).
    InterruptMode { mode: u8, pc: u16 },
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::WaitingForKey => write!(f, "waiting for a key"),
            Stop::Breakpoint { pc } => write!(f, "breakpoint at PC 0x{pc:04X}"),
            Stop::BudgetExhausted { pc } => {
                write!(f, "T-state budget exhausted (hung?) at PC 0x{pc:04X}")
            }
            Stop::Cut { pc } => write!(f, "still running at its deadline, at PC 0x{pc:04X}"),
            Stop::Stuck { pc } => write!(f, "stuck in a jump to itself at PC 0x{pc:04X}"),
            Stop::Halted { pc } => {
                write!(f, "halted at PC 0x{pc:04X} with nothing to wake it")
            }
            Stop::Returned => write!(f, "the routine returned"),
            Stop::Fault(fault) => fault.fmt(f),
        }
    }
}

impl Fault {
    /// The fault, reported at the instruction at `pc`.
    pub fn at(self, pc: u16) -> Fault {
        match self {
            Fault::RomRead { addr, .. } => Fault::RomRead { addr, pc },
            other => other,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::RomCall { pc } => {
                write!(f, "call into ROM at 0x{pc:04X}, which is not emulated")
            }
            Fault::RomRead { addr, pc } => {
                write!(
                    f,
                    "read of ROM byte 0x{addr:04X} (PC 0x{pc:04X}), which is not emulated"
                )
            }
            Fault::Unmapped { pc } => write!(f, "execution outside RAM at 0x{pc:04X}"),
            Fault::InterruptMode { mode, pc } => {
                write!(f, "interrupt mode {mode} is not emulated (PC 0x{pc:04X})")
            }
        }
    }
}

/// Errors loading or preparing a machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MachineError {
    /// A tape or snapshot file that cannot be what it claims to be.
    BadTape(String),
    /// A file that could not be read.
    Io(String),
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::BadTape(why) => write!(f, "bad tape: {why}"),
            MachineError::Io(why) => write!(f, "cannot read tape: {why}"),
        }
    }
}

impl std::error::Error for MachineError {}

/// The largest tape or snapshot file read: 1 MiB, twenty times a 48K
/// snapshot (a file of the programs here is at most 49,179 bytes).
pub const MAX_TAPE_BYTES: u64 = 1 << 20;

/// Reads a tape or snapshot file, refusing one larger than
/// [`MAX_TAPE_BYTES`] (or endless, as `/dev/zero`) without reading it all.
///
/// # Errors
/// [`MachineError::Io`] if the file cannot be read, [`MachineError::BadTape`]
/// if it is too large to be a tape.
pub fn read_tape(path: &Path) -> Result<Vec<u8>, MachineError> {
    let io = |e: std::io::Error| MachineError::Io(format!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TAPE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_TAPE_BYTES {
        return Err(MachineError::BadTape(format!(
            "{}: more than {MAX_TAPE_BYTES} bytes, too large for a tape or snapshot",
            path.display()
        )));
    }
    Ok(bytes)
}
