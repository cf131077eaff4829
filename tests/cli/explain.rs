//! `retrochess explain`: bad requests get specific errors; every engine's
//! table shows the candidates the emulated program weighed, ranked as it
//! ranks them, with the move it played first and each verdict agreeing with
//! an independent judge (python-chess, pydraughts).

use crate::common::retrochess as run;

#[test]
fn bad_requests_get_specific_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["explain", "--moves", "e2e4 e7e6 e1e3"],
            "move 3 e1e3 is illegal: not a legal king move from e1 to e3",
        ),
        (
            &["explain", "--moves", "e2e4 zz"],
            "move 2 \"zz\" is not a move",
        ),
        (&["explain", "--fen", "8/8/8/8 w"], "--fen: "),
        (
            &["explain", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"],
            "--fen: ",
        ),
        (
            &["explain", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"],
            "the game is over (stalemate): there is no move to explain",
        ),
        (&["explain", "--engine", "nope"], "unknown engine \"nope\""),
        (
            &["explain", "--rules", "english"],
            "--rules english: 1k-zx-chess plays chess",
        ),
        (
            &["explain", "-e", "samuel-f8", "--rules", "polish"],
            "--rules: ",
        ),
        (
            &["explain", "-e", "draughts-1k", "--moves", "11-15 11-15"],
            "move 2 11-15 is illegal",
        ),
        (
            &["explain", "-e", "samuel-f8", "--fen", "B:WK1:B"],
            "the game is over",
        ),
    ];
    for (args, want) in cases {
        let (ok, out, err) = run(args, "");
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A row of the table: (rank, move, verdict is legal, played).
fn rows(table: &str) -> Vec<(usize, String, bool, bool)> {
    table
        .lines()
        .skip_while(|l| !l.starts_with("rank"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (
                words[0].parse().unwrap(),
                words[2].to_string(),
                l.contains(" legal"),
                l.ends_with("<- played"),
            )
        })
        .collect()
}

/// Positions per game: (fen or none, moves).
const CHESS: [(Option<&str>, &str); 3] = [
    (None, "e2e4"),
    (None, "d2d4 d7d5 c2c4"),
    (Some("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"), ""),
];
const DRAUGHTS: [(Option<&str>, &str); 2] = [
    (None, "11-15 23-19"),
    (Some("W:W17,K26,28,29:B6,K11,12,19"), ""),
];

#[test]
fn every_engine_explains_its_choice_and_python_chess_agrees_on_legality() {
    let python = crate::common::python_chess();
    for entry in retrochess::engines::catalogue() {
        let id = entry.info.id;
        let chess = entry.game == retrochess::engines::GameKind::Chess;
        let positions: &[(Option<&str>, &str)] = if chess { &CHESS } else { &DRAUGHTS };
        for (fen, moves) in positions {
            let mut args = vec!["explain", "--engine", id, "--moves", moves];
            if let Some(f) = fen {
                args.extend(["--fen", f]);
            }
            let (ok, out, err) = run(&args, "");
            assert!(ok, "{args:?}: {err}");
            let rows = rows(&out);
            assert!(rows.len() >= 2, "{args:?}: several candidates:\n{out}");
            let count = format!("{} candidates weighed", rows.len());
            assert!(out.contains(&count), "{args:?}: {count}:\n{out}");
            let ranks: Vec<usize> = rows.iter().map(|r| r.0).collect();
            assert_eq!(ranks, (1..=rows.len()).collect::<Vec<_>>(), "{out}");
            let played = out
                .lines()
                .find_map(|l| l.strip_prefix("played: "))
                .unwrap();
            if played.ends_with("(legal)") {
                assert!(
                    rows[0].3,
                    "{args:?}: the first candidate is the move played:\n{out}"
                );
            }
            if chess {
                // python-chess judges every candidate on its own.
                let script = "import sys, chess\n\
                    fen, moves, cands = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()\n\
                    b = chess.Board(fen) if fen else chess.Board()\n\
                    [b.push_uci(m) for m in moves]\n\
                    print(' '.join('1' if b.is_legal(chess.Move.from_uci(c)) else '0' for c in cands))";
                let cands: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
                let judged = std::process::Command::new(&python)
                    .args(["-c", script, fen.unwrap_or(""), moves, &cands.join(" ")])
                    .output()
                    .unwrap();
                let theirs = String::from_utf8_lossy(&judged.stdout);
                let ours: Vec<&str> = rows.iter().map(|r| if r.2 { "1" } else { "0" }).collect();
                assert_eq!(theirs.trim(), ours.join(" "), "{args:?}:\n{out}");
            }
        }
    }
}

/// ChesSkelet's published games (seed 001, chapter 12, fixture
/// `chesskelet-games.txt`) asked reply by reply through the binary: each
/// published reply with the game so far (`explain --moves`), for the three
/// builds. The counts are the golden test's typed replay
/// (`tests/engines/chesskelet/golden.rs`) less game 3's 19th reply, which
/// cannot be asked this way: White's 19.Qe2-d3 leaves its king in check,
/// and the arbiter refuses the game so far with that reason.
#[test]
fn chesskelet_published_games_asked_reply_by_reply() {
    let games = crate::common::chesskelet_games();
    for (id, want, misses) in [
        (
            "chesskelet-published",
            [10, 13, 16],
            &["G2 6", "G2 12", "G3 3", "G3 18"][..],
        ),
        ("chesskelet-lite", [9, 9, 14], &[][..]),
        ("chesskelet", [4, 2, 5], &[][..]),
    ] {
        let mut matched = [0; 3];
        let mut missed = Vec::new();
        for (g, game) in games.iter().enumerate() {
            let mut so_far: Vec<&str> = Vec::new();
            for (i, (w, b)) in game.white.iter().zip(&game.black).enumerate() {
                so_far.push(w);
                let moves = so_far.join(" ");
                let (ok, out, err) = run(&["explain", "--engine", id, "--moves", &moves], "");
                so_far.push(b);
                if (g, i) == (2, 18) {
                    assert!(!ok, "{id}: {out}");
                    assert!(
                        err.contains("move 37 e2d3 is illegal: leaves the king in check"),
                        "{id}: {err}"
                    );
                    continue;
                }
                assert!(ok, "{id} {moves}: {err}");
                let played = rows(&out)
                    .into_iter()
                    .find(|r| r.3)
                    .map(|r| r.1)
                    .unwrap_or_else(|| panic!("{id} {moves}: nothing played\n{out}"));
                if played == *b {
                    matched[g] += 1;
                } else {
                    missed.push(format!("G{} {}", g + 1, i + 1));
                }
            }
        }
        assert_eq!(matched, want, "{id}: missed {missed:?}");
        if !misses.is_empty() {
            assert_eq!(missed, misses, "{id}");
        }
    }
}
