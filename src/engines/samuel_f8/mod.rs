//! `samuel-f8`: Arthur Samuel's 1977 design for checkers on a Fairchild F8
//! (SAIL file F8OLD[3,ALS], 26 June 1977, seed 004), implemented natively in
//! Rust. Page numbers below are the file's own page list: p. 2 "Checkers on
//! an F8" (the procedure), p. 4 boards and moves, p. 5 storage map, p. 6
//! CTAB/EMPTY/FIND, p. 7 data movers and FORW, p. 8 registers and the
//! second EMPTY, p. 9 FORE/AFT and the second FIND, p. 10 SELECT, p. 11-15
//! UPDATE, Evaluation, α-β, move checking, DISPLAY (prose only).
//!
//! # Why not assemble the listing
//!
//! The notes are "a first cut"; their F8 code cannot be assembled, let alone
//! run, and is not a program:
//! - duplicate labels: `EMPTY`, `EMP2`, `EMP3` (p. 6 and again p. 8),
//!   `FIND`, `FIN3`, `FIN4`, `RFJ`, `LFJ` (p. 6 and p. 9), `RASC`, `RASL`,
//!   `SCRL` (p. 7 and p. 8);
//! - undefined labels: `CTAB` (`PI CTAB`, p. 6; the counting routine is
//!   labelled `CAQ` and is a bare `POP`), `SELE` (`BNZ SELE`, `BR SELE`,
//!   p. 9; the routine is `SELECT`), `GETB` (`BZ GETB` in SELECT, p. 10),
//!   `SCRA` (`PI SCRA`, p. 10);
//! - lines that are no F8 instruction: `LRI I,A` and `LRI S,A` (p. 6),
//!   `SL 5` at `FIN7` (the F8 shifts by 1 or 4 only), `NS A,0` (LBJ, RBJ,
//!   LBN, RBN), `LR A.I` (LFJ), `LR PO,Q` (the FINT dispatch, p. 6),
//!   `LR A.S` (p. 9), `LR A,SI` / `LR SI,A` (p. 8 EMPTY), `LR 6` without
//!   its second operand and `SM` (SELECT, p. 10);
//! - unfinished code: FORE "TEST FOR MAX DEPTH MUST BE PUT IN", AFT "Score
//!   back-up must be put into the following", the second FIND breaks off at
//!   the start of LFJ ("THIS CODE WILL BE QUITE SIMILAR TO RLJ CODE") and
//!   "MUST USE A JUMP TABLE WITH 5 TO ENTER FIND PROPERLY";
//! - and no evaluation (p. 12 is two sentences), no α-β code (p. 13), no
//!   search driver, no input or display (p. 14-15: "I will need some help
//!   on this").
//!
//! # What is Samuel's and what is ours
//!
//! Samuel's, followed where the notes speak: the board as ACTIVE, PASSIVE
//! and KINGS sets with the sides swapped at every ply and EMPTY with guard
//! bytes, the notes' own square-to-bit mapping (`board.rs`); moves found per
//! direction set RF, LF, LB, RB, jumps first and mandatory, in the FINT
//! order, SELECT taking the lowest bit (`movegen.rs`); the search to a
//! minimum of 4 plies continued to 10 while a jump is pending, the levels as
//! permitted plies (`search.rs`); a stored first move drawn at random when
//! the program moves first (`book.rs`); the opponent's move checked against
//! the generator's list ([`Position::play`]).
//!
//! Ours, each marked where it lives: the completion of multi-jumps (the
//! notes make one jump a step), the α-β code and win scores, the five
//! evaluation parameters and their weights (`eval.rs`), the stored first
//! moves themselves, scores wider than the 8 bits the notes budget, the fix
//! of the RBJ mask (`board.rs`), and the API: PDN squares, FEN, [`bench`].

mod board;
mod book;
mod eval;
mod movegen;
mod position;
mod search;

use std::fmt;
use std::time::{Duration, Instant};

use crate::rng::SplitMix64;

pub mod engine;

pub use book::STORED_FIRST_MOVES;
pub use movegen::SamuelMove;
pub use position::{Position, Side};
pub use search::{Level, Score, SearchStats, WIN};

/// Errors of the `samuel-f8` engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SamuelError {
    /// A square given to both colours.
    BothColours(u8),
    /// A king bit on an empty square.
    KingOnEmpty(u8),
    /// More pieces than a side starts with.
    TooManyPieces(Side, u32),
    BadFen {
        fen: String,
        reason: &'static str,
    },
    BadLevel {
        min_ply: u8,
        max_ply: u8,
    },
    /// Text that is not a move at all.
    BadMove(String),
    /// A move that is not legal in the position.
    IllegalMove(String),
    /// Start and end squares shared by several legal moves.
    AmbiguousMove(String),
}

impl fmt::Display for SamuelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SamuelError::BothColours(sq) => write!(f, "square {sq} holds both colours"),
            SamuelError::KingOnEmpty(sq) => write!(f, "king on empty square {sq}"),
            SamuelError::TooManyPieces(side, n) => {
                write!(f, "{side} has {n} pieces, at most 12")
            }
            SamuelError::BadFen { fen, reason } => write!(f, "bad fen {fen:?}: {reason}"),
            SamuelError::BadLevel { min_ply, max_ply } => write!(
                f,
                "bad level {min_ply}..{max_ply}: plies must satisfy 1 <= min <= max <= {}",
                Level::MAX_PLY_LIMIT
            ),
            SamuelError::BadMove(text) => write!(f, "cannot read move {text:?}"),
            SamuelError::IllegalMove(text) => write!(f, "illegal move {text}"),
            SamuelError::AmbiguousMove(text) => {
                write!(f, "ambiguous move {text}: give every landing square")
            }
        }
    }
}

impl std::error::Error for SamuelError {}

/// The legal moves of the side to move, in the order the notes' FIND and
/// SELECT produce them (jumps only, when there are any).
pub fn legal_moves(pos: &Position) -> Vec<SamuelMove> {
    let mut moves = Vec::new();
    movegen::find(&pos.board(), &mut moves);
    moves
}

/// The number of move sequences `depth` plies long from `pos`, by this
/// module's own generator (each jump path counted as a move).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut lists = vec![Vec::new(); depth as usize];
    movegen::perft(&pos.board(), depth, &mut lists)
}

/// What [`SamuelF8::weigh`] decided, and what it weighed on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub mv: SamuelMove,
    /// For the side to move, hundredths of a man ([`WIN`] minus plies for
    /// a win); 0 for a stored first move.
    pub score: Score,
    pub stats: SearchStats,
    /// The root moves in the order weighed, with their values: the search's
    /// (exact for the first and for each that raised α, at most α for the
    /// others), or every stored first move at 0 when one was drawn.
    pub root: Vec<(SamuelMove, Score)>,
}

/// Samuel's F8 checkers player: the search at a level, and a seeded draw
/// of the stored first move.
#[derive(Clone, Debug)]
pub struct SamuelF8 {
    rng: SplitMix64,
    level: Level,
}

impl SamuelF8 {
    /// Same seed, same games: the seed only draws the stored first move.
    pub fn new(seed: u64, level: Level) -> SamuelF8 {
        SamuelF8 {
            rng: SplitMix64::new(seed),
            level,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The program's move for the side to move in `pos`, its score (for that
    /// side, hundredths of a man, [`WIN`] minus plies for a win) and what the
    /// search cost; `None` when the side to move has no legal move (it has
    /// lost). `game_start` says no move has been played in this game: then,
    /// at the initial position, the program moves first as Black and plays a
    /// stored first move drawn with the seed, without searching (score 0).
    pub fn choose(
        &mut self,
        pos: &Position,
        game_start: bool,
    ) -> Option<(SamuelMove, Score, SearchStats)> {
        self.weigh(pos, game_start)
            .map(|c| (c.mv, c.score, c.stats))
    }

    /// As [`choose`](Self::choose), with the root moves it weighed.
    pub fn weigh(&mut self, pos: &Position, game_start: bool) -> Option<Choice> {
        if game_start && *pos == Position::initial() {
            return Some(Choice {
                mv: book::first_move(&mut self.rng),
                score: 0,
                stats: SearchStats {
                    from_book: true,
                    ..SearchStats::default()
                },
                root: book::stored_first_moves()
                    .into_iter()
                    .map(|m| (m, 0))
                    .collect(),
            });
        }
        let mut search = search::Search::new(self.level);
        let (mv, score) = search.best(&pos.board())?;
        Some(Choice {
            mv,
            score,
            stats: search.stats,
            root: search.root,
        })
    }
}

/// What [`bench`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Moves searched (a self-play game may end sooner than asked).
    pub moves: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Speed at `level`: the program plays itself once from each stored first
/// move (that move imposed), searching up to `moves` further moves a game,
/// and the nodes and time of all those searches are summed. The nodes are
/// the same on every machine; the time is this one's.
pub fn bench(level: Level, moves: u32) -> BenchReport {
    let mut report = BenchReport {
        moves: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (from, to) in STORED_FIRST_MOVES {
        let start = Position::initial();
        let first = start
            .parse_move(&format!("{from}-{to}"))
            .expect("the stored first moves are legal");
        let mut board = movegen::play(&start.board(), &first);
        for _ in 0..moves {
            let mut search = search::Search::new(level);
            let started = Instant::now();
            let Some((mv, _)) = search.best(&board) else {
                break;
            };
            report.elapsed += started.elapsed();
            report.nodes += search.stats.nodes;
            report.moves += 1;
            board = movegen::play(&board, &mv);
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_initial_position_matches_the_published_counts() {
        let published = [
            7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
        ];
        let start = Position::initial();
        for (depth, &count) in (1..).zip(&published) {
            assert_eq!(perft(&start, depth), count, "depth {depth}");
        }
    }

    #[test]
    fn same_seed_same_game_and_the_seed_draws_the_first_move() {
        let game = |seed: u64| {
            let mut black = SamuelF8::new(seed, Level::default());
            let mut white = SamuelF8::new(seed ^ 1, Level::default());
            let mut pos = Position::initial();
            let mut moves = Vec::new();
            for ply in 0..16 {
                let engine = if ply % 2 == 0 { &mut black } else { &mut white };
                let Some((mv, _, _)) = engine.choose(&pos, ply == 0) else {
                    break;
                };
                moves.push(mv.to_string());
                pos = pos.play(&mv).unwrap();
            }
            moves
        };
        assert_eq!(game(7), game(7));
        let firsts: std::collections::BTreeSet<String> =
            (0..24).map(|seed| game(seed)[0].clone()).collect();
        let stored: std::collections::BTreeSet<String> = STORED_FIRST_MOVES
            .iter()
            .map(|(from, to)| format!("{from}-{to}"))
            .collect();
        assert_eq!(firsts, stored);
    }

    #[test]
    fn the_stored_move_is_only_for_the_first_move_of_a_game() {
        let mut engine = SamuelF8::new(3, Level::default());
        let (_, _, book) = engine.choose(&Position::initial(), true).unwrap();
        assert!(book.from_book);
        assert_eq!(book.nodes, 0);
        let (searched, _, stats) = engine.choose(&Position::initial(), false).unwrap();
        assert!(!stats.from_book);
        assert!(stats.nodes > 0);
        // The search alone is deterministic whatever the seed.
        let mut other = SamuelF8::new(99, Level::default());
        assert_eq!(
            other.choose(&Position::initial(), false).unwrap().0,
            searched
        );
        let after = Position::initial().play(&searched).unwrap();
        let (_, _, reply) = engine.choose(&after, true).unwrap();
        assert!(!reply.from_book, "White is never given a stored move");
    }

    #[test]
    fn bench_counts_nodes_reproducibly() {
        let a = bench(Level::default(), 6);
        let b = bench(Level::default(), 6);
        assert_eq!(a.moves, 6 * STORED_FIRST_MOVES.len() as u32);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 6);
    }
}
