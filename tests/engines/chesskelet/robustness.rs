//! ChesSkelet over long games: the program's stack leak (about 30 bytes per
//! move pair, tapes/CHESSKELET.md), what the machine does when it reaches
//! the ROM's channel area, how the driver re-syncs before that, long games
//! through the `Engine<ChessRules>` trait against a seeded random mover, and the
//! dead end (no candidate move).

use crate::common;
use common::PlayMoves;

use retrochess::engines::Hang;
use retrochess::engines::chesskelet::{
    BUILDS, CYCLE_STACK, ChesSkelet, STACK_FLOOR, Session, square_keys,
};
use retrochess::engines::{Engine, EngineOptions, InputPath, Played};
use retrochess::machine::{Fault, Stop};
use retrochess::rng::SplitMix64;
use retrochess::rules::HangKind;
use retrochess::rules::chess::{ChessVerdict, judge, judge_astray};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

const BUDGET: u64 = 50_000_000;

/// The person's move at the program's prompt: a random candidate of its own
/// list (the person's list is generated at `befmov`) that does not take the
/// king; without one, `s` (full build) or a move of an empty square onto
/// itself (the minimal build accepts anything; it changes nothing).
fn person_keys(s: &Session, rng: &mut SplitMix64) -> String {
    let n = u16::from(s.zx.peek(0x8300) / 2);
    let ok: Vec<(u8, u8)> = (0..n)
        .map(|k| (s.zx.peek(0x8302 + 2 * k), s.zx.peek(0x8303 + 2 * k)))
        .filter(|&(_, t)| s.zx.peek(0x8000 + u16::from(t)) & 0x1F != 22)
        .collect();
    if ok.is_empty() {
        if s.build.features {
            return "s".into();
        }
        let e = (0..0x78u8)
            .find(|&q| q & 8 == 0 && s.zx.peek(0x8000 + u16::from(q)) == 0)
            .unwrap();
        return format!("{}{}", square_keys(e), square_keys(e));
    }
    let (f, t) = ok[(rng.next_u64() % ok.len() as u64) as usize];
    format!("{}{}", square_keys(f), square_keys(t))
}

/// Left alone, the program runs its stack down 30 bytes per move pair until
/// it overwrites the ROM's channel area; its next print then goes astray on
/// a real Spectrum, and the machine stops with a fault (not a hang).
#[test]
fn the_stack_leak_ends_in_a_fault_at_the_channel_area() {
    for build in &BUILDS {
        let mut s = Session::boot(build, build.tape).unwrap();
        let home = s.zx.sp();
        let mut rng = SplitMix64::new(11);
        let mut last_sp = home;
        let mut cycles = 0;
        let stop = loop {
            let keys = person_keys(&s, &mut rng);
            s.type_keys(&keys).unwrap();
            let stop = s.finish(BUDGET);
            cycles += 1;
            if stop != Stop::WaitingForKey {
                break stop;
            }
            let sp = s.zx.sp();
            // A typed pair leaks 30 bytes, an `s` (one computer move) 14.
            let leak = last_sp - sp;
            assert!(leak == 30 || (keys == "s" && leak == 14), "{keys}: {leak}");
            last_sp = sp;
            assert!(cycles < 2000, "{}: no fault", build.info.id);
        };
        assert_eq!(
            stop,
            Stop::Fault(Fault::RomCall { pc: 0x0010 }),
            "{}",
            build.info.id
        );
        // The cycle that faulted started within CYCLE_STACK bytes of PROG
        // (the driver re-syncs before that), and not far within.
        assert!(last_sp < STACK_FLOOR + CYCLE_STACK, "{last_sp:04X}");
        assert!(last_sp >= STACK_FLOOR + 200, "{last_sp:04X}");
        println!(
            "{}: fault after {cycles} cycles, stack from 0x{home:04X} to 0x{last_sp:04X}",
            build.info.id
        );
    }
}

/// The driver does not let a game reach that point: when the stack is
/// within one cycle of the channel area it reloads the program and injects
/// the position (with the previous one for the attack board).
#[test]
fn the_driver_reloads_before_the_stack_reaches_the_channel_area() {
    for build in &BUILDS {
        let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
        let mut pos = Chess::default();
        let mut moves: Vec<Move> = Vec::new();
        for w in ["e2e3", "d2d3"] {
            let m = w.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos = pos.play(m).unwrap();
            moves.push(m);
            let r = e.play_moves(&Chess::default(), &moves, BUDGET).unwrap();
            assert!(matches!(r.path, InputPath::Typed(_)), "{:?}", r.path);
            let Played::Move(uci) = r.played else {
                panic!("{:?}", r.played)
            };
            let m = uci.to_move(&pos).unwrap();
            pos = pos.play(m).unwrap();
            moves.push(m);
        }
        // As after some 245 move pairs: only the stack pointer differs, the
        // leaked bytes above it are never read again.
        let low = STACK_FLOOR + 250;
        let pc = e.session().zx.pc();
        e.session().zx.jump(pc, low);
        // The raw program from this state crashes within the cycle...
        let mut raw = Session::boot(build, build.tape).unwrap();
        let pc = raw.zx.pc();
        raw.zx.jump(pc, low);
        raw.type_keys("e2e4").unwrap();
        assert_eq!(
            raw.finish(BUDGET),
            Stop::Fault(Fault::RomCall { pc: 0x0010 })
        );
        // ...the driver re-syncs and the program answers.
        let m = pos.legal_moves()[0];
        moves.push(m);
        let r = e.play_moves(&Chess::default(), &moves, BUDGET).unwrap();
        let InputPath::Injected(why) = &r.path else {
            panic!("{:?}", r.path)
        };
        assert!(why.contains("stack"), "{why}");
        assert!(matches!(r.played, Played::Move(_)), "{:?}", r.played);
        assert!(e.session().zx.sp() > 0x7A00);
    }
}

/// Long games through the trait: ChesSkelet against a seeded random mover,
/// both builds, both colours, at least 150 plies each. When the program's
/// move is illegal (it does not know about check) the arbiter would end a
/// real game; here a random legal move is played for it instead and the
/// game goes on, so the driver has to re-sync by injection. Every reply
/// must be a move read off the screen or a dead end, never a hang, a fault
/// or an error.
#[test]
fn long_games_against_a_random_mover() {
    for build in &BUILDS {
        for (seed, colour) in [(1u64, Color::Black), (2, Color::White)] {
            let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
            let mut rng = SplitMix64::new(seed);
            let (mut pos, mut moves) = (Chess::default(), Vec::<Move>::new());
            let (mut plies, mut games, mut typed, mut replaced, mut dead) = (0, 0, 0, 0, 0);
            while plies < 150 {
                if pos.is_game_over() || moves.len() >= 400 {
                    // Next game (counting on).
                    games += 1;
                    e.new_game().unwrap();
                    pos = Chess::default();
                    moves.clear();
                    continue;
                }
                let legal = pos.legal_moves();
                let random = legal[(rng.next_u64() % legal.len() as u64) as usize];
                let m = if pos.turn() == colour {
                    let r = e
                        .play_moves(&Chess::default(), &moves, BUDGET)
                        .unwrap_or_else(|err| {
                            panic!("{} ply {}: {err}", build.info.id, moves.len())
                        });
                    if matches!(r.path, InputPath::Typed(_)) {
                        typed += 1;
                    }
                    match r.played {
                        Played::Move(uci) => match judge(&pos, &uci) {
                            ChessVerdict::Legal(m) => m,
                            ChessVerdict::Illegal(..) => {
                                replaced += 1;
                                random
                            }
                        },
                        // Its board went astray (the long-castling test):
                        // the arbiter reads it; flagged, replaced.
                        Played::Astray(a) => match judge_astray(&pos, &a) {
                            ChessVerdict::Legal(m) => m,
                            ChessVerdict::Illegal(..) => {
                                replaced += 1;
                                random
                            }
                        },
                        Played::DeadEnd => {
                            dead += 1;
                            random
                        }
                        Played::Hung(stop) => {
                            panic!("{} ply {}: {stop}", build.info.id, moves.len())
                        }
                    }
                } else {
                    random
                };
                pos = pos.play(m).unwrap();
                moves.push(m);
                plies += 1;
            }
            println!(
                "{} as {colour:?}: {plies} plies in {} games, {typed} replies typed, \
                 {replaced} illegal replies replaced, {dead} dead ends",
                build.info.id,
                games + 1
            );
            assert!(typed > 20, "{typed}");
        }
    }
}

/// 240 move pairs (480 plies) typed into one machine, far longer than GUI
/// games: the stack is still above the point where the driver re-syncs.
#[test]
fn the_stack_holds_for_240_move_pairs() {
    // The minimal build accepts every typed move, so the opponent can play
    // the program's own candidates (pseudo-legal, as in its world) and the
    // game continues on the machine for 250 pairs.
    let build = &BUILDS[1];
    let mut s = Session::boot(build, build.tape).unwrap();
    let mut rng = SplitMix64::new(5);
    let mut min_sp = u16::MAX;
    for _ in 0..240 {
        let keys = person_keys(&s, &mut rng);
        s.type_keys(&keys).unwrap();
        assert_eq!(s.finish(BUDGET), Stop::WaitingForKey);
        min_sp = min_sp.min(s.zx.sp());
    }
    // 240 pairs: 7200 bytes of stack gone, still above the floor + cycle.
    assert!(min_sp >= STACK_FLOOR + CYCLE_STACK, "{min_sp:04X}");
}

/// No candidate at all: ChesSkelet never scans square 0 of its own view
/// (the `djnz` stops at 1), so a lone king on h1 (Black) or a8 (White) has
/// no move for it — in checkmate, stalemate, or with legal moves left. The
/// driver reports a dead end; the program itself would score 128 stale
/// list entries (`dec b` from 0 wraps) and make whichever wins.
#[test]
fn dead_ends_are_reported() {
    let fens = [
        ("8/8/8/8/8/5K2/6Q1/7k b - - 0 1", "checkmate"),
        ("8/8/8/8/8/6K1/5Q2/7k b - - 0 1", "stalemate"),
        ("8/8/8/8/8/8/8/4K2k b - - 0 1", "legal moves left"),
        ("K7/8/8/8/8/8/8/4k3 w - - 0 1", "legal moves left, White"),
    ];
    for build in &BUILDS {
        for (fen, what) in fens {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
            let r = e.play_moves(&pos, &[], BUDGET).unwrap();
            assert_eq!(r.played, Played::DeadEnd, "{} {what}", build.info.id);
            assert_eq!(r.nodes, 0);
            // What the program does with an empty list.
            let mut s = Session::boot(build, build.tape).unwrap();
            s.inject(None, &pos);
            s.zx.watch(&[build.hooks.evaexi]);
            let c = s.run_to_choice(BUDGET).unwrap();
            assert_eq!(c.candidates, 0);
            assert_eq!(s.zx.hits(0), 128, "{} {what}", build.info.id);
        }
        // After a dead end the engine still plays the next position.
        let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
        let pos: Chess = "8/8/8/8/8/8/8/4K2k b - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(
            e.play_moves(&pos, &[], BUDGET).unwrap().played,
            Played::DeadEnd
        );
        let r = e.play_moves(&Chess::default(), &[], BUDGET).unwrap();
        assert!(matches!(r.played, Played::Move(_)));
    }
}

/// A program that never comes back is a hang, distinct from a fault: with a
/// budget too small for one move generation the driver says so.
#[test]
fn an_exhausted_budget_is_a_hang_not_a_fault() {
    for build in &BUILDS {
        let mut e = ChesSkelet::new(build, EngineOptions::default()).unwrap();
        let m = "e2e4"
            .parse::<UciMove>()
            .unwrap()
            .to_move(&Chess::default())
            .unwrap();
        let r = e.play_moves(&Chess::default(), &[m], 1_000).unwrap();
        assert!(
            matches!(
                r.played,
                Played::Hung(Hang {
                    kind: HangKind::Budget,
                    ..
                })
            ),
            "{:?}",
            r.played
        );
        // And the engine recovers on the next request.
        let r = e.play_moves(&Chess::default(), &[m], BUDGET).unwrap();
        assert!(matches!(r.played, Played::Move(_)), "{:?}", r.played);
    }
}
