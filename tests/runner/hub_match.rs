//! The match runner's Hub client (`proto=hub`): it plays `retrochess hub`
//! as an external engine against the built-in engines and the random
//! mover, from the two-move ballots and from PDN FEN positions, with the
//! PDN replayed by pydraughts; misbehaving Hub engines
//! (`tests/peers/misbehaving_hub.py`) lose with the same forfeits as UCI
//! and CECP engines; a Hub engine is refused for chess.

use retrochess::rules::draughts::pdn::read_games;
use retrochess::rules::draughts::{Position, parse_fen};

use crate::common::{self, over_hub, repo, standings_row};

/// Positions the FEN openings start from: Black to move, then White.
const FENS: [&str; 2] = [
    "B:W18,22,24,25,K30:B5,9,10,14,K27",
    "W:W17,K26,28,29:B6,K11,12,19",
];

fn temp(name: &str) -> std::path::PathBuf {
    let p = common::temp_file(name, b"");
    std::fs::remove_file(&p).unwrap();
    p
}

fn run_match(args: &[&str]) -> (bool, String, String) {
    let args: Vec<&str> = ["match"].iter().chain(args).copied().collect();
    common::retrochess(&args, "")
}

/// The `--engine` spec of tests/peers/misbehaving_hub.py in `mode`.
fn misbehaving(mode: &str) -> String {
    format!(
        "cmd={},arg={},arg={mode},proto=hub,name={mode}",
        common::python(),
        repo("tests/peers/misbehaving_hub.py").display()
    )
}

/// pydraughts replays every game of a PDN file to the position our reader
/// reaches (`tests/peers/draughts_pdn_replay.py`).
fn replayed_by_pydraughts(text: &str) {
    let ours: Vec<Position> = read_games(text)
        .expect("our PDN reader reads the runner's PDN")
        .iter()
        .map(|g| *g.replay().expect("our record replays").position())
        .collect();
    let (ok, out, err) = common::peer_script("draughts_pdn_replay.py", &[], text);
    assert!(
        ok,
        "pydraughts cannot replay the runner's PDN:\n{err}\n{text}"
    );
    let theirs: Vec<Position> = out
        .lines()
        .map(|l| parse_fen(l).unwrap_or_else(|e| panic!("pydraughts's {l}: {e}")))
        .collect();
    assert_eq!(theirs, ours, "pydraughts's final positions, then ours");
}

/// No game lost to a fault of the connection; a Hub engine that sends no
/// move says why.
fn no_connection_faults(id: &str, text: &str) {
    for fault in [
        "could not start",
        "disconnects",
        "stalls",
        "breaks the protocol",
        "unreadable",
        "refused our input",
        "(done without one)}",
        "(done with the null move 0-0)}",
    ] {
        assert!(!text.contains(fault), "{id}: {fault}\n{text}");
    }
}

#[test]
fn the_runner_plays_retrochess_hub_as_an_external_engine() {
    for id in common::hub_engines() {
        let pdn = temp(&format!("hub-{id}.pdn"));
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
        assert_eq!(standings_row(&out, &format!("hub-{id}")).0, 8, "{out}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        assert_eq!(read_games(&text).unwrap().len(), 12, "3 pairings × 4 games");
        assert_eq!(text.matches("[GameType \"21\"]").count(), 12);
        no_connection_faults(id, &text);
        replayed_by_pydraughts(&text);
    }
}

#[test]
fn the_runners_pdn_of_games_from_fen_positions_replays_in_pydraughts() {
    let openings = common::temp_file(
        "hub-openings.txt",
        format!("# Black, then White to move\n{}\n", FENS.join("\n")).as_bytes(),
    );
    for id in common::hub_engines() {
        let pdn = temp(&format!("hub-fen-{id}.pdn"));
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
        no_connection_faults(id, &text);
        replayed_by_pydraughts(&text);
    }
}

#[test]
fn misbehaving_hub_engines_lose_without_killing_the_match() {
    let pdn = temp("hub-misbehaving.pdn");
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
    let (ok, out, err) = run_match(&args);
    assert!(ok, "the match survives: {err}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    for (mode, reason) in modes {
        assert!(text.contains(reason), "{mode}: no {reason:?} in\n{text}");
    }
    // Against the random mover, each misbehaving engine loses both games.
    let n = modes.len() as u32;
    assert_eq!(
        standings_row(&out, "Random mover"),
        (2 * n, 2 * n, 0, 0),
        "{out}"
    );
}

#[test]
fn a_hub_engine_cannot_play_chess_nor_a_chess_engine_draughts() {
    let hub = over_hub(common::hub_engines()[0]);
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
    let fics = hub.replace("proto=hub", "proto=fics");
    let (ok, _, err) = run_match(&["--engine", &fics, "--engine", "random"]);
    assert!(
        !ok && err.contains("unknown protocol \"fics\": uci, xboard or hub"),
        "{err}"
    );
}
