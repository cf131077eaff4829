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
}

/// Runs `f` and returns its result with the host time its machines spent
/// inside the CPU core (on this thread).
pub fn core_time<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let before = IN_CORE.with(Cell::get);
    let was = TIMING.with(|t| t.replace(true));
    let result = f();
    TIMING.with(|t| t.set(was));
    (result, IN_CORE.with(Cell::get) - before)
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
    result
}
