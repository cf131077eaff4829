//! Why a subcommand failed: [`CliError`], which wraps the errors of the
//! library and of the subcommands that have their own.

use std::fmt;
use std::io;
use std::path::PathBuf;

use retrochess::engines::{EngineError, RulesError};
use retrochess::picture::{MAX_SCALE, PictureError};
use retrochess::protocol::ProtocolError;
use retrochess::rules::PositionError;
use retrochess::serve::ServeError;
use retrochess::serve::table::MoveError;

use super::matches::MatchFailure;
use super::output::OutputError;
use super::rate::RateError;
use super::typed::Unreadable;

/// Why a subcommand failed.
#[derive(Debug)]
pub enum CliError {
    Engine(EngineError),
    Protocol(ProtocolError),
    /// A match that could not be played or recorded.
    Match(MatchFailure),
    /// Games that could not be rated.
    Rate(RateError),
    /// `--option` not `NAME=VALUE` (as given).
    OptionPair(String),
    /// `--rules` for an engine that plays chess, or naming no draughts
    /// rule set.
    Rules(RulesError),
    /// `--fen` is no position the rules allow.
    Fen(PositionError),
    /// The `n`th move (from 1) given is not a move at all.
    UnreadableMove {
        n: usize,
        text: String,
        why: Unreadable,
    },
    /// The `n`th move given is refused by the rules, for `why`.
    IllegalMove {
        n: usize,
        text: String,
        why: String,
    },
    /// The game given has ended, by `reason` (its words).
    GameOver(&'static str),
    /// A person's move `text` the game refused (`screen --play`).
    PersonMove {
        text: String,
        error: MoveError,
    },
    /// `--scale` out of range.
    Scale(usize),
    /// `--png-dir` cannot be made.
    PngDir {
        dir: PathBuf,
        error: io::Error,
    },
    /// The picture could not be made.
    Picture(PictureError),
    /// A file could not be written.
    Write {
        path: PathBuf,
        error: io::Error,
    },
    /// `serve`'s `--max-games` or `--idle-minutes` of 0.
    ServeLimits,
    /// The web server could not start.
    Serve(ServeError),
    /// The first line on standard input names no protocol (as read).
    UnknownProtocol(String),
    /// Standard input could not be read.
    Input(io::Error),
    /// The engine has no emulated screen to show.
    NoScreen(String),
    /// Standard output could not be written.
    Output(OutputError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Engine(e) => e.fmt(f),
            CliError::Protocol(e) => e.fmt(f),
            CliError::Match(e) => e.fmt(f),
            CliError::Rate(e) => e.fmt(f),
            CliError::OptionPair(pair) => write!(f, "--option {pair:?}: expected NAME=VALUE"),
            CliError::Rules(RulesError::ForChess { rules, id }) => write!(
                f,
                "--rules {rules}: {id} plays chess; --rules chooses draughts rules"
            ),
            CliError::Rules(RulesError::Unknown(e)) => write!(f, "--rules: {e}"),
            CliError::Fen(e) => write!(f, "--fen: {e}"),
            CliError::UnreadableMove { n, text, why } => {
                write!(f, "move {n} {text:?} is not a move")?;
                match why {
                    Unreadable::NoMove => Ok(()),
                    Unreadable::Pdn(e) => write!(f, ": {e}"),
                }
            }
            CliError::IllegalMove { n, text, why } => {
                write!(f, "move {n} {text} is illegal: {why}")
            }
            CliError::GameOver(reason) => write!(
                f,
                "the game is over ({reason}): there is no move to explain"
            ),
            CliError::PersonMove { text, error } => write!(f, "{text}: {error}"),
            CliError::Scale(n) => write!(f, "--scale {n}: expected 1 to {MAX_SCALE}"),
            CliError::PngDir { dir, error } => write!(f, "--png-dir {}: {error}", dir.display()),
            CliError::Picture(e) => e.fmt(f),
            CliError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            CliError::ServeLimits => {
                f.write_str("--max-games and --idle-minutes must be at least 1")
            }
            CliError::Serve(e) => e.fmt(f),
            CliError::UnknownProtocol(first) => write!(
                f,
                "cannot tell the protocol from the first line {first:?}: expected `uci`, \
                 `xboard` or `hub` (or run `retrochess uci` / `xboard` / `hub`, or \
                 `retrochess --help`)"
            ),
            CliError::Input(e) => e.fmt(f),
            CliError::NoScreen(id) => write!(f, "{id} runs natively: it has no emulated screen"),
            CliError::Output(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CliError {}

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

impl From<MatchFailure> for CliError {
    fn from(e: MatchFailure) -> Self {
        CliError::Match(e)
    }
}

impl From<RateError> for CliError {
    fn from(e: RateError) -> Self {
        CliError::Rate(e)
    }
}

impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        CliError::Output(e)
    }
}
