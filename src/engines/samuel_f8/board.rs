//! The board as Samuel's notes keep it, and the geometry of their four
//! direction sets.
//!
//! Notes p. 4 ("General philosophy of storing boards and moves") and p. 5
//! ("TENTATIVE DATA STORAGE MAP"): a board is three sets of 4 bytes, ACTIVE,
//! PASSIVE and KINGS, one bit a square; the sides swap at every ply
//! (FORW, p. 7: "To move pieces forward with sides reversed"), and
//! scratchpad register 8 remembers the colour of ACTIVE (p. 8: "0 if
//! Black").
//!
//! Square to bit, read off the shifts of FIND (p. 6): RFN forms a byte's
//! targets as `EMPTY[b] SL 4` plus `EMPTY[b+1] SR 5`, LFN as `SL 5` plus
//! `SR 4`, so a byte holds two rows of four squares, the upper nibble the row
//! nearer square 1, and bit 7 of the first byte is the square whose forward
//! neighbours are bits 3 and 2 — square 1, whose neighbours are 5 and 6.
//! Hence square `n` is bit `7 - (n-1) % 8` of byte `(n-1) / 8`; read as a
//! big-endian word ([`Set`]), square `n` is bit `32 - n`. "Forward" in the
//! notes' names (RF, LF) is towards square 32, Black's way; the notes'
//! second FIND lets only kings use RF/LF when White is ACTIVE.
//!
//! EMPTY is not packed with ghost squares (that is the 1959 IBM 704 layout
//! of Samuel's paper, not this one): it is the four bytes of the board with
//! a zero guard byte on either side — p. 6 "Registers O'20' and O'25' are set
//! to zero as guard bytes for off-board references", p. 8 "stored in SC 33
//! thru 36 with SC 32 and SC 37 set to zero as guards" — so a reference off
//! the top or bottom row reads "not empty". The row ends inside a byte are
//! cut by the shift amounts and the jump masks `H'77'` / `H'EE'`. Here the
//! six scratchpad bytes are the six byte lanes of a `u64` ([`Lanes`]),
//! every direction computed for all four bytes at once.

/// One of the notes' 32-bit sets: square `n` is bit `32 - n`.
pub(super) type Set = u32;

/// The six scratchpad bytes SC 32..37: lane 5 (bits 47..40) is the guard
/// before byte 0, lanes 4..1 are bytes 0..3 (squares 1-8 .. 25-32), lane 0
/// is the guard after byte 3.
pub(super) type Lanes = u64;

/// The set bit of square `n` (1..=32).
pub(super) const fn bit(square: u8) -> Set {
    1 << (32 - square as u32)
}

/// The square of a lane image's single bit (byte lanes 1..=4).
pub(super) fn square_of_lane(single: Lanes) -> u8 {
    (40 - single.trailing_zeros()) as u8
}

/// A set of squares given by their numbers.
pub(super) const fn squares(list: &[u8]) -> Set {
    let mut set = 0;
    let mut i = 0;
    while i < list.len() {
        set |= bit(list[i]);
        i += 1;
    }
    set
}

/// A set moved into byte lanes 1..=4, the guards empty.
pub(super) fn lanes(set: Set) -> Lanes {
    u64::from(set) << 8
}

/// The byte lanes 1..=4 back as a set.
pub(super) fn set_of(lanes: Lanes) -> Set {
    (lanes >> 8) as u32
}

/// `byte` repeated in all six lanes: what one `NI` does to every byte.
const fn each(byte: u8) -> Lanes {
    byte as u64 * 0x0101_0101_0101
}

/// `SL n` applied to every byte.
fn sl(x: Lanes, n: u32) -> Lanes {
    (x << n) & each(0xFF << n)
}

/// `SR n` applied to every byte.
fn sr(x: Lanes, n: u32) -> Lanes {
    (x >> n) & each(0xFF >> n)
}

/// Each lane receives the byte after it (towards square 32): the notes'
/// "LR A,I" / "LIS 1, ADC" to the next byte. The lowest lane receives zero.
fn next_byte(x: Lanes) -> Lanes {
    (x << 8) & each(0xFF)
}

/// Each lane receives the byte before it: "LR A,D" / "LI H'F8', ADC".
fn prev_byte(x: Lanes) -> Lanes {
    x >> 8
}

/// A position as the tree search holds it (p. 8, bytes 0..11 of a ply block
/// and register 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct SearchBoard {
    pub active: Set,
    pub passive: Set,
    pub kings: Set,
    /// Register 8: the colour of ACTIVE.
    pub black_active: bool,
}

/// Where Black's men are crowned (squares 29-32).
pub(super) const BLACK_CROWN: Set = squares(&[29, 30, 31, 32]);
/// Where White's men are crowned (squares 1-4).
pub(super) const WHITE_CROWN: Set = squares(&[1, 2, 3, 4]);

impl SearchBoard {
    /// EMPTY with its guard bytes (p. 6 and p. 8, routine EMPTY): the
    /// complement of ACTIVE plus PASSIVE in lanes 1..=4, zero in the guards.
    pub fn empty(&self) -> Lanes {
        lanes(!(self.active | self.passive))
    }

    /// The row where ACTIVE's men are crowned.
    pub fn crown_row(&self) -> Set {
        if self.black_active {
            BLACK_CROWN
        } else {
            WHITE_CROWN
        }
    }

    /// Whether a man of ACTIVE may use `dir` (kings use all four).
    pub fn men_use(&self, dir: Dir) -> bool {
        dir.is_forward() == self.black_active
    }
}

/// The notes' four direction sets, named from Black's side: "one for right
/// forward moves, one for left forward moves, one for left backward moves,
/// and one for right backward moves" (p. 4, "Saving moves"). Right forward
/// from square 1 is square 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Dir {
    RF,
    LF,
    LB,
    RB,
}

/// The order FIND visits the sets in: it counts the direction register down
/// from 3 and indexes FINT with it (p. 6: `FINT DC (RBN-RFJ), (LBN-RFJ),
/// (LFN-RFJ), (RFN-RFJ), (RBJ-RFJ), (LBJ-RFJ), (LFJ-RFJ), (RFJ-RFJ)`, jump
/// entries at 4..7 tried before the normal ones at 0..3): RF, LF, LB, RB.
pub(super) const FINT_ORDER: [Dir; 4] = [Dir::RF, Dir::LF, Dir::LB, Dir::RB];

impl Dir {
    pub fn is_forward(self) -> bool {
        matches!(self, Dir::RF | Dir::LF)
    }

    /// The pieces whose neighbour in this direction is in `x`, each at the
    /// piece's own bit — the routines RFN, LFN, LBN, RBN of FIND (p. 6)
    /// applied to `x` (EMPTY for ordinary moves, PASSIVE for the captured
    /// piece of a jump).
    pub fn neighbour(self, x: Lanes) -> Lanes {
        match self {
            // RFN: SL 4 of this byte, SR 4 + SR 1 of the next.
            Dir::RF => sl(x, 4) | sr(next_byte(x), 5),
            // LFN: SL 4 + SL 1 of this byte, SR 4 of the next.
            Dir::LF => sl(x, 5) | sr(next_byte(x), 4),
            // LBN: SR 4 of this byte, SL 4 + SL 1 of the previous.
            Dir::LB => sr(x, 4) | sl(prev_byte(x), 5),
            // RBN: SR 4 + SR 1 of this byte, SL 4 of the previous.
            Dir::RB => sr(x, 5) | sl(prev_byte(x), 4),
        }
    }

    /// The pieces whose landing square two steps away is in `empty`: the
    /// "corrected destination byte" of the jump routines (p. 6).
    pub fn landing(self, empty: Lanes) -> Lanes {
        match self {
            // RFJ: next EMPTY byte, SR 1, NI H'77'.
            Dir::RF => sr(next_byte(empty), 1) & each(0x77),
            // LFJ: next EMPTY byte, SL 1, NI H'EE'.
            Dir::LF => sl(next_byte(empty), 1) & each(0xEE),
            // LBJ: previous EMPTY byte, SL 1, NI H'EE'.
            Dir::LB => sl(prev_byte(empty), 1) & each(0xEE),
            // RBJ: previous EMPTY byte, SR 1, NI H'77'. The listing has
            // `SL 1, NI H'EE'` here, copied from LBJ; the geometry (and the
            // symmetry with RFJ) needs SR 1 and H'77'. Taken literally, it
            // gives White's men wrong jumps: perft 4 from the initial
            // position comes out 1611 instead of 1469.
            Dir::RB => sr(prev_byte(empty), 1) & each(0x77),
        }
    }

    /// The neighbour of each piece in `from`: where SELECT/UPDATE put the
    /// moving piece (p. 10, INLH/INRH: a shift of 4 within the byte, or one
    /// more across the byte boundary, depending on the nibble).
    pub fn step(self, from: Lanes) -> Lanes {
        let high = from & each(0xF0);
        let low = from & each(0x0F);
        match self {
            Dir::RF => (high >> 4) | ((low & each(0x07)) >> 3),
            Dir::LF => ((high & each(0xE0)) >> 5) | (low >> 4),
            Dir::LB => (low << 4) | ((high & each(0xE0)) << 3),
            Dir::RB => ((low & each(0x07)) << 5) | (high << 4),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row 0..8 from square 1's side and column 0..8 from the a-file (square
    /// 1 = b8, 5 = a7, as printed with White at the bottom).
    fn coords(square: u8) -> (i32, i32) {
        let i = i32::from(square - 1);
        let row = i / 4;
        let col = 2 * (i % 4) + if row % 2 == 0 { 1 } else { 0 };
        (row, col)
    }

    fn square_at(row: i32, col: i32) -> Option<u8> {
        if !(0..8).contains(&row) || !(0..8).contains(&col) || (row + col) % 2 == 0 {
            return None;
        }
        Some((row * 4 + col / 2 + 1) as u8)
    }

    /// Right forward from Black's seat is towards the a-file; left backward
    /// is its opposite.
    fn delta(dir: Dir) -> (i32, i32) {
        match dir {
            Dir::RF => (1, -1),
            Dir::LF => (1, 1),
            Dir::LB => (-1, 1),
            Dir::RB => (-1, -1),
        }
    }

    fn neighbour_square(square: u8, dir: Dir, steps: i32) -> Option<u8> {
        let (r, c) = coords(square);
        let (dr, dc) = delta(dir);
        square_at(r + steps * dr, c + steps * dc)
    }

    #[test]
    fn square_one_is_bit_seven_of_the_first_byte_and_moves_to_five_and_six() {
        assert_eq!(lanes(bit(1)), 0x80 << 32);
        assert_eq!(lanes(bit(32)), 0x01 << 8);
        assert_eq!(square_of_lane(Dir::RF.step(lanes(bit(1)))), 5);
        assert_eq!(square_of_lane(Dir::LF.step(lanes(bit(1)))), 6);
    }

    #[test]
    fn shifts_and_masks_agree_with_the_board_geometry_for_every_square() {
        for square in 1..=32u8 {
            let me = lanes(bit(square));
            for dir in FINT_ORDER {
                let one = neighbour_square(square, dir, 1);
                let two = neighbour_square(square, dir, 2);
                let step = dir.step(me);
                match one {
                    Some(n) => assert_eq!(step, lanes(bit(n)), "{square} {dir:?}"),
                    None => assert_eq!(set_of(step), 0, "{square} {dir:?} off board"),
                }
                for other in 1..=32u8 {
                    let x = lanes(bit(other));
                    let by_neighbour = dir.neighbour(x) & me != 0;
                    assert_eq!(by_neighbour, one == Some(other), "{square} {dir:?} {other}");
                    let by_landing = dir.landing(x) & me != 0;
                    assert_eq!(by_landing, two == Some(other), "{square} {dir:?} {other}");
                }
            }
        }
    }

    #[test]
    fn guard_bytes_stop_references_off_the_top_and_bottom_rows() {
        let board = SearchBoard {
            active: 0,
            passive: 0,
            kings: 0,
            black_active: true,
        };
        let empty = board.empty();
        assert_eq!(empty & 0xFF, 0, "lower guard");
        assert_eq!(empty >> 40, 0, "upper guard");
        for dir in FINT_ORDER {
            for square in 1..=32u8 {
                let reachable = dir.neighbour(empty) & lanes(bit(square)) != 0;
                assert_eq!(reachable, neighbour_square(square, dir, 1).is_some());
            }
        }
    }
}
