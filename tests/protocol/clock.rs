//! `src/protocol/clock.rs` over pipes with the real binary: a program
//! still running at its deadline is cut and says what time it had. The
//! same rule under six CPU-bound jobs is `tests/load/` (its own test
//! binary, so that its load meets no other test).

use std::time::Duration;

use crate::common::pipe::{cut_after_ms, uci};

/// A program that cannot fit its clock is cut at its deadline and says
/// with what time; the same position without a clock gives its move. The
/// position of tests/peers/hung_replies.py, where 1K ZX Chess needs 8.3 M
/// T-states: `go movetime 1` leaves it 1 ms, in which no host emulates
/// them (`z80emu` takes about 5 ms on the development host).
#[test]
fn a_program_still_running_at_its_deadline_is_cut_and_says_what_it_had() {
    let mut e = uci("1k-zx-chess");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5");
    e.send("go movetime 1");
    let lines = e.until_prefix("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    let why = lines
        .iter()
        .find(|l| l.contains("did not come back"))
        .unwrap_or_else(|| panic!("no reason given: {lines:?}"));
    assert!(
        why.contains("still running at its deadline") && why.contains("it had a move time of 1 ms"),
        "{why}"
    );
    assert!(cut_after_ms(why).is_some_and(|ms| ms >= 1), "{why}");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    let lines = e.until_prefix("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
}
