//! UCI from the GUI: any bytes, as lines, to `retrochess uci`'s front end
//! (vampirc-uci parsing, `position` FENs and moves, `go` clocks, options),
//! with searches answered in memory (see `retrochess_fuzz::converse`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::engines::{self, EngineOptions};
use retrochess::protocol::settings::Settings;
use retrochess::protocol::uci::Uci;

fuzz_target!(|data: &[u8]| {
    let entry = engines::entry("1k-zx-chess").expect("built-in engine");
    let mut front = Uci::new(entry.info, Settings::new(entry, EngineOptions::default()));
    retrochess_fuzz::converse(&mut front, data);
});
