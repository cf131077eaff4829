//! How deep the search goes: the permitted plies ([`Level`]), and
//! [`BadLevel`] for a pair out of range.

use std::fmt;

/// The permitted plies: search everything to `min_ply`, follow pending jumps
/// to `max_ply`. The notes' own level is the default, 4 and 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    min_ply: u8,
    max_ply: u8,
}

impl Level {
    /// The deepest permitted ply: the notes provide "for perhaps 16 blocks"
    /// of tree data (p. 5), the first holding the board at the root.
    pub const MAX_PLY_LIMIT: u8 = 15;

    /// # Errors
    /// Unless `1 <= min_ply <= max_ply <= 15`.
    pub fn new(min_ply: u8, max_ply: u8) -> Result<Level, BadLevel> {
        if min_ply == 0 || min_ply > max_ply || max_ply > Self::MAX_PLY_LIMIT {
            return Err(BadLevel { min_ply, max_ply });
        }
        Ok(Level { min_ply, max_ply })
    }

    /// A level by its minimum ply, jumps followed to ply 10 as in the notes
    /// (or to the minimum itself when that is deeper).
    ///
    /// # Errors
    /// Unless `1 <= plies <= 15`.
    pub fn plies(plies: u8) -> Result<Level, BadLevel> {
        Level::new(plies, plies.max(10))
    }

    /// Every move is searched below this ply.
    #[inline]
    pub fn min_ply(&self) -> u8 {
        self.min_ply
    }

    /// Pending jumps are followed up to this ply, not beyond.
    #[inline]
    pub fn max_ply(&self) -> u8 {
        self.max_ply
    }
}

impl Default for Level {
    /// "a minimum depth of 4 and a maximum depth of 10" (p. 2).
    fn default() -> Self {
        Level {
            min_ply: 4,
            max_ply: 10,
        }
    }
}

/// A level whose plies are out of range: `1 <= min_ply <= max_ply <=
/// 15` is required.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel {
    /// The minimum ply asked for.
    pub min_ply: u8,
    /// The maximum ply asked for.
    pub max_ply: u8,
}

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad level {}..{}: plies must satisfy 1 <= min <= max <= {}",
            self.min_ply,
            self.max_ply,
            Level::MAX_PLY_LIMIT
        )
    }
}

impl std::error::Error for BadLevel {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_checked() {
        assert!(Level::new(0, 4).is_err());
        assert!(Level::new(5, 4).is_err());
        assert!(Level::new(4, 16).is_err());
        assert_eq!(
            Level::new(5, 4).unwrap_err().to_string(),
            "bad level 5..4: plies must satisfy 1 <= min <= max <= 15"
        );
        assert_eq!(Level::plies(6).unwrap(), Level::new(6, 10).unwrap());
        assert_eq!(Level::plies(12).unwrap(), Level::new(12, 12).unwrap());
        assert_eq!(Level::default(), Level::new(4, 10).unwrap());
    }
}
