//! ChesSkelet's candidates ([`Engine::collect_candidates`]): every move the
//! chooser scores, read by a probe at `evaexi` during the normal search.
//!
//! - Collection changes nothing: on seeded random games (both builds, both
//!   colours) and on the three published games' positions (seed 001,
//!   chapter 12, fixture `chesskelet-games.txt`), two engines with the same
//!   seed, one collecting and one not, make the same move in the same
//!   T-states with the same nodes and score; the collected list is as long
//!   as the nodes and its best is the move played, with the reply's score.
//! - The candidate lists agree with the dissection's own account of the
//!   evaluation (chapters 3, 7, 8 and 11, fixture `chesskelet-evaluation.txt`):
//!   its worked examples, its column table and its rank weight.

use crate::common;
use common::PlayMoves;

use retrochess::engines::chesskelet::{BUILDS, Build, ChesSkelet, view_square};
use retrochess::engines::{Candidate, Engine, EngineOptions, InputPath, Played, Reply, Ties};
use retrochess::rng::SplitMix64;
use retrochess::rules::chess::{ChessVerdict, judge};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position, Square};
use std::collections::BTreeMap;

const BUDGET: u64 = 50_000_000;

/// A fresh engine of `build`, collecting or not.
fn engine(build: &'static Build, collect: bool) -> ChesSkelet {
    let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
    assert!(e.collect_candidates(collect) || !collect);
    e
}

/// `uci` in `pos`, legal or not: an illegal move (one leaving the king en
/// prise, as game 3's 19.Qe2-d3) is played as the program's board plays it.
fn any_move(pos: &Chess, uci: &str) -> Move {
    let u: UciMove = uci.parse().unwrap();
    if let Ok(m) = u.to_move(pos) {
        return m;
    }
    let (from, to): (Square, Square) = (uci[..2].parse().unwrap(), uci[2..4].parse().unwrap());
    Move::Normal {
        role: pos.board().role_at(from).unwrap(),
        from,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    }
}

fn after(pos: &Chess, m: Move) -> Chess {
    let mut p = pos.clone();
    p.play_unchecked(m);
    p
}

// ---------------------------------------------------------------------------
// (a) The same result with collection off and on.
// ---------------------------------------------------------------------------

/// Asserts that the collecting reply `on` is the reply `off` and that its
/// thoughts explain it.
fn same_result(off: &Reply<UciMove>, on: &Reply<UciMove>, at: &str) {
    assert_eq!(off.played, on.played, "{at}");
    assert_eq!(off.tstates, on.tstates, "{at}");
    assert_eq!(off.nodes, on.nodes, "{at}");
    assert_eq!(off.score, on.score, "{at}");
    assert_eq!(off.path, on.path, "{at}");
    assert!(off.thoughts.is_none(), "{at}");
    // A board gone astray is still the move the chooser chose.
    let played = match &on.played {
        Played::Move(m) => *m,
        Played::Astray(a) => a.wire,
        _ => {
            assert!(on.thoughts.is_none(), "{at}");
            return;
        }
    };
    let t = on.thoughts.as_ref().expect("thoughts when collecting");
    assert_eq!(t.ties, Ties::KeepsLast, "{at}");
    assert_eq!(t.ranked.len() as u64, on.nodes, "{at}");
    let best = t.best().expect("a best candidate");
    assert_eq!(best.wire, played, "{at}");
    assert_eq!(Some(best.score), on.score, "{at}");
    let mut seqs: Vec<u32> = t.ranked.iter().map(|c| c.seq).collect();
    seqs.sort_unstable();
    assert!(seqs.iter().copied().eq(1..=seqs.len() as u32), "{at}");
    for c in &t.ranked {
        assert_eq!(c.score, 25 * (c.raw - 128) / 2, "{at}");
    }
}

/// An engine that does not collect and one that does, fed the same games.
struct Pair {
    off: ChesSkelet,
    on: ChesSkelet,
    tally: Tally,
}

/// Replies compared, and how many came by typing or were dead ends.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    compared: usize,
    typed: usize,
    dead: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.compared += o.compared;
        self.typed += o.typed;
        self.dead += o.dead;
    }
}

impl Pair {
    fn new(build: &'static Build) -> Pair {
        Pair {
            off: engine(build, false),
            on: engine(build, true),
            tally: Tally::default(),
        }
    }

    fn reply(&mut self, root: &Chess, moves: &[Move], at: &str) -> Reply<UciMove> {
        let off = self.off.play_moves(root, moves, BUDGET).unwrap();
        let on = self.on.play_moves(root, moves, BUDGET).unwrap();
        same_result(&off, &on, at);
        self.tally += Tally {
            compared: 1,
            typed: usize::from(matches!(on.path, InputPath::Typed(_))),
            dead: usize::from(on.played == Played::DeadEnd),
        };
        on
    }
}

/// A game against a seeded random mover: the engine's move when legal,
/// otherwise a random one (the program does not know check).
fn random_game(build: &'static Build, seed: u64, colour: Color, plies: usize) -> Tally {
    let mut pair = Pair::new(build);
    let mut rng = SplitMix64::new(seed);
    let root = Chess::default();
    let (mut pos, mut moves) = (root.clone(), Vec::new());
    while moves.len() < plies && !pos.is_game_over() {
        let random = common::random_move(&pos, &mut rng);
        let m = if pos.turn() == colour {
            let at = format!("{} seed {seed} ply {}", build.info.id, moves.len());
            if moves.len() % 8 == 7 {
                // Fresh engines: the position injected with its history.
                let mut fresh = Pair::new(build);
                fresh.reply(&root, &moves, &format!("{at}, fresh"));
                pair.tally += fresh.tally;
            }
            match pair.reply(&root, &moves, &at).played {
                Played::Move(uci) => match judge(&pos, &uci) {
                    ChessVerdict::Legal(m) => m,
                    ChessVerdict::Illegal(..) => random,
                },
                _ => random,
            }
        } else {
            random
        };
        pos = after(&pos, m);
        moves.push(m);
    }
    pair.tally
}

/// The published games (fixture): the program's reply before each of its
/// published moves, the history as published.
fn published_games(build: &'static Build) -> Tally {
    let mut tally = Tally::default();
    for (g, game) in common::chesskelet_games().iter().enumerate() {
        let mut pair = Pair::new(build);
        let root = Chess::default();
        let (mut pos, mut moves) = (root.clone(), Vec::new());
        for (i, (w, b)) in game.white.iter().zip(&game.black).enumerate() {
            let m = any_move(&pos, w);
            pos = after(&pos, m);
            moves.push(m);
            pair.reply(
                &root,
                &moves,
                &format!("{} G{} {}", build.info.id, g + 1, i + 1),
            );
            let m = any_move(&pos, b);
            pos = after(&pos, m);
            moves.push(m);
        }
        tally += pair.tally;
    }
    tally
}

#[test]
fn collecting_changes_nothing() {
    let start = std::time::Instant::now();
    let mut total = 0;
    for build in &BUILDS {
        let published = published_games(build);
        assert_eq!(published.compared, 44);
        let mut random = Tally::default();
        for seed in 1..=RANDOM_GAMES {
            let colour = if seed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            random += random_game(build, seed, colour, 100);
        }
        assert!(random.compared >= 500, "{random:?}");
        // Both ways of reaching a position are covered.
        assert!(
            random.typed > 100 && random.compared - random.typed > 100,
            "{random:?}"
        );
        println!(
            "{}: published {published:?}, random {random:?}",
            build.info.id
        );
        total += published.compared + random.compared;
    }
    println!("{total} positions in {:?}", start.elapsed());
}

/// Seeded random games per build (odd seeds: the program plays Black).
const RANDOM_GAMES: u64 = 20;

/// No candidate (a lone king on the square the program never scans): a
/// dead end with or without collection, and no thoughts.
#[test]
fn a_dead_end_has_no_thoughts() {
    let pos = common::fen("8/8/8/8/8/8/8/4K2k b - - 0 1");
    for build in &BUILDS {
        let mut pair = Pair::new(build);
        let r = pair.reply(&pos, &[], build.info.id);
        assert_eq!(r.played, Played::DeadEnd);
        assert_eq!(pair.tally.dead, 1);
    }
}

/// A position seen fresh by a pair (the driver injects it): the thoughts
/// are the same as when the game reached it by typing.
#[test]
fn injected_and_typed_positions_agree() {
    let e4 = any_move(&Chess::default(), "e2e4");
    for build in &BUILDS {
        let mut typed = Pair::new(build);
        let root = Chess::default();
        let t = typed.reply(&root, &[e4], "typed");
        assert!(matches!(t.path, InputPath::Typed(_)));
        let mut injected = Pair::new(build);
        let _ = injected.reply(&common::fen("8/8/8/8/8/8/8/K6k w - - 0 1"), &[], "other");
        let i = injected.reply(&root, &[e4], "injected");
        assert!(matches!(i.path, InputPath::Injected(_)));
        assert_eq!(t.thoughts, i.thoughts, "{}", build.info.id);
    }
}

// ---------------------------------------------------------------------------
// (b) The candidate lists against the dissection's account of the
// evaluation (fixture chesskelet-evaluation.txt).
// ---------------------------------------------------------------------------

/// The fixture, parsed.
#[derive(Default)]
struct Account {
    /// (compensation, multiplier, rank shift).
    scale: (i32, i32, u32),
    columns: BTreeMap<String, Vec<i32>>,
    examples: Vec<i32>,
    /// name → (FEN, White's last move).
    positions: BTreeMap<String, (String, Option<String>)>,
    cases: Vec<Case>,
    best: Vec<[String; 3]>,
    sweeps: Vec<(String, Square)>,
}

struct Case {
    position: String,
    build: String,
    wire: String,
    /// `None`: the full build's rank-6 rule.
    pieces: Option<i32>,
    raw: i32,
    cp: i32,
}

fn fields(rest: &str) -> Vec<String> {
    rest.split('|').map(|f| f.trim().to_string()).collect()
}

fn parse_line(a: &mut Account, key: &str, rest: &str) {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let num = |s: &str| s.parse::<i32>().unwrap();
    match key {
        "value" => assert_eq!(rest, "P 2 N 3 B 4 R 5 Q 7 K 22"),
        "compensate" => a.scale.0 = num(rest),
        "multiply" => a.scale.1 = num(rest),
        "rankshift" => a.scale.2 = rest.parse().unwrap(),
        "column" => {
            a.columns
                .insert(words[0].into(), words[1..].iter().map(|w| num(w)).collect());
        }
        "example" => a.examples.push(num(words[1])),
        "position" => {
            let f = fields(rest);
            let last = (f[2] != "-").then(|| f[2].clone());
            a.positions.insert(f[0].clone(), (f[1].clone(), last));
        }
        "case" => a.cases.push(parse_case(&fields(rest))),
        "best" => {
            let f = fields(rest);
            a.best.push([f[0].clone(), f[1].clone(), f[2].clone()]);
        }
        "sweep" => {
            let f = fields(rest);
            a.sweeps.push((f[0].clone(), f[1].parse().unwrap()));
        }
        other => panic!("chesskelet-evaluation.txt: unknown line {other:?}"),
    }
}

fn parse_case(f: &[String]) -> Case {
    Case {
        position: f[0].clone(),
        build: f[1].clone(),
        wire: f[2].clone(),
        pieces: (f[3] != "rank6").then(|| f[3].parse().unwrap()),
        raw: f[4].parse().unwrap(),
        cp: f[5].parse().unwrap(),
    }
}

fn account() -> Account {
    let mut a = Account::default();
    for line in common::fixture("chesskelet-evaluation.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap();
        parse_line(&mut a, key, rest.trim());
    }
    a
}

/// The candidates of `build` in the named position, in the chooser's
/// order, and the move it played.
fn candidates(
    a: &Account,
    build: &'static Build,
    name: &str,
) -> (Vec<Candidate<UciMove>>, UciMove) {
    let (fen, last) = &a.positions[name];
    let root = common::fen(fen);
    let moves: Vec<Move> = last.iter().map(|m| any_move(&root, m)).collect();
    let r = engine(build, true)
        .play_moves(&root, &moves, BUDGET)
        .unwrap();
    let Played::Move(played) = r.played else {
        panic!("{name}: {:?}", r.played)
    };
    let mut list = r.thoughts.unwrap().ranked;
    list.sort_by_key(|c| c.seq);
    (list, played)
}

fn build(id: &str) -> &'static Build {
    BUILDS.iter().find(|b| b.info.id == id).unwrap()
}

/// The program's square of a real square when it plays Black.
fn program_square(sq: Square) -> u8 {
    view_square(sq, Color::Black)
}

/// What the seed's formula gives for a quiet-or-not move of `pieces` to
/// `to` (the program's square) in `build`.
fn formula(a: &Account, build: &str, pieces: i32, to: u8) -> i32 {
    let (compensate, multiply, shift) = a.scale;
    let column = a.columns[build][usize::from(to & 7)];
    let rank = i32::from(to >> shift);
    (multiply * (pieces + compensate) + column - rank) & 0xFF
}

/// The fixture's own arithmetic: its examples are the seed's, and each
/// expected RAW and CP follow from the seed's formula and the driver's
/// mapping.
#[test]
fn the_fixture_follows_the_seed() {
    let a = account();
    assert_eq!(a.examples, [22 - 7, 7 + 7]);
    assert_eq!(a.scale, (32, 4, 5));
    assert_eq!(a.cases.len(), 12);
    for c in &a.cases {
        let to: Square = c.wire[2..].parse().unwrap();
        if let Some(pieces) = c.pieces {
            assert_eq!(
                formula(&a, &c.build, pieces, program_square(to)),
                c.raw,
                "{}",
                c.wire
            );
        }
        assert_eq!(c.cp, 25 * (c.raw - 128) / 2, "{}", c.wire);
    }
}

#[test]
fn worked_examples_are_the_programs_evaluations() {
    let a = account();
    for c in &a.cases {
        let (list, _) = candidates(&a, build(&c.build), &c.position);
        let at = format!("{} {} {}", c.position, c.build, c.wire);
        let got = list.iter().find(|x| x.wire.to_string() == c.wire);
        let got = got.unwrap_or_else(|| panic!("{at}: not a candidate"));
        assert_eq!((got.raw, got.score), (c.raw, c.cp), "{at}");
    }
    for [position, id, wire] in &a.best {
        let (list, played) = candidates(&a, build(id), position);
        assert_eq!(played.to_string(), *wire, "{position} {id}");
        // "K-7 > 14": the king capture beats every other candidate.
        let king = list.iter().find(|x| x.wire == played).unwrap();
        assert!(list.iter().all(|x| x.wire == played || x.raw < king.raw));
    }
}

/// A rook's quiet moves on an unmarked board: each RAW is 128 + column
/// weight − rank weight, and together they show the seed's whole column
/// table, for each build.
#[test]
fn quiet_moves_show_the_column_table() {
    let a = account();
    for (position, from) in &a.sweeps {
        for b in &BUILDS {
            let (list, _) = candidates(&a, b, position);
            let mut seen = BTreeMap::new();
            for c in list.iter().filter(|c| from_square(c) == *from) {
                let to = program_square(to_square(c));
                let column = c.raw - 128 + i32::from(to >> a.scale.2);
                seen.insert(to & 7, column);
            }
            let table: Vec<i32> = seen.into_values().collect();
            // The seed's two schemes: feamod=1's, and feamod=0's, which
            // the published games' build (a minimal build) has too.
            let scheme = if b.features {
                "chesskelet"
            } else {
                "chesskelet-lite"
            };
            assert_eq!(table, a.columns[scheme], "{}", b.info.id);
        }
    }
}

fn from_square(c: &Candidate<UciMove>) -> Square {
    match c.wire {
        UciMove::Normal { from, .. } => from,
        _ => panic!("{:?}", c.wire),
    }
}

fn to_square(c: &Candidate<UciMove>) -> Square {
    match c.wire {
        UciMove::Normal { to, .. } => to,
        _ => panic!("{:?}", c.wire),
    }
}

/// The example lists of the report: each build's candidates in the initial
/// position (the program plays White: the full build by its `s` key, the
/// minimal build by injection), in the order scored.
#[test]
fn initial_position_candidates() {
    for b in &BUILDS {
        let r = engine(b, true)
            .play_moves(&Chess::default(), &[], BUDGET)
            .unwrap();
        let t = r.thoughts.unwrap();
        let mut list = t.ranked.clone();
        list.sort_by_key(|c| c.seq);
        println!("{} ({}):", b.info.id, t.tie_break);
        for c in &list {
            println!("  {:2} {} {:3} {:6}", c.seq, c.wire, c.raw, c.score);
        }
        let best = t.best().unwrap();
        println!("  played {} ({} cp)", best.wire, best.score);
        // Both builds: the last of the best-scored moves, d2d4 / d2d3.
        let top = list
            .iter()
            .filter(|c| c.raw == best.raw)
            .map(|c| c.seq)
            .max();
        assert_eq!(Some(best.seq), top);
        assert_eq!(Played::Move(best.wire), r.played);
        assert_eq!(list.len(), if b.features { 22 } else { 12 });
    }
}
