//! Evidence for the runner layer (`src/runner/`, `retrochess match`): the
//! real binary plays chess and draughts matches between retro engines, real
//! external engines and misbehaving ones; records, standings, adjudication,
//! signals and failures of the disk.

#[path = "../common/mod.rs"]
mod common;

mod astray_match;
mod draughts_match;
mod hub_match;
mod match_runner;
mod shard;
