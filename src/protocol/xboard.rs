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
//! `pong` follows the move, as the protocol orders it. With `post`, the
//! thinking line `ply score time nodes pv` is the UCI `info` line in CECP
//! units (time in centiseconds), followed by `#` comments with the retro
//! detail.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup,
    Square,
};

use super::desk::{Desk, Mode};
use super::session::{self, Action, Change, Clock, Input, Job, Searched, Settings};
use crate::engines::{EngineInfo, OptionKind, Played, Reply};
use crate::rules::chess::ChessRules;
use crate::rules::{EndReason, Ending, Game, GameResult, Verdict};

type Action_ = Action<ChessRules>;

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Level {
    moves: u32,
    base: Duration,
    increment: Duration,
}

/// The board being edited after `edit`.
#[derive(Clone, Debug)]
struct Edit {
    board: Board,
    color: Color,
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
    level: Option<Level>,
    move_time: Option<Duration>,
    desk: Desk<ChessRules, ()>,
    /// `pong`s owed after the move being thought about.
    pongs: Vec<String>,
    edit: Option<Edit>,
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
            desk: Desk::new(settings),
            pongs: Vec::new(),
            edit: None,
        }
    }

    /// Reacts to one input.
    pub fn handle(&mut self, input: Input<ChessRules>) -> Vec<Action_> {
        let mut out = Vec::new();
        match input {
            Input::Line(line) => self.line(&line, &mut out),
            Input::Eof => out.push(Action::Quit),
            Input::Searched(s) => self.searched(s, &mut out),
            Input::Recreated(Ok(())) => {}
            Input::Recreated(Err(e)) => out.push(send(&format!(
                "tellusererror cannot restart the engine: {e}"
            ))),
            Input::Wake(token) => {
                if self.desk.wake(token, &mut out) {
                    self.pay_pongs(&mut out);
                }
            }
        }
        out
    }

    /// Is the program on move with a reply still to come?
    fn thinking(&self) -> bool {
        self.desk.busy()
    }

    fn line(&mut self, line: &str, out: &mut Vec<Action_>) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        if self.edit.is_some() {
            self.edit_line(line, out);
            return;
        }
        let (command, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match command {
            "xboard" => {}
            "protover" => self.features(out),
            "accepted" => {
                if arg == "usermove" {
                    self.usermove = true;
                }
            }
            "rejected" => {
                if arg == "usermove" {
                    self.usermove = false;
                }
                out.push(Action::Note(format!("the GUI rejected feature {arg}")));
            }
            "new" => self.new_game(out),
            "variant" => {
                if arg != "normal" {
                    out.push(send(&format!("Error (unsupported variant): {arg}")));
                }
            }
            "force" => {
                self.stop_thinking(out);
                self.force = true;
            }
            "go" => {
                self.stop_thinking(out);
                self.force = false;
                self.engine = self.game.position().turn();
                self.think(out);
            }
            "playother" => {
                self.stop_thinking(out);
                self.force = false;
                self.engine = !self.game.position().turn();
            }
            "white" | "black" => self.protocol_1_colour(command, out),
            "level" | "st" | "time" | "otim" => self.time_command(command, arg, line, out),
            "sd" | "nps" => {
                if arg.parse::<u64>().is_err() {
                    out.push(send(&format!("Error (bad number): {line}")));
                } else {
                    out.push(Action::Note(format!(
                        "{line}: ignored, the program thinks its own fixed way"
                    )));
                }
            }
            "usermove" => self.user_move(arg, out),
            "?" => {
                if self.desk.release(out) {
                    self.pay_pongs(out);
                }
            }
            "ping" => {
                let pong = format!("pong {arg}");
                if self.thinking() {
                    self.pongs.push(pong);
                } else {
                    out.push(send(&pong));
                }
            }
            "undo" | "remove" => {
                let n = if command == "undo" { 1 } else { 2 };
                if self.game.moves().len() < n {
                    out.push(send(&format!("Error (no moves to take back): {command}")));
                } else {
                    self.stop_thinking(out);
                    for _ in 0..n {
                        self.game.pop();
                    }
                }
            }
            "result" => {
                self.stop_thinking(out);
                self.force = true;
            }
            "setboard" => {
                self.stop_thinking(out);
                match setboard(arg) {
                    Ok(pos) => self.game = Game::new(ChessRules, pos),
                    Err(why) => out.push(send(&format!("tellusererror Illegal position: {why}"))),
                }
            }
            "edit" => {
                self.stop_thinking(out);
                self.edit = Some(Edit {
                    board: self.game.position().board().clone(),
                    color: Color::White,
                });
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" | "easy" | "random" | "computer" | "name" | "rating" | "ics" | "draw"
            | "hint" | "bk" | "memory" | "cores" | "egtpath" | "." | "exit" => {}
            "option" => self.option(arg, out),
            "quit" => out.push(Action::Quit),
            _ if !self.usermove && looks_like_move(command) && arg.is_empty() => {
                self.user_move(command, out)
            }
            _ => out.push(send(&format!("Error (unknown command): {line}"))),
        }
    }

    fn new_game(&mut self, out: &mut Vec<Action_>) {
        self.stop_thinking(out);
        self.game = Game::initial(ChessRules);
        self.force = false;
        self.engine = Color::Black;
        self.move_time = None;
        self.own_time = None;
        out.push(Action::Job(Job::NewGame));
    }

    /// Protocol 1's `white`/`black`: this side on move, the engine plays the
    /// other.
    fn protocol_1_colour(&mut self, command: &str, out: &mut Vec<Action_>) {
        // Protocol 1: this side on move, the engine plays the other.
        self.stop_thinking(out);
        let turn = if command == "white" {
            Color::White
        } else {
            Color::Black
        };
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
                    "Error (impossible with {command} to move): {e}"
                ))),
            }
        }
        self.engine = !turn;
    }

    /// `level`, `st`, `time`, `otim`: the clock.
    fn time_command(&mut self, command: &str, arg: &str, line: &str, out: &mut Vec<Action_>) {
        match command {
            "level" => match parse_level(arg) {
                Ok(level) => self.level = Some(level),
                Err(why) => out.push(send(&format!("Error ({why}): {line}"))),
            },
            "st" => match arg
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0)
                .and_then(seconds)
            {
                Some(time) => self.move_time = Some(time),
                None => out.push(send(&format!("Error (bad number of seconds): {line}"))),
            },
            "time" | "otim" => match arg.parse::<i64>() {
                Ok(cs) => {
                    if command == "time" {
                        let ms = (cs.max(0) as u64).saturating_mul(10);
                        self.own_time = Some(Duration::from_millis(ms));
                    }
                }
                Err(_) => out.push(send(&format!("Error (bad number of centiseconds): {line}"))),
            },
            _ => {}
        }
    }

    fn features(&self, out: &mut Vec<Action_>) {
        out.push(send("feature done=0"));
        out.push(send(&format!(
            "feature myname=\"{}\" ping=1 setboard=1 usermove=1 san=0 time=1 draw=0 sigint=0 sigterm=0 \
             reuse=1 analyze=0 colors=0 playother=1 variants=\"normal\" name=0 nps=0 debug=1",
            session::display_name(self.info).replace('"', "'")
        )));
        for spec in self.desk.settings.specs() {
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

    fn option(&mut self, arg: &str, out: &mut Vec<Action_>) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (arg.trim(), None),
        };
        match self.desk.settings.set(name, value) {
            Ok(Change::Value) => {}
            Ok(Change::Recreate) => out.push(Action::Job(Job::Recreate(
                self.desk.settings.engine.clone(),
            ))),
            Err(why) => out.push(send(&format!("Error ({why}): option {arg}"))),
        }
    }

    /// The opponent's move (or, in force mode, either side's).
    fn user_move(&mut self, text: &str, out: &mut Vec<Action_>) {
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
                if !self.force && self.game.position().turn() == self.engine {
                    self.think(out);
                }
            }
        }
    }

    /// The engine is on move: claim the end if the game is over, otherwise
    /// ask the program.
    fn think(&mut self, out: &mut Vec<Action_>) {
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
        let job = self.desk.start(&self.game, &clock, Mode::Timed, ());
        out.push(job);
    }

    /// Forgets the move being thought about and pays the pongs owed.
    fn stop_thinking(&mut self, out: &mut Vec<Action_>) {
        self.desk.discard();
        self.pay_pongs(out);
    }

    fn pay_pongs(&mut self, out: &mut Vec<Action_>) {
        out.extend(self.pongs.drain(..).map(Action::Send));
    }

    fn searched(&mut self, s: Searched<ChessRules>, out: &mut Vec<Action_>) {
        let Some(search) = self.desk.finished(&s) else {
            return;
        };
        if search.discarded {
            return;
        }
        let (lines, authentic) = match &s.result {
            Ok(reply) => (self.reply_lines(reply, &s), reply.authentic),
            Err(e) => {
                self.force = true;
                (
                    vec![format!("# the engine failed: {e}"), "resign".to_string()],
                    Duration::ZERO,
                )
            }
        };
        if self.desk.deliver(&search, lines, authentic, s.host, out) {
            self.pay_pongs(out);
        }
    }

    /// The thinking output, comments and the move (or resignation) of a
    /// reply; follows the game with the move when it is legal. An illegal
    /// move is flagged in a comment and never shown as thinking output.
    fn reply_lines(&mut self, reply: &Reply<UciMove>, s: &Searched<ChessRules>) -> Vec<String> {
        let mut lines = Vec::new();
        let judged = session::judge_reply(
            &ChessRules,
            self.game.position(),
            &reply.played,
            self.desk.settings.illegal,
        );
        if self.post {
            let pv = match (&reply.played, &judged.legal) {
                (Played::Move(m), Some(_)) => m.to_string(),
                _ => String::new(),
            };
            let cs = s.host.as_millis() / 10;
            lines.push(
                format!("1 {} {cs} {} {pv}", reply.score.unwrap_or(0), reply.nodes)
                    .trim_end()
                    .to_string(),
            );
        }
        lines.push(format!("# {}", session::describe(reply, s.host)));
        if let Some(rows) = &s.screen {
            lines.extend(rows.iter().map(|r| format!("# screen {r}")));
        }
        match (&judged.send, &judged.problem, &reply.played) {
            (Some(m), None, _) => {
                lines.push(format!("move {m}"));
                if let Some(legal) = judged.legal {
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
                // The GUI adjudicates; nothing sensible follows.
                self.force = true;
            }
            (None, Some(problem), Played::Move(_)) => {
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
    fn edit_line(&mut self, line: &str, out: &mut Vec<Action_>) {
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

fn send(line: &str) -> Action_ {
    Action::Send(line.to_string())
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
fn parse_level(arg: &str) -> Result<Level, String> {
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
    Ok(Level {
        moves,
        base,
        increment,
    })
}

/// A FEN for `setboard`.
fn setboard(fen: &str) -> Result<Chess, String> {
    let parsed: Fen = fen.parse().map_err(|e| format!("{e}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{e}"))
}

/// The position an `edit` session made: castling where king and rook stand
/// on their squares (as CECP assumes), no en passant.
fn edited_position(board: Board, turn: Color) -> Result<Chess, String> {
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
    Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| e.to_string())
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
    use crate::engines::{self, EngineOptions, InputPath};
    use crate::protocol::session::{IllegalPolicy, sent};

    type Action = Action_;
    type Input = super::Input<ChessRules>;
    type Played = super::Played<UciMove>;

    fn xboard() -> Xboard {
        let entry = engines::entry("1k-zx-chess").unwrap();
        Xboard::new(entry.info, Settings::new(&entry, EngineOptions::default()))
    }

    fn feed(x: &mut Xboard, line: &str) -> Vec<Action> {
        x.handle(Input::Line(line.to_string()))
    }

    fn search_id(actions: &[Action]) -> Option<u64> {
        actions.iter().find_map(|a| match a {
            Action::Job(Job::Search(r)) => Some(r.id),
            _ => None,
        })
    }

    fn reply(id: u64, played: Played) -> Input {
        Input::Searched(Searched {
            id,
            result: Ok(Reply {
                played,
                score: Some(-100),
                thoughts: None,
                nodes: 25,
                tstates: 5_000_000,
                authentic: Duration::from_secs(6),
                path: InputPath::Typed("2E4E".into()),
            }),
            host: Duration::from_millis(20),
            screen: None,
        })
    }

    fn mv(uci: &str) -> Played {
        Played::Move(uci.parse().unwrap())
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
            "analyze=0",
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
            ("analyze", &["Error (unknown command): analyze"]),
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
        assert_eq!(x.desk.settings.illegal, IllegalPolicy::Resign);
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
