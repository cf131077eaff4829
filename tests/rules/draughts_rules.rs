//! Evidence for the draughts rules against an independent peer: pydraughts
//! 0.6.7 (`Board(variant='english')`).
//!
//! - Legal moves: `tests/peers/draughts_rules_diff.py` plays seeded random
//!   games from the initial position and from random positions and prints,
//!   for every position, pydraughts's legal moves (squares, Hub form, PDN form)
//!   and the move played with the position after it. Every position is
//!   compared set for set with ours; every pydraughts move must be judged
//!   legal by us in both its PDN and its Hub form and written by us in the
//!   same Hub form; every played move must lead to pydraughts's next
//!   position; and every position must be written as pydraughts's
//!   HubEngine writes it (`pos=`, in its own orientation).
//! - Records: games written by our PDN writer (from the start, and from
//!   positions with either side to move) are replayed move by move by
//!   `tests/peers/draughts_pdn_replay.py`, which must reach our final
//!   positions.
//!
//! Python is `$RETROCHESS_PYTHON` or `python3` (`common::python_draughts`);
//! a missing pydraughts FAILS the test with the command that installs it.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use retrochess::rng::SplitMix64;
use retrochess::rules::draughts::hub::{parse_pydraughts_position, pydraughts_position};
use retrochess::rules::draughts::pdn::write_game;
use retrochess::rules::draughts::{
    Draughts, DraughtsMove, HubMove, PdnMove, Position, Variant, parse_fen,
};
use retrochess::rules::{GameResult, Rules, Verdict};

const INSTALL: &str = "pip install pydraughts==0.6.7";

fn python() -> String {
    common::python_draughts()
}

fn script(name: &str) -> String {
    format!("{}/tests/peers/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs a script of tests/peers with `stdin`, failing with a clear
/// message if python or pydraughts is missing.
fn run(name: &str, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(python())
        .arg(script(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}; then {INSTALL}", python()));
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
    let stderr = String::from_utf8_lossy(&stderr);
    // The scripts name the missing peer and how to install it.
    assert!(status.success(), "{name} failed ({status}): {stderr}");
    String::from_utf8(stdout).expect("utf-8 from python")
}

fn position(fen: &str) -> Position {
    parse_fen(fen).unwrap_or_else(|e| panic!("our parser refuses pydraughts's {fen}: {e}"))
}

fn legal(rules: &Draughts, pos: &Position, wire: &PdnMove) -> Result<DraughtsMove, String> {
    match rules.judge(pos, wire) {
        Verdict::Legal(m) => Ok(m),
        Verdict::Illegal(_, why) => Err(format!("{wire} judged illegal: {why}")),
    }
}

fn after(rules: &Draughts, pos: &Position, m: &DraughtsMove) -> Position {
    let mut next = *pos;
    rules.play(&mut next, m);
    next
}

/// Checks one line of the diff script; returns the number of moves compared.
fn check_line(rules: &Draughts, line: &str) -> Result<usize, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [fen, played, next, listed, hub_pos] = fields[..] else {
        return Err(format!("malformed line: {line}"));
    };
    let pos = position(fen);
    if pydraughts_position(&pos) != hub_pos || parse_pydraughts_position(hub_pos) != Ok(pos) {
        return Err(format!(
            "Hub position {hub_pos} is not ours: {}",
            pydraughts_position(&pos)
        ));
    }
    let ours: BTreeSet<String> = rules
        .legal_moves(&pos)
        .iter()
        .map(|m| rules.wire(&pos, m).to_string())
        .collect();
    let theirs: Vec<[&str; 3]> = listed
        .split(';')
        .filter(|m| !m.is_empty())
        .map(|m| {
            let parts: Vec<&str> = m.split('/').collect();
            [parts[0], parts[1], parts[2]]
        })
        .collect();
    let their_set: BTreeSet<String> = theirs.iter().map(|t| t[0].to_string()).collect();
    if ours != their_set {
        return Err(format!(
            "legal moves differ: ours {ours:?}, pydraughts {their_set:?}"
        ));
    }
    for [squares, hub, pdn] in &theirs {
        let m = legal(
            rules,
            &pos,
            &squares.parse().map_err(|e| format!("{squares}: {e}"))?,
        )?;
        if rules.hub_move(&m).to_string() != *hub {
            return Err(format!(
                "{squares}: our hub form {} , pydraughts {hub}",
                rules.hub_move(&m)
            ));
        }
        let by_pdn = legal(
            rules,
            &pos,
            &pdn.parse().map_err(|e| format!("{pdn}: {e}"))?,
        )?;
        let hub_move: HubMove = hub.parse().map_err(|e| format!("{hub}: {e}"))?;
        let by_hub = legal(rules, &pos, &rules.wire_from_hub(&pos, &hub_move))?;
        let target = after(rules, &pos, &m);
        if after(rules, &pos, &by_pdn) != target || after(rules, &pos, &by_hub) != target {
            return Err(format!(
                "{squares}: its PDN {pdn} or Hub {hub} form reads as another move"
            ));
        }
    }
    if !played.is_empty() {
        let m = legal(
            rules,
            &pos,
            &played.parse().map_err(|e| format!("{played}: {e}"))?,
        )?;
        if after(rules, &pos, &m) != position(next) {
            return Err(format!("{played} does not lead to {next}"));
        }
    }
    Ok(theirs.len())
}

#[test]
fn legal_moves_agree_with_pydraughts() {
    let out = run("draughts_rules_diff.py", &["2026", "50", "250"], "");
    let rules = Draughts::english();
    let (mut positions, mut moves, mut captures) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in out.lines() {
        positions += 1;
        captures += usize::from(line.split('\t').nth(3).is_some_and(|m| m.contains('x')));
        match check_line(&rules, line) {
            Ok(n) => moves += n,
            Err(why) => failures.push(format!("{}: {why}", line.split('\t').next().unwrap_or(""))),
        }
    }
    println!(
        "pydraughts diff: {positions} positions ({captures} with captures), {moves} legal moves compared"
    );
    assert!(
        failures.is_empty(),
        "{} of {positions} positions differ, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert!(
        positions >= 5000 && moves >= 20000,
        "too few: {positions} positions, {moves} moves"
    );
}

/// A seeded game under `rules` from `root`, as PDN moves, and its end.
fn random_game(
    rules: Draughts,
    root: Position,
    seed: u64,
    plies: usize,
) -> (Vec<PdnMove>, Position) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = root;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.range(0, legal.len() as u64 - 1) as usize];
        moves.push(rules.wire(&pos, &m));
        rules.play(&mut pos, &m);
    }
    (moves, pos)
}

#[test]
fn pydraughts_replays_our_records() {
    let rules = Draughts::english();
    let roots = [
        None,
        Some("W:W21-32:B1-12"),
        Some("B:W18,22,24,25,K30:B5,9,10,14,K27"),
        Some("W:W17,K26,28,29:B6,K11,12,19"),
    ];
    let mut text = String::new();
    let mut ends = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let start = root.map_or_else(Position::initial, position);
        let (moves, end) = random_game(rules, start, i as u64 + 7, 90);
        let moves: Vec<(PdnMove, Option<String>)> = moves
            .into_iter()
            .enumerate()
            .map(|(n, m)| (m, (n % 7 == 3).then(|| format!("note {{{n}}}"))))
            .collect();
        let tags = [("Event".to_string(), format!("replay {i}"))];
        let root_pos = root.map(position);
        text.push_str(&write_game(
            Variant::English,
            &tags,
            root_pos.as_ref(),
            &moves,
            Some(GameResult::Draw),
        ));
        ends.push(end);
    }
    let out = run("draughts_pdn_replay.py", &[], &text);
    let replayed: Vec<Position> = out.lines().map(position).collect();
    assert_eq!(replayed, ends, "our records:\n{text}");
}
