//! The speed of the search ([`bench()`]): self-play from each stored first
//! move, nodes and time summed ([`BenchReport`]).

use std::time::{Duration, Instant};

use super::book::STORED_FIRST_MOVES;
use super::level::Level;
use super::movegen;
use super::position::Position;
use super::search;

/// What [`bench()`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Moves searched (a self-play game may end sooner than asked).
    pub moves: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Speed at `level`: the program plays itself once from each stored first
/// move (that move imposed), searching up to `moves` further moves a game,
/// and the nodes and time of all those searches are summed. The nodes are
/// the same on every machine; the time is this one's.
pub fn bench(level: Level, moves: u32) -> BenchReport {
    let mut report = BenchReport {
        moves: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (from, to) in STORED_FIRST_MOVES {
        let start = Position::initial();
        let first = start
            .parse_move(&format!("{from}-{to}"))
            .expect("the stored first moves are legal");
        let mut board = movegen::play(&start.board(), &first);
        for _ in 0..moves {
            let mut search = search::Search::new(level);
            let started = Instant::now();
            let Some((mv, _)) = search.best(&board) else {
                break;
            };
            report.elapsed += started.elapsed();
            report.nodes += search.stats.nodes;
            report.moves += 1;
            board = movegen::play(&board, &mv);
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_counts_nodes_reproducibly() {
        let a = bench(Level::default(), 6);
        let b = bench(Level::default(), 6);
        assert_eq!(a.moves, 6 * STORED_FIRST_MOVES.len() as u32);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 6);
    }
}
