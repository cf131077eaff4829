//! A finished game as the runner records it, whatever the game: who played
//! with which seed, from which opening, the moves with comments on flagged
//! ones, and how it ended (typed). The record format (PGN for chess) is the
//! game's own ([`super::MatchGame::record_text`]).

use crate::rules::{Color, EndReason, GameResult, Rules, Termination};

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<R: Rules> {
    /// 1-based game number in the match.
    pub number: usize,
    pub round: usize,
    pub white: String,
    pub black: String,
    pub white_seed: u64,
    pub black_seed: u64,
    pub opening: String,
    pub root: R::Position,
    /// The root in the rules' text form, if it is not the initial position.
    pub root_text: Option<String>,
    /// Moves with a comment to print after each (flagged moves).
    pub moves: Vec<(R::Move, Option<String>)>,
    /// `None` while the game is unterminated.
    pub result: Option<GameResult>,
    pub end: Option<EndReason>,
    pub termination: Termination,
    /// Why the game ended, in words (and earlier flagged moves, if the
    /// first move was flagged).
    pub reason: String,
    /// Illegal moves: side, move as written, kind of illegality.
    pub illegal: Vec<(Color, String, &'static str)>,
    pub time_control: String,
    /// The per-move T-state budget of the retro engines, if any played.
    pub retro_budget: Option<u64>,
}

impl<R: Rules> GameRecord<R> {
    /// The result token of PGN and PDN (`1-0`, `0-1`, `1/2-1/2`, `*`), White's
    /// score first.
    pub fn result_token(&self) -> &'static str {
        self.result.map_or("*", GameResult::pgn)
    }
}
