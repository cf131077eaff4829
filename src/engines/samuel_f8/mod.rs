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
//! permitted plies (`search.rs`, `level.rs`); a stored first move drawn at
//! random when the program moves first (`book.rs`); the opponent's move
//! checked against the generator's list ([`Position::play`]).
//!
//! Ours, each marked where it lives: the completion of multi-jumps (the
//! notes make one jump a step), the α-β code and win scores, the five
//! evaluation parameters and their weights (`eval.rs`), the stored first
//! moves themselves, scores wider than the 8 bits the notes budget, the fix
//! of the RBJ mask (`board.rs`), and the API: PDN squares, FEN, [`bench()`].

mod board;
mod book;
pub mod engine;
mod error;
mod eval;
mod level;
mod movegen;
mod player;
mod position;
mod search;
mod side;
mod speed;

pub use book::STORED_FIRST_MOVES;
pub use error::SamuelError;
pub use level::{BadLevel, Level};
pub use movegen::SamuelMove;
pub use player::{Decision, SamuelF8};
pub use position::{Position, legal_moves, perft};
pub use search::{Score, SearchStats, WIN};
pub use side::Side;
pub use speed::{BenchReport, bench};
