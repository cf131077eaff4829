//! `baker-draughts` on the emulated 16K ZX81: Toni Baker's routines
//! (seed 003, part three) called directly on positions worked by hand from
//! the text's own explanation, the glue's boundary, determinism per seed,
//! games against a seeded random mover judged under `english`, and the
//! evidence for tapes/BAKER.md "Does it crash?".
//!
//! Board codes (tapes/BAKER.md): the computer's man BC, king 3C, the
//! person's man A7, king 27, empty 80. Squares are the program's: the
//! computer on 1..12 moving towards 32, square n at 0x404B + (n−1) +
//! (n−1) div 8, so +4 and +5 are its forward diagonals. What the tests need
//! from the seed lives in `tests/fixtures/baker/` and `tapes/`.

use std::collections::BTreeMap;

use retrochess::engines::baker::{
    self, BakerDraughts, EMPTY, EVALUATE, GAME, HIS_KING, HIS_MAN, KING, KPCHKNG, LBASE, LOAD_AT,
    MAN, NOWT, NXTDIR, SQUAREVAL, TABLE_END, TEST_OFFSET, square_address,
};
use retrochess::engines::{Engine, EngineOptions, Played, Reply};
use retrochess::machine::{Memory, Regs, Resume, Stop};
use retrochess::rng::SplitMix64;
use retrochess::rules::draughts::{Draughts, IllegalDraughtsMove, PdnMove, Position};
use retrochess::rules::{Color, Game, HangKind, Rules, Verdict};

const BUDGET: u64 = 100_000_000;

pub(super) fn repo_file(path: &str) -> Vec<u8> {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn engine(seed: u64) -> BakerDraughts {
    BakerDraughts::new(EngineOptions {
        seed,
        ..EngineOptions::default()
    })
    .expect("the built-in image loads")
}

/// Stops the machine *before* `LD A,(DE)` at NOWT or NXTDIR runs with DE
/// outside TABLE (0x4C97..0x4C9B): the instruction that takes a ROM byte
/// for a direction.
fn break_when_the_table_is_lost(e: &mut BakerDraughts) {
    break_when_de_leaves_table(e, NOWT);
}

/// The same, with SQUAREVAL's NOWT at `nowt` (the mended program's is
/// three bytes lower).
pub(super) fn break_when_de_leaves_table(e: &mut BakerDraughts, nowt: u16) {
    for pc in [nowt, NXTDIR] {
        e.machine()
            .trap(pc, move |regs: &mut Regs, _: &mut dyn Memory| {
                if (LOAD_AT..=TABLE_END).contains(&regs.de) {
                    Resume::Continue { tstates: 0 }
                } else {
                    Resume::Stop(Stop::Breakpoint { pc })
                }
            });
    }
}

/// Writes every program square: `pieces` as given, the rest empty.
fn put(e: &mut BakerDraughts, pieces: &[(u8, u8)]) {
    for n in 1..=32 {
        let code = pieces.iter().find(|p| p.0 == n).map_or(EMPTY, |p| p.1);
        e.machine().poke(square_address(n), code);
    }
}

/// SQUAREVAL at square `n`, called as EVALUATE calls it (only L matters):
/// its value, or the registers where it lost its table.
fn squareval(e: &mut BakerDraughts, n: u8) -> Result<i8, Regs> {
    let sp = e.stack();
    let zx = e.machine();
    let before = Regs {
        bc: 0x1234,
        de: 0x5678,
        hl: square_address(n),
        sp,
        ..zx.regs()
    };
    zx.set_regs(&before);
    match zx.call(SQUAREVAL, BUDGET) {
        Stop::Returned => {
            let after = zx.regs();
            // "must not be allowed to alter the values of any register except A"
            assert_eq!(
                (after.bc, after.de, after.hl, after.sp),
                (before.bc, before.de, before.hl, before.sp)
            );
            Ok(after.a() as i8)
        }
        Stop::Breakpoint { .. } => Err(zx.regs()),
        other => panic!("SQUAREVAL at {n}: {other}"),
    }
}

/// EVALUATE for the piece on square `n`, from an empty list, run until it
/// jumps to KPCHKNG: (priority of the list, its moves as (origin square,
/// direction)).
fn evaluate(e: &mut BakerDraughts, n: u8) -> (u8, Vec<(u8, i8)>) {
    let sp = e.stack();
    let zx = e.machine();
    zx.poke16(LBASE, sp);
    zx.jump(EVALUATE, sp);
    zx.push(0x0000); // the list's header: priority 0, 0 steps
    let regs = Regs {
        bc: 0x0000,
        hl: square_address(n),
        ..zx.regs()
    };
    zx.set_regs(&regs);
    assert_eq!(
        zx.run_to(BUDGET, Some(KPCHKNG)),
        Stop::Breakpoint { pc: KPCHKNG }
    );
    let r = zx.regs();
    let count = r.bc >> 8;
    assert_eq!(zx.peek(r.sp), 1, "steps of each listed move");
    let moves = (0..count)
        .map(|i| {
            let origin = zx.peek(r.sp + 2 + 2 * i);
            let square = baker::square_of_low(origin).expect("a square");
            (square, zx.peek(r.sp + 3 + 2 * i) as i8)
        })
        .collect();
    (zx.peek(r.sp + 1), moves)
}

pub(super) fn position(fen: &str) -> Position {
    Draughts::english().parse_position(fen).expect("a position")
}

pub(super) fn reply(e: &mut BakerDraughts, fen: &str) -> Reply<PdnMove> {
    let game = Game::new(Draughts::english(), position(fen));
    e.play(&game, BUDGET).expect("a reply")
}

pub(super) fn wire(text: &str) -> PdnMove {
    text.parse().unwrap()
}

// --- The interface -------------------------------------------------------

/// A pasmo symbol table of the repository (`NAME EQU 0XXXXH` lines).
pub(super) fn symbols(path: &str) -> BTreeMap<String, u16> {
    String::from_utf8(repo_file(path))
        .unwrap()
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let name = parts.next()?.to_string();
            let value = parts.nth(1)?.trim_end_matches('H');
            Some((name, u16::from_str_radix(value, 16).ok()?))
        })
        .collect()
}

#[test]
fn driver_addresses_are_the_glue_symbol_table_and_the_image_is_the_tape() {
    let sym = symbols("tapes/baker-draughts-16k.sym");
    let ours = [
        ("TABLE", LOAD_AT),
        ("GAME", GAME),
        ("RANDOM", baker::RANDOM),
        ("RESULT", baker::RESULT),
        ("FROM", baker::FROM),
        ("TO", baker::TO),
        ("OVER", baker::OVER),
        ("DIR", baker::DIR),
        ("COUNT", baker::COUNT),
        ("PRIORITY", baker::PRIORITY),
        ("PICK", baker::PICK),
        ("SHOW", baker::SHOW),
        ("KPCHKNG", KPCHKNG),
        ("SQUAREVAL", SQUAREVAL),
        ("EVALUATE", EVALUATE),
        ("BAKER_END", baker::BAKER_END),
        ("FIRSTSQ", baker::FIRST_SQUARE),
        ("INITIAL", baker::INITIAL),
        ("SCANSQR", baker::SCANSQR),
        ("LBASE", LBASE),
    ];
    for (name, value) in ours {
        assert_eq!(sym.get(name), Some(&value), "{name}");
    }
    assert_eq!(TABLE_END, LOAD_AT + 4);
    assert_eq!(baker::IMAGE, &repo_file("tapes/baker-draughts-16k.bin")[..]);
    let layout = String::from_utf8(repo_file("tests/fixtures/baker/layout.txt")).unwrap();
    for line in layout.lines().filter(|l| !l.starts_with('#')) {
        let (n, addr) = line.split_once('|').unwrap();
        let n: u8 = n.parse().unwrap();
        assert_eq!(square_address(n), u16::from_str_radix(addr, 16).unwrap());
    }
}

// --- Toni Baker's routines on the text's own diagrams -------------------

/// "If it is protecting a piece it will subtract five, or seven for a
/// king": 9 stands behind the man (king) on 14, which the person's man on
/// 18 could otherwise jump. Worked by hand: the first pass finds the person's
/// piece at L+2C and the computer's at L+C for C = +5; `LD A,81 / CCF / RLA
/// / RLA` makes 5 for a man, 7 for a king; nothing threatens 9 itself.
#[test]
fn squareval_protecting_is_minus_5_or_7() {
    let mut e = engine(1);
    put(&mut e, &[(9, MAN), (14, MAN), (18, HIS_MAN)]);
    assert_eq!(squareval(&mut e, 9), Ok(-5));
    put(&mut e, &[(9, MAN), (14, KING), (18, HIS_MAN)]);
    assert_eq!(squareval(&mut e, 9), Ok(-7));
}

/// "If a piece is in danger it will add five, or seven for a king" -- as
/// printed, only when the square behind it is *taken*: `JR Z,NOWT` (4E3A)
/// goes back to NOWT when it is blank, the text's danger, after `LD D,A`
/// (4E33) has put the value in D. Then the next "direction" is read from
/// D·256 + E: 059B for a man, 079B for a king (E one past TABLE's +5).
#[test]
fn squareval_in_danger_is_5_or_7_only_with_the_square_behind_taken() {
    let mut e = engine(1);
    break_when_the_table_is_lost(&mut e);
    put(&mut e, &[(14, MAN), (18, HIS_MAN), (9, MAN)]);
    assert_eq!(squareval(&mut e, 14), Ok(5));
    put(&mut e, &[(14, KING), (18, HIS_MAN), (9, MAN)]);
    assert_eq!(squareval(&mut e, 14), Ok(7));
    // A person's king threatens from behind too; a man cannot.
    put(&mut e, &[(14, MAN), (10, HIS_KING), (17, MAN)]);
    assert_eq!(squareval(&mut e, 14), Ok(5));
    put(&mut e, &[(14, MAN), (10, HIS_MAN), (17, MAN)]);
    assert_eq!(squareval(&mut e, 14), Ok(0));
    // The text's danger: the square behind (9) blank.
    for (piece, d) in [(MAN, 0x05), (KING, 0x07)] {
        put(&mut e, &[(14, piece), (18, HIS_MAN)]);
        let regs = squareval(&mut e, 14).expect_err("no value: the table is lost");
        assert_eq!((regs.pc, regs.de), (NOWT, d << 8 | 0x9B));
        assert_eq!(regs.hl, square_address(9), "L: the blank square behind");
    }
}

/// "a neutral move - that is a move which achieves nothing, but also loses
/// nothing - has a priority of 80 (hex)": a lone man on 6 (the person's
/// only man far away on 32) has two such moves, both listed.
#[test]
fn evaluate_lists_quiet_moves_with_the_neutral_priority_80() {
    let mut e = engine(1);
    put(&mut e, &[(6, MAN), (32, HIS_MAN)]);
    let (priority, mut moves) = evaluate(&mut e, 6);
    moves.sort();
    assert_eq!(priority, 0x80);
    assert_eq!(moves, [(6, 4), (6, 5)]);
    assert_eq!(e.machine().peek(baker::INITIAL), 0x80);
}

/// A capture, worked by hand: the man on 10 can take 15 (landing on 19);
/// 6 stands behind it, so it counts as "in danger" as printed (+5): INITIAL
/// = 85. The step to 14 is worth 85 − SQUAREVAL(14) = 85; the jump adds
/// WHAT's 5 for a man: 85 − (SQUAREVAL(19) − 5) = 8A, a new list of one.
#[test]
fn evaluate_a_capture_adds_5_and_wins_over_the_step() {
    let mut e = engine(1);
    put(&mut e, &[(10, MAN), (6, MAN), (15, HIS_MAN)]);
    assert_eq!(squareval(&mut e, 10), Ok(5));
    assert_eq!(squareval(&mut e, 14), Ok(0));
    assert_eq!(squareval(&mut e, 19), Ok(0));
    assert_eq!(evaluate(&mut e, 10), (0x8A, vec![(10, 5)]));
    // GAME over both pieces: 6 protects 10 (SQUAREVAL −5), so its step
    // 6-9 is worth 7B; the capture is chosen, scored 10 points = 200.
    let r = reply(&mut e, "B:W15:B6,10");
    assert_eq!(r.played, Played::Move(wire("10x19")));
    assert_eq!(r.score, Some(200));
    assert_eq!(r.nodes, 3, "NEWPRI: 10-14, 10x19, 6-9");
    assert_eq!(e.machine().peek(baker::COUNT), 1);
}

// --- The deliberate mistake, single jumps ---------------------------------

/// "The problem is that the computer won't jump": with the byte at 4E6B as
/// printed (E3: JR NZ,NXTMRND) an occupied square ends the direction, so
/// the capture of the test above is never seen and the man steps instead
/// (priority 85); with the fix (33: JR NZ,WHAT) it jumps.
#[test]
fn before_the_fix_the_computer_wont_jump() {
    let fen = "B:W15:B6,10";
    let mut e = engine(1);
    assert_eq!(e.machine().peek(TEST_OFFSET), 0x33);
    assert_eq!(reply(&mut e, fen).played, Played::Move(wire("10x19")));
    e.machine().poke(TEST_OFFSET, 0xE3);
    let r = reply(&mut e, fen);
    assert_eq!(r.played, Played::Move(wire("10-14")));
    assert_eq!(r.score, Some(100));
    assert_eq!(r.nodes, 2, "the jump is not evaluated");
    let Verdict::Illegal(_, why) = Draughts::english().judge(&position(fen), &wire("10-14")) else {
        panic!("10-14 ignores the capture")
    };
    assert_eq!(why.kind(), "missed capture");
}

/// WHAT "will cope only with single jumps": 1 takes 6 and could go on over
/// 15; it stops on 10, and `english` flags the unfinished jump.
#[test]
fn the_computer_stops_after_one_jump() {
    let fen = "B:W6,15:B1,5";
    let mut e = engine(1);
    let r = reply(&mut e, fen);
    assert_eq!(r.played, Played::Move(wire("1x10")));
    assert_eq!(r.score, Some(100));
    let verdict = Draughts::english().judge(&position(fen), &wire("1x10"));
    let Verdict::Illegal(_, IllegalDraughtsMove::UnfinishedJump { next }) = verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(next, wire("10x19"));
}

/// Playing White, the board is turned round (square n is 33 − n) both ways.
#[test]
fn white_is_played_on_the_board_turned_round() {
    let mut e = engine(1);
    // The position of the capture test, turned round, White to move.
    let r = reply(&mut e, "W:W27,23:B18");
    assert_eq!(r.played, Played::Move(wire("23x14")));
    assert_eq!(r.score, Some(200));
}

#[test]
fn no_piece_to_move_is_the_programs_dead_end() {
    let mut e = engine(1);
    // Black's man on 28 is blocked by 32 and cannot jump off the board.
    let r = reply(&mut e, "B:W32:B28");
    assert_eq!(r.played, Played::DeadEnd);
    assert_eq!(r.score, None);
}

// --- Does it crash? -----------------------------------------------------

/// The crash, stopped at the faulty instruction. After the Single Corner
/// opening 11-15 22-18 the program (Black) values its man on 15, which the
/// man on 18 can jump into the blank 11 -- the text's "in danger". SQUAREVAL
/// has put 5 in D (`LD D,A`, 4E33) and `JR Z,NOWT` (4E3A) brings it back to
/// NOWT, where `LD A,(DE)` would read the ROM at 059A (tapes/BAKER.md).
#[test]
fn the_crash_stops_at_nowt_with_de_in_the_rom() {
    let fen = "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
    let mut e = engine(1);
    break_when_the_table_is_lost(&mut e);
    let r = reply(&mut e, fen);
    let Played::Hung(hang) = r.played else {
        panic!("{:?}", r.played)
    };
    assert_eq!(hang.kind, HangKind::Fault);
    let zx = e.machine();
    let regs = zx.regs();
    assert_eq!(regs.pc, NOWT);
    assert_eq!(regs.de, 0x059A, "D = 5 (a man in danger), E one past +4");
    assert_eq!(regs.hl, square_address(11), "the blank square behind");
    assert_eq!(regs.bc & 0xFF, 0x04, "C: the direction of the threat, +4");
    // SQUAREVAL's frame: the square it values (15), then (P = 0, L), DE,
    // BC, and the return into EVALUATE after its first CALL (4E46).
    let frame: Vec<u16> = (0..5).map(|i| zx.peek16(regs.sp + 2 * i)).collect();
    assert_eq!(frame[0], square_address(15));
    assert_eq!(frame[1] >> 8, 0, "nothing protected");
    assert_eq!(frame[4], 0x4E46);
    assert_eq!(zx.peek(square_address(15)), MAN);
    assert_eq!(zx.peek(square_address(18)), HIS_MAN);
    assert_eq!(zx.peek(square_address(11)), EMPTY);
    // Without the breakpoint the machine reads the ROM and the driver
    // reports the fault, naming the instruction and the pointer.
    let mut e = engine(1);
    let r = reply(&mut e, fen);
    let Played::Hung(hang) = r.played else {
        panic!("{:?}", r.played)
    };
    assert_eq!(hang.kind, HangKind::Fault);
    assert!(hang.detail.contains("SQUAREVAL"), "{}", hang.detail);
    assert!(hang.detail.contains("PC 0x4DF9"), "{}", hang.detail);
    assert!(hang.detail.contains("DE = 0x059A"), "{}", hang.detail);
}

// --- Whole games ---------------------------------------------------------

/// How a game against the random mover ended.
#[derive(Clone, Debug, PartialEq)]
enum End {
    Rules(String),
    NoMove,
    /// The hang's detail.
    Fault(String),
    Illegal(String, IllegalDraughtsMove),
    MaxPlies,
}

/// One game of `baker-draughts` (seed `seed`, playing `side`) against the
/// seeded random mover under `english`, every move of the program judged,
/// until the game ends, the program faults or plays an illegal move.
fn play_out(seed: u64, side: Color) -> (Vec<String>, End, BakerDraughts) {
    play_out_observed(seed, side, false, |_, _, _| {})
}

/// [`play_out`], with `observe` called after each reply of the program
/// (the game before it, what it played, the engine), and, if `breakpoints`,
/// the machine stopped where the table is lost rather than at the ROM read.
fn play_out_observed(
    seed: u64,
    side: Color,
    breakpoints: bool,
    mut observe: impl FnMut(&Game<Draughts>, &Played<PdnMove>, &mut BakerDraughts),
) -> (Vec<String>, End, BakerDraughts) {
    let rules = Draughts::english();
    let mut e = engine(seed);
    e.new_game().unwrap();
    if breakpoints {
        break_when_the_table_is_lost(&mut e);
    }
    let mut random = SplitMix64::new(seed ^ 0x5EED);
    let mut game = Game::initial(rules);
    let mut record = Vec::new();
    let end = loop {
        if let Some(ending) = game.ending() {
            break End::Rules(format!("{ending:?}"));
        }
        if record.len() == 300 {
            break End::MaxPlies;
        }
        let wire = if game.turn() == side {
            let played = e.play(&game, BUDGET).expect("a reply").played;
            observe(&game, &played, &mut e);
            match played {
                Played::Move(w) => w,
                Played::Astray(a) => panic!("a draughts driver reports no board: {a:?}"),
                Played::DeadEnd => break End::NoMove,
                Played::Hung(h) => {
                    assert_eq!(h.kind, HangKind::Fault, "{h}");
                    break End::Fault(h.detail);
                }
            }
        } else {
            let legal = game.legal_moves();
            let m = &legal[random.range(0, legal.len() as u64 - 1) as usize];
            rules.wire(game.position(), m)
        };
        record.push(wire.to_string());
        match rules.judge(game.position(), &wire) {
            Verdict::Legal(m) => game.push(m),
            Verdict::Illegal(w, why) => break End::Illegal(w.to_string(), why),
        }
    };
    (record, end, e)
}

/// The figures of tapes/BAKER.md "Does it crash?": over 500 games from the
/// initial position (seeds 1..=500, the program Black for even seeds),
/// where SQUAREVAL was called from when it lost its table (its return
/// address: 4E46 the piece's own square, 4E73 a step's destination, 4ECE a
/// jump's landing square), and how much likelier that is on a turn with a
/// capture available under `english`.
#[test]
fn the_table_is_lost_far_more_often_when_a_capture_is_available() {
    let mut sites = BTreeMap::new();
    // [without a capture, with one]: (turns, turns ending in the fault)
    let mut turns = [(0u32, 0u32); 2];
    for seed in 1..=500u64 {
        let side = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        play_out_observed(seed, side, true, |game, played, e| {
            let capture = game.legal_moves().iter().any(|m| m.is_capture());
            let t = &mut turns[capture as usize];
            t.0 += 1;
            if let Played::Hung(_) = played {
                t.1 += 1;
                let zx = e.machine();
                let regs = zx.regs();
                assert_eq!((regs.pc, regs.de >> 8), (NOWT, 0x05));
                *sites.entry(zx.peek16(regs.sp + 8)).or_insert(0) += 1;
            }
        });
    }
    let sites: Vec<(u16, u32)> = sites.into_iter().collect();
    assert_eq!(sites, [(0x4E46, 110), (0x4E73, 316), (0x4ECE, 52)]);
    assert_eq!(turns, [(1041, 308), (257, 170)]);
    // 66 % of the turns with a capture, 30 % of the others.
    let rate = |(n, f): (u32, u32)| f64::from(f) / f64::from(n);
    assert!(rate(turns[1]) > 2.0 * rate(turns[0]));
}

/// Every game ends by the rules, by the program's dead end, by an illegal
/// move the program is known to make (a jump left unfinished, a capture
/// missed because a step scored higher), or by the table lost at NOWT with
/// D = 05 or 07; and Toni Baker's bytes in memory are the transcription
/// afterwards, the glue's code untouched (only its cells change).
#[test]
fn games_against_random_are_judged_and_leave_bakers_bytes_alone() {
    let transcription = repo_file("tapes/baker-draughts.bin");
    let mut faults = 0;
    for seed in 1..=20u64 {
        let side = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (record, end, mut e) = play_out(seed, side);
        match &end {
            End::Fault(detail) => {
                faults += 1;
                assert!(detail.contains("PC 0x4DF9"), "{detail}");
                assert!(
                    detail.contains("DE = 0x05") || detail.contains("DE = 0x07"),
                    "{detail}"
                );
            }
            End::Illegal(_, why) => assert!(
                matches!(
                    why,
                    IllegalDraughtsMove::UnfinishedJump { .. }
                        | IllegalDraughtsMove::MissedCapture { .. }
                ),
                "seed {seed}: {why}"
            ),
            End::Rules(_) | End::NoMove | End::MaxPlies => {}
        }
        let zx = e.machine();
        let at = |a: u16, n: usize| -> Vec<u8> { (0..n as u16).map(|i| zx.peek(a + i)).collect() };
        assert_eq!(
            at(SQUAREVAL, transcription.len()),
            transcription,
            "seed {seed}: {record:?} {end:?}"
        );
        let glue = usize::from(baker::RANDOM - LOAD_AT);
        let code = usize::from(GAME - LOAD_AT);
        assert_eq!(at(LOAD_AT, glue), &baker::IMAGE[..glue]);
        assert_eq!(
            at(GAME, baker::IMAGE.len() - code),
            &baker::IMAGE[code..],
            "seed {seed}"
        );
    }
    assert!(faults >= 15, "{faults} of 20 games end by the fault");
}

#[test]
fn same_seed_same_game_and_seeds_differ() {
    let games: Vec<(Vec<String>, End)> = (1..=6u64)
        .map(|seed| {
            let (record, end, _) = play_out(seed, Color::Black);
            let (again, end_again, _) = play_out(seed, Color::Black);
            assert_eq!((&record, &end), (&again, &end_again), "seed {seed}");
            (record, end)
        })
        .collect();
    assert!(
        games.iter().any(|g| g != &games[0]),
        "different seeds, different games"
    );
}

/// `new_game` draws RANDOM afresh from the seed: the same engine replays
/// the same game after it.
#[test]
fn new_game_reseeds_the_random_byte() {
    let fen = "B:W32:B1,2,3,4"; // quiet moves of equal priority
    let mut e = engine(7);
    let first: Vec<Played<PdnMove>> = (0..8).map(|_| reply(&mut e, fen).played).collect();
    e.new_game().unwrap();
    let again: Vec<Played<PdnMove>> = (0..8).map(|_| reply(&mut e, fen).played).collect();
    assert_eq!(first, again);
    assert!(first.iter().any(|p| p != &first[0]), "RANDOM chooses");
}

/// The screen: the board as SHOW prints it, the computer's side at the top
/// (men in inverse W, the person's in inverse B, empty dark squares black),
/// from start-up and after each move.
#[test]
fn the_screen_shows_the_working_board() {
    let row = |screen: &retrochess::machine::TextScreen, r: usize| -> String {
        (0..8)
            .map(|c| {
                let cell = screen.cell(r, c);
                match (cell.glyph, cell.inverse) {
                    (' ', false) => '.',
                    (' ', true) => '#',
                    (g, true) => g.to_ascii_lowercase(),
                    (g, false) => g,
                }
            })
            .collect()
    };
    let mut e = engine(1);
    let screen = e.screen().expect("an emulated screen");
    let rows: Vec<String> = (0..8).map(|r| row(&screen, r)).collect();
    assert_eq!(
        rows,
        [
            ".w.w.w.w", "w.w.w.w.", ".w.w.w.w", "#.#.#.#.", ".#.#.#.#", "b.b.b.b.", ".b.b.b.b",
            "b.b.b.b."
        ]
    );
    // 10x19 (the capture test), then the board shows the result.
    reply(&mut e, "B:W15:B6,10");
    let screen = e.screen().unwrap();
    assert_eq!(row(&screen, 1), "#.w.#.#.", "6 stays");
    assert_eq!(row(&screen, 2), ".#.#.#.#", "10 left");
    assert_eq!(row(&screen, 3), "#.#.#.#.", "15 taken");
    assert_eq!(row(&screen, 4), ".#.#.w.#", "the man on 19");
}
