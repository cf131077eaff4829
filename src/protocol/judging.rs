//! The rules' verdicts as the front ends use them: the program's reply
//! ruled on under the `IllegalMoves` policy ([`Ruling`], from the arbiter's
//! one [`Judgement`]), and every candidate of its search judged
//! ([`Weighed`]).

use super::settings::IllegalPolicy;
use crate::arbiter::Judgement;
use crate::engines::{Candidate, Played, Thoughts};
use crate::rules::{Rules, Verdict};

/// The ruling on the program's reply, judged against the real position:
/// what to send, what to play on with, what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Ruling<R: Rules> {
    /// The move to send to the GUI (`None`: resign / `bestmove 0000`).
    pub send: Option<R::Wire>,
    /// The legal move played, to follow the game with.
    pub legal: Option<R::Move>,
    /// Why the move is not legal, or why there is none.
    pub problem: Option<String>,
    /// The move the game goes on with once the GUI has the move sent: the
    /// legal one, or one sent under `play` that is legal by itself though
    /// the program's board went astray ([`Played::Astray`]): the GUI plays
    /// it, so a front end that keeps the game follows it.
    pub follows: Option<R::Move>,
}

/// Judges a reply in `pos` ([`Judgement::of`]) and applies `policy`.
pub fn judge_reply<R: Rules>(
    rules: &R,
    pos: &R::Position,
    played: &Played<R::Wire>,
    policy: IllegalPolicy,
) -> Ruling<R> {
    let judgement = Judgement::of(rules, pos, played);
    let send = match &judgement {
        Judgement::Legal(_, wire) => Some(wire.clone()),
        Judgement::Illegal(wire, _) => (policy == IllegalPolicy::Play).then(|| wire.clone()),
        _ => None,
    };
    let follows = match (&judgement, &send) {
        (Judgement::Legal(m, _), _) => Some(m.clone()),
        (Judgement::Illegal(..), Some(wire)) => match rules.judge(pos, wire) {
            Verdict::Legal(m) => Some(m),
            Verdict::Illegal(..) => None,
        },
        _ => None,
    };
    Ruling {
        send,
        legal: judgement.legal().cloned(),
        problem: judgement.problem(),
        follows,
    }
}

/// A candidate of the program's search with the rules' verdict on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighed<R: Rules> {
    /// 1 for the program's preferred move (its place in
    /// [`Thoughts::ranked`]).
    pub rank: usize,
    pub candidate: Candidate<R::Wire>,
    /// The rules' verdict: the legal move with its wire as the rules write
    /// it (a `pv` may show only this), or why they refuse it.
    pub verdict: Result<(R::Move, R::Wire), R::Illegal>,
}

impl<R: Rules> Weighed<R> {
    /// The move as the rules write it, if legal.
    pub fn legal(&self) -> Option<&R::Wire> {
        self.verdict.as_ref().ok().map(|(_, wire)| wire)
    }

    /// The legal move, if legal.
    pub fn legal_move(&self) -> Option<&R::Move> {
        self.verdict.as_ref().ok().map(|(m, _)| m)
    }

    /// Why the rules refuse it, if illegal.
    pub fn illegal(&self) -> Option<&R::Illegal> {
        self.verdict.as_ref().err()
    }
}

/// Judges every candidate of `thoughts` in `pos`, keeping the program's
/// order.
pub fn judge_thoughts<R: Rules>(
    rules: &R,
    pos: &R::Position,
    thoughts: &Thoughts<R::Wire>,
) -> Vec<Weighed<R>> {
    thoughts
        .ranked
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let verdict = match rules.judge(pos, &c.wire) {
                Verdict::Legal(m) => {
                    let wire = rules.wire(pos, &m);
                    Ok((m, wire))
                }
                Verdict::Illegal(_, why) => Err(why),
            };
            Weighed {
                rank: i + 1,
                candidate: c.clone(),
                verdict,
            }
        })
        .collect()
}
