//! `retrochess serve`: the web page (`retrochess::serve`), on 127.0.0.1 by
//! default.

use std::time::Duration;

use retrochess::engines::EngineOptions;
use retrochess::serve::{self, Config, Limits};

use super::CliError;

/// The address served when `--listen` is not given.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8481";

/// Starts the server and serves until the process is stopped.
///
/// # Errors
/// The address cannot be bound, or a limit is zero.
pub fn run(
    listen: Option<&str>,
    max_games: usize,
    idle_minutes: u64,
    options: &EngineOptions,
) -> Result<(), CliError> {
    if max_games == 0 || idle_minutes == 0 {
        return Err(CliError::ServeLimits);
    }
    let listen = match listen {
        None => DEFAULT_LISTEN.to_string(),
        Some(addr) => {
            let local = addr.starts_with("127.")
                || addr.starts_with("localhost:")
                || addr.starts_with("[::1]");
            if !local {
                eprintln!(
                    "retrochess: warning: listening on {addr}: other machines may reach this \
                     server; it has no authentication, and every game runs an emulator on \
                     this machine"
                );
            }
            addr.to_string()
        }
    };
    let config = Config {
        listen,
        limits: Limits {
            max_games,
            idle: Duration::from_secs(idle_minutes * 60),
        },
        threads: 4,
    };
    serve::run(&config, options.clone()).map_err(CliError::Serve)
}
