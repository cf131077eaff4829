//! `retrochess hub` over pipes: `hub` detected from the first line, the
//! handshake of every draughts engine, bad lines answered with `error` and
//! the engine staying alive, `ping` answered while it thinks.

use std::time::Duration;

use crate::common::{self, pipe};

#[test]
fn the_binary_detects_hub_and_survives_bad_lines() {
    let mut e = pipe::Engine::start(&[]);
    e.send("hub");
    let lines = e.until_prefix("wait");
    assert!(
        lines[0].starts_with("id name=\"Samuel F8 checkers"),
        "{lines:?}"
    );
    let variant = "param name=variant value=english type=enum values=\"english zx81-1k\"";
    assert!(lines.contains(&variant.to_string()), "{lines:?}");
    for (bad, error) in [
        (
            "pos pos=Wbbb",
            "error message=\"position refused: a Hub position has 32 squares, not 3\"",
        ),
        (
            "level time=soon",
            "error message=\"time soon is not a number of the right kind\"",
        ),
        ("go", "error message=\"go needs think, ponder or analyze\""),
        (
            "pos pos=\"Wbbb",
            "error message=\"the value of pos has no closing quote\"",
        ),
        ("uci", "error message=\"unknown command uci\""),
    ] {
        e.send(bad);
        assert_eq!(e.until_prefix("error"), [error], "{bad}");
    }
    e.send_bytes(b"\xff\xfe pos\n");
    assert!(e.until_prefix("error")[0].starts_with("error message=\"unknown command"));
    e.send("init");
    e.until_prefix("ready");
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"");
    e.send("level move-time=1");
    e.send("go think");
    e.send("ping");
    // `pong` comes at once, before or after the move.
    let mut lines = e.until_prefix("done");
    if !lines.contains(&"pong".to_string()) {
        lines.extend(e.until_prefix("pong"));
    }
    let done = lines.iter().find(|l| l.starts_with("done")).unwrap();
    assert!(done.starts_with("done move="), "{done}");
    e.send("quit");
    assert!(e.wait(Duration::from_secs(5)).success());
}

#[test]
fn every_draughts_engine_introduces_itself_and_answers() {
    for id in common::hub_engines() {
        let mut e = pipe::Engine::start(&["hub", "--engine", id]);
        e.send("hub");
        let lines = e.until_prefix("wait");
        let name = retrochess::engines::info(id).unwrap().name;
        assert!(
            lines[0].starts_with(&format!("id name=\"{name} (")),
            "{id}: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("param name=Seed ")),
            "{lines:?}"
        );
        e.send("set-param name=variant value=zx81-1k");
        e.send("init");
        e.until_prefix("ready");
        e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        e.send("level time=10 inc=0.1");
        e.send("go think");
        let lines = e.until_prefix("done");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info ") && l.contains(" detail=")),
            "{id}: {lines:?}"
        );
        e.close();
        assert!(
            e.wait(Duration::from_secs(5)).success(),
            "{id}: end of input"
        );
    }
}

/// `go analyze` with every draughts engine: the program's candidates as
/// `info depth=1 … pv=…` lines, its choice last and the move of `done`,
/// the count in a note; `go think` right after shows no candidates.
#[test]
fn go_analyze_shows_the_candidates() {
    for id in common::hub_engines() {
        let mut e = pipe::Engine::start(&["hub", "--engine", id]);
        e.send("hub");
        e.until_prefix("wait");
        e.send("init");
        e.until_prefix("ready");
        e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"");
        e.send("level move-time=1");
        e.send("go analyze");
        let lines = e.until_prefix("done");
        let pvs: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with("info depth=1 score="))
            .filter_map(|l| l.split_whitespace().find_map(|w| w.strip_prefix("pv=")))
            .collect();
        assert!(pvs.len() >= 2, "{id}: {lines:?}");
        let done = lines.last().unwrap().strip_prefix("done move=").unwrap();
        assert_eq!(pvs.last(), Some(&done), "{id}: the choice last: {lines:?}");
        let count = format!(" candidates weighed, {} legal\"", pvs.len());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info note=\"") && l.ends_with(&count)),
            "{id}: {lines:?}"
        );
        e.send("go think");
        let lines = e.until_prefix("done");
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("depth=1") || l.contains("note=")),
            "{id}: {lines:?}"
        );
        e.send("quit");
        assert!(e.wait(Duration::from_secs(5)).success());
    }
}
