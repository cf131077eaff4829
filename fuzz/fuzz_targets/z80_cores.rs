//! Our own Z80 core and `z80emu` side by side on any bytes: the first 24
//! set the registers, all of them fill the 64K of memory, and from the
//! 25th each byte picks an action (a step, an interrupt, a bounded run
//! with a mark). After each, the registers, MEMPTR, the halt state, the
//! T-states, how a run ended and the memory must be the same
//! (`retrochess::machine::cpu::check::side_by_side`); at most 2,000
//! actions an input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::machine::cpu::check;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = check::side_by_side(data, 2_000) {
        panic!("the cores differ: {e}");
    }
});
