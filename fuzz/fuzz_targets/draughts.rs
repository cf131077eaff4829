//! Draughts text from files and peers: PDN FENs (`rules::draughts::parse_fen`),
//! positions as pydraughts's Hub client writes them, PDN and Hub moves, and
//! PDN games (`pdn::read_games`, each replayed). What a parser accepts must
//! read back the same from what we write for it.
//!
//! Hub protocol lines have their own target, `hub_lines`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::rules::draughts::{self, HubMove, PdnMove, hub, pdn};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = draughts::parse_fen(text) {
        let fen = draughts::fen(&pos);
        assert_eq!(draughts::parse_fen(&fen).as_ref(), Ok(&pos), "{fen}");
    }
    if let Ok(pos) = hub::parse_pydraughts_position(text) {
        let back = hub::pydraughts_position(&pos);
        assert_eq!(
            hub::parse_pydraughts_position(&back).as_ref(),
            Ok(&pos),
            "{back}"
        );
    }
    if let Ok(m) = text.parse::<PdnMove>() {
        assert_eq!(m.to_string().parse::<PdnMove>().as_ref(), Ok(&m), "{m}");
    }
    if let Ok(m) = text.parse::<HubMove>() {
        assert_eq!(m.to_string().parse::<HubMove>().as_ref(), Ok(&m), "{m}");
    }
    if let Ok(games) = pdn::read_games(text) {
        for game in games {
            let _ = game.replay();
        }
    }
});
