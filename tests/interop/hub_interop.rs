//! pydraughts 0.6.7's `HubEngine`, the one widely used Hub client on 8×8,
//! plays complete games of English checkers against `retrochess hub`
//! (`tests/peers/hub_games.py`): every draughts engine, both colours, from
//! the initial position and from PDN FEN positions with either side to
//! move. pydraughts checks on its side that every move it received was
//! legal or flagged in an `info problem=` line, and that check is itself
//! shown to catch an unflagged illegal move. A missing pydraughts fails the
//! test with the command that installs it.

use crate::common::{self, repo};

/// Positions the games also start from: Black to move, then White.
const FENS: [&str; 2] = [
    "B:W18,22,24,25,K30:B5,9,10,14,K27",
    "W:W17,K26,28,29:B6,K11,12,19",
];

/// `hub_games.py` against the Hub engine `command`: (success, stdout,
/// stderr).
fn hub_games(seed: &str, command: &[&str]) -> (bool, String, String) {
    let fens = FENS.join("|");
    let mut args = vec![seed, fens.as_str()];
    args.extend_from_slice(command);
    common::peer_script("hub_games.py", &args, "")
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
    for id in common::hub_engines() {
        let command = [env!("CARGO_BIN_EXE_retrochess"), "hub", "--engine", id];
        let (ok, out, err) = hub_games("11", &command);
        assert!(ok, "{id}: pydraughts's check failed:\n{out}\n{err}");
        eprintln!("{id}:\n{out}");
        let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2 * (1 + FENS.len()), "{out}");
        for colour in ["engine=black", "engine=white"] {
            let n = games.iter().filter(|g| g.contains(colour)).count();
            assert_eq!(n, 1 + FENS.len(), "{colour}: {out}");
        }
        for fen in FENS {
            assert!(out.contains(&format!("start={fen} ")), "{fen}: {out}");
        }
        // Every game went on until pydraughts saw it end, or until the
        // engine's move was flagged: it answered every time it was asked.
        for game in &games {
            let flagged = game.contains(" end=flagged: ");
            assert!(game.contains(" end=over ") || flagged, "{game}");
            assert_eq!(count(game, "flagged"), usize::from(flagged), "{game}");
        }
    }
}

#[test]
fn pydraughts_side_check_accepts_flagged_and_catches_unflagged_illegal_moves() {
    let python = common::python();
    let engine = repo("tests/peers/misbehaving_hub.py");
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

/// Nine positions of random English games (pydraughts 0.6.7's own legal
/// moves, `random.Random(19)`, after 6, 9, …, 30 plies), either side to move.
const RANDOM_GAME_FENS: [&str; 9] = [
    "B:W13,18,20,21,25,26,27,28,29,30,31,32:B1,11,12,15,2,3,4,5,6,7,8",
    "W:W12,21,22,24,25,27,28,29,30,31,32:B1,13,18,2,3,4,5,6,7,8",
    "B:W13,18,20,23,26,27,28,29,30,31,32,7:B1,11,16,2,3,4,5,6,8",
    "W:W17,20,22,23,27,29,30,31,32:B11,12,16,2,28,4,5,6,7,8,9",
    "B:W21,22,23,25,27,28,29,32:B1,10,15,4,5,6,7,9",
    "W:W14,18,21,25,27,28,31,32,K1:B11,12,2,4,5,7,9",
    "B:W17,21,22,25,27,28,30,32:B1,16,19,3,4,5,9",
    "W:W20,21,22,25,26,32:B15,2,3,4,5,6,K31",
    "B:W25,26,29:B12,14,3,4,5,K31,K32",
];

/// Issue 19: pydraughts's `HubEngine` plays 20 complete games against
/// `baker-draughts-mended` (both colours, from the initial position and the
/// nine above) without an exception, and every one of its moves is legal:
/// no game ends on a flagged move.
#[test]
fn pydraughts_plays_20_complete_games_against_baker_draughts_mended() {
    let command = [
        env!("CARGO_BIN_EXE_retrochess"),
        "hub",
        "--engine",
        "baker-draughts-mended",
    ];
    let fens = RANDOM_GAME_FENS.join("|");
    let mut args = vec!["19", fens.as_str()];
    args.extend_from_slice(&command);
    let (ok, out, err) = common::peer_script("hub_games.py", &args, "");
    assert!(ok, "pydraughts's check failed:\n{out}\n{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 20, "{out}");
    for game in &games {
        assert!(game.contains(" end=over "), "{game}");
        assert_eq!(count(game, "flagged"), 0, "{game}");
    }
    let summary = out.lines().last().unwrap();
    assert!(summary.ends_with(" flagged=0"), "{summary}");
    eprintln!("{out}");
}
