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

    /// The name of a side in this game (`White`, `Black`).
    fn side_name(&self, side: Color) -> &'static str {
        match side {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
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
