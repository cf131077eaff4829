//! Evidence that independent programs can use retrochess as shipped:
//! python-chess's clients, pydraughts's Hub client, a real xboard under
//! Xvfb, and the files of `adapters/` and `scripts/` run exactly as a
//! person would run them.

#[path = "../common/mod.rs"]
mod common;

mod adapters;
mod analysis;
mod hub_interop;
mod hung_replies;
mod lichess_bot;
mod multipv;
mod picochess;
mod python_interop;
mod xboard_gui;
