//! `--tape FILE`: any bytes to the machine loaders (`.p` for the ZX81;
//! `.tap`, `.sna`, `.z80` for the Spectrum). What loads is run for a short
//! budget: the program is the user's, so whatever it does must end in a
//! named stop, never a panic of the emulator.
//!
//! A `.sna` has one valid length (49179 bytes), which mutations rarely keep:
//! the input is also given as the start of one, zero-filled, so short inputs
//! explore its header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::machine::spectrum::Spectrum48;
use retrochess::machine::zx81::{FramesMode, Zx81};

/// Enough for a few frames on either machine.
const BUDGET: u64 = 200_000;
/// A 48K `.sna`: 27-byte header, then the RAM.
const SNA_LEN: usize = 27 + 0xC000;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut zx) = Zx81::load_p(data, FramesMode::Slow, 1) {
        let _ = zx.run(BUDGET);
    }
    for load in [
        Spectrum48::load_tap,
        Spectrum48::load_sna,
        Spectrum48::load_z80,
    ] {
        if let Ok(mut zx) = load(data) {
            let _ = zx.run(BUDGET);
        }
    }
    if data.len() < SNA_LEN {
        let mut sna = data.to_vec();
        sna.resize(SNA_LEN, 0);
        if let Ok(mut zx) = Spectrum48::load_sna(&sna) {
            let _ = zx.run(BUDGET / 10);
        }
    }
});
