//! The sweep: every emulated chess engine asked for its move in thousands
//! of positions reached through move lists — games played from the start
//! position, each opponent move typed into the program on its machine as a
//! person would (the driver injects only where the program cannot take a
//! move in, and says so) — against the seeded random mover and against the
//! other engines. Every reply is judged by the arbiter and counted by kind:
//! legal, flagged (by the rules' kind, `long-castling test` among them),
//! dead end, hung, and driver failures, which must be none: a program's own
//! move is never an adapter failure.
//!
//! A flagged move that is legal by itself (a board gone astray) is played
//! on, as a GUI does under `IllegalMoves play`, so the program goes on
//! from its own board; any other flagged move, a dead end or a hang ends
//! the game, as a forfeit.
//!
//! The CI-sized sweep runs with the suite; the big one is run explicitly
//! (`scripts/sweep`, which runs `sweep_big` below):
//! `RETROCHESS_SWEEP_POSITIONS=10000 RETROCHESS_SWEEP_ENGINES=chesskelet
//! cargo test --profile suite --test engines sweep_big -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use retrochess::arbiter::Judgement;
use retrochess::engines::{Engine, EngineOptions, GameKind, InputPath, Played, catalogue};
use retrochess::machine::Core;
use retrochess::rng::SplitMix64;
use retrochess::rules::chess::ChessRules;
use retrochess::rules::{Game, Rules, Verdict};

use crate::common::chess_engine;

/// T-states a reply may take before it counts as hung (a quarter of an
/// hour of ZX81 time; the programs need a few million).
const BUDGET: u64 = 3_000_000_000;
/// A game stops here (ChesSkelet's stack is reloaded near 249 move pairs,
/// which its own tests cover).
const MAX_PLIES: usize = 240;
/// Random plies before the engines meet, so that engine-against-engine
/// games differ.
const OPENING_PLIES: u64 = 4;

/// What one engine's replies came to.
#[derive(Default, Debug)]
pub struct Tally {
    pub positions: u64,
    pub typed: u64,
    pub injected: u64,
    pub tape: u64,
    pub legal: u64,
    /// Flagged replies by the rules' kind.
    pub flagged: BTreeMap<&'static str, u64>,
    /// Of the flagged, those whose board went astray while its move was
    /// legal by itself (the game went on from them).
    pub astray_played_on: u64,
    /// Replies whose board was not a plain reading of the chosen move
    /// ([`Played::Astray`]), by the quirk the driver named.
    pub astray: BTreeMap<&'static str, u64>,
    pub dead_ends: u64,
    pub hangs: u64,
    /// Driver errors ("engine failed", "cannot read"), with how to
    /// reproduce them: must stay empty.
    pub failures: Vec<String>,
    /// The first game of each flagged kind, to replay.
    pub examples: BTreeMap<&'static str, String>,
}

/// One side of a sweep game.
enum Side {
    Random,
    Engine(usize),
}

/// The emulated chess engines (the registry's, so a new one joins).
pub fn chess_ids() -> Vec<&'static str> {
    catalogue()
        .iter()
        .filter(|e| e.game == GameKind::Chess && e.has_screen)
        .map(|e| e.info.id)
        .collect()
}

/// Plays games until `focus` has replied in `positions` positions: even
/// games against the random mover, odd ones against the next of `ids`.
/// Returns every engine's tally (partners' replies count too).
pub fn sweep(
    focus: &str,
    ids: &[&'static str],
    positions: u64,
    core: Core,
    seed: u64,
) -> BTreeMap<&'static str, Tally> {
    let options = EngineOptions {
        core,
        budget: BUDGET,
        ..EngineOptions::default()
    };
    let mut engines: Vec<Box<dyn Engine<ChessRules>>> = ids
        .iter()
        .map(|id| chess_engine(id, &options).unwrap_or_else(|e| panic!("{id}: {e}")))
        .collect();
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let f = ids.iter().position(|i| *i == focus).expect("focus in ids");
    let mut g = 0u64;
    while tallies.get(focus).map_or(0, |t| t.positions) < positions {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9).wrapping_add(g));
        let other = if g.is_multiple_of(2) || ids.len() < 2 {
            Side::Random
        } else {
            let k = (g / 2) as usize % (ids.len() - 1);
            Side::Engine(if k >= f { k + 1 } else { k })
        };
        let sides = if (g / 2).is_multiple_of(2) {
            [Side::Engine(f), other]
        } else {
            [other, Side::Engine(f)]
        };
        play_game(&mut engines, ids, &sides, &mut rng, &mut tallies, g);
        g += 1;
    }
    tallies
}

fn play_game(
    engines: &mut [Box<dyn Engine<ChessRules>>],
    ids: &[&'static str],
    sides: &[Side; 2],
    rng: &mut SplitMix64,
    tallies: &mut BTreeMap<&'static str, Tally>,
    number: u64,
) {
    for side in sides {
        if let Side::Engine(i) = side {
            engines[*i].new_game().expect("new game");
        }
    }
    let mut game = Game::initial(ChessRules);
    let opening = rng.range(0, OPENING_PLIES);
    while game.ending().is_none() && game.moves().len() < MAX_PLIES {
        let ply = game.moves().len();
        let side = &sides[ply % 2];
        let i = match side {
            Side::Engine(i) if ply as u64 >= opening => *i,
            _ => {
                let legal = game.legal_moves();
                let m = legal[rng.range(0, legal.len() as u64 - 1) as usize];
                game.push(m);
                continue;
            }
        };
        let id = ids[i];
        let tally = tallies.entry(id).or_default();
        tally.positions += 1;
        let replay = || format!("game {number}, {id} to move after: {}", uci_moves(&game));
        let reply = match engines[i].play(&game, BUDGET) {
            Ok(r) => r,
            Err(e) => {
                tally.failures.push(format!("{e} ({})", replay()));
                return;
            }
        };
        match &reply.path {
            InputPath::Typed(_) => tally.typed += 1,
            InputPath::Injected(_) => tally.injected += 1,
            InputPath::Tape => tally.tape += 1,
            InputPath::Native => {}
        }
        if let Played::Astray(a) = &reply.played {
            let quirk = a.quirk.as_ref().map_or("no quirk named", |q| q.kind);
            *tally.astray.entry(quirk).or_default() += 1;
        }
        match Judgement::of(&ChessRules, game.position(), &reply.played) {
            Judgement::Legal(m, _) => {
                tally.legal += 1;
                game.push(m);
            }
            Judgement::Illegal(wire, why) => {
                let kind = ChessRules.illegal_kind(&why);
                *tally.flagged.entry(kind).or_default() += 1;
                tally
                    .examples
                    .entry(kind)
                    .or_insert_with(|| format!("{} plays {wire}: {why}", replay()));
                // Legal by itself (its board went astray): a GUI plays it on.
                let on = matches!(reply.played, Played::Astray(_))
                    .then(|| wire.to_move(game.position()).ok())
                    .flatten();
                match on {
                    Some(m) => {
                        tally.astray_played_on += 1;
                        game.push(m);
                    }
                    None => return,
                }
            }
            Judgement::DeadEnd { .. } => {
                tally.dead_ends += 1;
                return;
            }
            Judgement::Hung(_) => {
                tally.hangs += 1;
                return;
            }
        }
    }
}

/// The game's moves in UCI, space-separated, from the start position.
fn uci_moves(game: &Game<ChessRules>) -> String {
    let mut pos = game.root().clone();
    let mut out = Vec::new();
    for m in game.moves() {
        out.push(ChessRules.wire(&pos, m).to_string());
        ChessRules.play(&mut pos, m);
    }
    out.join(" ")
}

/// The tallies as a table, with the flagged kinds and one example each.
pub fn report(tallies: &BTreeMap<&'static str, Tally>) -> String {
    let mut out = String::new();
    for (id, t) in tallies {
        let flagged: u64 = t.flagged.values().sum();
        let _ = writeln!(
            out,
            "{id}: {} positions ({} typed, {} injected, {} tape); {} legal, {flagged} flagged \
             ({} astray played on), {} dead ends, {} hung, {} failures",
            t.positions,
            t.typed,
            t.injected,
            t.tape,
            t.legal,
            t.astray_played_on,
            t.dead_ends,
            t.hangs,
            t.failures.len()
        );
        for (kind, n) in &t.flagged {
            let _ = writeln!(out, "  flagged {kind}: {n}");
        }
        for (quirk, n) in &t.astray {
            let _ = writeln!(out, "  board astray, {quirk}: {n}");
        }
        for (kind, example) in &t.examples {
            let _ = writeln!(out, "  first {kind}: {example}");
        }
        for f in &t.failures {
            let _ = writeln!(out, "  FAILURE: {f}");
        }
    }
    out
}

fn core_from_env() -> Core {
    match std::env::var("RETROCHESS_SWEEP_CORE").as_deref() {
        Ok("z80emu") => Core::Z80emu,
        _ => Core::Own,
    }
}

/// CI-sized: each emulated chess engine in a few dozen positions, with no
/// driver failure and every reply accounted for.
#[test]
fn a_small_sweep_finds_no_adapter_failure() {
    let ids = chess_ids();
    assert!(ids.len() >= 3, "{ids:?}");
    for focus in &ids {
        let positions = if focus.starts_with("1k") { 40 } else { 150 };
        let tallies = sweep(focus, &ids, positions, Core::Own, 7);
        let report = report(&tallies);
        for (id, t) in &tallies {
            assert!(t.failures.is_empty(), "{id}: {report}");
            let flagged: u64 = t.flagged.values().sum();
            assert_eq!(
                t.legal + flagged + t.dead_ends + t.hangs,
                t.positions,
                "{id}: {report}"
            );
            assert_eq!(t.typed + t.injected + t.tape, t.positions, "{report}");
        }
        let t = &tallies[focus];
        assert!(t.positions >= positions, "{report}");
        assert!(t.typed > t.positions / 2, "mostly typed: {report}");
    }
}

/// The big sweep (run explicitly, see the module notes): prints the
/// tallies of every engine in `RETROCHESS_SWEEP_ENGINES` (default: all),
/// `RETROCHESS_SWEEP_POSITIONS` each (default 10,000), on
/// `RETROCHESS_SWEEP_CORE` (own by default; z80emu), seed
/// `RETROCHESS_SWEEP_SEED` (default 1); fails on any driver failure.
#[test]
#[ignore]
fn sweep_big() {
    let ids = chess_ids();
    let focus: Vec<String> = match std::env::var("RETROCHESS_SWEEP_ENGINES") {
        Ok(list) => list.split(',').map(str::to_string).collect(),
        Err(_) => ids.iter().map(|s| s.to_string()).collect(),
    };
    let positions = std::env::var("RETROCHESS_SWEEP_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let seed = std::env::var("RETROCHESS_SWEEP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let core = core_from_env();
    let mut failures = 0;
    for f in &focus {
        let started = std::time::Instant::now();
        let tallies = sweep(f, &ids, positions, core, seed);
        println!(
            "== sweep of {f}: {positions} positions, core {core:?}, seed {seed}, {:.0} s",
            started.elapsed().as_secs_f64()
        );
        print!("{}", report(&tallies));
        failures += tallies.values().map(|t| t.failures.len()).sum::<usize>();
    }
    assert_eq!(failures, 0, "driver failures");
}

/// Finds a game from the start position, ChesSkelet (full build) as White
/// against the seeded random mover, every move of its own, in which its
/// long-castling test fires: the game `play` and `serve` are tested with
/// (`tests/cli/cli.rs`, `tests/serve/main.rs`). A search that made a
/// fixture, not a check: `scripts/long-castling-game` runs it.
#[test]
#[ignore]
fn find_a_long_castling_game() {
    let mut e = chess_engine("chesskelet", &EngineOptions::default()).unwrap();
    for seed in 0..2000u64 {
        let mut rng = SplitMix64::new(seed);
        e.new_game().unwrap();
        let mut game = Game::initial(ChessRules);
        while game.ending().is_none() && game.moves().len() < 120 {
            if game.moves().len() % 2 == 1 {
                let legal = game.legal_moves();
                let m = legal[rng.range(0, legal.len() as u64 - 1) as usize];
                game.push(m);
                continue;
            }
            let reply = e.play(&game, BUDGET).unwrap();
            let astray = matches!(&reply.played, Played::Astray(a)
                if a.quirk.as_ref().is_some_and(|q| q.kind == "long-castling test"));
            match Judgement::of(&ChessRules, game.position(), &reply.played) {
                Judgement::Legal(m, _) if !astray => game.push(m),
                j => {
                    if astray {
                        println!("seed {seed}: {} -> {j}", uci_moves(&game));
                        return;
                    }
                    break;
                }
            }
        }
    }
    panic!("none found");
}

/// After its long-castling test fired, the program keeps its own board, as
/// the real machine would: the next move is typed on it (not injected), and
/// its board still shows the rook on c2 and the stray byte on a1.
#[test]
fn the_program_plays_on_from_its_own_board() {
    use retrochess::engines::chesskelet::{BUILDS, ChesSkelet, view_square};
    use shakmaty::{Color, Square};
    let (fen, moves) = crate::common::LONG_CASTLING[0];
    let mut e = ChesSkelet::new(&BUILDS[0], EngineOptions::default()).unwrap();
    let mut game = Game::new(ChessRules, crate::common::fen(fen));
    for m in moves.split_whitespace() {
        let wire = m.parse().unwrap();
        assert!(matches!(game.play_wire(&wire), Verdict::Legal(_)), "{m}");
    }
    let reply = e.play(&game, BUDGET).unwrap();
    let Played::Astray(a) = &reply.played else {
        panic!("{:?}", reply.played)
    };
    assert_eq!(a.wire.to_string(), "d1c2");
    assert_eq!(a.quirk.as_ref().unwrap().kind, "long-castling test");
    // Its board, in the person's (Black's) view after its move.
    let page = e.session().board();
    let at = |sq: Square| page[usize::from(view_square(sq, Color::Black))];
    assert_eq!(
        (at(Square::C2), at(Square::D1)),
        (0x05, 0x00),
        "a rook on c2"
    );
    assert!(
        at(Square::A1) & 0xC0 != 0 || at(Square::A1) & 0x1F > 7,
        "a stray byte on a1"
    );
    // The GUI plays d1c2 on; Black answers h5f4, typed on its own board.
    for m in ["d1c2", "h5f4"] {
        assert!(
            matches!(game.play_wire(&m.parse().unwrap()), Verdict::Legal(_)),
            "{m}"
        );
    }
    let reply = e.play(&game, BUDGET).unwrap();
    assert_eq!(
        reply.path,
        InputPath::Typed("a4c5".into()),
        "{:?}",
        reply.played
    );
    assert!(
        matches!(reply.played, Played::Move(_)),
        "{:?}",
        reply.played
    );
}
