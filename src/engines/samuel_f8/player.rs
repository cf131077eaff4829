//! Samuel's F8 checkers player ([`SamuelF8`]): the search at a level, and
//! a seeded draw of the stored first move; what it decided ([`Decision`]).

use super::book;
use super::level::Level;
use super::movegen::SamuelMove;
use super::position::Position;
use super::search::{self, Score, SearchStats};
use crate::rng::SplitMix64;

/// What [`SamuelF8::weigh`] decided, and what it weighed on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub mv: SamuelMove,
    /// For the side to move, hundredths of a man ([`WIN`](super::WIN)
    /// minus plies for a win); 0 for a stored first move.
    pub score: Score,
    pub stats: SearchStats,
    /// The root moves in the order weighed, with their values: the search's
    /// (exact for the first and for each that raised α, at most α for the
    /// others), or every stored first move at 0 when one was drawn.
    pub root: Vec<(SamuelMove, Score)>,
}

/// Samuel's F8 checkers player: the search at a level, and a seeded draw
/// of the stored first move.
#[derive(Clone, Debug)]
pub struct SamuelF8 {
    rng: SplitMix64,
    level: Level,
}

impl SamuelF8 {
    /// Same seed, same games: the seed only draws the stored first move.
    pub fn new(seed: u64, level: Level) -> SamuelF8 {
        SamuelF8 {
            rng: SplitMix64::new(seed),
            level,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The program's move for the side to move in `pos`, its score (for that
    /// side, hundredths of a man, [`WIN`](super::WIN) minus plies for a win)
    /// and what the search cost; `None` when the side to move has no legal
    /// move (it has lost). `game_start` says no move has been played in this game: then,
    /// at the initial position, the program moves first as Black and plays a
    /// stored first move drawn with the seed, without searching (score 0).
    pub fn choose(
        &mut self,
        pos: &Position,
        game_start: bool,
    ) -> Option<(SamuelMove, Score, SearchStats)> {
        self.weigh(pos, game_start)
            .map(|c| (c.mv, c.score, c.stats))
    }

    /// As [`choose`](Self::choose), with the root moves it weighed.
    pub fn weigh(&mut self, pos: &Position, game_start: bool) -> Option<Decision> {
        if game_start && *pos == Position::initial() {
            return Some(Decision {
                mv: book::first_move(&mut self.rng),
                score: 0,
                stats: SearchStats {
                    from_book: true,
                    ..SearchStats::default()
                },
                root: book::stored_first_moves()
                    .into_iter()
                    .map(|m| (m, 0))
                    .collect(),
            });
        }
        let mut search = search::Search::new(self.level);
        let (mv, score) = search.best(&pos.board())?;
        Some(Decision {
            mv,
            score,
            stats: search.stats,
            root: search.root,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::book::STORED_FIRST_MOVES;
    use super::*;

    #[test]
    fn same_seed_same_game_and_the_seed_draws_the_first_move() {
        let game = |seed: u64| {
            let mut black = SamuelF8::new(seed, Level::default());
            let mut white = SamuelF8::new(seed ^ 1, Level::default());
            let mut pos = Position::initial();
            let mut moves = Vec::new();
            for ply in 0..16 {
                let engine = if ply % 2 == 0 { &mut black } else { &mut white };
                let Some((mv, _, _)) = engine.choose(&pos, ply == 0) else {
                    break;
                };
                moves.push(mv.to_string());
                pos = pos.play(&mv).unwrap();
            }
            moves
        };
        assert_eq!(game(7), game(7));
        let firsts: std::collections::BTreeSet<String> =
            (0..24).map(|seed| game(seed)[0].clone()).collect();
        let stored: std::collections::BTreeSet<String> = STORED_FIRST_MOVES
            .iter()
            .map(|(from, to)| format!("{from}-{to}"))
            .collect();
        assert_eq!(firsts, stored);
    }

    #[test]
    fn the_stored_move_is_only_for_the_first_move_of_a_game() {
        let mut engine = SamuelF8::new(3, Level::default());
        let (_, _, book) = engine.choose(&Position::initial(), true).unwrap();
        assert!(book.from_book);
        assert_eq!(book.nodes, 0);
        let (searched, _, stats) = engine.choose(&Position::initial(), false).unwrap();
        assert!(!stats.from_book);
        assert!(stats.nodes > 0);
        // The search alone is deterministic whatever the seed.
        let mut other = SamuelF8::new(99, Level::default());
        assert_eq!(
            other.choose(&Position::initial(), false).unwrap().0,
            searched
        );
        let after = Position::initial().play(&searched).unwrap();
        let (_, _, reply) = engine.choose(&after, true).unwrap();
        assert!(!reply.from_book, "White is never given a stored move");
    }
}
