//! CECP (xboard/WinBoard protocol 2) as a state machine over lines.
//!
//! The engine keeps the game itself, as CECP expects: `new`, `setboard` or
//! `edit` set the position, `usermove` (or a bare move when the GUI refused
//! the `usermove` feature) plays the opponent's move, and the engine moves
//! when it is on move and not in `force` mode. Every move from the GUI is
//! judged by the arbiter (`Illegal move (reason): e2e5`, and nothing
//! changes); every move of the program too, with the `IllegalMoves` policy:
//! `play` sends it after a `# illegal move …` comment, `resign` sends
//! `tellusererror` with the reason and `resign`. The program's dead end and
//! hangs resign with a `#` comment saying why. When the program's move ends
//! the game by the rules, the result is claimed (`1-0 {White mates}`).
//!
//! `ping` is answered at once, except while the program is on move: then
//! `pong` follows the move, as the protocol orders it.
//!
//! # Thinking output and analyze mode
//!
//! With `post`, the moves the program weighed (its candidates, collected by
//! the driver where it can: [`crate::engines::Engine::collect_candidates`])
//! come before the move as thinking lines, `ply score time nodes pv` (the
//! spec's section 10, "Thinking Output"): one line a legal candidate, `ply`
//! 1, its score as the program computed it (the driver's centipawns, from
//! the mover's side), the whole search's time in centiseconds and nodes, and
//! the candidate as `pv`. They come in the reverse of the program's order,
//! **its choice last**: xboard's engine-output pane keeps only the latest
//! line of depth 1 (engineoutput.c clears the pane when a depth-1 line
//! follows one of the same depth), and python-chess takes the first move of
//! the last `pv` as an analysis's best move, so both show the program's
//! choice. A candidate the rules refuse is never a `pv`: it is a
//! `# candidate … is illegal: …` comment, as are ties
//! (`# ties: …` naming the program's rule once, then
//! `# equal score …: the program prefers …`) and the count
//! (`# N candidates weighed, M legal`); `feature debug=1` makes xboard
//! ignore `#` lines. Without candidates (a driver that reports none, the
//! move stored on 1K ZX Chess's tape), the one line is the program's move
//! with its score, as before.
//!
//! `analyze` (`feature analyze=1`; the spec's section 12, "Analyze Mode")
//! searches the position with candidates on and sends the same lines,
//! whether `post` is on or not, then nothing more: the program searches
//! once and its answer stands. Analyze mode is force mode in which the
//! engine never moves: moves (judged as always), `undo`, `remove`, `new`
//! (stays in analyze mode, as the spec says), `setboard`, `edit`, `white`
//! and `black` change the position and the analysis starts again on the new
//! one. With no candidates, the one line is the program's move if legal,
//! and a `# no candidates: …` comment says why there are none. `.` answers
//! `stat01: time nodes ply mvleft mvtot`: while the program thinks, the time
//! so far with 0 nodes and every legal move left (the emulated program
//! cannot be asked mid-search); once it is done, its time and nodes with
//! none left. `exit` leaves analyze mode for force mode; `go` and
//! `playother` leave it and do what they do. `ping` is answered at once in
//! analyze mode: no move is owed. Bad input gets its usual error and the
//! analysis goes on.

use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup,
    Square,
};

use super::FrontEnd;
use super::answer::{Answer, JudgedReply};
use super::clock::Clock;
use super::events::{Action, Job, Searched};
use super::prose::{candidate_notes, no_thoughts};
use super::searches::{Mode, Searches};
use super::settings::{Change, Settings, display_name};
use crate::engines::{EngineError, EngineInfo, OptionKind, Played, Reply};
use crate::rules::chess::ChessRules;
use crate::rules::{EndReason, Ending, Game, GameResult, Verdict};

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CecpLevel {
    moves: u32,
    base: Duration,
    increment: Duration,
}

/// A command from the GUI, read (outside `edit` mode, whose lines are
/// read by the edit itself).
#[derive(Clone, Debug, PartialEq)]
pub enum CecpCommand {
    Xboard,
    /// `protover N`: the features follow.
    Protover,
    /// `accepted FEATURE`.
    Accepted(String),
    /// `rejected FEATURE`.
    Rejected(String),
    New,
    Force,
    Go,
    PlayOther,
    /// Protocol 1's `white` or `black`: this side on move.
    Colour(Color),
    Level(CecpLevel),
    /// `st`.
    MoveTime(Duration),
    /// `time`: the engine's clock.
    Time(Duration),
    /// `otim`: the opponent's clock, read and not used.
    Otim,
    /// `sd` or `nps` (the whole line): read and not used.
    FixedThinking(String),
    UserMove(String),
    /// A word shaped like a move alone on its line: the opponent's move
    /// when the GUI refused `usermove`, else an unknown command.
    BareMove(String),
    /// `?`.
    MoveNow,
    Ping(String),
    /// `undo` (1) or `remove` (2).
    TakeBack(usize),
    /// `setboard FEN`, the FEN as sent.
    SetBoard(String),
    Edit,
    /// `post` (true) or `nopost`.
    Post(bool),
    Analyze,
    Exit,
    /// `.`.
    Status,
    /// `option NAME[=VALUE]`, as sent.
    Option(String),
    /// A command the engine has nothing to do for (`hard`, `name`, `draw`…).
    Ignored,
    /// `result` (the game is over: force mode).
    Result,
    Quit,
}

/// Why a line from the GUI was not carried out. Its display is the CECP
/// error line sent back, `Error (reason): line`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpError {
    /// The line (trimmed) is no command.
    Unknown(String),
    /// `variant` other than `normal`.
    Variant(String),
    /// A number that does not read: what was wanted, and the line.
    BadNumber { wanted: &'static str, line: String },
    /// A `level` that does not read: why, and the line.
    Level { why: String, line: String },
}

impl std::fmt::Display for CecpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CecpError::Unknown(line) => write!(f, "Error (unknown command): {line}"),
            CecpError::Variant(v) => write!(f, "Error (unsupported variant): {v}"),
            CecpError::BadNumber { wanted, line } => write!(f, "Error ({wanted}): {line}"),
            CecpError::Level { why, line } => write!(f, "Error ({why}): {line}"),
        }
    }
}

impl std::error::Error for CecpError {}

/// Reads one line from the GUI (not in `edit` mode); `None` for a blank
/// line.
///
/// # Errors
/// See [`CecpError`].
pub fn parse(line: &str) -> Result<Option<CecpCommand>, CecpError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (command, arg) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    let bad_number = |wanted| CecpError::BadNumber {
        wanted,
        line: line.to_string(),
    };
    Ok(Some(match command {
        "xboard" => CecpCommand::Xboard,
        "protover" => CecpCommand::Protover,
        "accepted" => CecpCommand::Accepted(arg.to_string()),
        "rejected" => CecpCommand::Rejected(arg.to_string()),
        "new" => CecpCommand::New,
        "variant" if arg == "normal" => CecpCommand::Ignored,
        "variant" => return Err(CecpError::Variant(arg.to_string())),
        "force" => CecpCommand::Force,
        "go" => CecpCommand::Go,
        "playother" => CecpCommand::PlayOther,
        "white" => CecpCommand::Colour(Color::White),
        "black" => CecpCommand::Colour(Color::Black),
        "level" => CecpCommand::Level(parse_level(arg).map_err(|why| CecpError::Level {
            why,
            line: line.to_string(),
        })?),
        "st" => CecpCommand::MoveTime(
            arg.parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0)
                .and_then(seconds)
                .ok_or_else(|| bad_number("bad number of seconds"))?,
        ),
        "time" | "otim" => {
            let cs = arg
                .parse::<i64>()
                .map_err(|_| bad_number("bad number of centiseconds"))?;
            if command == "otim" {
                CecpCommand::Otim
            } else {
                let ms = (cs.max(0) as u64).saturating_mul(10);
                CecpCommand::Time(Duration::from_millis(ms))
            }
        }
        "sd" | "nps" => {
            arg.parse::<u64>().map_err(|_| bad_number("bad number"))?;
            CecpCommand::FixedThinking(line.to_string())
        }
        "usermove" => CecpCommand::UserMove(arg.to_string()),
        "?" => CecpCommand::MoveNow,
        "ping" => CecpCommand::Ping(arg.to_string()),
        "undo" => CecpCommand::TakeBack(1),
        "remove" => CecpCommand::TakeBack(2),
        "result" => CecpCommand::Result,
        "setboard" => CecpCommand::SetBoard(arg.to_string()),
        "edit" => CecpCommand::Edit,
        "post" => CecpCommand::Post(true),
        "nopost" => CecpCommand::Post(false),
        "analyze" => CecpCommand::Analyze,
        "exit" => CecpCommand::Exit,
        "." => CecpCommand::Status,
        "hard" | "easy" | "random" | "computer" | "name" | "rating" | "ics" | "draw" | "hint"
        | "bk" | "memory" | "cores" | "egtpath" => CecpCommand::Ignored,
        "option" => CecpCommand::Option(arg.to_string()),
        "quit" => CecpCommand::Quit,
        _ if looks_like_move(command) && arg.is_empty() => {
            CecpCommand::BareMove(command.to_string())
        }
        _ => return Err(CecpError::Unknown(line.to_string())),
    }))
}

/// The board being edited after `edit`.
#[derive(Clone, Debug)]
struct Edit {
    board: Board,
    color: Color,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move in the game.
    Move,
    /// Analyze mode: the program's candidates, no move.
    Analysis,
}

/// Analyze mode: the position analysed and how far the search is.
#[derive(Clone, Debug)]
struct Analysis {
    /// The game as it was when the analysis started.
    game: Game<ChessRules>,
    started: Instant,
    /// The finished search: centiseconds and nodes (`None` while the
    /// program thinks).
    done: Option<(u128, u64)>,
}

/// The CECP front end.
#[derive(Debug)]
pub struct Xboard {
    info: &'static EngineInfo,
    game: Game<ChessRules>,
    force: bool,
    /// The side the engine plays.
    engine: Color,
    /// `usermove` accepted: bare moves are unknown commands.
    usermove: bool,
    post: bool,
    own_time: Option<Duration>,
    level: Option<CecpLevel>,
    move_time: Option<Duration>,
    searches: Searches<ChessRules, Purpose>,
    /// `pong`s owed after the move being thought about.
    pongs: Vec<String>,
    edit: Option<Edit>,
    /// In analyze mode.
    analysis: Option<Analysis>,
}

impl Xboard {
    pub fn new(info: &'static EngineInfo, settings: Settings) -> Xboard {
        Xboard {
            info,
            game: Game::initial(ChessRules),
            force: false,
            engine: Color::Black,
            usermove: false,
            post: false,
            own_time: None,
            level: None,
            move_time: None,
            searches: Searches::new(settings),
            pongs: Vec::new(),
            edit: None,
            analysis: None,
        }
    }

    /// Is the program on move with a reply still to come?
    fn thinking(&self) -> bool {
        self.analysis.is_none() && self.searches.busy()
    }

    fn command(&mut self, line: &str, out: &mut Vec<Action<ChessRules>>) {
        if self.edit.is_some() {
            let line = line.trim();
            if !line.is_empty() {
                self.edit_line(line, out);
            }
            return;
        }
        match parse(line) {
            Ok(Some(command)) => self.obey(command, out),
            Ok(None) => {}
            Err(e) => out.push(send(&e.to_string())),
        }
    }

    /// Carries out one command.
    fn obey(&mut self, command: CecpCommand, out: &mut Vec<Action<ChessRules>>) {
        match command {
            CecpCommand::Xboard | CecpCommand::Ignored => {}
            CecpCommand::Protover => self.features(out),
            CecpCommand::Accepted(feature) => {
                if feature == "usermove" {
                    self.usermove = true;
                }
            }
            CecpCommand::Rejected(feature) => self.rejected(&feature, out),
            CecpCommand::New => self.new_game(out),
            CecpCommand::Force | CecpCommand::Result => {
                self.stop_thinking(out);
                self.force = true;
            }
            CecpCommand::Go => self.go(out),
            CecpCommand::PlayOther => {
                self.leave_analysis();
                self.stop_thinking(out);
                self.force = false;
                self.engine = !self.game.position().turn();
            }
            CecpCommand::Colour(turn) => self.protocol_1_colour(turn, out),
            CecpCommand::Level(level) => self.level = Some(level),
            CecpCommand::MoveTime(time) => self.move_time = Some(time),
            CecpCommand::Time(time) => self.own_time = Some(time),
            CecpCommand::Otim => {}
            CecpCommand::FixedThinking(line) => out.push(Action::Note(format!(
                "{line}: ignored, the program thinks its own fixed way"
            ))),
            CecpCommand::UserMove(text) => self.user_move(&text, out),
            CecpCommand::BareMove(text) => {
                if self.usermove {
                    out.push(send(&CecpError::Unknown(text).to_string()));
                } else {
                    self.user_move(&text, out);
                }
            }
            CecpCommand::MoveNow => {
                if self.searches.release(out) {
                    self.pay_pongs(out);
                }
            }
            CecpCommand::Ping(n) => self.ping(n, out),
            CecpCommand::TakeBack(n) => self.take_back(n, out),
            CecpCommand::SetBoard(fen) => {
                self.stop_thinking(out);
                match setboard(&fen) {
                    Ok(pos) => self.game = Game::new(ChessRules, pos),
                    Err(why) => out.push(send(&format!("tellusererror Illegal position: {why}"))),
                }
            }
            CecpCommand::Edit => self.start_edit(out),
            CecpCommand::Post(on) => self.post = on,
            CecpCommand::Analyze => self.enter_analysis(out),
            CecpCommand::Exit => {
                if self.analysis.is_some() {
                    self.leave_analysis();
                    self.force = true;
                }
            }
            CecpCommand::Status => {
                if let Some(status) = self.status() {
                    out.push(send(&status));
                }
            }
            CecpCommand::Option(arg) => self.option(&arg, out),
            CecpCommand::Quit => out.push(Action::Quit),
        }
    }

    /// `go`: the engine plays the side on move, and moves.
    fn go(&mut self, out: &mut Vec<Action<ChessRules>>) {
        self.leave_analysis();
        self.stop_thinking(out);
        self.force = false;
        self.engine = self.game.position().turn();
        self.think(out);
    }

    /// `ping N`: `pong N` at once, or after the move being thought about.
    fn ping(&mut self, n: String, out: &mut Vec<Action<ChessRules>>) {
        let pong = format!("pong {n}");
        if self.thinking() {
            self.pongs.push(pong);
        } else {
            out.push(send(&pong));
        }
    }

    /// `undo` (one move) or `remove` (two).
    fn take_back(&mut self, n: usize, out: &mut Vec<Action<ChessRules>>) {
        if self.game.moves().len() < n {
            let command = if n == 1 { "undo" } else { "remove" };
            out.push(send(&format!("Error (no moves to take back): {command}")));
        } else {
            self.stop_thinking(out);
            for _ in 0..n {
                self.game.pop();
            }
        }
    }

    /// `edit`: edit mode on the current board, white pieces first.
    fn start_edit(&mut self, out: &mut Vec<Action<ChessRules>>) {
        self.stop_thinking(out);
        // The position is about to change: no analysis of the old one.
        self.searches.discard();
        self.edit = Some(Edit {
            board: self.game.position().board().clone(),
            color: Color::White,
        });
    }

    fn new_game(&mut self, out: &mut Vec<Action<ChessRules>>) {
        self.stop_thinking(out);
        self.game = Game::initial(ChessRules);
        self.force = false;
        self.engine = Color::Black;
        self.move_time = None;
        self.own_time = None;
        self.searches.new_game(out, |seed| format!("# seed {seed}"));
    }

    /// Protocol 1's `white`/`black`: this side on move, the engine plays the
    /// other.
    fn protocol_1_colour(&mut self, turn: Color, out: &mut Vec<Action<ChessRules>>) {
        self.stop_thinking(out);
        if self.game.position().turn() != turn {
            let mut setup = self
                .game
                .position()
                .clone()
                .to_setup(shakmaty::EnPassantMode::Legal);
            setup.turn = turn;
            setup.ep_square = None;
            match Chess::from_setup(setup, CastlingMode::Standard) {
                Ok(pos) => self.game = Game::new(ChessRules, pos),
                Err(e) => out.push(send(&format!(
                    "Error (impossible with {turn} to move): {e}"
                ))),
            }
        }
        self.engine = !turn;
    }

    /// `rejected FEATURE`. Most rejections leave the GUI's default, which
    /// we also handle: `usermove` (bare moves are read too), `sigterm`
    /// (python-chess rejects it at every start; a SIGTERM ends us as
    /// `quit` would), `draw`, `colors`, `name`, `nps`, `reuse`, `debug`...
    /// and go to the debug log. Only `sigint` costs something: the GUI may
    /// then interrupt us with SIGINT, which ends the engine.
    fn rejected(&mut self, feature: &str, out: &mut Vec<Action<ChessRules>>) {
        if feature == "usermove" {
            self.usermove = false;
        }
        let line = format!("the GUI rejected feature {feature}");
        if feature == "sigint" {
            out.push(Action::Note(format!(
                "{line}: a SIGINT from it would end the engine"
            )));
        } else {
            out.push(Action::Debug(line));
        }
    }

    fn features(&self, out: &mut Vec<Action<ChessRules>>) {
        out.push(send("feature done=0"));
        out.push(send(&format!(
            "feature myname=\"{}\" ping=1 setboard=1 usermove=1 san=0 time=1 draw=0 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 playother=1 variants=\"normal\" name=0 nps=0 debug=1",
            display_name(self.info).replace('"', "'")
        )));
        for spec in self.searches.settings.specs() {
            let option = match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("{} -spin {default} {min} {max}", spec.name)
                }
                OptionKind::Check { default } => {
                    format!("{} -check {}", spec.name, u8::from(default))
                }
                OptionKind::Combo { default, vars } => {
                    let vars: Vec<String> = vars
                        .iter()
                        .map(|v| {
                            if *v == default {
                                format!("*{v}")
                            } else {
                                v.to_string()
                            }
                        })
                        .collect();
                    format!("{} -combo {}", spec.name, vars.join(" /// "))
                }
                OptionKind::Text { default } => format!("{} -string {default}", spec.name),
            };
            out.push(send(&format!("feature option=\"{option}\"")));
        }
        out.push(send("feature done=1"));
    }

    fn option(&mut self, arg: &str, out: &mut Vec<Action<ChessRules>>) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (arg.trim(), None),
        };
        match self.searches.settings.set(name, value) {
            Ok(Change::Value) => {}
            Ok(Change::Recreate) => out.push(Action::Job(Job::Recreate(
                self.searches.settings.engine.clone(),
            ))),
            Err(why) => out.push(send(&format!("Error ({why}): option {arg}"))),
        }
    }

    /// The opponent's move (or, in force mode, either side's).
    fn user_move(&mut self, text: &str, out: &mut Vec<Action<ChessRules>>) {
        let Ok(uci) = text.parse::<UciMove>() else {
            out.push(send(&format!(
                "Illegal move (not a coordinate move): {text}"
            )));
            return;
        };
        if self.thinking() {
            // Not the opponent's turn: the GUI moves for the engine.
            self.stop_thinking(out);
        }
        match self.game.play_wire(&uci) {
            Verdict::Illegal(_, why) => out.push(send(&format!("Illegal move ({why}): {text}"))),
            Verdict::Legal(_) => {
                if self.analysis.is_none()
                    && !self.force
                    && self.game.position().turn() == self.engine
                {
                    self.think(out);
                }
            }
        }
    }

    /// The engine is on move: claim the end if the game is over, otherwise
    /// ask the program.
    fn think(&mut self, out: &mut Vec<Action<ChessRules>>) {
        if let Some(ending) = self.game.ending() {
            out.push(send(&claim(&ending)));
            self.force = true;
            return;
        }
        let clock = Clock {
            // Before the first `time`, the level's base time.
            remaining: self.own_time.or(self.level.map(|l| l.base)),
            increment: self.level.map(|l| l.increment).unwrap_or_default(),
            moves_to_go: self.level.filter(|l| l.moves > 0).map(|l| {
                let done = (self.game.position().fullmoves().get() - 1) % l.moves;
                l.moves - done
            }),
            move_time: self.move_time,
        };
        self.searches.thoughts = self.post;
        let job = self
            .searches
            .start(&self.game, &clock, Mode::Timed, Purpose::Move);
        out.push(job);
    }

    /// Forgets the move being thought about and pays the pongs owed. An
    /// analysis goes on: [`Xboard::follow_analysis`] restarts it when the
    /// position changes.
    fn stop_thinking(&mut self, out: &mut Vec<Action<ChessRules>>) {
        if self.analysis.is_none() {
            self.searches.discard();
        }
        self.pay_pongs(out);
    }

    /// `analyze`: force mode, and the analysis of the position on the board
    /// (started by [`Xboard::follow_analysis`]).
    fn enter_analysis(&mut self, out: &mut Vec<Action<ChessRules>>) {
        if self.analysis.is_none() {
            self.stop_thinking(out);
            self.analysis = Some(Analysis {
                game: self.game.clone(),
                started: Instant::now(),
                done: None,
            });
        }
    }

    /// Out of analyze mode; its search is forgotten.
    fn leave_analysis(&mut self) {
        if self.analysis.take().is_some() {
            self.searches.discard();
        }
    }

    /// In analyze mode, outside `edit`: analyses the position on the board
    /// unless that analysis is done or under way.
    fn follow_analysis(&mut self, out: &mut Vec<Action<ChessRules>>) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        let same =
            analysis.game.root() == self.game.root() && analysis.game.moves() == self.game.moves();
        if self.edit.is_some() || (same && (analysis.done.is_some() || self.searches.busy())) {
            return;
        }
        self.searches.discard();
        let mut analysis = Analysis {
            game: self.game.clone(),
            started: Instant::now(),
            done: None,
        };
        if let Some(ending) = self.game.ending() {
            out.push(send(&format!(
                "# nothing to analyse: the game is over ({})",
                claim(&ending)
            )));
            analysis.done = Some((0, 0));
        } else {
            self.searches.thoughts = true;
            let clock = Clock::default();
            out.push(
                self.searches
                    .start(&self.game, &clock, Mode::Timed, Purpose::Analysis),
            );
        }
        self.analysis = Some(analysis);
    }

    /// The `stat01` line that answers `.` in analyze mode.
    fn status(&self) -> Option<String> {
        let analysis = self.analysis.as_ref()?;
        let total = analysis.game.legal_moves().len();
        Some(match analysis.done {
            Some((cs, nodes)) => format!("stat01: {cs} {nodes} 1 0 {total}"),
            None => format!(
                "stat01: {} 0 1 {total} {total}",
                analysis.started.elapsed().as_millis() / 10
            ),
        })
    }

    fn pay_pongs(&mut self, out: &mut Vec<Action<ChessRules>>) {
        out.extend(self.pongs.drain(..).map(Action::Send));
    }

    /// The thinking output, comments and the move (or resignation) of a
    /// reply, rendered from its [`Answer`]; follows the game with the move
    /// when it is legal. An illegal move is flagged in a comment and never
    /// shown as thinking output.
    fn reply_lines(
        &mut self,
        judged: &JudgedReply<ChessRules>,
        answer: &Answer<ChessRules>,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        let (reply, verdict) = (&judged.reply, &judged.verdict);
        if self.post {
            let (thinking, notes) = candidate_lines(judged, answer.host);
            if thinking.is_empty() {
                let pv = match (&reply.played, &verdict.legal) {
                    (Played::Move(m), Some(_)) => Some(m),
                    _ => None,
                };
                lines.push(thinking_line(
                    reply.score.unwrap_or(0),
                    reply,
                    answer.host,
                    pv,
                ));
            }
            lines.extend(thinking);
            lines.extend(notes);
        }
        lines.push(format!("# {}", judged.detail));
        if let Some(rows) = &answer.screen {
            lines.extend(rows.iter().map(|r| format!("# screen {r}")));
        }
        match (&verdict.send, &verdict.problem, &reply.played) {
            (Some(m), None, _) => {
                lines.push(format!("move {m}"));
                if let Some(legal) = verdict.legal {
                    self.game.push(legal);
                }
                if let Some(ending) = self.game.ending() {
                    lines.push(claim(&ending));
                    self.force = true;
                }
            }
            (Some(m), Some(problem), _) => {
                lines.push(format!("# {problem}"));
                lines.push(format!("move {m}"));
                match verdict.follows {
                    // Legal by itself (the program's board went astray):
                    // the GUI plays it, and so does our game.
                    Some(follows) => {
                        self.game.push(follows);
                        if let Some(ending) = self.game.ending() {
                            lines.push(claim(&ending));
                            self.force = true;
                        }
                    }
                    // The GUI adjudicates; nothing sensible follows.
                    None => self.force = true,
                }
            }
            (None, Some(problem), Played::Move(_) | Played::Astray(_)) => {
                lines.push(format!("tellusererror {problem}"));
                lines.push("resign".to_string());
                self.force = true;
            }
            (None, problem, _) => {
                lines.push(format!("# {}", problem.as_deref().unwrap_or("no move")));
                lines.push("resign".to_string());
                self.force = true;
            }
        }
        lines
    }

    /// One line of `edit` mode: `c`, `#`, `Pe4`, `xe4`, `.`.
    fn edit_line(&mut self, line: &str, out: &mut Vec<Action<ChessRules>>) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match line {
            "c" => edit.color = !edit.color,
            "#" => edit.board = Board::empty(),
            "." => {
                let board = edit.board.clone();
                self.edit = None;
                match edited_position(board, self.game.position().turn()) {
                    Ok(pos) => self.game = Game::new(ChessRules, pos),
                    Err(why) => out.push(send(&format!("tellusererror Illegal position: {why}"))),
                }
            }
            _ => {
                let mut chars = line.chars();
                let piece = chars.next();
                let square = chars.as_str().parse::<Square>().ok();
                match (piece, square) {
                    (Some('x' | 'X'), Some(sq)) => {
                        edit.board.discard_piece_at(sq);
                    }
                    (Some(c), Some(sq)) if Role::from_char(c.to_ascii_lowercase()).is_some() => {
                        if let Some(role) = Role::from_char(c.to_ascii_lowercase()) {
                            edit.board.set_piece_at(
                                sq,
                                Piece {
                                    color: edit.color,
                                    role,
                                },
                            );
                        }
                    }
                    _ => out.push(send(&format!("Error (not an edit command): {line}"))),
                }
            }
        }
    }
}

impl FrontEnd<ChessRules> for Xboard {
    /// One line from the GUI; in analyze mode, then the analysis of the
    /// position the line left.
    fn line(&mut self, line: &str, out: &mut Vec<Action<ChessRules>>) {
        self.command(line, out);
        self.follow_analysis(out);
    }

    fn searched(&mut self, s: Searched<ChessRules>, out: &mut Vec<Action<ChessRules>>) {
        let Some((search, answer)) = self.searches.finished(s, out) else {
            return;
        };
        if search.discarded {
            return;
        }
        if search.extra == Purpose::Analysis {
            let lines = analysis_lines(&answer);
            out.extend(lines.into_iter().map(Action::Send));
            if let Some(analysis) = &mut self.analysis {
                let nodes = answer.outcome.as_ref().map_or(0, |j| j.reply.nodes);
                analysis.done = Some((answer.host.as_millis() / 10, nodes));
            }
            return;
        }
        let lines = match &answer.outcome {
            Ok(judged) => self.reply_lines(judged, &answer),
            Err(e) => {
                self.force = true;
                vec![format!("# the engine failed: {e}"), "resign".to_string()]
            }
        };
        if self
            .searches
            .deliver(&search, lines, answer.authentic(), answer.host, out)
        {
            self.pay_pongs(out);
        }
    }

    fn engine_ready(&mut self, _out: &mut Vec<Action<ChessRules>>) {
        self.searches.set_up();
    }

    fn not_recreated(&mut self, error: &EngineError, out: &mut Vec<Action<ChessRules>>) {
        out.push(send(&format!(
            "tellusererror cannot restart the engine: {error}"
        )));
    }

    fn woken(&mut self, token: u64, out: &mut Vec<Action<ChessRules>>) {
        if self.searches.wake(token, out) {
            self.pay_pongs(out);
        }
    }
}

fn send(line: &str) -> Action<ChessRules> {
    Action::Send(line.to_string())
}

/// A thinking line, `ply score time nodes pv`: ply 1, the whole search's
/// time (centiseconds) and nodes.
fn thinking_line(
    score: i32,
    reply: &Reply<UciMove>,
    host: Duration,
    pv: Option<&UciMove>,
) -> String {
    let cs = host.as_millis() / 10;
    let line = format!("1 {score} {cs} {}", reply.nodes);
    match pv {
        Some(m) => format!("{line} {m}"),
        None => line,
    }
}

/// The program's candidates: a thinking line for each legal one, the
/// program's choice last, and `#` comments for the illegal ones, the ties
/// among the legal ones and the count. Nothing without candidates.
fn candidate_lines(judged: &JudgedReply<ChessRules>, host: Duration) -> (Vec<String>, Vec<String>) {
    let (Some(all), Some(thoughts)) = (&judged.candidates, &judged.reply.thoughts) else {
        return Default::default();
    };
    let legal = judged.legal_candidates();
    let thinking = legal
        .iter()
        .rev()
        .map(|w| thinking_line(w.candidate.score, &judged.reply, host, w.legal()))
        .collect();
    let notes = candidate_notes(
        all,
        &legal,
        thoughts.tie_break,
        |w| w.candidate.wire.to_string(),
        |score| score.to_string(),
    );
    let notes = notes.iter().map(|n| format!("# {n}")).collect();
    (thinking, notes)
}

/// What analyze mode sends for a finished search of `game`: the
/// candidates' thinking lines and comments, or the program's move as the
/// one line and why there are no candidates; then the retro detail. Never
/// a move.
fn analysis_lines(answer: &Answer<ChessRules>) -> Vec<String> {
    let judged = match &answer.outcome {
        Ok(judged) => judged,
        Err(e) => return vec![format!("# the engine failed: {e}")],
    };
    let (reply, verdict) = (&judged.reply, &judged.verdict);
    let (thinking, notes) = candidate_lines(judged, answer.host);
    let mut lines = Vec::new();
    if thinking.is_empty()
        && let (Played::Move(m), Some(_)) = (&reply.played, &verdict.legal)
    {
        lines.push(thinking_line(
            reply.score.unwrap_or(0),
            reply,
            answer.host,
            Some(m),
        ));
    }
    lines.extend(thinking);
    lines.extend(notes);
    if let Some(problem) = &verdict.problem {
        lines.push(format!("# the program's move: {problem}"));
    }
    if reply.thoughts.is_none() {
        lines.push(format!("# no candidates: {}", no_thoughts(reply)));
    }
    lines.push(format!("# {}", judged.detail));
    if let Some(rows) = &answer.screen {
        lines.extend(rows.iter().map(|r| format!("# screen {r}")));
    }
    lines
}

/// The result claim CECP expects, `1-0 {White mates}`.
fn claim(ending: &Ending) -> String {
    let comment = match (ending.reason, ending.result) {
        (EndReason::Checkmate, GameResult::Win(Color::White)) => "White mates",
        (EndReason::Checkmate, _) => "Black mates",
        (EndReason::Stalemate, _) => "Stalemate",
        (EndReason::InsufficientMaterial, _) => "Insufficient material",
        (EndReason::FiftyMoves, _) => "Draw by fifty-move rule",
        (EndReason::Repetition, _) => "Draw by repetition",
        (other, _) => other.words(),
    };
    format!("{} {{{comment}}}", ending.result.pgn())
}

/// Seconds from the GUI as a duration: `None` unless finite and not
/// negative; beyond what a `Duration` holds (`st 1e300`), the longest one.
fn seconds(secs: f64) -> Option<Duration> {
    (secs.is_finite() && secs >= 0.0)
        .then(|| Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX))
}

/// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds.
// String error: a leaf parser whose message is the whole `Error (...)` reply to the GUI.
fn parse_level(arg: &str) -> Result<CecpLevel, String> {
    let words: Vec<&str> = arg.split_whitespace().collect();
    let [mps, base, inc] = words.as_slice() else {
        return Err("level needs moves, base and increment".to_string());
    };
    let moves = mps
        .parse::<u32>()
        .map_err(|_| format!("bad number of moves {mps:?}"))?;
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let m = m.parse::<u64>().map_err(|_| format!("bad minutes {m:?}"))?;
            let s = s.parse::<u64>().map_err(|_| format!("bad seconds {s:?}"))?;
            Duration::from_secs(m.saturating_mul(60).saturating_add(s))
        }
        None => base
            .parse::<f64>()
            .ok()
            .and_then(seconds)
            .map(|minutes| minutes.saturating_mul(60))
            .ok_or(format!("bad minutes {base:?}"))?,
    };
    let increment = inc
        .parse::<f64>()
        .ok()
        .and_then(seconds)
        .ok_or(format!("bad increment {inc:?}"))?;
    Ok(CecpLevel {
        moves,
        base,
        increment,
    })
}

/// Why a `setboard` FEN or an `edit` board was refused (shakmaty's reason).
#[derive(Debug)]
enum SetupError {
    Fen(shakmaty::fen::ParseFenError),
    Position(Box<shakmaty::PositionError<Chess>>),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Fen(e) => e.fmt(f),
            SetupError::Position(e) => e.fmt(f),
        }
    }
}

/// A FEN for `setboard`.
fn setboard(fen: &str) -> Result<Chess, SetupError> {
    let parsed: Fen = fen.parse().map_err(SetupError::Fen)?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| SetupError::Position(Box::new(e)))
}

/// The position an `edit` session made: castling where king and rook stand
/// on their squares (as CECP assumes), no en passant.
fn edited_position(board: Board, turn: Color) -> Result<Chess, SetupError> {
    let mut rights = Bitboard::EMPTY;
    for (color, king, rooks) in [
        (Color::White, Square::E1, [Square::A1, Square::H1]),
        (Color::Black, Square::E8, [Square::A8, Square::H8]),
    ] {
        if board.piece_at(king)
            == Some(Piece {
                color,
                role: Role::King,
            })
        {
            for rook in rooks {
                if board.piece_at(rook)
                    == Some(Piece {
                        color,
                        role: Role::Rook,
                    })
                {
                    rights.add(rook);
                }
            }
        }
    }
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None::<ByColor<_>>,
        turn,
        castling_rights: rights,
        ep_square: None,
        remaining_checks: None,
        halfmoves: 0,
        fullmoves: std::num::NonZeroU32::MIN,
    };
    Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| SetupError::Position(Box::new(e)))
}

/// A word shaped like a coordinate move (`e2e4`, `e7e8q`).
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
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
        feed, made_of, search_request as request, searched, sent, test_thoughts,
    };

    type Action = super::Action<ChessRules>;
    type Input = crate::protocol::events::Input<ChessRules>;
    type Played = super::Played<UciMove>;

    fn xboard() -> Xboard {
        let (info, settings) = made_of("1k-zx-chess");
        Xboard::new(info, settings)
    }

    fn search_id(actions: &[Action]) -> Option<u64> {
        request(actions).map(|r| r.id)
    }

    fn reply(id: u64, played: Played) -> Input {
        let reply = Reply {
            played,
            score: Some(-100),
            thoughts: None,
            nodes: 25,
            tstates: 5_000_000,
            authentic: Duration::from_secs(6),
            path: InputPath::Typed("2E4E".into()),
        };
        searched(id, reply, Duration::from_millis(20))
    }

    fn mv(uci: &str) -> Played {
        Played::Move(uci.parse().unwrap())
    }

    /// Candidates as a driver reports them: (move, raw) in the order the
    /// program weighed them; the score is ten times the raw number.
    fn thoughts(weighed: &[(&str, i32)], ties: Ties) -> Thoughts<UciMove> {
        test_thoughts(weighed, |raw| 10 * raw, ties)
    }

    /// A reply of `played` with `thoughts`.
    fn thinking(id: u64, played: Played, thoughts: Option<Thoughts<UciMove>>) -> Input {
        let Input::Searched(mut s) = reply(id, played) else {
            unreachable!()
        };
        if let Ok(r) = &mut s.result {
            r.thoughts = thoughts;
        }
        Input::Searched(s)
    }

    /// After 1. e4: e7e5 and d7d5 tie (the program keeps the first), e8e7
    /// is illegal though the program likes it best, g8f6 and b8a6 follow.
    fn after_e4() -> Thoughts<UciMove> {
        thoughts(
            &[
                ("b8a6", 1),
                ("e7e5", 7),
                ("e8e7", 9),
                ("d7d5", 7),
                ("g8f6", 4),
            ],
            Ties::KeepsFirst,
        )
    }

    /// Lines read into typed commands, and the errors sent for bad ones.
    #[test]
    fn lines_parse_into_commands() {
        assert_eq!(parse("  \t "), Ok(None));
        assert_eq!(
            parse(" level 40 0:30 2 "),
            Ok(Some(CecpCommand::Level(CecpLevel {
                moves: 40,
                base: Duration::from_secs(30),
                increment: Duration::from_secs(2),
            })))
        );
        assert_eq!(
            parse("time 1234"),
            Ok(Some(CecpCommand::Time(Duration::from_millis(12340))))
        );
        assert_eq!(parse("remove"), Ok(Some(CecpCommand::TakeBack(2))));
        assert_eq!(parse("black"), Ok(Some(CecpCommand::Colour(Color::Black))));
        assert_eq!(
            parse("e7e8q"),
            Ok(Some(CecpCommand::BareMove("e7e8q".to_string())))
        );
        assert_eq!(
            parse("sd 7"),
            Ok(Some(CecpCommand::FixedThinking("sd 7".to_string())))
        );
        let error = |line: &str| parse(line).unwrap_err().to_string();
        assert_eq!(error("st 0"), "Error (bad number of seconds): st 0");
        assert_eq!(
            error("otim x"),
            "Error (bad number of centiseconds): otim x"
        );
        assert_eq!(error("nps -1"), "Error (bad number): nps -1");
        assert_eq!(
            error("level 40 5"),
            "Error (level needs moves, base and increment): level 40 5"
        );
        assert_eq!(
            error("variant suicide"),
            "Error (unsupported variant): suicide"
        );
        assert_eq!(error("e2e4 e7e5"), "Error (unknown command): e2e4 e7e5");
    }

    /// The start of a session as xboard 4.9 and cutechess send it.
    #[test]
    fn handshake_and_commands_that_need_no_engine() {
        let mut x = xboard();
        assert!(sent(&feed(&mut x, "xboard")).is_empty());
        let features = sent(&feed(&mut x, "protover 2"));
        assert_eq!(features.first().unwrap(), "feature done=0");
        assert_eq!(features.last().unwrap(), "feature done=1");
        let f = &features[1];
        for want in [
            "myname=\"1K ZX Chess (David Horne 1982) via retrochess",
            "ping=1",
            "setboard=1",
            "usermove=1",
            "san=0",
            "sigint=0",
            "sigterm=0",
            "reuse=1",
            "colors=0",
            "analyze=1",
            "variants=\"normal\"",
        ] {
            assert!(f.contains(want), "{want} in {f}");
        }
        assert!(
            features
                .contains(&"feature option=\"IllegalMoves -combo *play /// resign\"".to_string())
        );
        let table: &[(&str, &[&str])] = &[
            ("accepted usermove", &[]),
            ("accepted ping", &[]),
            ("new", &[]),
            ("random", &[]),
            ("level 40 5 0", &[]),
            ("level 0 2:30 1.5", &[]),
            (
                "level 40",
                &["Error (level needs moves, base and increment): level 40"],
            ),
            ("st 10", &[]),
            ("st x", &["Error (bad number of seconds): st x"]),
            ("sd 4", &[]),
            ("nps 1000", &[]),
            ("hard", &[]),
            ("easy", &[]),
            ("post", &[]),
            ("nopost", &[]),
            ("computer", &[]),
            ("name Fritz", &[]),
            ("rating 2100 1800", &[]),
            ("time 30000", &[]),
            ("otim 30000", &[]),
            (
                "time soon",
                &["Error (bad number of centiseconds): time soon"],
            ),
            ("ping 7", &["pong 7"]),
            ("option IllegalMoves=resign", &[]),
            (
                "option Seed=abc",
                &[
                    "Error (option Seed: \"abc\" is not a number from 0 to 2147483647): option Seed=abc",
                ],
            ),
            ("variant suicide", &["Error (unsupported variant): suicide"]),
            ("e2e4", &["Error (unknown command): e2e4"]),
            (
                "usermove e2e5",
                &[
                    "Illegal move (not a legal pawn move from e2 to e5: the pawn cannot advance that far): e2e5",
                ],
            ),
            ("usermove e2", &["Illegal move (not a coordinate move): e2"]),
            ("undo", &["Error (no moves to take back): undo"]),
            (
                "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
                &["tellusererror Illegal position: illegal position: empty board, missing king"],
            ),
            (
                "setboard nonsense",
                &["tellusererror Illegal position: invalid"],
            ),
            ("", &[]),
        ];
        for (line, want) in table {
            let got = sent(&feed(&mut x, line));
            let got: Vec<&str> = got.iter().map(|s| s.as_str()).collect();
            if line.starts_with("setboard nonsense") {
                assert!(got[0].starts_with(want[0]), "{line}: {got:?}");
            } else {
                assert_eq!(&got, want, "{line}");
            }
        }
        assert_eq!(x.searches.settings.illegal, IllegalPolicy::Resign);
        assert_eq!(x.game.moves().len(), 0, "nothing changed");
        assert_eq!(feed(&mut x, "quit"), [Action::Quit]);
    }

    #[test]
    fn moves_pings_and_thinking_output() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "new");
        feed(&mut x, "post");
        let id = search_id(&feed(&mut x, "usermove e2e4")).expect("the engine plays Black");
        assert!(
            sent(&feed(&mut x, "ping 3")).is_empty(),
            "pong waits for the move"
        );
        let lines = sent(&x.handle(reply(id, mv("e7e5"))));
        assert_eq!(lines[0], "1 -100 2 25 e7e5");
        assert!(lines[1].starts_with("# 5000000 T-states"));
        assert_eq!(&lines[2..], ["move e7e5", "pong 3"]);
        assert_eq!(
            sent(&feed(&mut x, "ping 4")),
            ["pong 4"],
            "not thinking: at once"
        );
        // force, undo/remove, then go.
        feed(&mut x, "force");
        feed(&mut x, "usermove g1f3");
        feed(&mut x, "remove");
        assert_eq!(x.game.moves().len(), 1);
        feed(&mut x, "undo");
        assert_eq!(x.game.moves().len(), 0);
        let id = search_id(&feed(&mut x, "go")).expect("go thinks for White");
        assert_eq!(x.engine, Color::White);
        // A stale reply of a discarded search changes nothing.
        feed(&mut x, "force");
        assert!(sent(&x.handle(reply(id, mv("d2d4")))).is_empty());
        assert_eq!(x.game.moves().len(), 0);
        // playother: the engine takes the side not on move.
        feed(&mut x, "playother");
        assert_eq!(x.engine, Color::Black);
        let id = search_id(&feed(&mut x, "usermove d2d4")).unwrap();
        let lines = sent(&x.handle(reply(id, mv("d7d5"))));
        assert_eq!(lines.last().unwrap(), "move d7d5");
        assert_eq!(x.game.moves().len(), 2);
    }

    /// `post` in a game: every legal candidate as a thinking line, the
    /// program's choice last; the illegal one, the tie and the count as
    /// comments; then the move.
    #[test]
    fn post_shows_the_candidates_before_the_move() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "new");
        let actions = feed(&mut x, "usermove e2e4");
        assert!(!request(&actions).unwrap().thoughts, "nopost: none asked");
        feed(&mut x, "force");
        feed(&mut x, "undo");
        feed(&mut x, "post");
        feed(&mut x, "playother");
        let actions = feed(&mut x, "usermove e2e4");
        let r = request(&actions).unwrap();
        assert!(r.thoughts, "post asks for the candidates");
        let lines = sent(&x.handle(thinking(r.id, mv("e7e5"), Some(after_e4()))));
        assert_eq!(
            &lines[..4],
            [
                "1 10 2 25 b8a6",
                "1 40 2 25 g8f6",
                "1 70 2 25 d7d5",
                "1 70 2 25 e7e5",
            ]
        );
        assert_eq!(
            lines[4],
            "# candidate e8e7 (the program's 1st, score 90) is illegal: \
             not a legal king move from e8 to e7: e7 is occupied by its own pawn",
            "{lines:?}"
        );
        assert_eq!(
            &lines[5..8],
            [
                "# ties: the test's rule",
                "# equal score 70 for e7e5, d7d5: the program prefers e7e5",
                "# 5 candidates weighed, 4 legal",
            ]
        );
        assert!(lines[8].starts_with("# 5000000 T-states"), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "move e7e5");
        assert!(
            !lines
                .iter()
                .any(|l| l.ends_with(" e8e7") && !l.starts_with('#'))
        );
        // Only illegal candidates: the one line of the move, as without.
        feed(&mut x, "force");
        feed(&mut x, "undo");
        let id = search_id(&feed(&mut x, "go")).unwrap();
        let only = thoughts(&[("e1e2", 3)], Ties::KeepsLast);
        let lines = sent(&x.handle(thinking(id, mv("e7e5"), Some(only))));
        assert!(lines[0].starts_with("1 -100 2 25"), "{lines:?}");
        assert!(lines[1].starts_with("# candidate e1e2 (the program's 1st, score 30) is illegal"));
        assert_eq!(lines[2], "# 1 candidates weighed, 0 legal");
    }

    /// Analyze mode: the candidates of the position on the board, again
    /// whenever it changes; `.` answered; never a move; `exit` is force mode.
    #[test]
    fn analyze_mode_follows_the_position() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "new");
        feed(&mut x, "usermove e2e4");
        let actions = feed(&mut x, "analyze");
        let r = request(&actions).expect("analyze searches at once");
        assert!(r.thoughts && r.game.moves().len() == 1);
        let id = r.id;
        let status = sent(&feed(&mut x, "."));
        let words: Vec<&str> = status[0].split_whitespace().collect();
        assert_eq!(words[0], "stat01:");
        assert!(words[1].parse::<u64>().is_ok(), "{status:?}");
        assert_eq!(&words[2..], ["0", "1", "20", "20"], "nothing weighed yet");
        assert_eq!(sent(&feed(&mut x, "ping 1")), ["pong 1"], "no move owed");
        let lines = sent(&x.handle(thinking(id, mv("e7e5"), Some(after_e4()))));
        assert_eq!(lines[3], "1 70 2 25 e7e5", "{lines:?}");
        assert!(lines[4].starts_with("# candidate e8e7"), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("# 5000000 T-states"));
        assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
        assert_eq!(x.game.moves().len(), 1, "the analysis moves nothing");
        assert_eq!(sent(&feed(&mut x, ".")), ["stat01: 2 25 1 0 20"]);
        // Nothing changes, nothing restarts.
        for line in ["post", "level 40 5 0", "force", "random"] {
            assert!(feed(&mut x, line).is_empty(), "{line}");
        }
        // Bad input: an error, and the analysis stands.
        for (line, error) in [
            ("usermove e7e4", "Illegal move (not a legal pawn move"),
            ("e9e4", "Error (unknown command): e9e4"),
            ("frobnicate", "Error (unknown command): frobnicate"),
            ("setboard 8/8/8 w", "tellusererror Illegal position"),
        ] {
            let actions = feed(&mut x, line);
            assert!(sent(&actions)[0].starts_with(error), "{line}: {actions:?}");
            assert!(request(&actions).is_none(), "{line}");
        }
        assert_eq!(sent(&feed(&mut x, ".")), ["stat01: 2 25 1 0 20"]);
        // Each change of position: a fresh analysis, the old one forgotten.
        let id = search_id(&feed(&mut x, "usermove e7e5")).expect("after a move");
        let stale = search_id(&feed(&mut x, "undo")).expect("after undo");
        assert!(stale > id);
        assert!(sent(&x.handle(reply(id, mv("g1f3")))).is_empty(), "stale");
        let r = feed(&mut x, "usermove e7e5");
        assert!(request(&r).is_some(), "a move again");
        let actions = feed(&mut x, "new");
        assert!(
            matches!(actions[0], Action::Job(Job::NewGame)),
            "{actions:?}"
        );
        let r = request(&actions).expect("new stays in analyze mode");
        assert!(r.game.moves().is_empty() && r.thoughts);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
        let r = feed(&mut x, &format!("setboard {fen}"));
        assert_eq!(request(&r).unwrap().game.legal_moves().len(), 32);
        assert!(request(&feed(&mut x, "edit")).is_none());
        assert!(request(&feed(&mut x, "xa8")).is_none());
        assert!(request(&feed(&mut x, ".")).is_some(), "edit's end");
        assert!(request(&feed(&mut x, "white")).is_some(), "White to move");
        // exit: force mode, no search, `.` unanswered.
        assert!(feed(&mut x, "exit").is_empty());
        assert!(x.force && x.analysis.is_none());
        assert!(feed(&mut x, ".").is_empty());
        assert!(request(&feed(&mut x, "usermove g1f3")).is_none());
    }

    #[test]
    fn analyze_mode_without_candidates() {
        let mut x = xboard();
        feed(&mut x, "new");
        let id = search_id(&feed(&mut x, "analyze")).unwrap();
        let Input::Searched(mut tape) = reply(id, mv("d2d3")) else {
            unreachable!()
        };
        if let Ok(r) = &mut tape.result {
            r.path = InputPath::Tape;
        }
        let lines = sent(&x.handle(Input::Searched(tape)));
        assert_eq!(lines[0], "1 -100 2 25 d2d3");
        assert_eq!(
            lines[1],
            "# no candidates: the program did not search: its move is the one stored on the tape"
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
        // An illegal move of the program: no pv, the reason.
        let id = search_id(&feed(&mut x, "usermove e2e4")).unwrap();
        let lines = sent(&x.handle(reply(id, mv("e8e7"))));
        assert!(
            lines[0].starts_with("# the program's move: illegal move e8e7"),
            "{lines:?}"
        );
        assert!(lines[1].contains("does not report the program's candidates"));
        let id = search_id(&feed(&mut x, "undo")).unwrap();
        let lines = sent(&x.handle(reply(id, Played::DeadEnd)));
        assert!(lines[0].contains("found no move"), "{lines:?}");
        let id = search_id(&feed(&mut x, "usermove d2d4")).unwrap();
        let failed = Input::Searched(Searched {
            id,
            result: Err(SearchError::Engine(EngineError::Unreadable("blank".into()))),
            host: Duration::ZERO,
            waited: Duration::ZERO,
            screen: None,
        });
        assert_eq!(
            sent(&x.handle(failed)),
            ["# the engine failed: cannot read the program's move: blank"]
        );
        assert_eq!(sent(&feed(&mut x, ".")), ["stat01: 0 0 1 0 20"]);
        // A finished game: nothing to search.
        let actions = feed(&mut x, "setboard R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert!(request(&actions).is_none());
        assert_eq!(
            sent(&actions),
            ["# nothing to analyse: the game is over (1-0 {White mates})"]
        );
        assert_eq!(sent(&feed(&mut x, ".")), ["stat01: 0 0 1 0 0"]);
    }

    /// `go` and `playother` leave analyze mode and do their work.
    #[test]
    fn go_leaves_analyze_mode() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "new");
        let analysis = search_id(&feed(&mut x, "analyze")).unwrap();
        let actions = feed(&mut x, "go");
        let r = request(&actions).expect("go thinks");
        assert!(!r.thoughts, "nopost: a plain search");
        assert!(x.analysis.is_none() && x.engine == Color::White);
        assert!(sent(&x.handle(reply(analysis, mv("e2e4")))).is_empty());
        let lines = sent(&x.handle(reply(r.id, mv("d2d4"))));
        assert_eq!(lines.last().unwrap(), "move d2d4");
        feed(&mut x, "analyze");
        assert!(feed(&mut x, "playother").is_empty());
        assert!(x.analysis.is_none() && x.engine == Color::White);
        assert!(search_id(&feed(&mut x, "usermove e7e5")).is_some());
    }

    /// python-chess rejects `sigterm` at every start: a debug line, no note
    /// on stderr; a rejected `sigint` still gets a word.
    #[test]
    fn rejected_features_go_to_the_debug_log() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        assert_eq!(
            feed(&mut x, "rejected sigterm"),
            [Action::Debug("the GUI rejected feature sigterm".into())]
        );
        assert_eq!(
            feed(&mut x, "rejected sigint"),
            [Action::Note(
                "the GUI rejected feature sigint: a SIGINT from it would end the engine".into()
            )]
        );
    }

    #[test]
    fn bare_moves_when_usermove_is_refused() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "rejected usermove");
        feed(&mut x, "new");
        feed(&mut x, "force");
        assert!(sent(&feed(&mut x, "e2e4")).is_empty());
        assert_eq!(
            sent(&feed(&mut x, "e2e4")),
            ["Illegal move (no piece on e2): e2e4"]
        );
        assert_eq!(
            sent(&feed(&mut x, "e9e4")),
            ["Error (unknown command): e9e4"]
        );
        assert_eq!(x.game.moves().len(), 1);
    }

    #[test]
    fn illegal_replies_dead_ends_and_claims() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "new");
        feed(&mut x, "force");
        feed(&mut x, "setboard 4k3/8/8/6B1/8/8/8/R3K3 b - - 0 1");
        let id = search_id(&feed(&mut x, "go")).unwrap();
        let lines = sent(&x.handle(reply(id, mv("e8d8"))));
        assert_eq!(
            &lines[1..],
            [
                "# illegal move e8d8: king moves into check from g5 bishop",
                "move e8d8"
            ]
        );
        feed(&mut x, "option IllegalMoves=resign");
        let id = search_id(&feed(&mut x, "go")).unwrap();
        let lines = sent(&x.handle(reply(id, mv("e8d8"))));
        assert_eq!(
            &lines[1..],
            [
                "tellusererror illegal move e8d8: king moves into check from g5 bishop",
                "resign"
            ]
        );
        let id = search_id(&feed(&mut x, "go")).unwrap();
        let lines = sent(&x.handle(reply(id, Played::DeadEnd)));
        assert!(
            lines[1].starts_with("# the program found no move"),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "resign");
        // The engine mates: the claim follows the move.
        feed(&mut x, "new");
        feed(&mut x, "force");
        feed(&mut x, "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let id = search_id(&feed(&mut x, "go")).unwrap();
        assert_eq!(
            sent(&x.handle(reply(id, mv("a1a8")))).last().unwrap(),
            "1-0 {White mates}"
        );
        // Mated before it moves: the claim, no search.
        feed(&mut x, "new");
        for m in ["f2f3", "e7e5", "g2g4"] {
            let _ = feed(&mut x, &format!("usermove {m}"));
            feed(&mut x, "force");
        }
        feed(&mut x, "usermove d8h4");
        let actions = feed(&mut x, "go");
        assert!(search_id(&actions).is_none());
        assert_eq!(sent(&actions), ["0-1 {Black mates}"]);
    }

    #[test]
    fn edit_mode_and_protocol_1_colours() {
        let mut x = xboard();
        feed(&mut x, "new");
        feed(&mut x, "force");
        for line in [
            "edit", "#", "Ke1", "Ra1", "Rh1", "c", "Ke8", "Pe7", "xe7", "Qd8", "Zz9",
        ] {
            let got = sent(&feed(&mut x, line));
            if line == "Zz9" {
                assert_eq!(got, ["Error (not an edit command): Zz9"]);
            } else {
                assert!(got.is_empty(), "{line}: {got:?}");
            }
        }
        assert!(sent(&feed(&mut x, ".")).is_empty());
        assert_eq!(
            Fen::from_position(x.game.position(), shakmaty::EnPassantMode::Legal).to_string(),
            "3qk3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
        );
        feed(&mut x, "black");
        assert_eq!(x.game.position().turn(), Color::Black);
        assert_eq!(x.engine, Color::White);
        feed(&mut x, "white");
        assert_eq!(x.game.position().turn(), Color::White);
        assert_eq!(x.engine, Color::Black);
        // An edit that leaves no king is refused; the position stays.
        for line in ["edit", "#", "Ke1", "."] {
            let got = sent(&feed(&mut x, line));
            if line == "." {
                assert!(
                    got[0].starts_with("tellusererror Illegal position"),
                    "{got:?}"
                );
            }
        }
        assert_eq!(x.game.position().board().occupied().count(), 5);
    }

    #[test]
    fn authentic_timing_holds_the_move_and_the_pong() {
        let mut x = xboard();
        feed(&mut x, "protover 2");
        feed(&mut x, "accepted usermove");
        feed(&mut x, "option AuthenticTiming=1");
        feed(&mut x, "new");
        feed(&mut x, "st 2");
        let id = search_id(&feed(&mut x, "usermove e2e4")).unwrap();
        let actions = x.handle(reply(id, mv("e7e5")));
        assert!(sent(&actions).is_empty());
        assert!(
            actions
                .iter()
                .any(|a| matches!(a, Action::WakeAfter(d, _) if *d == Duration::from_millis(1950)))
        );
        assert!(sent(&feed(&mut x, "ping 9")).is_empty());
        let lines = sent(&feed(&mut x, "?"));
        assert_eq!(&lines[lines.len() - 2..], ["move e7e5", "pong 9"]);
    }
}
