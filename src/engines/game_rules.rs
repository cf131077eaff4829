//! The rules an engine's games are judged by ([`GameRules`]), chosen from
//! an entry and a name, and the one dispatch from them to code generic
//! over the rules ([`with_rules!`](crate::with_rules)).

use std::fmt;

use super::{Entry, GameKind};
use crate::rules::chess::ChessRules;
use crate::rules::draughts::{Draughts, UnknownVariant, Variant};

/// The rules an engine's games are judged by, chosen once where the
/// command comes in: chess, or draughts in a variant.
#[derive(Clone, Copy, Debug)]
pub enum GameRules {
    Chess(ChessRules),
    Draughts(Draughts),
}

/// Rules named for an engine that cannot play by them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Draughts rules named for a chess engine.
    ForChess { rules: String, id: &'static str },
    /// No draughts rule set of that name.
    Unknown(UnknownVariant),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::ForChess { rules, id } => {
                write!(f, "rules {rules:?}: {id} plays chess")
            }
            RulesError::Unknown(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RulesError {}

impl Entry {
    /// The rules this engine's games are judged by: for draughts `rules`
    /// names the variant (`english` when `None`, or `zx81-1k`); for chess
    /// there is nothing to name.
    ///
    /// # Errors
    /// Rules named for a chess engine, or an unknown variant.
    pub fn rules(&self, rules: Option<&str>) -> Result<GameRules, RulesError> {
        match self.game {
            GameKind::Chess => match rules {
                Some(rules) => Err(RulesError::ForChess {
                    rules: rules.to_string(),
                    id: self.info.id,
                }),
                None => Ok(GameRules::Chess(ChessRules)),
            },
            GameKind::Draughts => {
                let variant: Variant = rules
                    .unwrap_or("english")
                    .parse()
                    .map_err(RulesError::Unknown)?;
                Ok(GameRules::Draughts(Draughts::new(variant)))
            }
        }
    }

    /// The rules the program itself plays by: chess, or draughts in its
    /// house variant ([`Entry::house_variant`]) where it has one, English
    /// checkers otherwise. What `bench` plays it by.
    pub fn own_rules(&self) -> GameRules {
        match self.game {
            GameKind::Chess => GameRules::Chess(ChessRules),
            GameKind::Draughts => GameRules::Draughts(Draughts::new(
                self.house_variant.unwrap_or(Variant::English),
            )),
        }
    }
}

/// Runs `$body` with `$rules` bound to the rules of a [`GameRules`],
/// whichever game: the one dispatch from a chosen game to code generic
/// over [`Rules`](crate::rules::Rules) (a macro: the body may need bounds
/// a trait method here could not name).
#[macro_export]
macro_rules! with_rules {
    ($game:expr, |$rules:ident| $body:expr) => {
        match $game {
            $crate::engines::GameRules::Chess($rules) => $body,
            $crate::engines::GameRules::Draughts($rules) => $body,
        }
    };
}
