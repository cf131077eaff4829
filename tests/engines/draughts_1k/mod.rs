//! Draughts 1K (`src/engines/draughts_1k.rs`, `tapes/draughts-1k.bin`).

mod candidate_tables;
mod candidates;
mod engine;
