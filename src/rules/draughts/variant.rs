//! The draughts rule sets: English checkers and Draughts 1K's house rules,
//! by the names the command line and the records use.

use std::fmt;
use std::str::FromStr;

/// A draughts rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// English/American checkers, PDN GameType 21.
    English,
    /// Draughts 1K's house rules (seed 002).
    Zx81,
}

impl Variant {
    /// The name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Variant::English => "english",
            Variant::Zx81 => "zx81-1k",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a draughts rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown draughts rules '{}': english or zx81-1k", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// `english` or `zx81-1k`.
    ///
    /// # Errors
    /// Any other name.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s {
            "english" => Ok(Variant::English),
            "zx81-1k" => Ok(Variant::Zx81),
            other => Err(UnknownVariant(other.to_string())),
        }
    }
}
