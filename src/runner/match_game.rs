//! What the runner needs of a game beyond its rules and engines
//! ([`MatchGame`]), and chess's answer (draughts's is in `pdn.rs`).

use super::external::{self, Launch, LaunchError};
use super::record::GameRecord;
use super::turn::Player;
use crate::engines::Catalogue;
use crate::rules::chess::ChessRules;

/// What the runner needs of a game beyond its rules and engines: its record
/// format and its external engines.
pub trait MatchGame: Catalogue {
    /// One game in the game's record format (PGN for chess), ending with a
    /// blank line.
    fn record_text(&self, record: &GameRecord<Self>) -> String;

    /// Starts an external engine.
    ///
    /// # Errors
    /// A protocol of another game, or the engine cannot start.
    fn start_external(&self, launch: &Launch) -> Result<Box<dyn Player<Self>>, LaunchError>;
}

impl MatchGame for ChessRules {
    fn record_text(&self, record: &GameRecord<Self>) -> String {
        record.to_pgn()
    }

    fn start_external(&self, launch: &Launch) -> Result<Box<dyn Player<Self>>, LaunchError> {
        external::start_chess(launch)
    }
}
