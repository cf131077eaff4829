//! The options every front end offers (the seed, the driver's declared
//! options, `IllegalMoves`, `AuthenticTiming`, `TimeScale`, `ShowScreen`),
//! with their current values, and the engine's display name.

use std::fmt;
use std::time::Duration;

use crate::engines::{BadValue, EngineInfo, EngineOptions, Entry, OptionKind, OptionSpec};

/// Why an option was not set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// No option of this name (as given).
    Unknown(String),
    /// The option refuses the value.
    Value(BadValue),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Unknown(name) => write!(f, "unknown option {name:?}"),
            SettingError::Value(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SettingError {}

/// A front end's own option given on the command line (`--option
/// NAME=VALUE`) and refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetError {
    pub name: String,
    pub value: String,
    pub error: SettingError,
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PresetError { name, value, error } = self;
        write!(f, "--option {name}={value}: {error}")
    }
}

impl std::error::Error for PresetError {}

/// What to do when the program plays an illegal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPolicy {
    /// Send it anyway and let the GUI adjudicate (the program's true strength).
    Play,
    /// Resign instead, with the reason.
    Resign,
}

/// The options every front end offers, with their current values: the
/// seed, the options the engine's driver declares, and the front ends' own.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The driver's options (seed, tape, declared values).
    pub engine: EngineOptions,
    /// What the driver declares, with its defaults.
    declared: Vec<OptionSpec>,
    /// The engine has an emulated screen to show.
    has_screen: bool,
    pub illegal: IllegalPolicy,
    /// Wait out the original machine's thinking time.
    pub authentic: bool,
    /// Percentage of the authentic time to wait.
    pub time_scale: u32,
    /// Show the emulated screen after each move.
    pub show_screen: bool,
    /// `Seed` is `random`: each new game draws a fresh seed (and says it).
    pub fresh_seed: bool,
}

/// The largest seed GUIs can set (UCI spins are 32-bit in many GUIs).
pub const SEED_MAX: u64 = 2_147_483_647;
pub const TIME_SCALE_MAX: u32 = 10_000;

impl Settings {
    /// At a new game: with `Seed` `random`, a seed drawn afresh (from the
    /// clock and the process's hash keys, as a real machine's FRAMES held
    /// whatever it held), now the engine's; `None` otherwise (the default:
    /// the same seed, the same game).
    pub fn next_game_seed(&mut self) -> Option<u64> {
        use std::hash::{BuildHasher, Hasher};
        if !self.fresh_seed {
            return None;
        }
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let seed = crate::rng::SplitMix64::new(h.finish()).next_u64() % (SEED_MAX + 1);
        self.engine.seed = seed;
        Some(seed)
    }
}

/// What changing an option needs.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing beyond the new value.
    Value,
    /// The engine must be recreated with the new driver options.
    Recreate,
}

fn recreate_if(changed: bool) -> Change {
    if changed {
        Change::Recreate
    } else {
        Change::Value
    }
}

impl Settings {
    /// The settings of the built-in engine `entry`, starting from `engine`
    /// (the command line's values).
    pub fn new(entry: &Entry, engine: EngineOptions) -> Settings {
        Settings {
            engine,
            declared: (entry.options)(),
            has_screen: entry.has_screen,
            illegal: IllegalPolicy::Play,
            authentic: false,
            time_scale: 100,
            show_screen: false,
            fresh_seed: false,
        }
    }

    /// The settings of `entry` for a front end started from the command
    /// line: `engine.values` may also name the front ends' own options
    /// (`--option Seed=random`, `--option IllegalMoves=resign`), which are
    /// set here, as a GUI's `setoption` would set them, and leave the
    /// driver's values. A manager that cannot send a value its client
    /// library refuses (python-chess refuses `random` for the spin `Seed`,
    /// so lichess-bot cannot set it) passes it this way.
    ///
    /// # Errors
    /// A value the option refuses, with the option named.
    pub fn from_command_line(
        entry: &Entry,
        mut engine: EngineOptions,
    ) -> Result<Settings, PresetError> {
        let own = [
            "Seed",
            "IllegalMoves",
            "AuthenticTiming",
            "TimeScale",
            "ShowScreen",
        ];
        let presets: Vec<(String, String)> = engine
            .values
            .iter()
            .filter(|(name, _)| own.iter().any(|o| o.eq_ignore_ascii_case(name)))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        for (name, _) in &presets {
            engine.values.remove(name);
        }
        let mut settings = Settings::new(entry, engine);
        for (name, value) in presets {
            settings
                .set(&name, Some(&value))
                .map_err(|error| PresetError {
                    name: name.clone(),
                    value: value.clone(),
                    error,
                })?;
        }
        Ok(settings)
    }

    /// The options, with the current values as defaults (the seed given on
    /// the command line is the default a GUI shows).
    pub fn specs(&self) -> Vec<OptionSpec> {
        let check = |name, default| OptionSpec {
            name,
            kind: OptionKind::Check { default },
        };
        let mut specs = vec![OptionSpec {
            name: "Seed",
            kind: OptionKind::Spin {
                default: self.engine.seed.min(SEED_MAX) as i64,
                min: 0,
                max: SEED_MAX as i64,
            },
        }];
        specs.extend(
            self.declared
                .iter()
                .map(|d| match self.engine.value(d.name) {
                    Some(v) => d.with_default(v),
                    None => d.clone(),
                }),
        );
        specs.extend([
            OptionSpec {
                name: "IllegalMoves",
                kind: OptionKind::Combo {
                    default: match self.illegal {
                        IllegalPolicy::Play => "play",
                        IllegalPolicy::Resign => "resign",
                    },
                    vars: &["play", "resign"],
                },
            },
            check("AuthenticTiming", self.authentic),
            OptionSpec {
                name: "TimeScale",
                kind: OptionKind::Spin {
                    default: i64::from(self.time_scale),
                    min: 1,
                    max: i64::from(TIME_SCALE_MAX),
                },
            },
        ]);
        if self.has_screen {
            specs.push(check("ShowScreen", self.show_screen));
        }
        specs
    }

    /// Sets option `name` (case-insensitive, as UCI allows) to `value`.
    ///
    /// # Errors
    /// Unknown option or a value out of range.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, SettingError> {
        let value = value.map(str::trim).unwrap_or("");
        let spec = self
            .specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SettingError::Unknown(name.to_string()))?;
        if spec.name == "Seed" && value.eq_ignore_ascii_case("random") {
            self.fresh_seed = true;
            return Ok(Change::Value);
        }
        let value = spec.check(value).map_err(SettingError::Value)?;
        match spec.name {
            "Seed" => {
                self.fresh_seed = false;
                let seed = value.parse::<u64>().unwrap_or(self.engine.seed);
                let changed = seed != self.engine.seed;
                self.engine.seed = seed;
                Ok(recreate_if(changed))
            }
            "IllegalMoves" => {
                self.illegal = match value.as_str() {
                    "resign" => IllegalPolicy::Resign,
                    _ => IllegalPolicy::Play,
                };
                Ok(Change::Value)
            }
            "AuthenticTiming" => {
                self.authentic = value == "true";
                Ok(Change::Value)
            }
            "TimeScale" => {
                self.time_scale = value.parse().unwrap_or(self.time_scale);
                Ok(Change::Value)
            }
            "ShowScreen" => {
                self.show_screen = value == "true";
                Ok(Change::Value)
            }
            declared => {
                let before = self.engine.value(declared).map(str::to_string);
                let default = match &spec.kind {
                    OptionKind::Combo { default, .. } => Some(default.to_string()),
                    _ => None,
                };
                let changed = before.or(default).as_deref() != Some(value.as_str());
                self.engine.values.insert(declared.to_string(), value);
                Ok(recreate_if(changed))
            }
        }
    }

    /// How long to hold the program's move back so that it comes after the
    /// original machine's thinking time (scaled), never beyond `limit`, the
    /// time the clock allows for the move. `spent` is already gone.
    pub fn authentic_wait(
        &self,
        authentic: Duration,
        spent: Duration,
        limit: Option<Duration>,
    ) -> Duration {
        if !self.authentic {
            return Duration::ZERO;
        }
        let mut want = authentic.mul_f64(f64::from(self.time_scale) / 100.0);
        if let Some(limit) = limit {
            want = want.min(limit);
        }
        want.saturating_sub(spent)
    }
}

/// The engine's `id name`/`myname`: the program, its author and year, and us
/// (no comma: PolyGlot cuts a CECP `myname` there).
pub fn display_name(info: &EngineInfo) -> String {
    format!(
        "{} ({} {}) via retrochess {}",
        info.name,
        info.author,
        info.year,
        env!("CARGO_PKG_VERSION")
    )
}

impl fmt::Display for IllegalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalPolicy::Play => "play",
            IllegalPolicy::Resign => "resign",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_refuse() {
        let mut s = settings("1k-zx-chess");
        assert_eq!(s.set("seed", Some("42")), Ok(Change::Recreate));
        assert_eq!(s.engine.seed, 42);
        assert_eq!(s.set("Seed", Some("42")), Ok(Change::Value));
        assert_eq!(s.set("Opening", Some("THINK")), Ok(Change::Recreate));
        assert_eq!(s.engine.value("Opening"), Some("think"));
        assert_eq!(s.set("Opening", Some("think")), Ok(Change::Value));
        assert_eq!(s.set("Frames", Some("fast")), Ok(Change::Recreate));
        assert_eq!(s.engine.value("Frames"), Some("fast"));
        assert_eq!(s.set("IllegalMoves", Some("resign")), Ok(Change::Value));
        assert_eq!(s.illegal, IllegalPolicy::Resign);
        assert_eq!(s.set("AuthenticTiming", Some("true")), Ok(Change::Value));
        assert_eq!(s.set("TimeScale", Some("50")), Ok(Change::Value));
        assert_eq!(s.time_scale, 50);
        let bad: &[(&str, Option<&str>)] = &[
            ("Hash", Some("16")),
            ("Seed", Some("-1")),
            ("Seed", Some("x")),
            ("Seed", None),
            ("TimeScale", Some("0")),
            ("Opening", Some("book")),
            ("ShowScreen", Some("maybe")),
        ];
        for (name, value) in bad {
            assert!(s.set(name, *value).is_err(), "{name} {value:?}");
        }
        assert_eq!(s.time_scale, 50, "a refused value changes nothing");
    }

    #[test]
    fn the_command_line_presets_the_front_ends_options() {
        let entry = crate::engines::entry("1k-zx-chess").unwrap();
        let options = EngineOptions::default()
            .with("seed", "random")
            .with("IllegalMoves", "resign")
            .with("Opening", "think");
        let s = Settings::from_command_line(entry, options).unwrap();
        assert!(s.fresh_seed);
        assert_eq!(s.illegal, IllegalPolicy::Resign);
        // The driver keeps its own options and never sees the front ends'.
        assert_eq!(s.engine.value("Opening"), Some("think"));
        assert_eq!(s.engine.values.len(), 1, "{:?}", s.engine.values);
        let bad = EngineOptions::default().with("TimeScale", "0");
        let e = Settings::from_command_line(entry, bad).unwrap_err();
        assert_eq!((e.name.as_str(), e.value.as_str()), ("TimeScale", "0"));
        assert!(e.to_string().starts_with("--option TimeScale=0: "), "{e}");
    }

    fn settings(id: &str) -> Settings {
        Settings::new(crate::engines::entry(id).unwrap(), EngineOptions::default())
    }

    #[test]
    fn each_engine_offers_what_its_driver_declares() {
        let names = |id| -> Vec<&str> { settings(id).specs().iter().map(|s| s.name).collect() };
        assert_eq!(
            names("1k-zx-chess"),
            [
                "Seed",
                "Opening",
                "Frames",
                "IllegalMoves",
                "AuthenticTiming",
                "TimeScale",
                "ShowScreen"
            ]
        );
        assert_eq!(
            names("chesskelet"),
            [
                "Seed",
                "IllegalMoves",
                "AuthenticTiming",
                "TimeScale",
                "ShowScreen"
            ]
        );
        let mut s = settings("chesskelet");
        assert_eq!(
            s.set("Opening", Some("think")),
            Err(SettingError::Unknown("Opening".into()))
        );
        assert!(s.set("Frames", Some("fast")).is_err());
    }

    #[test]
    fn authentic_waits_are_capped() {
        let mut s = settings("1k-zx-chess");
        let secs = Duration::from_secs;
        assert_eq!(
            s.authentic_wait(secs(8), Duration::ZERO, None),
            Duration::ZERO
        );
        s.authentic = true;
        assert_eq!(s.authentic_wait(secs(8), secs(1), None), secs(7));
        s.time_scale = 50;
        assert_eq!(s.authentic_wait(secs(8), secs(1), Some(secs(2))), secs(1));
        assert_eq!(
            s.authentic_wait(secs(8), secs(3), Some(secs(2))),
            Duration::ZERO
        );
    }
}
