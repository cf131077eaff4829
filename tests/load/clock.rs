//! `src/protocol/clock.rs` over pipes with the real binary, with six
//! CPU-bound jobs beside it: a program is cut only when still running at
//! its deadline (all the time its clock left it, from the command), and
//! then says so with the time it had. No assertion on how fast the host
//! is: only that no cut comes before the deadline, which holds however
//! loaded the machine.

use crate::common::Load;
use crate::common::pipe::{Engine, cut_after_ms, uci};

/// The deadline at 100 ms on the clock: all of it.
const DEADLINE_MS: u128 = 100;

/// At 0.1+0.01 (what fastchess gives at `tc=0.1+0.01`), 1K ZX Chess and
/// ChesSkelet answer the moves that fit the clock: 100 moves each, over
/// UCI and over CECP, the engine playing both sides from its own replies
/// (a new game when one ends), the clock as a GUI sends it, six CPU-bound
/// jobs beside it. A reply with no move must be a program still running
/// at its deadline, cut no earlier than 100 ms after the command; no
/// T-state budget cuts under a clock. How many moves fit is the host's.
#[test]
fn a_fast_clock_cuts_no_move_before_its_deadline_under_load() {
    let _load = Load::start(6);
    for engine in ["1k-zx-chess", "chesskelet"] {
        let (cut, moved) = uci_fast_clock(engine, 100);
        check_cuts(engine, "UCI", &cut);
        // How many fit the clock is the host's: printed, not held.
        eprintln!("{engine} over UCI: {moved} of 100 answered with a move");
        assert!(moved > 0, "{engine} over UCI: no move at all: {cut:?}");
        let (cut, moved) = cecp_fast_clock(engine, 100);
        check_cuts(engine, "CECP", &cut);
        // How many fit the clock is the host's: printed, not held.
        eprintln!("{engine} over CECP: {moved} of 100 answered with a move");
        assert!(moved > 0, "{engine} over CECP: no move at all: {cut:?}");
    }
}

/// Each cut named as the rule says: at the deadline, with the time the
/// program had, no earlier than the deadline after the command.
fn check_cuts(engine: &str, front: &str, cut: &[String]) {
    for c in cut {
        assert!(
            !c.contains("budget exhausted"),
            "{engine} over {front}: a T-state budget under a clock: {c}"
        );
        assert!(
            c.contains("still running at its deadline") && c.contains("it had 100 ms on its clock"),
            "{engine} over {front}: {c}"
        );
        let after = cut_after_ms(c).unwrap_or_else(|| panic!("no time in {c}"));
        assert!(
            after >= DEADLINE_MS,
            "{engine} over {front}: cut {after} ms after the command, before its deadline: {c}"
        );
    }
}

/// Asks for `n` moves at 100 ms + 10 ms over UCI; returns the replies
/// with no move and how many were answered with a move.
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
            if lines.iter().any(|l| l.contains("did not come back")) {
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
            if lines.iter().any(|l| l.contains("did not come back")) {
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
