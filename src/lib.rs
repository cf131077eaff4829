//! retrochess: Sinclair-era chess and draughts programs, run unmodified in
//! emulated machines, as engines that modern software can talk to.
//!
//! Layers, bottom up:
//! - [`machine`]: the emulated ZX81 (and Spectrum): CPU, memory, high-level
//!   ROM traps, keyboard, screen, tapes. No game.
//! - [`rules`]: the rules seam ([`rules::Rules`], [`rules::Game`]): chess
//!   over shakmaty, English checkers and Draughts 1K's house rules; every
//!   move judged, with reasons.
//! - [`engines`]: one driver per program, behind [`engines::Engine`],
//!   generic over the rules.
//! - [`arbiter`]: the rules' [`arbiter::Judgement`] on a program's turn,
//!   made once for every front end, the runner, `play` and `explain`.
//! - [`picture`]: pictures of the emulated screens (PNG), from display
//!   memory, with our own character set.
//! - [`protocol`]: UCI and CECP as state machines over lines, on one
//!   protocol core (session, worker, search desk).
//! - [`runner`]: the match runner, generic over the game.
//!
//! Beside them, [`rng`]: the one seeded random number generator, for the
//! machines, the engines, the runner, ratings, the page and the protocols.

pub mod arbiter;
pub mod engines;
pub mod machine;
pub mod picture;
pub mod protocol;
pub mod rating;
pub mod rng;
pub mod rules;
pub mod runner;
pub mod serve;
