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

use super::clock::MatchClock;
use super::turn::Player;
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
pub fn start_chess(launch: &Launch) -> Result<Box<dyn Player<ChessRules>>, String> {
    let Launch {
        options, startup, ..
    } = *launch;
    Ok(match launch.proto {
        Protocol::Uci => Box::new(
            uci::UciClient::start(spawn(launch)?, options, startup)?.with_nodes(launch.nodes),
        ),
        Protocol::Xboard => Box::new(cecp::CecpClient::start(spawn(launch)?, options, startup)?),
        Protocol::Hub => return Err(wrong_game(launch.proto, "chess", "uci or xboard")),
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
) -> Result<Box<dyn Player<Draughts>>, String> {
    match launch.proto {
        Protocol::Hub => Ok(Box::new(hub::HubClient::start(
            spawn(launch)?,
            rules,
            launch.options,
            launch.startup,
        )?)),
        other => Err(wrong_game(other, "draughts", "hub")),
    }
}

fn spawn(launch: &Launch) -> Result<Transport, String> {
    Transport::spawn(launch.name, launch.cmd, launch.args)
}

fn wrong_game(proto: Protocol, game: &str, protos: &str) -> String {
    format!(
        "proto={} is not a {game} protocol: {game} engines speak {protos}",
        proto.spec_name()
    )
}
