//! External engines as players: a real subprocess speaking UCI, CECP or
//! Hub, with the timeouts and forfeits a match manager applies. A process
//! that ends is a "disconnect"; one that says nothing past its clock (plus
//! `launch::GRACE`) "stalls"; one that sends a line longer than [`MAX_LINE`]
//! "breaks the protocol". Each loses the game, and the match goes on.
//!
//! One process transport ([`transport`]: spawn, reader, transcript,
//! timeouts, quit) under three protocol clients that only write and read
//! their protocol's lines: [`uci`], [`cecp`] (chess) and [`hub`]
//! (draughts).

pub mod cecp;
pub mod hub;
mod launch;
pub mod transport;
pub mod uci;
use super::turn::Player;
use crate::engines::GameKind;
use crate::rules::chess::ChessRules;
use crate::rules::draughts::Draughts;
pub use launch::{Launch, LaunchError};
pub use transport::{MAX_LINE, Transport};

use crate::protocol::Protocol;

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
