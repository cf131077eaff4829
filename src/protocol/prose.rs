//! The words the front ends share: the candidates' notes (illegal ones,
//! ties, the count), why a reply has no candidates, the retro detail, nodes
//! per second and ordinals.

use std::time::Duration;

use super::judging::Weighed;
use crate::engines::{InputPath, Played, Reply};
use crate::rules::Rules;

/// 1st, 2nd, 3rd, 4th…
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Why a reply carries no candidates, in words for the person.
pub fn no_thoughts<W>(reply: &Reply<W>) -> &'static str {
    match (&reply.path, &reply.played) {
        (InputPath::Tape, _) => {
            "the program did not search: its move is the one stored on the tape"
        }
        (_, Played::Move(_) | Played::Astray(_)) => {
            "this engine's driver does not report the program's candidates"
        }
        (_, Played::DeadEnd) => "the program found no move to weigh",
        (_, Played::Hung(_)) => "the program did not finish its search",
    }
}

/// The ties among `shown` (in the program's order): for each score held
/// by more than one of them, the moves in the order the program ranks them.
/// The rule that orders them is [`Thoughts::tie_break`], said once.
pub fn ties<R: Rules>(shown: &[&Weighed<R>]) -> Vec<String> {
    ties_as(
        shown,
        |w| w.candidate.wire.to_string(),
        |score| score.to_string(),
    )
}

/// [`ties`], each move written by `name` and the score by `score` (a
/// protocol's own notation and units).
pub fn ties_as<R: Rules>(
    shown: &[&Weighed<R>],
    name: impl Fn(&Weighed<R>) -> String,
    score: impl Fn(i32) -> String,
) -> Vec<String> {
    let mut notes = Vec::new();
    let mut i = 0;
    while i < shown.len() {
        let raw = shown[i].candidate.raw;
        let group: Vec<String> = shown[i..]
            .iter()
            .take_while(|w| w.candidate.raw == raw)
            .map(|w| name(w))
            .collect();
        if group.len() > 1 {
            notes.push(format!(
                "equal score {} for {}: the program prefers {}",
                score(shown[i].candidate.score),
                group.join(", "),
                group[0]
            ));
        }
        i += group.len();
    }
    notes
}

/// What the lines of a protocol's candidates leave to words, as plain
/// texts for its comments: each illegal candidate of `judged` and why, the
/// program's tie-break rule and the ties among `shown`, and the count. Moves
/// written by `name`, scores by `score` (the protocol's notation and units).
pub fn candidate_notes<R: Rules>(
    judged: &[Weighed<R>],
    shown: &[&Weighed<R>],
    tie_break: &str,
    name: impl Fn(&Weighed<R>) -> String,
    score: impl Fn(i32) -> String,
) -> Vec<String> {
    let mut notes: Vec<String> = judged
        .iter()
        .filter_map(|w| {
            let why = w.illegal()?;
            Some(format!(
                "candidate {} (the program's {}, score {}) is illegal: {why}",
                name(w),
                ordinal(w.rank),
                score(w.candidate.score)
            ))
        })
        .collect();
    let ties = ties_as(shown, &name, &score);
    if !ties.is_empty() {
        notes.push(format!("ties: {tie_break}"));
    }
    notes.extend(ties);
    notes.push(format!(
        "{} candidates weighed, {} legal",
        judged.len(),
        judged.iter().filter(|w| w.legal().is_some()).count()
    ));
    notes
}

/// The retro detail of a reply, for `info string` and `#` comments.
pub fn describe<W>(reply: &Reply<W>, host: Duration) -> String {
    format!(
        "{} T-states in {} ms of host time; authentic thinking time {:.1} s; input: {}",
        reply.tstates,
        host.as_millis(),
        reply.authentic.as_secs_f64(),
        reply.path
    )
}

/// Nodes per second, from the host time.
pub fn nps(nodes: u64, host: Duration) -> u64 {
    let secs = host.as_secs_f64();
    if secs <= 0.0 {
        0
    } else {
        (nodes as f64 / secs) as u64
    }
}
