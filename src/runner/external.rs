//! External engines as players: a real subprocess speaking UCI or CECP, with
//! the timeouts and forfeits a match manager applies. A process that ends is
//! a "disconnect"; one that says nothing past its clock (plus a grace period)
//! "stalls"; one that sends a line longer than [`MAX_LINE`] "breaks the
//! protocol". Each loses the game, and the match goes on.
//!
//! The engine's output is read as bytes: text that is not UTF-8 is that
//! line's problem only (its bad bytes become U+FFFD, with a warning in the
//! log), so a stray Latin-1 `é` in an `id author` line costs nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use log::{debug, warn};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::clock::{MatchClock, TimeControl};
use super::player::{Player, Turn};
use crate::rules::Game;
use crate::rules::chess::ChessRules;

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

impl Proto {
    /// The game the protocol is for.
    pub fn game(self) -> crate::engines::GameKind {
        match self {
            Proto::Uci | Proto::Xboard => crate::engines::GameKind::Chess,
        }
    }
}

/// Extra time past an engine's clock before it is called stalled.
const GRACE: Duration = Duration::from_millis(1500);
/// Without a clock, how long an external engine is asked to think.
const MOVETIME_WITHOUT_CLOCK: Duration = Duration::from_millis(500);
/// How long a CECP engine may take to say `feature done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// The longest line an engine may send, newline excluded. UCI and CECP
/// lines are short (a long `info ... pv` is a few kilobytes); past this the
/// engine is at fault, and the runner's memory stays bounded.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the runner; past them the engine waits on its pipe.
const LINES_AHEAD: usize = 256;

/// What the reader thread heard from the engine.
#[derive(Debug, PartialEq, Eq)]
enum Heard {
    Line(String),
    /// A protocol fault, in words; nothing more is read.
    Fault(String),
}

enum Wait {
    Closed,
    Timeout,
    Fault(String),
}

/// A running external engine.
pub struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Heard>,
    proto: Proto,
    setboard: bool,
    usermove: bool,
    /// Moves of the current game already sent to a CECP engine.
    sent: usize,
    in_game: bool,
}

impl External {
    /// Starts the process and completes the protocol's handshake.
    ///
    /// # Errors
    /// The process cannot start, or does not complete the handshake within
    /// `startup`.
    pub fn start(
        name: &str,
        cmd: &str,
        args: &[String],
        proto: Proto,
        options: &[(String, String)],
        startup: Duration,
    ) -> Result<External, String> {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {name} ({cmd}): {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::sync_channel(LINES_AHEAD);
        let tag = name.to_string();
        std::thread::spawn(move || read_lines(stdout, &tx, &tag));
        let mut e = External {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            proto,
            setboard: false,
            usermove: false,
            sent: 0,
            in_game: false,
        };
        e.handshake(options, startup)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> bool {
        debug!(">{}: {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_ok()
    }

    /// The first line, within `timeout`, for which `pick` gives a value.
    fn wait_for<T>(
        &mut self,
        timeout: Duration,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Wait> {
        // A timeout past what an Instant can hold is no timeout.
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let line = match deadline {
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match line {
                Ok(Heard::Line(line)) => {
                    if let Some(v) = pick(line.trim()) {
                        return Ok(v);
                    }
                }
                Ok(Heard::Fault(why)) => return Err(Wait::Fault(why)),
                Err(RecvTimeoutError::Timeout) => return Err(Wait::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Wait::Closed),
            }
        }
    }

    fn handshake(&mut self, options: &[(String, String)], startup: Duration) -> Result<(), String> {
        let fail = |name: &str, what: &str, w: Wait| match w {
            Wait::Closed => format!("{name} exited before {what}"),
            Wait::Timeout => format!(
                "{name} did not answer {what} within {:.1} s",
                startup.as_secs_f64()
            ),
            Wait::Fault(why) => why,
        };
        match self.proto {
            Proto::Uci => {
                self.send("uci");
                self.wait_for(startup, |l| (l == "uciok").then_some(()))
                    .map_err(|w| fail(&self.name, "uci", w))?;
                for (k, v) in options {
                    self.send(&format!("setoption name {k} value {v}"));
                }
                self.send("isready");
                self.wait_for(startup, |l| (l == "readyok").then_some(()))
                    .map_err(|w| fail(&self.name, "isready", w))?;
            }
            Proto::Xboard => {
                self.send("xboard");
                self.send("protover 2");
                let mut accepted = Vec::new();
                let mut wait = FEATURE_WAIT;
                loop {
                    match self.wait_for(wait, |l| l.strip_prefix("feature ").map(str::to_string)) {
                        Ok(features) => {
                            let mut done = false;
                            for (k, v) in parse_features(&features) {
                                match k.as_str() {
                                    "done" if v == "1" => done = true,
                                    // done=0: the engine asks for more time.
                                    "done" => wait = startup,
                                    "setboard" => self.setboard = v == "1",
                                    "usermove" => self.usermove = v == "1",
                                    _ => {}
                                }
                                accepted.push(k);
                            }
                            for k in accepted.drain(..) {
                                self.send(&format!("accepted {k}"));
                            }
                            if done {
                                break;
                            }
                        }
                        // Protocol-1 engines send no features: go on.
                        Err(Wait::Timeout) => break,
                        Err(w) => return Err(fail(&self.name, "protover 2", w)),
                    }
                }
                for (k, v) in options {
                    self.send(&format!("option {k}={v}"));
                }
            }
        }
        Ok(())
    }

    fn outcome_of_wait(&self, w: Wait, clock: &MatchClock) -> Turn<UciMove> {
        match w {
            Wait::Closed => Turn::Disconnected(format!("{} disconnects", self.name)),
            Wait::Fault(why) => Turn::ProtocolFault(why),
            Wait::Timeout => Turn::Stalled(match clock.left {
                Some(left) => format!(
                    "{} stalls: no move within its {:.2} s left",
                    self.name,
                    left.as_secs_f64()
                ),
                None => format!("{} stalls", self.name),
            }),
        }
    }

    fn go_uci(
        &mut self,
        root: &Chess,
        moves: &[Move],
        clock: &MatchClock,
        other: &MatchClock,
        white: bool,
    ) -> Turn<UciMove> {
        if !self.in_game {
            self.in_game = true;
            self.send("ucinewgame");
            self.send("isready");
            if let Err(w) =
                self.wait_for(Duration::from_secs(10), |l| (l == "readyok").then_some(()))
            {
                return self.outcome_of_wait(w, clock);
            }
        }
        let mut line = match root == &Chess::default() {
            true => "position startpos".to_string(),
            false => format!(
                "position fen {}",
                Fen::from_position(root, EnPassantMode::Legal)
            ),
        };
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(&m.to_uci(CastlingMode::Standard).to_string());
            }
        }
        if !self.send(&line) {
            return Turn::Disconnected(format!("{} disconnects", self.name));
        }
        let go = match (clock.left, other.left) {
            (Some(mine), Some(theirs)) => {
                let (w, b) = if white {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                let ms = |d: Duration| d.as_millis();
                let mut go = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(w),
                    ms(b),
                    ms(clock.increment()),
                    ms(other.increment())
                );
                if let Some(n) = clock.moves_to_go() {
                    go.push_str(&format!(" movestogo {n}"));
                }
                go
            }
            _ => format!("go movetime {}", MOVETIME_WITHOUT_CLOCK.as_millis()),
        };
        self.send(&go);
        let limit = clock
            .left
            .unwrap_or(MOVETIME_WITHOUT_CLOCK)
            .saturating_add(GRACE);
        match self.wait_for(limit, |l| {
            l.strip_prefix("bestmove")
                .map(|r| r.split_whitespace().next().unwrap_or("").to_string())
        }) {
            Ok(best) if best == "0000" || best == "(none)" || best.is_empty() => {
                Turn::Resign(format!("{} has no move ({best})", self.name))
            }
            Ok(best) => match best.parse::<UciMove>() {
                Ok(uci) => Turn::Move {
                    wire: uci,
                    authentic: None,
                    comment: None,
                },
                Err(_) => Turn::Resign(format!("{} sent an unreadable move {best:?}", self.name)),
            },
            Err(w) => self.outcome_of_wait(w, clock),
        }
    }

    fn go_xboard(
        &mut self,
        root: &Chess,
        moves: &[Move],
        clock: &MatchClock,
        other: &MatchClock,
    ) -> Turn<UciMove> {
        if !self.in_game {
            self.in_game = true;
            self.sent = 0;
            self.send("new");
            self.send("force");
            self.send("easy");
            match clock.tc {
                TimeControl::Infinite => {
                    self.send(&format!("st {}", MOVETIME_WITHOUT_CLOCK.as_secs().max(1)));
                }
                TimeControl::Clock {
                    moves: mps,
                    base,
                    increment,
                } => {
                    let secs = base.as_secs();
                    self.send(&format!(
                        "level {} {}:{:02} {}",
                        mps.unwrap_or(0),
                        secs / 60,
                        secs % 60,
                        increment.as_secs_f64()
                    ));
                }
            }
            if root != &Chess::default() {
                if !self.setboard {
                    return Turn::Resign(format!(
                        "{} cannot set up a position (no setboard)",
                        self.name
                    ));
                }
                self.send(&format!(
                    "setboard {}",
                    Fen::from_position(root, EnPassantMode::Legal)
                ));
            }
        } else {
            self.send("force");
        }
        for m in &moves[self.sent..] {
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            let line = if self.usermove {
                format!("usermove {uci}")
            } else {
                uci
            };
            if !self.send(&line) {
                return Turn::Disconnected(format!("{} disconnects", self.name));
            }
        }
        self.sent = moves.len();
        let cs = |d: Option<Duration>| d.map_or(100_000, |d| d.as_millis() / 10);
        self.send(&format!("time {}", cs(clock.left)));
        self.send(&format!("otim {}", cs(other.left)));
        self.send("go");
        let limit = clock
            .left
            .unwrap_or(MOVETIME_WITHOUT_CLOCK.max(Duration::from_secs(1)))
            .saturating_add(GRACE);
        let name = self.name.clone();
        let answer = self.wait_for(limit, |l| {
            if let Some(m) = l.strip_prefix("move ") {
                Some(Ok(m.trim().to_string()))
            } else if l == "resign" {
                Some(Err(format!("{name} resigns")))
            } else if l.starts_with("Illegal move") || l.starts_with("Error") {
                Some(Err(format!("{name} refused our input: {l}")))
            } else {
                None
            }
        });
        match answer {
            Ok(Ok(mv)) => {
                self.sent += 1;
                match mv.parse::<UciMove>() {
                    Ok(uci) => Turn::Move {
                        wire: uci,
                        authentic: None,
                        comment: None,
                    },
                    Err(_) => {
                        // Some engines answer in SAN.
                        let mut pos = root.clone();
                        for &m in moves {
                            pos.play_unchecked(m);
                        }
                        match mv
                            .parse::<shakmaty::san::San>()
                            .ok()
                            .and_then(|s| s.to_move(&pos).ok())
                        {
                            Some(m) => Turn::Move {
                                wire: m.to_uci(CastlingMode::Standard),
                                authentic: None,
                                comment: None,
                            },
                            None => Turn::Resign(format!(
                                "{} sent an unreadable move {mv:?}",
                                self.name
                            )),
                        }
                    }
                }
            }
            Ok(Err(why)) => Turn::Resign(why),
            Err(w) => self.outcome_of_wait(w, clock),
        }
    }
}

impl Player<ChessRules> for External {
    fn go(
        &mut self,
        game: &Game<ChessRules>,
        clock: &MatchClock,
        other: &MatchClock,
    ) -> Turn<UciMove> {
        let (root, moves) = (game.root(), game.moves());
        let white = game.turn().is_white();
        match self.proto {
            Proto::Uci => self.go_uci(root, moves, clock, other, white),
            Proto::Xboard => self.go_xboard(root, moves, clock, other),
        }
    }

    fn finish(&mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Hands the engine's lines to `tx` until its output ends, a line is too
/// long, or nobody listens.
fn read_lines(stdout: impl Read, tx: &SyncSender<Heard>, name: &str) {
    let mut reader = BufReader::new(stdout);
    while let Some(heard) = read_line(&mut reader, name) {
        let fault = matches!(heard, Heard::Fault(_));
        if tx.send(heard).is_err() || fault {
            break;
        }
    }
}

/// The next line (without its `\n` or `\r\n`), or a fault once [`MAX_LINE`]
/// bytes pass without a newline; `None` at the end of the output.
fn read_line(reader: &mut impl BufRead, name: &str) -> Option<Heard> {
    let mut bytes = Vec::new();
    match reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)
    {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > MAX_LINE {
        return Some(Heard::Fault(format!(
            "{name} breaks the protocol: a line longer than {MAX_LINE} bytes"
        )));
    }
    let line = match String::from_utf8(bytes) {
        Ok(line) => line,
        Err(e) => {
            let line = String::from_utf8_lossy(e.as_bytes()).into_owned();
            warn!("{name} sent a line that is not UTF-8 text, read as {line:?}");
            line
        }
    };
    debug!("<{name}: {line}");
    Some(Heard::Line(line))
}

/// `key=value` pairs of a CECP feature line (values may be quoted).
fn parse_features(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim().to_string();
        let after = after.trim_start();
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.split_once('"') {
                Some((v, t)) => (v.to_string(), t),
                None => (q.to_string(), ""),
            }
        } else {
            match after.split_once(char::is_whitespace) {
                Some((v, t)) => (v.to_string(), t),
                None => (after.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = tail.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_bad_text_is_only_that_lines_problem() {
        let mut input = b"id name Caf\xe9\r\nuciok\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE]);
        input.extend(b"\n");
        input.extend(vec![b'y'; MAX_LINE + 1]);
        input.extend(b"\nnever read\n");
        let mut r = std::io::Cursor::new(input);
        let line = |s: &str| Some(Heard::Line(s.to_string()));
        assert_eq!(read_line(&mut r, "E"), line("id name Caf\u{FFFD}"));
        assert_eq!(read_line(&mut r, "E"), line("uciok"));
        assert_eq!(read_line(&mut r, "E"), line(&"x".repeat(MAX_LINE)));
        assert_eq!(
            read_line(&mut r, "E"),
            Some(Heard::Fault(
                "E breaks the protocol: a line longer than 65536 bytes".into()
            ))
        );
        let mut r = std::io::Cursor::new(b"bestmove e2e4".to_vec());
        assert_eq!(
            read_line(&mut r, "E"),
            line("bestmove e2e4"),
            "no newline at the end"
        );
        assert_eq!(read_line(&mut r, "E"), None);
    }

    #[test]
    fn feature_lines() {
        let f = parse_features("setboard=1 myname=\"Fairy-Max 5.0b\" usermove=1 done=1");
        assert_eq!(
            f,
            [
                ("setboard", "1"),
                ("myname", "Fairy-Max 5.0b"),
                ("usermove", "1"),
                ("done", "1")
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert!(parse_features("").is_empty());
    }
}
