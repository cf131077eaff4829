//! UCI as a state machine over lines.
//!
//! Lines are parsed with `vampirc-uci`, after two repairs it needs: numbers
//! above 255 after `depth`, `mate` and `movestogo` are clamped (it would
//! panic parsing them into a `u8`), and unknown words before a command are
//! skipped, as the UCI spec asks ("joho debug on" switches debug on). Lines
//! it rejects are ignored with a note on stderr; a rejected `position` is
//! read again by [`read_position`] to say exactly what is wrong, and
//! accepted if it is only vampirc's grammar that is narrower than FEN (a
//! FEN without its move counters). `go ponder` with a clock loses its
//! `ponder` in vampirc, so `ponder` and `infinite` are also looked for among
//! the words. [`parse`] does all of it and hands back our own [`UciCommand`]
//! (or a [`UciError`]): the rest of the front end never sees vampirc's types.
//!
//! Every position is checked by the arbiter before it is taken; a broken one
//! is refused with an `info string` and the previous one kept. Every move of
//! the program is judged against the real position (see
//! [`super::judging::judge_reply`]). The output before `bestmove` is one `info` line
//! with `depth 1` (the programs here look one move ahead), the program's own
//! score (`score cp`, from the driver's documented mapping; 0 where it keeps
//! none, as for the tape's stored first move), `nodes` (moves the program
//! evaluated), `nps` and `time` from host time, and `pv` with the move
//! played; then `info string` lines with the retro detail.
//!
//! `MultiPV` above 1 asks the driver for the program's candidates
//! ([`crate::engines::Thoughts`]: every move it weighed, with its own
//! score, read off the emulated machine during its normal search) and shows
//! the N best legal ones in the program's own order as `info multipv K`
//! lines. Candidates the rules refuse are named in `info string` lines,
//! never in a `pv`, and so are the program's tie-break rule, the ties among
//! the lines shown, and the count. `bestmove` is the program's move, judged
//! as always.
//!
//! `debug on` adds `info string` lines on when the clock's deadline cuts a
//! program still thinking ([`super::clock`]) and on `go` limits the programs cannot honour (`depth`, `nodes`,
//! `mate`: they think their own fixed way).

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use vampirc_uci::{UciMessage, UciSearchControl, UciTimeControl};

use super::FrontEnd;
use super::answer::{Answer, JudgedReply};
use super::clock::Clock;
use super::events::{Action, Job, Searched};
use super::judging::Weighed;
use super::prose::{candidate_notes, no_thoughts, nps};
use super::searches::{Mode, Pending, Searches};
use super::settings::{Change, IllegalPolicy, Settings, display_name};
use crate::engines::{EngineError, EngineInfo, OptionKind, Played, Reply};
use crate::rules::chess::ChessRules;
use crate::rules::{Game, PositionError, Rules, Verdict};

/// The words that start a GUI-to-engine command.
const COMMANDS: [&str; 11] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// The UCI front end.
#[derive(Debug)]
pub struct Uci {
    info: &'static EngineInfo,
    game: Game<ChessRules>,
    debug: bool,
    /// Searches in flight; each keeps its `searchmoves`.
    searches: Searches<ChessRules, Vec<UciMove>>,
    /// `MultiPV`: how many of the program's candidates to show.
    multipv: usize,
    /// `readyok`s held while a new game is set up.
    owed_ready: usize,
}

/// The largest `MultiPV` (more than any chess position has moves).
pub const MULTIPV_MAX: usize = 500;

impl Uci {
    pub fn new(info: &'static EngineInfo, settings: Settings) -> Uci {
        Uci {
            info,
            game: Game::initial(ChessRules),
            debug: false,
            searches: Searches::new(settings),
            multipv: 1,
            owed_ready: 0,
        }
    }

    /// The worker set a new game up: the `readyok`s held meanwhile go.
    fn set_up(&mut self, out: &mut Vec<Action<ChessRules>>) {
        self.searches.set_up();
        if !self.searches.setting_up() {
            for _ in 0..std::mem::take(&mut self.owed_ready) {
                out.push(send("readyok"));
            }
        }
    }

    fn identify(&self, out: &mut Vec<Action<ChessRules>>) {
        out.push(send(&format!("id name {}", display_name(self.info))));
        out.push(send(&format!("id author {}", self.info.author)));
        for spec in self.searches.settings.specs() {
            let kind = match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("type spin default {default} min {min} max {max}")
                }
                OptionKind::Check { default } => format!("type check default {default}"),
                OptionKind::Combo { default, vars } => {
                    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                    format!("type combo default {default}{vars}")
                }
                OptionKind::Text { default } => format!("type string default {default}"),
            };
            out.push(send(&format!("option name {} {kind}", spec.name)));
        }
        out.push(send(&format!(
            "option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"
        )));
        out.push(send(&format!(
            "option name UCI_EngineAbout type string default {}",
            self.about()
        )));
        out.push(send("uciok"));
    }

    fn about(&self) -> String {
        format!(
            "{} {}",
            self.info.about, "Hosted by retrochess: every move is checked with shakmaty."
        )
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, out: &mut Vec<Action<ChessRules>>) {
        if name.eq_ignore_ascii_case("UCI_EngineAbout") {
            out.push(Action::Note("UCI_EngineAbout is for reading only".into()));
            return;
        }
        if name.eq_ignore_ascii_case("MultiPV") {
            match read_multipv(value) {
                Ok(n) => {
                    self.multipv = n;
                    self.searches.thoughts = n > 1;
                }
                Err(why) => {
                    let why = why.to_string();
                    out.push(info_string(&why));
                    out.push(Action::Note(why));
                }
            }
            return;
        }
        match self.searches.settings.set(name, value) {
            Ok(Change::Value) => {}
            Ok(Change::Recreate) => out.push(Action::Job(Job::Recreate(
                self.searches.settings.engine.clone(),
            ))),
            Err(why) => {
                let why = why.to_string();
                out.push(info_string(&why));
                out.push(Action::Note(why));
            }
        }
    }

    fn go(&mut self, go: Go, out: &mut Vec<Action<ChessRules>>) {
        if self.searches.holding() {
            out.push(Action::Note(
                "go while the previous search still waits: its bestmove goes first".into(),
            ));
            self.searches.release(out);
        }
        let clock = self.clock(&go);
        let mode = go.mode;
        if !go.ignored.is_empty() && self.debug {
            out.push(info_string(&format!(
                "{} ignored: the program always thinks its own fixed way",
                go.ignored.join(", ")
            )));
        }
        let searchmoves = go.searchmoves;
        if self.debug {
            let limits = Searches::<ChessRules, Vec<UciMove>>::limits(&clock, mode);
            out.push(info_string(&match limits.deadline {
                Some(d) => format!(
                    "cut if still thinking {} ms after go, when the clock runs out",
                    d.as_millis()
                ),
                None => format!(
                    "no deadline: the program may take {} T-states before it is called hung",
                    limits.budget()
                ),
            }));
        }
        if let Some(ending) = self
            .game
            .ending()
            .filter(|_| self.game.legal_moves().is_empty())
        {
            // Nothing to ask the program: the game is over.
            let lines = vec![
                "info depth 0 score cp 0 nodes 0 nps 0 time 0".to_string(),
                format!("info string no legal move: {}", ending.reason.words()),
                "bestmove 0000".to_string(),
            ];
            let search = self
                .searches
                .without_engine(&self.game, &clock, mode, searchmoves);
            self.searches
                .deliver(&search, lines, Duration::ZERO, Duration::ZERO, out);
            return;
        }
        let job = self.searches.start(&self.game, &clock, mode, searchmoves);
        out.push(job);
    }

    /// The mover's clock.
    fn clock(&self, go: &Go) -> Clock {
        let side = match self.game.position().turn() {
            Color::White => go.white,
            Color::Black => go.black,
        };
        Clock {
            remaining: side.time,
            increment: side.increment,
            moves_to_go: go.moves_to_go,
            move_time: go.move_time,
        }
    }

    /// The `info` lines and `bestmove` of a reply, rendered from its
    /// [`Answer`]. An illegal move is flagged in an `info string` only,
    /// never in a `pv`.
    fn reply_lines(
        &self,
        search: &Pending<ChessRules, Vec<UciMove>>,
        judged: &JudgedReply<ChessRules>,
        answer: &Answer<ChessRules>,
    ) -> Vec<String> {
        let (reply, verdict) = (&judged.reply, &judged.verdict);
        let mut lines = Vec::new();
        let ms = answer.host.as_millis();
        let nps = nps(reply.nodes, answer.host);
        let score = reply.score.unwrap_or(0);
        let pv = match (&reply.played, &verdict.legal) {
            (Played::Move(m), Some(_)) => format!(" pv {m}"),
            _ => String::new(),
        };
        let stats = format!("nodes {} nps {nps} time {ms}", reply.nodes);
        let search_line = format!("info depth 1 score cp {score} {stats}{pv}");
        match (&judged.candidates, self.multipv) {
            (_, 1) => lines.push(search_line),
            (Some(all), n) => {
                let (shown, notes) = candidate_lines(search, all, reply, n, &stats);
                if shown.is_empty() {
                    lines.push(search_line);
                }
                lines.extend(shown);
                lines.extend(notes);
            }
            (None, _) => {
                lines.push(search_line);
                lines.push(format!("info string MultiPV: {}", no_thoughts(reply)));
            }
        }
        if let Some(problem) = &verdict.problem {
            lines.push(format!("info string {problem}"));
            if verdict.send.is_none() && matches!(reply.played, Played::Move(_) | Played::Astray(_))
            {
                lines.push(
                    "info string IllegalMoves is resign: UCI has no resignation, so bestmove 0000"
                        .to_string(),
                );
            }
        }
        if let Some(m) = &verdict.send
            && !search.extra.is_empty()
            && !search.extra.contains(m)
        {
            lines.push(format!(
                "info string searchmoves: the program cannot be restricted; it played {m}"
            ));
        }
        lines.push(format!("info string {}", judged.detail));
        if let Some(rows) = &answer.screen {
            lines.extend(rows.iter().map(|r| format!("info string screen {r}")));
        }
        lines.push(format!(
            "bestmove {}",
            verdict
                .send
                .as_ref()
                .map_or("0000".to_string(), |m| m.to_string())
        ));
        lines
    }

    /// The policy for illegal moves, for tests.
    pub fn illegal_policy(&self) -> IllegalPolicy {
        self.searches.settings.illegal
    }
}

impl FrontEnd<ChessRules> for Uci {
    fn line(&mut self, line: &str, out: &mut Vec<Action<ChessRules>>) {
        let read = match parse(line) {
            Ok(Some(read)) => read,
            Ok(None) => return,
            Err(UciError::Position(why)) => {
                out.push(info_string(&format!(
                    "position refused, the previous one is kept: {why}"
                )));
                out.push(Action::Note(format!("position refused: {why}")));
                return;
            }
            Err(e) => {
                out.push(Action::Note(e.to_string()));
                return;
            }
        };
        if !read.skipped.is_empty() {
            out.push(Action::Note(format!(
                "ignored unknown words before the command: {}",
                read.skipped
            )));
        }
        match read.command {
            UciCommand::Uci => self.identify(out),
            UciCommand::Debug(on) => self.debug = on,
            // Answered at once, also while the program thinks; only while
            // a new game is set up, once it is (the GUI's clock for the
            // first move starts after `readyok`).
            UciCommand::IsReady if self.searches.setting_up() => self.owed_ready += 1,
            UciCommand::IsReady => out.push(send("readyok")),
            UciCommand::Register => out.push(Action::Note("no registration needed".into())),
            UciCommand::UciNewGame => {
                self.game = Game::initial(ChessRules);
                self.searches
                    .new_game(out, |seed| format!("info string seed {seed}"));
            }
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref(), out),
            UciCommand::Position(game) => self.game = game,
            UciCommand::Go(go) => self.go(go, out),
            UciCommand::Stop => self.searches.stop(out),
            UciCommand::PonderHit => self.searches.ponderhit(out),
            UciCommand::Quit => out.push(Action::Quit),
            UciCommand::NotForEngine(other) => out.push(Action::Note(format!(
                "not a command for an engine, ignored: {other}"
            ))),
        }
    }

    fn searched(&mut self, s: Searched<ChessRules>, out: &mut Vec<Action<ChessRules>>) {
        let Some((search, answer)) = self.searches.finished(s, out) else {
            return;
        };
        let lines = match &answer.outcome {
            Ok(judged) => self.reply_lines(&search, judged, &answer),
            Err(e) => vec![
                format!(
                    "info depth 0 score cp 0 nodes 0 nps 0 time {}",
                    answer.host.as_millis()
                ),
                format!("info string the engine failed: {e}"),
                "bestmove 0000".to_string(),
            ],
        };
        self.searches
            .deliver(&search, lines, answer.authentic(), answer.host, out);
    }

    fn engine_ready(&mut self, out: &mut Vec<Action<ChessRules>>) {
        self.set_up(out);
    }

    fn not_recreated(&mut self, error: &EngineError, out: &mut Vec<Action<ChessRules>>) {
        out.push(info_string(&format!("cannot restart the engine: {error}")));
        self.set_up(out);
    }

    fn woken(&mut self, token: u64, out: &mut Vec<Action<ChessRules>>) {
        self.searches.wake(token, out);
    }
}

/// A `MultiPV` value refused; the setting is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
enum BadMultiPv {
    OutOfRange(u64),
    /// Not a number (as given, trimmed).
    NotANumber(String),
}

impl std::fmt::Display for BadMultiPv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadMultiPv::OutOfRange(n) => write!(
                f,
                "MultiPV must be 1 to {MULTIPV_MAX}, not {n}; it is unchanged"
            ),
            BadMultiPv::NotANumber(text) => {
                write!(f, "MultiPV needs a number, not {text:?}; it is unchanged")
            }
        }
    }
}

/// `MultiPV`'s value.
fn read_multipv(value: Option<&str>) -> Result<usize, BadMultiPv> {
    let text = value.unwrap_or("").trim();
    match text.parse::<u64>() {
        Ok(n) if (1..=MULTIPV_MAX as u64).contains(&n) => Ok(n as usize),
        Ok(n) => Err(BadMultiPv::OutOfRange(n)),
        Err(_) => Err(BadMultiPv::NotANumber(text.to_string())),
    }
}

fn send(line: &str) -> Action<ChessRules> {
    Action::Send(line.to_string())
}

fn info_string(text: &str) -> Action<ChessRules> {
    Action::Send(format!("info string {text}"))
}

fn millis(d: vampirc_uci::Duration) -> Duration {
    Duration::from_millis(d.num_milliseconds().max(0) as u64)
}

/// A command from the GUI, read: vampirc-uci's reading, repaired, in our
/// own terms.
#[derive(Debug)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    Register,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `position`, checked by the arbiter: the game it sets up.
    Position(Game<ChessRules>),
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// A message vampirc reads that is no command for an engine.
    NotForEngine(String),
}

/// One side's clock in `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    pub time: Option<Duration>,
    pub increment: Duration,
}

/// `go`, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Go {
    pub white: SideClock,
    pub black: SideClock,
    pub moves_to_go: Option<u32>,
    pub move_time: Option<Duration>,
    /// How the search ends.
    pub mode: Mode,
    /// The limits the programs cannot honour (`depth 5`, `nodes …`, `mate …`).
    pub ignored: Vec<String>,
    pub searchmoves: Vec<UciMove>,
}

/// A line read: the command and the unknown words skipped before it.
#[derive(Debug)]
pub struct Read {
    pub command: UciCommand,
    pub skipped: String,
}

/// Why a line was not carried out. Its display is the note on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// No command word in the line (trimmed).
    Unknown(String),
    /// vampirc refused the (repaired) text of the command.
    Malformed {
        command: String,
        text: String,
        why: Option<String>,
    },
    /// A `position` the arbiter refused.
    Position(PositionRefused),
}

/// Why a `position` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionRefused {
    /// `position` alone.
    Empty,
    /// `position fen` without a FEN.
    NoFen,
    /// Words after `startpos` other than `moves` (as given).
    AfterStartpos(String),
    /// Neither `startpos` nor `fen` first (the word found).
    Expected(String),
    /// The FEN is unreadable or its position impossible.
    Fen { fen: String, error: PositionError },
    /// The `n`th move (from 1) is not a move.
    NotAMove { n: usize, word: String },
    /// The `n`th move is illegal, for `why`.
    Illegal {
        n: usize,
        word: String,
        why: crate::rules::chess::IllegalChessMove,
    },
}

impl std::fmt::Display for PositionRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionRefused::Empty => f.write_str("position without startpos or fen"),
            PositionRefused::NoFen => f.write_str("position fen without a FEN"),
            PositionRefused::AfterStartpos(extra) => {
                write!(f, "unexpected {extra:?} after startpos (expected moves)")
            }
            PositionRefused::Expected(first) => {
                write!(f, "expected startpos or fen, found {first:?}")
            }
            PositionRefused::Fen {
                fen,
                error: PositionError::Unreadable(e),
            } => write!(f, "broken FEN {fen:?}: {e}"),
            PositionRefused::Fen {
                fen,
                error: PositionError::Impossible(e),
            } => write!(f, "impossible position {fen:?}: {e}"),
            PositionRefused::NotAMove { n, word } => write!(f, "move {n} {word:?} is not a move"),
            PositionRefused::Illegal { n, word, why } => {
                write!(f, "move {n} {word} is illegal: {why}")
            }
        }
    }
}

impl std::error::Error for PositionRefused {}

impl std::fmt::Display for UciError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciError::Unknown(line) => write!(f, "unknown command, ignored: {line}"),
            UciError::Malformed { command, text, why } => {
                write!(f, "malformed {command}, ignored: {text}")?;
                match why {
                    Some(why) => write!(f, " ({why})"),
                    None => Ok(()),
                }
            }
            UciError::Position(why) => write!(f, "position refused: {why}"),
        }
    }
}

impl std::error::Error for UciError {}

/// Reads one line; `None` for a blank one. Never lowercases it: FENs are
/// case-sensitive.
///
/// # Errors
/// See [`UciError`].
pub fn parse(line: &str) -> Result<Option<Read>, UciError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return Ok(None);
    }
    let Some(start) = words.iter().position(|w| COMMANDS.contains(w)) else {
        return Err(UciError::Unknown(line.trim().to_string()));
    };
    let skipped = words[..start].join(" ");
    let words: Vec<String> = words[start..].iter().map(|w| w.to_string()).collect();
    let command = words[0].as_str();
    if command == "position" {
        return Ok(Some(Read {
            command: UciCommand::Position(position(&words).map_err(UciError::Position)?),
            skipped: String::new(),
        }));
    }
    let text = clamped(&words);
    let malformed = |why| UciError::Malformed {
        command: command.to_string(),
        text: text.clone(),
        why,
    };
    let message = match std::panic::catch_unwind(|| vampirc_uci::parse_strict(&text)) {
        Ok(Ok(mut messages)) if messages.len() == 1 => {
            messages.pop().ok_or_else(|| malformed(None))?
        }
        Ok(Ok(_)) => return Err(malformed(None)),
        Ok(Err(e)) => return Err(malformed(Some(pest_summary(&e.to_string())))),
        Err(_) => return Err(malformed(Some("parser failure".to_string()))),
    };
    Ok(Some(Read {
        command: command_of(message, &words),
        skipped,
    }))
}

/// The words as one line for vampirc-uci, which panics on numbers above
/// 255 where it wants a u8: those after `go`'s `depth`, `mate` and
/// `movestogo` are clamped.
fn clamped(words: &[String]) -> String {
    let mut text = String::new();
    for (i, w) in words.iter().enumerate() {
        let clamp = words[0] == "go"
            && i > 0
            && matches!(words[i - 1].as_str(), "depth" | "mate" | "movestogo")
            && w.len() <= 3
            && w.chars().all(|c| c.is_ascii_digit());
        if i > 0 {
            text.push(' ');
        }
        match w.parse::<u32>() {
            Ok(n) if clamp && n > 255 => text.push_str("255"),
            _ => text.push_str(w),
        }
    }
    text
}

/// vampirc's message as our command (`words`: the command's words).
fn command_of(message: UciMessage, words: &[String]) -> UciCommand {
    match message {
        UciMessage::Uci => UciCommand::Uci,
        UciMessage::Debug(on) => UciCommand::Debug(on),
        UciMessage::IsReady => UciCommand::IsReady,
        UciMessage::Register { .. } => UciCommand::Register,
        UciMessage::UciNewGame => UciCommand::UciNewGame,
        UciMessage::SetOption { name, value } => UciCommand::SetOption { name, value },
        UciMessage::Go {
            time_control,
            search_control,
        } => UciCommand::Go(read_go(time_control, search_control, words)),
        UciMessage::Stop => UciCommand::Stop,
        UciMessage::PonderHit => UciCommand::PonderHit,
        UciMessage::Quit => UciCommand::Quit,
        other => UciCommand::NotForEngine(other.to_string()),
    }
}

/// `go` from vampirc's reading and the words: `ponder` and `infinite` are
/// looked for among the words too (vampirc drops `ponder` beside a clock).
fn read_go(
    time_control: Option<UciTimeControl>,
    search_control: Option<UciSearchControl>,
    words: &[String],
) -> Go {
    let has = |w: &str| words.iter().any(|x| x.eq_ignore_ascii_case(w));
    let mut go = Go {
        white: SideClock::default(),
        black: SideClock::default(),
        moves_to_go: None,
        move_time: None,
        mode: if has("infinite") {
            Mode::Infinite
        } else if has("ponder") {
            Mode::Ponder
        } else {
            Mode::Timed
        },
        ignored: Vec::new(),
        searchmoves: Vec::new(),
    };
    match time_control {
        Some(UciTimeControl::TimeLeft {
            white_time,
            black_time,
            white_increment,
            black_increment,
            moves_to_go,
        }) => {
            let side = |time: Option<vampirc_uci::Duration>, inc: Option<vampirc_uci::Duration>| {
                SideClock {
                    time: time.map(millis),
                    increment: inc.map(millis).unwrap_or_default(),
                }
            };
            go.white = side(white_time, white_increment);
            go.black = side(black_time, black_increment);
            go.moves_to_go = moves_to_go.map(u32::from);
        }
        Some(UciTimeControl::MoveTime(t)) => go.move_time = Some(millis(t)),
        Some(UciTimeControl::Infinite) => go.mode = Mode::Infinite,
        Some(UciTimeControl::Ponder) => go.mode = Mode::Ponder,
        None => {}
    }
    if let Some(sc) = search_control {
        go.ignored = [
            sc.depth.map(|d| format!("depth {d}")),
            sc.nodes.map(|n| format!("nodes {n}")),
            sc.mate.map(|m| format!("mate {m}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        go.searchmoves = sc
            .search_moves
            .iter()
            .filter_map(|m| m.to_string().parse::<UciMove>().ok())
            .collect();
    }
    go
}

/// The gist of a pest error: the column and what was expected.
fn pest_summary(error: &str) -> String {
    let at = error
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("--> "))
        .unwrap_or("?");
    let what = error
        .lines()
        .find_map(|l| l.trim().strip_prefix("= "))
        .unwrap_or("syntax error");
    format!("at {at}: {what}")
}

/// Checks a `position` command (its words, `position` first): vampirc's
/// reading if it accepts the line, ours otherwise, then shakmaty's verdict
/// on the FEN and on every move.
fn position(words: &[String]) -> Result<Game<ChessRules>, PositionRefused> {
    let text = words.join(" ");
    let (fen, moves): (Option<String>, Vec<String>) =
        match std::panic::catch_unwind(|| vampirc_uci::parse_strict(&text)) {
            Ok(Ok(messages)) => match messages.as_slice() {
                [
                    UciMessage::Position {
                        startpos,
                        fen,
                        moves,
                    },
                ] => (
                    if *startpos {
                        None
                    } else {
                        fen.as_ref().map(|f| f.as_str().trim().to_string())
                    },
                    moves.iter().map(|m| m.to_string()).collect(),
                ),
                _ => read_position(words)?,
            },
            _ => read_position(words)?,
        };
    let root = match fen {
        None => Chess::default(),
        Some(fen) => ChessRules
            .parse_position(&fen)
            .map_err(|error| PositionRefused::Fen { fen, error })?,
    };
    let mut game = Game::new(ChessRules, root);
    for (i, word) in moves.iter().enumerate() {
        let uci: UciMove = word.parse().map_err(|_| PositionRefused::NotAMove {
            n: i + 1,
            word: word.clone(),
        })?;
        if let Verdict::Illegal(_, why) = game.play_wire(&uci) {
            return Err(PositionRefused::Illegal {
                n: i + 1,
                word: word.clone(),
                why,
            });
        }
    }
    Ok(game)
}

/// Our own reading of `position startpos|fen … [moves …]`, for lines
/// vampirc rejects: the FEN (`None` for startpos) and the move words.
///
/// # Errors
/// What is wrong with the line's shape.
pub fn read_position(words: &[String]) -> Result<(Option<String>, Vec<String>), PositionRefused> {
    let rest = &words[1.min(words.len())..];
    let moves_at = rest.iter().position(|w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
        None => (rest, Vec::new()),
    };
    match head.split_first() {
        Some((first, [])) if first == "startpos" => Ok((None, moves)),
        Some((first, fen)) if first == "fen" && !fen.is_empty() => Ok((Some(fen.join(" ")), moves)),
        Some((first, _)) if first == "fen" => Err(PositionRefused::NoFen),
        Some((first, extra)) if first == "startpos" => {
            Err(PositionRefused::AfterStartpos(extra.join(" ")))
        }
        Some((first, _)) => Err(PositionRefused::Expected(first.clone())),
        None => Err(PositionRefused::Empty),
    }
}

/// `MultiPV` above 1: an `info multipv K` line for each of the `n` best
/// legal candidates in the program's order (among `searchmoves`, if
/// given), then an `info string` for each illegal candidate and each tie
/// among those shown, and the count: (the `multipv` lines, the notes).
fn candidate_lines(
    search: &Pending<ChessRules, Vec<UciMove>>,
    judged: &[Weighed<ChessRules>],
    reply: &Reply<UciMove>,
    n: usize,
    stats: &str,
) -> (Vec<String>, Vec<String>) {
    let wanted = |m: &UciMove| search.extra.is_empty() || search.extra.contains(m);
    let shown: Vec<_> = judged
        .iter()
        .filter(|w| w.legal().is_some_and(wanted))
        .take(n)
        .collect();
    let lines: Vec<String> = shown
        .iter()
        .enumerate()
        .filter_map(|(k, w)| {
            let m = w.legal()?;
            Some(format!(
                "info multipv {} depth 1 score cp {} {stats} pv {m}",
                k + 1,
                w.candidate.score
            ))
        })
        .collect();
    let tie_break = reply.thoughts.as_ref().map_or("", |t| t.tie_break);
    let notes = candidate_notes(
        judged,
        &shown,
        tie_break,
        |w| w.candidate.wire.to_string(),
        |score| score.to_string(),
    );
    (
        lines,
        notes.iter().map(|n| format!("info string {n}")).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Thoughts;
    use crate::engines::{InputPath, Ties};
    use crate::protocol::testing::{
        self, feed, made_of, search_request as job, sent, test_thoughts,
    };

    type Action = super::Action<ChessRules>;
    type Input = crate::protocol::events::Input<ChessRules>;

    fn uci() -> Uci {
        let (info, settings) = made_of("1k-zx-chess");
        Uci::new(info, settings)
    }

    fn reply(uci: &str) -> Reply<UciMove> {
        Reply {
            played: Played::Move(uci.parse().unwrap()),
            score: Some(300),
            thoughts: None,
            nodes: 300,
            tstates: 6_000_000,
            authentic: Duration::from_secs(7),
            path: InputPath::Injected("test".into()),
        }
    }

    fn searched(id: u64, played: Reply<UciMove>) -> Input {
        testing::searched(id, played, Duration::from_millis(12))
    }

    /// Lines read into our typed commands, with vampirc's repairs.
    #[test]
    fn lines_parse_into_commands() {
        assert!(matches!(parse(" \t"), Ok(None)));
        let read = parse("joho debug on").unwrap().unwrap();
        assert!(matches!(read.command, UciCommand::Debug(true)));
        assert_eq!(read.skipped, "joho");
        let Some(Read {
            command: UciCommand::Go(go),
            ..
        }) = parse("go wtime 1000 btime 2000 binc 5 movestogo 300 depth 999 ponder").unwrap()
        else {
            panic!("go not read as go");
        };
        assert_eq!(go.mode, Mode::Ponder);
        assert_eq!(go.white.time, Some(Duration::from_millis(1000)));
        assert_eq!(go.black.increment, Duration::from_millis(5));
        assert_eq!(go.moves_to_go, Some(255));
        assert_eq!(go.ignored, vec!["depth 255".to_string()]);
        assert_eq!(
            parse("frobnicate now").unwrap_err().to_string(),
            "unknown command, ignored: frobnicate now"
        );
        assert!(matches!(
            parse("go depth x"),
            Err(UciError::Malformed { .. })
        ));
        assert!(matches!(
            parse("position startpos moves e2e5"),
            Err(UciError::Position(_))
        ));
    }

    #[test]
    fn handshake_as_cutechess_sees_it() {
        let mut u = uci();
        let lines = sent(&feed(&mut u, "uci"));
        assert!(lines[0].starts_with("id name 1K ZX Chess (David Horne 1982) via retrochess "));
        assert_eq!(lines[1], "id author David Horne");
        for name in [
            "Seed",
            "Opening",
            "IllegalMoves",
            "AuthenticTiming",
            "TimeScale",
            "ShowScreen",
            "UCI_EngineAbout",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {name} type "))),
                "{name}"
            );
        }
        assert_eq!(lines.last().unwrap(), "uciok");
        for (line, want) in [
            ("isready", vec!["readyok"]),
            ("  isready  ", vec!["readyok"]),
            ("joho isready", vec!["readyok"]),
            ("setoption name Seed value 7", vec![]),
            ("ucinewgame", vec![]),
            ("debug on", vec![]),
        ] {
            assert_eq!(sent(&feed(&mut u, line)), want, "{line}");
        }
        assert!(u.debug);
        assert_eq!(u.searches.settings.engine.seed, 7);
    }

    #[test]
    fn isready_after_ucinewgame_waits_for_the_new_game_but_never_for_a_search() {
        let mut u = uci();
        assert_eq!(sent(&feed(&mut u, "isready")), ["readyok"]);
        let actions = feed(&mut u, "ucinewgame");
        assert!(actions.contains(&Action::Job(Job::NewGame)));
        assert!(
            sent(&feed(&mut u, "isready")).is_empty(),
            "the new game is being set up: the first move's clock waits"
        );
        assert_eq!(sent(&u.handle(Input::NewGameReady)), ["readyok"]);
        assert_eq!(sent(&feed(&mut u, "isready")), ["readyok"]);
        // While the program thinks, at once, set up or not.
        feed(&mut u, "ucinewgame");
        feed(&mut u, "position startpos moves e2e4");
        let actions = feed(&mut u, "go movetime 1000");
        let id = job(&actions).unwrap().id;
        assert_eq!(sent(&feed(&mut u, "isready")), ["readyok"]);
        assert!(sent(&u.handle(Input::NewGameReady)).is_empty());
        let lines = sent(&u.handle(searched(id, reply("e7e5"))));
        assert_eq!(lines.last().unwrap(), "bestmove e7e5");
    }

    #[test]
    fn bad_input_is_ignored_with_a_note() {
        let mut u = uci();
        let table = [
            "",
            "   ",
            "hello world",
            "go depth",
            "setoption",
            "setoption name",
            "debug maybe",
            "ISREADY?",
            "go wtime x",
            "\u{0}\u{1}\u{7f}",
            "position",
            "bestmove e2e4",
        ];
        for line in table {
            let actions = feed(&mut u, line);
            assert!(job(&actions).is_none(), "{line:?} must not search");
            assert!(
                !sent(&actions).iter().any(|l| l.starts_with("bestmove")),
                "{line:?}"
            );
        }
        // Numbers vampirc would panic on.
        let actions = feed(&mut u, "go depth 300 movestogo 999 mate 256");
        assert!(job(&actions).is_some());
    }

    #[test]
    fn positions_are_checked() {
        let mut u = uci();
        let ok = [
            ("position startpos", 0),
            ("position startpos moves e2e4 e7e5 g1f3", 3),
            (
                "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5",
                1,
            ),
            (
                "position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1g1",
                1,
            ),
            // FEN without counters: vampirc refuses it, shakmaty reads it.
            ("position fen 4k3/8/8/8/8/8/8/4K2R w K - moves h1h8", 1),
            ("position startpos moves", 0),
            (
                "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
                10,
            ),
        ];
        for (line, n) in ok {
            let actions = feed(&mut u, line);
            assert!(sent(&actions).is_empty(), "{line}: {actions:?}");
            assert_eq!(u.game.moves().len(), n, "{line}");
        }
        feed(&mut u, "position startpos moves e2e4");
        let bad = [
            (
                "position startpos moves e2e4 e7e5 e1e3",
                "move 3 e1e3 is illegal: not a legal king move from e1 to e3",
            ),
            (
                "position startpos moves e2e5",
                "move 1 e2e5 is illegal: not a legal pawn move",
            ),
            (
                "position startpos moves e2e4 foo",
                "move 2 \"foo\" is not a move",
            ),
            (
                "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1",
                "impossible position",
            ),
            (
                "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "broken FEN",
            ),
            ("position fen", "position fen without a FEN"),
            ("position start", "expected startpos or fen"),
            (
                "position startpos e2e4",
                "unexpected \"e2e4\" after startpos",
            ),
            (
                "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e8",
                "move 2 e8e8 is illegal",
            ),
        ];
        for (line, want) in bad {
            let lines = sent(&feed(&mut u, line));
            assert_eq!(lines.len(), 1, "{line}");
            assert!(
                lines[0].starts_with("info string position refused"),
                "{line}: {lines:?}"
            );
            assert!(lines[0].contains(want), "{line}: {} lacks {want}", lines[0]);
            assert_eq!(
                u.game.moves().len(),
                1,
                "{line}: the previous position stays"
            );
        }
    }

    fn thoughts(weighed: &[(&str, i32)], ties: Ties) -> Thoughts<UciMove> {
        test_thoughts(weighed, |raw| 100 * (raw - 67), ties)
    }

    #[test]
    fn multipv_shows_the_programs_candidates() {
        let mut u = uci();
        for (bad, why) in [
            (
                "setoption name MultiPV value 0",
                "MultiPV must be 1 to 500, not 0",
            ),
            ("setoption name MultiPV value 501", "not 501"),
            (
                "setoption name MultiPV value 99999999999999999999",
                "needs a number",
            ),
            (
                "setoption name MultiPV value many",
                "needs a number, not \"many\"",
            ),
            ("setoption name MultiPV", "needs a number"),
        ] {
            let lines = sent(&feed(&mut u, bad));
            assert!(lines[0].contains(why), "{bad}: {lines:?}");
        }
        assert_eq!(u.multipv, 1, "bad values leave it unchanged");
        assert!(
            !job(&feed(&mut u, "go movetime 10")).unwrap().thoughts,
            "MultiPV 1 collects nothing"
        );
        feed(&mut u, "stop");
        let mut u = uci();
        assert!(sent(&feed(&mut u, "setoption name multipv value 3")).is_empty());
        feed(&mut u, "position startpos moves e2e4");
        let request = job(&feed(&mut u, "go movetime 1000")).unwrap().clone();
        assert!(request.thoughts, "MultiPV 3 asks for candidates");
        let mut r = reply("e7e5");
        // e7e5 and d7d5 tie (the program keeps the first), e8e7 is not
        // legal, g8f6 scores less, b8a6 is fourth.
        r.thoughts = Some(thoughts(
            &[
                ("b8a6", 66),
                ("e7e5", 70),
                ("e8e7", 72),
                ("d7d5", 70),
                ("g8f6", 69),
            ],
            Ties::KeepsFirst,
        ));
        r.score = Some(300);
        let lines = sent(&u.handle(searched(request.id, r)));
        assert_eq!(
            &lines[..3],
            [
                "info multipv 1 depth 1 score cp 300 nodes 300 nps 25000 time 12 pv e7e5",
                "info multipv 2 depth 1 score cp 300 nodes 300 nps 25000 time 12 pv d7d5",
                "info multipv 3 depth 1 score cp 200 nodes 300 nps 25000 time 12 pv g8f6",
            ]
        );
        assert!(
            lines[3].starts_with(
                "info string candidate e8e7 (the program's 1st, score 500) is illegal"
            ),
            "{}",
            lines[3]
        );
        assert_eq!(lines[4], "info string ties: the test's rule");
        assert_eq!(
            lines[5],
            "info string equal score 300 for e7e5, d7d5: the program prefers e7e5"
        );
        assert_eq!(lines[6], "info string 5 candidates weighed, 4 legal");
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("pv e8e7") || l.contains("pv b8a6"))
        );
        assert_eq!(lines.last().unwrap(), "bestmove e7e5");
        // KeepsLast: the later of equals comes first.
        let request = job(&feed(&mut u, "go movetime 1000")).unwrap().clone();
        let mut r = reply("d7d5");
        r.thoughts = Some(thoughts(&[("e7e5", 70), ("d7d5", 70)], Ties::KeepsLast));
        let lines = sent(&u.handle(searched(request.id, r)));
        assert!(
            lines[0].ends_with("pv d7d5") && lines[1].ends_with("pv e7e5"),
            "{lines:?}"
        );
        // No candidates: today's line, and why.
        let request = job(&feed(&mut u, "go movetime 1000")).unwrap().clone();
        let mut r = reply("e7e5");
        r.path = InputPath::Tape;
        let lines = sent(&u.handle(searched(request.id, r)));
        assert!(
            lines[0].starts_with("info depth 1 score cp 300"),
            "{lines:?}"
        );
        assert!(lines[1].contains("stored on the tape"), "{lines:?}");
        // searchmoves limits what is shown.
        let request = job(&feed(&mut u, "go movetime 1000 searchmoves g8f6 b8a6"))
            .unwrap()
            .clone();
        let mut r = reply("e7e5");
        r.thoughts = Some(thoughts(
            &[("b8a6", 66), ("e7e5", 70), ("g8f6", 69)],
            Ties::KeepsFirst,
        ));
        let lines = sent(&u.handle(searched(request.id, r)));
        assert!(
            lines[0].ends_with("pv g8f6") && lines[1].ends_with("pv b8a6"),
            "{lines:?}"
        );
        assert!(lines[2].starts_with("info string"), "{lines:?}");
    }

    #[test]
    fn a_search_and_its_output() {
        let mut u = uci();
        feed(&mut u, "position startpos moves e2e4");
        let actions = feed(&mut u, "go wtime 60000 btime 60000 winc 1000 binc 1000");
        let request = job(&actions).unwrap();
        assert_eq!(request.game.moves().len(), 1);
        assert_eq!(
            request.deadline,
            Some(Duration::from_millis(60_000)),
            "cut only if still thinking when the clock runs out"
        );
        let id = request.id;
        assert_eq!(
            sent(&feed(&mut u, "isready")),
            ["readyok"],
            "answered while thinking"
        );
        let lines = sent(&u.handle(searched(id, reply("e7e5"))));
        assert_eq!(
            lines[0],
            "info depth 1 score cp 300 nodes 300 nps 25000 time 12 pv e7e5"
        );
        assert!(lines[1].starts_with(
            "info string 6000000 T-states in 12 ms of host time; authentic thinking time 7.0 s"
        ));
        assert_eq!(lines.last().unwrap(), "bestmove e7e5");
    }

    #[test]
    fn illegal_moves_follow_the_policy() {
        let mut u = uci();
        let fen = "position fen 4k3/8/8/6B1/8/8/8/4K3 b - - 0 1";
        feed(&mut u, fen);
        let id = job(&feed(&mut u, "go movetime 1000")).unwrap().id;
        let lines = sent(&u.handle(searched(id, reply("e8d8"))));
        assert!(lines.contains(
            &"info string illegal move e8d8: king moves into check from g5 bishop".to_string()
        ));
        assert_eq!(lines.last().unwrap(), "bestmove e8d8");
        feed(&mut u, "setoption name IllegalMoves value resign");
        assert_eq!(u.illegal_policy(), IllegalPolicy::Resign);
        let id = job(&feed(&mut u, "go movetime 1000")).unwrap().id;
        let lines = sent(&u.handle(searched(id, reply("e8d8"))));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("king moves into check from g5 bishop"))
        );
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
        // Dead end and hang.
        let id = job(&feed(&mut u, "go")).unwrap().id;
        let mut dead = reply("e8e7");
        dead.played = Played::DeadEnd;
        let lines = sent(&u.handle(searched(id, dead)));
        assert!(lines.iter().any(|l| l.contains("dead end")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
    }

    #[test]
    fn infinite_waits_for_stop_and_ponder_for_ponderhit() {
        let mut u = uci();
        feed(&mut u, "position startpos moves d2d4");
        let id = job(&feed(&mut u, "go infinite")).unwrap().id;
        assert!(
            sent(&u.handle(searched(id, reply("d7d5")))).is_empty(),
            "bestmove waits for stop"
        );
        assert_eq!(sent(&feed(&mut u, "isready")), ["readyok"]);
        assert_eq!(sent(&feed(&mut u, "stop")).last().unwrap(), "bestmove d7d5");
        assert!(
            sent(&feed(&mut u, "stop")).is_empty(),
            "a second stop sends nothing"
        );
        // stop before the reply arrives.
        let id = job(&feed(&mut u, "go infinite")).unwrap().id;
        assert!(sent(&feed(&mut u, "stop")).is_empty());
        assert_eq!(
            sent(&u.handle(searched(id, reply("d7d5")))).last().unwrap(),
            "bestmove d7d5"
        );
        // Ponder (vampirc drops the word when a clock follows).
        let id = job(&feed(&mut u, "go ponder wtime 1000 btime 1000"))
            .unwrap()
            .id;
        assert!(sent(&u.handle(searched(id, reply("d7d5")))).is_empty());
        assert_eq!(
            sent(&feed(&mut u, "ponderhit")).last().unwrap(),
            "bestmove d7d5"
        );
    }

    #[test]
    fn authentic_timing_holds_the_move() {
        let mut u = uci();
        feed(&mut u, "setoption name AuthenticTiming value true");
        feed(&mut u, "setoption name TimeScale value 10");
        feed(&mut u, "position startpos moves e2e4");
        let id = job(&feed(&mut u, "go movetime 500")).unwrap().id;
        let actions = u.handle(searched(id, reply("e7e5")));
        let (wait, token) = actions
            .iter()
            .find_map(|a| match a {
                Action::WakeAfter(d, t) => Some((*d, *t)),
                _ => None,
            })
            .unwrap();
        // 7 s × 10 % = 700 ms, capped by the 470 ms share of the clock, less the 12 ms spent.
        assert_eq!(wait, Duration::from_millis(458));
        assert!(sent(&actions).is_empty());
        assert!(sent(&u.handle(Input::Wake(token + 1))).is_empty());
        assert_eq!(
            sent(&u.handle(Input::Wake(token))).last().unwrap(),
            "bestmove e7e5"
        );
    }

    #[test]
    fn game_over_needs_no_engine() {
        let mut u = uci();
        feed(&mut u, "position startpos moves f2f3 e7e5 g2g4 d8h4");
        let actions = feed(&mut u, "go movetime 100");
        assert!(job(&actions).is_none());
        let lines = sent(&actions);
        assert!(lines.contains(&"info string no legal move: checkmate".to_string()));
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
    }
}
