//! From the GUI's clock to the program's budget: the clock as the
//! protocols describe it ([`Clock`]), the bounds it sets on one move
//! ([`Limits`]), and the host's emulated speed ([`Speed`]) that turns time
//! into T-states.

use std::time::Duration;

/// Emulated speed of this host, measured from the replies, to turn the clock
/// into a T-state budget.
///
/// The rule (issue "tried as a new user would"): a retro program thinks with
/// a fixed effort and, cut short, has nothing to give — `bestmove 0000` is a
/// lost game. So a program is only cut short when it could not have finished
/// before the real deadline anyway: the budget is the time up to the
/// deadline, less a safety margin ([`Clock::limits`]), times the rate this
/// host emulates. Before the first measurement the rate is an optimistic
/// [`DEFAULT_RATE`]: a pessimistic guess would cut a program that fits the
/// clock (at 0.1+0.01, a 150 MHz guess left 1K ZX Chess 0.9 M T-states for a
/// move that needs 4–7 M), while an optimistic one only lets a program that
/// really hangs run into the deadline, where it loses on time instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Speed {
    /// Emulated T-states per host second.
    rate: f64,
}

/// Before the first measurement: above what hosts emulate (450–850 × 10⁶
/// T-states per second measured on the development machine).
pub const DEFAULT_RATE: f64 = 1e9;
/// Budget when the clock sets no limit (`go infinite`, `go depth`, no
/// clock at all): ample for the programs here, yet a hung program is given
/// up after some seconds of host time.
pub const NO_CLOCK_BUDGET: u64 = 5_000_000_000;
/// Time reserved for the pipes, the GUI and the host's scheduling.
pub const OVERHEAD: Duration = Duration::from_millis(30);

impl Default for Speed {
    fn default() -> Self {
        Speed { rate: DEFAULT_RATE }
    }
}

impl Speed {
    /// Learns from a reply: `tstates` emulated in `host` time. Replies too
    /// short to time (the tape's stored move) teach nothing.
    pub fn observe(&mut self, tstates: u64, host: Duration) {
        if tstates < 100_000 || host < Duration::from_millis(1) {
            return;
        }
        let sample = (tstates as f64 / host.as_secs_f64()).clamp(10e6, 5e9);
        // Slow to trust a fast sample, quick to believe a slow one.
        let weight = if sample < self.rate { 0.5 } else { 0.2 };
        self.rate = self.rate * (1.0 - weight) + sample * weight;
    }

    /// T-states per host second, as now estimated.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The budget for a move that must be ready within `limit` of host time
    /// (the margin is already taken off): what the host emulates in that
    /// time. No limit: [`NO_CLOCK_BUDGET`].
    pub fn budget(&self, limit: Option<Duration>) -> u64 {
        match limit {
            None => NO_CLOCK_BUDGET,
            Some(limit) => ((limit.as_secs_f64() * self.rate) as u64).clamp(1, NO_CLOCK_BUDGET),
        }
    }
}

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
    ///   may fill;
    /// - `ceiling`, the most the program itself may take before it is called
    ///   hung: the real deadline, all that is left, less a safety margin of
    ///   [`OVERHEAD`] and a tenth, but never less than half of what is left;
    ///   or the move time less [`OVERHEAD`] (at least half of it).
    pub fn limits(&self) -> Limits {
        let move_time = self
            .move_time
            .map(|t| t.saturating_sub(OVERHEAD).max(t / 2));
        let share = self.remaining.map(|left| {
            let moves = self.moves_to_go.unwrap_or(20).clamp(1, 50);
            (left / moves)
                .saturating_add(self.increment.mul_f64(0.75))
                .min(left / 2)
                .saturating_sub(OVERHEAD)
        });
        let ceiling = self
            .remaining
            .map(|left| left.saturating_sub(OVERHEAD + left / 10).max(left / 2));
        let tighter = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            share: tighter(move_time, share),
            ceiling: tighter(move_time, ceiling),
        }
    }
}

/// The bounds the clock sets on one move (see [`Clock::limits`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub share: Option<Duration>,
    pub ceiling: Option<Duration>,
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
                l.ceiling.map(|d| d.as_millis()),
            )
        };
        assert_eq!(c(None, 0, None, None), (None, None));
        assert_eq!(c(None, 0, None, Some(1000)), (Some(970), Some(970)));
        assert_eq!(c(None, 0, None, Some(20)), (Some(10), Some(10)));
        // 60 s, no increment: a 20th to share; the program may think up to
        // the deadline less the margin (30 ms and a tenth) before it is
        // called hung.
        assert_eq!(c(Some(60_000), 0, None, None), (Some(2970), Some(53_970)));
        assert_eq!(
            c(Some(60_000), 2000, None, None),
            (Some(4470), Some(53_970))
        );
        // One move to go: half of what is left to share.
        assert_eq!(c(Some(1000), 0, Some(1), None), (Some(470), Some(870)));
        // A scramble: nothing to share, yet the program may use what the
        // clock really leaves (at 0.1+0.01, 60 ms: 1K ZX Chess needs 6–10).
        assert_eq!(c(Some(100), 0, None, None), (Some(0), Some(60)));
        assert_eq!(c(Some(300), 0, None, None), (Some(0), Some(240)));
        assert_eq!(c(Some(20), 0, None, None), (Some(0), Some(10)));
        // Both: the tighter.
        assert_eq!(c(Some(60_000), 0, None, Some(500)), (Some(470), Some(470)));
    }

    #[test]
    fn speed_budgets() {
        let mut s = Speed::default();
        assert_eq!(s.budget(None), NO_CLOCK_BUDGET);
        assert_eq!(s.budget(Some(Duration::from_secs(1))), 1_000_000_000);
        s.observe(6_000_000, Duration::from_millis(12));
        assert!(
            s.rate() < DEFAULT_RATE && s.rate() > 500e6,
            "a slower host is believed"
        );
        assert_eq!(
            s.budget(Some(Duration::from_millis(10))),
            (s.rate() / 100.0) as u64
        );
        s.observe(10, Duration::ZERO);
        let before = s.rate();
        s.observe(6_000_000, Duration::from_millis(600));
        assert!(s.rate() < before / 1.5, "a slow reply is believed at once");
    }
}
