//! `samuel-f8` behind the [`Engine`] trait: a native engine, so no machine,
//! no T-states and no screen; the position is handed over as the three
//! sets the design keeps, and the move comes back in PDN numbering.
//!
//! Declared option `Level`: the minimum plies of the search (the notes'
//! "several levels of play"); the search goes on to 10 plies, or to the
//! level if higher, while a jump is pending.

use std::str::FromStr;
use std::time::Duration;

use super::{Level, Position, SamuelF8, Side};
use crate::engines::{
    Engine, EngineError, EngineInfo, EngineOptions, InputPath, OptionKind, OptionSpec, Played,
    Reply,
};
use crate::machine::TextScreen;
use crate::rules::draughts::{Draughts, PdnMove};
use crate::rules::{Color, Game};

/// `Level`: the minimum plies of the search.
pub const LEVEL: &str = "Level";

pub static INFO: EngineInfo = EngineInfo {
    id: "samuel-f8",
    name: "Samuel F8 checkers",
    author: "Arthur Samuel",
    year: 1977,
    machine: crate::engines::NATIVE,
    about: "Arthur Samuel's 1977 design notes for checkers on a Fairchild F8 (bitboards, \
            4 to 10 ply while jumps are pending), implemented natively; the evaluation's \
            five terms are ours, from his published papers.",
};

/// The options this engine declares.
pub fn declared_options() -> Vec<OptionSpec> {
    vec![OptionSpec {
        name: LEVEL,
        kind: OptionKind::Spin {
            default: i64::from(Level::default().min_ply()),
            min: 1,
            max: i64::from(Level::MAX_PLY_LIMIT),
        },
    }]
}

/// The engine.
pub struct SamuelEngine {
    seed: u64,
    level: Level,
    program: SamuelF8,
}

impl SamuelEngine {
    /// # Errors
    /// A `Level` that is not a number of plies the search can take.
    pub fn new(options: &EngineOptions) -> Result<SamuelEngine, EngineError> {
        let level = match options.value(LEVEL) {
            None => Level::default(),
            Some(text) => text
                .parse::<u8>()
                .ok()
                .and_then(|n| Level::plies(n).ok())
                .ok_or_else(|| {
                    EngineError::Position(format!("Level {text:?} is not a number of plies"))
                })?,
        };
        Ok(SamuelEngine {
            seed: options.seed,
            level,
            program: SamuelF8::new(options.seed, level),
        })
    }
}

impl Engine<Draughts> for SamuelEngine {
    fn info(&self) -> &'static EngineInfo {
        &INFO
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.program = SamuelF8::new(self.seed, self.level);
        Ok(())
    }

    fn play(&mut self, game: &Game<Draughts>, _budget: u64) -> Result<Reply<PdnMove>, EngineError> {
        let pos = game.position();
        let side = match pos.turn() {
            Color::Black => Side::Black,
            Color::White => Side::White,
        };
        let ours = Position::new(pos.black(), pos.white(), pos.kings(), side)
            .map_err(|e| EngineError::Position(e.to_string()))?;
        let game_start = game.moves().is_empty();
        let (played, score, nodes) = match self.program.choose(&ours, game_start) {
            Some((m, score, stats)) => {
                let wire = PdnMove::from_str(&m.to_string())
                    .map_err(|e| EngineError::Unreadable(format!("samuel-f8 wrote {m}: {e}")))?;
                (Played::Move(wire), Some(score), stats.nodes)
            }
            // The side to move has no move: the design has nothing to say.
            None => (Played::DeadEnd, None, 0),
        };
        Ok(Reply {
            played,
            score,
            thoughts: None,
            nodes,
            tstates: 0,
            authentic: Duration::ZERO,
            path: InputPath::Native,
        })
    }

    fn screen(&mut self) -> Option<TextScreen> {
        None
    }
}
