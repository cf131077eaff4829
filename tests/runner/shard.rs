//! `match --shard K/N` under GNU parallel: four shards played at once hold
//! exactly the games of the unsharded match, and `retrochess rate` gives
//! the same standings from the four files as from the one.

use std::process::Command;

use crate::common;

const MATCH: &[&str] = &[
    "match",
    "-e",
    "chesskelet",
    "-e",
    "chesskelet-lite",
    "-e",
    "random",
    "--games",
    "8",
    "--seed",
    "5",
    "--concurrency",
    "1",
];

/// The games of a PGN file, each as its text, sorted.
fn games(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split("\n\n[Event ")
        .map(|g| g.trim().trim_start_matches("[Event ").to_string())
        .filter(|g| !g.is_empty())
        .collect();
    out.sort();
    out
}

#[test]
fn four_shards_under_gnu_parallel_are_the_unsharded_match_game_for_game() {
    let parallel = common::peer("parallel");
    let dir = common::temp_file("shards-full.pgn", b"")
        .parent()
        .unwrap()
        .join("shards");
    std::fs::create_dir_all(&dir).unwrap();
    let full = dir.join("full.pgn");
    let mut args = MATCH.to_vec();
    let full_s = full.display().to_string();
    args.extend(["--pgn", &full_s]);
    let (ok, _, err) = common::retrochess(&args, "");
    assert!(ok, "{err}");
    let shard = dir.join("shard-{}.pgn").display().to_string();
    let out = Command::new(parallel)
        .args(["--will-cite", "-j", "4", env!("CARGO_BIN_EXE_retrochess")])
        .args(MATCH)
        .args([
            "--shard", "{}/4", "--pgn", &shard, ":::", "1", "2", "3", "4",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut merged = Vec::new();
    let mut files = Vec::new();
    for k in 1..=4 {
        let path = dir.join(format!("shard-{k}.pgn"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(games(&text).len(), 6, "shard {k} plays 6 of the 24 games");
        merged.extend(games(&text));
        files.push(path.display().to_string());
    }
    merged.sort();
    let whole = games(&std::fs::read_to_string(&full).unwrap());
    assert_eq!(whole.len(), 24);
    assert_eq!(
        merged, whole,
        "the shards' games are the match's, game for game"
    );
    // The same standings, ratings and intervals from the four files.
    let rate = |files: &[String]| {
        let mut args = vec!["rate", "--csv"];
        args.extend(files.iter().map(String::as_str));
        let (ok, out, err) = common::retrochess(&args, "");
        assert!(ok, "{err}");
        out
    };
    let (one, four) = (rate(std::slice::from_ref(&full_s)), rate(&files));
    assert_eq!(one, four);
    eprintln!("24 games, 4 shards of 6, merged standings:\n{four}");
}
