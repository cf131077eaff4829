//! The Hub client: an external draughts engine as a player, as the Hub
//! protocol (version 2, Scan's `protocol.txt`) has a GUI do it, on 8×8 in
//! pydraughts's convention (see `crate::protocol::hub`), which is what Hub
//! engines for English checkers expect.
//!
//! The handshake is `hub` … `wait` (the engine's `param` lines read on the
//! way: `variant` is set to the match's rules when the engine offers
//! them), the options as `set-param`, then `init` … `ready`. A game starts
//! with `new-game`; each turn sends the game's first position and every
//! move since (`pos pos=… moves="…"`, as pydraughts does), the clock
//! (`level time=… [inc=…] [moves=…]`, the increment taken off the time
//! since the engine adds it before the move; `level move-time=0.5` without
//! a clock) and `go think`, and reads `done move=…`. A `done` without a
//! move, or with the null move `0-0` (what `retrochess hub` sends when the
//! program has none), is a resignation, with the reason of the last `info
//! problem=`, where `retrochess hub` says why; an `error` line before it means
//! the engine refused our input, and it resigns with what it said.

use std::time::Duration;

use super::launch::{LaunchError, MOVETIME_WITHOUT_CLOCK, move_limit};
use super::transport::{Transport, Wait};
use crate::rules::Game;
use crate::rules::draughts::hub::pydraughts_position;
use crate::rules::draughts::hub_line::{NO_MOVE, split, value};
use crate::rules::draughts::{Draughts, HubMove, PdnMove};
use crate::runner::time_control::MatchClock;
use crate::runner::turn::{Player, Turn};

/// An external engine speaking Hub.
pub struct HubClient {
    t: Transport,
    in_game: bool,
}

/// What the engine answered to `go`.
enum Answer {
    /// `done`: the value of its `move=`, and the last `info problem=`
    /// before it (why `retrochess hub` sends no move).
    Done {
        mv: Option<String>,
        problem: Option<String>,
    },
    /// `error`, and its message.
    Error(String),
}

impl HubClient {
    /// Completes the handshake on a started process.
    ///
    /// # Errors
    /// The engine does not answer `hub` or `init` within `startup`.
    pub fn start(
        mut t: Transport,
        rules: Draughts,
        options: &[(String, String)],
        startup: Duration,
    ) -> Result<HubClient, LaunchError> {
        t.send("hub");
        let mut variants = Vec::new();
        t.wait_for(startup, |l| {
            let line = split(l).ok().flatten()?;
            match line.command.as_str() {
                "wait" => Some(()),
                "param" if line.arg("name") == Some("variant") => {
                    let values = line.arg("values").unwrap_or("");
                    variants.extend(values.split_whitespace().map(str::to_string));
                    None
                }
                _ => None,
            }
        })
        .map_err(|w| t.failed("hub", w, startup))?;
        let ours = rules.variant().name();
        if variants.iter().any(|v| v == ours) {
            t.send(&format!("set-param name=variant value={ours}"));
        }
        for (k, v) in options {
            t.send(&format!("set-param name={} value={}", value(k), value(v)));
        }
        t.send("init");
        t.wait_for(startup, |l| {
            (split(l).ok().flatten()?.command == "ready").then_some(())
        })
        .map_err(|w| t.failed("init", w, startup))?;
        Ok(HubClient { t, in_game: false })
    }

    /// `pos …` for the game so far.
    fn position(game: &Game<Draughts>) -> String {
        let rules = game.rules();
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| rules.hub_move(m).to_string())
            .collect();
        let mut line = format!("pos pos={}", pydraughts_position(game.root()));
        if !moves.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        line
    }

    /// `level …` for the mover's clock.
    fn level(clock: &MatchClock) -> String {
        let Some(left) = clock.left else {
            return format!("level move-time={}", MOVETIME_WITHOUT_CLOCK.as_secs_f64());
        };
        let inc = clock.increment();
        // The engine adds the increment before the move.
        let mut line = format!("level time={:.3}", left.saturating_sub(inc).as_secs_f64());
        if !inc.is_zero() {
            line.push_str(&format!(" inc={:.3}", inc.as_secs_f64()));
        }
        if let Some(n) = clock.moves_to_go() {
            line.push_str(&format!(" moves={n}"));
        }
        line
    }

    /// Waits for `done`; an `error` before it is remembered, and so is
    /// the last `info problem=`.
    fn answer(&mut self, limit: Duration) -> Result<Answer, Wait> {
        let mut refused: Option<String> = None;
        let mut problem: Option<String> = None;
        let mv = self.t.wait_for(limit, |l| {
            let line = split(l).ok().flatten()?;
            match line.command.as_str() {
                "done" => Some(line.arg("move").map(str::to_string)),
                "error" => {
                    refused.get_or_insert_with(|| line.arg("message").unwrap_or(l).to_string());
                    None
                }
                "info" => {
                    if let Some(p) = line.arg("problem") {
                        problem = Some(p.to_string());
                    }
                    None
                }
                _ => None,
            }
        })?;
        Ok(match refused {
            Some(message) => Answer::Error(message),
            None => Answer::Done { mv, problem },
        })
    }

    /// The move `done` names, found among the legal moves of `game`'s
    /// position as pydraughts finds it, or why there is none.
    fn read_move(
        &self,
        game: &Game<Draughts>,
        text: Option<String>,
        problem: Option<String>,
    ) -> Turn<PdnMove> {
        let name = self.t.name();
        let text = match text {
            Some(t) if !t.is_empty() && t != NO_MOVE => t,
            none => {
                let why = problem.map_or(String::new(), |p| format!(": {p}"));
                let what = match none.as_deref() {
                    Some(NO_MOVE) => "done with the null move 0-0",
                    _ => "done without one",
                };
                return Turn::Resign(format!("{name} has no move ({what}){why}"));
            }
        };
        match text.parse::<HubMove>() {
            Ok(hub) => Turn::Move {
                wire: game.rules().wire_from_hub(game.position(), &hub),
                authentic: None,
                comment: None,
            },
            Err(e) => Turn::Resign(format!("{name} sent an unreadable move {text:?} ({e})")),
        }
    }
}

impl Player<Draughts> for HubClient {
    fn go(
        &mut self,
        game: &Game<Draughts>,
        clock: &MatchClock,
        _other: &MatchClock,
    ) -> Turn<PdnMove> {
        if !self.in_game {
            self.in_game = true;
            self.t.send("new-game");
        }
        if !self.t.send(&Self::position(game)) {
            return self.t.disconnected().into();
        }
        self.t.send(&Self::level(clock));
        self.t.send("go think");
        match self.answer(move_limit(clock, MOVETIME_WITHOUT_CLOCK)) {
            Ok(Answer::Done { mv, problem }) => self.read_move(game, mv, problem),
            Ok(Answer::Error(message)) => {
                Turn::Resign(format!("{} refused our input: {message}", self.t.name()))
            }
            Err(w) => self.t.lost(w, clock).into(),
        }
    }

    fn finish(&mut self) {
        self.t.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::runner::time_control::TimeControl;

    #[test]
    fn positions_and_levels_as_pydraughts_sends_them() {
        let rules = Draughts::english();
        let mut game = Game::initial(rules);
        assert_eq!(
            HubClient::position(&game),
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        for pdn in ["11-15", "24-19", "15x24"] {
            let wire: PdnMove = pdn.parse().unwrap();
            assert!(matches!(
                game.play_wire(&wire),
                crate::rules::Verdict::Legal(_)
            ));
        }
        assert_eq!(
            HubClient::position(&game),
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 24-19 15x24x19\""
        );
        let root = rules.parse_position("W:W21-32:B1-12").unwrap();
        assert!(HubClient::position(&Game::new(rules, root)).starts_with("pos pos=B"));
        let clock = MatchClock::new("40/60+0.5".parse().unwrap());
        assert_eq!(
            HubClient::level(&clock),
            "level time=59.500 inc=0.500 moves=40"
        );
        assert_eq!(
            HubClient::level(&MatchClock::new(TimeControl::Infinite)),
            "level move-time=0.5"
        );
    }
}
