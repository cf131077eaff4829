//! 1K ZX Chess on the emulated ZX81, driven through its keyboard and screen.

use crate::common;
use common::PlayMoves;

use common::{fen, random_move, temp_file};
use retrochess::rules::chess::judge;
use retrochess::rules::{HangKind, Verdict};

type Game = retrochess::rules::Game<ChessRules>;
use retrochess::engines::onek::{self, OneKZxChess};
use retrochess::engines::{Engine, EngineError, EngineOptions, InputPath, Played};
use retrochess::rng::SplitMix64;
use retrochess::rules::chess::ChessRules;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

const BUDGET: u64 = 2_000_000_000;

fn engine(seed: u64) -> Box<dyn Engine<ChessRules>> {
    common::chess_engine(
        "1k-zx-chess",
        &EngineOptions {
            seed,
            ..EngineOptions::default()
        },
    )
    .unwrap()
}

/// Plays the engine (as `engine_side`) against a seeded random mover from
/// the initial position for `plies` plies, or to the end. Returns the game's
/// moves, the engine's replies' input paths, and every illegal engine move
/// with the arbiter's reason.
fn play_game(
    e: &mut dyn Engine<ChessRules>,
    engine_side: Color,
    seed: u64,
    plies: usize,
) -> (Vec<Move>, Vec<InputPath>, Vec<String>) {
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(ChessRules, Chess::default());
    let (mut paths, mut flagged) = (Vec::new(), Vec::new());
    while game.moves().len() < plies && game.ending().is_none() {
        let pos = game.position().clone();
        if pos.turn() != engine_side {
            game.push(random_move(&pos, &mut rng));
            continue;
        }
        let reply = e.play_moves(game.root(), game.moves(), BUDGET).unwrap();
        paths.push(reply.path.clone());
        let Played::Move(uci) = reply.played else {
            panic!(
                "engine stopped in {}: {:?}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal),
                reply.played
            );
        };
        match judge(&pos, &uci) {
            Verdict::Legal(m) => game.push(m),
            Verdict::Illegal(u, why) => {
                flagged.push(format!("{u}: {why}"));
                break;
            }
        }
    }
    (game.moves().to_vec(), paths, flagged)
}

#[test]
fn first_move_comes_from_the_tape_for_both_variants() {
    for (id, first) in [("1k-zx-chess", "d2d3"), ("1k-zx-chess-kp", "e2e3")] {
        let mut e = common::chess_engine(id, &EngineOptions::default()).unwrap();
        let r = e.play_moves(&Chess::default(), &[], BUDGET).unwrap();
        assert_eq!(r.played, Played::Move(first.parse().unwrap()), "{id}");
        assert_eq!(r.path, InputPath::Tape);
        assert_eq!(r.tstates, 0, "nothing was computed");
        // The screen shows that move already made.
        let screen = e.screen().unwrap();
        let text = screen.render(retrochess::machine::ScreenStyle::Plain);
        let rank3: String = text.lines().nth(7).unwrap().chars().collect();
        let file_col = if first.starts_with('d') { 2 + 4 } else { 2 + 3 };
        assert_eq!(rank3.chars().nth(file_col), Some('P'), "{id}: {rank3}");
    }
}

#[test]
fn think_first_move_option_runs_the_search() {
    let options = EngineOptions::default().with(onek::OPENING, "think");
    let mut e = common::chess_engine("1k-zx-chess", &options).unwrap();
    let r = e.play_moves(&Chess::default(), &[], BUDGET).unwrap();
    assert!(matches!(r.path, InputPath::Injected(_)), "{:?}", r.path);
    assert!(
        r.tstates > 1_000_000 && r.nodes >= 20,
        "{} T, {} nodes",
        r.tstates,
        r.nodes
    );
    let Played::Move(uci) = r.played else {
        panic!("{:?}", r.played)
    };
    assert!(matches!(judge(&Chess::default(), &uci), Verdict::Legal(_)));
}

#[test]
fn a_full_game_as_white_is_typed_and_judged() {
    let mut e = engine(11);
    let (moves, paths, flagged) = play_game(e.as_mut(), Color::White, 99, 60);
    assert!(flagged.is_empty(), "illegal engine moves: {flagged:?}");
    assert!(moves.len() >= 40, "game too short: {} plies", moves.len());
    assert_eq!(paths[0], InputPath::Tape);
    let typed = paths
        .iter()
        .filter(|p| matches!(p, InputPath::Typed(_)))
        .count();
    assert!(
        typed * 10 >= paths.len() * 8,
        "most replies typed: {typed} of {}: {paths:?}",
        paths.len()
    );
}

#[test]
fn a_full_game_as_black_mirrors_the_board() {
    let mut e = engine(5);
    let (moves, paths, flagged) = play_game(e.as_mut(), Color::Black, 17, 50);
    assert!(flagged.is_empty(), "illegal engine moves: {flagged:?}");
    assert!(moves.len() >= 40, "game too short: {} plies", moves.len());
    assert!(
        matches!(paths[0], InputPath::Injected(_)),
        "first Black reply needs a mirrored board"
    );
    assert!(
        paths[1..].iter().any(|p| matches!(p, InputPath::Typed(_))),
        "{paths:?}"
    );
}

#[test]
fn mirrored_positions_give_mirrored_moves_at_the_same_cost() {
    for (white, black, expected) in [
        (
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
            "b7a8q",
        ),
        (
            "6k1/5ppp/8/8/8/8/5PPP/3rR1K1 w - - 0 1",
            "3Rr1k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
            "e1d1",
        ),
    ] {
        let w = engine(3).play_moves(&fen(white), &[], BUDGET).unwrap();
        let b = engine(3).play_moves(&fen(black), &[], BUDGET).unwrap();
        assert_eq!(w.played, Played::Move(expected.parse().unwrap()), "{white}");
        let Played::Move(UciMove::Normal {
            from,
            to,
            promotion,
        }) = w.played
        else {
            unreachable!()
        };
        let mirrored = UciMove::Normal {
            from: from.flip_vertical(),
            to: to.flip_vertical(),
            promotion,
        };
        assert_eq!(b.played, Played::Move(mirrored), "{black}");
        assert_eq!((w.tstates, w.nodes, w.score), (b.tstates, b.nodes, b.score));
    }
}

/// Injected positions: every reply legal; where the program's scoring makes
/// the answer certain (a forced move, a free queen, a capture-promotion), that
/// answer.
#[test]
fn injected_positions() {
    let table: &[(&str, Option<&str>, &str)] = &[
        // Free queen: the knight takes it.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/3qP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4",
            Some("f3d4"),
            "capture",
        ),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2",
            Some("e5d4"),
            "capture, Black",
        ),
        // In check, one way out: Kf1.
        (
            "2kr4/8/8/8/8/8/3q4/4K3 w - - 0 1",
            Some("e1f1"),
            "check, forced",
        ),
        ("4k3/3Q4/8/8/8/8/8/3RK3 b - - 0 1", None, "in check, Black"),
        (
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            Some("b7a8q"),
            "capture-promotion",
        ),
        (
            "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
            Some("b2a1q"),
            "capture-promotion, Black",
        ),
        (
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            None,
            "promotion available",
        ),
        (
            "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 3",
            None,
            "en passant available (unknown to it)",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            None,
            "castling rights (ignored)",
        ),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            None,
            "mate in one on the board",
        ),
        (
            "4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 b - - 0 1",
            Some("e8e1"),
            "rook trade with check, Black",
        ),
        (
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
            None,
            "opening, White",
        ),
        (
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 5 4",
            None,
            "opening, Black",
        ),
        (
            "8/8/8/4k3/8/8/4K3/7Q w - - 50 60",
            None,
            "promoted piece, endgame",
        ),
        (
            "6k1/8/6K1/8/8/8/8/1R6 b - - 0 1",
            None,
            "Black king alone, in no check",
        ),
    ];
    for (f, expected, what) in table {
        let pos = fen(f);
        let r = engine(2).play_moves(&pos, &[], BUDGET).unwrap();
        assert!(
            matches!(r.path, InputPath::Injected(_)),
            "{what}: {:?}",
            r.path
        );
        let Played::Move(uci) = &r.played else {
            panic!("{what}: {:?}", r.played)
        };
        assert!(
            matches!(judge(&pos, uci), Verdict::Legal(_)),
            "{what}: {uci} illegal"
        );
        if let Some(e) = expected {
            assert_eq!(uci.to_string(), *e, "{what}");
        }
        assert!(
            r.score.is_some() && r.nodes > 0 && r.tstates > 0,
            "{what}: {r:?}"
        );
    }
}

#[test]
fn no_move_is_the_programs_dead_end() {
    for (f, what) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmated"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemated"),
        ("K7/8/1q6/8/8/8/8/7k w - - 0 1", "stalemated, White"),
    ] {
        let r = engine(1).play_moves(&fen(f), &[], BUDGET).unwrap();
        assert_eq!(r.played, Played::DeadEnd, "{what}");
        assert_eq!(r.score, None);
    }
}

#[test]
fn castling_by_the_opponent_is_injected_with_the_reason() {
    let mut e = engine(4);
    let root = Chess::default();
    let mut game = Game::new(ChessRules, root.clone());
    // The engine (White) opens d2d3 from the tape; Black replies.
    let play = |game: &mut Game, e: &mut Box<dyn Engine<ChessRules>>| {
        let r = e.play_moves(game.root(), game.moves(), BUDGET).unwrap();
        let Played::Move(uci) = r.played else {
            panic!()
        };
        assert!(matches!(game.play_wire(&uci), Verdict::Legal(_)));
        r.path
    };
    play(&mut game, &mut e);
    for black in ["g8f6", "g7g6", "f8g7"] {
        game.play_wire(&black.parse().unwrap());
        let path = play(&mut game, &mut e);
        assert!(matches!(path, InputPath::Typed(_)), "{black}: {path:?}");
    }
    if let Verdict::Legal(_) = game.play_wire(&"e8g8".parse().unwrap()) {
        let path = play(&mut game, &mut e);
        assert_eq!(
            path,
            InputPath::Injected("castling is unknown to the program".into())
        );
        // And the next ordinary move is typed again.
        let m = game
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| !m.is_castle() && !m.is_en_passant() && m.promotion().is_none())
            .unwrap();
        game.push(m);
        assert!(matches!(play(&mut game, &mut e), InputPath::Typed(_)));
    } else {
        panic!(
            "castling was not legal in the test game: {:?}",
            game.moves()
        );
    }
}

#[test]
fn same_seed_same_game_and_seeds_matter() {
    let game_of = |seed| {
        let mut e = engine(seed);
        play_game(e.as_mut(), Color::White, 1234, 30).0
    };
    assert_eq!(game_of(8), game_of(8));
    let games: std::collections::HashSet<Vec<Move>> = (0..6).map(game_of).collect();
    assert!(
        games.len() > 1,
        "FRAMES bit 0 breaks ties, so seeds change games"
    );
}

#[test]
fn frames_mode_fast_freezes_the_tie_breaker() {
    let opts = |seed| {
        EngineOptions {
            seed,
            ..EngineOptions::default()
        }
        .with(onek::FRAMES, "fast")
    };
    let mut e = OneKZxChess::new(&onek::VARIANTS[0], opts(1)).unwrap();
    let before = e.machine().frames();
    e.play_moves(
        &fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3"),
        &[],
        BUDGET,
    )
    .unwrap();
    assert_eq!(e.machine().frames(), before, "FAST: no frame counting");
    let mut s = OneKZxChess::new(&onek::VARIANTS[0], EngineOptions::default()).unwrap();
    let before = s.machine().frames();
    let r = s
        .play_moves(
            &fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3"),
            &[],
            BUDGET,
        )
        .unwrap();
    let moved = before.wrapping_sub(s.machine().frames()) & 0x7FFF;
    // The search's frames plus the seeded "person thinking" (100..400 frames).
    let search = r.tstates / retrochess::machine::zx81::USER_TSTATES_PER_FRAME;
    assert!(
        moved as u64 >= search + 100 && (moved as u64) <= search + 401,
        "{moved} vs {search}"
    );
}

#[test]
fn a_tape_patched_to_loop_hangs_and_the_watchdog_says_so() {
    let mut tape = onek::TAPE.to_vec();
    // SCORE (0x4202) replaced by `inc a; jr -3`: busy forever, never waits.
    let at = (0x4202 - 0x4009) as usize;
    tape[at..at + 3].copy_from_slice(&[0x3C, 0x18, 0xFD]);
    let path = temp_file("looping.p", &tape);
    let options = EngineOptions {
        tape: Some(path),
        budget: 5_000_000,
        ..EngineOptions::default()
    };
    let mut e = common::chess_engine("1k-zx-chess", &options).unwrap();
    let r = e
        .play_moves(&fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &[], BUDGET)
        .unwrap();
    match r.played {
        Played::Hung(hang) if hang.kind == HangKind::Budget => {
            // The hang names the emulated program counter where it stopped.
            let pc = hang
                .detail
                .rsplit("PC 0x")
                .next()
                .and_then(|h| u16::from_str_radix(h.trim(), 16).ok())
                .unwrap_or_else(|| panic!("no PC in {hang}"));
            assert!((0x4202..=0x4204).contains(&pc), "{pc:04X}")
        }
        other => panic!("{other:?}"),
    }
    // The driver recovers: a fresh position is injected again.
    let r = e
        .play_moves(&fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &[], BUDGET)
        .unwrap();
    assert!(matches!(r.played, Played::Hung(_)));
}

#[test]
fn bad_tapes_are_refused_clearly() {
    let load = |bytes: &[u8]| {
        let path = temp_file("bad.p", bytes);
        let options = EngineOptions {
            tape: Some(path),
            ..EngineOptions::default()
        };
        common::chess_engine("1k-zx-chess", &options)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let truncated = load(&onek::TAPE[..812]);
    assert!(
        truncated.contains("812 bytes") && truncated.contains("941"),
        "{truncated}"
    );
    let mut other = onek::TAPE.to_vec();
    other[(0x428F - 0x4009) as usize] = 0x00;
    assert_eq!(
        load(&other),
        "bad tape: not 1K ZX Chess: 0x428F holds 0x00, expected 0xAF"
    );
    let options = EngineOptions {
        tape: Some("/nonexistent/tape.p".into()),
        ..EngineOptions::default()
    };
    let err = common::chess_engine("1k-zx-chess", &options).err().unwrap();
    assert!(
        matches!(err, EngineError::Machine(_)) && err.to_string().contains("/nonexistent/tape.p")
    );
    assert!(matches!(
        common::chess_engine("nope", &EngineOptions::default()),
        Err(EngineError::Unknown { .. })
    ));
}
