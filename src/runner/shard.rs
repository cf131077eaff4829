//! One shard of a match: `match --shard K/N` plays the games numbered
//! `K, K + N, K + 2N, …` (1-based) of the whole schedule, each with the
//! seeds, opening and colours it has in the unsharded match (they follow
//! from its number), so N machines playing the N shards play exactly the
//! unsharded match between them; `retrochess rate` reads their files
//! together.

use std::str::FromStr;

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    /// The whole match.
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

/// A `--shard` that is not `K/N` with `1 <= K <= N` (the text as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--shard {:?}: not K/N with 1 <= K <= N (e.g. 2/4)",
            self.0
        )
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N`, `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

impl Shard {
    /// How many of `total` games are this shard's.
    pub fn games(&self, total: usize) -> usize {
        total.saturating_sub(self.index).div_ceil(self.count)
    }

    /// The schedule's index (0-based) of this shard's `j`th game.
    pub fn global(&self, j: usize) -> usize {
        j.saturating_mul(self.count).saturating_add(self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_schedule_once() {
        for total in [0, 1, 7, 40] {
            for count in 1..6 {
                let mut seen = Vec::new();
                for index in 0..count {
                    let s = Shard { index, count };
                    seen.extend((0..s.games(total)).map(|j| s.global(j)));
                }
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    (0..total).collect::<Vec<_>>(),
                    "{total} games, {count} shards"
                );
            }
        }
        assert_eq!("2/4".parse(), Ok(Shard { index: 1, count: 4 }));
        for bad in ["0/4", "5/4", "x", "1/0", "2"] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardError(bad.into())), "{bad}");
        }
    }
}
