//! What the front ends share, by concern:
//! - [`super::events`]: the events and actions of their state machines,
//!   the worker's jobs and their answers, ids;
//! - [`super::worker`]: the engine worker that runs the emulated program
//!   off the protocol thread;
//! - [`super::settings`]: the options every front end offers;
//! - [`super::clock`]: the clock and its limits: the deadline that cuts a
//!   program still running, the hang guard where no clock limits;
//! - [`super::judging`]: the reply and the candidates judged;
//! - [`super::prose`]: the words about candidates and the retro detail.
//!
//! This module gathers them under one name, as the front ends (and
//! others) import them.
//!
//! A front end is a pure state machine: it gets [`Input`]s (a line from the
//! GUI, a finished search, a timer) and answers with [`Action`]s (a line to
//! send, a note for stderr, a job for the engine worker, a timer). Only
//! [`super::serve_on`] touches threads and the line transport, so the
//! machines are tested with plain tables of lines.

pub use super::clock::{Clock, Limits, NO_CLOCK_BUDGET, OVERHEAD};
pub use super::events::{Action, Ids, Input, Job, SearchError, SearchRequest, Searched};
pub use super::judging::{Judged, Weighed, judge_reply, judge_thoughts};
pub use super::prose::{candidate_notes, describe, no_thoughts, nps, ordinal, ties, ties_as};
pub use super::settings::{
    Change, IllegalPolicy, SEED_MAX, Settings, TIME_SCALE_MAX, display_name,
};
pub use super::worker::Worker;

#[cfg(test)]
use crate::engines::{self, Candidate, Thoughts};
#[cfg(test)]
use crate::rules::Rules;
#[cfg(test)]
use std::fmt;

/// Candidates as a driver reports them, for the front ends' tests: (move,
/// raw) in the order the program weighed them, scored by `score`, ranked
/// under `ties` by "the test's rule".
#[cfg(test)]
pub(crate) fn test_thoughts<W: std::str::FromStr>(
    weighed: &[(&str, i32)],
    score: fn(i32) -> i32,
    ties: engines::Ties,
) -> Thoughts<W>
where
    W::Err: fmt::Debug,
{
    let list = weighed
        .iter()
        .enumerate()
        .map(|(i, (m, raw))| Candidate {
            seq: i as u32 + 1,
            wire: m.parse().unwrap(),
            raw: *raw,
            score: score(*raw),
            chance: None,
        })
        .collect();
    Thoughts::rank(list, ties, "the test's rule")
}

/// The lines an action list sends to the GUI (for the front ends' tests).
#[cfg(test)]
pub(crate) fn sent<R: Rules>(actions: &[Action<R>]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send(l) => Some(l.clone()),
            _ => None,
        })
        .collect()
}
