//! The rating model: Bradley–Terry, a draw half a win and half a loss
//! ([`DrawModel::Halves`], the default) or with a draw parameter
//! ([`DrawModel::Davidson`], Davidson 1970), every player fitted jointly by
//! maximum likelihood, with a prior of virtual draws so that a perfect score
//! stays finite; and [`profile_interval`], a rating's profile-likelihood
//! interval.
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
    Davidson,
    /// Plain Bradley–Terry, a draw half a win and half a loss (Ordo): the
    /// expected-score model, the default.
    #[default]
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

/// What is fitted: one connected group of players, the results between
/// them, and the prior on them.
#[derive(Clone, Copy, Debug)]
pub struct Data<'a> {
    /// Players in all (the ratings' length).
    pub n: usize,
    /// The group: players outside it are ignored and rated NaN.
    pub players: &'a [usize],
    pub pairs: &'a Pairs,
    /// The pairs that get `prior` virtual draws each.
    pub prior_pairs: &'a [(usize, usize)],
    pub prior: f64,
    pub model: DrawModel,
}

/// Fits the ratings of `data`'s group. `start` (Elo, as a previous fit
/// gave them) speeds up a refit.
pub fn fit(data: &Data, start: Option<&Fit>) -> Fit {
    let local = Local::new(data);
    let (n, players) = (data.n, data.players);
    let m = players.len();
    let problem = local.problem(data.prior, data.model);
    let (theta, ln_nu) = starting_point(players, start);
    // Player 0 holds 0; the others are free.
    let map = Map {
        base: vec![0.0; m],
        cols: (1..m).map(|k| vec![(k, 1.0)]).collect(),
    };
    let mut x: Vec<f64> = theta[1.min(m)..].to_vec();
    let mut ln_nu = ln_nu;
    let (steps, _) = if m > 1 {
        problem.maximise(&map, &mut x, &mut ln_nu)
    } else {
        (0, 0.0)
    };
    let theta = map.theta(&x);
    let mean = theta.iter().sum::<f64>() / m.max(1) as f64;
    let mut elo = vec![f64::NAN; n];
    for (k, &p) in players.iter().enumerate() {
        elo[p] = (theta[k] - mean) / ELO;
    }
    Fit {
        elo,
        nu: if problem.with_nu { ln_nu.exp() } else { 0.0 },
        steps,
    }
}

/// What a rating is measured from: another player (the anchor) or the
/// group's mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    Player(usize),
    Mean,
}

/// The fall of the log-likelihood that bounds a 95% profile interval
/// (Wilks: χ² with one degree of freedom, halved).
const PROFILE_DROP: f64 = 3.841_458_820_694_124 / 2.0;

/// The 95% profile-likelihood interval of `player`'s rating relative to
/// `reference` (in Elo, as a difference from it): the ratings at which the
/// likelihood with the prior, maximised over every other unknown (the other
/// players, and ν under Davidson), falls [`PROFILE_DROP`] below its
/// maximum. `full` is the fit of the same data. It stays finite for a clean
/// sweep: the prior's virtual draws bound the likelihood on both sides.
/// `None` for a group of one or a player outside it.
pub fn profile_interval(
    data: &Data,
    full: &Fit,
    player: usize,
    reference: Reference,
) -> Option<(f64, f64)> {
    let local = Local::new(data);
    let m = data.players.len();
    let p = *local.index.get(player).filter(|&&k| k != usize::MAX)?;
    if m < 2 {
        return None;
    }
    let problem = local.problem(data.prior, data.model);
    let theta_full: Vec<f64> = data.players.iter().map(|&q| full.elo[q] * ELO).collect();
    let ln_nu_full = if full.nu > 0.0 { full.nu.ln() } else { 0.0 };
    let reference = match reference {
        Reference::Player(a) => {
            let a = *local.index.get(a).filter(|&&k| k != usize::MAX)?;
            if a == p {
                return None;
            }
            Reference::Player(a)
        }
        Reference::Mean => Reference::Mean,
    };
    let profile = Profile {
        m,
        p,
        reference,
        theta_full: &theta_full,
    };
    // The likelihood maximised over every other unknown, with player p at
    // `delta` from the reference (in natural-log strength).
    let value = |delta: f64| -> f64 {
        let map = profile.map_at(delta);
        let mut x = profile.start(&map);
        let mut ln_nu = ln_nu_full;
        problem.maximise(&map, &mut x, &mut ln_nu).1
    };
    let centre = profile.centre();
    let best = value(centre);
    let edge = |sign: f64| edge(&value, best, centre, sign);
    Some((edge(-1.0) / ELO, edge(1.0) / ELO))
}

/// One player's rating held at a distance from its reference, the other
/// unknowns free (local indices): the maps of [`profile_interval`].
struct Profile<'a> {
    m: usize,
    p: usize,
    reference: Reference,
    /// The full fit's strengths.
    theta_full: &'a [f64],
}

impl Profile<'_> {
    /// Player p's distance from the reference in the full fit.
    fn centre(&self) -> f64 {
        let t = self.theta_full;
        match self.reference {
            Reference::Player(a) => t[self.p] - t[a],
            Reference::Mean => t[self.p] - t.iter().sum::<f64>() / self.m as f64,
        }
    }

    /// The unknowns with player p at `delta` from the reference.
    fn map_at(&self, delta: f64) -> Map {
        let (m, p) = (self.m, self.p);
        let mut base = vec![0.0; m];
        match self.reference {
            Reference::Player(a) => {
                base[p] = delta;
                Map {
                    base,
                    cols: (0..m)
                        .filter(|&k| k != a && k != p)
                        .map(|k| vec![(k, 1.0)])
                        .collect(),
                }
            }
            Reference::Mean => {
                // θₚ − mean(θ) = Δ: θₚ = Δ·m/(m−1) + the others' mean, one
                // other (r) held at 0 for the shift.
                let r = usize::from(p == 0);
                let share = 1.0 / (m - 1) as f64;
                base[p] = delta * m as f64 * share;
                Map {
                    base,
                    cols: (0..m)
                        .filter(|&k| k != r && k != p)
                        .map(|k| vec![(k, 1.0), (p, share)])
                        .collect(),
                }
            }
        }
    }

    /// The unknowns of a map, from the full fit (shifted to the map's held
    /// player): a warm start.
    fn start(&self, map: &Map) -> Vec<f64> {
        let held = (0..self.m)
            .find(|&h| h != self.p && !map.cols.iter().any(|c| c[0].0 == h))
            .unwrap_or(0);
        map.cols
            .iter()
            .map(|col| self.theta_full[col[0].0] - self.theta_full[held])
            .collect()
    }
}

/// One end of a profile interval: out from `centre` on the side of `sign`
/// until the profile `value` has fallen [`PROFILE_DROP`] below `best`
/// (doubling the step), then bisected; the last point inside if it never
/// falls that far within 64.
fn edge(value: &impl Fn(f64) -> f64, best: f64, centre: f64, sign: f64) -> f64 {
    let (mut inside, mut step) = (0.0, 0.25);
    let mut outside = None;
    while step < 64.0 {
        let d = inside + step;
        if best - value(centre + sign * d) > PROFILE_DROP {
            outside = Some(d);
            break;
        }
        inside = d;
        step *= 2.0;
    }
    let Some(mut out) = outside else {
        return centre + sign * inside;
    };
    for _ in 0..40 {
        let mid = (inside + out) / 2.0;
        if best - value(centre + sign * mid) > PROFILE_DROP {
            out = mid;
        } else {
            inside = mid;
        }
    }
    centre + sign * (inside + out) / 2.0
}

/// One group's results in its own indices.
struct Local {
    index: Vec<usize>,
    pairs: Vec<((usize, usize), [f64; 3])>,
    prior_pairs: Vec<(usize, usize)>,
}

impl Local {
    fn new(data: &Data) -> Local {
        let (n, players, pairs, prior_pairs) = (data.n, data.players, data.pairs, data.prior_pairs);
        let mut index = vec![usize::MAX; n];
        for (k, &p) in players.iter().enumerate() {
            index[p] = k;
        }
        let inside = |a: usize, b: usize| index[a] != usize::MAX && index[b] != usize::MAX;
        let pairs = pairs
            .iter()
            .filter(|((a, b), _)| inside(*a, *b))
            .map(|((a, b), r)| ((index[*a], index[*b]), *r))
            .collect();
        let prior_pairs = prior_pairs
            .iter()
            .filter(|(a, b)| inside(*a, *b))
            .map(|(a, b)| (index[*a], index[*b]))
            .collect();
        Local {
            index,
            pairs,
            prior_pairs,
        }
    }

    fn problem(&self, prior: f64, model: DrawModel) -> Problem<'_> {
        let draws: f64 = self.pairs.iter().map(|(_, r)| r[1]).sum();
        Problem {
            pairs: &self.pairs,
            prior_pairs: &self.prior_pairs,
            prior,
            with_nu: model == DrawModel::Davidson && draws > 0.0,
        }
    }
}

/// The players' strengths as a function of the unknowns:
/// `θ = base + Σⱼ xⱼ·colⱼ` (each column a short list of `(player, weight)`).
struct Map {
    base: Vec<f64>,
    cols: Vec<Vec<(usize, f64)>>,
}

impl Map {
    fn theta(&self, x: &[f64]) -> Vec<f64> {
        let mut t = self.base.clone();
        for (col, xj) in self.cols.iter().zip(x) {
            for &(k, w) in col {
                t[k] += w * xj;
            }
        }
        t
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
    /// Newton's method over the unknowns `x` of `map` (and `ln_nu` when ν
    /// is fitted) to the maximum (at most 200 steps); returns the steps
    /// taken and the maximum's value.
    fn maximise(&self, map: &Map, x: &mut Vec<f64>, ln_nu: &mut f64) -> (usize, f64) {
        let mut steps = 0;
        for _ in 0..200 {
            let (value, grad, hess) = self.evaluate(map, x, *ln_nu);
            if grad.is_empty() {
                break;
            }
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
            if self.backtrack(map, x, ln_nu, &step, value) < 1e-12 {
                break;
            }
        }
        (steps, self.value(&map.theta(x), *ln_nu))
    }

    /// Takes the longest of `step`, `step/2`, … (40 tries) by which the
    /// likelihood does not fall below `value`; returns how far the
    /// unknowns moved (0 if none did).
    fn backtrack(
        &self,
        map: &Map,
        x: &mut Vec<f64>,
        ln_nu: &mut f64,
        step: &[f64],
        value: f64,
    ) -> f64 {
        let mut t = 1.0;
        for _ in 0..40 {
            let (nx, nu) = self.step(x, *ln_nu, step, t);
            if self.value(&map.theta(&nx), nu) >= value - 1e-12 * value.abs().max(1.0) {
                let moved = nx
                    .iter()
                    .zip(x.iter())
                    .map(|(a, b)| (a - b).abs())
                    .fold((nu - *ln_nu).abs(), f64::max);
                *x = nx;
                *ln_nu = nu;
                return moved;
            }
            t /= 2.0;
        }
        0.0
    }

    fn step(&self, x: &[f64], ln_nu: f64, step: &[f64], t: f64) -> (Vec<f64>, f64) {
        let nx: Vec<f64> = x.iter().zip(step).map(|(a, s)| a + t * s).collect();
        let nu = if self.with_nu {
            (ln_nu + t * step[x.len()]).min(LN_NU_MAX)
        } else {
            ln_nu
        };
        (nx, nu)
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

    /// Value, gradient and Hessian in the unknowns (`map`'s, then ln ν).
    fn evaluate(&self, map: &Map, x: &[f64], ln_nu: f64) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let theta = map.theta(x);
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
        // Onto the unknowns: J = ∂θ/∂x (the map's columns), then ln ν.
        let mut cols: Vec<Vec<(usize, f64)>> = map.cols.clone();
        if self.with_nu {
            cols.push(vec![(nu_at, 1.0)]);
        }
        let grad = cols
            .iter()
            .map(|c| c.iter().map(|&(k, w)| w * g[k]).sum())
            .collect();
        let hess = cols
            .iter()
            .map(|ci| {
                cols.iter()
                    .map(|cj| {
                        ci.iter()
                            .map(|&(k, wk)| {
                                cj.iter().map(|&(l, wl)| wk * wl * h[k][l]).sum::<f64>()
                            })
                            .sum()
                    })
                    .collect()
            })
            .collect();
        (self.value(&theta, ln_nu), grad, hess)
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

    /// `fit` of every player of `pairs`, `prior` virtual draws on `prior_pairs`.
    fn fitted(
        n: usize,
        pairs: &Pairs,
        prior_pairs: &[(usize, usize)],
        prior: f64,
        model: DrawModel,
    ) -> Fit {
        let players: Vec<usize> = (0..n).collect();
        let data = Data {
            n,
            players: &players,
            pairs,
            prior_pairs,
            prior,
            model,
        };
        fit(&data, None)
    }

    #[test]
    fn a_perfect_score_is_finite_and_as_documented() {
        // 10 of 10, prior 2, halves: 400·log10(1 + 20/2) = 416.55.
        let p = pairs(&[((0, 1), [10.0, 0.0, 0.0])]);
        let f = fitted(2, &p, &[(0, 1)], 2.0, DrawModel::Halves);
        let gap = f.elo[0] - f.elo[1];
        assert!((gap - 400.0 * 11f64.log10()).abs() < 1e-6, "{gap}");
        // Without draws, Davidson is Bradley–Terry: the same figure.
        let d = fitted(2, &p, &[(0, 1)], 2.0, DrawModel::Davidson);
        assert_eq!(d.nu, 0.0);
        assert!((d.elo[0] - d.elo[1] - gap).abs() < 1e-6);
    }

    #[test]
    fn two_players_with_draws_match_the_closed_form() {
        // Two players, no prior: P(win)/P(loss) = w/l, so Δ = 400·log10(w/l);
        // ν = d/√(w·l).
        let p = pairs(&[((0, 1), [42.0, 30.0, 8.0])]);
        let f = fitted(2, &p, &[], 0.0, DrawModel::Davidson);
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
        let h = fitted(2, &p, &[], 0.0, DrawModel::Halves);
        let s: f64 = 57.0 / 80.0;
        assert!((h.elo[0] - h.elo[1] - 400.0 * (s / (1.0 - s)).log10()).abs() < 1e-6);
    }

    #[test]
    fn draws_only_stay_finite() {
        let p = pairs(&[((0, 1), [0.0, 12.0, 0.0]), ((1, 2), [0.0, 4.0, 0.0])]);
        let f = fitted(3, &p, &[(0, 1), (1, 2)], 2.0, DrawModel::Davidson);
        assert!(f.elo.iter().all(|e| e.abs() < 1e-6), "{:?}", f.elo);
        assert!(f.nu.is_finite() && f.nu > 1e6);
    }
}
