//! ChesSkelet's long-castling test over the real binary (issue 33): where
//! the full build's board after its reply is no legal move's position, UCI
//! and CECP flag what it did, read from its own board, and go on or resign
//! as `IllegalMoves` says — never "the engine failed", never a `0000` for
//! a failure — and the program plays on from its own board.

use crate::common::{LONG_CASTLING, fen as position, pipe::Engine};
use shakmaty::Position;
use shakmaty::uci::UciMove;

const REASON: &str = "illegal move d1c2: its long-castling test (piece + origin - target = $38) took Qd1-c2 \
     for castling: the white queen left d1; a white rook appeared on c2; the white rook on a1 \
     gave way to 0x";

/// A legal answer of Black's after `moves` and d1c2 (the first in UCI
/// order), so the GUI's game goes on.
fn black_answer(fen: &str, moves: &str) -> String {
    let mut pos = position(fen);
    for m in moves.split_whitespace().chain(["d1c2"]) {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    let mut legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    legal.sort();
    legal.remove(0)
}

fn uci() -> Engine {
    let mut e = Engine::start(&["uci", "--engine", "chesskelet"]);
    e.send("uci");
    e.until_prefix("uciok");
    e
}

/// `go`: the lines up to `bestmove`, and the move.
fn go(e: &mut Engine, position: &str) -> (Vec<String>, String) {
    e.send(position);
    e.send("go movetime 5000");
    let lines = e.until_prefix("bestmove");
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    (lines, best)
}

#[test]
fn uci_flags_the_quirk_sends_the_move_and_plays_on_from_its_own_board() {
    for (fen, moves) in LONG_CASTLING {
        let mut e = uci();
        let head = format!("position fen {fen} moves {moves}");
        let (lines, best) = go(&mut e, &head);
        let t = e.transcript();
        assert_eq!(best, "d1c2", "{t}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info string {REASON}"))),
            "{t}"
        );
        assert!(!t.contains("failed") && !t.contains("cannot read"), "{t}");
        assert!(
            !lines.iter().any(|l| l.contains(" pv d1c2")),
            "never a pv: {t}"
        );
        // The GUI plays it on; Black answers; the program's reply is typed
        // on its own board (the queen is a rook there, a1 a stray byte).
        let answer = black_answer(fen, moves);
        let (lines, best) = go(&mut e, &format!("{head} d1c2 {answer}"));
        let t = e.transcript();
        assert!(
            lines.iter().any(|l| l.contains("input: typed ")),
            "typed on the machine's game: {t}"
        );
        assert!(best.len() == 4 && best != "0000", "{t}");
        assert!(!t.contains("failed") && !t.contains("cannot read"), "{t}");
        // Resign: bestmove 0000 with the reason, as for any illegal move.
        e.send("setoption name IllegalMoves value resign");
        let (lines, best) = go(&mut e, &head);
        let t = e.transcript();
        assert_eq!(best, "0000", "{t}");
        assert!(
            lines.iter().any(|l| l.contains("IllegalMoves is resign")),
            "{t}"
        );
        assert!(lines.iter().any(|l| l.contains(REASON)), "{t}");
    }
}

fn cecp(fen: &str, moves: &str, resign: bool) -> Engine {
    let mut e = Engine::start(&["xboard", "--engine", "chesskelet"]);
    e.send("xboard");
    e.send("protover 2");
    e.until(std::time::Duration::from_secs(20), |l| l.contains("done=1"));
    if resign {
        e.send("option IllegalMoves=resign");
    }
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {fen}"));
    for m in moves.split_whitespace() {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    e
}

#[test]
fn cecp_flags_the_quirk_moves_and_answers_the_next_move() {
    for (fen, moves) in LONG_CASTLING {
        let mut e = cecp(fen, moves, false);
        e.until_prefix("move ");
        let t = e.transcript();
        assert!(t.contains("<engine: move d1c2"), "{t}");
        assert!(t.contains(&format!("<engine: # {REASON}")), "{t}");
        assert!(
            !t.contains("failed") && !t.contains("<engine: resign"),
            "{t}"
        );
        // The GUI took d1c2 (legal to it): the front end follows it and
        // is not left in force mode; the next reply comes.
        e.send(&format!("usermove {}", black_answer(fen, moves)));
        let lines = e.until_prefix("move ");
        let t = e.transcript();
        assert!(lines.iter().any(|l| l.contains("input: typed")), "{t}");
        assert!(!t.contains("failed") && !t.contains("cannot read"), "{t}");
        e.send("quit");

        let mut e = cecp(fen, moves, true);
        e.until_prefix("resign");
        let t = e.transcript();
        assert!(t.contains(&format!("tellusererror {REASON}")), "{t}");
        assert!(!t.contains("<engine: move"), "{t}");
    }
}
