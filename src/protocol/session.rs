//! What both front ends share: the events and actions of their state
//! machines, the engine worker that runs the emulated program off the
//! protocol thread, the options, the clock-to-budget translation and the
//! judging of the program's replies.
//!
//! A front end is a pure state machine: it gets [`Input`]s (a line from the
//! GUI, a finished search, a timer) and answers with [`Action`]s (a line to
//! send, a note for stderr, a job for the engine worker, a timer). Only
//! [`super::serve`] touches threads, stdin and stdout, so the machines are
//! tested with plain tables of lines.
//!
//! The program runs on a worker thread ([`Worker`]): a search takes a few
//! milliseconds of host time (1K ZX Chess: ~6 M emulated T-states), but it
//! cannot be interrupted, and `isready`/`ping` must be answered while it runs.

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use crate::arbiter::Judgement;
use crate::engines::{
    Candidate, Catalogue, Engine, EngineError, EngineInfo, EngineOptions, Entry, InputPath,
    OptionKind, OptionSpec, Played, Reply, Thoughts,
};
use crate::machine::ScreenStyle;
use crate::rules::{Game, Rules, Verdict};

/// What a front end reacts to.
#[derive(Debug)]
pub enum Input<R: Rules> {
    /// One line from the GUI, without its line ending.
    Line(String),
    /// The GUI closed our stdin.
    Eof,
    /// The engine worker finished a search.
    Searched(Searched<R>),
    /// The engine worker finished recreating the engine (new options).
    Recreated(Result<(), String>),
    /// A timer set with [`Action::WakeAfter`] went off.
    Wake(u64),
}

/// What a front end asks the edge to do, in order.
#[derive(Debug, PartialEq)]
pub enum Action<R: Rules> {
    /// A line to the GUI (stdout).
    Send(String),
    /// A note for the person watching stderr.
    Note(String),
    /// A job for the engine worker.
    Job(Job<R>),
    /// Send [`Input::Wake`] with this token after this long.
    WakeAfter(Duration, u64),
    /// Stop serving.
    Quit,
}

/// A job for the engine worker; they run in the order given.
#[derive(Debug, PartialEq)]
pub enum Job<R: Rules> {
    /// Find the program's move in the position the game has reached.
    Search(SearchRequest<R>),
    /// A fresh game on a freshly loaded machine.
    NewGame,
    /// Recreate the engine with new options (its id stays).
    Recreate(EngineOptions),
}

/// One search for the engine worker.
#[derive(Clone, Debug)]
pub struct SearchRequest<R: Rules> {
    /// Matches the [`Searched`] that answers it.
    pub id: u64,
    /// The game so far (legal moves, checked by the rules).
    pub game: Game<R>,
    /// Emulated T-states the program may take.
    pub budget: u64,
    /// Also send the emulated screen back.
    pub screen: bool,
    /// Collect the program's candidates ([`Reply::thoughts`]).
    pub thoughts: bool,
}

impl<R: Rules> PartialEq for SearchRequest<R> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.budget == other.budget
            && self.screen == other.screen
            && self.thoughts == other.thoughts
            && self.game.root() == other.game.root()
            && self.game.moves() == other.game.moves()
    }
}

/// A finished search.
#[derive(Debug)]
pub struct Searched<R: Rules> {
    pub id: u64,
    /// The program's reply, or the driver's error as text.
    pub result: Result<Reply<R::Wire>, String>,
    /// Host time the search took.
    pub host: Duration,
    /// The emulated screen after the reply (plain text rows, blank rows
    /// above and below left out), if asked for and the engine has one.
    pub screen: Option<Vec<String>>,
}

/// The engine on its thread: runs [`Job`]s, answers with [`Input`]s.
pub struct Worker<R: Catalogue> {
    id: String,
    options: EngineOptions,
    engine: Box<dyn Engine<R>>,
}

impl<R: Catalogue> Worker<R> {
    /// Loads the engine called `id`.
    ///
    /// # Errors
    /// Unknown engine, or its tape cannot be loaded.
    pub fn new(id: &str, options: &EngineOptions) -> Result<Worker<R>, EngineError> {
        Ok(Worker {
            id: id.to_string(),
            options: options.clone(),
            engine: R::create(id, options)?,
        })
    }

    /// Runs one job; `None` for jobs nobody waits for.
    pub fn run(&mut self, job: Job<R>) -> Option<Input<R>> {
        match job {
            Job::Search(request) => Some(Input::Searched(self.search(request))),
            Job::NewGame => {
                if let Err(e) = self.engine.new_game() {
                    log::warn!("new game: {e}");
                }
                None
            }
            Job::Recreate(options) => {
                let result = R::create(&self.id, &options).map(|engine| {
                    self.engine = engine;
                    self.options = options;
                });
                Some(Input::Recreated(result.map_err(|e| e.to_string())))
            }
        }
    }

    fn search(&mut self, request: SearchRequest<R>) -> Searched<R> {
        let start = std::time::Instant::now();
        // A driver must not panic, but if one does, the GUI still gets an
        // answer and the next search a fresh machine.
        let engine = &mut self.engine;
        engine.collect_candidates(request.thoughts);
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.play(&request.game, request.budget)
        }));
        let host = start.elapsed();
        let result = match result {
            Ok(played) => played.map_err(|e| e.to_string()),
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".to_string());
                if let Ok(fresh) = R::create(&self.id, &self.options) {
                    self.engine = fresh;
                }
                Err(format!(
                    "the driver panicked ({what}); the machine was reloaded"
                ))
            }
        };
        let screen = if request.screen {
            self.engine
                .screen()
                .map(|s| screen_rows(&s.render(ScreenStyle::Plain)))
        } else {
            None
        };
        Searched {
            id: request.id,
            result,
            host,
            screen,
        }
    }
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

/// What to do when the program plays an illegal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPolicy {
    /// Send it anyway and let the GUI adjudicate (the program's true strength).
    Play,
    /// Resign instead, with the reason.
    Resign,
}

/// The options every front end offers, with their current values: the
/// seed, the options the engine's driver declares, and the front ends' own.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The driver's options (seed, tape, declared values).
    pub engine: EngineOptions,
    /// What the driver declares, with its defaults.
    declared: Vec<OptionSpec>,
    /// The engine has an emulated screen to show.
    has_screen: bool,
    pub illegal: IllegalPolicy,
    /// Wait out the original machine's thinking time.
    pub authentic: bool,
    /// Percentage of the authentic time to wait.
    pub time_scale: u32,
    /// Show the emulated screen after each move.
    pub show_screen: bool,
    /// `Seed` is `random`: each new game draws a fresh seed (and says it).
    pub fresh_seed: bool,
}

/// The largest seed GUIs can set (UCI spins are 32-bit in many GUIs).
pub const SEED_MAX: u64 = 2_147_483_647;
pub const TIME_SCALE_MAX: u32 = 10_000;

impl Settings {
    /// At a new game: with `Seed` `random`, a seed drawn afresh (from the
    /// clock and the process's hash keys, as a real machine's FRAMES held
    /// whatever it held), now the engine's; `None` otherwise (the default:
    /// the same seed, the same game).
    pub fn next_game_seed(&mut self) -> Option<u64> {
        use std::hash::{BuildHasher, Hasher};
        if !self.fresh_seed {
            return None;
        }
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let seed = crate::machine::SplitMix64::new(h.finish()).next_u64() % (SEED_MAX + 1);
        self.engine.seed = seed;
        Some(seed)
    }
}

/// What changing an option needs.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing beyond the new value.
    Value,
    /// The engine must be recreated with the new driver options.
    Recreate,
}

fn recreate_if(changed: bool) -> Change {
    if changed {
        Change::Recreate
    } else {
        Change::Value
    }
}

impl Settings {
    /// The settings of the built-in engine `entry`, starting from `engine`
    /// (the command line's values).
    pub fn new(entry: &Entry, engine: EngineOptions) -> Settings {
        Settings {
            engine,
            declared: (entry.options)(),
            has_screen: entry.has_screen,
            illegal: IllegalPolicy::Play,
            authentic: false,
            time_scale: 100,
            show_screen: false,
            fresh_seed: false,
        }
    }

    /// The options, with the current values as defaults (the seed given on
    /// the command line is the default a GUI shows).
    pub fn specs(&self) -> Vec<OptionSpec> {
        let check = |name, default| OptionSpec {
            name,
            kind: OptionKind::Check { default },
        };
        let mut specs = vec![OptionSpec {
            name: "Seed",
            kind: OptionKind::Spin {
                default: self.engine.seed.min(SEED_MAX) as i64,
                min: 0,
                max: SEED_MAX as i64,
            },
        }];
        specs.extend(
            self.declared
                .iter()
                .map(|d| match self.engine.value(d.name) {
                    Some(v) => d.with_default(v),
                    None => d.clone(),
                }),
        );
        specs.extend([
            OptionSpec {
                name: "IllegalMoves",
                kind: OptionKind::Combo {
                    default: match self.illegal {
                        IllegalPolicy::Play => "play",
                        IllegalPolicy::Resign => "resign",
                    },
                    vars: &["play", "resign"],
                },
            },
            check("AuthenticTiming", self.authentic),
            OptionSpec {
                name: "TimeScale",
                kind: OptionKind::Spin {
                    default: i64::from(self.time_scale),
                    min: 1,
                    max: i64::from(TIME_SCALE_MAX),
                },
            },
        ]);
        if self.has_screen {
            specs.push(check("ShowScreen", self.show_screen));
        }
        specs
    }

    /// Sets option `name` (case-insensitive, as UCI allows) to `value`.
    ///
    /// # Errors
    /// Unknown option or a value out of range, with a message for the GUI.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let value = value.map(str::trim).unwrap_or("");
        let spec = self
            .specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option {name:?}"))?;
        if spec.name == "Seed" && value.eq_ignore_ascii_case("random") {
            self.fresh_seed = true;
            return Ok(Change::Value);
        }
        let value = spec.check(value)?;
        match spec.name {
            "Seed" => {
                self.fresh_seed = false;
                let seed = value.parse::<u64>().unwrap_or(self.engine.seed);
                let changed = seed != self.engine.seed;
                self.engine.seed = seed;
                Ok(recreate_if(changed))
            }
            "IllegalMoves" => {
                self.illegal = match value.as_str() {
                    "resign" => IllegalPolicy::Resign,
                    _ => IllegalPolicy::Play,
                };
                Ok(Change::Value)
            }
            "AuthenticTiming" => {
                self.authentic = value == "true";
                Ok(Change::Value)
            }
            "TimeScale" => {
                self.time_scale = value.parse().unwrap_or(self.time_scale);
                Ok(Change::Value)
            }
            "ShowScreen" => {
                self.show_screen = value == "true";
                Ok(Change::Value)
            }
            declared => {
                let before = self.engine.value(declared).map(str::to_string);
                let default = match &spec.kind {
                    OptionKind::Combo { default, .. } => Some(default.to_string()),
                    _ => None,
                };
                let changed = before.or(default).as_deref() != Some(value.as_str());
                self.engine.values.insert(declared.to_string(), value);
                Ok(recreate_if(changed))
            }
        }
    }

    /// How long to hold the program's move back so that it comes after the
    /// original machine's thinking time (scaled), never beyond `limit`, the
    /// time the clock allows for the move. `spent` is already gone.
    pub fn authentic_wait(
        &self,
        authentic: Duration,
        spent: Duration,
        limit: Option<Duration>,
    ) -> Duration {
        if !self.authentic {
            return Duration::ZERO;
        }
        let mut want = authentic.mul_f64(f64::from(self.time_scale) / 100.0);
        if let Some(limit) = limit {
            want = want.min(limit);
        }
        want.saturating_sub(spent)
    }
}

/// Candidates as a driver reports them, for the front ends' tests: (move,
/// raw) in the order the program weighed them, scored by `score`, ranked
/// under `ties` by "the test's rule".
#[cfg(test)]
pub(crate) fn test_thoughts<W: std::str::FromStr>(
    weighed: &[(&str, i32)],
    score: fn(i32) -> i32,
    ties: crate::engines::Ties,
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

/// The engine's `id name`/`myname`: the program, its author and year, and us
/// (no comma: PolyGlot cuts a CECP `myname` there).
pub fn display_name(info: &EngineInfo) -> String {
    format!(
        "{} ({} {}) via retrochess {}",
        info.name,
        info.author,
        info.year,
        env!("CARGO_PKG_VERSION")
    )
}

/// Emulated speed of this host, measured from the replies, to turn the clock
/// into a T-state budget.
///
/// The rule (issue "tried as a new user would"): a retro program thinks with
/// a fixed effort and, cut short, has nothing to give — `bestmove 0000` is a
/// lost game. So a program is only cut short when it could not have finished
/// before the real deadline anyway: the budget is the time up to the
/// deadline, less a safety margin ([`Clock::limits`]), times the rate this
/// host emulates. Before the first measurement the rate is an optimistic
/// [`DEFAULT_RATE`]: a pessimistic guess would cut a program that fits the
/// clock (at 0.1+0.01, a 150 MHz guess left 1K ZX Chess 0.9 M T-states for a
/// move that needs 4–7 M), while an optimistic one only lets a program that
/// really hangs run into the deadline, where it loses on time instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Speed {
    /// Emulated T-states per host second.
    rate: f64,
}

/// Before the first measurement: above what hosts emulate (450–850 × 10⁶
/// T-states per second measured on the development machine).
pub const DEFAULT_RATE: f64 = 1e9;
/// Budget when the clock sets no limit (`go infinite`, `go depth`, no
/// clock at all): ample for the programs here, yet a hung program is given
/// up after some seconds of host time.
pub const NO_CLOCK_BUDGET: u64 = 5_000_000_000;
/// Time reserved for the pipes, the GUI and the host's scheduling.
pub const OVERHEAD: Duration = Duration::from_millis(30);

impl Default for Speed {
    fn default() -> Self {
        Speed { rate: DEFAULT_RATE }
    }
}

impl Speed {
    /// Learns from a reply: `tstates` emulated in `host` time. Replies too
    /// short to time (the tape's stored move) teach nothing.
    pub fn observe(&mut self, tstates: u64, host: Duration) {
        if tstates < 100_000 || host < Duration::from_millis(1) {
            return;
        }
        let sample = (tstates as f64 / host.as_secs_f64()).clamp(10e6, 5e9);
        // Slow to trust a fast sample, quick to believe a slow one.
        let weight = if sample < self.rate { 0.5 } else { 0.2 };
        self.rate = self.rate * (1.0 - weight) + sample * weight;
    }

    /// T-states per host second, as now estimated.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The budget for a move that must be ready within `limit` of host time
    /// (the margin is already taken off): what the host emulates in that
    /// time. No limit: [`NO_CLOCK_BUDGET`].
    pub fn budget(&self, limit: Option<Duration>) -> u64 {
        match limit {
            None => NO_CLOCK_BUDGET,
            Some(limit) => ((limit.as_secs_f64() * self.rate) as u64).clamp(1, NO_CLOCK_BUDGET),
        }
    }
}

/// A clock as the protocols describe it, from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// A fixed time per move.
    pub move_time: Option<Duration>,
}

impl Clock {
    /// What the clock allows for this move; both `None` when nothing
    /// limits it.
    ///
    /// The programs think with a fixed effort, so there is no target to aim
    /// at, only two bounds:
    /// - `share`, a fair share of the time left (spread over the moves to go,
    ///   or over 20 more moves, plus most of the increment, at most half of
    ///   what is left, less [`OVERHEAD`]), which the authentic-timing wait
    ///   may fill;
    /// - `ceiling`, the most the program itself may take before it is called
    ///   hung: the real deadline, all that is left, less a safety margin of
    ///   [`OVERHEAD`] and a tenth, but never less than half of what is left;
    ///   or the move time less [`OVERHEAD`] (at least half of it).
    pub fn limits(&self) -> Limits {
        let move_time = self
            .move_time
            .map(|t| t.saturating_sub(OVERHEAD).max(t / 2));
        let share = self.remaining.map(|left| {
            let moves = self.moves_to_go.unwrap_or(20).clamp(1, 50);
            (left / moves)
                .saturating_add(self.increment.mul_f64(0.75))
                .min(left / 2)
                .saturating_sub(OVERHEAD)
        });
        let ceiling = self
            .remaining
            .map(|left| left.saturating_sub(OVERHEAD + left / 10).max(left / 2));
        let tighter = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            share: tighter(move_time, share),
            ceiling: tighter(move_time, ceiling),
        }
    }
}

/// The bounds the clock sets on one move (see [`Clock::limits`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub share: Option<Duration>,
    pub ceiling: Option<Duration>,
}

/// The program's reply, judged against the real position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged<R: Rules> {
    /// The move to send to the GUI (`None`: resign / `bestmove 0000`).
    pub send: Option<R::Wire>,
    /// The legal move played, to follow the game with.
    pub legal: Option<R::Move>,
    /// Why the move is not legal, or why there is none.
    pub problem: Option<String>,
}

/// Judges a reply in `pos` ([`Judgement::of`]) and applies `policy`.
pub fn judge_reply<R: Rules>(
    rules: &R,
    pos: &R::Position,
    played: &Played<R::Wire>,
    policy: IllegalPolicy,
) -> Judged<R> {
    let judgement = Judgement::of(rules, pos, played);
    let send = match &judgement {
        Judgement::Legal(_, wire) => Some(wire.clone()),
        Judgement::Illegal(wire, _) => (policy == IllegalPolicy::Play).then(|| wire.clone()),
        _ => None,
    };
    Judged {
        send,
        legal: judgement.legal().cloned(),
        problem: judgement.problem(),
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
    pub verdict: Result<(R::Move, R::Wire), String>,
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
    pub fn illegal(&self) -> Option<&str> {
        self.verdict.as_ref().err().map(String::as_str)
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
                Verdict::Illegal(_, why) => Err(why.to_string()),
            };
            Weighed {
                rank: i + 1,
                candidate: c.clone(),
                verdict,
            }
        })
        .collect()
}

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
        (_, Played::Move(_)) => "this engine's driver does not report the program's candidates",
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

/// Ids for searches and timers.
#[derive(Debug, Default)]
pub struct Ids(u64);

impl Ids {
    pub fn fresh(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

impl fmt::Display for IllegalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalPolicy::Play => "play",
            IllegalPolicy::Resign => "resign",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines;

    #[test]
    fn options_parse_and_refuse() {
        let mut s = settings("1k-zx-chess");
        assert_eq!(s.set("seed", Some("42")), Ok(Change::Recreate));
        assert_eq!(s.engine.seed, 42);
        assert_eq!(s.set("Seed", Some("42")), Ok(Change::Value));
        assert_eq!(s.set("Opening", Some("THINK")), Ok(Change::Recreate));
        assert_eq!(s.engine.value("Opening"), Some("think"));
        assert_eq!(s.set("Opening", Some("think")), Ok(Change::Value));
        assert_eq!(s.set("Frames", Some("fast")), Ok(Change::Recreate));
        assert_eq!(s.engine.value("Frames"), Some("fast"));
        assert_eq!(s.set("IllegalMoves", Some("resign")), Ok(Change::Value));
        assert_eq!(s.illegal, IllegalPolicy::Resign);
        assert_eq!(s.set("AuthenticTiming", Some("true")), Ok(Change::Value));
        assert_eq!(s.set("TimeScale", Some("50")), Ok(Change::Value));
        assert_eq!(s.time_scale, 50);
        let bad: &[(&str, Option<&str>)] = &[
            ("Hash", Some("16")),
            ("Seed", Some("-1")),
            ("Seed", Some("x")),
            ("Seed", None),
            ("TimeScale", Some("0")),
            ("Opening", Some("book")),
            ("ShowScreen", Some("maybe")),
        ];
        for (name, value) in bad {
            assert!(s.set(name, *value).is_err(), "{name} {value:?}");
        }
        assert_eq!(s.time_scale, 50, "a refused value changes nothing");
    }

    fn settings(id: &str) -> Settings {
        Settings::new(&engines::entry(id).unwrap(), EngineOptions::default())
    }

    #[test]
    fn each_engine_offers_what_its_driver_declares() {
        let names = |id| -> Vec<&str> { settings(id).specs().iter().map(|s| s.name).collect() };
        assert_eq!(
            names("1k-zx-chess"),
            [
                "Seed",
                "Opening",
                "Frames",
                "IllegalMoves",
                "AuthenticTiming",
                "TimeScale",
                "ShowScreen"
            ]
        );
        assert_eq!(
            names("chesskelet"),
            [
                "Seed",
                "IllegalMoves",
                "AuthenticTiming",
                "TimeScale",
                "ShowScreen"
            ]
        );
        let mut s = settings("chesskelet");
        assert!(
            s.set("Opening", Some("think"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(s.set("Frames", Some("fast")).is_err());
    }

    #[test]
    fn clock_limits() {
        let ms = Duration::from_millis;
        let c = |remaining: Option<u64>, inc: u64, mtg: Option<u32>, mt: Option<u64>| {
            let l = Clock {
                remaining: remaining.map(ms),
                increment: ms(inc),
                moves_to_go: mtg,
                move_time: mt.map(ms),
            }
            .limits();
            (
                l.share.map(|d| d.as_millis()),
                l.ceiling.map(|d| d.as_millis()),
            )
        };
        assert_eq!(c(None, 0, None, None), (None, None));
        assert_eq!(c(None, 0, None, Some(1000)), (Some(970), Some(970)));
        assert_eq!(c(None, 0, None, Some(20)), (Some(10), Some(10)));
        // 60 s, no increment: a 20th to share; the program may think up to
        // the deadline less the margin (30 ms and a tenth) before it is
        // called hung.
        assert_eq!(c(Some(60_000), 0, None, None), (Some(2970), Some(53_970)));
        assert_eq!(
            c(Some(60_000), 2000, None, None),
            (Some(4470), Some(53_970))
        );
        // One move to go: half of what is left to share.
        assert_eq!(c(Some(1000), 0, Some(1), None), (Some(470), Some(870)));
        // A scramble: nothing to share, yet the program may use what the
        // clock really leaves (at 0.1+0.01, 60 ms: 1K ZX Chess needs 6–10).
        assert_eq!(c(Some(100), 0, None, None), (Some(0), Some(60)));
        assert_eq!(c(Some(300), 0, None, None), (Some(0), Some(240)));
        assert_eq!(c(Some(20), 0, None, None), (Some(0), Some(10)));
        // Both: the tighter.
        assert_eq!(c(Some(60_000), 0, None, Some(500)), (Some(470), Some(470)));
    }

    #[test]
    fn speed_budgets() {
        let mut s = Speed::default();
        assert_eq!(s.budget(None), NO_CLOCK_BUDGET);
        assert_eq!(s.budget(Some(Duration::from_secs(1))), 1_000_000_000);
        s.observe(6_000_000, Duration::from_millis(12));
        assert!(
            s.rate() < DEFAULT_RATE && s.rate() > 500e6,
            "a slower host is believed"
        );
        assert_eq!(
            s.budget(Some(Duration::from_millis(10))),
            (s.rate() / 100.0) as u64
        );
        s.observe(10, Duration::ZERO);
        let before = s.rate();
        s.observe(6_000_000, Duration::from_millis(600));
        assert!(s.rate() < before / 1.5, "a slow reply is believed at once");
    }

    #[test]
    fn authentic_waits_are_capped() {
        let mut s = settings("1k-zx-chess");
        let secs = Duration::from_secs;
        assert_eq!(
            s.authentic_wait(secs(8), Duration::ZERO, None),
            Duration::ZERO
        );
        s.authentic = true;
        assert_eq!(s.authentic_wait(secs(8), secs(1), None), secs(7));
        s.time_scale = 50;
        assert_eq!(s.authentic_wait(secs(8), secs(1), Some(secs(2))), secs(1));
        assert_eq!(
            s.authentic_wait(secs(8), secs(3), Some(secs(2))),
            Duration::ZERO
        );
    }
}
