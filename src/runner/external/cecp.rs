//! The CECP client: an external xboard engine as a player. The handshake
//! is `xboard`, `protover 2` and the `feature` lines (each accepted; a
//! protocol-1 engine that sends none is waited for [`FEATURE_WAIT`]), then
//! the options. A game starts with `new`, `force`, `easy`, the level (or
//! `st`) and `setboard` for a set-up position; each turn sends the moves
//! the engine has not seen (as `usermove` if it asked), `time`, `otim` and
//! `go`, and reads `move` (coordinates, or SAN), `resign`, or a complaint
//! about our input.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::launch::{LaunchError, MOVETIME_WITHOUT_CLOCK, move_limit};
use super::transport::{Transport, Wait};
use crate::rules::Game;
use crate::rules::chess::ChessRules;
use crate::runner::time_control::{MatchClock, TimeControl};
use crate::runner::turn::{Player, Turn};

/// How long a CECP engine may take to say `feature done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// An external engine speaking CECP.
pub struct CecpClient {
    t: Transport,
    setboard: bool,
    usermove: bool,
    /// Moves of the current game already sent.
    sent: usize,
    in_game: bool,
}

impl CecpClient {
    /// Completes the handshake on a started process.
    ///
    /// # Errors
    /// The engine ends or breaks the protocol before `feature done=1`.
    pub fn start(
        t: Transport,
        options: &[(String, String)],
        startup: Duration,
    ) -> Result<CecpClient, LaunchError> {
        let mut c = CecpClient {
            t,
            setboard: false,
            usermove: false,
            sent: 0,
            in_game: false,
        };
        c.t.send("xboard");
        c.t.send("protover 2");
        c.features(startup)?;
        for (k, v) in options {
            c.t.send(&format!("option {k}={v}"));
        }
        Ok(c)
    }

    /// Reads `feature` lines until `done=1` (or, for a protocol-1 engine,
    /// until none comes), accepting each.
    fn features(&mut self, startup: Duration) -> Result<(), LaunchError> {
        let mut accepted = Vec::new();
        let mut wait = FEATURE_WAIT;
        loop {
            let features = match self
                .t
                .wait_for(wait, |l| l.strip_prefix("feature ").map(str::to_string))
            {
                Ok(features) => features,
                // Protocol-1 engines send no features: go on.
                Err(Wait::Timeout) => return Ok(()),
                Err(w) => return Err(self.t.failed("protover 2", w, startup)),
            };
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
                self.t.send(&format!("accepted {k}"));
            }
            if done {
                return Ok(());
            }
        }
    }

    /// `new`, the level and the position; a resignation if the engine
    /// cannot set the position up.
    fn new_game(&mut self, root: &Chess, clock: &MatchClock) -> Option<Turn<UciMove>> {
        self.in_game = true;
        self.sent = 0;
        self.t.send("new");
        self.t.send("force");
        self.t.send("easy");
        match clock.tc {
            TimeControl::Infinite => {
                self.t
                    .send(&format!("st {}", MOVETIME_WITHOUT_CLOCK.as_secs().max(1)));
            }
            TimeControl::Clock {
                moves: mps,
                base,
                increment,
            } => {
                let secs = base.as_secs();
                self.t.send(&format!(
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
                return Some(Turn::Resign(format!(
                    "{} cannot set up a position (no setboard)",
                    self.t.name()
                )));
            }
            self.t.send(&format!(
                "setboard {}",
                Fen::from_position(root, EnPassantMode::Legal)
            ));
        }
        None
    }

    /// The moves the engine has not seen; `false` if it is gone.
    fn send_moves(&mut self, moves: &[Move]) -> bool {
        for m in &moves[self.sent..] {
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            let line = if self.usermove {
                format!("usermove {uci}")
            } else {
                uci
            };
            if !self.t.send(&line) {
                return false;
            }
        }
        self.sent = moves.len();
        true
    }

    /// The engine's `move`, read as coordinates or, as some engines write
    /// it, SAN.
    fn read_move(&self, mv: &str, root: &Chess, moves: &[Move]) -> Turn<UciMove> {
        let found = |wire| Turn::Move {
            wire,
            authentic: None,
            comment: None,
        };
        if let Ok(uci) = mv.parse::<UciMove>() {
            return found(uci);
        }
        let mut pos = root.clone();
        for &m in moves {
            pos.play_unchecked(m);
        }
        match mv
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
        {
            Some(m) => found(m.to_uci(CastlingMode::Standard)),
            None => Turn::Resign(format!("{} sent an unreadable move {mv:?}", self.t.name())),
        }
    }
}

impl Player<ChessRules> for CecpClient {
    fn go(
        &mut self,
        game: &Game<ChessRules>,
        clock: &MatchClock,
        other: &MatchClock,
    ) -> Turn<UciMove> {
        let (root, moves) = (game.root(), game.moves());
        if !self.in_game {
            if let Some(turn) = self.new_game(root, clock) {
                return turn;
            }
        } else {
            self.t.send("force");
        }
        if !self.send_moves(moves) {
            return self.t.disconnected().into();
        }
        let cs = |d: Option<Duration>| d.map_or(100_000, |d| d.as_millis() / 10);
        self.t.send(&format!("time {}", cs(clock.left)));
        self.t.send(&format!("otim {}", cs(other.left)));
        self.t.send("go");
        let limit = move_limit(clock, MOVETIME_WITHOUT_CLOCK.max(Duration::from_secs(1)));
        let name = self.t.name().to_string();
        let answer = self.t.wait_for(limit, |l| {
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
                self.read_move(&mv, root, moves)
            }
            Ok(Err(why)) => Turn::Resign(why),
            Err(w) => self.t.lost(w, clock).into(),
        }
    }

    fn finish(&mut self) {
        self.t.finish();
    }
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
