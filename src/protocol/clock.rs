//! From the GUI's clock to the bounds on one move: the clock as the
//! protocols describe it ([`Clock`]) and what it allows ([`Limits`]).
//!
//! # The rule (issue 33: "a clock never cuts a program that would have
//! finished in time")
//! A retro program thinks with a fixed effort and, cut short, has nothing
//! to give — `bestmove 0000` is a lost game. So a program is cut only when
//! it is still running at the real deadline: all the time its clock leaves
//! it (or its move time), counted from the command (`go`, `usermove`, Hub
//! `go`). The deadline is a point on the host's wall clock, set at the
//! protocol edge when the command arrives ([`super::worker`]), and reaches
//! the emulated machine as a check the run loop makes between slices of
//! emulated time (`crate::machine::Cut`): the machine's own budgets stay in
//! T-states. How fast the host happens to emulate does not enter: a loaded
//! host gives the program less emulated time before the deadline, never
//! an earlier cut.
//!
//! No margin is kept back. The GUI started its clock when it sent the
//! command, before we read it, so at our deadline its flag has fallen: a
//! margin would only turn some of the late answers it flags anyway into
//! moves given up by us, some of them from programs that would have moved
//! in time. The cut is a hang guard that ends the search the GUI no
//! longer waits for, and says why.
//!
//! Where no clock limits the move (`go infinite`, `go ponder`, `go depth`,
//! no clock at all) there is no deadline, and a T-state budget
//! ([`NO_CLOCK_BUDGET`]) is the only guard against a program that hangs:
//! such runs do not depend on the host at all.

use std::time::Duration;

/// Budget when the clock sets no limit (`go infinite`, `go depth`, no
/// clock at all): ample for the programs here (1K ZX Chess needs 4–7 M
/// T-states a move), yet a hung program is given up after some seconds of
/// host time.
pub const NO_CLOCK_BUDGET: u64 = 5_000_000_000;
/// Time kept back from the fair share ([`Limits::share`]) that the
/// authentic-timing wait may fill: the wait is ours to choose, so it stays
/// well clear of the deadline.
pub const OVERHEAD: Duration = Duration::from_millis(30);

/// A clock as the protocols describe it, from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// A fixed time per move.
    pub move_time: Option<Duration>,
}

impl Clock {
    /// What the clock allows for this move; both `None` when nothing
    /// limits it.
    ///
    /// The programs think with a fixed effort, so there is no target to aim
    /// at, only two bounds:
    /// - `share`, a fair share of the time left (spread over the moves to go,
    ///   or over 20 more moves, plus most of the increment, at most half of
    ///   what is left, less [`OVERHEAD`]), which the authentic-timing wait
    ///   may fill (a move time less [`OVERHEAD`], at least half of it);
    /// - `deadline`, when a program still running is cut: all that is
    ///   left, or the move time, whichever is shorter.
    pub fn limits(&self) -> Limits {
        let less = |t: Duration, kept: Duration| t.saturating_sub(kept).max(t / 2);
        let share = self.remaining.map(|left| {
            let moves = self.moves_to_go.unwrap_or(20).clamp(1, 50);
            (left / moves)
                .saturating_add(self.increment.mul_f64(0.75))
                .min(left / 2)
                .saturating_sub(OVERHEAD)
        });
        let deadline = self.remaining;
        let tighter = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            share: tighter(self.move_time.map(|t| less(t, OVERHEAD)), share),
            deadline: tighter(self.move_time, deadline),
        }
    }
}

/// The bounds the clock sets on one move (see [`Clock::limits`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// What the authentic-timing wait may fill.
    pub share: Option<Duration>,
    /// How long after the command a program still running is cut.
    pub deadline: Option<Duration>,
}

impl Limits {
    /// The T-state budget of a search under these limits: none to speak of
    /// under a deadline (the deadline cuts; the engine's own budget,
    /// `EngineOptions::budget`, still caps it), [`NO_CLOCK_BUDGET`] as the
    /// hang guard where no clock limits.
    pub fn budget(&self) -> u64 {
        match self.deadline {
            Some(_) => u64::MAX,
            None => NO_CLOCK_BUDGET,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_limits() {
        let ms = Duration::from_millis;
        let c = |remaining: Option<u64>, inc: u64, mtg: Option<u32>, mt: Option<u64>| {
            let l = Clock {
                remaining: remaining.map(ms),
                increment: ms(inc),
                moves_to_go: mtg,
                move_time: mt.map(ms),
            }
            .limits();
            (
                l.share.map(|d| d.as_millis()),
                l.deadline.map(|d| d.as_millis()),
            )
        };
        assert_eq!(c(None, 0, None, None), (None, None));
        assert_eq!(c(None, 0, None, Some(1000)), (Some(970), Some(1000)));
        assert_eq!(c(None, 0, None, Some(6)), (Some(3), Some(6)));
        // 60 s, no increment: a 20th to share; the program is cut only if
        // still running when its flag falls.
        assert_eq!(c(Some(60_000), 0, None, None), (Some(2970), Some(60_000)));
        assert_eq!(
            c(Some(60_000), 2000, None, None),
            (Some(4470), Some(60_000))
        );
        // One move to go: half of what is left to share.
        assert_eq!(c(Some(1000), 0, Some(1), None), (Some(470), Some(1000)));
        // A scramble: nothing to share, yet the program may use all the
        // clock really leaves (at 0.1+0.01, 1K ZX Chess needs 6–10 ms).
        assert_eq!(c(Some(100), 0, None, None), (Some(0), Some(100)));
        assert_eq!(c(Some(8), 0, None, None), (Some(0), Some(8)));
        // Both: the tighter.
        assert_eq!(c(Some(60_000), 0, None, Some(500)), (Some(470), Some(500)));
        assert_eq!(c(Some(300), 0, None, Some(500)), (Some(0), Some(300)));
    }

    #[test]
    fn a_deadline_replaces_the_budget_and_no_clock_keeps_the_hang_guard() {
        let timed = Clock {
            remaining: Some(Duration::from_millis(40)),
            ..Clock::default()
        };
        assert_eq!(timed.limits().budget(), u64::MAX, "only the deadline cuts");
        assert_eq!(Clock::default().limits().budget(), NO_CLOCK_BUDGET);
    }
}
