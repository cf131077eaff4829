//! The retro chess programs, each behind one trait.
//!
//! A driver owns an emulated machine with the original program loaded. It
//! brings the program to the position a GUI asks about — typing the
//! opponent's move on the emulated keyboard when it continues the game on the
//! machine, setting the position up in the program's memory otherwise — lets
//! the program think, and reads its move back off the emulated screen.
//! Nothing above this layer knows a Z80 address.
//!
//! Drivers report what the program did, legal or not: judging it is the
//! arbiter's job (`crate::arbiter`).

pub mod chesskelet;
pub mod onek;

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use crate::machine::zx81::FramesMode;
use crate::machine::{Core, MachineError, Stop, TextScreen};

/// Who wrote a program, and how we present it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// The name used on the command line and in GUIs (`1k-zx-chess`).
    pub id: &'static str,
    /// The program's own name.
    pub name: &'static str,
    pub author: &'static str,
    pub year: u16,
    /// The machine it runs on.
    pub machine: &'static str,
    /// A paragraph for `UCI_EngineAbout` and `--help`.
    pub about: &'static str,
}

/// What a driver may be asked to do differently from its defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Drives everything the real machine left to chance (FRAMES at start,
    /// how long the person takes over each key). Same seed, same game.
    pub seed: u64,
    /// From the initial position, let the program think instead of playing
    /// the first move stored on its tape (1K ZX Chess).
    pub think_first_move: bool,
    /// How FRAMES moves while a ZX81 program thinks.
    pub frames: FramesMode,
    /// Load this tape or snapshot instead of the built-in one.
    pub tape: Option<PathBuf>,
    /// T-states a single reply may take before the driver calls it hung.
    pub budget: u64,
    /// The Z80 core the program's machine runs on.
    pub core: Core,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            seed: 1,
            think_first_move: false,
            frames: FramesMode::Slow,
            tape: None,
            budget: DEFAULT_BUDGET,
            core: Core::default(),
        }
    }
}

/// Default T-state budget per reply: 20 × 10⁹, over an hour and a half of
/// real ZX81 time even in FAST mode; the programs here need far less.
pub const DEFAULT_BUDGET: u64 = 20_000_000_000;

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
}

impl fmt::Display for InputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputPath::Tape => write!(f, "move stored on the tape"),
            InputPath::Typed(keys) => write!(f, "typed {keys}"),
            InputPath::Injected(why) => write!(f, "position injected ({why})"),
        }
    }
}

/// What the program did when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// The move the program made on its board, in standard coordinates, as
    /// read off its screen. Not necessarily legal.
    Move(UciMove),
    /// The program found no move and stopped, its own way of ending a game.
    DeadEnd,
    /// The program did not come back: budget exhausted, stuck somewhere
    /// else, or an emulation fault.
    Hung(Stop),
}

/// One reply of a program, with what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub played: Played,
    /// The program's own score for its move, in centipawns by the driver's
    /// documented mapping; `None` where the program keeps none.
    pub score: Option<i32>,
    /// Moves the program evaluated (see the driver for what it counts).
    pub nodes: u64,
    /// Emulated T-states the reply took.
    pub tstates: u64,
    /// How long the original machine would have taken.
    pub authentic: Duration,
    pub path: InputPath,
}

/// Errors of a driver (the program's own failures are [`Played`] values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// No engine of that name.
    Unknown(String),
    /// The tape could not be loaded or is not this program.
    Machine(MachineError),
    /// The position cannot be given to this program.
    Position(String),
    /// The program's screen could not be read as a move.
    Unreadable(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Unknown(name) => {
                write!(
                    f,
                    "unknown engine {name:?} (known: {})",
                    engine_ids().join(", ")
                )
            }
            EngineError::Machine(e) => e.fmt(f),
            EngineError::Position(why) => write!(f, "cannot set up position: {why}"),
            EngineError::Unreadable(why) => write!(f, "cannot read the program's move: {why}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<MachineError> for EngineError {
    fn from(e: MachineError) -> Self {
        EngineError::Machine(e)
    }
}

/// A retro chess program behind its driver.
pub trait ChessEngine: Send {
    fn info(&self) -> &EngineInfo;

    /// Starts a new game: a freshly loaded machine, seeded from the options.
    ///
    /// # Errors
    /// The tape cannot be loaded.
    fn new_game(&mut self) -> Result<(), EngineError>;

    /// The program's move in the position reached from `root` by `moves`
    /// (legal moves, validated by the caller), thinking at most `budget`
    /// T-states. The side to move is the program's side.
    ///
    /// # Errors
    /// The position cannot be represented, or the screen cannot be read.
    fn play(&mut self, root: &Chess, moves: &[Move], budget: u64) -> Result<Reply, EngineError>;

    /// The emulated screen as it is now.
    fn screen(&mut self) -> TextScreen;

    /// For `bench`: the program's search of `pos` run once by the driver's
    /// harness and once on a bare emulator with nothing between
    /// instructions, so the harness's cost is a measured ratio. `None` where
    /// a driver has no bare run.
    fn raw_rate(&mut self, pos: &Chess) -> Option<RateSample> {
        let _ = pos;
        None
    }
}

/// One search timed in the harness and on the bare emulator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    pub harness_tstates: u64,
    pub harness_time: Duration,
    pub bare_tstates: u64,
    pub bare_time: Duration,
}

/// The built-in engines' ids.
pub fn engine_ids() -> Vec<&'static str> {
    onek::VARIANTS
        .iter()
        .map(|v| v.info.id)
        .chain(chesskelet::BUILDS.iter().map(|b| b.info.id))
        .collect()
}

/// Creates the engine called `id`.
///
/// # Errors
/// Unknown id, or its tape cannot be loaded.
pub fn create(id: &str, options: &EngineOptions) -> Result<Box<dyn ChessEngine>, EngineError> {
    if let Some(variant) = onek::VARIANTS.iter().find(|v| v.info.id == id) {
        return Ok(Box::new(onek::OneKZxChess::new(variant, options.clone())?));
    }
    if let Some(build) = chesskelet::BUILDS.iter().find(|b| b.info.id == id) {
        return Ok(Box::new(chesskelet::ChesSkelet::new(
            build,
            options.clone(),
        )?));
    }
    Err(EngineError::Unknown(id.to_string()))
}

/// The info of the engine called `id`, without loading it.
pub fn info(id: &str) -> Option<&'static EngineInfo> {
    onek::VARIANTS
        .iter()
        .map(|v| &v.info)
        .chain(chesskelet::BUILDS.iter().map(|b| &b.info))
        .find(|i| i.id == id)
}
