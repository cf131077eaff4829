//! What the clients of external engines share: how one is started
//! ([`Launch`]), why it could not be ([`LaunchError`]), and how long a move
//! may take.

use std::time::Duration;

use crate::engines::GameKind;
use crate::protocol::Protocol;
use crate::runner::time_control::MatchClock;

/// Extra time past an engine's clock before it is called stalled.
const GRACE: Duration = Duration::from_millis(1500);
/// Without a clock, how long an external engine is asked to think.
pub(super) const MOVETIME_WITHOUT_CLOCK: Duration = Duration::from_millis(500);

/// How long to wait for a move: what is left on the clock (`fallback`
/// without one), plus [`GRACE`].
pub(super) fn move_limit(clock: &MatchClock, fallback: Duration) -> Duration {
    clock.left.unwrap_or(fallback).saturating_add(GRACE)
}

/// Why an external engine could not be started.
#[derive(Debug)]
pub enum LaunchError {
    /// A protocol of the other game (`proto=hub` for a chess engine).
    WrongGame { proto: Protocol, game: GameKind },
    /// The process could not be started.
    Spawn {
        name: String,
        cmd: String,
        error: std::io::Error,
    },
    /// The process came without the named pipe (`stdin`, `stdout`).
    NoPipe(&'static str),
    /// The engine ended before answering the handshake's `step`.
    Exited { name: String, step: &'static str },
    /// The engine did not answer the handshake's `step` within `startup`.
    Silent {
        name: String,
        step: &'static str,
        startup: Duration,
    },
    /// The engine broke the protocol (the reader's words, naming it).
    Broke(String),
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchError::WrongGame { proto, game } => {
                let (game, protos) = match game {
                    GameKind::Chess => ("chess", "uci or xboard"),
                    GameKind::Draughts => ("draughts", "hub"),
                };
                write!(
                    f,
                    "proto={} is not a {game} protocol: {game} engines speak {protos}",
                    proto.spec_name()
                )
            }
            LaunchError::Spawn { name, cmd, error } => {
                write!(f, "cannot start {name} ({cmd}): {error}")
            }
            LaunchError::NoPipe(pipe) => write!(f, "no {pipe}"),
            LaunchError::Exited { name, step } => write!(f, "{name} exited before {step}"),
            LaunchError::Silent {
                name,
                step,
                startup,
            } => write!(
                f,
                "{name} did not answer {step} within {:.1} s",
                startup.as_secs_f64()
            ),
            LaunchError::Broke(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for LaunchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LaunchError::Spawn { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Where an external engine is started: its command, arguments and the
/// options to set.
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    pub name: &'a str,
    pub cmd: &'a str,
    pub args: &'a [String],
    pub proto: Protocol,
    pub options: &'a [(String, String)],
    /// How long the handshake may take.
    pub startup: Duration,
    /// Search each move with `go nodes N` instead of the clocks (UCI).
    pub nodes: Option<u64>,
}
