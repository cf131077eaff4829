//! What the fuzz targets share: the edge of `retrochess uci`/`xboard`/`hub`
//! (`protocol::serve`) played in memory, so a protocol front end of either
//! game can be fed a whole conversation without threads, processes or the
//! emulator.
//!
//! The input is the GUI's bytes. Each line reaches the front end as
//! `serve`'s reader passes it (invalid UTF-8 replaced, line ending
//! trimmed); the front end's jobs and timers are answered later, at points
//! the line's own bytes choose, so searches still in flight meet `stop`,
//! `ping`, `new`, `position`... as they do over real pipes. A search is
//! answered with a reply drawn from the same bytes: a legal move, a move
//! of random squares (mostly illegal: [`Fuzzed::any_wire`]), a dead end, a
//! hang, or a driver error, with costs in the ranges the drivers produce.
//!
//! Checked on every action: a line sent is one line (no newline inside).
//! Everything else is the fuzzer's: no panic, no hang, no runaway memory.

use std::collections::VecDeque;
use std::time::Duration;

use retrochess::engines::Catalogue;
use retrochess::engines::{Candidate, EngineError, Hang, InputPath, Played, Reply, Thoughts, Ties};
use retrochess::rng::SplitMix64;
use retrochess::protocol::events::{Action, Input, Job, SearchError, SearchRequest, Searched};
use retrochess::protocol::FrontEnd;
use retrochess::rules::HangKind;
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::{Draughts, PdnMove, Square as DraughtsSquare};
use shakmaty::Square;
use shakmaty::uci::UciMove;

/// A game whose front ends are fuzzed: how to make up a program's move
/// that may be illegal.
pub trait Fuzzed: Catalogue {
    /// A move of random squares, as a program may play it.
    fn any_wire(rng: &mut SplitMix64) -> Self::Wire;
}

impl Fuzzed for ChessRules {
    fn any_wire(rng: &mut SplitMix64) -> UciMove {
        UciMove::Normal {
            from: Square::new(rng.range(0, 63) as u32),
            to: Square::new(rng.range(0, 63) as u32),
            promotion: None,
        }
    }
}

impl Fuzzed for Draughts {
    /// A step, or a capture through one to three landing squares.
    fn any_wire(rng: &mut SplitMix64) -> PdnMove {
        let legs = rng.range(0, 3);
        let squares: Vec<DraughtsSquare> = (0..=legs.max(1))
            .map(|_| DraughtsSquare::new(rng.range(1, 32) as u32).expect("1..=32"))
            .collect();
        if legs == 0 {
            PdnMove::step(squares[0], squares[1])
        } else {
            PdnMove::capture(squares).expect("two squares or more")
        }
    }
}

/// Plays the GUI's `data` through `front`, then end of input.
pub fn converse<R: Fuzzed>(front: &mut dyn FrontEnd<R>, data: &[u8]) {
    let mut edge = Edge::default();
    for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
        let line = String::from_utf8_lossy(raw)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        let mut rng = SplitMix64::new(fnv1a(raw) ^ i as u64);
        if !edge.feed(front, Input::Line(line)) {
            return;
        }
        // Some of what is in flight comes back before the next line.
        while !edge.pending.is_empty() && rng.range(0, 2) > 0 {
            let input = edge.answer(&mut rng);
            if !edge.feed(front, input) {
                return;
            }
        }
    }
    let mut rng = SplitMix64::new(fnv1a(data));
    while !edge.pending.is_empty() {
        let input = edge.answer(&mut rng);
        if !edge.feed(front, input) {
            return;
        }
    }
    edge.feed(front, Input::Eof);
}

/// The engine worker and the timers, as the front end sees them.
struct Edge<R: Fuzzed> {
    /// Jobs and timers not answered yet, oldest first.
    pending: VecDeque<Pending<R>>,
}

impl<R: Fuzzed> Default for Edge<R> {
    fn default() -> Self {
        Edge {
            pending: VecDeque::new(),
        }
    }
}

enum Pending<R: Fuzzed> {
    Search(SearchRequest<R>),
    Recreate,
    Wake(u64),
}

impl<R: Fuzzed> Edge<R> {
    /// Gives `input` to the front end and takes its actions; `false` once
    /// it quits.
    fn feed(&mut self, front: &mut dyn FrontEnd<R>, input: Input<R>) -> bool {
        for action in front.handle(input) {
            match action {
                Action::Send(line) => assert!(!line.contains('\n'), "two lines in one: {line:?}"),
                Action::Note(_) | Action::Debug(_) => {}
                Action::Job(Job::Search(request)) => {
                    self.pending.push_back(Pending::Search(request))
                }
                Action::Job(Job::NewGame) => {}
                Action::Job(Job::Recreate(_)) => self.pending.push_back(Pending::Recreate),
                Action::WakeAfter(_, token) => self.pending.push_back(Pending::Wake(token)),
                Action::Quit => return false,
            }
        }
        true
    }

    /// The next answer: jobs in order (one worker), a timer at any time.
    fn answer(&mut self, rng: &mut SplitMix64) -> Input<R> {
        let timer = self
            .pending
            .iter()
            .position(|p| matches!(p, Pending::Wake(_)))
            .filter(|_| rng.range(0, 1) == 0);
        let next = match timer {
            Some(i) => self.pending.remove(i),
            None => self.pending.pop_front(),
        };
        match next.expect("something pending") {
            Pending::Search(request) => Input::Searched(reply(&request, rng)),
            Pending::Recreate => Input::Recreated(if rng.range(0, 3) == 0 {
                Err(EngineError::Position("fuzzed restart failure".to_string()))
            } else {
                Ok(())
            }),
            Pending::Wake(token) => Input::Wake(token),
        }
    }
}

/// A reply such as a driver gives for `request`.
fn reply<R: Fuzzed>(request: &SearchRequest<R>, rng: &mut SplitMix64) -> Searched<R> {
    let game = &request.game;
    let legal = game.legal_moves();
    let played = match rng.range(0, 5) {
        0 | 1 if !legal.is_empty() => {
            let m = &legal[rng.range(0, legal.len() as u64 - 1) as usize];
            Played::Move(game.rules().wire(game.position(), m))
        }
        2 => Played::Move(R::any_wire(rng)),
        3 => Played::DeadEnd,
        _ => Played::Hung(Hang {
            kind: HangKind::Budget,
            detail: "T-state budget exhausted (hung?) at PC 0x420E".to_string(),
        }),
    };
    let tstates = rng.range(0, request.budget.min(20_000_000_000));
    let result = if rng.range(0, 9) == 0 {
        Err(SearchError::Engine(EngineError::Unreadable(
            "fuzzed driver error".to_string(),
        )))
    } else {
        Ok(Reply {
            played,
            score: Some(rng.range(0, 64_000) as i32 - 32_000).filter(|_| rng.range(0, 3) > 0),
            nodes: rng.range(0, 1_000_000),
            tstates,
            authentic: Duration::from_millis(rng.range(0, 10_000_000)),
            path: InputPath::Injected("fuzz".to_string()),
            thoughts: request.thoughts.then(|| thoughts(request, rng)),
        })
    };
    Searched {
        id: request.id,
        result,
        host: Duration::from_micros(rng.range(0, 60_000_000)),
        waited: Duration::from_micros(rng.range(0, 1_000_000)),
        screen: request.screen.then(|| vec!["fuzz".to_string()]),
    }
}

/// Candidates such as a driver reports when asked: legal moves and any
/// wire at all, any raw scores, either tie rule (the front ends' MultiPV,
/// analyze and `go analyze` output is fuzzed through them).
fn thoughts<R: Fuzzed>(request: &SearchRequest<R>, rng: &mut SplitMix64) -> Thoughts<R::Wire> {
    let game = &request.game;
    let legal = game.legal_moves();
    let weighed = (0..rng.range(0, 40))
        .map(|seq| {
            let wire = if !legal.is_empty() && rng.range(0, 3) > 0 {
                let m = &legal[rng.range(0, legal.len() as u64 - 1) as usize];
                game.rules().wire(game.position(), m)
            } else {
                R::any_wire(rng)
            };
            let raw = rng.range(0, 512) as i32 - 256;
            Candidate {
                seq: seq as u32 + 1,
                wire,
                raw,
                score: raw.saturating_mul(rng.range(1, 100) as i32),
                chance: (rng.range(0, 1) == 0).then(|| rng.range(0, 1) as i32),
            }
        })
        .collect();
    let ties = if rng.range(0, 1) == 0 {
        Ties::KeepsFirst
    } else {
        Ties::KeepsLast
    };
    Thoughts::rank(weighed, ties, "fuzzed tie rule")
}

/// FNV-1a, to draw a line's schedule from its own bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
