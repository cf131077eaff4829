//! The `retrochess` binary's person-facing subcommands, over pipes.

mod common;

use std::process::Command;

fn run(args: &[&str], stdin: &str) -> (bool, String, String) {
    let out = common::output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_retrochess")).args(args),
        stdin,
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn play_as_black_refuses_illegal_moves_and_shows_the_screen() {
    let (ok, out, _) = run(&["play"], "e7e4\nhello\ne7e5\nNc6\n");
    assert!(ok);
    assert!(
        out.contains(
            "1K ZX Chess plays d2d3 (0.0 s on the original machine; move stored on the tape)"
        ),
        "{out}"
    );
    assert!(out.contains("Illegal move e7e4: not a legal pawn move from e7 to e4: the pawn cannot advance that far."), "{out}");
    assert!(out.contains("Cannot read \"hello\""), "{out}");
    // Two engine replies after e7e5 and Nc6, both typed on the emulated keyboard.
    assert_eq!(
        out.matches("typed 7E5E").count() + out.matches("typed 8B6C").count(),
        2,
        "{out}"
    );
    // The board as the emulated screen shows it last, files H..A: the b8
    // knight has left its (dark) square.
    assert!(out.lines().any(|l| l == "8▒rnbkqb█r"), "{out}");
}

#[test]
fn play_as_white_gets_a_mirrored_engine() {
    let (ok, out, _) = run(&["play", "--color", "white", "--seed", "3"], "e2e4\n");
    assert!(ok);
    assert!(out.contains("You play White"));
    assert!(out.contains("1K ZX Chess plays"), "{out}");
    assert!(out.contains("position injected"), "{out}");
}

#[test]
fn quit_ends_play() {
    let (ok, out, _) = run(&["play"], "quit\n");
    assert!(ok);
    assert!(out.contains("You play Black against 1K ZX Chess"));
}

#[test]
fn bench_prints_its_figures() {
    let (ok, out, _) = run(&["bench", "--moves", "3"], "");
    assert!(ok);
    for key in [
        "engine moves: 3",
        "total T-states: ",
        "host time: ",
        "emulated MHz: ",
        "median host ms per move: ",
        "median authentic s per move: ",
        "raw ",
        "harness/raw: ",
    ] {
        assert!(out.contains(key), "{key} missing in\n{out}");
    }
    let tstates: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("total T-states: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        tstates > 3_000_000,
        "three searches of the 1K program: {tstates}"
    );
}

#[test]
fn engines_are_listed_and_unknown_ones_refused() {
    let (ok, out, _) = run(&["engines"], "");
    assert!(
        ok && out.contains("1k-zx-chess ") && out.contains("1k-zx-chess-kp"),
        "{out}"
    );
    let (ok, _, err) = run(&["screen", "--engine", "nope"], "");
    assert!(!ok);
    assert!(err.contains("unknown engine \"nope\""), "{err}");
}

#[test]
fn bad_tape_file_is_a_clear_error() {
    let path = std::env::temp_dir().join(format!("retrochess-cli-{}.p", std::process::id()));
    std::fs::write(&path, [0x00, 0x01, 0x02]).unwrap();
    let (ok, _, err) = run(&["screen", "--tape", path.to_str().unwrap()], "");
    assert!(!ok);
    assert!(err.contains("bad tape: tape too short: 3 bytes"), "{err}");
}

#[test]
fn first_line_that_is_no_protocol_is_refused() {
    let (ok, _, err) = run(&[], "hello\n");
    assert!(!ok);
    assert!(
        err.contains("cannot tell the protocol from the first line \"hello\""),
        "{err}"
    );
    let (ok, _, _) = run(&[], "");
    assert!(ok, "EOF before any line: clean exit");
}
