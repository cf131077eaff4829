//! Evidence for the machine layer (`src/machine/`): the emulated ZX81 on
//! hand-assembled Z80 code, its ROM traps, keyboard, FRAMES, named stops,
//! budgets and tape validation; the Z80 cores (`cores`), compared in
//! lockstep over each program's searches and against hand-counted
//! T-states; our own core against `z80emu` on random programs
//! (`own_core`), instruction by instruction (`own_instructions`), its
//! decoded code when the code changes under it (`own_decoded`), and its
//! blocks compiled ahead of time (`own_compiled`).

#[path = "../common/mod.rs"]
mod common;

mod cores;
// Built with the `compiled-blocks` feature only (scripts/test runs it so).
#[cfg(feature = "compiled-blocks")]
mod own_compiled;
mod own_core;
mod own_decoded;
mod own_instructions;
mod routines;
mod zx81;
