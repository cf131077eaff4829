//! Time controls and clocks.
//!
//! `--tc` takes cutechess's forms: `SECONDS[+INC]`, `MOVES/SECONDS[+INC]`, or
//! `inf`. External engines' clocks run on the wall clock; retro engines'
//! clocks run on their machine's authentic time (the time the original
//! hardware would have taken, computed from emulated T-states), so a time
//! control means the same thing it meant in 1982.

use std::time::Duration;

/// The longest time a `--tc` may give, in seconds: the most milliseconds a
/// 32-bit count holds (about 24.8 days), since engines commonly read UCI's
/// `wtime` into one. Longer is refused; `inf` means no clock.
pub const MAX_SECONDS: f64 = 2_147_483.0;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Infinite,
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
}

/// Why a `--tc` was refused (the text as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// Not `SECONDS[+INC]`, `MOVES/SECONDS[+INC]` or `inf`.
    Malformed(String),
    /// More than [`MAX_SECONDS`].
    TooLong(String),
}

impl std::fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControlError::Malformed(s) => write!(
                f,
                "bad time control {s:?}: use SECONDS[+INC], MOVES/SECONDS[+INC] or inf"
            ),
            TimeControlError::TooLong(s) => write!(
                f,
                "time control {s:?} too long: at most {MAX_SECONDS} s (use inf for no clock)"
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "inf" {
            return Ok(TimeControl::Infinite);
        }
        let bad = || TimeControlError::Malformed(s.to_string());
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?),
                r,
            ),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, i),
            None => (rest, "0"),
        };
        let secs = |t: &str| match t.parse::<f64>() {
            Ok(x) if x > MAX_SECONDS => Err(TimeControlError::TooLong(s.to_string())),
            Ok(x) if x >= 0.0 => Ok(Duration::from_secs_f64(x)),
            _ => Err(bad()),
        };
        let base = secs(base)?;
        if base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            moves,
            base,
            increment: secs(inc)?,
        })
    }
}

impl std::fmt::Display for TimeControl {
    /// In PGN's TimeControl tag form (`40/300`, `10+0.1`, `-`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Infinite => write!(f, "-"),
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
        }
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchClock {
    pub tc: TimeControl,
    /// Time left; `None` without a clock.
    pub left: Option<Duration>,
    /// Moves made in the current period.
    pub moves_made: u32,
}

impl MatchClock {
    pub fn new(tc: TimeControl) -> MatchClock {
        let left = match tc {
            TimeControl::Infinite => None,
            TimeControl::Clock { base, .. } => Some(base),
        };
        MatchClock {
            tc,
            left,
            moves_made: 0,
        }
    }

    /// Moves to go until the next time control, if the control has one.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    pub fn increment(&self) -> Duration {
        match self.tc {
            TimeControl::Clock { increment, .. } => increment,
            TimeControl::Infinite => Duration::ZERO,
        }
    }

    /// Charges a move that took `used`; false if the flag fell.
    pub fn charge(&mut self, used: Duration) -> bool {
        let Some(left) = self.left else { return true };
        if used > left {
            self.left = Some(Duration::ZERO);
            return false;
        }
        let mut left = (left - used).saturating_add(self.increment());
        self.moves_made += 1;
        if let TimeControl::Clock {
            moves: Some(m),
            base,
            ..
        } = self.tc
            && self.moves_made.is_multiple_of(m)
        {
            left = left.saturating_add(base);
        }
        self.left = Some(left);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_run_a_clock() {
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!("10".parse::<TimeControl>().unwrap().to_string(), "10");
        assert_eq!("inf".parse::<TimeControl>().unwrap(), TimeControl::Infinite);
        for bad in [
            "", "x", "0", "40/", "/10", "0/10", "10+-1", "10+x", "NaN", "10+nan",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for long in ["1e300", "inf+1", "10+1e19", "2147484"] {
            let e = long.parse::<TimeControl>().unwrap_err();
            assert_eq!(e, TimeControlError::TooLong(long.to_string()));
            assert!(
                e.to_string().contains("too long: at most 2147483 s"),
                "{long}: {e}"
            );
        }
        assert!("2147483+2147483".parse::<TimeControl>().is_ok());
        let mut c = MatchClock::new("2/10+1".parse().unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(4)));
        assert_eq!(c.left, Some(Duration::from_secs(7)));
        assert!(c.charge(Duration::from_secs(4)));
        assert_eq!(
            c.left,
            Some(Duration::from_secs(14)),
            "new period adds the base"
        );
        assert!(!c.charge(Duration::from_secs(15)));
        assert_eq!(c.left, Some(Duration::ZERO));
        let mut inf = MatchClock::new(TimeControl::Infinite);
        assert!(inf.charge(Duration::from_secs(1_000_000)));
    }
}
