//! Bench: our own Z80 core in lockstep with `z80emu` (`--core
//! lockstep-own`) over every Z80 program's searches, both colours: the
//! engine replies to positions of games against a seeded random mover,
//! and after every instruction the registers (R and flag bits 3 and 5
//! included), MEMPTR, the halt state, the RAM and the instruction's
//! T-states must be the same on both cores.
//!
//! `RETROCHESS_LOCKSTEP_POSITIONS=500 cargo test --profile suite --test bench
//! own_lockstep -- --nocapture` is the evidence run (500 positions per
//! engine and colour); by default 3 per engine and colour, so that CI
//! asserts the same property in seconds. `RETROCHESS_LOCKSTEP_ENGINES=a,b`
//! compares only those engines.

use std::collections::BTreeMap;

use retrochess::arbiter::Judgement;
use retrochess::engines::{self, Catalogue, EngineOptions, GameKind, onek};
use retrochess::machine::Core;
use retrochess::machine::cpu::lockstep::{self, Opcode};
use retrochess::rng::SplitMix64;
use retrochess::rules::Game;
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::Draughts;

/// Every engine that runs on an emulated Z80.
const ENGINES: [&str; 8] = [
    "1k-zx-chess",
    "1k-zx-chess-kp",
    "chesskelet",
    "chesskelet-lite",
    "chesskelet-published",
    "draughts-1k",
    "baker-draughts",
    "baker-draughts-mended",
];

/// The engines to compare: `RETROCHESS_LOCKSTEP_ENGINES` (ids separated
/// by commas), or all of them.
fn engines() -> Vec<&'static str> {
    match std::env::var("RETROCHESS_LOCKSTEP_ENGINES") {
        Ok(list) => ENGINES
            .into_iter()
            .filter(|id| list.split(',').any(|e| e.trim() == *id))
            .collect(),
        Err(_) => ENGINES.to_vec(),
    }
}

fn positions() -> usize {
    std::env::var("RETROCHESS_LOCKSTEP_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// Plays until the engine has replied to `replies` positions, the engine
/// moving first (`engine_first`) or second; returns the replies.
fn play<R: Catalogue + Clone>(rules: R, id: &str, replies: usize, engine_first: bool) -> usize {
    let options = EngineOptions {
        core: Core::LockstepOwn,
        seed: 7,
        ..EngineOptions::default().with(onek::OPENING, "think")
    };
    let mut engine = R::create(retrochess::engines::find(id).unwrap(), &options).unwrap();
    let mut rng = SplitMix64::new(if engine_first { 7 } else { 8 });
    let mut game = Game::initial(rules.clone());
    let engine_side = |first: bool| if first == engine_first { 0 } else { 1 };
    let mut done = 0;
    while done < replies {
        let side = if game.turn() == rules.first_side() {
            engine_side(true)
        } else {
            engine_side(false)
        };
        if game.ending().is_some() || game.moves().len() >= 200 {
            game = Game::initial(rules.clone());
            engine.new_game().unwrap();
            continue;
        }
        if side != 0 {
            let legal = game.legal_moves();
            game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize].clone());
            continue;
        }
        let reply = engine.play(&game, 2_000_000_000).unwrap();
        done += 1;
        let legal = Judgement::of(&rules, game.position(), &reply.played)
            .legal()
            .cloned();
        match legal {
            Some(m) => game.push(m),
            // A program's dead end or fault ends the game, not the
            // comparison.
            None => {
                game = Game::initial(rules.clone());
                engine.new_game().unwrap();
            }
        }
    }
    done
}

fn prefix(o: &Opcode) -> &'static str {
    match o.0 >> 8 {
        0 => "none",
        0xCB => "CB",
        0xED => "ED",
        0xDD => "DD",
        0xFD => "FD",
        0xDDCB => "DD CB",
        0xFDCB => "FD CB",
        _ => "other",
    }
}

#[test]
fn own_lockstep_agrees_over_every_programs_searches_both_colours() {
    let n = positions();
    let _ = lockstep::take_report();
    let (mut instructions, mut all) = (0u64, std::collections::BTreeSet::new());
    let ids = engines();
    assert!(
        !ids.is_empty(),
        "RETROCHESS_LOCKSTEP_ENGINES names no Z80 engine"
    );
    for id in ids {
        for engine_first in [true, false] {
            let replies = match engines::entry(id).map(|e| e.game) {
                Some(GameKind::Chess) => play(ChessRules, id, n, engine_first),
                Some(GameKind::Draughts) if id == "draughts-1k" => {
                    play(Draughts::zx81_1k(), id, n, engine_first)
                }
                Some(GameKind::Draughts) => play(Draughts::english(), id, n, engine_first),
                None => panic!("no engine {id}"),
            };
            let report = lockstep::take_report();
            let mut prefixes: BTreeMap<&str, usize> = BTreeMap::new();
            for o in &report.opcodes {
                *prefixes.entry(prefix(o)).or_default() += 1;
            }
            println!(
                "{id} ({}): {replies} positions, {} instructions, {} whole runs ({} compiled blocks run in them, {} straight after another), {} distinct opcodes (by prefix: {prefixes:?}), {} divergences",
                if engine_first {
                    "moving first"
                } else {
                    "moving second"
                },
                report.instructions,
                report.runs,
                report.compiled,
                report.chained,
                report.opcodes.len(),
                report.divergences
            );
            assert_eq!(report.divergences, 0, "{id}: {:#?}", report.first);
            assert!(report.tstates.is_empty(), "{id}: {:?}", report.tstates);
            assert_eq!(replies, n);
            assert!(report.instructions > 0);
            assert!(report.runs > 0, "{id}: no whole run compared");
            // Built with them, every program has blocks compiled ahead of
            // time: the whole runs compared ran some of them.
            if cfg!(feature = "compiled-blocks") {
                assert!(report.compiled > 0, "{id}: no compiled block ran");
                assert!(
                    report.chained > 0,
                    "{id}: no compiled block went on to another"
                );
            } else {
                assert_eq!(report.compiled, 0, "{id}: built without them");
            }
            instructions += report.instructions;
            all.extend(report.opcodes);
        }
    }
    let mut prefixes: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &all {
        *prefixes.entry(prefix(o)).or_default() += 1;
    }
    println!(
        "all: {instructions} instructions compared, {} distinct opcodes (by prefix: {prefixes:?}): {}",
        all.len(),
        all.iter()
            .map(|o| o.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}
