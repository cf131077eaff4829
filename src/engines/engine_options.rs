//! What a driver may be asked to do differently from its defaults
//! ([`EngineOptions`]), and the default budget of a reply.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::machine::Core;

/// What a driver may be asked to do differently from its defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Drives everything the real machine left to chance (FRAMES at start,
    /// how long the person takes over each key). Same seed, same game.
    pub seed: u64,
    /// Load this tape or snapshot instead of the built-in one.
    pub tape: Option<PathBuf>,
    /// T-states a single reply may take before the driver calls it hung.
    pub budget: u64,
    /// Values of the options drivers declare ([`OptionSpec`](super::OptionSpec)), by name as
    /// declared; a driver reads those it declares and ignores the rest, so
    /// one set serves every engine of a match.
    pub values: BTreeMap<String, String>,
    /// The Z80 core the program's machine runs on (engines without one
    /// ignore it).
    pub core: Core,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            seed: 1,
            tape: None,
            budget: DEFAULT_BUDGET,
            values: BTreeMap::new(),
            core: Core::default(),
        }
    }
}

impl EngineOptions {
    /// The value of the declared option `name`, if one was set.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The same options with `name` set to `value`.
    pub fn with(mut self, name: &str, value: &str) -> EngineOptions {
        self.values.insert(name.to_string(), value.to_string());
        self
    }
}

/// Default T-state budget per reply: 20 × 10⁹, over an hour and a half of
/// real ZX81 time even in FAST mode; the programs here need far less.
pub const DEFAULT_BUDGET: u64 = 20_000_000_000;
