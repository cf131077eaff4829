//! `samuel-f8` behind the [`Engine`] trait: a native engine, so no machine,
//! no T-states and no screen; the position is handed over as the three
//! sets the design keeps, and the move comes back in PDN numbering.
//!
//! Declared option `Level`: the minimum plies of the search (the notes'
//! "several levels of play"); the search goes on to 10 plies, or to the
//! level if higher, while a jump is pending.
//!
//! # Candidates ([`Engine::collect_candidates`])
//! The root moves of the search (`Search::best`, `search.rs`) in the order
//! it searched them (FIND/SELECT order, `movegen.rs`), each with the value
//! the root compared. `raw` = `score` = that value in hundredths of a man,
//! the search's own unit and [`Reply::score`]'s (WIN = 10,000 minus plies
//! for a win). Under α-β only the first move and each one that raised α
//! carry exact values; the others carry a bound (at most α, fail-soft).
//! Ties: the first of equal values stays ([`Ties::KeepsFirst`]): the root
//! replaces its best only on `score > s`. A stored first move is not
//! searched: the candidates are then the stored moves in the store's order,
//! each at 0 (as the reply's score), the one drawn first.

use std::str::FromStr;
use std::time::Duration;

use super::{Decision, Level, Position, SamuelF8, SamuelMove, Score, Side};
use crate::engines::{
    Candidate, Engine, EngineError, EngineInfo, EngineOptions, Entry, InputPath, OptionKind,
    OptionSpec, Played, Reply, Thoughts, Ties,
};
use crate::machine::TextScreen;
use crate::rules::draughts::{Draughts, PdnMove};
use crate::rules::{Color, Game};

/// `Level`: the minimum plies of the search.
pub const LEVEL: &str = "Level";

/// How the search breaks ties, for [`Thoughts::tie_break`].
pub const TIE_BREAK: &str = "the first of equal values stays: the root takes a move only if \
     it scores more (score > s in Search::best, search.rs)";
/// How a stored first move is chosen, for [`Thoughts::tie_break`].
pub const BOOK_TIE_BREAK: &str = "no search: a stored first move drawn at random with the seed \
     (notes p. 2, \"randomly select a stored first move\")";

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

/// Samuel F8: the draughts engine run when none is named
/// ([`default_for`](crate::engines::default_for)).
pub static SAMUEL_F8: Entry = Entry::draughts(&INFO, declared_options, |o| {
    Ok(Box::new(SamuelEngine::new(o)?))
})
.native();

/// The registry's entry.
pub static ENTRIES: [Entry; 1] = [SAMUEL_F8];

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
    /// Collect the root moves with their values.
    collect: bool,
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
            collect: false,
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
        let Some(choice) = self.program.weigh(&ours, game.moves().is_empty()) else {
            // The side to move has no move: the design has nothing to say.
            let none = Thoughts::rank(Vec::new(), Ties::KeepsFirst, TIE_BREAK);
            return Ok(reply(
                Played::DeadEnd,
                None,
                0,
                self.collect.then_some(none),
            ));
        };
        let thoughts = if self.collect {
            Some(thoughts(&choice)?)
        } else {
            None
        };
        let played = Played::Move(wire(&choice.mv)?);
        Ok(reply(
            played,
            Some(choice.score),
            choice.stats.nodes,
            thoughts,
        ))
    }

    fn collect_candidates(&mut self, on: bool) -> bool {
        self.collect = on;
        true
    }

    fn screen(&mut self) -> Option<TextScreen> {
        None
    }
}

/// A move as the protocols write it.
fn wire(m: &SamuelMove) -> Result<PdnMove, EngineError> {
    PdnMove::from_str(&m.to_string())
        .map_err(|e| EngineError::Unreadable(format!("samuel-f8 wrote {m}: {e}")))
}

/// A native reply: no T-states, no authentic time.
fn reply(
    played: Played<PdnMove>,
    score: Option<Score>,
    nodes: u64,
    thoughts: Option<Thoughts<PdnMove>>,
) -> Reply<PdnMove> {
    Reply {
        played,
        score,
        thoughts,
        nodes,
        tstates: 0,
        authentic: Duration::ZERO,
        path: InputPath::Native,
    }
}

/// The root moves of `choice`, ranked as the root compared them (a stored
/// first move: the one drawn first).
fn thoughts(choice: &Decision) -> Result<Thoughts<PdnMove>, EngineError> {
    let weighed = choice
        .root
        .iter()
        .zip(1..)
        .map(|((m, value), seq)| {
            Ok(Candidate {
                seq,
                wire: wire(m)?,
                raw: *value,
                score: *value,
                chance: None,
            })
        })
        .collect::<Result<Vec<_>, EngineError>>()?;
    if !choice.stats.from_book {
        return Ok(Thoughts::rank(weighed, Ties::KeepsFirst, TIE_BREAK));
    }
    let mut book = Thoughts::rank(weighed, Ties::KeepsFirst, BOOK_TIE_BREAK);
    let drawn = wire(&choice.mv)?;
    if let Some(i) = book.ranked.iter().position(|c| c.wire == drawn) {
        book.ranked[..=i].rotate_right(1);
    }
    Ok(book)
}
