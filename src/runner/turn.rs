//! What a player does on its turn, and the trait every player implements
//! (built-in retro engines, the random mover, external engines): the seam
//! between the referee and the players, apart from both so that the
//! players' modules (`player`, `external/`) import it and not each other.

use std::time::Duration;

use super::record::MoveNote;
use super::time_control::MatchClock;
use crate::rules::{Astray, Game, HangKind, Rules};

/// What a player did on its turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn<W> {
    /// A move (not yet judged), with what it cost where known.
    Move {
        wire: W,
        authentic: Option<Duration>,
        /// What a retro engine's move cost and how it was made, for the
        /// record's comment.
        comment: Option<MoveNote>,
    },
    /// A retro program's move with its own board, which is not a plain
    /// reading of the move ([`Astray`]): the referee judges the two
    /// together.
    Astray {
        astray: Box<Astray<W>>,
        authentic: Option<Duration>,
        comment: Option<MoveNote>,
    },
    /// The player gave up (an external engine's `resign`).
    Resign(String),
    /// A retro program found no move and stopped.
    DeadEnd(String),
    /// A retro program did not come back.
    Hung(HangKind, String),
    /// An external engine's process ended.
    Disconnected(String),
    /// An external engine said nothing in time.
    Stalled(String),
    /// An external engine broke its protocol (a line past the length bound).
    ProtocolFault(String),
}

/// One side of one game.
pub trait Player<R: Rules>: Send {
    /// The move in the position `game` has reached.
    fn go(&mut self, game: &Game<R>, clock: &MatchClock, other: &MatchClock) -> Turn<R::Wire>;
    /// Ends the game (external engines are told, and stopped).
    fn finish(&mut self) {}
}

/// Why an external engine's process gave no move: a process status
/// (fastchess's `Status`), apart from what it means for the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lost {
    /// The process ended (or its stdin is gone).
    Disconnected(String),
    /// It sent a line past the length bound.
    Fault(String),
    /// It said nothing in time.
    Stalled(String),
}

/// A lost process loses the game on its turn.
impl<W> From<Lost> for Turn<W> {
    fn from(lost: Lost) -> Turn<W> {
        match lost {
            Lost::Disconnected(why) => Turn::Disconnected(why),
            Lost::Fault(why) => Turn::ProtocolFault(why),
            Lost::Stalled(why) => Turn::Stalled(why),
        }
    }
}
