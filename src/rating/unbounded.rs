//! Whether the likelihood without a prior has a maximum: under
//! Bradley–Terry (a draw half a point, or Davidson's draw parameter) it has
//! one exactly when every player of the group scored a point or half a
//! point, through a chain of games, against every other — when the graph
//! of "scored against" is strongly connected (Zermelo 1929; Ford 1957).
//! Otherwise some players won every game they played against the rest, and
//! without a prior their ratings run off to infinity: Ordo refuses such a
//! file for that reason.

use super::model::Pairs;

/// Players who won every game against the rest of their group: without a
/// prior the fit has no maximum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMaximum {
    /// The players (all of one strongly connected part of the group, none
    /// of whose games against the others was drawn or lost).
    pub players: Vec<usize>,
    /// Their games against the rest, every one won.
    pub games: u32,
}

impl NoMaximum {
    /// What it is, in words, with the players' `names`.
    pub fn words(&self, names: &[String]) -> String {
        let who: Vec<&str> = self.players.iter().map(|&p| names[p].as_str()).collect();
        let (who, verb) = match who.as_slice() {
            [one] => (one.to_string(), "won every one of its"),
            _ => (who.join(", "), "won every one of their"),
        };
        format!(
            "{who} {verb} {} games against the other players, so without a prior the ratings have no maximum-likelihood value",
            self.games
        )
    }
}

/// The first set of players of `group` (by its first player) that won
/// every game against the rest, if the group has one; `None` if the
/// likelihood without a prior has a maximum.
pub fn no_maximum(group: &[usize], pairs: &Pairs) -> Option<NoMaximum> {
    let m = group.len();
    let local = |p: usize| group.iter().position(|&q| q == p);
    // scored[i][j]: i won or drew a game against j (local indices).
    let mut scored = vec![vec![false; m]; m];
    for (&(a, b), &[a_wins, draws, b_wins]) in pairs {
        let (Some(i), Some(j)) = (local(a), local(b)) else {
            continue;
        };
        scored[i][j] |= a_wins + draws > 0.0;
        scored[j][i] |= b_wins + draws > 0.0;
    }
    let reach: Vec<Vec<bool>> = (0..m).map(|i| reachable(&scored, i)).collect();
    // A strongly connected part that nobody outside it scored against.
    let top = (0..m).find(|&v| (0..m).all(|u| !reach[u][v] || reach[v][u]))?;
    let part: Vec<usize> = (0..m).filter(|&u| reach[top][u] && reach[u][top]).collect();
    if part.len() == m {
        return None;
    }
    let games = pairs
        .iter()
        .filter_map(|(&(a, b), r)| {
            let (i, j) = (local(a)?, local(b)?);
            (part.contains(&i) != part.contains(&j)).then(|| r.iter().sum::<f64>() as u32)
        })
        .sum();
    Some(NoMaximum {
        players: part.iter().map(|&k| group[k]).collect(),
        games,
    })
}

/// The players `from` reaches by "scored against", itself included.
fn reachable(scored: &[Vec<bool>], from: usize) -> Vec<bool> {
    let mut seen = vec![false; scored.len()];
    let mut todo = vec![from];
    seen[from] = true;
    while let Some(i) = todo.pop() {
        for (j, &edge) in scored[i].iter().enumerate() {
            if edge && !seen[j] {
                seen[j] = true;
                todo.push(j);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[((usize, usize), [f64; 3])]) -> Pairs {
        list.iter().copied().collect()
    }

    #[test]
    fn a_clean_sweep_has_no_maximum_and_one_point_given_up_has_one() {
        let sweep = pairs(&[((0, 1), [10.0, 0.0, 0.0]), ((1, 2), [3.0, 1.0, 2.0])]);
        let nm = no_maximum(&[0, 1, 2], &sweep).unwrap();
        assert_eq!(
            nm,
            NoMaximum {
                players: vec![0],
                games: 10
            }
        );
        let names = ["A", "B", "C"].map(String::from);
        assert!(
            nm.words(&names)
                .starts_with("A won every one of its 10 games")
        );
        let drawn = pairs(&[((0, 1), [9.0, 1.0, 0.0]), ((1, 2), [3.0, 1.0, 2.0])]);
        assert_eq!(no_maximum(&[0, 1, 2], &drawn), None);
    }

    #[test]
    fn a_pair_that_beat_the_rest_is_named_together() {
        // 0 and 1 share points; both beat 2 every time; 2 and 3 share.
        let p = pairs(&[
            ((0, 1), [1.0, 0.0, 1.0]),
            ((0, 2), [2.0, 0.0, 0.0]),
            ((1, 2), [2.0, 0.0, 0.0]),
            ((2, 3), [1.0, 1.0, 1.0]),
        ]);
        let nm = no_maximum(&[0, 1, 2, 3], &p).unwrap();
        assert_eq!(
            nm,
            NoMaximum {
                players: vec![0, 1],
                games: 4
            }
        );
        // A player outside the group is left out.
        assert_eq!(no_maximum(&[2, 3], &p), None);
    }
}
