//! The events and actions of the front ends' state machines: what a front
//! end reacts to ([`Input`]), what it asks the edge to do ([`Action`]), the
//! jobs of the engine worker and their answers, and ids.

use std::time::Duration;

use std::fmt;

use crate::engines::{EngineError, EngineOptions, Reply};
use crate::rules::{Game, Rules};

/// What a front end reacts to.
#[derive(Debug)]
pub enum Input<R: Rules> {
    /// One line from the GUI, without its line ending.
    Line(String),
    /// The GUI closed our stdin.
    Eof,
    /// The engine worker finished a search.
    Searched(Searched<R>),
    /// The engine worker finished recreating the engine (new options).
    Recreated(Result<(), EngineError>),
    /// The engine worker finished setting up a new game ([`Job::NewGame`]).
    NewGameReady,
    /// A timer set with [`Action::WakeAfter`] went off.
    Wake(u64),
}

/// What a front end asks the edge to do, in order.
#[derive(Debug, PartialEq)]
pub enum Action<R: Rules> {
    /// A line to the GUI (stdout).
    Send(String),
    /// A note for the person watching stderr.
    Note(String),
    /// A line for the debug log only (stderr with `-vv`): what a person
    /// need not see at every start.
    Debug(String),
    /// A job for the engine worker.
    Job(Job<R>),
    /// Send [`Input::Wake`] with this token after this long.
    WakeAfter(Duration, u64),
    /// Stop serving.
    Quit,
}

/// A job for the engine worker; they run in the order given.
#[derive(Debug, PartialEq)]
pub enum Job<R: Rules> {
    /// Find the program's move in the position the game has reached.
    Search(SearchRequest<R>),
    /// A fresh game on a freshly loaded machine.
    NewGame,
    /// Recreate the engine with new options (its id stays).
    Recreate(EngineOptions),
}

/// One search for the engine worker.
#[derive(Clone, Debug)]
pub struct SearchRequest<R: Rules> {
    /// Matches the [`Searched`] that answers it.
    pub id: u64,
    /// The game so far (legal moves, checked by the rules).
    pub game: Game<R>,
    /// Emulated T-states the program may take: the hang guard where no
    /// clock limits ([`super::clock::NO_CLOCK_BUDGET`]).
    pub budget: u64,
    /// How long after the command that asked for the search (the edge
    /// stamps its arrival) a program still running is cut
    /// ([`super::clock`]'s rule); `None`: never.
    pub deadline: Option<Duration>,
    /// Also send the emulated screen back.
    pub screen: bool,
    /// Collect the program's candidates ([`Reply::thoughts`]).
    pub thoughts: bool,
}

impl<R: Rules> PartialEq for SearchRequest<R> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.budget == other.budget
            && self.deadline == other.deadline
            && self.screen == other.screen
            && self.thoughts == other.thoughts
            && self.game.root() == other.game.root()
            && self.game.moves() == other.game.moves()
    }
}

/// A finished search.
#[derive(Debug)]
pub struct Searched<R: Rules> {
    pub id: u64,
    /// The program's reply, or why the driver gave none.
    pub result: Result<Reply<R::Wire>, SearchError>,
    /// Host time the search took.
    pub host: Duration,
    /// Host time between the command's arrival and the search's start (a
    /// search queued behind another): its deadline counts from the
    /// command.
    pub waited: Duration,
    /// The emulated screen after the reply (plain text rows, blank rows
    /// above and below left out), if asked for and the engine has one.
    pub screen: Option<Vec<String>>,
}

/// Ids for searches and timers.
#[derive(Debug, Default)]
pub struct Ids(u64);

impl Ids {
    pub fn fresh(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

/// Why a search gave no reply: the driver's error, kept typed up to the
/// front end that words it.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchError {
    /// The driver reported an error.
    Engine(EngineError),
    /// The driver panicked (with this message); the machine was reloaded.
    Panicked(String),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Engine(e) => e.fmt(f),
            SearchError::Panicked(what) => {
                write!(f, "the driver panicked ({what}); the machine was reloaded")
            }
        }
    }
}

impl std::error::Error for SearchError {}
