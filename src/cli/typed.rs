//! How a person types a move, in each game: [`Typed`], shared by `play`
//! and `explain`, and [`Unreadable`] for text that is no move.

use std::str::FromStr;

use retrochess::engines::Catalogue;
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::wire::WireError;
use retrochess::rules::draughts::{Draughts, PdnMove};
use shakmaty::san::San;
use shakmaty::uci::UciMove;

/// How a person types a move of one game.
pub trait Typed: Catalogue {
    /// Examples for the prompt and for a line that cannot be read.
    const EXAMPLES: &'static str;

    /// The person's move as the rules will judge it, or why the text is
    /// not a move at all.
    fn read(&self, pos: &Self::Position, text: &str) -> Result<Self::Wire, Unreadable>;
}

/// Why a person's text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// No more to say than the examples.
    NoMove,
    /// Not a move in PDN numbering, for this reason.
    Pdn(WireError),
}

impl Typed for ChessRules {
    const EXAMPLES: &'static str = "e2e4 or Nf3";

    fn read(&self, pos: &shakmaty::Chess, text: &str) -> Result<UciMove, Unreadable> {
        if let Ok(uci) = text.parse::<UciMove>() {
            return Ok(uci);
        }
        text.parse::<San>()
            .ok()
            .and_then(|san| san.to_move(pos).ok())
            .map(UciMove::from_standard)
            .ok_or(Unreadable::NoMove)
    }
}

impl Typed for Draughts {
    const EXAMPLES: &'static str = "11-15 or 15x24";

    fn read(&self, _pos: &Self::Position, text: &str) -> Result<PdnMove, Unreadable> {
        PdnMove::from_str(text).map_err(Unreadable::Pdn)
    }
}
