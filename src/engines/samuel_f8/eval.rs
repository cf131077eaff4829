//! The evaluation "in terms of 5 parameters" (notes p. 2, step 1). The notes
//! never name the five — p. 12 "Evaluation" leaves its writing "until after
//! some of the other parts have been stabilized" — so the choice below is
//! OURS, taken from the terms Samuel's 1959 paper ("Some Studies in Machine
//! Learning Using the Game of Checkers", appendix of parameters) defines,
//! picked for what an F8 with a few hundred bytes of code could afford:
//! each is a mask and a bit count (the notes' CTAB, p. 6, counts the bits of
//! a byte for exactly this kind of use), none needs a search of its own.
//!
//! 1. PIECE ADVANTAGE — men and kings, a king worth 3 men to 2 (ours: the
//!    usual checkers rule of thumb). Samuel's dominant term; the only one
//!    that can outweigh the rest.
//! 2. MOB (1959 "total mobility") — the squares a side could move to
//!    ordinarily, jumps disregarded, each side's count limited to 7: the
//!    3-bit move count FIND keeps in the FLAG byte (p. 6, "Limit count
//!    to 7"). Cramped positions lose games before material does.
//! 3. CENT (1959 "center control I") — men on the eight central squares.
//!    The paper numbers them 11, 12, 15, 16, 20, 21, 24, 25 on its 1..35
//!    board with ghost squares 9, 18, 27; in PDN that is
//!    10, 11, 14, 15, 18, 19, 22, 23.
//! 4. BACK (1959 "back row bridge") — credited when a side's own back-row
//!    bridge squares (1 and 3 for Black, 30 and 32 for White) are both held
//!    while the other side has no king: the standard defence against being
//!    crowned on.
//! 5. ADV (1959 "advancement") — a man on the 5th or 6th row counted from
//!    its own side +1, on the 3rd or 4th row −1: pressure towards the crown
//!    without leaving the back row early.
//!
//! Weights are ours. Each term is taken as the side to move's count minus
//! the other side's (the paper scores its terms for the passive side; the
//! difference is the same information for a zero-sum search). Scores are
//! in hundredths of a man; the notes budgeted 8 bits per score (p. 4),
//! too coarse for five weighted terms, so scores are `i32` here.

use super::board::{SearchBoard, Set, squares};
use super::movegen::step_sets;

pub const MAN: i32 = 100;
pub const KING: i32 = 150;
const MOB: i32 = 3;
const CENT: i32 = 4;
const BACK: i32 = 15;
const ADV: i32 = 2;

const CENTRE: Set = squares(&[10, 11, 14, 15, 18, 19, 22, 23]);
const BLACK_BRIDGE: Set = squares(&[1, 3]);
const WHITE_BRIDGE: Set = squares(&[30, 32]);
/// Rows 3-4 and 5-6 counted from Black's side (squares 9-16, 17-24).
const BLACK_ROWS_3_4: Set = squares(&[9, 10, 11, 12, 13, 14, 15, 16]);
const BLACK_ROWS_5_6: Set = squares(&[17, 18, 19, 20, 21, 22, 23, 24]);

/// The five terms for one side, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Terms {
    pub men: i32,
    pub kings: i32,
    pub mob: i32,
    pub cent: i32,
    pub back: i32,
    pub adv: i32,
}

impl Terms {
    fn weighted(&self) -> i32 {
        MAN * self.men
            + KING * self.kings
            + MOB * self.mob
            + CENT * self.cent
            + BACK * self.back
            + ADV * self.adv
    }
}

fn count(set: Set) -> i32 {
    set.count_ones() as i32
}

/// The terms of ACTIVE in `board`.
pub(super) fn terms(board: &SearchBoard) -> Terms {
    let own = board.active;
    let men = own & !board.kings;
    let other_kings = board.passive & board.kings;
    let (bridge, back_rows, front_rows) = if board.black_active {
        (BLACK_BRIDGE, BLACK_ROWS_3_4, BLACK_ROWS_5_6)
    } else {
        (WHITE_BRIDGE, BLACK_ROWS_5_6, BLACK_ROWS_3_4)
    };
    let ordinary: i32 = step_sets(board).iter().map(|s| s.count_ones() as i32).sum();
    Terms {
        men: count(men),
        kings: count(own & board.kings),
        mob: ordinary.min(7),
        cent: count(men & CENTRE),
        back: i32::from(men & bridge == bridge && other_kings == 0),
        adv: count(men & front_rows) - count(men & back_rows),
    }
}

/// The static score of `board` for ACTIVE.
pub(super) fn evaluate(board: &SearchBoard) -> i32 {
    let other = SearchBoard {
        active: board.passive,
        passive: board.active,
        kings: board.kings,
        black_active: !board.black_active,
    };
    terms(board).weighted() - terms(&other).weighted()
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::*;

    fn board(fen: &str) -> SearchBoard {
        Position::from_fen(fen).unwrap().board()
    }

    #[test]
    fn the_initial_position_is_level_and_its_terms_are_as_counted_by_hand() {
        let b = board("B:W21-32:B1-12");
        assert_eq!(evaluate(&b), 0);
        let t = terms(&b);
        // 7 ordinary moves; 10 and 11 are central; bridge 1, 3 held and no
        // white king; 9-12 on the 3rd row.
        assert_eq!(
            t,
            Terms {
                men: 12,
                kings: 0,
                mob: 7,
                cent: 2,
                back: 1,
                adv: -4,
            }
        );
    }

    #[test]
    fn a_king_is_worth_three_men_to_two_and_the_score_is_antisymmetric() {
        let b = board("B:WK27:B5,6");
        let w = board("W:WK27:B5,6");
        assert_eq!(evaluate(&b), -evaluate(&w));
        let t = terms(&w);
        assert_eq!((t.men, t.kings), (0, 1));
        assert!(evaluate(&board("B:W32:BK1")) > evaluate(&board("B:W32:B1")));
    }

    #[test]
    fn back_row_bridge_counts_only_while_the_other_side_has_no_king() {
        assert_eq!(terms(&board("B:W25:B1,3")).back, 1);
        assert_eq!(terms(&board("B:WK25:B1,3")).back, 0);
        assert_eq!(terms(&board("W:W30,32:B5")).back, 1);
        assert_eq!(terms(&board("B:W25:B1,2")).back, 0);
    }

    #[test]
    fn mobility_is_capped_at_seven_like_the_flag_byte_count() {
        let t = terms(&board("B:W32:BK10,K14,K19"));
        assert_eq!(t.mob, 7);
        assert_eq!(terms(&board("B:W32:B4")).mob, 1);
    }
}
