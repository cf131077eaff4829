//! Evidence for the machine layer (`src/machine/`): the emulated ZX81 on
//! hand-assembled Z80 code, its ROM traps, keyboard, FRAMES, named stops,
//! budgets and tape validation. No program of the seeds runs here.

#[path = "../common/mod.rs"]
mod common;

mod zx81_machine;
