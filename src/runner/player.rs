//! The players of a match: built-in retro engines (in-process), a uniformly
//! random legal mover (the rating floor), and external engines (separate
//! processes speaking UCI, CECP or Hub, in `external/`).

use std::str::FromStr;
use std::time::Duration;

use super::MatchGame;
use super::clock::MatchClock;
use super::external::Launch;
use super::record::MoveNote;
pub use super::turn::{Player, Turn};
use crate::engines::{self, Engine, EngineOptions, Played};
use crate::machine::SplitMix64;
use crate::protocol::Protocol;
use crate::rules::{Game, HangKind, Rules};

/// Who plays, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in retro engine by id.
    Retro(String),
    /// The seeded uniformly random legal mover.
    Random,
    /// An external engine: `cmd=PATH,proto=uci|xboard|hub[,name=N][,arg=A]...[,option.NAME=VALUE]...`
    External {
        name: String,
        cmd: String,
        args: Vec<String>,
        proto: Protocol,
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
                    "unknown engine {s:?}: use a built-in one ({}, random) or cmd=...,proto=uci|xboard|hub",
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
            let key = key.trim();
            let filled = |what: &str| match value.trim().is_empty() {
                true => Err(format!("{what} is empty in {s:?}")),
                false => Ok(value.to_string()),
            };
            match key {
                "cmd" => cmd = Some(filled("cmd=")?),
                "proto" => proto = Some(value.parse::<Protocol>()?),
                "name" => name = Some(filled("name=")?),
                // An empty argument or option value is one an engine may want.
                "arg" => args.push(value.to_string()),
                k if k.starts_with("option.") => match k["option.".len()..].trim() {
                    "" => return Err(format!("an option.NAME= without its NAME in {s:?}")),
                    o => options.push((o.to_string(), value.to_string())),
                },
                other => return Err(format!("unknown engine setting {other:?}")),
            }
        }
        let cmd = cmd.ok_or("an external engine needs cmd=")?;
        let proto = proto.ok_or("an external engine needs proto=uci, proto=xboard or proto=hub")?;
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

    /// The game it plays; `None` for the random mover, which plays any.
    pub fn game(&self) -> Option<engines::GameKind> {
        match self {
            PlayerSpec::Retro(id) => engines::entry(id).map(|e| e.game),
            PlayerSpec::Random => None,
            PlayerSpec::External { proto, .. } => Some(proto.game()),
        }
    }

    /// Whether its clock runs on the emulated machine's authentic time.
    pub fn is_retro(&self) -> bool {
        matches!(self, PlayerSpec::Retro(_))
    }

    /// Starts the player for one game of `R`.
    ///
    /// # Errors
    /// The engine cannot be created or started.
    pub fn start<R: MatchGame>(
        &self,
        rules: &R,
        seed: u64,
        options: &EngineOptions,
        startup: Duration,
    ) -> Result<Box<dyn Player<R>>, String> {
        Ok(match self {
            PlayerSpec::Retro(id) => {
                let options = EngineOptions {
                    seed,
                    ..options.clone()
                };
                Box::new(Retro {
                    engine: R::create(id, &options).map_err(|e| e.to_string())?,
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
            } => rules.start_external(&Launch {
                name,
                cmd,
                args,
                proto: *proto,
                options,
                startup,
            })?,
        })
    }
}

struct Retro<R: Rules> {
    engine: Box<dyn Engine<R>>,
    budget: u64,
}

impl<R: Rules> Player<R> for Retro<R> {
    fn go(&mut self, game: &Game<R>, _clock: &MatchClock, _other: &MatchClock) -> Turn<R::Wire> {
        let name = self.engine.info().name;
        match self.engine.play(game, self.budget) {
            Ok(reply) => match reply.played {
                Played::Move(wire) => Turn::Move {
                    wire,
                    authentic: Some(reply.authentic),
                    comment: Some(MoveNote {
                        score: reply.score,
                        authentic: reply.authentic,
                        nodes: reply.nodes,
                        path: reply.path,
                    }),
                },
                Played::DeadEnd => Turn::DeadEnd(format!("{name} found no move and stopped")),
                Played::Hung(hang) => Turn::Hung(hang.kind, format!("{name} hung: {hang}")),
            },
            Err(e) => Turn::Hung(HangKind::Fault, format!("{name}: {e}")),
        }
    }
}

/// The seeded uniformly random legal mover.
struct Random(SplitMix64);

impl<R: Rules> Player<R> for Random {
    fn go(&mut self, game: &Game<R>, _clock: &MatchClock, _other: &MatchClock) -> Turn<R::Wire> {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return Turn::Resign("no legal move".to_string());
        }
        let m = &legal[self.0.range(0, legal.len() as u64 - 1) as usize];
        Turn::Move {
            wire: game.rules().wire(game.position(), m),
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
                Err(format!("cmd= is empty in {spec:?}"))
            );
        }
        let spec = "cmd=sf,proto=uci,name= ";
        assert_eq!(
            spec.parse::<PlayerSpec>(),
            Err(format!("name= is empty in {:?}", spec.trim()))
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
                proto: Protocol::Uci,
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
        for (spec, message) in [
            ("cmd=,proto=uci", "cmd= is empty in \"cmd=,proto=uci\""),
            ("cmd= ,proto=uci", "cmd= is empty"),
            ("cmd=x,proto=uci,name=", "name= is empty"),
            (
                "cmd=x,proto=uci,option.=1",
                "an option.NAME= without its NAME",
            ),
        ] {
            let e = spec.parse::<PlayerSpec>().unwrap_err();
            assert!(e.contains(message), "{spec}: {e}");
        }
        assert!(
            "cmd=x,proto=uci,arg=,option.Book="
                .parse::<PlayerSpec>()
                .is_ok()
        );
        assert!(
            "cmd=x,proto=uci,colour=red"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .contains("unknown engine setting")
        );
    }
}
