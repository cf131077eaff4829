//! CECP (xboard) from the GUI: any bytes, as lines, to `retrochess
//! xboard`'s front end (`level`, `st`, `time`/`otim`, `setboard`, moves,
//! `usermove`, `ping`, `option`...), with searches answered in memory (see
//! `retrochess_fuzz::converse`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::engines::{self, EngineOptions};
use retrochess::protocol::settings::Settings;
use retrochess::protocol::xboard::Xboard;

fuzz_target!(|data: &[u8]| {
    let entry = engines::entry("1k-zx-chess").expect("built-in engine");
    let mut front = Xboard::new(entry.info, Settings::new(entry, EngineOptions::default()));
    retrochess_fuzz::converse(&mut front, data);
});
