//! Interop: python-chess (`chess.engine.SimpleEngine.popen_xboard`) plays
//! two complete games with clocks against the real binary over CECP; every
//! move it receives must be legal or flagged
//! (`tests/interop/play_games.py`). Needs `python3` with `chess` installed;
//! a missing one fails the test, it is never skipped.

use std::process::Command;

#[test]
fn python_chess_plays_two_games_over_xboard() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/interop/play_games.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_retrochess"), "xboard", "2"])
        .output()
        .expect("python3 must be installed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "python-chess interop failed:\n{stdout}\n{stderr}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{stdout}"
    );
}
