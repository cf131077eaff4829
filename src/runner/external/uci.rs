//! The UCI client: an external chess engine as a player. The handshake is
//! `uci` … `uciok`, the options, `isready` … `readyok`; each turn sends the
//! whole game (`position startpos|fen … moves …`) and the clocks (`go
//! wtime … btime … winc … binc … [movestogo …]`, or `go movetime` without
//! a clock, or `go nodes N` when the player's spec asks) and reads `bestmove`; `0000`, `(none)` or nothing is a
//! resignation.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move};

use super::launch::{LaunchError, MOVETIME_WITHOUT_CLOCK, move_limit};
use super::transport::Transport;
use crate::rules::Game;
use crate::rules::chess::ChessRules;
use crate::runner::time_control::MatchClock;
use crate::runner::turn::{Player, Turn};

/// An external engine speaking UCI.
pub struct UciClient {
    t: Transport,
    in_game: bool,
    /// `go nodes N` instead of the clocks.
    nodes: Option<u64>,
}

impl UciClient {
    /// Completes the handshake on a started process.
    ///
    /// # Errors
    /// The engine does not complete the handshake within `startup`.
    pub fn start(
        mut t: Transport,
        options: &[(String, String)],
        startup: Duration,
    ) -> Result<UciClient, LaunchError> {
        t.send("uci");
        t.wait_for(startup, |l| (l == "uciok").then_some(()))
            .map_err(|w| t.failed("uci", w, startup))?;
        for (k, v) in options {
            t.send(&format!("setoption name {k} value {v}"));
        }
        t.send("isready");
        t.wait_for(startup, |l| (l == "readyok").then_some(()))
            .map_err(|w| t.failed("isready", w, startup))?;
        Ok(UciClient {
            t,
            in_game: false,
            nodes: None,
        })
    }

    /// Each move searched with `go nodes N` (the clocks still run, and an
    /// engine that overruns them still loses on time).
    pub fn with_nodes(mut self, nodes: Option<u64>) -> UciClient {
        self.nodes = nodes;
        self
    }

    /// `position …` for the game so far.
    fn position(root: &Chess, moves: &[Move]) -> String {
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
        line
    }

    /// `go …` with both clocks, White's first.
    fn go_line(clock: &MatchClock, other: &MatchClock, white: bool) -> String {
        let (Some(mine), Some(theirs)) = (clock.left, other.left) else {
            return format!("go movetime {}", MOVETIME_WITHOUT_CLOCK.as_millis());
        };
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

    /// The move `bestmove` names, or why there is none (with what the
    /// engine said in an `info string` before it: the reason it gave, else
    /// its last).
    fn best(&self, best: String, said: Option<String>) -> Turn<UciMove> {
        let name = self.t.name();
        if best == "0000" || best == "(none)" || best.is_empty() {
            return Turn::Resign(match said {
                Some(why) => format!("{name} has no move ({best}): {why}"),
                None => format!("{name} has no move ({best})"),
            });
        }
        match best.parse::<UciMove>() {
            Ok(uci) => Turn::Move {
                wire: uci,
                authentic: None,
                comment: None,
            },
            Err(_) => Turn::Resign(format!("{name} sent an unreadable move {best:?}")),
        }
    }
}

impl Player<ChessRules> for UciClient {
    fn go(
        &mut self,
        game: &Game<ChessRules>,
        clock: &MatchClock,
        other: &MatchClock,
    ) -> Turn<UciMove> {
        if !self.in_game {
            self.in_game = true;
            self.t.send("ucinewgame");
            self.t.send("isready");
            if let Err(w) = self
                .t
                .wait_for(Duration::from_secs(10), |l| (l == "readyok").then_some(()))
            {
                return self.t.lost(w, clock).into();
            }
        }
        if !self.t.send(&Self::position(game.root(), game.moves())) {
            return self.t.disconnected().into();
        }
        let go = match self.nodes {
            Some(n) => format!("go nodes {n}"),
            None => Self::go_line(clock, other, game.turn().is_white()),
        };
        self.t.send(&go);
        let mut said = None;
        let answer = self
            .t
            .wait_for(move_limit(clock, MOVETIME_WITHOUT_CLOCK), |l| {
                // The first reason given (`the program did not come back:
                // …`), else the last line said.
                if let Some(text) = l.strip_prefix("info string ")
                    && said
                        .as_deref()
                        .is_none_or(|s: &str| !s.contains("did not come back"))
                {
                    said = Some(text.to_string());
                }
                l.strip_prefix("bestmove")
                    .map(|r| r.split_whitespace().next().unwrap_or("").to_string())
            });
        match answer {
            Ok(best) => self.best(best, said),
            Err(w) => self.t.lost(w, clock).into(),
        }
    }

    fn finish(&mut self) {
        self.t.finish();
    }
}
