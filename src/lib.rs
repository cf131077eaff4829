//! retrochess: Sinclair-era chess programs, run unmodified in emulated
//! machines, as engines that modern chess software can talk to.
//!
//! Layers, bottom up:
//! - [`machine`]: the emulated ZX81 (and Spectrum): CPU, memory, high-level
//!   ROM traps, keyboard, screen, tapes. No chess.
//! - [`engines`]: one driver per retro program, behind [`engines::ChessEngine`].
//! - [`arbiter`]: shakmaty's verdict on every move, with reasons.
//! - [`protocol`]: UCI and CECP as state machines over lines.

pub mod arbiter;
pub mod rules;
pub mod engines;
pub mod machine;
pub mod protocol;
pub mod runner;
