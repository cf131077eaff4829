//! The retro programs, each behind one trait, generic over the game.
//!
//! A driver owns an emulated machine with the original program loaded. It
//! brings the program to the position a GUI asks about — typing the
//! opponent's move on the emulated keyboard when it continues the game on the
//! machine, setting the position up in the program's memory otherwise — lets
//! the program think, and reads its move back off the emulated screen.
//! Nothing above this layer knows a Z80 address: a reply is a wire move
//! ([`Played`]), a typed hang ([`Hang`]) and a cost; a driver declares its
//! own options ([`OptionSpec`]) and the front ends render them.
//!
//! Drivers report what the program did, legal or not: judging it is the
//! rules' job (`crate::rules`). An engine with no emulated machine (a native
//! engine) implements the same [`Engine`] trait.

pub mod baker;
pub mod chesskelet;
pub mod draughts_1k;
pub mod driver;
pub mod onek;
pub mod samuel_f8;

mod engine;
mod engine_options;
mod entry;
mod error;
mod game_rules;
mod info;
mod options;
mod registry;
mod reply;

pub use engine::{Engine, RateSample};
pub use engine_options::{DEFAULT_BUDGET, EngineOptions};
pub use entry::{Catalogue, Create, Entry, Maker};
pub use error::EngineError;
pub use game_rules::{GameRules, RulesError};
pub use info::{EngineInfo, GameKind, NATIVE};
pub use options::{BadValue, FRAMES, OPENING, OptionKind, OptionSpec, Takes};
pub use registry::{REGISTRY, catalogue, default_for, engine_ids, entry, find, info};
pub use reply::{Candidate, Hang, InputPath, Played, Reply, Thoughts, Ties};
