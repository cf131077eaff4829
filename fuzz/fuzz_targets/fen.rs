//! Positions: a FEN as `--openings` EPD lines and the protocols give it to
//! `runner::openings::position`. What it accepts must be a position whose
//! own FEN reads back as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::runner::openings::position;
use shakmaty::EnPassantMode;
use shakmaty::fen::Fen;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = position(text) {
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let again = position(&fen).unwrap_or_else(|e| panic!("{fen} read back: {e}"));
        assert_eq!(pos, again, "{fen}");
    }
});
