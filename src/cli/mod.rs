//! Subcommands that talk to a person: `play`, `explain`, `screen`, `bench`,
//! `match`, `rate`, `serve`.

pub mod bench;
mod error;
pub mod explain;
pub mod matches;
mod output;
pub mod play;
pub mod rate;
pub mod screen;
pub mod serve;
mod typed;

pub use error::CliError;
pub use output::{OutputError, say};
