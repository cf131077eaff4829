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
//! - [`stop`]: why a run ended ([`Stop`]) and the faults ([`Fault`]).
//! - [`watches`]: counts of visits to chosen addresses ([`Watches`]).
//! - [`probe`]: what a probe copies out at its address ([`Sample`]).
//! - [`cut`]: a run ended from outside ([`Cut`]), for limits not counted
//!   in T-states (the GUI's clock, at the protocol edge).
//! - [`host`]: the host contract drivers use ([`Host`]) and the one
//!   wrapper ([`Machine`]) that runs every machine model ([`Model`]).
//! - [`zx81`]: the ZX81 (1K or 16K), its ROM traps, keyboard, `.p` tapes.
//! - [`spectrum`]: the 48K Spectrum, its ROM traps and interrupt, `RST 16`
//!   printing, `.tap` tapes and `.sna`/`.z80` snapshots.
//! - [`tape_file`]: reading a tape or snapshot file ([`read_tape`]), and
//!   [`error`], the errors of loading a machine ([`MachineError`]).
//! - [`charset`], [`display`], [`screen`]: the machines' characters and
//!   the text read off their screens; [`profile`]: where the host's time
//!   goes.

pub mod charset;
pub mod cpu;
pub mod cut;
pub mod display;
pub mod emulator;
pub mod error;
pub mod host;
pub mod probe;
pub mod profile;
pub mod screen;
pub mod spectrum;
pub mod stop;
pub mod tape_file;
pub mod watches;
pub mod zx81;

pub use cpu::{Core, Memory, Regs};
pub use cut::Cut;
pub use display::Display;
pub use emulator::{CALL_RETURN, Resume, Trap};
pub use error::MachineError;
pub use host::{Host, Machine, Model};
pub use probe::{ProbeRead, Sample};
pub use screen::{Cell, ScreenStyle, TextScreen};
pub use stop::{Fault, Stop};
pub use tape_file::{MAX_TAPE_BYTES, read_tape};
pub use watches::Watches;
