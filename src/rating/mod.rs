//! Ratings from games: every player rated jointly by maximum likelihood
//! ([`model`]: Bradley–Terry, a draw half a point by default or with
//! Davidson's draw parameter, and a prior of virtual draws), on a scale
//! fixed by an anchor or by a mean of 0, with 95% intervals and likelihoods
//! of superiority from a seeded bootstrap over the games; a player whose
//! games all had one result (where the bootstrap cannot vary) gets the
//! profile likelihood's interval. [`records`] reads the games from PGN and
//! PDN files; [`plot`] draws them.
//!
//! Only players connected by games can be rated on one scale: the group
//! rated is the anchor's (or, without one, the largest), and the players
//! outside it are listed as not connected.

pub mod model;
pub mod plot;
pub mod records;
pub mod report;
mod unbounded;
mod wdl;

pub use unbounded::NoMaximum;
pub use wdl::Wdl;

use crate::rng::SplitMix64;

pub use model::DrawModel;
use model::{Data, Fit, Pairs};

/// One game between players `white` and `black` (indices into the names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RatedGame {
    pub white: usize,
    pub black: usize,
    pub result: Score,
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    WhiteWins,
    Draw,
    BlackWins,
}

/// How to rate.
#[derive(Clone, Debug, PartialEq)]
pub struct RateOptions {
    pub model: DrawModel,
    /// Virtual draws on each pair of players that met.
    pub prior: f64,
    /// A player held at a rating; otherwise the group's mean is 0.
    pub anchor: Option<(usize, f64)>,
    /// Bootstrap resamples of the games (0: no intervals).
    pub bootstrap: usize,
    pub seed: u64,
}

/// Ratings closer than this (Elo) are equal for the LOS.
pub const TIE: f64 = 1e-6;
/// BayesElo's default prior.
pub const DEFAULT_PRIOR: f64 = 2.0;
/// Resamples for the intervals.
pub const DEFAULT_BOOTSTRAP: usize = 1000;

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            model: DrawModel::Halves,
            prior: DEFAULT_PRIOR,
            anchor: None,
            bootstrap: DEFAULT_BOOTSTRAP,
            seed: 1,
        }
    }
}

/// What the prior's virtual draws did to the ratings, compared with the
/// fit without them.
#[derive(Clone, Debug, PartialEq)]
pub enum PriorEffect {
    /// No rating moved by more than its interval's width (or no prior, or
    /// no intervals to compare with).
    Within,
    /// Without a prior the likelihood has no maximum: these players won
    /// every game against the rest (with `prior` 0, nothing is rated).
    Needed(NoMaximum),
    /// These players' ratings moved by more than their interval's width:
    /// each with its rating without the prior (on the same scale).
    Moved(Vec<(usize, f64)>),
}

/// The ratings of one connected group of players.
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Every player's rating (NaN outside the group).
    pub elo: Vec<f64>,
    /// The 95% interval of each rating, from the bootstrap (the 2.5th and
    /// 97.5th percentiles); `None` without resamples or outside the group.
    pub interval: Vec<Option<(f64, f64)>>,
    /// Each player's wins, draws and losses.
    pub wdl: Vec<Wdl>,
    /// The players rated, strongest first.
    pub order: Vec<usize>,
    /// Players with games but none linking them to the group.
    pub unconnected: Vec<usize>,
    /// The fitted draw parameter.
    pub nu: f64,
    /// What the prior did, against the fit without it.
    pub prior: PriorEffect,
    /// The bootstrap's ratings, one vector per resample.
    samples: Vec<Vec<f64>>,
}

impl Ratings {
    /// The likelihood that `a` is stronger than `b`: the share of bootstrap
    /// resamples rating `a` above `b` (a tie, within [`TIE`], counts half);
    /// `None` without resamples.
    pub fn los(&self, a: usize, b: usize) -> Option<f64> {
        if self.samples.is_empty() {
            return None;
        }
        let above: f64 = self
            .samples
            .iter()
            .map(|s| match s[a] - s[b] {
                // Equal within the fit's precision: a tie.
                d if d.abs() < TIE => 0.5,
                d if d > 0.0 => 1.0,
                _ => 0.0,
            })
            .sum();
        Some(above / self.samples.len() as f64)
    }
}

/// Rates `n` players from `games`.
///
/// With `prior` 0 and a group in which some players won every game
/// against the rest ([`PriorEffect::Needed`]), the likelihood has no
/// maximum: the ratings are NaN and have no intervals.
pub fn rate(n: usize, games: &[RatedGame], options: &RateOptions) -> Ratings {
    let wdl = tally(n, games);
    let group = group(n, games, options.anchor.map(|(p, _)| p));
    let played: Vec<usize> = (0..n).filter(|&p| wdl[p].games() > 0).collect();
    let unconnected = played
        .iter()
        .copied()
        .filter(|p| !group.contains(p))
        .collect();
    let pairs = count(games);
    let prior_pairs: Vec<(usize, usize)> = pairs.keys().copied().collect();
    let data = Data {
        n,
        players: &group,
        pairs: &pairs,
        prior_pairs: &prior_pairs,
        prior: options.prior,
        model: options.model,
    };
    let no_maximum = unbounded::no_maximum(&group, &pairs);
    if options.prior == 0.0
        && let Some(nm) = &no_maximum
    {
        return Ratings {
            elo: vec![f64::NAN; n],
            interval: vec![None; n],
            wdl,
            order: Vec::new(),
            unconnected,
            nu: 0.0,
            prior: PriorEffect::Needed(nm.clone()),
            samples: Vec::new(),
        };
    }
    let full = anchored(model::fit(&data, None), options.anchor, &group);
    let samples = bootstrap(&data, games, &full, options);
    let mut interval = intervals(n, &group, &samples);
    for &p in &group {
        // A player whose every game had one result (a clean sweep, all
        // lost, all drawn) resamples to that result every time: its
        // bootstrap interval is a point. Its interval is the profile
        // likelihood's (with the prior the fit uses), joined with the
        // bootstrap's.
        if options.bootstrap > 0
            && one_result(&wdl[p])
            && options.anchor.is_none_or(|(a, _)| a != p)
            && let Some((lo, hi)) = profile(&data, &full, p, options)
        {
            interval[p] = Some(match interval[p] {
                Some((a, b)) if !samples.is_empty() => (a.min(lo), b.max(hi)),
                _ => (lo, hi),
            });
        }
    }
    let prior = match no_maximum {
        Some(nm) => PriorEffect::Needed(nm),
        None => prior_effect(&data, &full, &interval, options),
    };
    let mut order = group.clone();
    order.sort_by(|&a, &b| full.elo[b].total_cmp(&full.elo[a]).then(a.cmp(&b)));
    Ratings {
        elo: full.elo,
        interval,
        wdl,
        order,
        unconnected,
        nu: full.nu,
        prior,
        samples,
    }
}

/// `f` shifted so that the anchor, if it is in `group`, has its rating.
fn anchored(mut f: Fit, anchor: Option<(usize, f64)>, group: &[usize]) -> Fit {
    if let Some((p, at)) = anchor
        && group.contains(&p)
    {
        let shift = at - f.elo[p];
        for e in f.elo.iter_mut() {
            *e += shift;
        }
        f.elo[p] = at;
    }
    f
}

/// The ratings of `options.bootstrap` resamples of `games` (none without
/// games), each fitted from `full`.
fn bootstrap(data: &Data, games: &[RatedGame], full: &Fit, options: &RateOptions) -> Vec<Vec<f64>> {
    if games.is_empty() {
        return Vec::new();
    }
    // Resampled in a canonical order: the same games, in whatever files and
    // order, give the same intervals.
    let mut games = games.to_vec();
    games.sort_by_key(|g| (g.white, g.black, g.result as u8));
    let mut rng = SplitMix64::new(options.seed);
    (0..options.bootstrap)
        .map(|_| {
            let resample: Vec<RatedGame> = (0..games.len())
                .map(|_| games[rng.range(0, games.len() as u64 - 1) as usize])
                .collect();
            let pairs = count(&resample);
            let data = Data {
                pairs: &pairs,
                ..*data
            };
            anchored(model::fit(&data, Some(full)), options.anchor, data.players).elo
        })
        .collect()
}

/// Player `p`'s profile-likelihood interval on the ratings' scale (from the
/// anchor, or the mean).
fn profile(data: &Data, full: &Fit, p: usize, options: &RateOptions) -> Option<(f64, f64)> {
    let (reference, at) = match options.anchor {
        Some((a, _)) if data.players.contains(&a) => (model::Reference::Player(a), full.elo[a]),
        _ => (model::Reference::Mean, 0.0),
    };
    let (lo, hi) = model::profile_interval(data, full, p, reference)?;
    Some((lo + at, hi + at))
}

/// Where the prior moved a rating by more than its interval's width: the
/// fit without it compared with `full`.
fn prior_effect(
    data: &Data,
    full: &Fit,
    interval: &[Option<(f64, f64)>],
    options: &RateOptions,
) -> PriorEffect {
    if data.prior == 0.0 {
        return PriorEffect::Within;
    }
    let without = Data {
        prior: 0.0,
        ..*data
    };
    let bare = anchored(
        model::fit(&without, Some(full)),
        options.anchor,
        data.players,
    );
    let moved: Vec<(usize, f64)> = data
        .players
        .iter()
        .filter(|&&p| {
            interval[p].is_some_and(|(lo, hi)| (full.elo[p] - bare.elo[p]).abs() > hi - lo)
        })
        .map(|&p| (p, bare.elo[p]))
        .collect();
    if moved.is_empty() {
        PriorEffect::Within
    } else {
        PriorEffect::Moved(moved)
    }
}

/// Each player's wins, draws and losses.
fn tally(n: usize, games: &[RatedGame]) -> Vec<Wdl> {
    let mut wdl = vec![Wdl::default(); n];
    for g in games {
        match g.result {
            Score::WhiteWins => {
                wdl[g.white].wins += 1;
                wdl[g.black].losses += 1;
            }
            Score::Draw => {
                wdl[g.white].draws += 1;
                wdl[g.black].draws += 1;
            }
            Score::BlackWins => {
                wdl[g.black].wins += 1;
                wdl[g.white].losses += 1;
            }
        }
    }
    wdl
}

/// Whether every game of a player had the same result (and it played).
fn one_result(w: &Wdl) -> bool {
    let n = w.games();
    n > 0 && (w.wins == n || w.draws == n || w.losses == n)
}

/// Each player's 95% interval: the 2.5th and 97.5th percentiles of its
/// bootstrap `samples`; `None` outside `group` or without samples.
fn intervals(n: usize, group: &[usize], samples: &[Vec<f64>]) -> Vec<Option<(f64, f64)>> {
    (0..n)
        .map(|p| {
            if samples.is_empty() || !group.contains(&p) {
                return None;
            }
            let mut xs: Vec<f64> = samples.iter().map(|s| s[p]).collect();
            xs.sort_by(f64::total_cmp);
            let at = |q: f64| xs[((q * xs.len() as f64).floor() as usize).min(xs.len() - 1)];
            Some((at(0.025), at(0.975)))
        })
        .collect()
}

/// Results by pair.
fn count(games: &[RatedGame]) -> Pairs {
    let mut pairs = Pairs::new();
    for g in games {
        if g.white == g.black {
            continue;
        }
        let (a, b) = (g.white.min(g.black), g.white.max(g.black));
        let first_wins = match g.result {
            Score::WhiteWins => Some(g.white == a),
            Score::BlackWins => Some(g.black == a),
            Score::Draw => None,
        };
        let r = pairs.entry((a, b)).or_insert([0.0; 3]);
        match first_wins {
            Some(true) => r[0] += 1.0,
            None => r[1] += 1.0,
            Some(false) => r[2] += 1.0,
        }
    }
    pairs
}

/// The players linked by games to `anchor` (or, without one, the largest
/// such group; of equal ones, the one with the first player).
fn group(n: usize, games: &[RatedGame], anchor: Option<usize>) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut played = vec![false; n];
    for g in games {
        played[g.white] = true;
        played[g.black] = true;
        let (a, b) = (root(&mut parent, g.white), root(&mut parent, g.black));
        parent[a.max(b)] = a.min(b);
    }
    let roots: Vec<usize> = (0..n).map(|p| root(&mut parent, p)).collect();
    let chosen = match anchor {
        Some(a) => roots[a],
        None => {
            let mut size = vec![0; n];
            for p in (0..n).filter(|&p| played[p]) {
                size[roots[p]] += 1;
            }
            match (0..n).max_by(|&a, &b| size[a].cmp(&size[b]).then(b.cmp(&a))) {
                Some(r) => r,
                None => return Vec::new(),
            }
        }
    };
    (0..n)
        .filter(|&p| roots[p] == chosen && (played[p] || anchor == Some(p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(white: usize, black: usize, result: Score) -> RatedGame {
        RatedGame {
            white,
            black,
            result,
        }
    }

    #[test]
    fn anchored_groups_intervals_and_los() {
        // 0 beats 1 mostly, 1 and 2 even; 3 and 4 only play each other.
        let mut games = Vec::new();
        for k in 0..20 {
            games.push(g(
                0,
                1,
                if k % 4 == 0 {
                    Score::Draw
                } else {
                    Score::WhiteWins
                },
            ));
            games.push(g(
                1,
                2,
                if k % 2 == 0 {
                    Score::WhiteWins
                } else {
                    Score::BlackWins
                },
            ));
        }
        games.push(g(3, 4, Score::Draw));
        let options = RateOptions {
            anchor: Some((2, 1000.0)),
            bootstrap: 200,
            ..RateOptions::default()
        };
        let r = rate(5, &games, &options);
        assert_eq!(r.order, vec![0, 1, 2]);
        assert_eq!(r.unconnected, vec![3, 4]);
        assert!((r.elo[2] - 1000.0).abs() < 1e-9);
        assert!((r.elo[1] - 1000.0).abs() < 1.0, "{}", r.elo[1]);
        assert!(r.elo[0] > r.elo[1] + 150.0);
        let (lo, hi) = r.interval[0].unwrap();
        assert!(lo < r.elo[0] && r.elo[0] < hi, "{lo} {hi}");
        assert_eq!(r.interval[2], Some((1000.0, 1000.0)), "the anchor holds");
        assert!(r.los(0, 1).unwrap() > 0.99);
        assert!((r.los(1, 2).unwrap() - 0.5).abs() < 0.2);
        // The same seed, the same intervals.
        assert_eq!(rate(5, &games, &options).interval, r.interval);
        // Without an anchor: the largest group, mean 0.
        let free = rate(5, &games, &RateOptions::default());
        let mean = (free.elo[0] + free.elo[1] + free.elo[2]) / 3.0;
        assert!(mean.abs() < 1e-9);
        assert!((free.elo[0] - free.elo[2] - (r.elo[0] - r.elo[2])).abs() < 1e-6);
    }

    #[test]
    fn a_clean_sweep_has_an_interval_not_a_point() {
        // 20 of 20, mean 0 (as `match` rates two players): the bootstrap
        // resamples 20 wins every time; the profile likelihood does not.
        let games: Vec<RatedGame> = (0..20)
            .map(|k| match k % 2 {
                0 => g(0, 1, Score::WhiteWins),
                _ => g(1, 0, Score::BlackWins),
            })
            .collect();
        let r = rate(2, &games, &RateOptions::default());
        // 400·log10(1 + 2·20/2) / 2 either side of the mean.
        let half = 200.0 * 21f64.log10();
        assert!((r.elo[0] - half).abs() < 1e-6, "{}", r.elo[0]);
        let (lo, hi) = r.interval[0].unwrap();
        assert!(lo < r.elo[0] - 50.0 && hi > r.elo[0] + 50.0, "{lo} {hi}");
        assert!(lo > 0.0, "20 of 20 is surely above the mean: {lo}");
        // 0 of 20: the mirror image.
        let (lo1, hi1) = r.interval[1].unwrap();
        assert!((lo1 + hi).abs() < 1e-6 && (hi1 + lo).abs() < 1e-6);
        // Anchored: the loser at 1000, the same gap's interval.
        let anchored = RateOptions {
            anchor: Some((1, 1000.0)),
            ..RateOptions::default()
        };
        let a = rate(2, &games, &anchored);
        let (alo, ahi) = a.interval[0].unwrap();
        assert!((a.elo[0] - 1000.0 - 2.0 * half).abs() < 1e-6);
        assert!(
            alo < a.elo[0] && a.elo[0] < ahi && alo > 1000.0,
            "{alo} {ahi}"
        );
        assert_eq!(a.interval[1], Some((1000.0, 1000.0)));
        // 0 of 20 against a player of a larger group.
        let mut more = games.clone();
        more.extend((0..10).map(|k| match k % 3 {
            0 => g(1, 2, Score::Draw),
            1 => g(2, 1, Score::WhiteWins),
            _ => g(1, 2, Score::WhiteWins),
        }));
        let swept = rate(
            3,
            &more
                .iter()
                .map(|x| RatedGame {
                    white: x.black,
                    black: x.white,
                    ..*x
                })
                .collect::<Vec<_>>(),
            &RateOptions::default(),
        );
        let (lo, hi) = swept.interval[0].unwrap();
        assert!(lo < swept.elo[0] - 50.0 && swept.elo[0] < hi, "{lo} {hi}");
    }
}
