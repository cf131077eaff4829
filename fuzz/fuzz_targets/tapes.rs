//! `--tape FILE`: any bytes to the machine loaders (`.p` for the ZX81;
//! `.tap`, `.sna`, `.z80` for the Spectrum). What loads is run for a short
//! budget: the program is the user's, so whatever it does must end in a
//! named stop, never a panic of the emulator.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::machine::spectrum::Spectrum48;
use retrochess::machine::zx81::{FramesMode, Zx81};

/// Enough for a few frames on either machine.
const BUDGET: u64 = 200_000;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut zx) = Zx81::load_p(data, FramesMode::Slow, 1) {
        let _ = zx.run(BUDGET);
    }
    for load in [Spectrum48::load_tap, Spectrum48::load_sna, Spectrum48::load_z80] {
        if let Ok(mut zx) = load(data) {
            let _ = zx.run(BUDGET);
        }
    }
});
