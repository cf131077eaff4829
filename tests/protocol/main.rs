//! Evidence for the protocol layer (`src/protocol/`): UCI, CECP and Hub sessions
//! with the real binary over pipes (handshakes, every command, whole games,
//! timing GUIs rely on, garbage and exits), and the inputs the fuzz targets
//! found, replayed.

#[path = "../common/mod.rs"]
mod common;

mod astray;
mod chesskelet_protocols;
mod clock;
mod fuzz_regressions;
mod hub_session;
mod line_endings_ascii;
mod seed_random;
mod session;
mod uci_games;
mod uci_session;
mod xboard_session;
