//! What the fuzz targets of `fuzz/` found, replayed against the real binary
//! over pipes: each input as the target reported it (or its shortest form),
//! and what `retrochess` must do with it instead of dying.

use crate::common;

use std::process::{Command, Output};

use common::output_with_stdin;

fn retrochess(args: &[&str], stdin: &str) -> Output {
    output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_retrochess")).args(args),
        stdin,
    )
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `player_spec`: a blank `cmd=` was accepted, an engine with no program
/// and no name.
#[test]
fn blank_engine_command_is_refused() {
    for spec in ["cmd=,proto=uci", "cmd=      ,proto=cecp,name=stall"] {
        let o = retrochess(&["match", "--engine", "random", "--engine", spec], "");
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{spec}: {err}");
        assert!(err.contains("cmd= is empty"), "{spec}: {err}");
    }
}
