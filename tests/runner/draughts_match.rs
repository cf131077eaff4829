//! Draughts in the match runner, through the real binary: samuel-f8 is the
//! reference opponent (issue 11: every move legal under English rules in
//! 1,000 games, at least 95% against `random`, and it beats Draughts 1K),
//! the default round robin finishes in seconds, and the same seed gives the
//! same PDN, byte for byte.

use crate::common;

/// Runs `retrochess match ARGS`; returns stdout (the standings table).
fn standings(args: &[&str]) -> String {
    let args: Vec<&str> = ["match"].iter().chain(args).copied().collect();
    let (ok, out, err) = common::retrochess(&args, "");
    assert!(ok, "{out}{err}");
    out
}

/// The row of `engine`: (games, wins, draws, losses, illegal-moves column).
fn row(table: &str, engine: &str) -> (u32, u32, u32, u32, String) {
    let line = table
        .lines()
        .find(|l| l.starts_with(engine))
        .unwrap_or_else(|| panic!("no row for {engine}:\n{table}"));
    let rest = &line[engine.len()..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| words[i].parse::<u32>().unwrap();
    let illegal = words[9..].join(" ");
    (n(0), n(1), n(2), n(3), illegal)
}

#[test]
fn samuel_f8_plays_a_thousand_legal_games_and_beats_random() {
    let table = standings(&[
        "--game",
        "draughts",
        "--engine",
        "samuel-f8",
        "--engine",
        "random",
        "--games",
        "1000",
        "--seed",
        "3",
        "--illegal",
        "continue",
    ]);
    let (games, wins, _, _, illegal) = row(&table, "Samuel F8 checkers");
    assert_eq!(games, 1000);
    assert_eq!(illegal, "0", "every move legal under english:\n{table}");
    assert!(wins >= 950, "at least 95% wins against random:\n{table}");
}

#[test]
fn samuel_f8_beats_draughts_1k() {
    let table = standings(&[
        "--game",
        "draughts",
        "--engine",
        "samuel-f8",
        "--engine",
        "draughts-1k",
        "--games",
        "98",
    ]);
    let (_, wins, _, losses, illegal) = row(&table, "Samuel F8 checkers");
    assert!(wins > losses, "{table}");
    assert_eq!(illegal, "0", "{table}");
}

#[test]
fn the_default_round_robin_is_every_draughts_engine_and_random() {
    let table = standings(&["--game", "draughts", "--games", "4"]);
    for name in [
        "Samuel F8 checkers",
        "Draughts 1K",
        "Toni Baker's ZX81 draughts (as printed)",
        "Toni Baker's ZX81 draughts (mended)",
        "Random mover",
    ] {
        let (games, ..) = row(&table, name);
        assert_eq!(games, 16, "four opponents, four games each:\n{table}");
    }
}

#[test]
fn same_seed_same_pdn() {
    let dir = std::env::temp_dir().join(format!("retrochess-dm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = |name: &str, concurrency: &str| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        standings(&[
            "--game",
            "draughts",
            "--games",
            "6",
            "--seed",
            "11",
            "--concurrency",
            concurrency,
            "--pgn",
            path.to_str().unwrap(),
        ]);
        std::fs::read_to_string(&path).unwrap()
    };
    let one = pdn("a.pdn", "1");
    let two = pdn("b.pdn", "2");
    assert_eq!(one, two);
    assert!(one.contains("[GameType \"21\"]"), "{one}");
    assert_eq!(
        one.matches("[Event ").count(),
        60,
        "10 pairings of 5 players × 6 games"
    );
}
