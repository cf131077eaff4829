//! Evidence for the rules layer (`src/rules/`): our legal moves, wire moves
//! and records agree with an independent implementation of the game
//! (pydraughts for draughts; chess rules are shakmaty's own).

#[path = "../common/mod.rs"]
mod common;

mod draughts_rules;
