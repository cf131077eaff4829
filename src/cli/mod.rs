//! Subcommands that talk to a person: `play`, `explain`, `screen`, `bench`,
//! `match`, `rate`, `serve`.

pub mod bench;
pub mod explain;
pub mod matches;
pub mod play;
pub mod rate;
pub mod screen;
pub mod serve;

use std::fmt;
use std::io::{self, Write};

use retrochess::engines::{EngineError, GameKind};
use retrochess::protocol::ProtocolError;

/// Why a subcommand failed.
#[derive(Debug)]
pub enum CliError {
    Engine(EngineError),
    Protocol(ProtocolError),
    /// A match that could not be played or recorded.
    Match(String),
    /// Games that could not be rated.
    Rate(rate::RateError),
    /// Standard input could not be read, or said something unusable.
    Input(String),
    /// The engine has no emulated screen to show.
    NoScreen(String),
    /// Standard output could not be written: its reader went away
    /// (`| head`) or the disk is full.
    Output(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Engine(e) => e.fmt(f),
            CliError::Protocol(e) => e.fmt(f),
            CliError::Match(e) | CliError::Input(e) => f.write_str(e),
            CliError::Rate(e) => e.fmt(f),
            CliError::NoScreen(id) => write!(f, "{id} runs natively: it has no emulated screen"),
            CliError::Output(e) => write!(f, "stdout: {e}"),
        }
    }
}

impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        CliError::Engine(e)
    }
}

impl From<ProtocolError> for CliError {
    fn from(e: ProtocolError) -> Self {
        CliError::Protocol(e)
    }
}

/// Writes `text` to standard output, flushed. A reader that went away is
/// the command's error (as the protocols report it), not a panic.
///
/// # Errors
/// Standard output cannot be written.
pub fn say(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Output)
}

/// The game the built-in engine `id` plays.
///
/// # Errors
/// No such engine.
pub fn game_of(id: &str) -> Result<GameKind, CliError> {
    retrochess::engines::entry(id)
        .map(|e| e.game)
        .ok_or_else(|| EngineError::Unknown(id.to_string()).into())
}
