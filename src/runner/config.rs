//! What a match is: its configuration ([`MatchConfig`]), a scheduled game
//! ([`Pairing`]) and its players' seeds and display names, shared by the
//! match loop (`mod.rs`), the referee and the players.

use std::time::Duration;

use super::match_game::MatchGame;
use super::openings::Opening;
use super::player::PlayerSpec;
use super::shard::Shard;
use super::time_control::TimeControl;
use crate::engines::EngineOptions;
use crate::rng::SplitMix64;

/// External engines' time control when none is given.
pub const DEFAULT_EXTERNAL_TC: TimeControl = TimeControl::Clock {
    moves: None,
    base: Duration::from_secs(10),
    increment: Duration::from_millis(100),
};

/// What the runner does when an engine plays an illegal move (the front
/// ends' choice for their own engine is [`crate::protocol::settings::IllegalPolicy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IllegalRule {
    /// The offender loses the game (as cutechess and fastchess do).
    #[default]
    Forfeit,
    /// The move is flagged in the PGN and the standings, not played, and the
    /// engine is asked again from the true position (its driver sets the
    /// position up afresh); after three illegal moves in a row it forfeits.
    Continue,
}

/// A match or tournament of the game `R`.
#[derive(Clone, Debug)]
pub struct MatchConfig<R: MatchGame> {
    /// The rules that judge every move.
    pub rules: R,
    pub players: Vec<PlayerSpec>,
    /// Games per pairing (each opening is played with colours reversed).
    pub games: usize,
    /// Rounds of the whole schedule.
    pub rounds: usize,
    pub concurrency: usize,
    pub openings: Vec<Opening<R>>,
    /// Wall-clock time control of external engines (`None`: 10+0.1).
    pub tc: Option<TimeControl>,
    /// Also hold retro engines to `tc`, on their machine's authentic time.
    /// Otherwise a retro engine's limit is its per-move T-state budget
    /// (`engine_options.budget`), past which it counts as hung.
    pub authentic_clock: bool,
    pub seed: u64,
    pub illegal: IllegalRule,
    pub max_plies: usize,
    pub engine_options: EngineOptions,
    /// How long an external engine may take to start.
    pub startup: Duration,
    /// Keep what each retro engine's move cost as a comment on it
    /// ([`super::record::MoveNote`]; `match --no-comments` leaves them out).
    pub comments: bool,
    /// The part of the schedule to play (default: all of it).
    pub shard: Shard,
}

/// One scheduled game.
#[derive(Clone, Debug)]
pub(super) struct Pairing {
    pub(super) number: usize,
    /// Its place among the games this run plays (its shard's), from 0.
    pub(super) slot: usize,
    pub(super) round: usize,
    pub(super) white: usize,
    pub(super) black: usize,
    pub(super) opening: usize,
}

/// The seed of side `side` (1 White, 2 Black) in game `game` of a match
/// seeded `match_seed`.
pub(super) fn seed_for(match_seed: u64, game: usize, side: u64) -> u64 {
    let mut r =
        SplitMix64::new(match_seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ side);
    r.next_u64() >> 1
}

/// Display names, made unique: a repeated name gets " (2)", " (3)", ...
pub fn player_names(players: &[PlayerSpec]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for p in players {
        let base = p.name();
        let seen = names
            .iter()
            .filter(|n| **n == base || n.starts_with(&format!("{base} (")))
            .count();
        names.push(if seen == 0 {
            base
        } else {
            format!("{base} ({})", seen + 1)
        });
    }
    names
}
