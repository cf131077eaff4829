//! The match runner's referee and ChesSkelet's long-castling test (issue
//! 33): from openings that end where the full build chooses Qd1-c2, the
//! game ends as an illegal move does under `--illegal forfeit`, with what
//! the program did to its board as the reason — never as a hang or a
//! fault of ours.

use std::process::Command;

use crate::common::{LONG_CASTLING, fen};
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{EnPassantMode, Position, fen::Fen};

/// A PGN opening: the FEN and the moves, in SAN.
fn pgn_opening(root: &str, moves: &str) -> String {
    let mut pos = fen(root);
    let mut sans = Vec::new();
    for (i, m) in moves.split_whitespace().enumerate() {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let number = if i == 0 && pos.turn().is_black() {
            format!("{}... ", pos.fullmoves())
        } else if pos.turn().is_white() {
            format!("{}. ", pos.fullmoves())
        } else {
            String::new()
        };
        sans.push(format!("{number}{}", San::from_move(&pos, m)));
        pos.play_unchecked(m);
    }
    let root = Fen::from_position(&fen(root), EnPassantMode::Legal);
    format!(
        "[Event \"quirk\"]\n[SetUp \"1\"]\n[FEN \"{root}\"]\n\n{} *\n\n",
        sans.join(" ")
    )
}

#[test]
fn the_referee_flags_the_quirk_as_an_illegal_move_read_from_the_board() {
    let dir = std::env::temp_dir().join(format!("retrochess-astray-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("quirk.pgn");
    let text: String = LONG_CASTLING
        .iter()
        .map(|(root, moves)| pgn_opening(root, moves))
        .collect();
    std::fs::write(&openings, text).unwrap();
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["match", "--engine", "chesskelet", "--engine", "random"])
        .args(["--games", "4", "--openings"])
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    let reason = "ChesSkelet plays the illegal move d1c2: its long-castling test (piece + \
                  origin - target = $38) took Qd1-c2 for castling: the white queen left d1; a \
                  white rook appeared on c2; the white rook on a1 gave way to 0x";
    // Once per opening, with ChesSkelet as White.
    assert_eq!(games.matches(reason).count(), 2, "{games}\n{stdout}");
    assert!(
        games.matches("[Termination \"rules infraction\"]").count() >= 2,
        "{games}"
    );
    assert!(
        !games.contains("cannot read") && !games.contains("hung") && !games.contains("failed"),
        "{games}"
    );
    assert!(stdout.contains("long-castling test"), "{stdout}");
}
