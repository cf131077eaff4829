//! `explain` and `play` with ChesSkelet's long-castling test (issue 33):
//! the program's move is judged with what it did to its own board, never
//! "cannot read the program's move".

use crate::common::{LONG_CASTLING, LONG_CASTLING_FROM_START, retrochess as run};

#[test]
fn explain_says_what_the_long_castling_test_did() {
    for (fen, moves) in LONG_CASTLING {
        let (ok, out, err) = run(
            &[
                "explain",
                "--engine",
                "chesskelet",
                "--fen",
                fen,
                "--moves",
                moves,
            ],
            "",
        );
        assert!(ok, "{err}");
        assert!(
            out.contains(
                "played: d1c2, illegal: its long-castling test (piece + origin - target = $38) \
                 took Qd1-c2 for castling: the white queen left d1; a white rook appeared on \
                 c2; the white rook on a1 gave way to 0x"
            ),
            "{out}"
        );
        // The candidates are the program's: d1c2 is the one it played.
        assert!(out.contains("d1c2"), "{out}");
        assert!(!err.contains("cannot read"), "{err}");
    }
}

#[test]
fn play_ends_the_game_on_the_quirk_as_on_an_illegal_move() {
    let input: String = LONG_CASTLING_FROM_START
        .iter()
        .map(|m| format!("{m}\n"))
        .collect();
    let (ok, out, err) = run(&["play", "--engine", "chesskelet"], &input);
    assert!(ok, "{err}");
    // Every reply before it typed on the emulated keyboard: its `s` key,
    // then Black's eight moves.
    assert_eq!(
        out.matches("on the original machine; typed ").count(),
        9,
        "{out}"
    );
    assert!(out.contains("typed s)"), "{out}");
    assert!(
        out.contains(
            "ChesSkelet plays b7a8, an illegal move: its long-castling test (piece + origin - \
             target = $38) took Qb7-a8 for castling: the white queen went from b7 to a8, taking \
             the black rook; a white rook appeared on d1; the white rook on a1 gave way to 0x"
        ),
        "{out}"
    );
    assert!(out.contains(". You win."), "{out}");
    assert!(
        !err.contains("cannot read") && !out.contains("cannot read"),
        "{err}"
    );
}
