//! ChesSkelet (`src/engines/chesskelet.rs`, `tapes/chesskelet*.tap`).

mod candidates;
mod engine;
mod golden;
mod robustness;
