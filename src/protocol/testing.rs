//! Helpers for the front ends' unit tests, shared by the three: a front
//! end for a built-in engine, a line fed to it, a search answered,
//! candidates as a driver reports them, and what an action list sends or
//! asks of the worker.

use crate::engines::{self, Candidate, Thoughts};
use std::fmt;
use std::time::Duration;

use super::FrontEnd;
use super::events::{Action, Input, Job, SearchRequest, Searched};
use super::settings::Settings;
use crate::engines::{EngineInfo, EngineOptions, Reply};
use crate::rules::Rules;

/// What a front end for the built-in engine `id` is made of: its info and
/// its settings at their defaults.
pub(crate) fn made_of(id: &str) -> (&'static EngineInfo, Settings) {
    let entry = engines::find(id).unwrap();
    (entry.info, Settings::new(entry, EngineOptions::default()))
}

/// Feeds `line` to `front`; its actions.
pub(crate) fn feed<R: Rules>(front: &mut impl FrontEnd<R>, line: &str) -> Vec<Action<R>> {
    front.handle(Input::Line(line.to_string()))
}

/// Search `id` answered with `reply` after `host` of host time.
pub(crate) fn searched<R: Rules>(id: u64, reply: Reply<R::Wire>, host: Duration) -> Input<R> {
    Input::Searched(Searched {
        id,
        result: Ok(reply),
        host,
        waited: Duration::ZERO,
        screen: None,
    })
}

/// The search an action list asks the worker for, if any.
pub(crate) fn search_request<R: Rules>(actions: &[Action<R>]) -> Option<&SearchRequest<R>> {
    actions.iter().find_map(|a| match a {
        Action::Job(Job::Search(r)) => Some(r),
        _ => None,
    })
}

/// Candidates as a driver reports them, for the front ends' tests: (move,
/// raw) in the order the program weighed them, scored by `score`, ranked
/// under `ties` by "the test's rule".
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
pub(crate) fn sent<R: Rules>(actions: &[Action<R>]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send(l) => Some(l.clone()),
            _ => None,
        })
        .collect()
}
