//! Standard output, where the subcommands write what they were asked for:
//! [`say`], and [`OutputError`] when it cannot be written.

use std::fmt;
use std::io::{self, Write};

/// Standard output could not be written: its reader went away (`| head`)
/// or the disk is full.
#[derive(Debug)]
pub struct OutputError(pub io::Error);

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stdout: {}", self.0)
    }
}

impl std::error::Error for OutputError {}

/// Writes `text` to standard output, flushed. A reader that went away is
/// the command's error (as the protocols report it), not a panic.
///
/// # Errors
/// Standard output cannot be written.
pub fn say(text: &str) -> Result<(), OutputError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(OutputError)
}
