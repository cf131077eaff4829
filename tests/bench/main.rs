//! Benchmarks run as tests: the numbers the documentation quotes (T-states
//! per ChesSkelet reply, `samuel-f8` speed, our own Z80 core's lockstep
//! coverage), printed with `--nocapture` and held within bounds. One module
//! per engine or core:
//! `cargo test --profile suite --test bench MODULE -- --nocapture`.

#[path = "../common/mod.rs"]
mod common;

mod chesskelet_bench;
mod own_lockstep_bench;
mod samuel_f8_bench;
