//! What the fuzz targets of `fuzz/` found, replayed against the real binary
//! over pipes: each input as the target reported it (or its shortest form),
//! and what `retrochess` must do with it instead of dying.

use crate::common;
use crate::common::pipe;

use std::time::Duration;

use common::retrochess;
use pipe::Engine;

/// `player_spec`: a blank `cmd=` was accepted, an engine with no program
/// and no name.
#[test]
fn blank_engine_command_is_refused() {
    for spec in ["cmd=,proto=uci", "cmd=      ,proto=cecp,name=stall"] {
        let (ok, _, err) = retrochess(&["match", "--engine", "random", "--engine", spec], "");
        assert!(!ok, "{spec}: {err}");
        assert!(err.contains("cmd= is empty"), "{spec}: {err}");
    }
}

/// Plays `lines` to `retrochess xboard --engine 1k-zx-chess`; if `moves`,
/// waits for the engine's move, which must be a move, not a resignation.
/// Then `ping 1` must be answered and end of input must end the process
/// cleanly.
fn cecp_survives(lines: &[&str], moves: bool) {
    let mut e = Engine::start(&["xboard", "--engine", "1k-zx-chess"]);
    e.send("xboard");
    e.send("protover 2");
    e.until_prefix("feature done=1");
    for line in lines {
        e.send(line);
    }
    if moves {
        let got = e.until(Duration::from_secs(20), |l| {
            l.starts_with("move ") || l == "resign" || l.starts_with("Error")
        });
        let last = got.last().unwrap();
        assert!(last.starts_with("move "), "{lines:?}\n{}", e.transcript());
    }
    e.send("ping 1");
    e.until(Duration::from_secs(20), |l| l == "pong 1");
    e.close();
    let status = e.wait(Duration::from_secs(20));
    assert!(status.success(), "{lines:?}: {status}\n{}", e.transcript());
}

/// `cecp_lines`: `st 018446744073709551615` (seconds beyond a `Duration`)
/// panicked, "cannot convert float seconds to Duration". The same family,
/// as issue 12 lists it: huge `st` and `level` values saturate.
#[test]
fn cecp_huge_move_times_saturate() {
    cecp_survives(&["st 018446744073709551615"], false);
    cecp_survives(&["st 1e300"], false);
    cecp_survives(&["level 40 1e300 0"], false);
    cecp_survives(&["new", "st 99999999999999999999", "e2e4"], true);
    cecp_survives(&["new", "level 40 5 1e300", "e2e4"], true);
}

/// "overflow when adding durations": a huge base and increment added up
/// when the engine is asked to move.
#[test]
fn cecp_huge_level_then_move_saturates() {
    cecp_survives(
        &[
            "level 1 300000000000000000 10000000000000000000",
            "new",
            "e2e4",
        ],
        true,
    );
}

/// `time 1844674407370955162` (centiseconds) wrapped to a 4 ms clock when
/// turned into milliseconds, and the engine resigned.
#[test]
fn cecp_huge_clock_does_not_wrap() {
    cecp_survives(
        &[
            "new",
            "time 1844674407370955162",
            "otim 1844674407370955162",
            "e2e4",
        ],
        true,
    );
}
