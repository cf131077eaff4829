//! What a program did when asked to move: its [`Reply`], the move or hang
//! ([`Played`], [`Hang`]), how its position was given ([`InputPath`]) and
//! the moves it weighed ([`Thoughts`]).

use std::fmt;
use std::time::Duration;

use crate::machine::Stop;
use crate::rules::{Astray, HangKind};

/// How the driver brought the program to the position it was asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputPath {
    /// Nothing to do: the reply is the move stored on the tape.
    Tape,
    /// The opponent's move was typed on the emulated keyboard and the program
    /// accepted it through its own validation.
    Typed(String),
    /// The position was written into the program's memory; the reason says
    /// why typing was not possible.
    Injected(String),
    /// A native engine: the position is its input.
    Native,
}

impl fmt::Display for InputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputPath::Tape => write!(f, "move stored on the tape"),
            InputPath::Typed(keys) => write!(f, "typed {keys}"),
            InputPath::Injected(why) => write!(f, "position injected ({why})"),
            InputPath::Native => write!(f, "position given to the native engine"),
        }
    }
}

/// Why the program did not come back, in words for the person (they may
/// name the emulated machine's program counter) and as a kind for the
/// runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hang {
    pub kind: HangKind,
    pub detail: String,
}

impl Hang {
    /// The hang a machine's stop means (`None` for a stop that is no hang).
    pub fn from_stop(stop: Stop) -> Hang {
        let kind = match stop {
            Stop::BudgetExhausted { .. } => HangKind::Budget,
            Stop::Cut { .. } => HangKind::Deadline,
            Stop::Stuck { .. } => HangKind::Stuck,
            _ => HangKind::Fault,
        };
        Hang {
            kind,
            detail: stop.to_string(),
        }
    }
}

impl fmt::Display for Hang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

/// What the program did when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played<W> {
    /// The move the program made on its board, as protocols write it, read
    /// off its screen or memory. Not necessarily legal.
    Move(W),
    /// The move the program chose, with its board before and after where
    /// that board is not a plain reading of the move (ChesSkelet's
    /// long-castling test firing for a queen's step): the rules say what
    /// the program did
    /// ([`Rules::judge_astray`](crate::rules::Rules::judge_astray)), never
    /// the driver.
    Astray(Box<Astray<W>>),
    /// The program found no move and stopped, its own way of ending a game.
    DeadEnd,
    /// The program did not come back: budget exhausted, still running at
    /// its deadline, stuck somewhere else, or an emulation fault.
    Hung(Hang),
}

/// One reply of a program, with what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply<W> {
    pub played: Played<W>,
    /// The program's own score for its move, in centipawns (or draughts
    /// units) by the driver's documented mapping; `None` where it keeps none.
    pub score: Option<i32>,
    /// Moves the program evaluated (see the driver for what it counts).
    pub nodes: u64,
    /// Emulated T-states the reply took (0 for a native engine).
    pub tstates: u64,
    /// How long the original machine would have taken.
    pub authentic: Duration,
    pub path: InputPath,
    /// The moves the program weighed, if collection was asked for
    /// ([`Engine::collect_candidates`](super::Engine::collect_candidates))
    /// and the program searched.
    pub thoughts: Option<Thoughts<W>>,
}

/// One move the program weighed in its search, as it weighed it: read by
/// the driver at the point of the program's code where the score is
/// produced or compared (each driver cites that address from its seed),
/// never recomputed by us.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<W> {
    /// When the program scored it: 1 for the first move it weighed.
    pub seq: u32,
    /// The move as the program meant it, in wire notation. Not judged: it
    /// may be illegal under the rules (the program's own rules may differ).
    pub wire: W,
    /// The number the program itself computed and compares, as it holds it
    /// (a byte is shown as its unsigned value unless the driver says the
    /// program treats it as signed).
    pub raw: i32,
    /// `raw` by the driver's documented mapping: centipawns for chess,
    /// draughts units (100 = one man) for draughts. Higher is better for
    /// the program.
    pub score: i32,
    /// The part of `raw` the program drew by chance, where it draws one
    /// (1K ZX Chess adds FRAMES bit 0 to every score): what decides between
    /// moves it otherwise values the same. `None` for programs that draw
    /// nothing.
    pub chance: Option<i32>,
}

/// Which of equal scores the program's comparison keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// A later candidate replaces the best only if it scores more: the
    /// first of equals stays.
    KeepsFirst,
    /// A later candidate replaces the best if it scores at least as much:
    /// the last of equals wins.
    KeepsLast,
}

/// Everything the program weighed in one search, in its order of
/// preference.
#[derive(Clone, Debug, PartialEq)]
pub struct Thoughts<W> {
    /// Best first, by the program's own comparison; among equal scores in
    /// the order its comparison breaks ties ([`Ties`]). The first is the
    /// program's choice when its search ran to the end.
    pub ranked: Vec<Candidate<W>>,
    pub ties: Ties,
    /// How the program breaks ties, in words for the person, naming what
    /// decides (an instruction, a bit of FRAMES...).
    pub tie_break: &'static str,
}

impl<W> Thoughts<W> {
    /// Ranks `weighed` (in the order the program weighed them) as the
    /// program's comparison does: higher `raw` first, equals by `ties`.
    /// `raw` is compared, not `score`: the mapping may not be monotonic
    /// where the program's arithmetic wraps.
    pub fn rank(mut weighed: Vec<Candidate<W>>, ties: Ties, tie_break: &'static str) -> Self {
        weighed.sort_by(|a, b| {
            b.raw.cmp(&a.raw).then(match ties {
                Ties::KeepsFirst => a.seq.cmp(&b.seq),
                Ties::KeepsLast => b.seq.cmp(&a.seq),
            })
        });
        Thoughts {
            ranked: weighed,
            ties,
            tie_break,
        }
    }

    /// The program's choice by its own comparison.
    pub fn best(&self) -> Option<&Candidate<W>> {
        self.ranked.first()
    }
}
