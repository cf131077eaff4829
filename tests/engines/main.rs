//! Evidence for the engines layer (`src/engines/`, `tapes/`): each program
//! image is the printed listing (length, hash, spot bytes, rebuilds), and
//! each driver plays the program as the real machine would run it (boot
//! screens, typed and injected moves, published games, long games, dead ends
//! and hangs), through the `Engine` trait, without the binary.

#[path = "../common/mod.rs"]
mod common;

mod baker;
mod baker_mended;
mod chesskelet;
mod draughts_1k;
mod draughts_tapes;
mod driver;
mod onek;
mod samuel_f8;
mod sweep;
