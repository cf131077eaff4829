//! Draughts 1K (seed 002) behind `Engine<Draughts>`: the transcribed routine
//! on the emulated 1K ZX81, every move judged by the draughts rules, and the
//! `screen` and `play` subcommands over pipes.
//!
//! The routine's choice is also predicted by an oracle written from the
//! seed's comments on EVAL and MOVE (a capture if any, the last found;
//! otherwise the last safe step; otherwise the first step), over a display
//! file built from `tests/fixtures/draughts-1k/layout.txt`: every move of
//! every game must be the oracle's.

use crate::common;

use retrochess::engines::draughts_1k::Draughts1K;
use retrochess::engines::{self, Catalogue, Engine, EngineOptions, GameKind, Played, Reply};
use retrochess::machine::Core;
use retrochess::rng::SplitMix64;
use retrochess::rules::draughts::{Draughts, PdnMove, Piece, Position, Square};
use retrochess::rules::{Color, Game, Rules, Verdict};

fn engine(seed: u64) -> Box<dyn Engine<Draughts>> {
    let options = EngineOptions {
        seed,
        ..EngineOptions::default()
    };
    Draughts::create(retrochess::engines::find("draughts-1k").unwrap(), &options).unwrap()
}

/// The engine's reply on the reference core, iz80.
fn on_iz80(game: &Game<Draughts>) -> Reply<PdnMove> {
    let options = EngineOptions {
        seed: 1,
        core: Core::Iz80,
        ..EngineOptions::default()
    };
    ask(
        Draughts::create(retrochess::engines::find("draughts-1k").unwrap(), &options)
            .unwrap()
            .as_mut(),
        game,
    )
}

fn ask(engine: &mut dyn Engine<Draughts>, game: &Game<Draughts>) -> Reply<PdnMove> {
    engine.play(game, u64::MAX).unwrap()
}

fn sq(n: u32) -> Square {
    Square::new(n).unwrap()
}

fn game_at(rules: Draughts, fen: &str) -> Game<Draughts> {
    let root = rules.parse_position(fen).unwrap();
    Game::new(rules, root)
}

// ---------------------------------------------------------------------------
// The oracle: the routine as the seed's comments describe it.

const NEWLINE: u8 = 0x76;
const EMPTY: u8 = 0x08;

/// PDN square -> offset from D_FILE, from the layout fixture.
fn layout() -> Vec<(u32, i32)> {
    std::fs::read_to_string(common::repo("tests/fixtures/draughts-1k/layout.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect()
}

/// Offsets from D_FILE − [`BASE`] to D_FILE + 100 in [`Bytes`].
const BASE: i32 = 20;
type Bytes = [u8; 121];
/// A move as display-file offsets: from, to, captured.
type Offsets = (i32, i32, Option<i32>);

/// The real square of the routine's square `n` when `side` moves.
fn view(side: Color, n: u32) -> u32 {
    if side == Color::Black { n } else { 33 - n }
}

/// The display file around `pos` as the routine sees it for the side to
/// move: NEWLINEs at the row ends and after the board, light squares 0x00,
/// before the display file nothing the routine takes for a square.
fn display(pos: &Position, layout: &[(u32, i32)]) -> Bytes {
    let side = pos.turn();
    let mut bytes = [0x00u8; 121];
    for (i, b) in bytes.iter_mut().enumerate() {
        let off = i as i32 - BASE;
        if off < 0 {
            *b = 0xE1;
        } else if off % 9 == 0 || off > 72 {
            *b = NEWLINE;
        }
    }
    for &(n, off) in layout {
        bytes[(off + BASE) as usize] = match pos.piece_at(sq(view(side, n))) {
            None => EMPTY,
            Some(Piece { color, king }) => {
                let own = if color == side { 0x27 } else { 0x3C };
                own | if king { 0x80 } else { 0 }
            }
        };
    }
    bytes
}

/// The seed's EVAL over every `B` piece in scan order, then MOVE's choice.
fn choose(bytes: &Bytes) -> Option<Offsets> {
    let at = |off: i32| bytes[(off + BASE) as usize];
    let is_w = |b: u8| b & 0x7F == 0x3C;
    let (mut step, mut capture) = (None, None);
    for s in 0..72 {
        let dirs: [i32; 2] = match at(s) {
            0x27 => [8, 10],
            0xA7 => [-10, -8],
            _ => continue,
        };
        for d in dirs {
            let (t, beyond) = (at(s + d), at(s + 2 * d));
            if t == EMPTY {
                // Safe unless a W stands beyond; an unsafe step only if no
                // step is stored yet.
                if !is_w(beyond) || step.is_none() {
                    step = Some((s, s + d, None));
                }
            } else if is_w(t) && beyond == EMPTY {
                capture = Some((s, s + 2 * d, Some(s + d)));
            }
        }
    }
    capture.or(step)
}

/// What the routine decides on `pos` for the side to move: (from, to,
/// captured) in real PDN squares, or `None` for no move.
fn oracle(pos: &Position) -> Option<(u32, u32, Option<u32>)> {
    let layout = layout();
    let (f, t, c) = choose(&display(pos, &layout))?;
    let square = |off: i32| view(pos.turn(), layout.iter().find(|l| l.1 == off).unwrap().0);
    Some((square(f), square(t), c.map(square)))
}

fn oracle_wire(pos: &Position) -> Option<PdnMove> {
    oracle(pos).map(|(f, t, c)| match c {
        None => PdnMove::step(sq(f), sq(t)),
        Some(_) => PdnMove::capture(vec![sq(f), sq(t)]).unwrap(),
    })
}

// ---------------------------------------------------------------------------
// The engine.

#[test]
fn draughts_1k_is_in_the_catalogue() {
    let entry = engines::entry("draughts-1k").unwrap();
    assert_eq!(entry.game, GameKind::Draughts);
    assert!((entry.options)().is_empty(), "it reads nothing to declare");
    assert_eq!(entry.info.machine, "ZX81 (1K)");
    assert!(engines::engine_ids().contains(&"draughts-1k"));
}

#[test]
fn the_tape_loads_and_opens_12_16() {
    let mut e = engine(1);
    let game = Game::initial(Draughts::english());
    let r = ask(e.as_mut(), &game);
    assert_eq!(r.played, Played::Move("12-16".parse().unwrap()));
    // z80emu, the default core, counts the Z80 manual's T-states: 8,467.
    // The bare iz80 of tests/engines/draughts_tapes.rs counts 8,566, and so
    // does the engine on the iz80 core: 99 more, one for each JR cc not
    // taken (iz80: 8, the manual: 7).
    assert_eq!(r.tstates, 8_467);
    assert_eq!(on_iz80(&game).tstates, 8_566);
    assert_eq!(r.nodes, 24, "12 men, two directions each");
    assert_eq!(r.score, None);
    // SLOW mode: 18,040 user T-states a frame, 50 frames a second.
    let want = 8_467.0 / (18_040.0 * 50.0);
    assert!((r.authentic.as_secs_f64() - want).abs() < 1e-9);
    let screen = e.screen().unwrap();
    assert_eq!(screen.row_text(2), "3B B B ▒");
    assert_eq!(screen.row_text(3), "▒ ▒ ▒ B");
    // The same through the driver's own constructor.
    let mut d = Draughts1K::new(&EngineOptions::default()).unwrap();
    assert_eq!(d.play(&game, u64::MAX).unwrap().played, r.played);
}

#[test]
fn a_replacement_image_must_be_the_routine() {
    let mut image = std::fs::read(common::repo("tapes/draughts-1k.bin")).unwrap();
    let good = common::temp_file("d1k-good.bin", &image);
    let options = EngineOptions {
        tape: Some(good),
        ..EngineOptions::default()
    };
    assert!(Draughts1K::new(&options).is_ok());
    let refusal = |name: &str, bytes: &[u8]| {
        let tape = Some(common::temp_file(name, bytes));
        let options = EngineOptions {
            tape,
            ..EngineOptions::default()
        };
        Draughts1K::new(&options).err().unwrap().to_string()
    };
    image[0x40F1 - 0x4082] = 0xC9;
    let err = refusal("d1k-bad.bin", &image);
    assert!(err.contains("0x40F1"), "{err}");
    let err = refusal("d1k-short.bin", &image[..100]);
    assert!(err.contains("100 bytes"), "{err}");
}

/// What one game against the random mover showed.
#[derive(Default, Debug)]
struct Tally {
    engine_moves: usize,
    /// (position FEN, move, kind) of every move the rules refused.
    illegal: Vec<(String, String, &'static str)>,
    dead_ends: usize,
    /// Dead ends where `rules` had a legal move for it.
    dead_ends_with_moves: usize,
    replies: Vec<(String, u64, u64)>,
}

/// A game of Draughts 1K (as `engine_side`) against a seeded random
/// mover under `rules`. Every engine move must be the oracle's and legal
/// under the house rules; a move `rules` refuses is recorded and replaced
/// by a random legal one so that the game goes on.
fn random_game(rules: Draughts, engine_side: Color, seed: u64, tally: &mut Tally) {
    let mut e = engine(seed);
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::initial(rules);
    let house = Draughts::zx81_1k();
    while game.ending().is_none() && game.moves().len() < 300 {
        let pos = *game.position();
        let legal = game.legal_moves();
        let random = legal[rng.range(0, legal.len() as u64 - 1) as usize];
        if pos.turn() != engine_side {
            game.push(random);
            continue;
        }
        let r = ask(e.as_mut(), &game);
        let Played::Move(wire) = r.played else {
            assert_eq!(r.played, Played::DeadEnd);
            assert!(
                house.legal_moves(&pos).is_empty(),
                "{}",
                house.position_text(&pos)
            );
            assert_eq!(oracle(&pos), None);
            tally.dead_ends += 1;
            tally.dead_ends_with_moves += usize::from(!legal.is_empty());
            return;
        };
        tally.engine_moves += 1;
        tally.replies.push((wire.to_string(), r.tstates, r.nodes));
        let fen = house.position_text(&pos);
        assert_eq!(Some(&wire), oracle_wire(&pos).as_ref(), "{fen}");
        assert!(
            matches!(house.judge(&pos, &wire), Verdict::Legal(_)),
            "{fen}: {wire} breaks the house rules"
        );
        match game.play_wire(&wire) {
            Verdict::Legal(_) => {}
            Verdict::Illegal(_, why) => {
                tally
                    .illegal
                    .push((fen, wire.to_string(), rules.illegal_kind(&why)));
                game.push(random);
            }
        }
    }
}

/// 100 games against the random mover, Draughts 1K Black in the even ones.
fn hundred_games(rules: Draughts) -> Tally {
    let mut tally = Tally::default();
    for seed in 0..100 {
        let side = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        random_game(rules, side, seed, &mut tally);
    }
    tally
}

/// How many of the flagged moves are of `kind`, and whether every legal
/// move in their positions was a king's.
fn flagged(tally: &Tally, kind: &str) -> (usize, bool) {
    let english = Draughts::english();
    let of_kind: Vec<_> = tally.illegal.iter().filter(|i| i.2 == kind).collect();
    let kings_only = of_kind.iter().all(|(fen, _, _)| {
        let pos = english.parse_position(fen).unwrap();
        english.legal_moves(&pos).iter().all(|m| m.is_king_move())
    });
    (of_kind.len(), kings_only)
}

#[test]
fn every_move_is_legal_under_the_house_rules_in_both_colours() {
    let tally = hundred_games(Draughts::zx81_1k());
    assert!(tally.illegal.is_empty(), "{:?}", tally.illegal);
    assert_eq!(tally.dead_ends_with_moves, 0);
    // The figures tapes/DRAUGHTS-1K.md reports.
    assert_eq!(tally.engine_moves, 2_526);
}

#[test]
fn under_english_rules_its_illegal_moves_are_missed_and_unfinished_captures() {
    let tally = hundred_games(Draughts::english());
    // It never jumps twice, and its king sees captures only the way the
    // other side's men go; the rest of English checkers it keeps. The
    // figures tapes/DRAUGHTS-1K.md reports.
    let kinds: Vec<&str> = tally.illegal.iter().map(|i| i.2).collect();
    assert!(
        kinds
            .iter()
            .all(|k| ["missed capture", "unfinished jump"].contains(k)),
        "{:?}",
        tally.illegal
    );
    assert_eq!(tally.engine_moves, 3_038);
    assert_eq!(flagged(&tally, "unfinished jump").0, 111);
    // A capture only a king could make, the way the routine's king never
    // looks, while it stepped elsewhere.
    assert_eq!(flagged(&tally, "missed capture"), (34, true));
    // Stopped where the house rules leave it nothing: English rules would
    // have let its kings move the men's way.
    assert_eq!((tally.dead_ends, tally.dead_ends_with_moves), (12, 12));
}

/// `pos` turned round with the colours swapped: what the other side sees.
fn mirrored(pos: &Position) -> Position {
    Position::new(
        pos.white().reverse_bits(),
        pos.black().reverse_bits(),
        pos.kings().reverse_bits(),
        !pos.turn(),
    )
    .unwrap()
}

fn mirrored_wire(wire: &PdnMove) -> PdnMove {
    let squares: Vec<Square> = wire
        .squares()
        .iter()
        .map(|s| sq(33 - u32::from(s.number())))
        .collect();
    if wire.is_capture() {
        PdnMove::capture(squares).unwrap()
    } else {
        PdnMove::step(squares[0], squares[1])
    }
}

#[test]
fn mirrored_colours_give_mirrored_moves_in_the_same_time() {
    let rules = Draughts::zx81_1k();
    let mut rng = SplitMix64::new(7);
    let (mut e, mut compared) = (engine(1), 0);
    let mut game = Game::initial(rules);
    while game.ending().is_none() {
        let pos = *game.position();
        let flip = Game::new(rules, mirrored(&pos));
        let (a, b) = (ask(e.as_mut(), &game), ask(e.as_mut(), &flip));
        let Played::Move(wire) = a.played else {
            assert_eq!(b.played, Played::DeadEnd);
            break;
        };
        assert_eq!(b.played, Played::Move(mirrored_wire(&wire)));
        assert_eq!((a.tstates, a.nodes), (b.tstates, b.nodes));
        compared += 1;
        let legal = game.legal_moves();
        game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize]);
    }
    assert!(compared > 20, "{compared}");
}

#[test]
fn with_no_move_the_board_is_unchanged_and_it_is_a_dead_end() {
    // 5 and 8 face W men with the squares beyond taken or off the board.
    let fen = "B:W9,11,12,14,15:B5,8";
    for rules in [Draughts::zx81_1k(), Draughts::english()] {
        let game = game_at(rules, fen);
        let mut e = engine(1);
        let r = ask(e.as_mut(), &game);
        assert_eq!(r.played, Played::DeadEnd);
        assert_eq!(r.nodes, 4);
        // The Z80 manual's count (z80emu); on the iz80 core, as on the bare
        // iz80 of tests/engines/draughts_tapes.rs (tapes/DRAUGHTS-1K.md),
        // 5,787: 78 more, one for each JR cc not taken.
        assert_eq!(r.tstates, 5_709);
        assert_eq!(on_iz80(&game).tstates, 5_787);
        let screen = e.screen().unwrap();
        assert_eq!(screen.row_text(1), "B ▒ ▒ B");
        assert_eq!(screen.row_text(2), "3W ▒ W W");
        // The rules agree: no legal move.
        assert!(game.legal_moves().is_empty());
        // As White, mirrored: the same.
        let flip = Game::new(rules, mirrored(game.position()));
        assert_eq!(ask(e.as_mut(), &flip).played, Played::DeadEnd);
    }
    // The machine is fit for the next move.
    let mut e = engine(1);
    let _ = ask(e.as_mut(), &game_at(Draughts::zx81_1k(), fen));
    let r = ask(e.as_mut(), &Game::initial(Draughts::zx81_1k()));
    assert_eq!(r.played, Played::Move("12-16".parse().unwrap()));
}

#[test]
fn a_king_home_on_the_top_row_never_moves_again() {
    for n in 1..=4 {
        let fen = format!("B:W30:BK{n}");
        let mut e = engine(1);
        let english = game_at(Draughts::english(), &fen);
        assert_eq!(ask(e.as_mut(), &english).played, Played::DeadEnd, "{fen}");
        // English checkers would let it come back down; the house rules not.
        assert!(!english.legal_moves().is_empty());
        assert!(game_at(Draughts::zx81_1k(), &fen).legal_moves().is_empty());
    }
}

#[test]
fn a_crowned_piece_moves_backward_in_both_colours() {
    // Black: 27-32 is crowned; White 5-1 is crowned; the king on 32 then
    // goes back up, 32-28 (the last safe step: -10 to 27, then -8 to 28).
    let script = [("B:W5:B27", "27-32", "5-1", "32-28")];
    for (fen, first, reply, back) in script {
        for flip in [false, true] {
            let rules = Draughts::zx81_1k();
            let mut root = rules.parse_position(fen).unwrap();
            let wire = |w: &str| {
                let m: PdnMove = w.parse().unwrap();
                if flip { mirrored_wire(&m) } else { m }
            };
            if flip {
                root = mirrored(&root);
            }
            let mut game = Game::new(rules, root);
            let mut e = engine(1);
            let r = ask(e.as_mut(), &game);
            assert_eq!(r.played, Played::Move(wire(first)), "flip {flip}");
            assert!(matches!(game.play_wire(&wire(first)), Verdict::Legal(_)));
            let crowned = wire(first).to();
            assert!(game.position().kings() & crowned.bit() != 0);
            let screen = e.screen().unwrap();
            assert_eq!(screen.row_text(7), "▒ ▒ ▒ b", "the routine's inverse B");
            assert!(matches!(game.play_wire(&wire(reply)), Verdict::Legal(_)));
            let r = ask(e.as_mut(), &game);
            assert_eq!(r.played, Played::Move(wire(back)), "flip {flip}");
            // Backward for its side, legal under both rule sets.
            assert!(matches!(game.play_wire(&wire(back)), Verdict::Legal(_)));
            let english = Draughts::english();
            let mut g = Game::new(english, *game.root());
            g.play_wire(&wire(first));
            g.play_wire(&wire(reply));
            assert!(matches!(g.play_wire(&wire(back)), Verdict::Legal(_)));
        }
    }
}

#[test]
fn a_king_captures_backward_only() {
    // A black king on 18 with white men on 14 (behind: up-left) and 22
    // (ahead: down-left): it takes 14, never 22.
    let game = game_at(Draughts::zx81_1k(), "B:W14,22:BK18");
    let r = ask(engine(1).as_mut(), &game);
    assert_eq!(r.played, Played::Move("18x9".parse().unwrap()));
    // Under English rules 18x25 was as good; 18x9 is legal there too.
    let english = game_at(Draughts::english(), "B:W14,22:BK18");
    assert!(matches!(
        english
            .rules()
            .judge(english.position(), &"18x9".parse().unwrap()),
        Verdict::Legal(_)
    ));
}

#[test]
fn same_seed_same_game_and_the_seed_changes_nothing() {
    let (mut a, mut b, mut c) = (Tally::default(), Tally::default(), Tally::default());
    random_game(Draughts::english(), Color::White, 5, &mut a);
    random_game(Draughts::english(), Color::White, 5, &mut b);
    assert_eq!(a.replies, b.replies);
    assert!(!a.replies.is_empty());
    // Another machine seed moves FRAMES, which the routine never reads: the
    // same position gets the same reply in the same time.
    let mut one = Draughts1K::new(&EngineOptions::default()).unwrap();
    let mut two = Draughts1K::new(&EngineOptions {
        seed: 99,
        ..EngineOptions::default()
    })
    .unwrap();
    assert_ne!(one.machine().frames(), two.machine().frames());
    let mut rng = SplitMix64::new(3);
    let mut game = Game::initial(Draughts::zx81_1k());
    while game.ending().is_none() {
        let (x, y) = (
            one.play(&game, u64::MAX).unwrap(),
            two.play(&game, u64::MAX).unwrap(),
        );
        assert_eq!(x, y);
        let legal = game.legal_moves();
        game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize]);
        c.engine_moves += 1;
    }
    assert!(c.engine_moves > 10);
}

#[test]
fn a_budget_too_small_is_a_hang_and_the_next_move_is_sound() {
    let mut e = engine(1);
    let game = Game::initial(Draughts::english());
    let r = e.play(&game, 1_000).unwrap();
    assert!(matches!(r.played, Played::Hung(_)), "{:?}", r.played);
    assert_eq!(
        ask(e.as_mut(), &game).played,
        Played::Move("12-16".parse().unwrap())
    );
}

// ---------------------------------------------------------------------------
// The binary.

use common::retrochess as run;

#[test]
fn screen_shows_the_board_as_the_seed_draws_it() {
    let (ok, out, err) = run(&["screen", "--engine", "draughts-1k"], "");
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 24, "{out}");
    // The seed draws the empty square 0x08 as █; the ZX81 shows it as the
    // grey chequer ▒. Light squares are blanks, trimmed at the line's end.
    let picture =
        std::fs::read_to_string(common::repo("tests/fixtures/draughts-1k/board.txt")).unwrap();
    let want: Vec<String> = picture
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.replace('█', "▒").trim_end().to_string())
        .collect();
    assert_eq!(want.len(), 8);
    assert_eq!(&lines[..8], &want[..]);
    assert!(lines[8..].iter().all(|l| l.is_empty()), "{out}");
}

#[test]
fn play_refuses_an_illegal_move_with_its_reason_and_takes_a_legal_one() {
    // Draughts 1K (Black) opens 12-16; 23-19 offers a man, taken 16x23;
    // then English rules make White capture back.
    let (ok, out, err) = run(
        &["play", "--engine", "draughts-1k"],
        "23-19\n21-17\n27x18\nhello\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("You play White against Draughts 1K"), "{out}");
    assert!(out.contains("Draughts 1K plays 12-16 ("), "{out}");
    assert!(out.contains("Draughts 1K plays 16x23 ("), "{out}");
    assert!(
        out.contains("Illegal move 21-17: a capture is available: 26x19."),
        "{out}"
    );
    assert_eq!(out.matches("Draughts 1K plays").count(), 3, "{out}");
    assert!(out.contains("Cannot read \"hello\" ('hello' is not a square number)"));
    // The last screen: 27x18 took the man on 23, then 11-16 (the oracle's).
    assert!(out.lines().any(|l| l == "3B B ▒ ▒"), "{out}");
    assert!(out.lines().any(|l| l == "5▒ W ▒ ▒"), "{out}");
    assert!(out.lines().any(|l| l == "7W W ▒ W"), "{out}");
}

#[test]
fn play_under_the_house_rules_leaves_captures_optional() {
    let (ok, out, err) = run(
        &["play", "--engine", "draughts-1k", "--rules", "zx81-1k"],
        "23-19\n21-17\n",
    );
    assert!(ok, "{err}");
    assert!(!out.contains("Illegal move"), "{out}");
    assert_eq!(out.matches("Draughts 1K plays").count(), 3, "{out}");
    let (ok, out, err) = run(
        &["play", "--engine", "draughts-1k", "--color", "black"],
        "11-15\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("You play Black"), "{out}");
    // Black opens; as White the routine sees the board turned round.
    assert!(out.contains("Draughts 1K plays 21-17 ("), "{out}");
}

#[test]
fn play_refuses_rules_it_does_not_know_or_cannot_use() {
    let (ok, _, err) = run(
        &["play", "--engine", "draughts-1k", "--rules", "polish"],
        "",
    );
    assert!(!ok);
    assert!(err.contains("unknown draughts rules 'polish'"), "{err}");
    let (ok, _, err) = run(&["play", "--rules", "english"], "");
    assert!(!ok);
    assert!(err.contains("1k-zx-chess plays chess"), "{err}");
}
