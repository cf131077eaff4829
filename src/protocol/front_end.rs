//! The protocol front end's contract: a state machine from [`Input`]s to
//! [`Action`]s, which [`super::uci`], [`super::xboard`] and [`super::hub`]
//! implement and the session's edge ([`super::serve_on`]) drives.

use super::events::{Action, Input, Searched};
use crate::engines::EngineError;
use crate::rules::Rules;

/// A protocol front end: a state machine from [`Input`]s to [`Action`]s.
/// Each front end says what a line, a finished search, a ready engine and
/// a timer mean in its protocol; [`FrontEnd::handle`], the one dispatch of
/// all three, routes each input to them.
pub trait FrontEnd<R: Rules> {
    /// One line from the GUI, without its line ending.
    fn line(&mut self, line: &str, out: &mut Vec<Action<R>>);

    /// The engine worker finished a search.
    fn searched(&mut self, searched: Searched<R>, out: &mut Vec<Action<R>>);

    /// The engine is ready again: a new game set up, or the engine
    /// recreated with new options.
    fn engine_ready(&mut self, out: &mut Vec<Action<R>>);

    /// The engine could not be recreated with new options; the one before
    /// plays on.
    fn not_recreated(&mut self, error: &EngineError, out: &mut Vec<Action<R>>);

    /// A timer set with [`Action::WakeAfter`] went off.
    fn woken(&mut self, token: u64, out: &mut Vec<Action<R>>);

    /// Reacts to one input; the end of the input ends the session.
    fn handle(&mut self, input: Input<R>) -> Vec<Action<R>> {
        let mut out = Vec::new();
        match input {
            Input::Line(line) => self.line(&line, &mut out),
            Input::Eof => out.push(Action::Quit),
            Input::Searched(searched) => self.searched(searched, &mut out),
            Input::NewGameReady | Input::Recreated(Ok(())) => self.engine_ready(&mut out),
            Input::Recreated(Err(e)) => self.not_recreated(&e, &mut out),
            Input::Wake(token) => self.woken(token, &mut out),
        }
        out
    }
}
