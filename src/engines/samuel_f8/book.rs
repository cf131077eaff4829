//! The stored first moves: "If opponent choses White, randomly select a
//! stored first move" (notes p. 2, step B).
//!
//! The notes do not list them; the four below are OURS: 11-15, the first
//! move checkers books recommend most, and three more of good standing,
//! 9-14 (the Double Corner), 11-16 (the Bristol) and 10-15 (the Kelso). Left
//! out: 9-13 (the Edinburgh, reckoned the weakest of the seven), 10-14 and
//! 12-16, to keep the store as small as an F8 cartridge would. The notes'
//! "(One might also have some stored first replies)" is not taken up.

use crate::rng::SplitMix64;

use super::movegen::SamuelMove;
use super::position::Position;

/// Start and end squares of the stored first moves, for Black.
pub const STORED_FIRST_MOVES: [(u8, u8); 4] = [(11, 15), (9, 14), (11, 16), (10, 15)];

/// One stored first move, drawn with `rng`.
pub(super) fn first_move(rng: &mut SplitMix64) -> SamuelMove {
    let last = STORED_FIRST_MOVES.len() as u64 - 1;
    stored(STORED_FIRST_MOVES[rng.range(0, last) as usize])
}

/// Every stored first move, in the store's order.
pub(super) fn stored_first_moves() -> Vec<SamuelMove> {
    STORED_FIRST_MOVES.into_iter().map(stored).collect()
}

fn stored((from, to): (u8, u8)) -> SamuelMove {
    Position::initial()
        .parse_move(&format!("{from}-{to}"))
        .expect("the stored first moves are legal from the initial position")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_move_is_legal_and_all_are_drawn_over_a_few_seeds() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            let mv = first_move(&mut SplitMix64::new(seed));
            assert!(STORED_FIRST_MOVES.contains(&(mv.from(), mv.to())));
            seen.insert(mv.to_string());
        }
        assert_eq!(seen.len(), STORED_FIRST_MOVES.len(), "{seen:?}");
    }
}
