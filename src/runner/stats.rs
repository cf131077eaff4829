//! Match statistics: score, Elo difference with its 95% error bar, and the
//! likelihood of superiority, from wins, draws and losses.
//!
//! Elo difference from a score fraction `s`: `-400·log10(1/s − 1)`. The error
//! bar takes the per-game score's standard deviation over `n` games, its
//! standard error `σ/√n`, and maps `s ± 1.96·σ/√n` through the same formula
//! (half the width of that interval). LOS (likelihood that the first player
//! is stronger, draws ignored) is `½·(1 + erf((W − L)/√(2(W + L))))`.

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Score fraction, `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// Elo difference implied by the score; infinite at 0% or 100%.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// Half-width of the 95% confidence interval of the Elo difference.
    pub fn elo_error(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let margin = 1.959_963_984_540_054 * (variance / n).sqrt();
        let lo = elo_of_score((s - margin).max(0.0));
        let hi = elo_of_score((s + margin).min(1.0));
        Some((hi - lo) / 2.0)
    }

    /// Likelihood of superiority; `None` when every game was drawn.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }
}

pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// Formats an Elo figure, with `inf` for a clean sweep.
pub fn fmt_elo(e: Option<f64>) -> String {
    match e {
        Some(x) if x.is_infinite() => {
            if x > 0.0 {
                "+inf".into()
            } else {
                "-inf".into()
            }
        }
        Some(x) => format!("{x:+.0}"),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn hand_computed_values() {
        // 6 wins, 2 draws, 2 losses of 10: s = 0.7, Elo = -400·log10(1/0.7 − 1)
        // = 400·log10(7/3) = 147.19.
        let r = Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        assert!(close(r.score().unwrap(), 0.7, 1e-12));
        assert!(close(r.elo().unwrap(), 147.19, 0.01), "{:?}", r.elo());
        // Variance: 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16; σ/√n = 0.12649;
        // s ± 1.96·0.12649 = 0.45208 .. 0.94792; Elo −33.40 .. +504.03: ±268.72.
        assert!(
            close(r.elo_error().unwrap(), 268.72, 0.01),
            "{:?}",
            r.elo_error()
        );
        // LOS: ½(1 + erf(4/√16)) = ½(1 + erf(1)) = 0.92135.
        assert!(close(r.los().unwrap(), 0.921_35, 1e-4), "{:?}", r.los());
        let even = Wdl {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        assert!(close(even.elo().unwrap(), 0.0, 1e-9));
        assert!(close(even.los().unwrap(), 0.5, 1e-9));
        assert_eq!(
            Wdl {
                wins: 0,
                draws: 5,
                losses: 0
            }
            .los(),
            None
        );
        assert_eq!(
            Wdl {
                wins: 4,
                draws: 0,
                losses: 0
            }
            .elo(),
            Some(f64::INFINITY)
        );
        assert_eq!(Wdl::default().score(), None);
        assert!(close(erf(0.5), 0.520_499_9, 1e-6) && close(erf(-0.5), -0.520_499_9, 1e-6));
        assert_eq!(fmt_elo(Some(147.19)), "+147");
        assert_eq!(fmt_elo(Some(f64::NEG_INFINITY)), "-inf");
    }
}
