//! `--openings FILE`: EPD or PGN text to `runner::openings::parse` (which
//! tells the two apart), and PGN to `parse_pgn` and `read_pgn`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::runner::openings::{parse, parse_pgn, read_pgn};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse(&text);
    let _ = parse_pgn(&text);
    let _ = read_pgn(&text);
});
