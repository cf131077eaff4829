//! Candidates of the three draughts engines (issue 14, part 1): with
//! collection on, each search runs exactly as with it off (same move,
//! T-states, nodes and score, fresh engines of the same seed asked the same
//! positions), and what is collected agrees with what the program did: its
//! first-ranked candidate is the move it played, and the counts agree with
//! its nodes. The positions are those of seeded random legal games from the
//! start under each engine's rules, so both colours are asked; the
//! emulated engines on both Z80 cores.

use std::collections::BTreeSet;
use std::time::Instant;

use retrochess::engines::samuel_f8::{self, Side};
use retrochess::engines::{Catalogue, Engine, EngineOptions, Played, Reply, Thoughts};
use retrochess::machine::Core;
use retrochess::rng::SplitMix64;
use retrochess::rules::draughts::{Draughts, PdnMove, Position};
use retrochess::rules::{Color, Game, Rules};

const BUDGET: u64 = 200_000_000;
/// Random games per engine, and the plies each is followed for.
const GAMES: u64 = 50;
const PLIES: usize = 60;

fn engine(id: &str, seed: u64, core: Core, collect: bool) -> Box<dyn Engine<Draughts>> {
    let options = EngineOptions {
        seed,
        core,
        ..EngineOptions::default()
    };
    let mut e = Draughts::create(retrochess::engines::find(id).unwrap(), &options)
        .expect("a draughts engine");
    if collect {
        assert!(e.collect_candidates(true), "{id} collects candidates");
    }
    e
}

/// What the equal-result runs covered.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    colours: BTreeSet<&'static str>,
    moves: usize,
    candidates: usize,
    nodes: u64,
    tstates: u64,
}

/// Asks a collecting and a non-collecting engine of the same seed every
/// position of `GAMES` random games under `rules`, checks they agree, and
/// hands each collecting reply to `check`.
fn equal_results(id: &str, core: Core, rules: Draughts, check: Check) -> Coverage {
    let started = Instant::now();
    let mut coverage = Coverage::default();
    for seed in 0..GAMES {
        let (mut off, mut on) = (engine(id, seed, core, false), engine(id, seed, core, true));
        let mut rng = SplitMix64::new(seed);
        let mut game = Game::initial(rules);
        for _ in 0..PLIES {
            let legal = game.legal_moves();
            if game.ending().is_some() || legal.is_empty() {
                break;
            }
            let plain = off.play(&game, BUDGET).expect("a reply");
            let watched = on.play(&game, BUDGET).expect("a reply");
            let at = rules.position_text(game.position());
            assert_same_search(&plain, &watched, &at);
            let thoughts = watched.thoughts.as_ref().expect("thoughts when collecting");
            check(&game, &watched, thoughts);
            coverage.positions += 1;
            coverage.colours.insert(colour(game.position().turn()));
            coverage.moves += usize::from(matches!(watched.played, Played::Move(_)));
            coverage.candidates += thoughts.ranked.len();
            coverage.nodes += watched.nodes;
            coverage.tstates += watched.tstates;
            game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize]);
        }
    }
    eprintln!(
        "{id} on {core:?}: {coverage:?} in {:.2} s (both runs)",
        started.elapsed().as_secs_f64()
    );
    assert!(coverage.positions >= 100, "{id}: {coverage:?}");
    assert_eq!(coverage.colours.len(), 2, "{id}: {coverage:?}");
    coverage
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn assert_same_search(plain: &Reply<PdnMove>, watched: &Reply<PdnMove>, at: &str) {
    assert_eq!(plain.played, watched.played, "{at}");
    assert_eq!(plain.tstates, watched.tstates, "{at}");
    assert_eq!(plain.nodes, watched.nodes, "{at}");
    assert_eq!(plain.score, watched.score, "{at}");
    assert_eq!(plain.thoughts, None, "{at}: thoughts without asking");
}

/// The played move is the first ranked; seq numbers 1..=n, each once.
fn assert_played_first(reply: &Reply<PdnMove>, thoughts: &Thoughts<PdnMove>, at: &str) {
    let mut seqs: Vec<u32> = thoughts.ranked.iter().map(|c| c.seq).collect();
    seqs.sort_unstable();
    assert!(seqs.iter().copied().eq(1..=seqs.len() as u32), "{at}");
    match &reply.played {
        Played::Move(m) => assert_eq!(thoughts.best().map(|c| &c.wire), Some(m), "{at}"),
        Played::Astray(a) => panic!("a draughts driver reports no board: {a:?} ({at})"),
        Played::DeadEnd => assert!(thoughts.ranked.is_empty(), "{at}"),
        Played::Hung(_) => {}
    }
}

fn wires(thoughts: &Thoughts<PdnMove>) -> BTreeSet<String> {
    thoughts.ranked.iter().map(|c| c.wire.to_string()).collect()
}

/// Draughts 1K: every move EVAL finds is a move of the house rules and
/// every such move is found (one EVAL call per direction tried, so no more
/// candidates than nodes); the verdicts are rungs 0..=3 with their scores.
fn check_1k(game: &Game<Draughts>, reply: &Reply<PdnMove>, thoughts: &Thoughts<PdnMove>) {
    let house = Draughts::zx81_1k();
    let pos = game.position();
    let at = house.position_text(pos);
    assert_played_first(reply, thoughts, &at);
    assert!(thoughts.ranked.len() as u64 <= reply.nodes, "{at}");
    let legal: BTreeSet<String> = house
        .legal_moves(pos)
        .iter()
        .map(|m| house.wire(pos, m).to_string())
        .collect();
    assert_eq!(wires(thoughts), legal, "{at}");
    for c in &thoughts.ranked {
        let expected = [-100, -100, 0, 100][c.raw as usize];
        assert_eq!(c.score, expected, "{at}: {c:?}");
    }
}

/// Baker: one comparison per NEWPRI visit, scores (priority − 0x80) × 20,
/// the reply's score that of the first ranked.
fn check_baker(game: &Game<Draughts>, reply: &Reply<PdnMove>, thoughts: &Thoughts<PdnMove>) {
    let at = Draughts::english().position_text(game.position());
    assert_played_first(reply, thoughts, &at);
    assert_eq!(thoughts.ranked.len() as u64, reply.nodes, "{at}");
    for c in &thoughts.ranked {
        assert_eq!(c.score, (c.raw - 0x80) * 20, "{at}: {c:?}");
    }
    if let Played::Move(_) = reply.played {
        assert_eq!(reply.score, thoughts.best().map(|c| c.score), "{at}");
    }
}

/// samuel-f8: every root move once (its own generator's list, in its
/// order), the reply's score that of the first ranked; a stored first move
/// lists the store, unsearched.
fn check_samuel(game: &Game<Draughts>, reply: &Reply<PdnMove>, thoughts: &Thoughts<PdnMove>) {
    let pos = game.position();
    let at = Draughts::english().position_text(pos);
    assert_played_first(reply, thoughts, &at);
    let Played::Move(_) = reply.played else {
        return;
    };
    assert_eq!(reply.score, thoughts.best().map(|c| c.score), "{at}");
    if reply.nodes == 0 {
        assert_eq!(thoughts.ranked.len(), samuel_f8::STORED_FIRST_MOVES.len());
        return;
    }
    let in_order: Vec<String> = sorted_by_seq(thoughts);
    let root: Vec<String> = samuel_f8::legal_moves(&samuel_position(pos))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(in_order, root, "{at}");
    assert!(reply.nodes > thoughts.ranked.len() as u64, "{at}");
    assert!(thoughts.ranked.iter().all(|c| c.raw == c.score), "{at}");
}

fn sorted_by_seq(thoughts: &Thoughts<PdnMove>) -> Vec<String> {
    let mut by_seq: Vec<_> = thoughts.ranked.iter().collect();
    by_seq.sort_by_key(|c| c.seq);
    by_seq.iter().map(|c| c.wire.to_string()).collect()
}

fn samuel_position(pos: &Position) -> samuel_f8::Position {
    let side = match pos.turn() {
        Color::Black => Side::Black,
        Color::White => Side::White,
    };
    samuel_f8::Position::new(pos.black(), pos.white(), pos.kings(), side).expect("a position")
}

type Check = fn(&Game<Draughts>, &Reply<PdnMove>, &Thoughts<PdnMove>);

/// [`equal_results`] for an emulated engine, on both Z80 cores.
fn on_both_cores(id: &str, rules: Draughts, check: Check) {
    for core in [Core::Z80emu, Core::Iz80] {
        let c = equal_results(id, core, rules, check);
        assert!(c.moves > 0 && c.candidates > c.moves, "{c:?}");
        assert!(c.tstates > 0, "{c:?}");
    }
}

#[test]
fn draughts_1k_searches_the_same_with_candidates_collected() {
    on_both_cores("draughts-1k", Draughts::zx81_1k(), check_1k);
}

#[test]
fn baker_searches_the_same_with_candidates_collected() {
    on_both_cores("baker-draughts", Draughts::english(), check_baker);
}

#[test]
fn samuel_searches_the_same_with_candidates_collected() {
    let english = Draughts::english();
    let c = equal_results("samuel-f8", Core::default(), english, check_samuel);
    assert!(c.moves > 0 && c.candidates > c.moves, "{c:?}");
}
