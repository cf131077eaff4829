//! Interop: the `samuel-f8` move generator against pydraughts 0.6.7
//! (`tests/peers/pydraughts_moves.py`), an independent implementation of
//! English checkers: perft of tricky positions (multi-jump branches, two
//! paths round the same pieces, men crowned in the middle of a jump, kings
//! capturing both ways) and the legal-move lists of positions from seeded
//! random games. Needs pydraughts 0.6.7 (`common::python_draughts`, which
//! scripts/test provides); a missing one fails the test, it is never skipped.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;

use retrochess::engines::samuel_f8::{Position, legal_moves, perft};
use retrochess::rng::SplitMix64;

/// FEN, depth, and what the position tests.
const TRICKY: &[(&str, u32, &str)] = &[
    (
        "B:W9,10,17,18,29:BK6",
        4,
        "a king round four men, two paths to one end",
    ),
    ("B:W26,27:B22", 4, "a man crowned mid-jump stops"),
    ("W:W10,K25:B6,7,15", 4, "White men crowned by a jump"),
    (
        "B:W6,7,15,K23,24:BK10,K2",
        3,
        "kings with branching multi-jumps",
    ),
    (
        "W:WK14:B9,10,18,19,23,K30",
        4,
        "a king capturing forwards and back",
    ),
    (
        "B:W10,11,12,18,19,20,26,27,28:BK1,5,6",
        3,
        "a crowded multi-jump tree",
    ),
    (
        "W:WK1,K4,K29,K32:BK14,K15,K18,K19",
        3,
        "kings in the corners and the centre",
    ),
    (
        "B:W13,14,15,16,21,22,23,24:B5,6,7,8,9,10,11,12",
        4,
        "a locked front",
    ),
];

/// Runs the peer with one request a line; one answer a line comes back.
fn pydraughts(requests: &[String]) -> Vec<String> {
    let script = format!(
        "{}/tests/peers/pydraughts_moves.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(common::python_draughts())
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = requests.join("\n") + "\n";
    let writer = thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python ran");
    writer.join().expect("writer").expect("requests written");
    assert!(
        out.status.success(),
        "pydraughts peer failed (pip install pydraughts==0.6.7):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), requests.len(), "one answer per request");
    answers
}

fn sorted_moves(pos: &Position) -> String {
    let mut moves: Vec<String> = legal_moves(pos).iter().map(ToString::to_string).collect();
    moves.sort();
    moves.join(" ")
}

#[test]
fn perft_of_tricky_positions_agrees_with_pydraughts() {
    let requests: Vec<String> = TRICKY
        .iter()
        .map(|(fen, depth, _)| format!("perft {depth} {fen}"))
        .collect();
    let answers = pydraughts(&requests);
    for ((fen, depth, what), answer) in TRICKY.iter().zip(&answers) {
        let pos: Position = fen.parse().unwrap();
        let ours = perft(&pos, *depth);
        assert!(ours > 0, "{what}");
        assert_eq!(ours.to_string(), *answer, "perft {depth} of {fen} ({what})");
    }
}

/// Positions from seeded random games, from the start and from each tricky
/// position.
fn random_positions(per_start: usize, plies: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(2024);
    let starts = std::iter::once(Position::initial())
        .chain(TRICKY.iter().map(|(fen, _, _)| fen.parse().unwrap()));
    let mut out = Vec::new();
    for start in starts {
        for _ in 0..per_start {
            let mut pos = start;
            for _ in 0..plies {
                out.push(pos);
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.range(0, moves.len() as u64 - 1) as usize];
                pos = pos.play(&mv).unwrap();
            }
        }
    }
    out.sort_by_key(|p| p.to_fen());
    out.dedup();
    out
}

#[test]
fn legal_moves_agree_with_pydraughts_over_random_games() {
    let positions = random_positions(6, 70);
    let requests: Vec<String> = positions
        .iter()
        .map(|p| format!("moves {}", p.to_fen()))
        .collect();
    let answers = pydraughts(&requests);
    let (mut jumps, mut multi, mut kings) = (0, 0, 0);
    for (pos, answer) in positions.iter().zip(&answers) {
        assert_eq!(&sorted_moves(pos), answer, "legal moves of {pos}");
        let moves = legal_moves(pos);
        jumps += usize::from(moves.iter().any(|m| m.is_capture()));
        multi += usize::from(moves.iter().any(|m| m.captures().len() > 1));
        kings += usize::from(pos.kings() != 0);
    }
    assert!(positions.len() > 1000, "{} positions", positions.len());
    assert!(
        jumps > 100 && multi > 10 && kings > 100,
        "sample too tame: {jumps} with jumps, {multi} multi-jumps, {kings} with kings"
    );
}
