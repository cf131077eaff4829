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

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use crate::arbiter::{self, Verdict};
use crate::engines::{self, ChessEngine, EngineInfo, EngineOptions, Played, Reply};
use crate::machine::ScreenStyle;

/// What a front end reacts to.
#[derive(Debug)]
pub enum Input {
    /// One line from the GUI, without its line ending.
    Line(String),
    /// The GUI closed our stdin.
    Eof,
    /// The engine worker finished a search.
    Searched(Searched),
    /// The engine worker finished recreating the engine (new options).
    Recreated(Result<(), String>),
    /// A timer set with [`Action::WakeAfter`] went off.
    Wake(u64),
}

/// What a front end asks the edge to do, in order.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// A line to the GUI (stdout).
    Send(String),
    /// A note for the person watching stderr.
    Note(String),
    /// A job for the engine worker.
    Job(Job),
    /// Send [`Input::Wake`] with this token after this long.
    WakeAfter(Duration, u64),
    /// Stop serving.
    Quit,
}

/// A job for the engine worker; they run in the order given.
#[derive(Debug, PartialEq)]
pub enum Job {
    /// Find the program's move after `moves` from `root`.
    Search(SearchRequest),
    /// A fresh game on a freshly loaded machine.
    NewGame,
    /// Recreate the engine with new options (its id stays).
    Recreate(EngineOptions),
}

/// One search for the engine worker.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    /// Matches the [`Searched`] that answers it.
    pub id: u64,
    pub root: Chess,
    /// Legal moves from `root` (checked by the arbiter).
    pub moves: Vec<Move>,
    /// Emulated T-states the program may take.
    pub budget: u64,
    /// Also send the emulated screen back.
    pub screen: bool,
}

/// A finished search.
#[derive(Debug)]
pub struct Searched {
    pub id: u64,
    /// The program's reply, or the driver's error as text.
    pub result: Result<Reply, String>,
    /// Host time the search took.
    pub host: Duration,
    /// The emulated screen after the reply (plain text rows, blank rows
    /// above and below left out), if asked for.
    pub screen: Option<Vec<String>>,
}

/// The engine on its thread: runs [`Job`]s, answers with [`Input`]s.
pub struct Worker {
    id: String,
    options: EngineOptions,
    engine: Box<dyn ChessEngine>,
}

impl Worker {
    /// Loads the engine called `id`.
    ///
    /// # Errors
    /// Unknown engine, or its tape cannot be loaded.
    pub fn new(id: &str, options: &EngineOptions) -> Result<Worker, String> {
        let engine = engines::create(id, options).map_err(|e| e.to_string())?;
        Ok(Worker {
            id: id.to_string(),
            options: options.clone(),
            engine,
        })
    }

    /// Runs one job; `None` for jobs nobody waits for.
    pub fn run(&mut self, job: Job) -> Option<Input> {
        match job {
            Job::Search(request) => {
                let start = std::time::Instant::now();
                // A driver must not panic, but if one does, the GUI still
                // gets an answer and the next search a fresh machine.
                let engine = &mut self.engine;
                let result = panic::catch_unwind(AssertUnwindSafe(|| {
                    engine.play(&request.root, &request.moves, request.budget)
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
                        if let Ok(fresh) = engines::create(&self.id, &self.options) {
                            self.engine = fresh;
                        }
                        Err(format!(
                            "the driver panicked ({what}); the machine was reloaded"
                        ))
                    }
                };
                let screen = request.screen.then(|| {
                    let text = self.engine.screen().render(ScreenStyle::Plain);
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
                });
                Some(Input::Searched(Searched {
                    id: request.id,
                    result,
                    host,
                    screen,
                }))
            }
            Job::NewGame => {
                if let Err(e) = self.engine.new_game() {
                    log::warn!("new game: {e}");
                }
                None
            }
            Job::Recreate(options) => {
                let result = engines::create(&self.id, &options).map(|engine| {
                    self.engine = engine;
                    self.options = options;
                });
                Some(Input::Recreated(result.map_err(|e| e.to_string())))
            }
        }
    }
}

/// What to do when the program plays an illegal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPolicy {
    /// Send it anyway and let the GUI adjudicate (the program's true strength).
    Play,
    /// Resign instead, with the reason.
    Resign,
}

/// The options both protocols offer, with their current values.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The driver's options (seed, tape's first move, ...).
    pub engine: EngineOptions,
    pub illegal: IllegalPolicy,
    /// Wait out the original machine's thinking time.
    pub authentic: bool,
    /// Percentage of the authentic time to wait.
    pub time_scale: u32,
    /// Show the emulated screen after each move.
    pub show_screen: bool,
}

/// The largest seed GUIs can set (UCI spins are 32-bit in many GUIs).
pub const SEED_MAX: u64 = 2_147_483_647;
pub const TIME_SCALE_MAX: u32 = 10_000;

/// What changing an option needs.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing beyond the new value.
    Value,
    /// The engine must be recreated with the new driver options.
    Recreate,
}

/// An option a GUI may set, described once for both protocols.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    Text {
        default: String,
    },
}

/// One option as the GUI sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl Settings {
    pub fn new(engine: EngineOptions) -> Settings {
        Settings {
            engine,
            illegal: IllegalPolicy::Play,
            authentic: false,
            time_scale: 100,
            show_screen: false,
        }
    }

    /// The options, with the current values as defaults (the seed given on
    /// the command line is the default a GUI shows).
    pub fn specs(&self) -> Vec<OptionSpec> {
        let check = |name, default| OptionSpec {
            name,
            kind: OptionKind::Check { default },
        };
        vec![
            OptionSpec {
                name: "Seed",
                kind: OptionKind::Spin {
                    default: self.engine.seed.min(SEED_MAX) as i64,
                    min: 0,
                    max: SEED_MAX as i64,
                },
            },
            OptionSpec {
                name: "Opening",
                kind: OptionKind::Combo {
                    default: if self.engine.think_first_move {
                        "think"
                    } else {
                        "tape"
                    },
                    vars: &["tape", "think"],
                },
            },
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
            check("ShowScreen", self.show_screen),
        ]
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
        let parse_check = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" => Ok(true),
            "false" | "0" | "off" => Ok(false),
            _ => Err(format!("option {}: {v:?} is not true or false", spec.name)),
        };
        let parse_spin = |v: &str, min: i64, max: i64| {
            v.parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    format!(
                        "option {}: {v:?} is not a number from {min} to {max}",
                        spec.name
                    )
                })
        };
        let parse_combo = |v: &str, vars: &[&'static str]| {
            vars.iter()
                .find(|var| var.eq_ignore_ascii_case(v))
                .copied()
                .ok_or_else(|| {
                    format!(
                        "option {}: {v:?} is not one of {}",
                        spec.name,
                        vars.join(", ")
                    )
                })
        };
        match spec.name {
            "Seed" => {
                let seed = parse_spin(value, 0, SEED_MAX as i64)? as u64;
                let changed = seed != self.engine.seed;
                self.engine.seed = seed;
                Ok(if changed {
                    Change::Recreate
                } else {
                    Change::Value
                })
            }
            "Opening" => {
                let think = parse_combo(value, &["tape", "think"])? == "think";
                let changed = think != self.engine.think_first_move;
                self.engine.think_first_move = think;
                Ok(if changed {
                    Change::Recreate
                } else {
                    Change::Value
                })
            }
            "IllegalMoves" => {
                self.illegal = match parse_combo(value, &["play", "resign"])? {
                    "resign" => IllegalPolicy::Resign,
                    _ => IllegalPolicy::Play,
                };
                Ok(Change::Value)
            }
            "AuthenticTiming" => {
                self.authentic = parse_check(value)?;
                Ok(Change::Value)
            }
            "TimeScale" => {
                self.time_scale = parse_spin(value, 1, i64::from(TIME_SCALE_MAX))? as u32;
                Ok(Change::Value)
            }
            "ShowScreen" => {
                self.show_screen = parse_check(value)?;
                Ok(Change::Value)
            }
            other => Err(format!("option {other} cannot be set")),
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

/// The lines an action list sends to the GUI (for the front ends' tests).
#[cfg(test)]
pub(crate) fn sent(actions: &[Action]) -> Vec<String> {
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
#[derive(Clone, Debug, PartialEq)]
pub struct Speed {
    /// Emulated T-states per host second.
    rate: f64,
}

/// Before the first measurement: well below what a modest host emulates
/// (~500 × 10⁶ T-states per second measured on the development machine),
/// so the first budget is safe.
pub const DEFAULT_RATE: f64 = 150e6;
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

    /// The budget for a move that must be ready within `limit` of host time:
    /// 60 % of what the host emulates in that time, so the reply comes well
    /// within it. No limit: [`NO_CLOCK_BUDGET`].
    pub fn budget(&self, limit: Option<Duration>) -> u64 {
        match limit {
            None => NO_CLOCK_BUDGET,
            Some(limit) => {
                ((limit.as_secs_f64() * self.rate * 0.6) as u64).clamp(1, NO_CLOCK_BUDGET)
            }
        }
    }
}

/// A clock as both protocols describe it, from the mover's side.
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
    ///   what is left), which the authentic-timing wait may fill;
    /// - `ceiling`, the most the program itself may take before it is called
    ///   hung: a third of what is left (at least a tenth), or the move time.
    ///
    /// Both leave [`OVERHEAD`] for the pipes and the GUI.
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
            .map(|left| (left / 3).saturating_sub(OVERHEAD).max(left / 10));
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
pub struct Judged {
    /// The move to send to the GUI (`None`: resign / `bestmove 0000`).
    pub send: Option<UciMove>,
    /// The legal move played, to follow the game with.
    pub legal: Option<Move>,
    /// Why the move is not legal, or why there is none.
    pub problem: Option<String>,
}

/// Judges a reply in `pos` under `policy`.
pub fn judge_reply(pos: &Chess, played: &Played, policy: IllegalPolicy) -> Judged {
    match played {
        Played::Move(uci) => match arbiter::judge(pos, uci) {
            Verdict::Legal(m) => Judged {
                send: Some(*uci),
                legal: Some(m),
                problem: None,
            },
            Verdict::Illegal(uci, why) => Judged {
                send: (policy == IllegalPolicy::Play).then_some(uci),
                legal: None,
                problem: Some(format!("illegal move {uci}: {why}")),
            },
        },
        Played::DeadEnd => Judged {
            send: None,
            legal: None,
            problem: Some(format!(
                "the program found no move and stopped (its dead end), though {} legal move{} exist",
                pos.legal_moves().len(),
                if pos.legal_moves().len() == 1 {
                    ""
                } else {
                    "s"
                }
            )),
        },
        Played::Hung(stop) => Judged {
            send: None,
            legal: None,
            problem: Some(format!("the program did not come back: {stop}")),
        },
    }
}

/// The retro detail of a reply, for `info string` and `#` comments.
pub fn describe(reply: &Reply, host: Duration) -> String {
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

    #[test]
    fn options_parse_and_refuse() {
        let mut s = Settings::new(EngineOptions::default());
        assert_eq!(s.set("seed", Some("42")), Ok(Change::Recreate));
        assert_eq!(s.engine.seed, 42);
        assert_eq!(s.set("Seed", Some("42")), Ok(Change::Value));
        assert_eq!(s.set("Opening", Some("THINK")), Ok(Change::Recreate));
        assert!(s.engine.think_first_move);
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
        // 60 s, no increment: a 20th to share, a third at most.
        assert_eq!(c(Some(60_000), 0, None, None), (Some(2970), Some(19_970)));
        assert_eq!(
            c(Some(60_000), 2000, None, None),
            (Some(4470), Some(19_970))
        );
        // One move to go: half of what is left.
        assert_eq!(c(Some(1000), 0, Some(1), None), (Some(470), Some(303)));
        // A scramble: nothing to share, a tenth to think.
        assert_eq!(c(Some(100), 0, None, None), (Some(0), Some(10)));
        assert_eq!(c(Some(300), 0, None, None), (Some(0), Some(70)));
        // Both: the tighter.
        assert_eq!(c(Some(60_000), 0, None, Some(500)), (Some(470), Some(470)));
    }

    #[test]
    fn speed_budgets() {
        let mut s = Speed::default();
        assert_eq!(s.budget(None), NO_CLOCK_BUDGET);
        assert_eq!(s.budget(Some(Duration::from_secs(1))), 90_000_000);
        s.observe(6_000_000, Duration::from_millis(12));
        assert!(s.rate() > DEFAULT_RATE && s.rate() < 500e6);
        s.observe(10, Duration::ZERO);
        let before = s.rate();
        s.observe(6_000_000, Duration::from_millis(600));
        assert!(s.rate() < before / 1.5, "a slow reply is believed at once");
    }

    #[test]
    fn authentic_waits_are_capped() {
        let mut s = Settings::new(EngineOptions::default());
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
