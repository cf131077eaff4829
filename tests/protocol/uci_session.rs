//! UCI over pipes with the real emulated engine: the handshake, protocol
//! detection, `isready` while thinking, `go infinite`/`stop`, `ponderhit`,
//! garbage, end of input and `quit` mid-search; and the two latencies GUIs
//! care about, printed for the record.

use crate::common::pipe;

use std::time::{Duration, Instant};

use pipe::Engine;

const SECOND: Duration = Duration::from_secs(1);

fn handshake(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.until_prefix("uciok")
}

#[test]
fn handshake_lists_identity_and_options() {
    let t = Instant::now();
    let mut e = Engine::start(&["uci", "--engine", "1k-zx-chess-kp"]);
    let lines = handshake(&mut e);
    eprintln!("process start to uciok: {:?}", t.elapsed());
    assert!(
        lines[0].starts_with("id name 1K ZX Chess (king's pawn) (David Horne 1982) via retrochess")
    );
    assert_eq!(lines[1], "id author David Horne");
    for option in [
        "option name Seed type spin default 1 min 0 max 2147483647",
        "option name Opening type combo default tape var tape var think",
        "option name IllegalMoves type combo default play var play var resign",
        "option name AuthenticTiming type check default false",
        "option name TimeScale type spin default 100 min 1 max 10000",
        "option name ShowScreen type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l == option),
            "{option}\n{}",
            e.transcript()
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_EngineAbout type string default 1K ZX Chess"))
    );
    // The king's-pawn tape's stored move.
    e.send("position startpos");
    e.send("go movetime 1000");
    assert_eq!(e.until_prefix("bestmove").last().unwrap(), "bestmove e2e3");
}

#[test]
fn protocol_is_detected_from_the_first_line() {
    let mut e = Engine::start(&["--seed", "5"]);
    let lines = handshake(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Seed type spin default 5 min 0 max 2147483647")
    );
    e.send("isready");
    e.until_prefix("readyok");
    e.send("quit");
    assert!(e.wait(5 * SECOND).success());
}

#[test]
fn isready_is_answered_while_thinking() {
    let mut e = Engine::start(&["uci"]);
    handshake(&mut e);
    // A long search: the move is held until stop.
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.until_prefix("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "go infinite waits for stop: {lines:?}"
    );
    assert!(
        e.drain(Duration::from_millis(200)).is_empty(),
        "nothing before stop"
    );
    e.send("stop");
    let lines = e.until_prefix("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 1 score cp "))
    );
    // And while the move is held back by AuthenticTiming (about 5-9 s).
    e.send("setoption name AuthenticTiming value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go");
    for _ in 0..3 {
        e.send("isready");
        let lines = e.until_prefix("readyok");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "readyok before the held move: {lines:?}"
        );
    }
    e.send("stop");
    e.until_prefix("bestmove");
    // go ponder, then ponderhit.
    e.send("setoption name AuthenticTiming value false");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 10000 btime 10000");
    assert!(
        e.drain(Duration::from_millis(200)).is_empty(),
        "pondering until ponderhit"
    );
    e.send("ponderhit");
    e.until_prefix("bestmove");
}

/// 200 `isready` in a row, each answered by one `readyok` and nothing
/// else; how fast is the host's (printed, and scripts/go-latency).
#[test]
fn isready_round_trip() {
    let mut e = Engine::start(&["uci"]);
    handshake(&mut e);
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        e.send("isready");
        assert_eq!(e.until_prefix("readyok"), ["readyok"]);
    }
    eprintln!(
        "isready round trip: {:?} on average over {n}",
        t.elapsed() / n
    );
}

#[test]
fn garbage_is_ignored_with_a_note() {
    let mut e = Engine::start(&["uci"]);
    handshake(&mut e);
    for line in [
        "hello",
        "go depth",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5",
        "setoption name NoSuchOption value 3",
        "setoption name Seed value banana",
        "go wtime -5 btime x",
        "go depth 999 movestogo 300",
        "",
        "\t",
        "position startpos moves e2e4 e7e5 e1e1",
    ] {
        e.send(line);
    }
    e.send_bytes(b"\xff\xfe\x00garbage\r\n");
    e.send("joho isready");
    let lines = e.until_prefix("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("position refused") && l.contains("move 1 e2e5 is illegal"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown option \"NoSuchOption\""))
    );
    // `go depth 999 movestogo 300` is a search (from startpos: the tape's
    // move), answered after readyok or before.
    let mut all = lines.clone();
    if !lines.iter().any(|l| l.starts_with("bestmove")) {
        all.extend(e.until_prefix("bestmove"));
    }
    assert_eq!(
        all.iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect::<Vec<_>>(),
        ["bestmove d2d3"]
    );
    let notes = e.stderr();
    assert!(
        notes
            .iter()
            .any(|l| l.contains("unknown command, ignored: hello")),
        "{notes:?}"
    );
    // Still alive and playing.
    e.send("position startpos moves d2d4");
    e.send("go movetime 500");
    e.until_prefix("bestmove");
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start(&["uci"]);
    handshake(&mut e);
    e.close();
    assert!(e.wait(5 * SECOND).success());
}

#[test]
fn quit_mid_search_exits_at_once() {
    let mut e = Engine::start(&["uci"]);
    handshake(&mut e);
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    e.send("quit");
    assert!(e.wait(5 * SECOND).success());
    // `go infinite` holds its move until `stop`: none came, quit did not
    // wait for one.
    let rest = e.drain(5 * SECOND);
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
}

#[test]
fn unknown_engine_is_an_error() {
    let mut e = Engine::start(&["uci", "--engine", "deep-thought"]);
    assert!(!e.wait(5 * SECOND).success());
    let err = e.stderr().join("\n");
    assert!(err.contains("unknown engine \"deep-thought\""), "{err}");
}
