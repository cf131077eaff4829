//! A built-in engine as declared by its driver ([`Entry`]), and how one is
//! created for a game ([`Catalogue`]).

use std::fmt;

use super::{Engine, EngineError, EngineInfo, EngineOptions, GameKind, OptionSpec};
use crate::rules::Rules;
use crate::rules::chess::ChessRules;
use crate::rules::draughts::{Draughts, Variant};

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
/// Each driver file declares its own (`ENTRIES`); [`REGISTRY`](super::REGISTRY) lists the
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
    /// The draughts rules the program itself plays by where they are not
    /// English checkers (Draughts 1K's house rules); `None` for the others
    /// and for chess. See [`Entry::own_rules`].
    pub house_variant: Option<Variant>,
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
            house_variant: None,
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
            house_variant: None,
        }
    }

    /// The same entry with `searching` values ([`Entry::searching`]).
    pub const fn searching(mut self, values: &'static [(&'static str, &'static str)]) -> Entry {
        self.searching = values;
        self
    }

    /// The same entry, of a draughts program that plays by its own
    /// `variant` ([`Entry::house_variant`]).
    pub const fn house_variant(mut self, variant: Variant) -> Entry {
        self.house_variant = Some(variant);
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
