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

pub mod bus;
pub mod check;
pub mod cores;
pub mod host_writes;
pub mod iz80;
pub mod lockstep;
pub mod marks;
pub mod memory;
pub mod own;
pub mod regs;
pub mod run_end;
pub mod z80emu;

pub use bus::Bus;
pub use cores::{Core, Cpu};
pub use host_writes::HostWrites;
pub use marks::Marks;
pub use memory::Memory;
pub use regs::{Regs, condition, is_self_jump};
pub use run_end::RunEnd;
