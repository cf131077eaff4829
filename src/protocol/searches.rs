//! The in-flight-search bookkeeping every front end needs, written once:
//! handing a search to the worker with the deadline the GUI's clock sets
//! ([`super::clock`]), matching the finished search to the request, saying
//! what time a program cut at its deadline had, and holding the answer back — for `stop`/`ponderhit` (`go infinite`,
//! `go ponder`) or for the original machine's thinking time (authentic
//! timing) — until it may be sent. The front ends only parse the GUI's
//! lines and render the answer's lines.
//!
//! One rule keeps every answer: output held for one search is sent before
//! the output of the next one is held (a GUI that sends `go` twice gets two
//! `bestmove`s, in order).

use std::collections::VecDeque;
use std::time::Duration;

use super::answer::Answer;
use super::clock::{Clock, Limits};
use super::events::{Action, Ids, Job, SearchRequest, Searched};
use super::settings::Settings;
use crate::engines::Played;
use crate::rules::HangKind;
use crate::rules::{Game, Rules};

/// When a search's answer may go out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// When the program has moved (and the authentic wait, if any, is over).
    Timed,
    /// Only on `stop` (`go infinite`).
    Infinite,
    /// On `stop` or `ponderhit` (`go ponder`).
    Ponder,
}

/// A search handed to the worker, with what the front end keeps of it.
#[derive(Clone, Debug)]
pub struct Pending<R: Rules, X> {
    pub id: u64,
    /// The game as it was when the search started.
    pub game: Game<R>,
    pub mode: Mode,
    /// The mover's clock, as the command gave it.
    pub clock: Clock,
    /// What the clock allows for the move.
    pub limits: Limits,
    /// `stop` came before the answer: send it at once.
    pub stopped: bool,
    /// The answer is no longer wanted (CECP `force`, `new`, `undo`, …).
    pub discarded: bool,
    /// The front end's own data (UCI's `searchmoves`).
    pub extra: X,
}

/// Output waiting for `stop`/`ponderhit` or for a timer.
#[derive(Debug)]
struct Held {
    mode: Mode,
    timer: Option<u64>,
    lines: Vec<String>,
}

/// The searches of one front end.
#[derive(Debug)]
pub struct Searches<R: Rules, X> {
    pub settings: Settings,
    /// Ask the worker for the program's candidates ([`SearchRequest::thoughts`])
    /// in the searches started from now on.
    pub thoughts: bool,
    ids: Ids,
    pending: VecDeque<Pending<R, X>>,
    held: Option<Held>,
    /// New games being set up by the worker ([`Searches::new_game`]), whose
    /// time must not count against the next search's clock.
    setting_up: usize,
}

impl<R: Rules, X> Searches<R, X> {
    pub fn new(settings: Settings) -> Searches<R, X> {
        Searches {
            settings,
            thoughts: false,
            ids: Ids::default(),
            pending: VecDeque::new(),
            held: None,
            setting_up: 0,
        }
    }

    /// What the clock allows for a search in `mode`: a search that waits
    /// for `stop` or `ponderhit` has no deadline (its clock starts later,
    /// if ever), only the hang guard.
    pub fn limits(clock: &Clock, mode: Mode) -> Limits {
        let limits = clock.limits();
        match mode {
            Mode::Timed => limits,
            Mode::Infinite | Mode::Ponder => Limits {
                deadline: None,
                ..limits
            },
        }
    }

    /// Starts a search of the position `game` has reached: the job for the
    /// worker, to be sent after any lines the front end writes first.
    pub fn start(&mut self, game: &Game<R>, clock: &Clock, mode: Mode, extra: X) -> Action<R> {
        let limits = Self::limits(clock, mode);
        let id = self.ids.fresh();
        self.pending.push_back(Pending {
            id,
            game: game.clone(),
            mode,
            clock: *clock,
            limits,
            stopped: false,
            discarded: false,
            extra,
        });
        Action::Job(Job::Search(SearchRequest {
            id,
            game: game.clone(),
            budget: limits.budget(),
            deadline: limits.deadline,
            screen: self.settings.show_screen,
            thoughts: self.thoughts,
        }))
    }

    /// A search that needs no engine (the game is over): answered at once
    /// through [`Searches::deliver`] like any other.
    pub fn without_engine(
        &mut self,
        game: &Game<R>,
        clock: &Clock,
        mode: Mode,
        extra: X,
    ) -> Pending<R, X> {
        Pending {
            id: self.ids.fresh(),
            game: game.clone(),
            mode,
            clock: *clock,
            limits: Self::limits(clock, mode),
            stopped: false,
            discarded: false,
            extra,
        }
    }

    /// The request `searched` answers, taken off the list, with the answer
    /// judged once ([`Answer`]) in the position it searched (a program cut
    /// at its deadline said so with the time it had); `None`, with a note,
    /// if nobody waits for it.
    pub fn finished(
        &mut self,
        mut searched: Searched<R>,
        out: &mut Vec<Action<R>>,
    ) -> Option<(Pending<R, X>, Answer<R>)> {
        let Some(at) = self.pending.iter().position(|p| p.id == searched.id) else {
            out.push(Action::Note(format!(
                "a search nobody waits for finished (id {})",
                searched.id
            )));
            return None;
        };
        let pending = self.pending.remove(at)?;
        if let Ok(reply) = &mut searched.result
            && let Played::Hung(hang) = &mut reply.played
            && hang.kind == HangKind::Deadline
        {
            hang.detail = format!(
                "{} ({}: cut {} ms after the command, {} T-states into its move)",
                hang.detail,
                had(&pending.clock),
                (searched.waited + searched.host).as_millis(),
                reply.tstates
            );
        }
        let game = &pending.game;
        let answer = Answer::new(
            game.rules(),
            game.position(),
            searched,
            self.settings.illegal,
        );
        Some((pending, answer))
    }

    /// Sends the answer to `pending` now, or holds it: until `stop` or
    /// `ponderhit` for a search that waits for one, until the original
    /// machine's thinking time (`authentic`, scaled) has passed under
    /// authentic timing. Returns whether it went out now.
    pub fn deliver(
        &mut self,
        pending: &Pending<R, X>,
        lines: Vec<String>,
        authentic: Duration,
        host: Duration,
        out: &mut Vec<Action<R>>,
    ) -> bool {
        if pending.mode != Mode::Timed && !pending.stopped {
            self.hold(pending.mode, None, lines, out);
            return false;
        }
        let wait = if pending.stopped {
            Duration::ZERO
        } else {
            self.settings
                .authentic_wait(authentic, host, pending.limits.share)
        };
        if wait.is_zero() {
            out.extend(lines.into_iter().map(Action::Send));
            return true;
        }
        let token = self.ids.fresh();
        out.push(Action::WakeAfter(wait, token));
        self.hold(Mode::Timed, Some(token), lines, out);
        false
    }

    fn hold(
        &mut self,
        mode: Mode,
        timer: Option<u64>,
        lines: Vec<String>,
        out: &mut Vec<Action<R>>,
    ) {
        self.release(out);
        self.held = Some(Held { mode, timer, lines });
    }

    /// `stop`: every search answers as soon as it is done; held output goes.
    pub fn stop(&mut self, out: &mut Vec<Action<R>>) {
        for p in &mut self.pending {
            p.stopped = true;
        }
        self.release(out);
    }

    /// `ponderhit`: pondering searches become timed; held pondering output
    /// goes.
    pub fn ponderhit(&mut self, out: &mut Vec<Action<R>>) {
        for p in &mut self.pending {
            if p.mode == Mode::Ponder {
                p.mode = Mode::Timed;
            }
        }
        if self.held.as_ref().is_some_and(|h| h.mode == Mode::Ponder) {
            self.release(out);
        }
    }

    /// Forgets every answer to come or held (CECP: the GUI moved on).
    pub fn discard(&mut self) {
        for p in &mut self.pending {
            p.discarded = true;
        }
        self.held = None;
    }

    /// A timer went off: sends what it held. Returns whether it was ours.
    pub fn wake(&mut self, token: u64, out: &mut Vec<Action<R>>) -> bool {
        if self.held.as_ref().is_some_and(|h| h.timer == Some(token)) {
            self.release(out);
            return true;
        }
        false
    }

    /// Sends held output now. Returns whether there was any.
    pub fn release(&mut self, out: &mut Vec<Action<R>>) -> bool {
        match self.held.take() {
            Some(held) => {
                out.extend(held.lines.into_iter().map(Action::Send));
                true
            }
            None => false,
        }
    }

    /// Output is held.
    pub fn holding(&self) -> bool {
        self.held.is_some()
    }

    /// An answer is still to come or held.
    pub fn busy(&self) -> bool {
        self.held.is_some() || self.pending.iter().any(|p| !p.discarded)
    }

    /// A fresh id for timers of the front end's own.
    /// The job for a new game: a fresh machine on the same seed, or with
    /// `Seed` `random` the engine recreated on a seed drawn afresh, which
    /// `report` turns into the line telling the GUI (so the game can be
    /// replayed).
    pub fn new_game(&mut self, out: &mut Vec<Action<R>>, report: impl FnOnce(u64) -> String) {
        match self.settings.next_game_seed() {
            Some(seed) => {
                out.push(Action::Send(report(seed)));
                out.push(Action::Job(Job::Recreate(self.settings.engine.clone())));
            }
            None => out.push(Action::Job(Job::NewGame)),
        }
        self.setting_up += 1;
    }

    /// The worker finished setting up a new game (or recreating the
    /// engine).
    pub fn set_up(&mut self) {
        self.setting_up = self.setting_up.saturating_sub(1);
    }

    /// A new game is being set up and no search runs: a GUI asking whether
    /// we are ready (`isready`) waits, so that the setting up does not eat
    /// the first move's clock (the GUI starts it when it sends `go`).
    pub fn setting_up(&self) -> bool {
        self.setting_up > 0 && !self.busy()
    }

    pub fn fresh_id(&mut self) -> u64 {
        self.ids.fresh()
    }
}

/// The time a clock gave a move, in words: `it had 30 ms on its clock`,
/// `it had a move time of 100 ms`.
fn had(clock: &Clock) -> String {
    let ms = |d: Duration| d.as_millis();
    match (clock.remaining, clock.move_time) {
        (Some(left), Some(mt)) if mt >= left => format!("it had {} ms on its clock", ms(left)),
        (_, Some(mt)) => format!("it had a move time of {} ms", ms(mt)),
        (Some(left), None) => format!("it had {} ms on its clock", ms(left)),
        (None, None) => "it had no clock".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{self, EngineOptions, Hang, InputPath, Reply};
    use crate::machine::Stop;
    use crate::protocol::clock::NO_CLOCK_BUDGET;
    use crate::protocol::settings::IllegalPolicy;
    use crate::rules::chess::ChessRules;
    use shakmaty::uci::UciMove;

    type D = Searches<ChessRules, ()>;

    fn searches() -> D {
        let entry = engines::entry("1k-zx-chess").unwrap();
        Searches::new(Settings::new(entry, EngineOptions::default()))
    }

    fn go(d: &mut D, clock: &Clock, mode: Mode) -> SearchRequest<ChessRules> {
        match d.start(&Game::initial(ChessRules), clock, mode, ()) {
            Action::Job(Job::Search(r)) => r,
            other => panic!("{other:?}"),
        }
    }

    fn searched(id: u64, wire: &str) -> Searched<ChessRules> {
        Searched {
            id,
            result: Ok(Reply {
                played: Played::Move(wire.parse::<UciMove>().unwrap()),
                score: Some(10),
                nodes: 20,
                tstates: 6_000_000,
                authentic: Duration::from_secs(7),
                path: InputPath::Injected("test".into()),
                thoughts: None,
            }),
            host: Duration::from_millis(10),
            waited: Duration::ZERO,
            screen: None,
        }
    }

    fn lines(out: &[Action<ChessRules>]) -> Vec<String> {
        out.iter()
            .filter_map(|a| match a {
                Action::Send(l) => Some(l.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_search_is_matched_and_judged() {
        let mut d = searches();
        let clock = Clock {
            move_time: Some(Duration::from_millis(1000)),
            ..Clock::default()
        };
        let request = go(&mut d, &clock, Mode::Timed);
        assert_eq!(request.deadline, Some(Duration::from_millis(1000)));
        assert_eq!(request.budget, u64::MAX, "the deadline cuts, not a budget");
        assert!(d.busy());
        let mut out = Vec::new();
        assert!(
            d.finished(searched(request.id + 7, "e2e4"), &mut out)
                .is_none()
        );
        assert_eq!(
            out,
            [Action::Note(format!(
                "a search nobody waits for finished (id {})",
                request.id + 7
            ))]
        );
        let (pending, answer) = d.finished(searched(request.id, "e2e5"), &mut out).unwrap();
        assert_eq!(pending.id, request.id);
        let judged = answer.outcome.unwrap();
        assert_eq!(judged.verdict.legal, None);
        assert!(
            judged
                .verdict
                .problem
                .unwrap()
                .starts_with("illegal move e2e5"),
            "judged once, in the position searched"
        );
        assert_eq!(judged.verdict.send.unwrap().to_string(), "e2e5", "play");
        assert!(!d.busy());
    }

    #[test]
    fn only_a_timed_search_has_a_deadline() {
        let mut d = searches();
        let clock = Clock {
            remaining: Some(Duration::from_millis(80)),
            ..Clock::default()
        };
        let timed = go(&mut d, &clock, Mode::Timed);
        assert_eq!(timed.deadline, Some(Duration::from_millis(80)));
        for mode in [Mode::Ponder, Mode::Infinite] {
            let r = go(&mut d, &clock, mode);
            assert_eq!(r.deadline, None, "{mode:?}: its clock starts later");
            assert_eq!(r.budget, NO_CLOCK_BUDGET, "the hang guard");
        }
        let r = go(&mut d, &Clock::default(), Mode::Timed);
        assert_eq!((r.deadline, r.budget), (None, NO_CLOCK_BUDGET));
    }

    #[test]
    fn a_program_cut_at_its_deadline_is_told_with_the_time_it_had() {
        let mut d = searches();
        let clock = Clock {
            remaining: Some(Duration::from_millis(30)),
            increment: Duration::from_millis(10),
            ..Clock::default()
        };
        let request = go(&mut d, &clock, Mode::Timed);
        let mut s = searched(request.id, "e2e4");
        if let Ok(reply) = &mut s.result {
            reply.played = Played::Hung(Hang::from_stop(Stop::Cut { pc: 0x4156 }));
            reply.tstates = 3_100_000;
        }
        s.host = Duration::from_millis(25);
        s.waited = Duration::from_millis(1);
        let mut out = Vec::new();
        let (_, answer) = d.finished(s, &mut out).unwrap();
        assert_eq!(
            answer.outcome.unwrap().verdict.problem.unwrap(),
            "the program did not come back: still running at its deadline, at PC 0x4156 \
             (it had 30 ms on its clock: cut 26 ms after the command, 3100000 T-states \
             into its move)"
        );
    }

    #[test]
    fn answers_wait_for_stop_ponderhit_or_the_authentic_time() {
        let mut d = searches();
        let clock = Clock::default();
        let mut out = Vec::new();
        // go infinite: held until stop.
        let r = go(&mut d, &clock, Mode::Infinite);
        let (p, _) = d.finished(searched(r.id, "e2e4"), &mut out).unwrap();
        assert!(!d.deliver(
            &p,
            vec!["a".into()],
            Duration::ZERO,
            Duration::ZERO,
            &mut out
        ));
        assert!(d.holding() && out.is_empty());
        // A second go: the held answer goes first, in order.
        let r = go(&mut d, &clock, Mode::Ponder);
        let (p, _) = d.finished(searched(r.id, "e2e4"), &mut out).unwrap();
        d.deliver(
            &p,
            vec!["b".into()],
            Duration::ZERO,
            Duration::ZERO,
            &mut out,
        );
        assert_eq!(lines(&out), ["a"]);
        out.clear();
        d.ponderhit(&mut out);
        assert_eq!(lines(&out), ["b"]);
        // Authentic timing: a timer, and the answer when it goes off.
        d.settings.authentic = true;
        out.clear();
        let r = go(&mut d, &clock, Mode::Timed);
        let (p, _) = d.finished(searched(r.id, "e2e4"), &mut out).unwrap();
        let secs = Duration::from_secs;
        assert!(!d.deliver(&p, vec!["c".into()], secs(7), secs(1), &mut out));
        let [Action::WakeAfter(wait, token)] = out[..] else {
            panic!("{out:?}")
        };
        assert_eq!(wait, secs(6), "the original 7 s less the 1 s spent");
        out.clear();
        assert!(!d.wake(token + 1, &mut out), "not our timer");
        assert!(d.wake(token, &mut out));
        assert_eq!(lines(&out), ["c"]);
        // stop: held output goes at once, and later answers are not held.
        out.clear();
        let r = go(&mut d, &clock, Mode::Timed);
        d.stop(&mut out);
        let (p, _) = d.finished(searched(r.id, "e2e4"), &mut out).unwrap();
        assert!(d.deliver(&p, vec!["d".into()], secs(7), secs(1), &mut out));
        assert_eq!(lines(&out), ["d"]);
    }

    #[test]
    fn discarded_searches_leave_the_desk_idle() {
        let mut d = searches();
        d.settings.illegal = IllegalPolicy::Resign;
        let r = go(&mut d, &Clock::default(), Mode::Timed);
        d.discard();
        assert!(!d.busy());
        let mut out = Vec::new();
        let (p, answer) = d.finished(searched(r.id, "e2e5"), &mut out).unwrap();
        assert!(p.discarded);
        assert_eq!(answer.outcome.unwrap().verdict.send, None, "resign");
    }
}
