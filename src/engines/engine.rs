//! The one trait every program implements behind its driver: [`Engine`],
//! and the timing it reports for `bench` ([`RateSample`]).

use std::time::Duration;

use super::{EngineError, EngineInfo, Reply};
use crate::machine::{Cut, Display, TextScreen};
use crate::rules::{Game, Rules};

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
    /// when `cut` says so ([`Played::Hung`](super::Played::Hung) of
    /// [`HangKind::Deadline`](crate::rules::HangKind::Deadline)): how
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

/// One search timed in the harness and on the bare emulator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    pub harness_tstates: u64,
    pub harness_time: Duration,
    pub bare_tstates: u64,
    pub bare_time: Duration,
}
