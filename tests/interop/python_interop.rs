//! Interop: python-chess's own UCI and XBoard clients
//! (`chess.engine.SimpleEngine.popen_uci` / `popen_xboard`) play two
//! complete games with clocks against the real binary; every move they
//! receive must be legal or flagged (`tests/peers/play_games.py`).
//! Needs `python3` with `chess` installed (`pip install chess`); a missing
//! one fails the test, it is never skipped.

use crate::common::pipe;

#[test]
fn python_chess_plays_two_games_over_uci() {
    pipe::python_chess_games("play_games.py", &["uci", "2"], 2);
}

#[test]
fn python_chess_plays_two_games_over_xboard() {
    pipe::python_chess_games("play_games.py", &["xboard", "2"], 2);
}
