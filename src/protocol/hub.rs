//! The Hub protocol for draughts, version 2, as a state machine over lines.
//!
//! Hub is the text protocol of Fabien Letouzey's engine Scan (Scan 3.0 and
//! the Hub 2.0 GUI; its `protocol.txt`, dated 2017-07-11, is the source of
//! everything here not said to come from pydraughts). Every line is
//! `<command> <arg>=<val> <arg>=<val> ...`; a value is quoted with `"` when
//! it holds a space or `=` or is empty; a flag is an argument without
//! `=val`. Unknown arguments are ignored, as the protocol asks. A line that
//! cannot be read, an unknown command, or a command that cannot be carried
//! out (a broken position, an illegal move in `moves=`, a `level` with a
//! bad number) gets `error message="…"` and changes nothing; the engine
//! goes on.
//!
//! The conversation: `hub` → `id …`, one `param …` a parameter, `wait`;
//! `set-param name=… value=…`; `init` → `ready`; then searches of three
//! steps, `pos pos=… [moves="…"]`, `level …`, `go think|ponder|analyze`,
//! answered by `info …` lines and `done move=…`. `ping` → `pong` at any
//! time, `stop` and `ponder-hit` during a search, `new-game`, `quit`.
//!
//! Parameters: `variant` chooses the rules that judge every move (`english`,
//! English checkers, the default; `zx81-1k`, Draughts 1K's house rules;
//! changing it starts a new game), then the options every front end offers
//! and those the engine's driver declares (`Seed`, `IllegalMoves`, …,
//! rendered as `type=int|bool|enum|string`).
//!
//! `level`: `time=` (seconds left, real) with `moves=` and `inc=` becomes
//! the shared [`Clock`] and, through the [`Searches`], the deadline at which a
//! program still thinking is cut ([`super::clock`]); `move-time=` a fixed time a move; `depth=` and `nodes=` are read
//! and ignored (the programs think their own fixed way); `infinite` makes a
//! search wait for `stop`. The increment is added before the move, as the
//! protocol says, so the time for this move is `time` + `inc`. Seconds past
//! [`MAX_SECONDS`] are taken as that.
//!
//! Searches: `go think` and `go analyze` answer when the program has moved
//! (or, after `level infinite`, on `stop`); `go ponder` answers on
//! `ponder-hit` or `stop`. (Hub lets an engine answer early in every mode
//! and leaves the buffering to the GUI; holding the answer as UCI does is
//! also allowed, and keeps authentic timing from starting before the clock
//! does.) Every move of the program is judged under the chosen rules
//! ([`super::judging::judge_reply`]): the first `info` line has `score` (in men,
//! from the driver's hundredths), `nodes`, `time` (seconds), `nps` (millions
//! a second, as Scan writes it) and, for a legal move only, `pv`; a problem
//! (an illegal move and why, a dead end, a hang) is an `info problem="…"`
//! line, never a `pv`; then `info detail="…"` with the retro detail and,
//! with `ShowScreen`, one `info screen="…"` a row. Under `IllegalMoves
//! play` an illegal move is sent; under `resign`, and when there is no move
//! at all, `done move=0-0` ([`NO_MOVE`]; see "When the program has no
//! move" below).
//!
//! # When the program has no move
//!
//! A program that hangs (Toni Baker's printed routines fault on most
//! positions: `baker-draughts`), finds no move (its dead end), or whose
//! illegal move is withheld under `IllegalMoves resign`, has no move to
//! send. Scan's `protocol.txt` has neither a resignation nor a null move:
//! `done` "contains the engine's move", and an empty value must be quoted.
//! What the one client that speaks Hub on 8×8 does with each possible
//! answer (pydraughts 0.6.7, `HubEngine.go` and `.play`, read and tried):
//! - `done` alone: `go` takes the first argument of `done` as the move,
//!   finds none, and raises `IndexError` (what this front end sent before);
//! - `done move=""`: `go` returns the two characters `""`, and `play`
//!   raises `KeyError` looking for that square;
//! - `done move=` (an empty value, unquoted against the protocol): `play`
//!   builds a `Move` with no squares, and pushing it raises
//!   `AttributeError`;
//! - `done move=0-0`: `go` returns `"0-0"` and `play` a `PlayResult` whose
//!   `move.is_null` is true: pydraughts's own null move, as `bestmove
//!   0000` is UCI's. Pushing it on an `english` board raises `ValueError`
//!   ("The provided move is not possible"), so the game cannot silently go
//!   on as though a move were made.
//!
//! So the answer is `done move=0-0`, after the `info problem="…"` that
//! says why (the hang and the program counter, the dead end, or the
//! illegal move). A client sees a null move and the reason in its `info`
//! (pydraughts: `result.move.is_null`, `result.info["problem"]`). Our own
//! Hub client ([`crate::runner`]) reads `0-0` as no move, a resignation
//! with that reason.
//!
//! `go analyze` also asks the driver for the moves the program weighed
//! ([`crate::engines::Engine::collect_candidates`]; the protocol: "with go
//! analyze, the GUI cares more about search information such as the score
//! and PV"). Each legal candidate is an `info depth=1 score=… nodes=…
//! time=… nps=… pv=…` line, in the shape of Scan's `info` (depth, score in
//! men, nodes, time, nps, pv), with the candidate's own score as the
//! program computed it and the whole search's nodes and time; they come in
//! the reverse of the program's order, its choice last, just before
//! `done`: a GUI that shows the latest `info`, and pydraughts's
//! `HubEngine`, which keeps the last value of each key, hold the program's
//! choice. A candidate the rules refuse is never a `pv`: it is an `info
//! note="candidate … is illegal: …"`, as are ties and the count (`note="N
//! candidates weighed, M legal"`). Without candidates (a driver that reports
//! none), the search's one `info` line as for `go think`, and an `info
//! note="no candidates: …"` saying why.
//!
//! # pydraughts's convention on 8×8
//!
//! The protocol's board is 10×10. The one widely used client that speaks it
//! on 8×8 is pydraughts 0.6.7's `HubEngine` (variant `english`), and this
//! front end follows it exactly:
//! - `pos pos=<side><32 letters>` is in pydraughts's internal orientation:
//!   letter *i* describes standard square 33−*i*, `w`/`W` are Black's man
//!   and king, `b`/`B` White's, and the side letter `W` means Black to move
//!   (see [`crate::rules::draughts::hub`]). It is the game's first position
//!   (`board._game.initial_hub_fen`), with every move since in `moves="…"`.
//! - Moves, both ways, are in standard PDN numbering, in Hub form: `11-15`,
//!   or from, to and every captured square in increasing order
//!   (`14x23x18`; see [`crate::rules::draughts::wire`]); pydraughts finds
//!   our move among its legal moves by exactly that string.
//! - It splits `id`, `param` and `info` arguments at spaces outside quotes
//!   and each argument at `=`, so every argument we send is `key=value`
//!   and no value holds `=` or `"` (we write `:` and `'` instead); `info`
//!   values of `nodes`/`depth` must be integers and `time`/`nps`/`score`
//!   numbers. Of `done` it takes the first argument's value as the move: a
//!   bare token (`done 11-15`) breaks it.

use std::time::Duration;

use super::FrontEnd;
use super::answer::{Answer, JudgedReply};
use super::clock::Clock;
use super::events::{Action, Job, Searched};
use super::judging::Weighed;
use super::prose::{candidate_notes, no_thoughts, nps};
use super::searches::{Mode, Pending, Searches};
use super::settings::{Change, Settings};
use crate::engines::{EngineError, EngineInfo, OptionKind, OptionSpec, Played, Reply};
use crate::rules::draughts::hub::parse_pydraughts_position;
pub use crate::rules::draughts::hub_line::{HubLine, NO_MOVE, SyntaxError, split, value};
use crate::rules::draughts::{Draughts, HubMove, PdnMove, Variant};
use crate::rules::{Game, Verdict};

/// The rule sets `set-param name=variant` chooses from.
const VARIANTS: [Variant; 2] = [Variant::English, Variant::Zx81];

/// The most seconds a `level` gives (about 31 years): more is taken as
/// this, so that clock sums cannot overflow.
pub const MAX_SECONDS: f64 = 1e9;

/// The Hub front end.
#[derive(Debug)]
pub struct Hub {
    info: &'static EngineInfo,
    rules: Draughts,
    game: Game<Draughts>,
    level: HubLevel,
    /// Searches in flight, each with the `go` that asked for it.
    searches: Searches<Draughts, GoMode>,
}

/// What the last `level` set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HubLevel {
    pub clock: Clock,
    /// Wait for `stop`.
    pub infinite: bool,
}

/// How a search was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

/// A command from the GUI, read.
#[derive(Clone, Debug, PartialEq)]
pub enum HubCommand {
    Hub,
    SetParam {
        name: String,
        value: String,
    },
    Init,
    NewGame,
    /// `pos=` and the words of `moves=`.
    Pos {
        pos: String,
        moves: Vec<String>,
    },
    Level(HubLevel),
    Go(GoMode),
    Stop,
    PonderHit,
    Ping,
    Quit,
}

/// Why a line from the GUI was not carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// The line breaks the general syntax.
    Syntax(SyntaxError),
    Unknown(String),
    Missing {
        command: &'static str,
        arg: &'static str,
    },
    BadNumber {
        arg: String,
        value: String,
    },
    /// `level` with nothing that limits a search.
    NoLimit,
    /// `level inc=` or `moves=` without `time=`.
    NeedsTime(&'static str),
    /// `go` without `think`, `ponder` or `analyze`.
    GoMode,
    /// `pos=` that is not a position.
    Position(String),
    /// A move of `moves=` that cannot be read or is illegal (1-based).
    Move {
        n: usize,
        text: String,
        why: String,
    },
    /// `set-param` refused.
    Param(String),
}

impl std::fmt::Display for HubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HubError::Syntax(e) => e.fmt(f),
            HubError::Unknown(c) => write!(f, "unknown command {c}"),
            HubError::Missing { command, arg } => write!(f, "{command} needs its {arg} argument"),
            HubError::BadNumber { arg, value } => {
                write!(f, "{arg} {value} is not a number of the right kind")
            }
            HubError::NoLimit => write!(f, "level needs depth, nodes, move-time, time or infinite"),
            HubError::NeedsTime(arg) => write!(f, "level {arg} needs time"),
            HubError::GoMode => write!(f, "go needs think, ponder or analyze"),
            HubError::Position(why) => write!(f, "position refused: {why}"),
            HubError::Move { n, text, why } => {
                write!(f, "position refused: move {n} {text}: {why}")
            }
            HubError::Param(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for HubError {}

/// Reads one line from the GUI; `None` for a blank line.
///
/// # Errors
/// See [`HubError`].
pub fn parse(line: &str) -> Result<Option<HubCommand>, HubError> {
    let Some(line) = split(line).map_err(HubError::Syntax)? else {
        return Ok(None);
    };
    let needs = |command, arg| {
        line.arg(arg)
            .map(str::to_string)
            .ok_or(HubError::Missing { command, arg })
    };
    Ok(Some(match line.command.as_str() {
        "hub" => HubCommand::Hub,
        "set-param" => HubCommand::SetParam {
            name: needs("set-param", "name")?,
            value: needs("set-param", "value")?,
        },
        "init" => HubCommand::Init,
        "new-game" => HubCommand::NewGame,
        "pos" => HubCommand::Pos {
            pos: needs("pos", "pos")?,
            moves: line
                .arg("moves")
                .map(|m| m.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
        },
        "level" => HubCommand::Level(level(&line)?),
        "go" => HubCommand::Go(go_mode(&line)?),
        "stop" => HubCommand::Stop,
        "ponder-hit" => HubCommand::PonderHit,
        "ping" => HubCommand::Ping,
        "quit" => HubCommand::Quit,
        other => return Err(HubError::Unknown(other.to_string())),
    }))
}

fn go_mode(line: &HubLine) -> Result<GoMode, HubError> {
    [
        ("think", GoMode::Think),
        ("ponder", GoMode::Ponder),
        ("analyze", GoMode::Analyze),
    ]
    .into_iter()
    .find(|(flag, _)| line.has(flag))
    .map(|(_, mode)| mode)
    .ok_or(HubError::GoMode)
}

/// A `level` line as a clock.
fn level(line: &HubLine) -> Result<HubLevel, HubError> {
    let mut level = HubLevel::default();
    let mut limited = false;
    for (key, value) in &line.args {
        let value = value.as_deref().unwrap_or("");
        match key.as_str() {
            "infinite" => level.infinite = true,
            "depth" | "nodes" => {
                number::<u64>(key, value)?;
            }
            "move-time" => level.clock.move_time = Some(seconds(key, value)?),
            "time" => level.clock.remaining = Some(seconds(key, value)?),
            "inc" => level.clock.increment = seconds(key, value)?,
            "moves" => level.clock.moves_to_go = Some(number::<u32>(key, value)?),
            _ => continue,
        }
        limited |= !matches!(key.as_str(), "inc" | "moves");
    }
    if !limited {
        return Err(HubError::NoLimit);
    }
    if level.clock.remaining.is_none() {
        for arg in ["inc", "moves"] {
            if line.has(arg) {
                return Err(HubError::NeedsTime(arg));
            }
        }
    }
    // "The increment is added before every move."
    let inc = level.clock.increment;
    level.clock.remaining = level.clock.remaining.map(|t| t.saturating_add(inc));
    Ok(level)
}

fn number<T: std::str::FromStr>(arg: &str, value: &str) -> Result<T, HubError> {
    value.parse().map_err(|_| HubError::BadNumber {
        arg: arg.to_string(),
        value: value.to_string(),
    })
}

/// Seconds (a real number, not negative), at most [`MAX_SECONDS`].
fn seconds(arg: &str, value: &str) -> Result<Duration, HubError> {
    number::<f64>(arg, value)
        .ok()
        .filter(|s| *s >= 0.0 && !s.is_nan())
        .map(|s| Duration::from_secs_f64(s.min(MAX_SECONDS)))
        .ok_or_else(|| HubError::BadNumber {
            arg: arg.to_string(),
            value: value.to_string(),
        })
}

/// The game `pos=` and `moves=` describe, judged under `rules`.
///
/// # Errors
/// The position cannot be read, or a move cannot be read or is illegal.
pub fn position(rules: Draughts, pos: &str, moves: &[String]) -> Result<Game<Draughts>, HubError> {
    let root = parse_pydraughts_position(pos).map_err(|e| HubError::Position(e.to_string()))?;
    let mut game = Game::new(rules, root);
    for (i, text) in moves.iter().enumerate() {
        let refused = |why: String| HubError::Move {
            n: i + 1,
            text: text.clone(),
            why,
        };
        let hub: HubMove = text.parse().map_err(|e| refused(format!("{e}")))?;
        let wire = rules.wire_from_hub(game.position(), &hub);
        if let Verdict::Illegal(_, why) = game.play_wire(&wire) {
            return Err(refused(format!("illegal: {why}")));
        }
    }
    Ok(game)
}

impl Hub {
    pub fn new(info: &'static EngineInfo, settings: Settings) -> Hub {
        let rules = Draughts::english();
        Hub {
            info,
            rules,
            game: Game::initial(rules),
            level: HubLevel::default(),
            searches: Searches::new(settings),
        }
    }

    /// The rules moves are judged by now.
    pub fn rules(&self) -> Draughts {
        self.rules
    }

    fn identify(&self, out: &mut Vec<Action<Draughts>>) {
        out.push(send(&format!(
            "id name={} version={} author={} country=?",
            value(&format!(
                "{} ({} {}) via retrochess",
                self.info.name, self.info.author, self.info.year
            )),
            value(env!("CARGO_PKG_VERSION")),
            value(self.info.author),
        )));
        let variants: Vec<&str> = VARIANTS.iter().map(|v| v.name()).collect();
        out.push(send(&format!(
            "param name=variant value={} type=enum values={}",
            self.rules.variant().name(),
            value(&variants.join(" "))
        )));
        for spec in self.searches.settings.specs() {
            out.push(send(&param(&spec)));
        }
        out.push(send("wait"));
    }

    fn set_param(
        &mut self,
        name: &str,
        v: &str,
        out: &mut Vec<Action<Draughts>>,
    ) -> Result<(), HubError> {
        if name == "variant" {
            let variant: Variant = v.parse().map_err(|e| HubError::Param(format!("{e}")))?;
            if variant != self.rules.variant() {
                self.rules = Draughts::new(variant);
                self.game = Game::initial(self.rules);
            }
            return Ok(());
        }
        match self
            .searches
            .settings
            .set(name, Some(v))
            .map_err(|e| HubError::Param(e.to_string()))?
        {
            Change::Value => {}
            Change::Recreate => out.push(Action::Job(Job::Recreate(
                self.searches.settings.engine.clone(),
            ))),
        }
        Ok(())
    }

    fn go(&mut self, go: GoMode, out: &mut Vec<Action<Draughts>>) {
        // An answer still held goes first: one `done` a `go`, in order.
        self.searches.release(out);
        let mode = match go {
            GoMode::Ponder => Mode::Ponder,
            _ if self.level.infinite => Mode::Infinite,
            _ => Mode::Timed,
        };
        let clock = self.level.clock;
        if self.game.legal_moves().is_empty() {
            // The protocol says a GUI never asks this; answered all the same.
            let lines = vec![
                info_value("problem", "no legal move: the game is over"),
                no_move(),
            ];
            let search = self.searches.without_engine(&self.game, &clock, mode, go);
            self.searches
                .deliver(&search, lines, Duration::ZERO, Duration::ZERO, out);
            return;
        }
        self.searches.thoughts = go == GoMode::Analyze;
        let job = self.searches.start(&self.game, &clock, mode, go);
        out.push(job);
    }
}

impl FrontEnd<Draughts> for Hub {
    fn line(&mut self, line: &str, out: &mut Vec<Action<Draughts>>) {
        let command = match parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return,
            Err(e) => return out.push(error(&e.to_string())),
        };
        match command {
            HubCommand::Hub => self.identify(out),
            HubCommand::SetParam { name, value } => {
                if let Err(e) = self.set_param(&name, &value, out) {
                    out.push(error(&e.to_string()));
                }
            }
            HubCommand::Init => out.push(send("ready")),
            HubCommand::NewGame => {
                self.game = Game::initial(self.rules);
                self.searches
                    .new_game(out, |seed| format!("info seed={seed}"));
            }
            HubCommand::Pos { pos, moves } => match position(self.rules, &pos, &moves) {
                Ok(game) => self.game = game,
                Err(e) => out.push(error(&e.to_string())),
            },
            HubCommand::Level(level) => self.level = level,
            HubCommand::Go(mode) => self.go(mode, out),
            HubCommand::Stop => self.searches.stop(out),
            HubCommand::PonderHit => self.searches.ponderhit(out),
            HubCommand::Ping => out.push(send("pong")),
            HubCommand::Quit => out.push(Action::Quit),
        }
    }

    fn searched(&mut self, s: Searched<Draughts>, out: &mut Vec<Action<Draughts>>) {
        let Some((search, answer)) = self.searches.finished(s, out) else {
            return;
        };
        let lines = match &answer.outcome {
            Ok(judged) => reply_lines(&search, judged, &answer),
            Err(e) => vec![
                info_value("problem", &format!("the engine failed: {e}")),
                no_move(),
            ],
        };
        self.searches
            .deliver(&search, lines, answer.authentic(), answer.host, out);
    }

    fn engine_ready(&mut self, _out: &mut Vec<Action<Draughts>>) {
        self.searches.set_up();
    }

    fn not_recreated(&mut self, e: &EngineError, out: &mut Vec<Action<Draughts>>) {
        out.push(error(&format!("cannot restart the engine: {e}")));
    }

    fn woken(&mut self, token: u64, out: &mut Vec<Action<Draughts>>) {
        self.searches.wake(token, out);
    }
}

/// The `info` lines and `done` of a reply, rendered from its [`Answer`].
/// An illegal move is flagged in an `info problem=` line only, never in a
/// `pv`. After `go analyze`, the program's candidates come first
/// ([`candidate_lines`]).
fn reply_lines(
    search: &Pending<Draughts, GoMode>,
    judged: &JudgedReply<Draughts>,
    answer: &Answer<Draughts>,
) -> Vec<String> {
    let rules = *search.game.rules();
    let (reply, verdict) = (&judged.reply, &judged.verdict);
    let hub = |wire: &PdnMove| match &verdict.legal {
        Some(m) => rules.hub_move(m),
        None => HubMove::from_pdn(wire),
    };
    let mut lines = Vec::new();
    let legal = judged.legal_candidates();
    let analyze = search.extra == GoMode::Analyze;
    if analyze {
        lines = match &judged.candidates {
            Some(all) => candidate_lines(&rules, all, &legal, reply, answer.host),
            None => vec![info_value(
                "note",
                &format!("no candidates: {}", no_thoughts(reply)),
            )],
        };
    }
    // Without candidate lines, the search's own line (with the move's pv).
    if !analyze || legal.is_empty() {
        let pv = verdict.legal.as_ref().map(|m| rules.hub_move(m));
        lines.insert(0, search_info(reply, answer.host, pv));
    }
    if let Some(problem) = &verdict.problem {
        lines.push(info_value("problem", problem));
        if verdict.send.is_none() && matches!(reply.played, Played::Move(_)) {
            lines.push(info_value(
                "problem",
                "IllegalMoves is resign: Hub has no resignation, so done with the null move 0-0",
            ));
        }
    }
    lines.push(info_value("detail", &judged.detail));
    if let Some(rows) = &answer.screen {
        lines.extend(rows.iter().map(|r| info_value("screen", r)));
    }
    lines.push(match &verdict.send {
        Some(wire) => format!("done move={}", hub(wire)),
        None => no_move(),
    });
    lines
}

/// The first `info` line of a reply.
fn search_info(reply: &Reply<PdnMove>, host: Duration, pv: Option<HubMove>) -> String {
    let mut line = String::from("info");
    if let Some(score) = reply.score {
        line.push_str(&format!(" score={}", men(score)));
    }
    line.push_str(&search_stats(reply, host));
    if let Some(pv) = pv {
        line.push_str(&format!(" pv={pv}"));
    }
    line
}

/// Draughts units (100 a man) as Hub's score in men.
fn men(units: i32) -> String {
    format!("{:.2}", f64::from(units) / 100.0)
}

/// ` nodes=… time=… nps=…` of the whole search.
fn search_stats(reply: &Reply<PdnMove>, host: Duration) -> String {
    format!(
        " nodes={} time={:.3} nps={:.3}",
        reply.nodes,
        host.as_secs_f64(),
        nps(reply.nodes, host) as f64 / 1e6
    )
}

/// `go analyze`: an `info depth=1 score=… nodes=… time=… nps=… pv=…` line
/// for each legal candidate, the program's choice last (a client that keeps
/// the last value of each key, as pydraughts's `HubEngine` does, holds the
/// program's choice with its score); then `info note=…` for each illegal
/// candidate (never in a `pv`), each tie among the legal ones, and the
/// count. Moves in Hub form, as `done` sends them.
fn candidate_lines(
    rules: &Draughts,
    judged: &[Weighed<Draughts>],
    legal: &[&Weighed<Draughts>],
    reply: &Reply<PdnMove>,
    host: Duration,
) -> Vec<String> {
    // A candidate in Hub form, with every captured square if legal.
    let hub = |w: &Weighed<Draughts>| match w.legal_move() {
        Some(m) => rules.hub_move(m),
        None => HubMove::from_pdn(&w.candidate.wire),
    };
    let stats = search_stats(reply, host);
    let mut lines: Vec<String> = legal
        .iter()
        .rev()
        .map(|w| {
            format!(
                "info depth=1 score={}{stats} pv={}",
                men(w.candidate.score),
                hub(w)
            )
        })
        .collect();
    let tie_break = reply.thoughts.as_ref().map_or("", |t| t.tie_break);
    let notes = candidate_notes(judged, legal, tie_break, |w| hub(w).to_string(), men);
    lines.extend(notes.iter().map(|n| info_value("note", n)));
    lines
}

/// A `param` line for an option.
fn param(spec: &OptionSpec) -> String {
    let name = value(spec.name);
    match &spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("param name={name} value={default} type=int min={min} max={max}")
        }
        OptionKind::Check { default } => format!("param name={name} value={default} type=bool"),
        OptionKind::Combo { default, vars } => format!(
            "param name={name} value={} type=enum values={}",
            value(default),
            value(&vars.join(" "))
        ),
        OptionKind::Text { default } => {
            format!("param name={name} value={} type=string", value(default))
        }
    }
}

/// `done` when the program has no move to send (see the module's "When the
/// program has no move").
fn no_move() -> String {
    format!("done move={NO_MOVE}")
}

fn info_value(key: &str, text: &str) -> String {
    format!("info {key}={}", value(text))
}

fn send(line: &str) -> Action<Draughts> {
    Action::Send(line.to_string())
}

fn error(message: &str) -> Action<Draughts> {
    Action::Send(format!("error message={}", value(message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::EngineError;
    use crate::engines::Thoughts;
    use crate::engines::{InputPath, Ties};
    use crate::protocol::events::SearchError;
    use crate::protocol::settings::IllegalPolicy;
    use crate::protocol::testing::{
        self, feed, made_of, search_request as job, sent, test_thoughts,
    };
    use crate::rules::draughts::hub::pydraughts_position;
    use crate::rules::draughts::parse_fen;

    type Input = crate::protocol::events::Input<Draughts>;

    /// pydraughts's `pos=` for the initial position.
    const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

    fn hub() -> Hub {
        let (info, settings) = made_of("samuel-f8");
        Hub::new(info, settings)
    }

    fn reply(pdn: &str) -> Reply<PdnMove> {
        Reply {
            played: Played::Move(pdn.parse().unwrap()),
            score: Some(-35),
            thoughts: None,
            nodes: 300,
            tstates: 0,
            authentic: Duration::ZERO,
            path: InputPath::Native,
        }
    }

    fn searched(id: u64, played: Reply<PdnMove>) -> Input {
        testing::searched(id, played, Duration::from_millis(12))
    }

    /// A search of `pos` answered with `pdn`: the lines sent.
    fn answer(h: &mut Hub, pos: &str, pdn: &str) -> Vec<String> {
        feed(h, &format!("pos pos={pos}"));
        let id = job(&feed(h, "go think")).expect("a search").id;
        sent(&h.handle(searched(id, reply(pdn))))
    }

    #[test]
    fn handshake_as_pydraughts_sees_it() {
        let mut h = hub();
        let lines = sent(&feed(&mut h, "hub"));
        assert_eq!(
            lines[0],
            format!(
                "id name=\"Samuel F8 checkers (Arthur Samuel 1977) via retrochess\" version={} \
                 author=\"Arthur Samuel\" country=?",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(
            lines[1],
            "param name=variant value=english type=enum values=\"english zx81-1k\""
        );
        for want in [
            "param name=Seed value=1 type=int min=0 max=2147483647",
            "param name=Level value=4 type=int min=1 max=",
            "param name=IllegalMoves value=play type=enum values=\"play resign\"",
            "param name=AuthenticTiming value=false type=bool",
            "param name=TimeScale value=100 type=int min=1 max=10000",
        ] {
            assert!(
                lines.iter().any(|l| l.starts_with(want)),
                "{want}: {lines:?}"
            );
        }
        assert!(
            !lines.iter().any(|l| l.contains("ShowScreen")),
            "a native engine has no screen"
        );
        assert_eq!(lines.last().unwrap(), "wait");
        // As pydraughts reads them: every argument key=value, one `=`.
        for line in &lines[..lines.len() - 1] {
            let args = split(line).unwrap().unwrap().args;
            for (key, v) in args {
                assert!(v.is_some_and(|v| !v.contains(['=', '"'])), "{line}: {key}");
            }
        }
        for (line, want) in [
            ("set-param name=variant value=zx81-1k", vec![]),
            ("set-param name=Seed value=7", vec![]),
            ("init", vec!["ready"]),
            ("ping", vec!["pong"]),
            ("  ping  ", vec!["pong"]),
            ("new-game", vec![]),
        ] {
            assert_eq!(sent(&feed(&mut h, line)), want, "{line}");
        }
        assert_eq!(h.rules(), Draughts::zx81_1k());
        assert_eq!(h.searches.settings.engine.seed, 7);
        assert!(matches!(feed(&mut h, "quit")[..], [Action::Quit]));
    }

    #[test]
    fn lines_split_as_the_general_syntax_says() {
        let line = split(r#"pos pos=Wbbe moves="11-15 23-19"  flag x="" y=a"b"#)
            .unwrap()
            .unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(line.arg("pos"), Some("Wbbe"));
        assert_eq!(line.arg("moves"), Some("11-15 23-19"));
        assert_eq!(line.arg("flag"), Some(""));
        assert!(line.has("flag") && !line.has("other"));
        assert_eq!(line.arg("x"), Some(""));
        assert_eq!(line.arg("y"), Some("a\"b"));
        assert_eq!(split("   ").unwrap(), None);
        assert_eq!(
            split("go think").unwrap().unwrap().args,
            [("think".to_string(), None)]
        );
    }

    /// Bad lines: each gets one `error message=…`, and nothing changes.
    #[test]
    fn bad_lines_get_an_error_and_change_nothing() {
        let mut h = hub();
        feed(
            &mut h,
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"",
        );
        let table = [
            ("hello", "unknown command hello"),
            ("HUB", "unknown command HUB"),
            ("\u{0}\u{1}\u{7f}", "unknown command"),
            ("pos", "pos needs its pos argument"),
            ("pos moves=\"11-15\"", "pos needs its pos argument"),
            (
                "pos pos=",
                "position refused: the side to move is B or W, not ''",
            ),
            (
                "pos pos=Xbbb",
                "position refused: the side to move is B or W, not 'X'",
            ),
            (
                "pos pos=Wbbb",
                "position refused: a Hub position has 32 squares, not 3",
            ),
            (
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwq",
                "position refused: 'q' is not a Hub square letter",
            ),
            (
                "pos pos=Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                "position refused: no pieces",
            ),
            ("pos pos=\"Wbbb", "the value of pos has no closing quote"),
            ("pos pos=\"Wbbb\"x", "text after the quoted value of pos"),
            ("pos =Wbbb", "an argument has a value but no name"),
            (
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 11-15\"",
                "position refused: move 2 11-15: illegal",
            ),
            (
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-14\"",
                "position refused: move 1 11-14: illegal",
            ),
            (
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"a-b\"",
                "position refused: move 1 a-b: 'a' is not a square number",
            ),
            (
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 22-18 15x24\"",
                "position refused: move 3 15x24: illegal",
            ),
            (
                "level",
                "level needs depth, nodes, move-time, time or infinite",
            ),
            ("level inc=1", "level needs depth"),
            ("level inc=1 depth=3", "level inc needs time"),
            ("level moves=10 move-time=1", "level moves needs time"),
            ("level time=x", "time x is not a number"),
            ("level time=-1", "time -1 is not a number"),
            ("level time=NaN", "time NaN is not a number"),
            ("level depth=-3", "depth -3 is not a number"),
            ("level move-time", "move-time  is not a number"),
            ("go", "go needs think, ponder or analyze"),
            ("go fast", "go needs think, ponder or analyze"),
            ("set-param name=Seed", "set-param needs its value argument"),
            ("set-param value=3", "set-param needs its name argument"),
            ("set-param name=Hash value=16", "unknown option 'Hash'"),
            ("set-param name=Seed value=-1", "option Seed:"),
            (
                "set-param name=variant value=checkers",
                "unknown draughts rules 'checkers'",
            ),
            ("done move=11-15", "unknown command done"),
        ];
        for (line, want) in table {
            let actions = feed(&mut h, line);
            let lines = sent(&actions);
            assert_eq!(lines.len(), 1, "{line:?}: {lines:?}");
            assert!(
                lines[0].starts_with("error message="),
                "{line:?}: {lines:?}"
            );
            assert!(
                lines[0].contains(want),
                "{line:?}: {} lacks {want}",
                lines[0]
            );
            assert!(job(&actions).is_none(), "{line:?} must not search");
            assert_eq!(h.game.moves().len(), 1, "{line:?}: the position stays");
        }
        assert_eq!(h.rules(), Draughts::english());
        assert_eq!(h.searches.settings.engine.seed, 1);
        assert!(
            sent(&feed(&mut h, "")).is_empty(),
            "a blank line is nothing"
        );
        assert!(
            sent(&feed(&mut h, "ping extra=1 flag")).contains(&"pong".to_string()),
            "unknown arguments are ignored"
        );
    }

    #[test]
    fn positions_are_read_in_pydraughtss_orientation() {
        let mut h = hub();
        feed(
            &mut h,
            &format!("pos pos={START} moves=\"11-15 23-19 9-14 22-17\""),
        );
        assert_eq!(h.game.moves().len(), 4);
        // A capture in Hub form, and one with only its ends.
        feed(
            &mut h,
            &format!("pos pos={START} moves=\"11-15 24-19 15x24x19\""),
        );
        assert_eq!(h.game.moves().len(), 3);
        feed(
            &mut h,
            &format!("pos pos={START} moves=\"11-15 24-19 15x24\""),
        );
        assert_eq!(h.game.moves().len(), 3);
        let fen = "B:W18,24,K30:B9,K14";
        let pos = parse_fen(fen).unwrap();
        feed(&mut h, &format!("pos pos={}", pydraughts_position(&pos)));
        assert_eq!(h.game.position(), &pos);
        assert!(h.game.moves().is_empty());
        // White to move in pydraughts's letters.
        let fen = "W:W21-32:B1-12";
        let pos = parse_fen(fen).unwrap();
        let text = pydraughts_position(&pos);
        assert!(text.starts_with('B'));
        feed(&mut h, &format!("pos pos={text} moves=\"22-18\""));
        assert_eq!(h.game.root(), &pos);
        assert_eq!(h.game.moves().len(), 1);
    }

    #[test]
    fn a_search_and_its_output() {
        let mut h = hub();
        feed(&mut h, &format!("pos pos={START} moves=\"11-15\""));
        feed(&mut h, "level time=60 inc=1");
        let actions = feed(&mut h, "go think");
        let request = job(&actions).unwrap();
        assert_eq!(request.game.moves().len(), 1);
        assert_eq!(
            request.deadline,
            Some(Duration::from_millis(61_000)),
            "the time and the increment"
        );
        let id = request.id;
        assert_eq!(
            sent(&feed(&mut h, "ping")),
            ["pong"],
            "answered while thinking"
        );
        let lines = sent(&h.handle(searched(id, reply("23-19"))));
        assert_eq!(
            lines[0],
            "info score=-0.35 nodes=300 time=0.012 nps=0.025 pv=23-19"
        );
        assert!(lines[1].starts_with("info detail=\"0 T-states in 12 ms of host time;"));
        assert_eq!(lines.last().unwrap(), "done move=23-19");
        // A capture is sent as pydraughts finds it: from, to, captured.
        let pos = parse_fen("W:W23,K30:B9,18").unwrap();
        let lines = answer(&mut h, &pydraughts_position(&pos), "23x14x5");
        assert!(lines[0].ends_with(" pv=23x5x9x18"), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "done move=23x5x9x18");
    }

    /// Candidates as a driver reports them: (move, score in draughts
    /// units) in the order the program weighed them.
    fn thoughts(weighed: &[(&str, i32)], ties: Ties) -> Thoughts<PdnMove> {
        test_thoughts(weighed, |score| score, ties)
    }

    /// `go analyze` of `pos` answered with `played` and `thoughts`.
    fn analyse(h: &mut Hub, pos: &str, played: &str, t: Option<Thoughts<PdnMove>>) -> Vec<String> {
        feed(h, &format!("pos pos={pos}"));
        let request = job(&feed(h, "go analyze")).expect("a search").clone();
        assert!(request.thoughts, "go analyze asks for the candidates");
        let mut r = reply(played);
        r.thoughts = t;
        sent(&h.handle(searched(request.id, r)))
    }

    #[test]
    fn go_analyze_shows_the_candidates() {
        let mut h = hub();
        feed(&mut h, &format!("pos pos={START}"));
        let request = job(&feed(&mut h, "go think")).unwrap().clone();
        assert!(!request.thoughts, "go think: a plain search");
        h.handle(searched(request.id, reply("11-15")));
        // 11-15 and 9-14 tie (the program keeps the later), 11-14 is
        // illegal though it scores most, 12-16 scores less.
        let t = thoughts(
            &[("9-14", 50), ("11-14", 90), ("11-15", 50), ("12-16", -20)],
            Ties::KeepsLast,
        );
        let lines = analyse(&mut h, START, "11-15", Some(t));
        let stats = "nodes=300 time=0.012 nps=0.025";
        assert_eq!(
            &lines[..3],
            [
                format!("info depth=1 score=-0.20 {stats} pv=12-16"),
                format!("info depth=1 score=0.50 {stats} pv=9-14"),
                format!("info depth=1 score=0.50 {stats} pv=11-15"),
            ]
        );
        assert!(
            lines[3].starts_with(
                "info note=\"candidate 11-14 (the program's 1st, score 0.90) is illegal: "
            ),
            "{lines:?}"
        );
        assert_eq!(
            &lines[4..7],
            [
                "info note=\"ties: the test's rule\"",
                "info note=\"equal score 0.50 for 11-15, 9-14: the program prefers 11-15\"",
                "info note=\"4 candidates weighed, 3 legal\"",
            ]
        );
        assert!(lines[7].starts_with("info detail="), "{lines:?}");
        assert_eq!(lines[8..], ["done move=11-15"]);
        assert!(!lines.iter().any(|l| l.contains("pv=11-14")));
        // As pydraughts reads them: every argument key=value, one `=`.
        for line in &lines[..lines.len() - 1] {
            for (key, v) in split(line).unwrap().unwrap().args {
                assert!(v.is_some_and(|v| !v.contains(['=', '"'])), "{line}: {key}");
            }
        }
        // A capture in Hub form, with every captured square; a quiet move
        // is illegal while a capture is on.
        let pos = parse_fen("W:W23,K30:B9,18").unwrap();
        let t = thoughts(&[("23x5", 200), ("30-26", 0)], Ties::KeepsFirst);
        let lines = analyse(&mut h, &pydraughts_position(&pos), "23x5", Some(t));
        assert_eq!(
            lines[0],
            format!("info depth=1 score=2.00 {stats} pv=23x5x9x18")
        );
        assert!(
            lines[1].starts_with("info note=\"candidate 30-26 (the program's 2nd, score 0.00)"),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "done move=23x5x9x18");
    }

    #[test]
    fn go_analyze_without_candidates() {
        let mut h = hub();
        let lines = analyse(&mut h, START, "11-15", None);
        assert_eq!(
            lines[0],
            "info score=-0.35 nodes=300 time=0.012 nps=0.025 pv=11-15"
        );
        assert_eq!(
            lines[1],
            "info note=\"no candidates: this engine's driver does not report the program's candidates\""
        );
        assert_eq!(lines.last().unwrap(), "done move=11-15");
        // Only illegal candidates: the search's line, and the notes.
        let t = thoughts(&[("11-14", 10)], Ties::KeepsFirst);
        let lines = analyse(&mut h, START, "11-14", Some(t));
        assert!(
            lines[0].starts_with("info score=-0.35 nodes=300"),
            "{lines:?}"
        );
        assert!(!lines[0].contains("pv="), "{lines:?}");
        assert!(
            lines[1].starts_with("info note=\"candidate 11-14"),
            "{lines:?}"
        );
        assert_eq!(lines[2], "info note=\"1 candidates weighed, 0 legal\"");
        assert!(
            lines[3].starts_with("info problem=\"illegal move 11-14"),
            "{lines:?}"
        );
    }

    #[test]
    fn the_clock_comes_from_level() {
        let clock = |line: &str| match parse(line) {
            Ok(Some(HubCommand::Level(level))) => level,
            other => panic!("{line}: {other:?}"),
        };
        let s = Duration::from_secs_f64;
        let l = clock("level time=9.5 inc=0.5 moves=20");
        assert_eq!(
            l.clock.remaining,
            Some(s(10.0)),
            "the increment comes first"
        );
        assert_eq!(l.clock.increment, s(0.5));
        assert_eq!(l.clock.moves_to_go, Some(20));
        assert!(!l.infinite);
        assert_eq!(clock("level move-time=1").clock.move_time, Some(s(1.0)));
        assert_eq!(clock("level depth=8"), HubLevel::default());
        assert_eq!(clock("level nodes=1000"), HubLevel::default());
        assert!(clock("level infinite").infinite);
        assert_eq!(
            clock("level time=1e300").clock.remaining,
            Some(s(MAX_SECONDS)),
            "past the bound: the bound"
        );
        // Each level replaces the last.
        let mut h = hub();
        feed(&mut h, "level infinite");
        feed(&mut h, "level move-time=2");
        assert_eq!(h.level, clock("level move-time=2"));
    }

    #[test]
    fn illegal_moves_follow_the_policy_and_never_make_a_pv() {
        let mut h = hub();
        let start = START;
        let lines = answer(&mut h, start, "11-14");
        assert!(!lines[0].contains("pv="), "{lines:?}");
        assert!(
            lines[1].starts_with("info problem=\"illegal move 11-14: "),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "done move=11-14");
        // A missed capture under English rules.
        let pos = parse_fen("B:W18:B14,9").unwrap();
        let lines = answer(&mut h, &pydraughts_position(&pos), "9-13");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("a capture is available: 14x23")),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "done move=9-13");
        // An illegal capture is sent in Hub form too.
        let lines = answer(&mut h, start, "10x19");
        assert_eq!(lines.last().unwrap(), "done move=10x19x15");
        feed(&mut h, "set-param name=IllegalMoves value=resign");
        assert_eq!(h.searches.settings.illegal, IllegalPolicy::Resign);
        let lines = answer(&mut h, start, "11-14");
        assert!(lines.iter().any(|l| l.contains("illegal move 11-14")));
        assert!(lines.iter().any(|l| l.contains("IllegalMoves is resign")));
        assert_eq!(lines.last().unwrap(), "done move=0-0");
        // Under Draughts 1K's rules the missed capture is legal.
        feed(&mut h, "set-param name=variant value=zx81-1k");
        let lines = answer(&mut h, &pydraughts_position(&pos), "9-13");
        assert!(!lines.iter().any(|l| l.contains("problem")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "done move=9-13");
    }

    #[test]
    fn dead_ends_hangs_and_failures_send_the_null_move() {
        let mut h = hub();
        feed(&mut h, &format!("pos pos={START}"));
        let id = job(&feed(&mut h, "go think")).unwrap().id;
        let mut dead = reply("11-15");
        dead.played = Played::DeadEnd;
        let lines = sent(&h.handle(searched(id, dead)));
        assert!(lines.iter().any(|l| l.contains("dead end")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "done move=0-0");
        let id = job(&feed(&mut h, "go think")).unwrap().id;
        let failed = Input::Searched(Searched {
            id,
            result: Err(SearchError::Engine(EngineError::Unreadable(
                "x=\"y\"".into(),
            ))),
            host: Duration::ZERO,
            waited: Duration::ZERO,
            screen: None,
        });
        let lines = sent(&h.handle(failed));
        assert_eq!(
            lines,
            [
                "info problem=\"the engine failed: cannot read the program's move: x:'y'\"",
                "done move=0-0"
            ]
        );
    }

    #[test]
    fn infinite_waits_for_stop_and_ponder_for_ponder_hit() {
        let mut h = hub();
        feed(&mut h, &format!("pos pos={START}"));
        feed(&mut h, "level infinite");
        let id = job(&feed(&mut h, "go analyze")).unwrap().id;
        assert!(sent(&h.handle(searched(id, reply("11-15")))).is_empty());
        assert_eq!(sent(&feed(&mut h, "ping")), ["pong"]);
        assert_eq!(
            sent(&feed(&mut h, "stop")).last().unwrap(),
            "done move=11-15"
        );
        assert!(
            sent(&feed(&mut h, "stop")).is_empty(),
            "a second stop sends nothing"
        );
        feed(&mut h, "level move-time=1");
        let id = job(&feed(&mut h, "go ponder")).unwrap().id;
        assert!(sent(&h.handle(searched(id, reply("11-15")))).is_empty());
        assert_eq!(
            sent(&feed(&mut h, "ponder-hit")).last().unwrap(),
            "done move=11-15"
        );
        // stop before the answer: it goes as soon as it comes.
        let id = job(&feed(&mut h, "go ponder")).unwrap().id;
        assert!(sent(&feed(&mut h, "stop")).is_empty());
        assert_eq!(
            sent(&h.handle(searched(id, reply("11-15"))))
                .last()
                .unwrap(),
            "done move=11-15"
        );
        // A held answer goes before the next search starts.
        feed(&mut h, "level infinite");
        let id = job(&feed(&mut h, "go think")).unwrap().id;
        h.handle(searched(id, reply("9-13")));
        let actions = feed(&mut h, "go think");
        assert_eq!(sent(&actions).last().unwrap(), "done move=9-13");
        assert!(job(&actions).is_some());
    }

    #[test]
    fn a_finished_game_needs_no_engine() {
        let mut h = hub();
        let pos = parse_fen("W:W5:B1,K9").unwrap();
        feed(&mut h, &format!("pos pos={}", pydraughts_position(&pos)));
        let actions = feed(&mut h, "go think");
        assert!(job(&actions).is_none());
        assert_eq!(
            sent(&actions),
            [
                "info problem=\"no legal move: the game is over\"",
                "done move=0-0"
            ]
        );
    }

    #[test]
    fn values_are_safe_for_pydraughts() {
        assert_eq!(value("abc"), "abc");
        assert_eq!(value(""), "\"\"");
        assert_eq!(value("a b"), "\"a b\"");
        assert_eq!(value("a=\"b\"\nc"), "\"a:'b' c\"");
    }
}
