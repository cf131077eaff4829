//! The rating model: Bradley–Terry with a draw parameter (Davidson 1970),
//! every player fitted jointly by maximum likelihood, with a prior of
//! virtual draws so that a perfect score stays finite.
//!
//! Player `i` has a strength `πᵢ = e^θᵢ`. In a game between `i` and `j`
//!
//! ```text
//! P(i wins) = πᵢ / D,  P(draw) = ν·√(πᵢπⱼ) / D,  P(j wins) = πⱼ / D,
//! D = πᵢ + πⱼ + ν·√(πᵢπⱼ)
//! ```
//!
//! so the odds of a win against a loss are those of the Elo scale
//! (`10^(Δ/400)`, with `Δ = 400·(θᵢ − θⱼ)/ln 10`), and `ν ≥ 0` is the draw
//! parameter, fitted with the ratings: the more draws between players of
//! equal strength, the larger (two equal players draw `ν/(2 + ν)` of their
//! games). The likelihood is concave in `(θ, ln ν)`, so Newton's method
//! finds its one maximum. At the maximum each player's expected score
//! equals its actual score (as Ordo's ratings do), which is why a draw
//! counts as half a point in the ratings; `ν` spreads it between wins and
//! losses. Without a single draw the maximum is at `ν = 0`, plain
//! Bradley–Terry. [`DrawModel::Halves`] holds `ν` at 0 and counts a draw as
//! half a win and half a loss (Ordo's default).
//!
//! **The prior.** Every pair of players that met gets `prior` virtual draws
//! (BayesElo's default is 2), each scored as half a Bradley–Terry win and
//! half a loss. A perfect score is then finite: under [`DrawModel::Halves`],
//! `n` wins out of `n` against one opponent rate
//! `400·log10(1 + 2n/prior)` above it (+416 for 10 of 10 with the default
//! prior of 2, +833 for 100 of 100). The prior adds no virtual draw to `ν`.
//! Games' colours are not modelled: the runner plays each opening with
//! colours reversed.

use std::collections::BTreeMap;

/// `ln 10 / 400`: natural-log strength per Elo point.
pub const ELO: f64 = std::f64::consts::LN_10 / 400.0;
/// The largest `ln ν`: with draws only, the likelihood grows without bound
/// as `ν` does; past `ν = e^20` draws between equals are 1 − 4e-9 certain.
const LN_NU_MAX: f64 = 20.0;

/// How draws enter the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DrawModel {
    /// Bradley–Terry with a fitted draw parameter (Davidson).
    #[default]
    Davidson,
    /// Plain Bradley–Terry, a draw half a win and half a loss (Ordo).
    Halves,
}

/// Results between two players, `a < b`: `a`'s wins, draws, `b`'s wins.
pub type Pairs = BTreeMap<(usize, usize), [f64; 3]>;

/// The maximum of the likelihood (times the prior).
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each player's rating in Elo, for the players fitted (the others:
    /// NaN), shifted so their mean is 0.
    pub elo: Vec<f64>,
    /// The draw parameter (0 under [`DrawModel::Halves`] or without draws).
    pub nu: f64,
    /// Newton steps taken.
    pub steps: usize,
}

/// Fits the ratings of `players` (one connected group) from the results
/// between them, `prior` virtual draws on each pair in `prior_pairs`.
/// Players outside `players` are ignored and rated NaN. `start` (Elo, as a
/// previous fit gave them) speeds up a refit.
pub fn fit(
    n: usize,
    players: &[usize],
    pairs: &Pairs,
    prior_pairs: &[(usize, usize)],
    prior: f64,
    model: DrawModel,
    start: Option<&Fit>,
) -> Fit {
    let mut index = vec![usize::MAX; n];
    for (k, &p) in players.iter().enumerate() {
        index[p] = k;
    }
    let m = players.len();
    let inside = |a: usize, b: usize| index[a] != usize::MAX && index[b] != usize::MAX;
    let pairs: Vec<((usize, usize), [f64; 3])> = pairs
        .iter()
        .filter(|((a, b), _)| inside(*a, *b))
        .map(|((a, b), r)| ((index[*a], index[*b]), *r))
        .collect();
    let prior_pairs: Vec<(usize, usize)> = prior_pairs
        .iter()
        .filter(|(a, b)| inside(*a, *b))
        .map(|(a, b)| (index[*a], index[*b]))
        .collect();
    let draws: f64 = pairs.iter().map(|(_, r)| r[1]).sum();
    let with_nu = model == DrawModel::Davidson && draws > 0.0;
    // Unknowns: θ of players 1..m (player 0 holds 0), then ln ν.
    let dim = m.saturating_sub(1) + usize::from(with_nu);
    let (mut theta, mut ln_nu) = starting_point(players, start);
    let problem = Problem {
        pairs: &pairs,
        prior_pairs: &prior_pairs,
        prior,
        with_nu,
    };
    let steps = if m > 1 {
        problem.maximise(&mut theta, &mut ln_nu, dim)
    } else {
        0
    };
    let mean = theta.iter().sum::<f64>() / m.max(1) as f64;
    let mut elo = vec![f64::NAN; n];
    for (k, &p) in players.iter().enumerate() {
        elo[p] = (theta[k] - mean) / ELO;
    }
    Fit {
        elo,
        nu: if with_nu { ln_nu.exp() } else { 0.0 },
        steps,
    }
}

/// `θ` (relative to `players[0]`) and `ln ν` to start from: `start`'s, or
/// all equal and `ν = 1`.
fn starting_point(players: &[usize], start: Option<&Fit>) -> (Vec<f64>, f64) {
    let mut theta = vec![0.0; players.len()];
    let mut ln_nu = 0.0;
    if let Some(s) = start {
        let base = s.elo[players[0]];
        for (k, &p) in players.iter().enumerate() {
            if s.elo[p].is_finite() && base.is_finite() {
                theta[k] = (s.elo[p] - base) * ELO;
            }
        }
        if s.nu > 0.0 {
            ln_nu = s.nu.ln().min(LN_NU_MAX);
        }
    }
    (theta, ln_nu)
}

/// The log-likelihood (with the prior) over one group's results.
struct Problem<'a> {
    pairs: &'a [((usize, usize), [f64; 3])],
    prior_pairs: &'a [(usize, usize)],
    prior: f64,
    with_nu: bool,
}

impl Problem<'_> {
    /// Newton's method from `theta`, `ln_nu` to the maximum (at most 200
    /// steps); returns the steps taken.
    fn maximise(&self, theta: &mut Vec<f64>, ln_nu: &mut f64, dim: usize) -> usize {
        let mut steps = 0;
        for _ in 0..200 {
            let (value, grad, hess) = self.evaluate(theta, *ln_nu, dim);
            // Newton: solve (−H)·step = g.
            let Some(step) = solve(
                hess.iter()
                    .map(|r| r.iter().map(|h| -h).collect())
                    .collect(),
                grad.clone(),
            ) else {
                break;
            };
            steps += 1;
            if self.backtrack(theta, ln_nu, &step, value) < 1e-12 {
                break;
            }
        }
        steps
    }

    /// Takes the longest of `step`, `step/2`, … (40 tries) by which the
    /// likelihood does not fall below `value`; returns how far the
    /// unknowns moved (0 if none did).
    fn backtrack(&self, theta: &mut Vec<f64>, ln_nu: &mut f64, step: &[f64], value: f64) -> f64 {
        let mut t = 1.0;
        for _ in 0..40 {
            let (th, nu) = self.step(theta, *ln_nu, step, t);
            if self.value(&th, nu) >= value - 1e-12 * value.abs().max(1.0) {
                let moved = th
                    .iter()
                    .zip(theta.iter())
                    .map(|(a, b)| (a - b).abs())
                    .fold((nu - *ln_nu).abs(), f64::max);
                *theta = th;
                *ln_nu = nu;
                return moved;
            }
            t /= 2.0;
        }
        0.0
    }

    fn step(&self, theta: &[f64], ln_nu: f64, step: &[f64], t: f64) -> (Vec<f64>, f64) {
        let mut th = theta.to_vec();
        for k in 1..th.len() {
            th[k] += t * step[k - 1];
        }
        let nu = if self.with_nu {
            (ln_nu + t * step[th.len() - 1]).min(LN_NU_MAX)
        } else {
            ln_nu
        };
        (th, nu)
    }

    fn value(&self, theta: &[f64], ln_nu: f64) -> f64 {
        let mut v = 0.0;
        for &((a, b), [w, d, l]) in self.pairs {
            let (ti, tj) = (theta[a], theta[b]);
            let n = w + d + l;
            let mut terms = vec![ti, tj];
            if self.with_nu {
                terms.push(ln_nu + (ti + tj) / 2.0);
                v += d * ln_nu;
            }
            v += (w + d / 2.0) * ti + (l + d / 2.0) * tj - n * log_sum_exp(&terms);
        }
        for &(a, b) in self.prior_pairs {
            let (ti, tj) = (theta[a], theta[b]);
            v += self.prior * ((ti + tj) / 2.0 - log_sum_exp(&[ti, tj]));
        }
        v
    }

    /// Value, gradient and Hessian in the unknowns (θ₁…θₘ₋₁, ln ν).
    fn evaluate(&self, theta: &[f64], ln_nu: f64, dim: usize) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let m = theta.len();
        let mut g = vec![0.0; m + 1];
        let mut h = vec![vec![0.0; m + 1]; m + 1];
        let nu_at = m;
        let mut add = |pairs: &mut dyn Iterator<Item = (usize, usize, [f64; 3], bool)>| {
            for (a, b, [w, d, l], draw_term) in pairs {
                let (ti, tj) = (theta[a], theta[b]);
                let n = w + d + l;
                let top = ti.max(tj);
                let (pa, pb) = ((ti - top).exp(), (tj - top).exp());
                let pc = if draw_term {
                    (ln_nu + (ti + tj) / 2.0 - top).exp()
                } else {
                    0.0
                };
                let z = pa + pb + pc;
                let (pa, pb, pc) = (pa / z, pb / z, pc / z);
                let (ea, eb) = (pa + pc / 2.0, pb + pc / 2.0);
                g[a] += w + d / 2.0 - n * ea;
                g[b] += l + d / 2.0 - n * eb;
                h[a][a] -= n * (pa + pc / 4.0 - ea * ea);
                h[b][b] -= n * (pb + pc / 4.0 - eb * eb);
                h[a][b] -= n * (pc / 4.0 - ea * eb);
                h[b][a] -= n * (pc / 4.0 - ea * eb);
                if draw_term {
                    g[nu_at] += d - n * pc;
                    h[nu_at][nu_at] -= n * (pc - pc * pc);
                    h[a][nu_at] -= n * (pc / 2.0 - ea * pc);
                    h[nu_at][a] -= n * (pc / 2.0 - ea * pc);
                    h[b][nu_at] -= n * (pc / 2.0 - eb * pc);
                    h[nu_at][b] -= n * (pc / 2.0 - eb * pc);
                }
            }
        };
        add(&mut self
            .pairs
            .iter()
            .map(|&((a, b), r)| (a, b, r, self.with_nu)));
        let half = self.prior / 2.0;
        add(&mut self
            .prior_pairs
            .iter()
            .map(|&(a, b)| (a, b, [half, 0.0, half], false)));
        // Drop θ₀ (held at 0), and ln ν when it is not fitted.
        let keep: Vec<usize> = (1..m).chain(self.with_nu.then_some(nu_at)).collect();
        debug_assert_eq!(keep.len(), dim);
        let grad = keep.iter().map(|&i| g[i]).collect();
        let hess = keep
            .iter()
            .map(|&i| keep.iter().map(|&j| h[i][j]).collect())
            .collect();
        (self.value(theta, ln_nu), grad, hess)
    }
}

fn log_sum_exp(xs: &[f64]) -> f64 {
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + xs.iter().map(|x| (x - top).exp()).sum::<f64>().ln()
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting; `None`
/// if `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let pivot_row = a[col].clone();
                for (x, p) in a[row][col..n].iter_mut().zip(&pivot_row[col..n]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[((usize, usize), [f64; 3])]) -> Pairs {
        list.iter().copied().collect()
    }

    #[test]
    fn a_perfect_score_is_finite_and_as_documented() {
        // 10 of 10, prior 2, halves: 400·log10(1 + 20/2) = 416.55.
        let p = pairs(&[((0, 1), [10.0, 0.0, 0.0])]);
        let f = fit(2, &[0, 1], &p, &[(0, 1)], 2.0, DrawModel::Halves, None);
        let gap = f.elo[0] - f.elo[1];
        assert!((gap - 400.0 * 11f64.log10()).abs() < 1e-6, "{gap}");
        // Without draws, Davidson is Bradley–Terry: the same figure.
        let d = fit(2, &[0, 1], &p, &[(0, 1)], 2.0, DrawModel::Davidson, None);
        assert_eq!(d.nu, 0.0);
        assert!((d.elo[0] - d.elo[1] - gap).abs() < 1e-6);
    }

    #[test]
    fn two_players_with_draws_match_the_closed_form() {
        // Two players, no prior: P(win)/P(loss) = w/l, so Δ = 400·log10(w/l);
        // ν = d/√(w·l).
        let p = pairs(&[((0, 1), [42.0, 30.0, 8.0])]);
        let f = fit(2, &[0, 1], &p, &[], 0.0, DrawModel::Davidson, None);
        let gap = f.elo[0] - f.elo[1];
        assert!(
            (gap - 400.0 * (42.0f64 / 8.0).log10()).abs() < 1e-6,
            "{gap}"
        );
        assert!(
            (f.nu - 30.0 / (42.0f64 * 8.0).sqrt()).abs() < 1e-6,
            "{}",
            f.nu
        );
        // Halves: the score 57/80 read off the logistic curve.
        let h = fit(2, &[0, 1], &p, &[], 0.0, DrawModel::Halves, None);
        let s: f64 = 57.0 / 80.0;
        assert!((h.elo[0] - h.elo[1] - 400.0 * (s / (1.0 - s)).log10()).abs() < 1e-6);
    }

    #[test]
    fn draws_only_stay_finite() {
        let p = pairs(&[((0, 1), [0.0, 12.0, 0.0]), ((1, 2), [0.0, 4.0, 0.0])]);
        let f = fit(
            3,
            &[0, 1, 2],
            &p,
            &[(0, 1), (1, 2)],
            2.0,
            DrawModel::Davidson,
            None,
        );
        assert!(f.elo.iter().all(|e| e.abs() < 1e-6), "{:?}", f.elo);
        assert!(f.nu.is_finite() && f.nu > 1e6);
    }
}
