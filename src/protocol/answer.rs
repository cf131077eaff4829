//! The answer to one search, computed once for every front end: the
//! program's reply (or the driver's error), its move judged by the rules
//! under the `IllegalMoves` policy, every candidate of its search judged,
//! the retro detail, the host time and the screen. The front end's `Searches` hands it to the
//! front end with the search it answers (`Searches::finished`);
//! each front end only renders it in its dialect (UCI `info`/`bestmove`,
//! CECP thinking output/`move`, Hub `info`/`done`), and none judges again
//! or reads back what it wrote.

use std::time::Duration;

use super::events::SearchError;
use super::events::Searched;
use super::judging::{Ruling, Weighed, judge_reply, judge_thoughts};
use super::prose::describe;
use super::settings::IllegalPolicy;
use crate::engines::Reply;
use crate::rules::Rules;

/// A finished search, judged.
#[derive(Debug)]
pub struct Answer<R: Rules> {
    /// The program's reply, judged, or why the driver gave none.
    pub outcome: Result<JudgedReply<R>, SearchError>,
    /// Host time the search took.
    pub host: Duration,
    /// The emulated screen's rows, if asked for.
    pub screen: Option<Vec<String>>,
}

/// A reply with the rules' verdicts on it.
#[derive(Debug)]
pub struct JudgedReply<R: Rules> {
    pub reply: Reply<R::Wire>,
    /// The reply's move judged under the `IllegalMoves` policy.
    pub verdict: Ruling<R>,
    /// Every candidate the program weighed, judged, in its order (`None`:
    /// no candidates were collected).
    pub candidates: Option<Vec<Weighed<R>>>,
    /// The retro detail: T-states, host time, authentic time, input path.
    pub detail: String,
}

impl<R: Rules> Answer<R> {
    /// Judges `searched`, a search of `pos`, under `policy`.
    pub fn new(rules: &R, pos: &R::Position, searched: Searched<R>, policy: IllegalPolicy) -> Self {
        let Searched {
            result,
            host,
            screen,
            ..
        } = searched;
        let outcome = result.map(|reply| JudgedReply {
            verdict: judge_reply(rules, pos, &reply.played, policy),
            candidates: reply
                .thoughts
                .as_ref()
                .map(|t| judge_thoughts(rules, pos, t)),
            detail: describe(&reply, host),
            reply,
        });
        Answer {
            outcome,
            host,
            screen,
        }
    }

    /// The original machine's thinking time (zero when the driver failed).
    pub fn authentic(&self) -> Duration {
        self.outcome
            .as_ref()
            .map_or(Duration::ZERO, |j| j.reply.authentic)
    }
}

impl<R: Rules> JudgedReply<R> {
    /// The legal candidates, in the program's order.
    pub fn legal_candidates(&self) -> Vec<&Weighed<R>> {
        self.candidates
            .iter()
            .flatten()
            .filter(|w| w.legal().is_some())
            .collect()
    }
}
