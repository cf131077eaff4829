//! 1K ZX Chess's candidates (issue 14): every move SCORE weighs, read where
//! SCORE compares it with BEST (0x4257). Collecting them changes nothing of
//! the search; they rank as the program ranks them, the first is the move it
//! plays; their scores follow seed 000's SCORE rules
//! (`tests/fixtures/1k-score-terms.txt`).

use std::collections::BTreeSet;

use crate::common;

use common::fen;
use retrochess::engines::onek;
use retrochess::engines::{Engine, EngineOptions, InputPath, Played, Reply, Ties};
use retrochess::rng::SplitMix64;
use retrochess::rules::Game;
use retrochess::rules::Verdict;
use retrochess::rules::chess::{ChessRules, judge};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

const BUDGET: u64 = 2_000_000_000;

type Answer = Reply<UciMove>;

fn options(seed: u64, opening: &str, frames: &str) -> EngineOptions {
    EngineOptions {
        seed,
        ..EngineOptions::default()
    }
    .with(onek::OPENING, opening)
    .with(onek::FRAMES, frames)
}

/// Two fresh engines of the same options: collection off, collection on.
fn twins(id: &str, options: &EngineOptions) -> [Box<dyn Engine<ChessRules>>; 2] {
    let off = common::chess_engine(id, options).unwrap();
    let mut on = common::chess_engine(id, options).unwrap();
    assert!(on.collect_candidates(true), "{id} collects candidates");
    [off, on]
}

/// The legal moves the program knows: no castling, no en passant, and a
/// pawn reaching the last rank always becomes a queen.
fn program_moves(pos: &Chess) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .filter(|m| !m.is_castle() && !m.is_en_passant())
        .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

/// The moves the program's generator (MOVE) makes before PMOVE's check
/// test: every move of a piece to an empty or enemy square it reaches, a
/// pawn's single and double steps and diagonal captures.
fn generated_count(pos: &Chess) -> u64 {
    let board = pos.board();
    let us = board.by_color(pos.turn());
    us.into_iter()
        .map(|sq| {
            let piece = board.piece_at(sq).expect("a piece of ours");
            let reach = match piece.role {
                Role::Pawn => pawn_reach(pos, sq),
                _ => shakmaty::attacks::attacks(sq, piece, board.occupied()) & !us,
            };
            reach.count() as u64
        })
        .sum()
}

fn pawn_reach(pos: &Chess, sq: Square) -> Bitboard {
    let board = pos.board();
    let color = pos.turn();
    let captures = shakmaty::attacks::pawn_attacks(color, sq) & board.by_color(!color);
    let step = |s: Square| s.offset(if color == Color::White { 8 } else { -8 });
    let mut pushes = Bitboard::EMPTY;
    if let Some(one) = step(sq).filter(|s| !board.occupied().contains(*s)) {
        pushes.add(one);
        let home = sq.rank() == color.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
        if let Some(two) = step(one).filter(|s| home && !board.occupied().contains(*s)) {
            pushes.add(two);
        }
    }
    captures | pushes
}

/// What the two replies of one position must share, and what the thoughts
/// must say about it. Returns the number of candidates.
fn same_search(label: &str, pos: &Chess, off: &Answer, on: &Answer) -> usize {
    assert_eq!(off.played, on.played, "{label}: played");
    assert_eq!(off.tstates, on.tstates, "{label}: T-states");
    assert_eq!(off.nodes, on.nodes, "{label}: nodes");
    assert_eq!(off.score, on.score, "{label}: score");
    assert_eq!(off.path, on.path, "{label}: input path");
    assert_eq!(off.thoughts, None, "{label}: collection off");
    if on.path == InputPath::Tape {
        assert_eq!(on.thoughts, None, "{label}: no search, no thoughts");
        return 0;
    }
    let thoughts = on.thoughts.as_ref().expect("collection on: thoughts");
    assert_eq!(thoughts.ties, Ties::KeepsLast, "{label}");
    if let Played::Move(m) = &on.played {
        let best = thoughts.best().expect("a move played: a candidate");
        assert_eq!(
            &best.wire, m,
            "{label}: the best candidate is the move played"
        );
        assert_eq!(
            Some(best.score),
            on.score,
            "{label}: its score is the reply's"
        );
    }
    // Every legal move the program knows is scored once; moves PMOVE
    // rejects (king left in check) never are; nodes counts them all.
    let wires: Vec<String> = thoughts.ranked.iter().map(|c| c.wire.to_string()).collect();
    let set: BTreeSet<String> = wires.iter().cloned().collect();
    assert_eq!(set.len(), wires.len(), "{label}: each move once: {wires:?}");
    assert_eq!(
        set,
        program_moves(pos),
        "{label}: candidates are the legal moves"
    );
    assert_eq!(
        on.nodes,
        generated_count(pos),
        "{label}: nodes are PMOVE calls"
    );
    assert!(
        thoughts
            .ranked
            .iter()
            .all(|c| matches!(c.chance, Some(0 | 1))),
        "{label}: the draw is FRAMES bit 0"
    );
    let mut seqs: Vec<u32> = thoughts.ranked.iter().map(|c| c.seq).collect();
    seqs.sort_unstable();
    assert!(
        seqs.iter().copied().eq(1..=seqs.len() as u32),
        "{label}: seq"
    );
    wires.len()
}

/// Positions covered, by how they reached the program.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    typed: usize,
    injected: usize,
    tape: usize,
    black: usize,
    rejected: u64,
}

impl Tally {
    fn add(&mut self, pos: &Chess, reply: &Answer, candidates: usize) {
        self.positions += 1;
        match reply.path {
            InputPath::Typed(_) => self.typed += 1,
            InputPath::Injected(_) => self.injected += 1,
            _ => self.tape += 1,
        }
        self.black += usize::from(pos.turn() == Color::Black);
        if reply.path != InputPath::Tape {
            self.rejected += reply.nodes - candidates as u64;
        }
    }
}

/// Plays a game of the twins (as `side`) against a seeded random mover,
/// asking about a quarter of the positions as a fresh position (injected)
/// and the rest as the game so far (typed when the program can take it).
fn play_twins(id: &str, options: &EngineOptions, side: Color, seed: u64, tally: &mut Tally) {
    let [mut off, mut on] = twins(id, options);
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(ChessRules, Chess::default());
    while game.moves().len() < 90 && game.ending().is_none() {
        let pos = game.position().clone();
        if pos.turn() != side {
            game.push(common::random_move(&pos, &mut rng));
            continue;
        }
        let asked = if rng.range(0, 3) == 0 {
            Game::new(ChessRules, pos.clone())
        } else {
            game.clone()
        };
        let label = format!("{id} {side:?} seed {seed} ply {}", game.moves().len());
        let replies = [off.play(&asked, BUDGET), on.play(&asked, BUDGET)];
        let [r_off, r_on] = replies.map(Result::unwrap);
        let n = same_search(&label, &pos, &r_off, &r_on);
        tally.add(&pos, &r_on, n);
        let Played::Move(uci) = r_on.played else {
            panic!("{label}: {:?}", r_on.played)
        };
        match judge(&pos, &uci) {
            Verdict::Legal(m) => game.push(m),
            Verdict::Illegal(u, why) => panic!("{label}: {u} {why}"),
        }
    }
}

#[test]
fn collecting_changes_nothing_on_random_games() {
    let start = std::time::Instant::now();
    let mut tally = Tally::default();
    for (i, id) in ["1k-zx-chess", "1k-zx-chess-kp"].into_iter().enumerate() {
        for side in [Color::White, Color::Black] {
            for seed in [3, 8, 13, 21] {
                let opening = if seed % 2 == 1 { "tape" } else { "think" };
                let frames = if side == Color::White { "slow" } else { "fast" };
                let game_seed = seed * 31 + i as u64;
                let o = options(seed, opening, frames);
                play_twins(id, &o, side, game_seed, &mut tally);
            }
        }
    }
    eprintln!("equal-result: {tally:?} in {:.1?}", start.elapsed());
    assert!(tally.positions >= 500, "{tally:?}");
    assert!(tally.typed >= 200 && tally.injected >= 200, "{tally:?}");
    assert!(tally.tape == 6 && tally.black >= 200, "{tally:?}");
    assert!(
        tally.rejected > 0,
        "some moves left the king in check: {tally:?}"
    );
}

/// Positions the random games rarely reach.
const SPECIAL: [&str; 6] = [
    // A promotion, for each side.
    "7k/1P6/8/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/1p6/7K b - - 0 1",
    // In check: most moves are rejected by PMOVE.
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
    // Castling and en passant are not the program's: not candidates.
    "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    // The free queen of `a_wrapped_score_beats_a_queen`.
    "8/4k3/8/3q4/8/8/8/3R2K1 w - - 0 1",
    // A middle game.
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
];

#[test]
fn collecting_changes_nothing_on_special_positions() {
    for (i, text) in SPECIAL.iter().enumerate() {
        for frames in ["slow", "fast"] {
            let pos = fen(text);
            let [mut off, mut on] = twins("1k-zx-chess", &options(i as u64, "tape", frames));
            let game = Game::new(ChessRules, pos.clone());
            let r_off = off.play(&game, BUDGET).unwrap();
            let r_on = on.play(&game, BUDGET).unwrap();
            let n = same_search(&format!("{text} ({frames})"), &pos, &r_off, &r_on);
            assert!(n > 0, "{text}");
        }
    }
}

#[test]
fn a_position_without_moves_has_no_candidates() {
    // Stalemate and checkmate of the program (as Black): PMOVE rejects all.
    for (text, generated) in [
        ("k7/8/1Q6/8/8/8/8/2K5 b - - 0 1", 3),
        ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", 3),
    ] {
        let pos = fen(text);
        let [mut off, mut on] = twins("1k-zx-chess", &options(1, "tape", "slow"));
        let game = Game::new(ChessRules, pos.clone());
        let r_off = off.play(&game, BUDGET).unwrap();
        let r_on = on.play(&game, BUDGET).unwrap();
        assert_eq!(r_on.played, Played::DeadEnd, "{text}");
        same_search(text, &pos, &r_off, &r_on);
        assert_eq!(r_on.nodes, generated, "{text}");
        assert!(r_on.thoughts.unwrap().ranked.is_empty(), "{text}");
    }
}

#[test]
fn the_tape_move_has_no_thoughts_and_collection_turns_off() {
    let mut e = common::chess_engine("1k-zx-chess", &EngineOptions::default()).unwrap();
    assert!(e.collect_candidates(true));
    let start = Game::new(ChessRules, Chess::default());
    let r = e.play(&start, BUDGET).unwrap();
    assert_eq!((r.path, r.thoughts), (InputPath::Tape, None));
    let pos = fen(SPECIAL[5]);
    let game = Game::new(ChessRules, pos);
    assert!(e.play(&game, BUDGET).unwrap().thoughts.is_some());
    assert!(e.collect_candidates(false));
    assert_eq!(e.play(&game, BUDGET).unwrap().thoughts, None);
}

#[test]
fn ties_go_to_the_last_scored() {
    // With FRAMES still (FAST), all 20 first moves score alike (each origin
    // is defended: 67 − 1, + FRAMES bit 0) and SCORE's CP/RET C lets every
    // equal score replace the best: the program plays the last one scored.
    let mut e = common::chess_engine("1k-zx-chess", &options(1, "think", "fast")).unwrap();
    assert!(e.collect_candidates(true));
    let r = e
        .play(&Game::new(ChessRules, Chess::default()), BUDGET)
        .unwrap();
    let thoughts = r.thoughts.unwrap();
    assert_eq!(thoughts.ranked.len(), 20);
    assert!(
        thoughts
            .ranked
            .iter()
            .all(|c| c.raw == thoughts.ranked[0].raw && c.chance == thoughts.ranked[0].chance),
        "FRAMES stands still in FAST mode: one draw for the whole search"
    );
    let last = thoughts.ranked.iter().max_by_key(|c| c.seq).unwrap();
    assert_eq!(r.played, Played::Move(last.wire));
    assert_eq!(thoughts.best(), Some(last));
    assert!(
        thoughts.tie_break.contains("FRAMES bit 0"),
        "{}",
        thoughts.tie_break
    );
    assert!(
        thoughts.tie_break.contains("0x4257"),
        "{}",
        thoughts.tie_break
    );
}

#[test]
fn a_wrapped_score_beats_a_queen() {
    // The black king on e7 is byte 71 of CHK's CPIR scan (0x41C5), taken
    // off every score. Rxd5 scores 67 + 5 (the queen) + 4 (the rook on d1
    // is attacked) = 76, leaving 5; Rd2, which loses the rook to the queen,
    // scores 67 + 4 − 4 = 67, leaving 252 after wrapping below zero: the
    // unsigned CP prefers it and the queen stays on d5.
    let pos = fen(SPECIAL[4]);
    let mut e = common::chess_engine("1k-zx-chess", &options(2, "tape", "fast")).unwrap();
    assert!(e.collect_candidates(true));
    let r = e.play(&Game::new(ChessRules, pos), BUDGET).unwrap();
    let thoughts = r.thoughts.unwrap();
    let take = thoughts
        .ranked
        .iter()
        .find(|c| c.wire.to_string() == "d1d5")
        .expect("the capture is a candidate");
    let best = thoughts.best().unwrap();
    assert_eq!(take.score - best.score, 900, "{take:?} {best:?}");
    assert_eq!(best.raw - take.raw, 247, "{take:?} {best:?}");
    assert_eq!(r.played, Played::Move(best.wire));
    assert!(
        ["d1d2", "d1d3", "d1d4"].contains(&best.wire.to_string().as_str()),
        "{best:?}"
    );
}

/// One block of `1k-score-terms.txt`: a position and its rows.
struct Block {
    fen: String,
    rows: Vec<(String, Vec<String>)>,
}

/// The fixture's constants (`base`, `check`, `defended`, `value X`) and
/// its blocks.
fn score_terms() -> (std::collections::BTreeMap<String, i32>, Vec<Block>) {
    let (mut constants, mut blocks) = (std::collections::BTreeMap::new(), Vec::<Block>::new());
    for line in common::fixture("1k-score-terms.txt").lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [w, ..] if w.starts_with('#') => {}
            ["fen", rest @ ..] => blocks.push(Block {
                fen: rest.join(" "),
                rows: Vec::new(),
            }),
            ["value", role, n] => {
                constants.insert(role.to_string(), n.parse().unwrap());
            }
            [name, n] if n.parse::<i32>().is_ok() => {
                constants.insert(name.to_string(), n.parse().unwrap());
            }
            [mv, terms @ ..] => blocks
                .last_mut()
                .expect("a row after a fen line")
                .rows
                .push((
                    mv.to_string(),
                    terms.iter().map(|t| t.to_string()).collect(),
                )),
        }
    }
    (constants, blocks)
}

/// The score SCORE gives a row, FRAMES bit 0 aside.
fn expected(c: &std::collections::BTreeMap<String, i32>, mover: Role, terms: &[String]) -> i32 {
    let flag = |i: usize| i32::from(terms[i] == "1");
    let value = |role: &str| c[&role.to_uppercase()];
    let captured = if terms[0] == "-" { 0 } else { value(&terms[0]) };
    let moving = value(&mover.upper_char().to_string());
    c["base"] + captured + moving * flag(1) - moving * flag(2) + c["check"] * flag(3)
        - c["defended"] * flag(4)
}

/// How much CHK's CPIR (0x41C5) takes off every score: the opponent king's
/// place in the scan from 0x433E over the display file (11 bytes a rank,
/// files H..A, the program's side at the top).
fn cpir_shift(pos: &Chess) -> i32 {
    let them = !pos.turn();
    let king = pos.board().king_of(them).expect("a king");
    let king = if them == Color::White {
        king.flip_vertical()
    } else {
        king
    };
    11 * king.rank() as i32 + (7 - king.file() as i32) + 2
}

#[test]
fn candidate_scores_follow_seed_000s_rules() {
    let (constants, blocks) = score_terms();
    assert_eq!(blocks.len(), 9);
    for (i, block) in blocks.iter().enumerate() {
        let pos = fen(&block.fen);
        // FAST: FRAMES, hence its bit 0, stays put during the search.
        let mut e =
            common::chess_engine("1k-zx-chess", &options(i as u64, "tape", "fast")).unwrap();
        assert!(e.collect_candidates(true));
        let r = e.play(&Game::new(ChessRules, pos.clone()), BUDGET).unwrap();
        let thoughts = r.thoughts.unwrap();
        let mut bits = BTreeSet::new();
        for (mv, terms) in &block.rows {
            let label = format!("{} {mv}", block.fen);
            let c = thoughts
                .ranked
                .iter()
                .find(|c| c.wire.to_string() == *mv)
                .unwrap_or_else(|| panic!("{label}: not a candidate"));
            let m: Move = c.wire.to_move(&pos).expect("a legal candidate");
            let want = expected(&constants, m.role(), terms);
            let bit = c.score / 100 + constants["base"] - want;
            assert!(bit == 0 || bit == 1, "{label}: {} vs {want}", c.score);
            assert_eq!(c.raw, (want + bit - cpir_shift(&pos)) & 0xFF, "{label}");
            bits.insert(bit);
        }
        assert_eq!(bits.len(), 1, "{}: one FRAMES bit a search", block.fen);
    }
}
