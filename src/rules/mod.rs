//! The rules seam: what the engines, the protocols and the match runner
//! need to know about a game, whatever the game.
//!
//! In the spirit of shakmaty's `Position` trait, a [`Rules`] value is one
//! rule set (chess; English checkers; the house rules of Draughts 1K) and
//! names its own position, move and *wire move* (what a protocol or a record
//! writes: `e2e4`, `11-15`, `15x24x31`). The programs here are small and skip
//! rules, so their wire moves are never trusted: [`Rules::judge`] turns one
//! into a legal move or into a reason it is illegal. A [`Game`] follows a
//! game from its root (moves, positions seen, repetitions) and asks the rules
//! whether it has ended; endings, results and terminations are typed values
//! ([`Ending`], [`GameResult`], [`EndReason`], [`Termination`]): text is for
//! display only.
//!
//! Implementations: [`chess`] (over shakmaty, with explanations of illegal
//! moves).

pub mod chess;
pub mod draughts;
mod game;
mod outcome;
pub mod pgn;

use std::fmt;
use std::str::FromStr;

pub use game::Game;
pub use outcome::{EndReason, Ending, GameResult, HangKind, Termination};
pub use shakmaty::Color;

/// One rule set of one game.
///
/// `&self` carries the rule set where one position type serves several
/// (English checkers and Draughts 1K's house rules share a board).
pub trait Rules: Clone + fmt::Debug + Send + Sync + 'static {
    /// A position: the board, the side to move and whatever else the rules
    /// need (castling rights, move counters).
    type Position: Clone + fmt::Debug + PartialEq + Send + Sync;
    /// A legal move in some position.
    type Move: Clone + fmt::Debug + PartialEq + Send + Sync;
    /// A move as protocols and records write it, legal or not.
    type Wire: Clone
        + fmt::Debug
        + fmt::Display
        + FromStr<Err: fmt::Display>
        + PartialEq
        + Send
        + Sync;
    /// Why a wire move is not legal.
    type Illegal: Clone + fmt::Debug + fmt::Display + PartialEq + Send + Sync;

    /// The rule set's name (`chess`, `english`, `zx81-1k`).
    fn name(&self) -> &'static str;

    /// The initial position.
    fn initial(&self) -> Self::Position;

    /// The side to move.
    fn turn(&self, pos: &Self::Position) -> Color;

    /// The side that moves first from the initial position (White in chess,
    /// Black in checkers).
    fn first_side(&self) -> Color;

    /// All legal moves, in a fixed order.
    fn legal_moves(&self, pos: &Self::Position) -> Vec<Self::Move>;

    /// `wire` as a legal move in `pos`, or why it is not one.
    fn judge(&self, pos: &Self::Position, wire: &Self::Wire) -> Verdict<Self>;

    /// How protocols and records write the legal move `m` of `pos`.
    fn wire(&self, pos: &Self::Position, m: &Self::Move) -> Self::Wire;

    /// Plays the legal move `m`.
    fn play(&self, pos: &mut Self::Position, m: &Self::Move);

    /// A key equal for positions that count as the same for repetitions.
    fn repetition_key(&self, pos: &Self::Position) -> u64;

    /// The end of `game` by the rules (no legal move, mate, repetition, a
    /// no-progress rule, ...), if reached.
    fn ending(&self, game: &Game<Self>) -> Option<Ending>;

    /// A position from its text form (FEN for chess, PDN FEN for draughts).
    ///
    /// # Errors
    /// The text is not a position, or not a legal one, with what is wrong.
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;

    /// The text form of `pos`, as [`Rules::parse_position`] reads it.
    fn position_text(&self, pos: &Self::Position) -> String;

    /// A short name for the kind of an illegal move, for the standings
    /// (`into check`, `missed capture`).
    fn illegal_kind(&self, why: &Self::Illegal) -> &'static str;

    /// What the program did when its board after its reply is not a plain
    /// reading of the move it chose ([`Astray`]): the legal move whose
    /// change of the board is the program's (the chosen one first), or the
    /// chosen move refused with a description of what the program did to
    /// its board. The default, for rules whose programs never report their
    /// boards (the draughts programs read their moves from a board that
    /// always shows one), judges the chosen move alone.
    fn judge_astray(&self, pos: &Self::Position, astray: &Astray<Self::Wire>) -> Verdict<Self> {
        self.judge(pos, &astray.wire)
    }

    /// The name of a side in this game (`White`, `Black`).
    fn side_name(&self, side: Color) -> &'static str {
        match side {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// What a program's own board holds on one square, as its memory has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A piece, by its FEN letter (upper case: White's, or the first
    /// side's).
    Piece(char),
    /// A byte that is no piece of the game (the program wrote something
    /// else there), as the program holds it.
    Stray(u8),
}

/// A program's board as its own memory holds it, one [`Cell`] per square
/// in the rules' square order (chess: shakmaty's, a1 = 0 … h8 = 63), read
/// by the driver, judged by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramBoard(pub Vec<Cell>);

/// What a driver knows of why its program's board went astray: a quirk of
/// the program, named from its own bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quirk {
    /// A short name, for the standings and the sweep's counts
    /// (`long-castling test`).
    pub kind: &'static str,
    /// What the program did, in words (`its long-castling test took Qd1-c2
    /// for castling`).
    pub words: String,
}

/// A reply whose board is not a plain reading of the move the program
/// chose: the move it chose, its board before and after (its own, read
/// from its memory) and what the driver knows of the cause. The rules say
/// what the program did ([`Rules::judge_astray`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Astray<W> {
    /// The move the program chose (its search's result), as it means it.
    pub wire: W,
    /// Its board when it began its move, and when it had made it.
    pub before: ProgramBoard,
    pub after: ProgramBoard,
    pub quirk: Option<Quirk>,
}

/// The verdict on a wire move.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict<R: Rules> {
    Legal(R::Move),
    Illegal(R::Wire, R::Illegal),
}

/// A position text that cannot be used; the text says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Not a position in the rules' notation at all.
    Unreadable(String),
    /// Readable, but not a position the rules allow.
    Impossible(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Unreadable(why) | PositionError::Impossible(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PositionError {}
