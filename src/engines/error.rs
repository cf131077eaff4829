//! Errors of a driver: [`EngineError`].

use std::fmt;

use crate::machine::MachineError;

/// Errors of a driver (the program's own failures are [`Played`](super::Played) values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// No engine called `id`; `known`: the built-in engines' ids.
    Unknown {
        id: String,
        known: Vec<&'static str>,
    },
    /// The engine (its id) plays another game than the one asked for.
    OtherGame(&'static str),
    /// The tape could not be loaded or is not this program.
    Machine(MachineError),
    /// The position cannot be given to this program.
    Position(String),
    /// The program's screen could not be read as a move.
    Unreadable(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Unknown { id, known } => {
                write!(f, "unknown engine {id:?} (known: {})", known.join(", "))
            }
            EngineError::OtherGame(id) => write!(f, "{id} plays another game"),
            EngineError::Machine(e) => e.fmt(f),
            EngineError::Position(why) => write!(f, "cannot set up position: {why}"),
            EngineError::Unreadable(why) => write!(f, "cannot read the program's move: {why}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<MachineError> for EngineError {
    fn from(e: MachineError) -> Self {
        EngineError::Machine(e)
    }
}
