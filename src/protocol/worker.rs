//! The engine on its thread: runs the front end's [`Job`]s off the
//! protocol thread and answers with [`Input`]s. A search takes a few
//! milliseconds of host time (1K ZX Chess: ~6 M emulated T-states), and
//! `isready`/`ping` must be answered while it runs. It is not interrupted
//! (a program cut short has no move to give: `stop` only sends its answer
//! as soon as it has one), except by its deadline: where the request has
//! one, the search is cut if still running that long after the command
//! arrived ([`super::clock`]'s rule), the host's wall clock checked
//! between slices of emulated time.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Instant, SystemTime};

use super::clock::NO_CLOCK_BUDGET;
use super::events::{Input, Job, SearchError, SearchRequest, Searched};
use crate::engines::{Catalogue, Engine, EngineError, EngineOptions, Entry};
use crate::machine::{Cut, ScreenStyle};

/// The engine on its thread: runs [`Job`]s, answers with [`Input`]s.
pub struct Worker<R: Catalogue> {
    entry: &'static Entry,
    options: EngineOptions,
    engine: Box<dyn Engine<R>>,
}

impl<R: Catalogue> Worker<R> {
    /// Loads the engine of `entry`.
    ///
    /// # Errors
    /// An engine of another game, or its tape cannot be loaded.
    pub fn new(entry: &'static Entry, options: &EngineOptions) -> Result<Worker<R>, EngineError> {
        Ok(Worker {
            entry,
            options: options.clone(),
            engine: R::create(entry, options)?,
        })
    }

    /// Runs one job, given by a command that arrived at `arrived` (where a
    /// search's deadline counts from); `None` for jobs nobody waits for.
    pub fn run(&mut self, job: Job<R>, arrived: Instant) -> Option<Input<R>> {
        match job {
            Job::Search(request) => Some(Input::Searched(self.search(request, arrived))),
            Job::NewGame => {
                if let Err(e) = self.engine.new_game() {
                    log::warn!("new game: {e}");
                }
                Some(Input::NewGameReady)
            }
            Job::Recreate(options) => {
                let result = R::create(self.entry, &options).map(|engine| {
                    self.engine = engine;
                    self.options = options;
                });
                Some(Input::Recreated(result))
            }
        }
    }

    fn search(&mut self, request: SearchRequest<R>, arrived: Instant) -> Searched<R> {
        let start = Instant::now();
        let started = SystemTime::now();
        // A clock so large that its deadline is past what `Instant` holds
        // (`level 1 300000000000000000 …`) limits nothing: no deadline, and
        // the hang guard of a search with no clock.
        let (cut, budget) = match request.deadline.map(|after| arrived.checked_add(after)) {
            Some(Some(deadline)) => (
                Cut::when(move || Instant::now() >= deadline),
                request.budget,
            ),
            Some(None) => (Cut::never(), request.budget.min(NO_CLOCK_BUDGET)),
            None => (Cut::never(), request.budget),
        };
        // A driver must not panic, but if one does, the GUI still gets an
        // answer and the next search a fresh machine.
        let engine = &mut self.engine;
        engine.collect_candidates(request.thoughts);
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.play_until(&request.game, budget, &cut)
        }));
        let host = start.elapsed();
        timing(started, start.saturating_duration_since(arrived), host);
        let result = match result {
            Ok(played) => played.map_err(SearchError::Engine),
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".to_string());
                if let Ok(fresh) = R::create(self.entry, &self.options) {
                    self.engine = fresh;
                }
                Err(SearchError::Panicked(what))
            }
        };
        let screen = if request.screen {
            self.engine
                .screen()
                .map(|s| screen_rows(&s.render(ScreenStyle::Ascii)))
        } else {
            None
        };
        Searched {
            id: request.id,
            result,
            host,
            waited: start.saturating_duration_since(arrived),
            screen,
        }
    }
}

/// A debug line for `scripts/go-latency` (target `retrochess::timing`, on
/// stderr with `RETROCHESS_LOG=retrochess::timing=debug`): when the search
/// started on the host's wall clock, so the script can set it against the
/// moment it wrote `go`, and the host time the search took.
fn timing(started: SystemTime, waited: std::time::Duration, host: std::time::Duration) {
    log::debug!(
        target: "retrochess::timing",
        "search started at {} us since the epoch, {} us after its command arrived, ran {} us",
        since_epoch(started).as_micros(),
        waited.as_micros(),
        host.as_micros()
    );
}

/// The other debug line for `scripts/go-latency` (target
/// `retrochess::timing`): when the lines answering a search (which the
/// front end may also hold for later) were about to be written, on the
/// host's wall clock.
pub fn answer_timing() {
    log::debug!(
        target: "retrochess::timing",
        "answer going out at {} us since the epoch",
        since_epoch(SystemTime::now()).as_micros()
    );
}

/// `at` on the host's wall clock, as time since the Unix epoch.
fn since_epoch(at: SystemTime) -> std::time::Duration {
    at.duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// The rows of a rendered screen, blank rows above and below left out.
fn screen_rows(text: &str) -> Vec<String> {
    let rows: Vec<&str> = text.lines().map(str::trim_end).collect();
    let first = rows
        .iter()
        .position(|r| !r.is_empty())
        .unwrap_or(rows.len());
    let last = rows
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(first, |i| i + 1);
    rows[first..last.max(first)]
        .iter()
        .map(|r| r.to_string())
        .collect()
}
