//! The arbiter: what the rules make of a program's turn, decided in one
//! place for every user of a reply — the protocol front ends, the match
//! runner's referee, `play` and `explain`.
//!
//! A program's turn ([`Played`]) is a move read off its machine, its own
//! dead end, or a hang; or a move with the program's own board before and
//! after it, where that board is not a plain reading of the move (then the
//! rules say what the program did, read from its board). The rules ([`Rules::judge`]) turn it into a
//! [`Judgement`]: the legal move, or an illegal one with its typed reason,
//! or no move at all and why. Each user words the judgement its own way
//! (a UCI `info string`, a PGN comment, a sentence for the person at the
//! keyboard); none judges again.

use std::fmt;

use crate::engines::{Hang, Played};
use crate::rules::{Rules, Verdict};

/// The rules' judgement on one turn of a program.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement<R: Rules> {
    /// A legal move: the rules' move, and the wire as the program sent it.
    Legal(R::Move, R::Wire),
    /// A move the rules refuse, as the program sent it, and why.
    Illegal(R::Wire, R::Illegal),
    /// The program found no move and stopped (its own way of ending a
    /// game), though `legal` legal moves exist (0: the game is over).
    DeadEnd { legal: usize },
    /// The program did not come back.
    Hung(Hang),
}

impl<R: Rules> Judgement<R> {
    /// Judges the move `wire` in `pos`.
    pub fn of_move(rules: &R, pos: &R::Position, wire: &R::Wire) -> Judgement<R> {
        match rules.judge(pos, wire) {
            Verdict::Legal(m) => Judgement::Legal(m, wire.clone()),
            Verdict::Illegal(wire, why) => Judgement::Illegal(wire, why),
        }
    }

    /// Judges what the program did in `pos`.
    pub fn of(rules: &R, pos: &R::Position, played: &Played<R::Wire>) -> Judgement<R> {
        match played {
            Played::Move(wire) => Judgement::of_move(rules, pos, wire),
            Played::Astray(astray) => match rules.judge_astray(pos, astray) {
                Verdict::Legal(m) => {
                    let wire = rules.wire(pos, &m);
                    Judgement::Legal(m, wire)
                }
                Verdict::Illegal(wire, why) => Judgement::Illegal(wire, why),
            },
            Played::DeadEnd => Judgement::DeadEnd {
                legal: rules.legal_moves(pos).len(),
            },
            Played::Hung(hang) => Judgement::Hung(hang.clone()),
        }
    }

    /// The legal move, if the turn gave one.
    pub fn legal(&self) -> Option<&R::Move> {
        match self {
            Judgement::Legal(m, _) => Some(m),
            _ => None,
        }
    }

    /// The move the program sent, legal or not; `None` when it sent none.
    pub fn wire(&self) -> Option<&R::Wire> {
        match self {
            Judgement::Legal(_, wire) | Judgement::Illegal(wire, _) => Some(wire),
            _ => None,
        }
    }

    /// Why the turn gave no legal move, in words (`None` for a legal move).
    pub fn problem(&self) -> Option<String> {
        match self {
            Judgement::Legal(..) => None,
            other => Some(other.to_string()),
        }
    }
}

/// The judgement in words, as the front ends flag it: `illegal move e2e5:
/// …`, the dead end with the number of legal moves, `the program did not
/// come back: …`. A legal move is just the move.
impl<R: Rules> fmt::Display for Judgement<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Judgement::Legal(_, wire) => write!(f, "{wire}"),
            Judgement::Illegal(wire, why) => write!(f, "illegal move {wire}: {why}"),
            Judgement::DeadEnd { legal } => {
                let (noun, verb) = if *legal == 1 {
                    ("move", "exists")
                } else {
                    ("moves", "exist")
                };
                write!(
                    f,
                    "the program found no move and stopped (its dead end), though {legal} legal {noun} {verb}"
                )
            }
            Judgement::Hung(hang) => write!(f, "the program did not come back: {hang}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HangKind;
    use crate::rules::chess::ChessRules;
    use crate::rules::draughts::Draughts;
    use shakmaty::{Chess, uci::UciMove};

    fn chess(played: Played<UciMove>) -> Judgement<ChessRules> {
        Judgement::of(&ChessRules, &Chess::default(), &played)
    }

    #[test]
    fn each_kind_of_turn_is_judged_and_worded() {
        let legal = chess(Played::Move("e2e4".parse().unwrap()));
        assert!(legal.legal().is_some());
        assert_eq!(legal.problem(), None);
        assert_eq!(legal.wire().unwrap().to_string(), "e2e4");
        let illegal = chess(Played::Move("e2e5".parse().unwrap()));
        assert_eq!(illegal.legal(), None);
        assert_eq!(illegal.wire().unwrap().to_string(), "e2e5");
        assert!(
            illegal
                .problem()
                .unwrap()
                .starts_with("illegal move e2e5: "),
            "{illegal}"
        );
        assert_eq!(
            chess(Played::DeadEnd).problem().unwrap(),
            "the program found no move and stopped (its dead end), though 20 legal moves exist"
        );
        let hang = Hang {
            kind: HangKind::Budget,
            detail: "T-state budget exhausted (hung?) at PC 0x4156".into(),
        };
        let hung = chess(Played::Hung(hang));
        assert_eq!(hung.wire(), None);
        assert_eq!(
            hung.problem().unwrap(),
            "the program did not come back: T-state budget exhausted (hung?) at PC 0x4156"
        );
    }

    #[test]
    fn one_legal_move_is_worded_in_the_singular() {
        let rules = Draughts::english();
        let pos = crate::rules::draughts::parse_fen("B:W18:B14").unwrap();
        let j = Judgement::of(&rules, &pos, &Played::DeadEnd);
        assert_eq!(j, Judgement::DeadEnd { legal: 1 });
        assert!(j.to_string().ends_with("though 1 legal move exists"), "{j}");
    }
}
