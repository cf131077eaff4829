//! Host time spent inside the Z80 core, for `bench`: the rest of a reply's
//! host time is the harness around it (run loop, ROM traps, screen reading,
//! board diffing, arbitration).
//!
//! Off unless [`core_time`] is running: then every run of the CPU is timed
//! (one clock read at each of its ends, a few hundred per search).

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static TIMING: Cell<bool> = const { Cell::new(false) };
    static IN_CORE: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// What [`core_time`] measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct CoreTime {
    /// Host time inside the CPU core.
    pub in_core: Duration,
    /// Runs of the CPU timed (each adds the cost of its clock reads, see
    /// [`timing_cost`]).
    pub runs: u64,
}

/// Runs `f` and returns its result with the host time its machines spent
/// inside the CPU core (on this thread).
pub fn core_time<R>(f: impl FnOnce() -> R) -> (R, CoreTime) {
    let (before, runs) = (IN_CORE.with(Cell::get), RUNS.with(Cell::get));
    let was = TIMING.with(|t| t.replace(true));
    let result = f();
    TIMING.with(|t| t.set(was));
    let measured = CoreTime {
        in_core: IN_CORE.with(Cell::get) - before,
        runs: RUNS.with(Cell::get) - runs,
    };
    (result, measured)
}

/// The host time timing one run of the CPU adds, measured on empty runs.
pub fn timing_cost() -> Duration {
    const N: u32 = 10_000;
    let start = Instant::now();
    let _ = core_time(|| {
        for _ in 0..N {
            in_core(|| ());
        }
    });
    start.elapsed() / N
}

/// Times `run`, a run of the CPU, if [`core_time`] asked for it.
#[inline]
pub(crate) fn in_core<R>(run: impl FnOnce() -> R) -> R {
    if !TIMING.with(Cell::get) {
        return run();
    }
    let start = Instant::now();
    let result = run();
    IN_CORE.with(|c| c.set(c.get() + start.elapsed()));
    RUNS.with(|r| r.set(r.get() + 1));
    result
}
