//! A protocol session over pipes with the real binary, as a new user
//! would try it: a new game reseeds the machine (same seed, same game in a
//! reused process), every `go` gets its `bestmove`, and an illegal move is
//! never a `pv`.

use crate::common::pipe;

use pipe::{Engine, uci};

fn bestmove(e: &mut Engine) -> String {
    e.until_prefix("bestmove")
        .last()
        .cloned()
        .unwrap_or_default()
}

/// Match managers reuse engine processes: after `ucinewgame` the same
/// position must get the same reply, however many games came before. The
/// position is typed (the program continues a game), so FRAMES, the
/// tie-breaker of 1K ZX Chess, is whatever the machine's clock reached.
#[test]
fn ucinewgame_replays_the_same_game() {
    let mut e = uci("1k-zx-chess");
    let mut replies = Vec::new();
    for _ in 0..4 {
        e.send("ucinewgame");
        let mut moves = Vec::new();
        let mut line = Vec::new();
        for reply_to in ["a2a3", "h2h3", "b2b3"] {
            moves.push(reply_to.to_string());
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go wtime 60000 btime 60000");
            let best = bestmove(&mut e);
            let m = best.trim_start_matches("bestmove ").to_string();
            line.push(m.clone());
            moves.push(m);
        }
        replies.push(line);
    }
    assert!(
        replies.windows(2).all(|w| w[0] == w[1]),
        "{replies:?}\n{}",
        e.transcript()
    );
}

/// The same over CECP: `new` starts the same game again.
#[test]
fn cecp_new_replays_the_same_game() {
    let mut e = Engine::start(&["xboard", "--engine", "1k-zx-chess"]);
    e.send("xboard");
    e.send("protover 2");
    e.until_prefix("feature done=1");
    let mut games = Vec::new();
    for _ in 0..3 {
        e.send("new");
        e.send("usermove a2a3");
        let mut line = Vec::new();
        for next in ["h2h3", "b2b3"] {
            let m = e.until_prefix("move ").last().cloned().unwrap_or_default();
            line.push(m);
            e.send(&format!("usermove {next}"));
        }
        line.push(e.until_prefix("move ").last().cloned().unwrap_or_default());
        games.push(line);
    }
    assert!(
        games.windows(2).all(|w| w[0] == w[1]),
        "{games:?}\n{}",
        e.transcript()
    );
}

/// `go infinite` twice, then `stop`: each `go` gets its `bestmove`, in order.
#[test]
fn every_go_gets_its_bestmove() {
    let mut e = uci("1k-zx-chess");
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("stop");
    e.send("isready");
    let lines = e.until_prefix("readyok");
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 2, "{}", e.transcript());
}

/// ChesSkelet's illegal moves (it knows nothing of check) are flagged in an
/// `info string`, never shown as a `pv`.
#[test]
fn an_illegal_move_is_never_a_pv() {
    let mut e = uci("chesskelet");
    // Black to move in check from the bishop on b5: ChesSkelet plays as if
    // there were no check (its move here is a7a6, seed 1), which leaves
    // the king in check.
    e.send("position fen rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3");
    e.send("go movetime 1000");
    let lines = e.until_prefix("bestmove");
    let flagged = lines
        .iter()
        .any(|l| l.starts_with("info string illegal move"));
    let best = lines
        .last()
        .unwrap()
        .trim_start_matches("bestmove ")
        .to_string();
    for l in &lines {
        if let Some(pv) = l.split(" pv ").nth(1) {
            assert!(!(flagged && pv.trim() == best), "illegal pv: {l}");
        }
    }
    assert!(
        flagged,
        "the position was chosen for an illegal reply: {lines:?}"
    );
}
