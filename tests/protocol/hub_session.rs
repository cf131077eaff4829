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
    for id in common::HUB_ENGINES {
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
