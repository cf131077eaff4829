//! The ChesSkelet driver: boot screen, both colours, injected positions that
//! reproduce the program's state, and the tapes' reproducibility.

use crate::common;
use common::PlayMoves;

use retrochess::engines::chesskelet::{BUILDS, ChesSkelet, Session, real_square};
use retrochess::engines::{Engine, EngineOptions, InputPath, Played};
use retrochess::machine::Stop;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

const BUDGET: u64 = 50_000_000;

#[test]
fn boot_screen_is_the_board_with_coordinates() {
    for build in &BUILDS {
        let s = Session::boot(build, build.tape).unwrap();
        let screen = s.zx.screen();
        let rows: Vec<String> = (0..11).map(|r| screen.row_text(r)).collect();
        assert_eq!(
            rows,
            [
                "rnbqkbnr 8",
                "pppppppp 7",
                "         6",
                "         5",
                "         4",
                "         3",
                "PPPPPPPP 2",
                "RNBQKBNR 1",
                "",
                "abcdefgh",
                "?"
            ],
            "{}",
            build.info.id
        );
        // Checkered by BRIGHT: C=0x21 after CLS makes a8 bright.
        assert!(s.zx.bright(0, 0) && !s.zx.bright(0, 1) && !s.zx.bright(1, 0) && s.zx.bright(1, 1));
        // The input string page and E=0: nothing typed yet.
        assert_eq!(s.zx.peek(0x7D01), 0);
    }
}

#[test]
fn a_typed_move_is_echoed_and_answered() {
    let build = &BUILDS[1];
    let mut s = Session::boot(build, build.tape).unwrap();
    s.type_keys("e2e4").unwrap();
    let choice = s.run_to_choice(BUDGET).unwrap();
    assert_eq!(s.zx.screen().row_text(10), "?e2e4");
    assert_eq!(s.zx.peek(0x7D01), b'e');
    assert_eq!(s.zx.peek(0x7D04), b'4');
    // The minimal build has no two-square step: 8 single pawn pushes and
    // 4 knight moves.
    assert_eq!(choice.candidates, 12);
    assert_eq!(s.finish(BUDGET), Stop::WaitingForKey);
    assert_eq!(s.zx.screen().row_text(2), "    p    6");
}

fn play_line(
    engine: &mut ChesSkelet,
    root: &Chess,
    plies: usize,
    engine_color: Color,
) -> Vec<(Move, InputPath)> {
    // The opponent plays the first legal move in shakmaty's order that is
    // not a capture of the king; the engine replies.
    let mut pos = root.clone();
    let mut moves = Vec::new();
    let mut log = Vec::new();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        if pos.turn() == engine_color {
            let reply = engine.play_moves(root, &moves, BUDGET).unwrap();
            let Played::Move(uci) = reply.played else {
                panic!("{:?}", reply.played)
            };
            let Ok(m) = uci.to_move(&pos) else { break };
            assert!(reply.nodes > 0);
            log.push((m, reply.path));
            pos = pos.play(m).unwrap();
            moves.push(m);
        } else {
            let legal = pos.legal_moves();
            let m = legal[legal.len() / 2];
            pos = pos.play(m).unwrap();
            moves.push(m);
        }
    }
    log
}

#[test]
fn plays_black_by_typing() {
    for build in &BUILDS {
        let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
        let log = play_line(&mut e, &Chess::default(), 12, Color::Black);
        assert!(log.len() >= 4, "{}", build.info.id);
        assert!(
            matches!(log[0].1, InputPath::Typed(_)),
            "{}: {:?}",
            build.info.id,
            log[0].1
        );
    }
}

#[test]
fn plays_white_with_its_side_switch_or_by_injection() {
    let mut e = ChesSkelet::new(&BUILDS[0], EngineOptions::default()).unwrap();
    let log = play_line(&mut e, &Chess::default(), 12, Color::White);
    assert!(log.len() >= 4);
    assert_eq!(log[0].1, InputPath::Typed("s".into()));
    // The person then types in the rotated board (Black at the bottom).
    assert!(
        log[1..]
            .iter()
            .any(|(_, p)| matches!(p, InputPath::Typed(_))),
        "{log:?}"
    );
    let mut e = ChesSkelet::new(&BUILDS[1], EngineOptions::default()).unwrap();
    let log = play_line(&mut e, &Chess::default(), 12, Color::White);
    assert!(log.len() >= 4);
    assert!(matches!(log[0].1, InputPath::Injected(_)));
}

/// Positions reached by typing a game, and the same positions injected into
/// a fresh machine (with the game's previous position for the attack
/// board; the published games' build also without it): same
/// opponent-attack board, same candidate count, same choice.
#[test]
fn injection_reproduces_the_typed_state() {
    // The openings of the third and second published games (seed 001).
    let published = common::chesskelet_games();
    let line = |g: usize, pairs: usize| -> Vec<String> {
        let game = &published[g];
        game.white[..pairs]
            .iter()
            .zip(&game.black[..pairs])
            .flat_map(|(w, b)| [w.clone(), b.clone()])
            .collect()
    };
    let games = [line(2, 8), line(1, 7)];
    let (mut checked, mut bare_checked) = (0, 0);
    for build in &BUILDS {
        for game in &games {
            let mut typed = Session::boot(build, build.tape).unwrap();
            let mut pos = Chess::default();
            for pair in game.chunks(2) {
                let before = pos.clone();
                let w: UciMove = pair[0].parse().unwrap();
                let wm = w.to_move(&pos).unwrap();
                pos = pos.play(wm).unwrap();
                typed.type_keys(&pair[0]).unwrap();
                let c1 = typed.run_to_choice(BUDGET).unwrap();
                let attacks1: Vec<u8> = (0..0x78).map(|i| typed.zx.peek(0x8200 + i)).collect();

                let mut injected = Session::boot(build, build.tape).unwrap();
                injected.inject(Some(&before), &pos);
                let c2 = injected.run_to_choice(BUDGET).unwrap();
                let attacks2: Vec<u8> = (0..0x78).map(|i| injected.zx.peek(0x8200 + i)).collect();
                assert_eq!(attacks1, attacks2, "{} after {}", build.info.id, pair[0]);
                assert_eq!(c1, c2, "{} after {}", build.info.id, pair[0]);
                checked += 1;
                // The published games' build reads the attacks of the
                // position itself: a bare FEN is injected exactly too.
                if build.attacks_after_move {
                    let mut bare = Session::boot(build, build.tape).unwrap();
                    bare.inject(None, &pos);
                    let c3 = bare.run_to_choice(BUDGET).unwrap();
                    let attacks3: Vec<u8> = (0..0x78).map(|i| bare.zx.peek(0x8200 + i)).collect();
                    assert_eq!(attacks1, attacks3, "{} after {}", build.info.id, pair[0]);
                    assert_eq!(c1, c3, "{} after {}", build.info.id, pair[0]);
                    bare_checked += 1;
                }

                // Continue the typed game with the published Black move.
                let b: UciMove = pair[1].parse().unwrap();
                let bm = b.to_move(&pos).unwrap();
                typed.impose(
                    retrochess::engines::chesskelet::view_square(bm.from().unwrap(), Color::Black),
                    retrochess::engines::chesskelet::view_square(bm.to(), Color::Black),
                );
                assert_eq!(typed.finish(BUDGET), Stop::WaitingForKey);
                pos = pos.play(bm).unwrap();
                assert_eq!(real_square(0x64, Color::White), Some(shakmaty::Square::E2));
            }
        }
    }
    assert!(checked >= 36, "{checked} positions");
    assert_eq!(bare_checked, checked / 3);
}

/// Arbitrary positions (no history) are injected and answered, for both
/// colours; the reply is read back and is a move of the side to move.
#[test]
fn injected_positions_are_answered() {
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
        "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
        "4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1",
        "8/P7/8/8/8/8/5k2/K7 w - - 0 1",
        "k7/8/8/8/8/8/p4K2/8 b - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1",
        "2r3k1/1q3ppp/8/8/8/8/1Q3PPP/2R3K1 b - - 0 1",
        "7k/8/8/8/8/8/8/K6R b - - 0 1",
    ];
    for build in &BUILDS {
        for fen in fens {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
            let reply = e.play_moves(&pos, &[], BUDGET).unwrap_or_else(|err| {
                panic!(
                    "{}: {fen}: {err}\n{}",
                    build.info.id,
                    e.screen()
                        .unwrap()
                        .render(retrochess::machine::ScreenStyle::Plain)
                )
            });
            assert!(matches!(reply.path, InputPath::Injected(_)), "{fen}");
            // A move, or one whose board the full build's long-castling test
            // also changed (a queen's step up-left in its view, such as
            // Black's Qd5xe4): the move it chose, for the arbiter to read.
            let wire = match &reply.played {
                Played::Move(m) => *m,
                Played::Astray(a) => a.wire,
                other => panic!("{}: {fen}: {other:?}", build.info.id),
            };
            let UciMove::Normal { from, .. } = wire else {
                panic!("{}: {fen}: {wire}", build.info.id)
            };
            let piece = pos.board().piece_at(from).unwrap();
            assert_eq!(piece.color, pos.turn(), "{}: {fen}", build.info.id);
            assert!(reply.tstates > 0 && reply.nodes > 0);
        }
    }
}

#[test]
fn committed_tapes_match_a_fresh_build() {
    common::peer("pasmo");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("sh")
        .arg(format!("{root}/scripts/build-tapes.sh"))
        .arg("--check")
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "scripts/build-tapes.sh --check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Bench: T-states of one reply cycle, CPU only (no key waiting).
#[test]
fn reply_cost_in_tstates() {
    let build = &BUILDS[1];
    let mut s = Session::boot(build, build.tape).unwrap();
    s.zx.watch(&[build.hooks.befmov]);
    s.type_keys("e2e4").unwrap();
    let t0 = s.zx.busy_tstates();
    s.run_to_choice(BUDGET).unwrap();
    let think = s.zx.busy_tstates() - t0;
    assert_eq!(s.finish(BUDGET), Stop::WaitingForKey);
    let cycle = s.zx.busy_tstates() - t0;
    println!("lite: to the choice {think} T, full reply cycle {cycle} T");
    assert!(think < 200_000 && cycle < 1_000_000, "{think} {cycle}");
}

/// The three tapes' lengths and hashes (tapes/README.md), and the published
/// games' build against the minimal build byte for byte: the only changes
/// are those tapes/CHESSKELET.md lists ("ChesSkelet as it played").
#[test]
fn tapes_lengths_hashes_and_the_published_builds_changed_bytes() {
    use retrochess::engines::chesskelet::{TAPE_FULL, TAPE_LITE, TAPE_PUBLISHED};
    use retrochess::machine::spectrum::Spectrum48;
    use sha2::{Digest, Sha256};
    for (tape, hash) in [
        (
            TAPE_FULL,
            "ab8d9614886e22500fc7f79d26cdc24ab8931715613e34f15618e8d209405a1b",
        ),
        (
            TAPE_LITE,
            "695916b83d37ab7dfdc70d561d0472c9d5fcddd0e8aeba0f9d9e59ccf62a9eb5",
        ),
        (
            TAPE_PUBLISHED,
            "9ef66af4cb6786ac6876e8ef00dc3d28c1fa2931be1b7c398ff903c90b322ec6",
        ),
    ] {
        assert_eq!(tape.len(), 1486);
        assert_eq!(format!("{:x}", Sha256::digest(tape)), hash);
    }
    let lite = Spectrum48::load_tap(TAPE_LITE).unwrap();
    let published = Spectrum48::load_tap(TAPE_PUBLISHED).unwrap();
    let (l, p) = (|a: u16| lite.peek(a), |a: u16| published.peek(a));
    // The program up to aftdes's `ld (hl),d`: the same but for befmov's
    // `call genlis` (CD DB 7B -> CD DD 7B), genlis now two bytes higher.
    for a in 0x7B00..0x7BC4 {
        if a == 0x7B06 {
            assert_eq!((l(a), p(a)), (0xDB, 0xDD));
        } else {
            assert_eq!(l(a), p(a), "0x{a:04X}");
        }
    }
    // aftdes: `dec h` (25) becomes `call genlis` (CD DD 7B).
    assert_eq!(l(0x7BC4), 0x25);
    assert_eq!([p(0x7BC4), p(0x7BC5), p(0x7BC6)], [0xCD, 0xDD, 0x7B]);
    // revboa, genlis and legadd (0x7BC5..=0x7C49, 133 bytes) two bytes
    // higher; the two `call legadd` in the cell loop follow legadd
    // (0x7C3E -> 0x7C40).
    for a in 0x7BC5..0x7C4A {
        if a == 0x7C21 || a == 0x7C2A {
            assert_eq!((l(a), p(a + 2)), (0x3E, 0x40), "0x{a:04X}");
        } else {
            assert_eq!(l(a), p(a + 2), "0x{a:04X}");
        }
    }
    assert_eq!([l(0x7C4A), l(0x7C4B)], [0, 0]);
    // The data pages: the same.
    for a in 0x7C4C..0x8078 {
        assert_eq!(l(a), p(a), "0x{a:04X}");
    }
}
