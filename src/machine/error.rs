//! The errors of loading or preparing a machine ([`MachineError`]).

use std::fmt;

/// Errors loading or preparing a machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MachineError {
    /// A tape or snapshot file that cannot be what it claims to be.
    BadTape(String),
    /// A file that could not be read.
    Io(String),
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::BadTape(why) => write!(f, "bad tape: {why}"),
            MachineError::Io(why) => write!(f, "cannot read tape: {why}"),
        }
    }
}

impl std::error::Error for MachineError {}
