//! `retrochess hub`, the Hub front end for draughts, against real clients:
//!
//! - the match runner's own Hub client (`proto=hub`), which plays
//!   `retrochess hub` as an external engine against the built-in engines and
//!   the random mover, with the runner's PDN replayed by pydraughts; and
//!   small misbehaving Hub engines (`tests/engines/misbehaving_hub.py`),
//!   which lose with the same forfeits as UCI and CECP engines;
//! - the real binary over pipes: `hub` detected from the first line, bad
//!   lines answered with `error` and the engine staying alive;
//! - pydraughts 0.6.7's `HubEngine` (`tests/interop/hub_games.py`), which
//!   plays complete games against `retrochess hub`, both colours, from the
//!   initial position and from PDN FEN positions, and checks that every move
//!   it received was legal or flagged in an `info problem=` line.
//!
//! Python is `$RETROCHESS_PYTHON` or `python3`; a missing pydraughts FAILS
//! the test with the command that installs it.

mod common;
#[path = "interop/pipe.rs"]
mod pipe;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::repo;
use retrochess::rules::draughts::pdn::read_games;
use retrochess::rules::draughts::{Position, parse_fen};

/// The draughts engines served over Hub in these tests: a driver's id goes
/// here when it lands.
const ENGINES: &[&str] = &["samuel-f8"];

const INSTALL: &str = "pip install pydraughts==0.6.7";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrochess-hub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn run_match(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The `--engine` spec of `retrochess hub --engine ID`, named `hub-ID`.
fn over_hub(id: &str) -> String {
    format!(
        "cmd={},arg=hub,arg=--engine,arg={id},proto=hub,name=hub-{id}",
        env!("CARGO_BIN_EXE_retrochess")
    )
}

/// The `--engine` spec of tests/engines/misbehaving_hub.py in `mode`.
fn misbehaving(mode: &str) -> String {
    format!(
        "cmd={},arg={},arg={mode},proto=hub,name={mode}",
        common::python(),
        repo("tests/engines/misbehaving_hub.py").display()
    )
}

/// Row of the final table for `name`: (games, W, D, L).
fn row(table: &str, name: &str) -> (u32, u32, u32, u32) {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} not in\n{table}"));
    let nums: Vec<u32> = line[name.len()..]
        .split_whitespace()
        .take(4)
        .map(|x| x.parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

/// Runs `tests/interop/NAME` with `args` and `stdin`: its exit status,
/// stdout and stderr.
fn script(name: &str, args: &[&str], stdin: &str) -> (bool, String, String) {
    let python = common::python();
    let mut child = Command::new(&python)
        .arg(repo(&format!("tests/interop/{name}")))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; then {INSTALL}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write to python");
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("python output");
    (
        status.success(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// [`script`], which must succeed; fails saying how to get pydraughts if
/// it is missing (the scripts name the missing peer and how to install it).
fn pydraughts(name: &str, args: &[&str], stdin: &str) -> String {
    let (ok, stdout, stderr) = script(name, args, stdin);
    assert!(ok, "{name} failed:\n{stdout}\n{stderr}");
    stdout
}

/// pydraughts replays every game of a PDN file to the position our reader
/// reaches.
fn replayed_by_pydraughts(text: &str) {
    let ours: Vec<Position> = read_games(text)
        .expect("our PDN reader reads the runner's PDN")
        .iter()
        .map(|g| *g.replay().expect("our record replays").position())
        .collect();
    let theirs: Vec<Position> = pydraughts("draughts_pdn_replay.py", &[], text)
        .lines()
        .map(|l| parse_fen(l).unwrap_or_else(|e| panic!("pydraughts's {l}: {e}")))
        .collect();
    assert_eq!(theirs, ours, "pydraughts's final positions, then ours");
}

#[test]
fn the_runner_plays_retrochess_hub_as_an_external_engine() {
    for id in ENGINES {
        let pdn = temp(&format!("{id}.pdn"));
        let hub = over_hub(id);
        let (ok, out, err) = run_match(&[
            "--game",
            "draughts",
            "--engine",
            &hub,
            "--engine",
            id,
            "--engine",
            "random",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--pgn",
            pdn.to_str().unwrap(),
        ]);
        assert!(ok, "{id}: {err}\n{out}");
        assert_eq!(row(&out, &format!("hub-{id}")).0, 8, "{out}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        assert_eq!(read_games(&text).unwrap().len(), 12, "3 pairings × 4 games");
        // The Hub engine played every game to its end: no fault of the
        // connection ended one.
        for fault in [
            "could not start",
            "disconnects",
            "stalls",
            "breaks the protocol",
            "has no move",
            "unreadable",
            "refused our input",
        ] {
            assert!(!text.contains(fault), "{id}: {fault}\n{text}");
        }
        assert_eq!(
            text.matches("[GameType \"21\"]").count(),
            12,
            "English checkers"
        );
        replayed_by_pydraughts(&text);
    }
}

#[test]
fn misbehaving_hub_engines_lose_without_killing_the_match() {
    let pdn = temp("misbehaving.pdn");
    let modes = [
        ("crash", "crash disconnects"),
        ("stall", "stall stalls: no move within its 0.50 s left"),
        (
            "mute",
            "mute could not start: mute did not answer hub within 2.0 s",
        ),
        (
            "flood",
            "flood breaks the protocol: a line longer than 65536 bytes",
        ),
        (
            "nomove",
            "nomove resigns: nomove has no move (done without one)",
        ),
        (
            "refuse",
            "refuse resigns: refuse refused our input: not today",
        ),
        (
            "unreadable",
            "unreadable resigns: unreadable sent an unreadable move \"x9\"",
        ),
    ];
    let specs: Vec<String> = modes.iter().map(|(m, _)| misbehaving(m)).collect();
    let mut args = vec!["--game", "draughts", "--engine", "random"];
    for spec in &specs {
        args.extend(["--engine", spec.as_str()]);
    }
    args.extend([
        "--games",
        "2",
        "--tc",
        "0.5+0",
        "--startup",
        "2",
        "--concurrency",
        "2",
        "--pgn",
        pdn.to_str().unwrap(),
    ]);
    // Each misbehaving engine plays only the random mover.
    let (ok, out, err) = run_match(&args);
    assert!(ok, "the match survives: {err}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    for (mode, reason) in modes {
        assert!(text.contains(reason), "{mode}: no {reason:?} in\n{text}");
    }
    let n = modes.len() as u32;
    assert_eq!(row(&out, "Random mover"), (2 * n, 2 * n, 0, 0), "{out}");
}

#[test]
fn a_hub_engine_cannot_play_chess_nor_a_chess_engine_draughts() {
    let hub = over_hub(ENGINES[0]);
    let (ok, _, err) = run_match(&["--game", "chess", "--engine", &hub, "--engine", "random"]);
    assert!(
        !ok && err.contains("plays draughts, the match is chess"),
        "{err}"
    );
    let uci = format!("cmd={},arg=uci,proto=uci", env!("CARGO_BIN_EXE_retrochess"));
    let (ok, _, err) = run_match(&["--engine", &uci, "--engine", &hub]);
    assert!(
        !ok && err.contains("plays draughts, the match is chess"),
        "{err}"
    );
    let (ok, _, err) = run_match(&["--engine", &hub.replace("proto=hub", "proto=fics")]);
    assert!(
        !ok && err.contains("unknown protocol \"fics\": uci, xboard or hub"),
        "{err}"
    );
}

#[test]
fn the_binary_detects_hub_and_survives_bad_lines() {
    let mut e = pipe::Engine::start(&[]);
    e.send("hub");
    let lines = e.until_prefix("wait");
    assert!(
        lines[0].starts_with("id name=\"Samuel F8 checkers"),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"param name=variant value=english type=enum values=\"english zx81-1k\"".to_string()
        ),
        "{lines:?}"
    );
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

/// Positions the pydraughts games also start from: Black to move, then
/// White to move.
const FENS: [&str; 2] = [
    "B:W18,22,24,25,K30:B5,9,10,14,K27",
    "W:W17,K26,28,29:B6,K11,12,19",
];

/// `hub_games.py` against `command`: its game lines and summary.
fn hub_games(seed: &str, command: &[&str]) -> (bool, String, String) {
    let fens = FENS.join("|");
    let mut args = vec![seed, fens.as_str()];
    args.extend_from_slice(command);
    script("hub_games.py", &args, "")
}

/// The number after `key=` in `line`.
fn count(line: &str, key: &str) -> usize {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

#[test]
fn pydraughts_plays_complete_games_against_retrochess_hub() {
    for id in ENGINES {
        let command = [env!("CARGO_BIN_EXE_retrochess"), "hub", "--engine", id];
        let (ok, out, err) = hub_games("11", &command);
        assert!(ok, "{id}: pydraughts's check failed:\n{out}\n{err}");
        eprintln!("{id}:\n{out}");
        let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2 * (1 + FENS.len()), "{out}");
        for colour in ["engine=black", "engine=white"] {
            assert_eq!(
                games.iter().filter(|g| g.contains(colour)).count(),
                1 + FENS.len(),
                "{colour}: {out}"
            );
        }
        for fen in FENS {
            assert!(out.contains(&format!("start={fen} ")), "{fen}: {out}");
        }
        // Every game went on until pydraughts saw it end (or the engine's
        // move was flagged): the engine answered every time it was asked.
        for game in &games {
            assert!(
                game.contains(" end=over ") || game.contains(" end=flagged: "),
                "{game}"
            );
            assert!(count(game, "engine_moves") > 0 || count(game, "flagged") > 0);
        }
        let summary = out.lines().last().unwrap();
        assert!(count(summary, "engine_moves") >= games.len(), "{summary}");
    }
}

#[test]
fn pydraughts_side_check_accepts_flagged_and_catches_unflagged_illegal_moves() {
    let python = common::python();
    let engine = repo("tests/engines/misbehaving_hub.py");
    let engine = engine.to_str().unwrap();
    let (ok, out, err) = hub_games("1", &[&python, engine, "illegal"]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.ends_with("flagged=6\n"),
        "every game ends on the flagged move: {out}"
    );
    let (ok, out, err) = hub_games("1", &[&python, engine, "unflagged"]);
    assert!(!ok, "an unflagged illegal move must fail the check: {out}");
    assert!(err.contains("no problem flagged"), "{err}");
}

#[test]
fn pydraughts_replays_the_runners_pdn_of_games_from_fen_positions() {
    let openings = temp("openings.txt");
    std::fs::write(
        &openings,
        format!("# Black, then White to move\n{}\n", FENS.join("\n")),
    )
    .unwrap();
    for id in ENGINES {
        let pdn = temp(&format!("fen-{id}.pdn"));
        let hub = over_hub(id);
        let (ok, out, err) = run_match(&[
            "--engine",
            &hub,
            "--engine",
            "random",
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "4",
            "--pgn",
            pdn.to_str().unwrap(),
        ]);
        assert!(ok, "{id}: {err}\n{out}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        for fen in FENS {
            assert_eq!(
                text.matches(&format!("[FEN \"{fen}\"]")).count(),
                2,
                "{text}"
            );
        }
        replayed_by_pydraughts(&text);
    }
}
