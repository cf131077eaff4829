//! The tree search of notes p. 2 ("General tree search to a minimum depth
//! of 4 and a maximum depth of 10") with α-β backing up (p. 13, which gives
//! no code: "a great deal of care must be given to the proper programming of
//! this part").
//!
//! The depth rule, as we read the procedure: below the minimum ply every
//! move is searched ("If ply <4 go to 2"); from the minimum on, a position
//! is scored by the evaluation unless the side to move has a jump pending
//! ("If jump move go to 2"), in which case its jumps are searched too — up to
//! the maximum ply, where even a position with a jump pending is scored
//! ("Evaluate terminal position"). Levels are the pair of permitted plies
//! ("The quality of play could be fixed at one of several levels under
//! operator control by changes to the permited ply levels").
//!
//! Read but not carried out, as the sketch does not settle them: "If
//! opponent's move go to 2" (taken literally the tree would never end) and
//! step 4, "Select only move that leads to a non-jump reply ... If no moves
//! lead to a non-jump reply then if ply≤10 go to 2", which would also extend
//! positions where every move gives a jump away.
//!
//! Moves are searched in FIND/SELECT order and the first of equal scores is
//! kept, so the search itself is deterministic. A side with no move loses;
//! a win found sooner scores higher (ours: the notes only say "If score is a
//! win or lose, announce results").

use std::mem;

use super::board::SearchBoard;
use super::eval::evaluate;
use super::level::Level;
use super::movegen::{SamuelMove, find, play};

/// A score in hundredths of a man, for the side to move.
pub type Score = i32;

/// The score of a side that has won at the root; a win `n` plies away
/// scores `WIN - n`.
pub const WIN: Score = 10_000;

const INFINITY: Score = WIN + 1;

/// What a search cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Positions scored by the evaluation.
    pub evaluations: u64,
    /// The deepest ply visited (the root is ply 0).
    pub max_depth_reached: u8,
    /// The move came from the stored first moves, without a search.
    pub from_book: bool,
}

/// One search: its level, its tallies, and a move list per ply (the notes'
/// 16-byte block per ply, p. 8).
pub(super) struct Search {
    level: Level,
    pub stats: SearchStats,
    lists: Vec<Vec<SamuelMove>>,
    /// The root moves in the order searched, each with the value the root
    /// compared: exact for the first and for each that raised α, at most α
    /// (a bound, fail-soft) for the others.
    pub root: Vec<(SamuelMove, Score)>,
}

impl Search {
    pub fn new(level: Level) -> Search {
        Search {
            level,
            stats: SearchStats::default(),
            lists: vec![Vec::new(); usize::from(level.max_ply()) + 1],
            root: Vec::new(),
        }
    }

    /// The best move of ACTIVE and its score, `None` without a legal move.
    pub fn best(&mut self, board: &SearchBoard) -> Option<(SamuelMove, Score)> {
        self.stats.nodes += 1;
        let mut moves = mem::take(&mut self.lists[0]);
        find(board, &mut moves);
        let mut best: Option<(SamuelMove, Score)> = None;
        let mut alpha = -INFINITY;
        for mv in &moves {
            let score = -self.alphabeta(&play(board, mv), 1, -INFINITY, -alpha);
            self.root.push((*mv, score));
            // Strictly higher: the first of equal scores stays.
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((*mv, score));
                alpha = score;
            }
        }
        self.lists[0] = moves;
        best
    }

    fn alphabeta(&mut self, board: &SearchBoard, ply: u8, mut alpha: Score, beta: Score) -> Score {
        self.stats.nodes += 1;
        self.stats.max_depth_reached = self.stats.max_depth_reached.max(ply);
        let mut moves = mem::take(&mut self.lists[usize::from(ply)]);
        find(board, &mut moves);
        let quiet = moves.first().is_none_or(|m| !m.is_capture());
        let score = if moves.is_empty() {
            -(WIN - Score::from(ply))
        } else if ply >= self.level.min_ply() && (quiet || ply >= self.level.max_ply()) {
            self.stats.evaluations += 1;
            evaluate(board)
        } else {
            let mut best = -INFINITY;
            for mv in &moves {
                let score = -self.alphabeta(&play(board, mv), ply + 1, -beta, -alpha);
                if score > best {
                    best = score;
                    alpha = alpha.max(score);
                    if alpha >= beta {
                        break;
                    }
                }
            }
            best
        };
        self.lists[usize::from(ply)] = moves;
        score
    }
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::*;

    fn search(fen: &str, level: Level) -> (Option<(SamuelMove, Score)>, SearchStats) {
        let mut s = Search::new(level);
        let best = s.best(&Position::from_fen(fen).unwrap().board());
        (best, s.stats)
    }

    #[test]
    fn a_quiet_position_stops_at_the_minimum_ply() {
        // Two men far apart: no contact within 4 plies.
        let fen = "B:W32:B1";
        let (_, extended) = search(fen, Level::default());
        let (_, flat) = search(fen, Level::new(4, 4).unwrap());
        assert_eq!(extended.max_depth_reached, 4);
        assert_eq!(extended, flat);
    }

    #[test]
    fn a_pending_jump_extends_the_search_past_the_minimum_ply() {
        // The fronts are a row apart: whichever man Black advances is taken
        // and retaken, and the exchanges leave jumps pending at ply 4 and
        // beyond in many lines.
        let fen = "B:W22,23,26,27,30,31:B5,9,10,13,14";
        let (_, extended) = search(fen, Level::default());
        let (_, flat) = search(fen, Level::new(4, 4).unwrap());
        assert_eq!(flat.max_depth_reached, 4);
        assert!(extended.max_depth_reached > 4, "{extended:?}");
        assert!(extended.nodes > flat.nodes, "{extended:?} {flat:?}");
        let (_, capped) = search(fen, Level::new(4, 5).unwrap());
        assert_eq!(capped.max_depth_reached, 5);
    }

    #[test]
    fn the_initial_position_extends_through_early_exchanges() {
        let (best, stats) = search("B:W21-32:B1-12", Level::default());
        assert!(best.is_some());
        assert!(stats.max_depth_reached >= 6, "{stats:?}");
    }

    #[test]
    fn a_win_is_taken_and_a_lost_position_has_no_move() {
        // Black's 27x18... 23 jumps 27 to 32? Black man 23: LF neighbour 27,
        // landing 32 — White's last piece gone, Black wins at once.
        let (best, _) = search("B:W27:B23,1", Level::default());
        let (mv, score) = best.unwrap();
        assert_eq!(mv.to_string(), "23x32");
        assert_eq!(score, WIN - 1);
        let (none, stats) = search("B:W27:B", Level::default());
        assert!(none.is_none());
        assert_eq!(stats.nodes, 1);
    }

    #[test]
    fn the_bigger_capture_is_preferred() {
        // 11x20 takes one piece and lets 14 take 9; 9x18x27 takes two.
        let (best, _) = search("B:W14,16,23,29:B9,11", Level::default());
        let (mv, _) = best.unwrap();
        assert_eq!(mv.to_string(), "9x18x27");
    }
}
