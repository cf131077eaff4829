//! A finished game as the runner records it, whatever the game: who played
//! with which seed, from which opening, the moves with comments (what each
//! retro engine's move cost, and flagged moves), and how it ended (typed).
//! The record format (PGN for chess, PDN for draughts) is the game's own
//! ([`super::match_game::MatchGame::record_text`]).
//!
//! # The move comments
//!
//! After each move of a retro engine the record keeps a comment in the
//! style cutechess writes engine evaluations (`{+0.35/7 0.1s}`), with what
//! a retro program can tell:
//!
//! ```text
//! {+0.35 6.6s, 23 nodes, typed e7e5}
//! ```
//!
//! - the program's own score for its move as its driver reports it
//!   ([`crate::engines::Reply::score`]), in
//!   pawns (chess: its centipawns / 100) or men (draughts: its units /
//!   100), always signed; left out when the program keeps none. There is
//!   no `/depth`: the programs search their own fixed way and report none;
//! - its thinking time on the original machine (authentic time, seconds,
//!   one decimal), which the seed fixes: the same match gives the same
//!   comments, whatever the host;
//! - the moves it evaluated (`nodes`, as the driver counts them);
//! - how the position reached the program ([`InputPath`]): `tape` (the
//!   move stored on the tape), `typed KEYS` (our move typed on its
//!   keyboard and accepted by its own check), `injected` (written into its
//!   memory), `native`.
//!
//! The random mover's and external engines' moves carry none. A flagged
//! illegal move of `--illegal continue` is appended after `; `. `match
//! --no-comments` leaves the move comments out, giving the record of
//! before they were kept, byte for byte.

use std::fmt;
use std::time::Duration;

use crate::engines::InputPath;
use crate::rules::{Color, EndReason, GameResult, Rules, Termination};

/// What a retro engine's move cost and how it was made (see the module's
/// "The move comments").
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// The program's score for its move, in hundredths of a pawn or man.
    pub score: Option<i32>,
    /// Its thinking time on the original machine.
    pub authentic: Duration,
    pub nodes: u64,
    pub path: InputPath,
}

impl fmt::Display for MoveNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(score) = self.score {
            write!(f, "{:+.2} ", f64::from(score) / 100.0)?;
        }
        write!(
            f,
            "{:.1}s, {} nodes, ",
            self.authentic.as_secs_f64(),
            self.nodes
        )?;
        match &self.path {
            InputPath::Tape => f.write_str("tape"),
            InputPath::Typed(keys) => write!(f, "typed {keys}"),
            InputPath::Injected(_) => f.write_str("injected"),
            InputPath::Native => f.write_str("native"),
        }
    }
}

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
    /// Moves with a comment to print after each (what a retro engine's
    /// move cost, flagged moves).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_notes_read_like_cutechess_comments() {
        let note = |score, path| MoveNote {
            score,
            authentic: Duration::from_millis(6_580),
            nodes: 23,
            path,
        };
        assert_eq!(
            note(Some(35), InputPath::Typed("e7e5".into())).to_string(),
            "+0.35 6.6s, 23 nodes, typed e7e5"
        );
        assert_eq!(
            note(Some(-100), InputPath::Injected("why".into())).to_string(),
            "-1.00 6.6s, 23 nodes, injected"
        );
        assert_eq!(
            note(None, InputPath::Tape).to_string(),
            "6.6s, 23 nodes, tape"
        );
        assert_eq!(
            note(Some(0), InputPath::Native).to_string(),
            "+0.00 6.6s, 23 nodes, native"
        );
    }
}
