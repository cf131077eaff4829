//! Why a run of the emulated machine ended ([`Stop`]), and the runs that
//! left the emulated hardware's documented behaviour ([`Fault`]).

use std::fmt;

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
    /// The run was cut from outside ([`Cut`](super::Cut)) with the program still
    /// running: its deadline came.
    Cut { pc: u16 },
    /// The program jumped to itself (a jump whose condition holds): it will
    /// never do anything else.
    Stuck { pc: u16 },
    /// The CPU executed the HALT at `pc` and no interrupt the machine
    /// delivers will ever end it.
    Halted { pc: u16 },
    /// A routine called from Rust ([`Emulator::call`](super::emulator::Emulator::call)) returned.
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
