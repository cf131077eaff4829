//! A run ended from outside the emulated machine ([`Cut`]): a check the
//! run loop makes between slices of emulated time, for a limit that is not
//! counted in T-states — the GUI's clock, which enters at the protocol edge
//! as a deadline on the host's wall clock. This layer knows nothing of
//! what the check means; it only promises to ask often and to stop with
//! [`Stop::Cut`](super::Stop::Cut) when told to.
//!
//! The check is made only where the run loop stops anyway (after the CPU
//! ran to the next frame event, a trap, a ROM routine), never by ending a
//! run of the CPU early, so a run with a cut set executes exactly what the
//! same run without one executes, up to the stop.

use std::fmt;
use std::sync::Arc;

/// Busy T-states between two checks: about 0.1–0.3 ms of host time at the
/// rates hosts emulate (hundreds of millions of T-states a second), well
/// below the few milliseconds a clock's safety margin leaves. The run loop
/// stops at least once a frame (65,000–70,000 T-states) on both machines,
/// so a check comes at most a frame after it is due.
pub const CUT_SLICE: u64 = 50_000;

/// Whether a run must end now, asked by the run loop every [`CUT_SLICE`]
/// T-states. [`Cut::never`] (the default) is never asked.
#[derive(Clone, Default)]
pub struct Cut(Option<Arc<dyn Fn() -> bool + Send + Sync>>);

impl Cut {
    /// No cut: the run ends only by the machine's own stops or its budget.
    pub fn never() -> Cut {
        Cut(None)
    }

    /// A cut that comes as soon as `due` says so.
    pub fn when(due: impl Fn() -> bool + Send + Sync + 'static) -> Cut {
        Cut(Some(Arc::new(due)))
    }

    /// Whether a check is set at all.
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Whether the run must end now.
    pub fn due(&self) -> bool {
        self.0.as_ref().is_some_and(|due| due())
    }
}

impl fmt::Debug for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_set() {
            "Cut(set)"
        } else {
            "Cut(never)"
        })
    }
}
