//! Errors of the `samuel-f8` engine: [`SamuelError`].

use std::fmt;

use super::level::BadLevel;
use super::side::Side;

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
    /// A search level out of range.
    BadLevel(BadLevel),
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
            SamuelError::BadLevel(e) => e.fmt(f),
            SamuelError::BadMove(text) => write!(f, "cannot read move {text:?}"),
            SamuelError::IllegalMove(text) => write!(f, "illegal move {text}"),
            SamuelError::AmbiguousMove(text) => {
                write!(f, "ambiguous move {text}: give every landing square")
            }
        }
    }
}

impl std::error::Error for SamuelError {}

impl From<BadLevel> for SamuelError {
    fn from(e: BadLevel) -> Self {
        SamuelError::BadLevel(e)
    }
}
