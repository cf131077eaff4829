//! The retro programs, each behind one trait, generic over the game.
//!
//! A driver owns an emulated machine with the original program loaded. It
//! brings the program to the position a GUI asks about — typing the
//! opponent's move on the emulated keyboard when it continues the game on the
//! machine, setting the position up in the program's memory otherwise — lets
//! the program think, and reads its move back off the emulated screen.
//! Nothing above this layer knows a Z80 address: a reply is a wire move
//! ([`Played`]), a typed hang ([`Hang`]) and a cost; a driver declares its
//! own options ([`OptionSpec`]) and the front ends render them.
//!
//! Drivers report what the program did, legal or not: judging it is the
//! rules' job (`crate::rules`). An engine with no emulated machine (a native
//! engine) implements the same [`Engine`] trait.

pub mod baker;
pub mod chesskelet;
pub mod draughts_1k;
pub mod driver;
pub mod onek;
pub mod samuel_f8;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Duration;

use crate::machine::{Core, Cut, Display, MachineError, Stop, TextScreen};
use crate::rules::chess::ChessRules;
use crate::rules::draughts::{Draughts, UnknownVariant, Variant};
use crate::rules::{Astray, Game, HangKind, Rules};

pub use options::{BadValue, FRAMES, OPENING, OptionKind, OptionSpec, Takes};

mod options;

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
    /// Load this tape or snapshot instead of the built-in one.
    pub tape: Option<PathBuf>,
    /// T-states a single reply may take before the driver calls it hung.
    pub budget: u64,
    /// Values of the options drivers declare ([`OptionSpec`]), by name as
    /// declared; a driver reads those it declares and ignores the rest, so
    /// one set serves every engine of a match.
    pub values: BTreeMap<String, String>,
    /// The Z80 core the program's machine runs on (engines without one
    /// ignore it).
    pub core: Core,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            seed: 1,
            tape: None,
            budget: DEFAULT_BUDGET,
            values: BTreeMap::new(),
            core: Core::default(),
        }
    }
}

impl EngineOptions {
    /// The value of the declared option `name`, if one was set.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The same options with `name` set to `value`.
    pub fn with(mut self, name: &str, value: &str) -> EngineOptions {
        self.values.insert(name.to_string(), value.to_string());
        self
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
    /// the program did ([`Rules::judge_astray`]), never the driver.
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
    /// ([`Engine::collect_candidates`]) and the program searched.
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

/// Errors of a driver (the program's own failures are [`Played`] values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// No engine of that name.
    Unknown(String),
    /// The engine (its id) plays another game than the one asked for.
    OtherGame(&'static str),
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
            EngineError::OtherGame(id) => write!(f, "{id} plays another game"),
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

/// A program behind its driver, playing the game of the rules `R`.
pub trait Engine<R: Rules>: Send {
    fn info(&self) -> &'static EngineInfo;

    /// Starts a new game: the machine as it is after loading, with
    /// everything it leaves to chance drawn afresh from the seed, so that a
    /// game depends on its seed and not on what the process did before.
    ///
    /// # Errors
    /// The tape cannot be loaded.
    fn new_game(&mut self) -> Result<(), EngineError>;

    /// The program's move in the position `game` has reached (its side to
    /// move), thinking at most `budget` T-states.
    ///
    /// # Errors
    /// The position cannot be represented, or the move cannot be read.
    fn play(&mut self, game: &Game<R>, budget: u64) -> Result<Reply<R::Wire>, EngineError>;

    /// [`Engine::play`], and the run also ends, the program still running,
    /// when `cut` says so ([`Played::Hung`] of [`HangKind::Deadline`]): how
    /// a deadline on the host's clock reaches the machine (the protocol
    /// front ends' rule, `crate::protocol::clock`). Up to the cut, the
    /// program runs exactly as without one. An engine with no emulated
    /// machine answers at once and ignores it.
    ///
    /// # Errors
    /// As [`Engine::play`].
    fn play_until(
        &mut self,
        game: &Game<R>,
        budget: u64,
        cut: &Cut,
    ) -> Result<Reply<R::Wire>, EngineError> {
        let _ = cut;
        self.play(game, budget)
    }

    /// Asks the driver to collect, from now on, every move the program
    /// weighs with its own score ([`Reply::thoughts`]), or to stop. The
    /// program's search, its move and its T-states are the same either way.
    /// Returns whether this driver can (false: replies carry no thoughts).
    fn collect_candidates(&mut self, on: bool) -> bool {
        let _ = on;
        false
    }

    /// The emulated screen as it is now; `None` for a native engine.
    fn screen(&mut self) -> Option<TextScreen>;

    /// The emulated machine's display memory as it is now, for a picture
    /// (`crate::picture`); `None` for a native engine.
    fn display(&mut self) -> Option<Display> {
        None
    }

    /// For `bench`: the program's search of `pos` run once by the driver's
    /// harness and once on a bare emulator with nothing between
    /// instructions, so the harness's cost is a measured ratio. `None` where
    /// a driver has no bare run.
    fn raw_rate(&mut self, pos: &R::Position) -> Option<RateSample> {
        let _ = pos;
        None
    }
}

/// The engines of one game: what the front ends and the runner create
/// from a catalogue entry.
pub trait Catalogue: Rules + Sized {
    /// Creates the engine of `entry` for this game.
    ///
    /// # Errors
    /// An engine of another game, or its tape cannot be loaded.
    fn create(entry: &Entry, options: &EngineOptions)
    -> Result<Box<dyn Engine<Self>>, EngineError>;
}

/// One search timed in the harness and on the bare emulator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    pub harness_tstates: u64,
    pub harness_time: Duration,
    pub bare_tstates: u64,
    pub bare_time: Duration,
}

/// [`EngineInfo::machine`] of an engine with no emulated machine.
pub const NATIVE: &str = "none (native)";

/// Which game an engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Draughts,
}

impl GameKind {
    /// The side a person plays when none is chosen: the second to move,
    /// so that the program moves first, as on its machine (White moves
    /// first in chess, Black in draughts).
    pub fn person_side(self) -> crate::rules::Color {
        match self {
            GameKind::Chess => crate::rules::Color::Black,
            GameKind::Draughts => crate::rules::Color::White,
        }
    }
}

/// A function creating an engine of the game of `R` from the options.
pub type Maker<R> = fn(&EngineOptions) -> Result<Box<dyn Engine<R>>, EngineError>;

/// How to create a built-in engine: a function of the options, for the
/// game it plays.
#[derive(Clone, Copy)]
pub enum Create {
    Chess(Maker<ChessRules>),
    Draughts(Maker<Draughts>),
}

/// A built-in engine, as listed before it is loaded: its one declaration.
/// Each driver file declares its own (`ENTRIES`); [`REGISTRY`] lists the
/// drivers, and everything that names engines (the command line, bench,
/// explain, the front ends, the adapters' check, the tests) iterates it.
#[derive(Clone, Copy)]
pub struct Entry {
    pub info: &'static EngineInfo,
    pub game: GameKind,
    /// The options its driver declares (their defaults, before any is set).
    pub options: fn() -> Vec<OptionSpec>,
    pub create: Create,
    /// The option values that make it search from the initial position
    /// instead of playing a move stored on its tape (for `bench` and
    /// `explain`, which measure and show searches).
    pub searching: &'static [(&'static str, &'static str)],
    /// Whether it runs on an emulated machine with a screen to show.
    pub has_screen: bool,
}

impl Entry {
    /// A chess program on an emulated machine.
    pub const fn chess(
        info: &'static EngineInfo,
        options: fn() -> Vec<OptionSpec>,
        create: Maker<ChessRules>,
    ) -> Entry {
        Entry {
            info,
            game: GameKind::Chess,
            options,
            create: Create::Chess(create),
            searching: &[],
            has_screen: true,
        }
    }

    /// A draughts program on an emulated machine.
    pub const fn draughts(
        info: &'static EngineInfo,
        options: fn() -> Vec<OptionSpec>,
        create: Maker<Draughts>,
    ) -> Entry {
        Entry {
            info,
            game: GameKind::Draughts,
            options,
            create: Create::Draughts(create),
            searching: &[],
            has_screen: true,
        }
    }

    /// The same entry with `searching` values ([`Entry::searching`]).
    pub const fn searching(mut self, values: &'static [(&'static str, &'static str)]) -> Entry {
        self.searching = values;
        self
    }

    /// The same entry, of an engine with no emulated machine (no screen).
    pub const fn native(mut self) -> Entry {
        self.has_screen = false;
        self
    }

    /// `options` with this engine's [`Entry::searching`] values, where not
    /// set already.
    pub fn search_options(&self, options: &EngineOptions) -> EngineOptions {
        let mut options = options.clone();
        for &(name, value) in self.searching {
            if options.value(name).is_none() {
                options = options.with(name, value);
            }
        }
        options
    }
}

/// Entries are one per engine: the same when their ids are.
impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.info.id == other.info.id
    }
}

impl Eq for Entry {}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Entry").field(&self.info.id).finish()
    }
}

/// The one registry: every driver's entries, chess first. A new program is
/// its driver file and one line here.
pub static REGISTRY: [&[Entry]; 5] = [
    &onek::ENTRIES,
    &chesskelet::ENTRIES,
    &draughts_1k::ENTRIES,
    &samuel_f8::engine::ENTRIES,
    &baker::ENTRIES,
];

/// Every built-in engine, chess first: [`REGISTRY`] gathered once.
static CATALOGUE: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    REGISTRY
        .iter()
        .flat_map(|entries| entries.iter().copied())
        .collect()
});

/// Every built-in engine, chess first.
pub fn catalogue() -> &'static [Entry] {
    &CATALOGUE
}

/// The built-in engines' ids.
pub fn engine_ids() -> Vec<&'static str> {
    catalogue().iter().map(|e| e.info.id).collect()
}

/// The built-in engine called `id`, without loading it.
pub fn entry(id: &str) -> Option<&'static Entry> {
    catalogue().iter().find(|e| e.info.id == id)
}

/// The built-in engine called `id`: the one lookup by name, made where a
/// name comes in (the command line, a protocol's option, a player spec,
/// the page's form); below, the entry is passed.
///
/// # Errors
/// No engine of that name (the error lists the names).
pub fn find(id: &str) -> Result<&'static Entry, EngineError> {
    entry(id).ok_or_else(|| EngineError::Unknown(id.to_string()))
}

/// The engine run when none is named: 1K ZX Chess for chess, Samuel F8
/// for draughts.
pub fn default_for(game: GameKind) -> &'static Entry {
    match game {
        GameKind::Chess => &onek::ENTRIES[0],
        GameKind::Draughts => &samuel_f8::engine::ENTRIES[0],
    }
}

/// The info of the engine called `id`, without loading it.
pub fn info(id: &str) -> Option<&'static EngineInfo> {
    entry(id).map(|e| e.info)
}

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
}

/// Runs `$body` with `$rules` bound to the rules of a [`GameRules`],
/// whichever game: the one dispatch from a chosen game to code generic
/// over [`Rules`] (a macro: the body may need bounds a trait method here
/// could not name).
#[macro_export]
macro_rules! with_rules {
    ($game:expr, |$rules:ident| $body:expr) => {
        match $game {
            $crate::engines::GameRules::Chess($rules) => $body,
            $crate::engines::GameRules::Draughts($rules) => $body,
        }
    };
}

impl Catalogue for Draughts {
    fn create(
        entry: &Entry,
        options: &EngineOptions,
    ) -> Result<Box<dyn Engine<Self>>, EngineError> {
        match entry.create {
            Create::Draughts(create) => create(options),
            Create::Chess(_) => Err(EngineError::OtherGame(entry.info.id)),
        }
    }
}

impl Catalogue for ChessRules {
    fn create(
        entry: &Entry,
        options: &EngineOptions,
    ) -> Result<Box<dyn Engine<Self>>, EngineError> {
        match entry.create {
            Create::Chess(create) => create(options),
            Create::Draughts(_) => Err(EngineError::OtherGame(entry.info.id)),
        }
    }
}
