//! The candidates of the three draughts engines on positions built from the
//! seeds' own explanations, against the values worked by hand from them:
//! `tests/fixtures/candidates/{draughts-1k,baker,samuel-f8}.txt` (what each
//! value rests on is written above its line there; sources in
//! `tests/fixtures/README.md`). Each line gives the position, the engine's
//! options, the move played and every candidate in the order the program
//! weighed it, with its raw value and score; the first ranked must be the
//! move played.

use crate::common;

use retrochess::engines::{Candidate, Catalogue, EngineOptions, Played, Thoughts};
use retrochess::rules::draughts::{Draughts, PdnMove};
use retrochess::rules::{Game, Rules};

const BUDGET: u64 = 200_000_000;

/// One line of a table.
struct Row {
    line: usize,
    fen: String,
    options: Vec<(String, String)>,
    played: PdnMove,
    /// In the order weighed: move, raw, score.
    weighed: Vec<(PdnMove, i32, i32)>,
}

fn parse_table(name: &str) -> Vec<Row> {
    common::fixture(&format!("candidates/{name}"))
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| parse_row(i + 1, l))
        .collect()
}

fn parse_row(line: usize, text: &str) -> Row {
    let fields: Vec<&str> = text.split('|').collect();
    assert_eq!(fields.len(), 4, "line {line}: {text}");
    let options = fields[1]
        .split(',')
        .filter(|o| *o != "-")
        .map(|o| {
            let (k, v) = o.split_once('=').expect("NAME=VALUE");
            (k.to_string(), v.to_string())
        })
        .collect();
    Row {
        line,
        fen: fields[0].to_string(),
        options,
        played: fields[2].parse().expect("a move"),
        weighed: fields[3].split(", ").map(parse_candidate).collect(),
    }
}

fn parse_candidate(text: &str) -> (PdnMove, i32, i32) {
    let f: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(f.len(), 3, "{text}");
    (
        f[0].parse().expect("a move"),
        f[1].parse().expect("raw"),
        f[2].parse().expect("score"),
    )
}

/// The engine `id` (seed 1) asked `row`'s position with candidates
/// collected: the move played and what it weighed.
fn ask(id: &str, rules: Draughts, row: &Row) -> (Played<PdnMove>, Thoughts<PdnMove>) {
    let mut options = EngineOptions::default();
    for (k, v) in &row.options {
        options = options.with(k, v);
    }
    let mut engine =
        Draughts::create(retrochess::engines::find(id).unwrap(), &options).expect("an engine");
    assert!(engine.collect_candidates(true));
    let game = match row.fen.as_str() {
        "start" => Game::initial(rules),
        fen => Game::new(rules, rules.parse_position(fen).expect("a position")),
    };
    let reply = engine.play(&game, BUDGET).expect("a reply");
    (reply.played, reply.thoughts.expect("thoughts"))
}

fn in_seq_order(thoughts: &Thoughts<PdnMove>) -> Vec<(PdnMove, i32, i32)> {
    let mut by_seq: Vec<&Candidate<PdnMove>> = thoughts.ranked.iter().collect();
    by_seq.sort_by_key(|c| c.seq);
    by_seq
        .iter()
        .map(|c| (c.wire.clone(), c.raw, c.score))
        .collect()
}

/// Every row of the table `name` for the engine `id`; returns the rows.
fn check_table(name: &str, id: &str, rules: Draughts) -> usize {
    let rows = parse_table(name);
    for row in &rows {
        let at = format!("{name} line {} ({})", row.line, row.fen);
        let (played, thoughts) = ask(id, rules, row);
        assert_eq!(played, Played::Move(row.played.clone()), "{at}");
        assert_eq!(in_seq_order(&thoughts), row.weighed, "{at}");
        assert_eq!(thoughts.best().map(|c| &c.wire), Some(&row.played), "{at}");
    }
    rows.len()
}

#[test]
fn draughts_1k_candidates_follow_evals_verdicts() {
    let rows = check_table("draughts-1k.txt", "draughts-1k", Draughts::zx81_1k());
    assert_eq!(rows, 8);
}

#[test]
fn baker_candidates_carry_the_texts_priorities() {
    let rows = check_table("baker.txt", "baker-draughts", Draughts::english());
    assert_eq!(rows, 5);
}

/// The mended routines on the same kind of table: the text's "in danger"
/// (the square behind blank), captures first, a double jump whole.
#[test]
fn baker_mended_candidates_carry_the_texts_priorities() {
    let rows = check_table(
        "baker-mended.txt",
        "baker-draughts-mended",
        Draughts::english(),
    );
    assert_eq!(rows, 4);
}

#[test]
fn samuel_candidates_are_the_root_moves_with_their_values() {
    let rows = check_table("samuel-f8.txt", "samuel-f8", Draughts::english());
    assert_eq!(rows, 6);
}

/// Whether, among candidates of equal raw value, the ranking keeps them in
/// the order of `seq` (`ascending`) or the reverse.
fn equals_ordered(thoughts: &Thoughts<PdnMove>, ascending: bool) -> bool {
    thoughts
        .ranked
        .windows(2)
        .all(|w| w[0].raw != w[1].raw || (w[0].seq < w[1].seq) == ascending)
}

/// Among equal values, each program's own rule: Draughts 1K the last found
/// (a later store overwrites), samuel-f8 the first searched (`score > s`),
/// Baker the one CHOOSE picked from its list, the rest of the list last
/// found first.
#[test]
fn ties_are_broken_as_each_program_breaks_them() {
    let row = |fen: &str| parse_row(0, &format!("{fen}|-|1-5|1-5 0 0"));
    let english = Draughts::english();
    let (_, d1k) = ask("draughts-1k", Draughts::zx81_1k(), &row("start"));
    assert!(equals_ordered(&d1k, false), "{d1k:?}");
    assert_eq!(d1k.ranked[0].seq, 7, "the last of seven safe steps");
    let white_first = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let (_, samuel) = ask("samuel-f8", english, &row(white_first));
    assert!(equals_ordered(&samuel, true), "{samuel:?}");
    let ties = samuel.ranked.windows(2).filter(|w| w[0].raw == w[1].raw);
    assert!(ties.count() >= 2, "{samuel:?}");
    let (Played::Move(m), baker) = ask("baker-draughts", english, &row("start")) else {
        panic!("the opening has moves")
    };
    assert_eq!(baker.best().map(|c| &c.wire), Some(&m));
    assert!(equals_ordered(
        &Thoughts {
            ranked: baker.ranked[1..].to_vec(),
            ..baker.clone()
        },
        false
    ));
    assert!(baker.ranked.iter().all(|c| c.raw == 0x80), "{baker:?}");
}
