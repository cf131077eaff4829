//! The players of a match: built-in retro engines (in-process), a uniformly
//! random legal mover (the rating floor), and external engines (separate
//! processes speaking UCI or CECP, in `external.rs`).

use std::str::FromStr;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::clock::Clock;
use super::external::{External, Proto};
use crate::engines::{self, ChessEngine, EngineOptions, Played};
use crate::machine::SplitMix64;

/// Who plays, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in retro engine by id.
    Retro(String),
    /// The seeded uniformly random legal mover.
    Random,
    /// An external engine: `cmd=PATH,proto=uci|xboard[,name=N][,arg=A]...[,option.NAME=VALUE]...`
    External {
        name: String,
        cmd: String,
        args: Vec<String>,
        proto: Proto,
        options: Vec<(String, String)>,
    },
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "random" {
            return Ok(PlayerSpec::Random);
        }
        if !s.contains('=') {
            return match engines::info(s) {
                Some(_) => Ok(PlayerSpec::Retro(s.to_string())),
                None => Err(format!(
                    "unknown engine {s:?}: use a built-in one ({}, random) or cmd=...,proto=uci|xboard",
                    engines::engine_ids().join(", ")
                )),
            };
        }
        let (mut cmd, mut proto, mut name, mut args, mut options) =
            (None, None, None, Vec::new(), Vec::new());
        for part in s.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?} is not key=value"))?;
            match key.trim() {
                "cmd" => cmd = Some(value.to_string()),
                "proto" => {
                    proto = Some(match value {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" => Proto::Xboard,
                        other => return Err(format!("unknown protocol {other:?}: uci or xboard")),
                    })
                }
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                k if k.starts_with("option.") => {
                    options.push((k["option.".len()..].to_string(), value.to_string()))
                }
                other => return Err(format!("unknown engine setting {other:?}")),
            }
        }
        let cmd = cmd.ok_or("an external engine needs cmd=")?;
        if cmd.trim().is_empty() {
            return Err("cmd= is empty: name the engine's program".to_string());
        }
        if name.as_ref().is_some_and(|n: &String| n.trim().is_empty()) {
            return Err("name= is empty".to_string());
        }
        let proto = proto.ok_or("an external engine needs proto=uci or proto=xboard")?;
        // By default, the program's file name; the whole command if that is
        // blank (`cmd=x/ `).
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&cmd)
                .file_name()
                .map(|f| f.to_string_lossy().trim().to_string())
                .filter(|f| !f.is_empty())
                .unwrap_or_else(|| cmd.trim().to_string())
        });
        Ok(PlayerSpec::External {
            name,
            cmd,
            args,
            proto,
            options,
        })
    }
}

impl PlayerSpec {
    /// The name shown in tables and PGN.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Retro(id) => engines::info(id).map_or(id.clone(), |i| i.name.to_string()),
            PlayerSpec::Random => "Random mover".to_string(),
            PlayerSpec::External { name, .. } => name.clone(),
        }
    }

    /// Whether its clock runs on the emulated machine's authentic time.
    pub fn is_retro(&self) -> bool {
        matches!(self, PlayerSpec::Retro(_))
    }

    /// Starts the player for one game.
    ///
    /// # Errors
    /// The engine cannot be created or started.
    pub fn start(
        &self,
        seed: u64,
        options: &EngineOptions,
        startup: Duration,
    ) -> Result<Box<dyn Player>, String> {
        Ok(match self {
            PlayerSpec::Retro(id) => {
                let options = EngineOptions {
                    seed,
                    ..options.clone()
                };
                Box::new(Retro {
                    engine: engines::create(id, &options).map_err(|e| e.to_string())?,
                    budget: options.budget,
                })
            }
            PlayerSpec::Random => Box::new(Random(SplitMix64::new(seed))),
            PlayerSpec::External {
                name,
                cmd,
                args,
                proto,
                options,
            } => Box::new(External::start(name, cmd, args, *proto, options, startup)?),
        })
    }
}

/// What a player did on its turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// A move (not yet judged), with what it cost where known.
    Move {
        uci: UciMove,
        authentic: Option<Duration>,
        comment: Option<String>,
    },
    /// The player gave up (an external engine's `resign`).
    Resign(String),
    /// A retro program found no move and stopped.
    DeadEnd(String),
    /// A retro program did not come back.
    Hung(String),
    /// An external engine's process ended.
    Disconnected(String),
    /// An external engine said nothing in time.
    Stalled(String),
}

/// One side of one game.
pub trait Player: Send {
    /// The move in the position reached from `root` by `moves`.
    fn go(&mut self, root: &Chess, moves: &[Move], clock: &Clock, other: &Clock) -> Turn;
    /// Ends the game (external engines are told, and stopped).
    fn finish(&mut self) {}
}

struct Retro {
    engine: Box<dyn ChessEngine>,
    budget: u64,
}

impl Player for Retro {
    fn go(&mut self, root: &Chess, moves: &[Move], _clock: &Clock, _other: &Clock) -> Turn {
        let name = self.engine.info().name;
        match self.engine.play(root, moves, self.budget) {
            Ok(reply) => match reply.played {
                Played::Move(uci) => Turn::Move {
                    uci,
                    authentic: Some(reply.authentic),
                    comment: None,
                },
                Played::DeadEnd => Turn::DeadEnd(format!("{name} found no move and stopped")),
                Played::Hung(stop) => Turn::Hung(format!("{name} hung: {stop}")),
            },
            Err(e) => Turn::Hung(format!("{name}: {e}")),
        }
    }
}

struct Random(SplitMix64);

impl Player for Random {
    fn go(&mut self, root: &Chess, moves: &[Move], _clock: &Clock, _other: &Clock) -> Turn {
        let started = Instant::now();
        let mut pos = root.clone();
        for &m in moves {
            pos.play_unchecked(m);
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Turn::Resign("no legal move".to_string());
        }
        let m = legal[self.0.range(0, legal.len() as u64 - 1) as usize];
        let _ = started;
        Turn::Move {
            uci: UciMove::from_standard(m),
            authentic: None,
            comment: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `player_spec` fuzz target: a blank command or name was
    /// accepted, or a command whose file name is blank gave a blank name,
    /// and the engine showed up nameless in tables and PGN.
    #[test]
    fn blank_command_or_name_is_refused() {
        for spec in ["cmd=,proto=uci", "cmd=      ,proto=cecp,name=stall"] {
            assert_eq!(
                spec.parse::<PlayerSpec>(),
                Err("cmd= is empty: name the engine's program".to_string())
            );
        }
        assert_eq!(
            "cmd=sf,proto=uci,name= ".parse::<PlayerSpec>(),
            Err("name= is empty".to_string())
        );
        let spec: PlayerSpec = "cmd=engines/\t\t,proto=cecp".parse().unwrap();
        assert_eq!(spec.name(), "engines/");
    }

    #[test]
    fn specs_parse() {
        assert_eq!("random".parse::<PlayerSpec>(), Ok(PlayerSpec::Random));
        assert_eq!(
            "1k-zx-chess".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Retro("1k-zx-chess".into()))
        );
        let ext: PlayerSpec = "cmd=/usr/games/stockfish,proto=uci,option.Skill Level=0"
            .parse()
            .unwrap();
        assert_eq!(
            ext,
            PlayerSpec::External {
                name: "stockfish".into(),
                cmd: "/usr/games/stockfish".into(),
                args: vec![],
                proto: Proto::Uci,
                options: vec![("Skill Level".into(), "0".into())]
            }
        );
        assert!(
            "nope"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .starts_with("unknown engine \"nope\"")
        );
        assert!(
            "cmd=x"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .contains("proto=")
        );
        assert!(
            "cmd=x,proto=fics"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .contains("unknown protocol")
        );
        assert!(
            "cmd=x,proto=uci,colour=red"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .contains("unknown engine setting")
        );
    }
}
