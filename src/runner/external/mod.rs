//! External engines as players: a real subprocess speaking UCI, CECP or
//! Hub, with the timeouts and forfeits a match manager applies. A process
//! that ends is a "disconnect"; one that says nothing past its clock (plus
//! [`GRACE`]) "stalls"; one that sends a line longer than [`MAX_LINE`]
//! "breaks the protocol". Each loses the game, and the match goes on.
//!
//! One process transport ([`transport`]: spawn, reader, transcript,
//! timeouts, quit) under three protocol clients that only write and read
//! their protocol's lines: [`uci`], [`cecp`] (chess) and [`hub`]
//! (draughts).

pub mod cecp;
pub mod hub;
pub mod transport;
pub mod uci;

use std::time::Duration;

use super::time_control::MatchClock;
use super::turn::Player;
use crate::engines::GameKind;
use crate::rules::chess::ChessRules;
use crate::rules::draughts::Draughts;
pub use transport::{MAX_LINE, Transport};

use crate::protocol::Protocol;

/// Extra time past an engine's clock before it is called stalled.
const GRACE: Duration = Duration::from_millis(1500);
/// Without a clock, how long an external engine is asked to think.
const MOVETIME_WITHOUT_CLOCK: Duration = Duration::from_millis(500);

/// How long to wait for a move: what is left on the clock (`fallback`
/// without one), plus [`GRACE`].
fn move_limit(clock: &MatchClock, fallback: Duration) -> Duration {
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

/// Starts an external chess engine.
///
/// # Errors
/// A draughts protocol, the process cannot start, or the handshake fails.
pub fn start_chess(launch: &Launch) -> Result<Box<dyn Player<ChessRules>>, LaunchError> {
    let Launch {
        options, startup, ..
    } = *launch;
    Ok(match launch.proto {
        Protocol::Uci => Box::new(
            uci::UciClient::start(spawn(launch)?, options, startup)?.with_nodes(launch.nodes),
        ),
        Protocol::Xboard => Box::new(cecp::CecpClient::start(spawn(launch)?, options, startup)?),
        Protocol::Hub => {
            return Err(LaunchError::WrongGame {
                proto: launch.proto,
                game: GameKind::Chess,
            });
        }
    })
}

/// Starts an external draughts engine, told to play under `rules` if it
/// offers them.
///
/// # Errors
/// A chess protocol, the process cannot start, or the handshake fails.
pub fn start_draughts(
    launch: &Launch,
    rules: Draughts,
) -> Result<Box<dyn Player<Draughts>>, LaunchError> {
    match launch.proto {
        Protocol::Hub => Ok(Box::new(hub::HubClient::start(
            spawn(launch)?,
            rules,
            launch.options,
            launch.startup,
        )?)),
        proto => Err(LaunchError::WrongGame {
            proto,
            game: GameKind::Draughts,
        }),
    }
}

fn spawn(launch: &Launch) -> Result<Transport, LaunchError> {
    Transport::spawn(launch.name, launch.cmd, launch.args)
}
