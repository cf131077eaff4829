//! The players of a match: built-in retro engines (in-process), a uniformly
//! random legal mover (the rating floor), and external engines (separate
//! processes speaking UCI, CECP or Hub, in `external/`).

use std::str::FromStr;
use std::time::Duration;

use super::external::{Launch, LaunchError};
use super::match_game::MatchGame;
use super::record::MoveNote;
use super::time_control::MatchClock;
pub use super::turn::{Player, Turn};
use crate::engines::{self, BadValue, Engine, EngineError, EngineOptions, Entry, Played};
use crate::protocol::{Protocol, UnknownProtocol};
use crate::rng::SplitMix64;
use crate::rules::{Game, HangKind, Rules};

/// Who plays, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in retro engine.
    Retro(&'static Entry),
    /// A built-in engine with options or a name of its own:
    /// `ID,option.NAME=VALUE...[,name=N]`, values for the options its driver
    /// declares (samuel-f8's `Level`), over the match's own.
    RetroWith {
        entry: &'static Entry,
        name: Option<String>,
        options: Vec<(String, String)>,
    },
    /// The seeded uniformly random legal mover.
    Random,
    /// An external engine: `cmd=PATH,proto=uci|xboard|hub[,name=N][,arg=A]...[,option.NAME=VALUE]...[,nodes=N]`
    External {
        name: String,
        cmd: String,
        args: Vec<String>,
        proto: Protocol,
        options: Vec<(String, String)>,
        /// `nodes=N`: every move searched with `go nodes N` instead of the
        /// clocks (UCI only).
        nodes: Option<u64>,
    },
    /// Any player "diluted", as in Tom Murphy VII's Elo World: each move is,
    /// with probability `ppm` per million, a uniformly random legal move
    /// (drawn from the game's seed), otherwise the player's own. Written as
    /// the player's spec with `,dilute=P` (P from 0 to 1).
    Diluted { ppm: u32, inner: Box<PlayerSpec> },
}

/// Why a player spec (`--engine`) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// `dilute=P` with P not a number from 0 to 1 (the value as given).
    Dilution(String),
    /// `dilute=` given twice (the whole spec).
    DiluteTwice(String),
    /// A part of the spec without `=`.
    NotKeyValue(String),
    /// `cmd=` or `name=` left blank (`what` is `"cmd="` or `"name="`).
    Empty { what: &'static str, spec: String },
    /// `proto=` names no protocol we speak.
    Protocol(UnknownProtocol),
    /// `nodes=N` with N not a positive number (the value as given).
    Nodes(String),
    /// `option.=V`: an option without its name (the whole spec).
    NamelessOption(String),
    /// A setting an external engine does not take.
    UnknownEngineSetting(String),
    /// An external engine without `cmd=`.
    MissingCmd,
    /// An external engine without `proto=`.
    MissingProto,
    /// `nodes=` for an engine that does not speak UCI.
    NodesNotUci(Protocol),
    /// Neither a built-in engine's id nor `random`; `known` lists the ids.
    UnknownEngine {
        id: String,
        known: Vec<&'static str>,
    },
    /// An option the built-in engine's driver does not declare.
    NoSuchOption {
        id: String,
        option: String,
        declared: Vec<&'static str>,
    },
    /// A value the driver's option refuses.
    OptionValue(BadValue),
    /// A setting a built-in engine does not take.
    UnknownSetting { setting: String, id: String },
    /// `random,name=N` (the whole spec).
    RandomNamed(String),
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Dilution(v) => write!(f, "dilute={v}: not a probability from 0 to 1"),
            SpecError::DiluteTwice(s) => write!(f, "dilute= twice in {s:?}"),
            SpecError::NotKeyValue(part) => write!(f, "{part:?} is not key=value"),
            SpecError::Empty { what, spec } => write!(f, "{what} is empty in {spec:?}"),
            SpecError::Protocol(e) => e.fmt(f),
            SpecError::OptionValue(e) => e.fmt(f),
            SpecError::Nodes(v) => write!(f, "nodes={v}: not a positive number"),
            SpecError::NamelessOption(s) => {
                write!(f, "an option.NAME= without its NAME in {s:?}")
            }
            SpecError::UnknownEngineSetting(k) => write!(f, "unknown engine setting {k:?}"),
            SpecError::MissingCmd => f.write_str("an external engine needs cmd="),
            SpecError::MissingProto => {
                f.write_str("an external engine needs proto=uci, proto=xboard or proto=hub")
            }
            SpecError::NodesNotUci(proto) => write!(
                f,
                "nodes= is for UCI engines (go nodes N), not proto={}",
                proto.name()
            ),
            SpecError::UnknownEngine { id, known } => write!(
                f,
                "unknown engine {id:?}: use a built-in one ({}, random) or cmd=...,proto=uci|xboard|hub",
                known.join(", ")
            ),
            SpecError::NoSuchOption {
                id,
                option,
                declared,
            } => write!(
                f,
                "{id} has no option {option:?} (it has: {})",
                match declared.is_empty() {
                    true => "none".to_string(),
                    false => declared.join(", "),
                }
            ),
            SpecError::UnknownSetting { setting, id } => {
                write!(f, "unknown setting {setting:?} of {id}")
            }
            SpecError::RandomNamed(s) => write!(f, "random takes no name= in {s:?}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Why a player could not start a game.
#[derive(Debug)]
pub enum StartError {
    /// The built-in engine could not be made (its tape, an option).
    Engine(EngineError),
    /// The external engine's process or handshake failed.
    Launch(LaunchError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Engine(e) => e.fmt(f),
            StartError::Launch(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Engine(e) => Some(e),
            StartError::Launch(e) => Some(e),
        }
    }
}

impl From<EngineError> for StartError {
    fn from(e: EngineError) -> Self {
        StartError::Engine(e)
    }
}

impl From<LaunchError> for StartError {
    fn from(e: LaunchError) -> Self {
        StartError::Launch(e)
    }
}

/// `dilute=P`: a probability, kept in parts per million.
fn parse_dilution(value: &str) -> Result<u32, SpecError> {
    let bad = || SpecError::Dilution(value.to_string());
    let p: f64 = value.trim().parse().map_err(|_| bad())?;
    if !(0.0..=1.0).contains(&p) {
        return Err(bad());
    }
    Ok((p * 1e6).round() as u32)
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        // `dilute=P` wraps whatever the rest of the spec names.
        let mut dilution = None;
        let mut parts = Vec::new();
        for part in s.split(',') {
            match part.split_once('=') {
                Some((k, v)) if k.trim() == "dilute" => {
                    if dilution.replace(parse_dilution(v)?).is_some() {
                        return Err(SpecError::DiluteTwice(s.to_string()));
                    }
                }
                _ => parts.push(part),
            }
        }
        let inner = parse_plain(s, &parts)?;
        Ok(match dilution {
            Some(ppm) => PlayerSpec::Diluted {
                ppm,
                inner: Box::new(inner),
            },
            None => inner,
        })
    }
}

/// A spec without its `dilute=`, split at its commas.
fn parse_plain(s: &str, parts: &[&str]) -> Result<PlayerSpec, SpecError> {
    let head = parts.first().map_or("", |h| h.trim());
    if !head.contains('=') {
        return parse_built_in(s, head, parts.get(1..).unwrap_or(&[]));
    }
    let (mut cmd, mut proto, mut name, mut args, mut options, mut nodes) =
        (None, None, None, Vec::new(), Vec::new(), None);
    for part in parts {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| SpecError::NotKeyValue(part.to_string()))?;
        let key = key.trim();
        let filled = |what: &'static str| match value.trim().is_empty() {
            true => Err(SpecError::Empty {
                what,
                spec: s.to_string(),
            }),
            false => Ok(value.to_string()),
        };
        match key {
            "cmd" => cmd = Some(filled("cmd=")?),
            "proto" => proto = Some(value.parse::<Protocol>().map_err(SpecError::Protocol)?),
            "name" => name = Some(filled("name=")?),
            "nodes" => {
                nodes = Some(
                    value
                        .trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| SpecError::Nodes(value.to_string()))?,
                )
            }
            // An empty argument or option value is one an engine may want.
            "arg" => args.push(value.to_string()),
            k if k.starts_with("option.") => match k["option.".len()..].trim() {
                "" => return Err(SpecError::NamelessOption(s.to_string())),
                o => options.push((o.to_string(), value.to_string())),
            },
            other => return Err(SpecError::UnknownEngineSetting(other.to_string())),
        }
    }
    let cmd = cmd.ok_or(SpecError::MissingCmd)?;
    let proto = proto.ok_or(SpecError::MissingProto)?;
    if nodes.is_some() && proto != Protocol::Uci {
        return Err(SpecError::NodesNotUci(proto));
    }
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
        nodes,
    })
}

/// `random` or a built-in engine's id, with its settings (`name=`, and
/// `option.NAME=VALUE` for the options its driver declares).
fn parse_built_in(s: &str, id: &str, settings: &[&str]) -> Result<PlayerSpec, SpecError> {
    let entry = match engines::find(id) {
        Ok(e) => Some(e),
        Err(_) if id == "random" => None,
        Err(_) => {
            return Err(SpecError::UnknownEngine {
                id: id.to_string(),
                known: engines::engine_ids(),
            });
        }
    };
    let (mut name, mut options) = (None, Vec::new());
    for part in settings {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| SpecError::NotKeyValue(part.to_string()))?;
        match (key.trim(), &entry) {
            ("name", _) if value.trim().is_empty() => {
                return Err(SpecError::Empty {
                    what: "name=",
                    spec: s.to_string(),
                });
            }
            ("name", _) => name = Some(value.to_string()),
            (k, Some(entry)) if k.starts_with("option.") => {
                let o = k["option.".len()..].trim();
                let declared = (entry.options)();
                let spec = declared.iter().find(|d| d.name == o).ok_or_else(|| {
                    SpecError::NoSuchOption {
                        id: id.to_string(),
                        option: o.to_string(),
                        declared: declared.iter().map(|d| d.name).collect(),
                    }
                })?;
                let value = spec.check(value).map_err(SpecError::OptionValue)?;
                options.push((o.to_string(), value));
            }
            (other, _) => {
                return Err(SpecError::UnknownSetting {
                    setting: other.to_string(),
                    id: id.to_string(),
                });
            }
        }
    }
    Ok(match entry {
        None if name.is_none() => PlayerSpec::Random,
        None => return Err(SpecError::RandomNamed(s.to_string())),
        Some(entry) if name.is_none() && options.is_empty() => PlayerSpec::Retro(entry),
        Some(entry) => PlayerSpec::RetroWith {
            entry,
            name,
            options,
        },
    })
}

impl PlayerSpec {
    /// The name shown in tables and PGN.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Retro(entry) => entry.info.name.to_string(),
            PlayerSpec::RetroWith {
                name: Some(name), ..
            } => name.clone(),
            PlayerSpec::RetroWith { entry, options, .. } => {
                let mut name = entry.info.name.to_string();
                for (k, v) in options {
                    name.push_str(&format!(" {k}={v}"));
                }
                name
            }
            PlayerSpec::Random => "Random mover".to_string(),
            PlayerSpec::External { name, .. } => name.clone(),
            PlayerSpec::Diluted { ppm, inner } => {
                format!("{} diluted {}%", inner.name(), f64::from(*ppm) / 1e4)
            }
        }
    }

    /// The game it plays; `None` for the random mover, which plays any.
    pub fn game(&self) -> Option<engines::GameKind> {
        match self {
            PlayerSpec::Retro(entry) | PlayerSpec::RetroWith { entry, .. } => Some(entry.game),
            PlayerSpec::Random => None,
            PlayerSpec::External { proto, .. } => Some(proto.game()),
            PlayerSpec::Diluted { inner, .. } => inner.game(),
        }
    }

    /// Whether its clock runs on the emulated machine's authentic time.
    pub fn is_retro(&self) -> bool {
        match self {
            PlayerSpec::Retro(_) | PlayerSpec::RetroWith { .. } => true,
            PlayerSpec::Diluted { inner, .. } => inner.is_retro(),
            PlayerSpec::Random | PlayerSpec::External { .. } => false,
        }
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
    ) -> Result<Box<dyn Player<R>>, StartError> {
        Ok(match self {
            PlayerSpec::Retro(entry) => {
                let options = EngineOptions {
                    seed,
                    ..options.clone()
                };
                Box::new(Retro {
                    engine: R::create(entry, &options)?,
                    budget: options.budget,
                })
            }
            PlayerSpec::RetroWith {
                entry,
                options: own,
                ..
            } => {
                let mut options = EngineOptions {
                    seed,
                    ..options.clone()
                };
                for (k, v) in own {
                    options = options.with(k, v);
                }
                Box::new(Retro {
                    engine: R::create(entry, &options)?,
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
                nodes,
            } => rules.start_external(&Launch {
                name,
                cmd,
                args,
                proto: *proto,
                options,
                startup,
                nodes: *nodes,
            })?,
            PlayerSpec::Diluted { ppm, inner } => Box::new(Diluted {
                ppm: *ppm,
                // Its own stream, apart from the one the engine is seeded with.
                rng: SplitMix64::new(seed ^ DILUTION_STREAM),
                inner: inner.start(rules, seed, options, startup)?,
            }),
        })
    }
}

/// Mixed into a diluted player's seed for its own random stream.
const DILUTION_STREAM: u64 = 0xD11u64 << 40;

struct Retro<R: Rules> {
    engine: Box<dyn Engine<R>>,
    budget: u64,
}

impl<R: Rules> Player<R> for Retro<R> {
    fn go(&mut self, game: &Game<R>, _clock: &MatchClock, _other: &MatchClock) -> Turn<R::Wire> {
        let name = self.engine.info().name;
        match self.engine.play(game, self.budget) {
            Ok(reply) => {
                let comment = Some(MoveNote {
                    score: reply.score,
                    authentic: reply.authentic,
                    nodes: reply.nodes,
                    path: reply.path,
                });
                let authentic = Some(reply.authentic);
                match reply.played {
                    Played::Move(wire) => Turn::Move {
                        wire,
                        authentic,
                        comment,
                    },
                    Played::Astray(astray) => Turn::Astray {
                        astray,
                        authentic,
                        comment,
                    },
                    Played::DeadEnd => Turn::DeadEnd(format!("{name} found no move and stopped")),
                    Played::Hung(hang) => Turn::Hung(hang.kind, format!("{name} hung: {hang}")),
                }
            }
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

/// A player diluted with random moves (see [`PlayerSpec::Diluted`]).
struct Diluted<R: Rules> {
    ppm: u32,
    rng: SplitMix64,
    inner: Box<dyn Player<R>>,
}

impl<R: Rules> Player<R> for Diluted<R> {
    fn go(&mut self, game: &Game<R>, clock: &MatchClock, other: &MatchClock) -> Turn<R::Wire> {
        // One draw a move, whatever the move turns out to be.
        if self.rng.range(0, 999_999) < u64::from(self.ppm) {
            let legal = game.legal_moves();
            if let Some(m) = legal.get(self.rng.range(0, (legal.len() as u64).max(1) - 1) as usize)
            {
                return Turn::Move {
                    wire: game.rules().wire(game.position(), m),
                    authentic: None,
                    comment: None,
                };
            }
        }
        self.inner.go(game, clock, other)
    }

    fn finish(&mut self) {
        self.inner.finish();
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
                spec.parse::<PlayerSpec>().map_err(|e| e.to_string()),
                Err(format!("cmd= is empty in {spec:?}"))
            );
        }
        let spec = "cmd=sf,proto=uci,name= ";
        assert_eq!(
            spec.parse::<PlayerSpec>().map_err(|e| e.to_string()),
            Err(format!("name= is empty in {:?}", spec.trim()))
        );
        let spec: PlayerSpec = "cmd=engines/\t\t,proto=cecp".parse().unwrap();
        assert_eq!(spec.name(), "engines/");
    }

    /// Found by the `player_spec` fuzz target in CI: a spec that is only
    /// `dilute=P` panicked (an empty list sliced from 1); it is refused.
    #[test]
    fn dilute_alone_is_refused_not_a_panic() {
        for spec in ["dilute=  1e-300", "dilute=0.5", " dilute=1 "] {
            let err = spec.parse::<PlayerSpec>().map_err(|e| e.to_string());
            assert!(err.is_err(), "{spec:?} accepted");
        }
    }

    #[test]
    fn ladder_specs_parse() {
        let d: PlayerSpec = "cmd=/usr/games/stockfish,proto=uci,nodes=5000,name=SF,dilute=0.25"
            .parse()
            .unwrap();
        let PlayerSpec::Diluted { ppm, inner } = &d else {
            panic!("{d:?}")
        };
        assert_eq!(*ppm, 250_000);
        assert!(matches!(
            **inner,
            PlayerSpec::External {
                nodes: Some(5000),
                ..
            }
        ));
        assert_eq!(d.name(), "SF diluted 25%");
        assert!(!d.is_retro());
        let s: PlayerSpec = "samuel-f8,option.Level=3".parse().unwrap();
        assert_eq!(s.name(), "Samuel F8 checkers Level=3");
        assert!(s.is_retro());
        assert_eq!(
            "random,dilute=1".parse::<PlayerSpec>().unwrap().name(),
            "Random mover diluted 100%"
        );
        for (spec, message) in [
            (
                "random,dilute=1.5",
                "dilute=1.5: not a probability from 0 to 1",
            ),
            ("random,dilute=0.1,dilute=0.2", "dilute= twice"),
            ("cmd=x,proto=xboard,nodes=10", "nodes= is for UCI engines"),
            ("cmd=x,proto=uci,nodes=0", "nodes=0: not a positive number"),
            (
                "samuel-f8,option.Depth=3",
                "samuel-f8 has no option \"Depth\" (it has: Level)",
            ),
            (
                "samuel-f8,option.Level=99",
                "option Level: \"99\" is not a number from 1 to 15",
            ),
            (
                "chesskelet,option.Level=1",
                "chesskelet has no option \"Level\" (it has: none)",
            ),
            (
                "1k-zx-chess,colour=red",
                "unknown setting \"colour\" of 1k-zx-chess",
            ),
        ] {
            let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(message), "{spec}: {e}");
        }
    }

    #[test]
    fn specs_parse() {
        assert_eq!("random".parse::<PlayerSpec>(), Ok(PlayerSpec::Random));
        assert_eq!(
            "1k-zx-chess".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Retro(engines::find("1k-zx-chess").unwrap()))
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
                options: vec![("Skill Level".into(), "0".into())],
                nodes: None,
            }
        );
        assert!(
            "nope"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .to_string()
                .starts_with("unknown engine \"nope\"")
        );
        assert!(
            "cmd=x"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .to_string()
                .contains("proto=")
        );
        assert!(
            "cmd=x,proto=fics"
                .parse::<PlayerSpec>()
                .unwrap_err()
                .to_string()
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
            let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
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
                .to_string()
                .contains("unknown engine setting")
        );
    }
}
