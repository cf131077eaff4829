//! A real xboard (Debian's, headless under Xvfb, both installed by
//! scripts/test) runs a game between two retro engines through
//! `retrochess xboard`.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn headless_xboard_plays_a_game_between_two_retro_engines() {
    let xboard = common::peer("xboard");
    let xvfb_run = common::peer("xvfb-run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_retrochess"));
    let dir = std::env::temp_dir().join(format!("retrochess-xboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("xboard.pgn");
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new("timeout")
        .arg("120")
        .arg(&xvfb_run)
        .arg("-a")
        .arg(&xboard)
        .args([
            "-fcp",
            "retrochess xboard --engine 1k-zx-chess",
            "-scp",
            "retrochess xboard --engine chesskelet-lite",
        ])
        .args([
            "-mg",
            "1",
            "-tc",
            "5",
            "-mps",
            "40",
            "-autoCallFlag",
            "true",
            "-popupExitMessage",
            "false",
        ])
        .arg("-sgf")
        .arg(&pgn)
        .current_dir(&dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.parent().unwrap().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .expect("timeout runs");
    assert!(
        out.status.success(),
        "xboard: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).expect("xboard saved the game");
    assert!(
        text.contains("[White \"1K ZX Chess (David Horne 1982) via retrochess"),
        "{text}"
    );
    assert!(
        text.contains("[Black \"ChesSkelet (minimal build)"),
        "{text}"
    );
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .unwrap_or("");
    assert!(
        ["1-0\"]", "0-1\"]", "1/2-1/2\"]"].contains(&result),
        "a finished game: {text}"
    );
    // xboard wraps movetext anywhere, also right after a move number.
    assert!(
        text.split_whitespace().any(|w| w == "5."),
        "at least five moves: {text}"
    );
}
