//! The ratings as a table: rank, rating, 95% interval, games and score,
//! then the likelihood of superiority between the top players.

use std::fmt::Write as _;

use super::{DrawModel, PriorEffect, RateOptions, Ratings};

/// A rating, rounded, with its sign.
pub fn elo(x: f64) -> String {
    if x.is_finite() {
        format!("{:.0}", x + 0.0)
    } else {
        "-".to_string()
    }
}

/// The 95% interval, `[lo, hi]`, or `-`.
pub fn interval(i: Option<(f64, f64)>) -> String {
    i.map_or("-".to_string(), |(lo, hi)| {
        format!("[{}, {}]", elo(lo), elo(hi))
    })
}

/// What the figures are: the model, the prior, the scale, the intervals.
pub fn method(names: &[String], r: &Ratings, o: &RateOptions) -> String {
    let model = match o.model {
        DrawModel::Davidson => format!(
            "Bradley-Terry with a draw parameter (Davidson), nu = {:.3}",
            r.nu
        ),
        DrawModel::Halves => "Bradley-Terry, a draw half a win (Ordo)".to_string(),
    };
    let scale = match o.anchor {
        Some((p, at)) => format!("anchor {} = {}", names[p], elo(at)),
        None => "mean 0".to_string(),
    };
    let intervals = match o.bootstrap {
        0 => "no intervals".to_string(),
        n => format!(
            "95% intervals from {n} bootstrap resamples of the games (seed {})",
            o.seed
        ),
    };
    format!(
        "model: joint maximum likelihood, {model}; prior {} virtual draws a pair; {scale}; {intervals}\n",
        o.prior
    )
}

/// A line saying where the prior moved ratings by more than their
/// interval's width, or alone keeps them finite; `None` where it did
/// neither.
pub fn prior_note(names: &[String], r: &Ratings, o: &RateOptions) -> Option<String> {
    match &r.prior {
        PriorEffect::Within => None,
        PriorEffect::Needed(nm) => Some(format!(
            "note: {}; only the prior of {} virtual draws a pair keeps their ratings finite, so the prior sets them as much as the games do\n",
            nm.words(names),
            o.prior
        )),
        PriorEffect::Moved(moved) => {
            let list: Vec<String> = moved
                .iter()
                .map(|&(p, bare)| {
                    format!("{} {} (without it {})", names[p], elo(r.elo[p]), elo(bare))
                })
                .collect();
            Some(format!(
                "note: the prior of {} virtual draws a pair moved {} by more than the width of {} 95% interval: {}\n",
                o.prior,
                match moved.len() {
                    1 => "a rating".to_string(),
                    n => format!("{n} ratings"),
                },
                if moved.len() == 1 { "its" } else { "their" },
                list.join(", ")
            ))
        }
    }
}

/// The table, strongest first, and the LOS of the `top` best.
pub fn table(names: &[String], r: &Ratings, top: usize) -> String {
    let width = r
        .order
        .iter()
        .map(|&p| names[p].chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>4}  {:<width$}  {:>6}  {:>14}  {:>6} {:>5} {:>5} {:>5} {:>6}",
        "rank", "player", "Elo", "95% interval", "games", "W", "D", "L", "score"
    );
    for (k, &p) in r.order.iter().enumerate() {
        let w = &r.wdl[p];
        let score = w
            .score()
            .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>6}  {:>14}  {:>6} {:>5} {:>5} {:>5} {:>6}",
            k + 1,
            names[p],
            elo(r.elo[p]),
            interval(r.interval[p]),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            score
        );
    }
    let best: Vec<usize> = r.order.iter().copied().take(top).collect();
    if best.len() > 1 && r.los(best[0], best[1]).is_some() {
        let _ = writeln!(
            s,
            "\nLOS, the likelihood that the row's player is stronger than the column's (%):"
        );
        let _ = write!(s, "{:>4}  {:<width$}", "", "");
        for k in 1..=best.len() {
            let _ = write!(s, " {k:>5}");
        }
        s.push('\n');
        for (k, &a) in best.iter().enumerate() {
            let _ = write!(s, "{:>4}  {:<width$}", k + 1, names[a]);
            for &b in &best {
                match r.los(a, b) {
                    Some(l) if a != b => {
                        let _ = write!(s, " {:>5.1}", 100.0 * l);
                    }
                    _ => {
                        let _ = write!(s, " {:>5}", "-");
                    }
                }
            }
            s.push('\n');
        }
    }
    s
}

/// Each pair that met, in the ratings' order: the first player's wins,
/// draws and losses against the second, and its score.
pub fn head_to_head(names: &[String], r: &Ratings, games: &[super::RatedGame]) -> String {
    use super::Score;
    let rank: Vec<Option<usize>> = (0..names.len())
        .map(|p| r.order.iter().position(|&q| q == p))
        .collect();
    let mut met: std::collections::BTreeMap<(usize, usize), [u32; 3]> = Default::default();
    for g in games {
        let (Some(a), Some(b)) = (rank[g.white], rank[g.black]) else {
            continue;
        };
        let (hi, lo) = (a.min(b), a.max(b));
        let hi_is_white = hi == a;
        let k = match (g.result, hi_is_white) {
            (Score::Draw, _) => 1,
            (Score::WhiteWins, true) | (Score::BlackWins, false) => 0,
            _ => 2,
        };
        met.entry((hi, lo)).or_insert([0; 3])[k] += 1;
    }
    let mut s =
        String::from("\nhead to head (the higher rated first): wins, draws, losses, score\n");
    for ((a, b), [w, d, l]) in met {
        let n = f64::from(w + d + l);
        let _ = writeln!(
            s,
            "  {} - {}: +{w} ={d} -{l}  {:.1}%",
            names[r.order[a]],
            names[r.order[b]],
            100.0 * (f64::from(w) + f64::from(d) / 2.0) / n
        );
    }
    s
}
