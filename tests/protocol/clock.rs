//! `src/protocol/clock.rs` over pipes with the real binary: at 0.1+0.01 no
//! move that fits the clock is cut short, over UCI and CECP.

use crate::common::pipe;
use crate::session::uci;

use pipe::Engine;

/// At 0.1+0.01 (what fastchess gives at `tc=0.1+0.01`), 1K ZX Chess and
/// ChesSkelet must answer every move that fits the clock: 100 moves each,
/// over UCI and over CECP, the engine playing both sides from its own
/// replies (a new game when one ends), the clock as a GUI sends it; no move
/// is cut short by the T-state budget (`bestmove 0000`, `resign`).
#[test]
fn a_fast_clock_cuts_no_move_that_fits_it() {
    for engine in ["1k-zx-chess", "chesskelet"] {
        let (cut, moved) = uci_fast_clock(engine, 100);
        assert!(
            cut.is_empty(),
            "{engine} over UCI: moves cut by the budget: {cut:?}"
        );
        assert!(
            moved >= 80,
            "{engine} over UCI: only {moved} of 100 answered with a move"
        );
        let (cut, moved) = cecp_fast_clock(engine, 100);
        assert!(
            cut.is_empty(),
            "{engine} over CECP: moves cut by the budget: {cut:?}"
        );
        assert!(
            moved >= 80,
            "{engine} over CECP: only {moved} of 100 answered with a move"
        );
    }
}

/// Asks for `n` moves at 100 ms + 10 ms over UCI; returns the ones cut by
/// the budget and how many were answered with a move.
fn uci_fast_clock(engine: &str, n: usize) -> (Vec<String>, usize) {
    let mut e = uci(engine);
    let (mut asked, mut cut, mut moves) = (0, Vec::new(), Vec::<String>::new());
    let mut moved = 0;
    while asked < n {
        e.send("ucinewgame");
        moves.clear();
        while asked < n {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go wtime 100 btime 100 winc 10 binc 10");
            let lines = e.until_prefix("bestmove");
            asked += 1;
            if lines.iter().any(|l| l.contains("budget exhausted")) {
                cut.push(format!("after {moves:?}: {lines:?}"));
            }
            let best = lines
                .last()
                .unwrap()
                .trim_start_matches("bestmove ")
                .to_string();
            if best != "0000" {
                moved += 1;
            }
            if best == "0000" || lines.iter().any(|l| l.starts_with("info string illegal")) {
                break;
            }
            moves.push(best);
        }
    }
    (cut, moved)
}

/// The same over CECP: `time`/`otim` of 10 centiseconds and a 0.01 s
/// increment before each `go`; `force` after each move, so the next `go`
/// plays the other side.
fn cecp_fast_clock(engine: &str, n: usize) -> (Vec<String>, usize) {
    let mut e = Engine::start(&["xboard", "--engine", engine]);
    let mut answered = 0;
    e.send("xboard");
    e.send("protover 2");
    e.until_prefix("feature done=1");
    let (mut asked, mut cut) = (0, Vec::new());
    while asked < n {
        e.send("new");
        e.send("force");
        e.send("level 0 0 0.01");
        while asked < n {
            e.send("time 10");
            e.send("otim 10");
            e.send("go");
            e.send("ping 1");
            let lines = e.until_prefix("pong");
            asked += 1;
            if lines.iter().any(|l| l.contains("budget exhausted")) {
                cut.push(format!("{lines:?}"));
            }
            e.send("force");
            let moved = lines.iter().any(|l| l.starts_with("move "));
            answered += usize::from(moved);
            let over = lines
                .iter()
                .any(|l| l == "resign" || l.starts_with("# illegal") || l.contains(" {"));
            if !moved || over {
                break;
            }
        }
    }
    (cut, answered)
}
