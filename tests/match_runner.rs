//! `retrochess match`: the real binary, the real engines, real external
//! peers (Debian's fairymax and stockfish, installed by scripts/test), and small
//! misbehaving engines.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::repo;
use retrochess::runner::openings::read_pgn;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrochess-match-{}", std::process::id()));
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

/// python-chess's verdict on a PGN file: one "result termination plies" line per game.
fn python_check(pgn: &Path) -> Vec<String> {
    let out = Command::new(common::python_chess())
        .arg(repo("tests/interop/check_pgn.py"))
        .arg(pgn)
        .output()
        .expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "python-chess rejects {}:\n{text}{}",
        pgn.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .filter(|l| !l.starts_with("games:"))
        .map(str::to_string)
        .collect()
}

/// Row of the final table for `name`: (games, W, D, L).
fn row(table: &str, name: &str) -> (u32, u32, u32, u32) {
    let line = table
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("{name} not in\n{table}"));
    let nums: Vec<u32> = line[name.len()..]
        .split_whitespace()
        .take(4)
        .map(|x| x.parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

#[test]
fn default_match_plays_20_games_with_valid_pgn_and_standings() {
    let pgn = temp("default.pgn");
    let (ok, out, err) = run_match(&["--pgn", pgn.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (g1, w1, d1, l1) = row(&out, "1K ZX Chess");
    let (g2, w2, d2, l2) = row(&out, "ChesSkelet");
    assert_eq!((g1, g2), (20, 20));
    assert_eq!((w1, d1, l1), (l2, d2, w2), "the two rows mirror each other");
    assert!(out.contains("20 games in"));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = read_pgn(&text).unwrap();
    assert_eq!(games.len(), 20);
    // Each of the 10 built-in openings twice, colours reversed.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].tag("Opening"), pair[1].tag("Opening"));
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
    }
    let checked = python_check(&pgn);
    assert_eq!(checked.len(), 20);
    // Results in the PGN add up to the table.
    let white_wins = games
        .iter()
        .filter(|g| g.tag("Result") == Some("1-0") && g.tag("White") == Some("1K ZX Chess"))
        .count();
    let black_wins = games
        .iter()
        .filter(|g| g.tag("Result") == Some("0-1") && g.tag("Black") == Some("1K ZX Chess"))
        .count();
    assert_eq!((white_wins + black_wins) as u32, w1);
    // ChesSkelet's illegal moves are flagged with the arbiter's reason.
    for g in games
        .iter()
        .filter(|g| g.tag("Termination") == Some("rules infraction"))
    {
        let loser_is_white = g.tag("Result") == Some("0-1");
        let loser = if loser_is_white {
            g.tag("White")
        } else {
            g.tag("Black")
        }
        .unwrap();
        let needle = format!("{{{loser} plays the illegal move ");
        assert!(
            text.contains(&needle),
            "no comment for an illegal move by {loser}"
        );
    }
}

#[test]
fn same_seed_same_pgn_and_other_seeds_differ() {
    let a = temp("a.pgn");
    let b = temp("b.pgn");
    let c = temp("c.pgn");
    for (p, seed) in [(&a, "5"), (&b, "5"), (&c, "6")] {
        let (ok, _, err) = run_match(&[
            "--engine",
            "1k-zx-chess",
            "--engine",
            "random",
            "--games",
            "4",
            "--seed",
            seed,
            "--concurrency",
            "2",
            "--pgn",
            p.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
    }
    let (a, b, c) = (
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        std::fs::read(c).unwrap(),
    );
    assert_eq!(a, b, "byte-identical PGN for the same seed and arguments");
    assert_ne!(a, c, "the seed drives the random mover and the machines");
}

#[test]
fn illegal_moves_forfeit_or_are_flagged_and_asked_again() {
    let forfeit = temp("forfeit.pgn");
    let cont = temp("continue.pgn");
    let args = |p: &Path, policy: &str| {
        vec![
            "--engine".to_string(),
            "chesskelet".into(),
            "--engine".into(),
            "1k-zx-chess".into(),
            "--games".into(),
            "6".into(),
            "--illegal".into(),
            policy.into(),
            "--pgn".into(),
            p.to_str().unwrap().into(),
        ]
    };
    let (ok, out, err) = run_match(
        &args(&forfeit, "forfeit")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&forfeit).unwrap();
    let infractions = text.matches("[Termination \"rules infraction\"]").count();
    assert!(
        infractions > 0,
        "ChesSkelet, which has no check test, plays illegal moves:\n{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("ChesSkelet") && l.contains("leaves king in check")),
        "{out}"
    );
    assert!(!text.contains("asked again"));
    let (ok, _, err) = run_match(
        &args(&cont, "continue")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&cont).unwrap();
    assert!(
        text.contains("not played, asked again"),
        "continue flags and asks again"
    );
    python_check(&cont);
}

#[test]
fn max_plies_adjudicates_a_draw() {
    let pgn = temp("maxplies.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        "random",
        "--engine",
        "random",
        "--games",
        "2",
        "--max-plies",
        "12",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"adjudication\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("{draw: maximum of 12 plies} 1/2-1/2"));
    assert_eq!(
        row(&out, "Random mover (2)"),
        (2, 0, 2, 0),
        "a repeated name is made unique"
    );
    assert_eq!(row(&out, "Random mover "), (2, 0, 2, 0));
}

#[test]
fn openings_from_an_epd_file() {
    let epd = temp("openings.epd");
    std::fs::write(&epd, "4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn ending\";\n").unwrap();
    let pgn = temp("epd.pgn");
    let (ok, _, err) = run_match(&[
        "--engine",
        "1k-zx-chess",
        "--engine",
        "random",
        "--games",
        "2",
        "--openings",
        epd.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]")
            .count(),
        2
    );
    assert_eq!(text.matches("[Opening \"pawn ending\"]").count(), 2);
    python_check(&pgn);
    let (ok, _, err) = run_match(&["--openings", "/nonexistent.epd"]);
    assert!(!ok && err.contains("/nonexistent.epd"), "{err}");
}

#[test]
fn crashing_and_stalling_engines_lose_without_killing_the_match() {
    let script = repo("tests/engines/misbehaving_uci.py");
    let spec = |mode: &str| {
        format!(
            "cmd={},arg={},arg={mode},proto=uci,name={mode}",
            common::python(),
            script.display()
        )
    };
    let pgn = temp("misbehaving.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        "random",
        "--engine",
        &spec("crash"),
        "--engine",
        &spec("stall"),
        "--engine",
        &spec("mute"),
        "--games",
        "2",
        "--tc",
        "0.5+0",
        "--startup",
        "1",
        "--concurrency",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "the match survives: {err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(read_pgn(&text).unwrap().len(), 12, "6 pairings × 2 games");
    assert!(text.contains("crash disconnects"), "{text}");
    assert!(
        text.contains("stall stalls: no move within its 0.50 s left"),
        "{text}"
    );
    assert!(
        text.contains("mute could not start: mute did not answer uci within 1.0 s"),
        "{text}"
    );
    // Against the random mover, each misbehaving engine loses both games.
    for name in ["crash", "stall", "mute"] {
        let (games, _, _, _) = row(&out, name);
        assert_eq!(games, 6);
    }
    assert_eq!(row(&out, "Random mover"), (6, 6, 0, 0));
}

/// Two games of a retro engine against a Debian engine through the
/// runner's external-engine path; returns the table and python-chess's
/// per-game lines.
fn against_debian_engine(retro: &str, spec: &str, tc: &str) -> (String, Vec<String>) {
    let pgn = temp(&format!("{retro}-external.pgn"));
    let (ok, out, err) = run_match(&[
        "--engine",
        retro,
        "--engine",
        spec,
        "--games",
        "2",
        "--tc",
        tc,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(!out.contains("could not start"), "{out}");
    let checked = python_check(&pgn);
    assert_eq!(checked.len(), 2);
    (out, checked)
}

#[test]
fn one_k_zx_chess_against_fairymax_over_cecp() {
    let fairymax = common::peer("fairymax");
    let (out, checked) = against_debian_engine(
        "1k-zx-chess",
        &format!("cmd={},proto=xboard", fairymax.display()),
        "5+0.05",
    );
    assert!(
        checked.iter().all(|l| !l.contains("abandoned")),
        "fairymax played both games: {checked:?}\n{out}"
    );
    assert!(
        checked
            .iter()
            .all(|l| l.split_whitespace().nth(2).unwrap().parse::<u32>().unwrap() > 8)
    );
}

#[test]
fn chesskelet_against_stockfish_at_minimum_strength_over_uci() {
    let stockfish = common::peer("stockfish");
    let spec = format!(
        "cmd={},proto=uci,option.Skill Level=0,name=Stockfish",
        stockfish.display()
    );
    let (out, _) = against_debian_engine("chesskelet", &spec, "2+0.05");
    assert_eq!(row(&out, "Stockfish").0, 2);
}
