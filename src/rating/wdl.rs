//! Wins, draws and losses of one side, and its score: what the runner's
//! standings count and what [`super::Ratings`] reports beside each rating.

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_score() {
        let r = Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        assert_eq!(r.games(), 10);
        assert_eq!(r.points(), 7.0);
        assert_eq!(r.score(), Some(0.7));
        assert_eq!(Wdl::default().score(), None);
    }
}
