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
