//! The 8×8 draughts board in standard PDN numbering, and a position on it.
//!
//! Squares are numbered 1..32 along the dark squares, four a row, from the
//! top left as the diagram is printed: Black's men start on 1–12 at the top
//! and move towards 32, White's on 21–32 at the bottom (PDN GameType 21; the
//! numbering of every English checkers book). Square 1 is the second square
//! of the top row, 5 the first of the next: the "double corner" is 1–5 and
//! 28–32, the long diagonal 29-25-22-18-15-11-8-4.
//!
//! Seed 002's display-file board is the same picture: its top row holds the
//! B pieces on columns B, D, F, H, exactly squares 1–4, so row r of that
//! board is row r here.

use std::fmt;

use shakmaty::Color;

/// A playable (dark) square, 1..=32 in PDN numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Square `n`, if `n` is in 1..=32.
    pub fn new(n: u32) -> Option<Square> {
        (1..=32).contains(&n).then_some(Square(n as u8))
    }

    pub(crate) const fn from_index(i: usize) -> Square {
        Square(i as u8 + 1)
    }

    /// The PDN number, 1..=32.
    pub fn number(self) -> u8 {
        self.0
    }

    pub(crate) fn index(self) -> usize {
        usize::from(self.0 - 1)
    }

    /// The square's bit in a [`Position`] mask (bit n-1 for square n).
    pub fn bit(self) -> u32 {
        1 << (self.0 - 1)
    }

    /// The row, 1 (top, Black's back row) to 8 (bottom, White's back row).
    pub fn row(self) -> u8 {
        (self.0 - 1) / 4 + 1
    }

    /// The column, 0 (left) to 7, counting light squares too.
    pub fn column(self) -> u8 {
        let k = (self.0 - 1) % 4;
        if self.row() % 2 == 1 {
            2 * k + 1
        } else {
            2 * k
        }
    }

    /// The square at `row` (1..=8, top to bottom), `column` (0..=7, left to
    /// right), if it is a dark one: seed 002's display-file board is these
    /// rows and columns, row r at byte 9(r-1)+1+column after D_FILE.
    pub fn at(row: i8, column: i8) -> Option<Square> {
        let on_board = (1..=8).contains(&row) && (0..=7).contains(&column);
        let dark = (row + column) % 2 == 0;
        (on_board && dark).then(|| Square(((row - 1) * 4 + column / 2 + 1) as u8))
    }

    /// All 32 squares in order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square::from_index)
    }

    /// The squares of a mask, in order.
    pub fn of(mask: u32) -> impl Iterator<Item = Square> {
        Square::all().filter(move |s| mask & s.bit() != 0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A diagonal direction on the board as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards 32 and the left: forward for Black.
    DownLeft,
    DownRight,
    /// Towards 1 and the left: forward for White.
    UpLeft,
    UpRight,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::DownLeft, Dir::DownRight, Dir::UpLeft, Dir::UpRight];

    fn delta(self) -> (i8, i8) {
        match self {
            Dir::DownLeft => (1, -1),
            Dir::DownRight => (1, 1),
            Dir::UpLeft => (-1, -1),
            Dir::UpRight => (-1, 1),
        }
    }

    /// Whether this direction is forward for a man of `side`.
    pub fn is_forward(self, side: Color) -> bool {
        let down = matches!(self, Dir::DownLeft | Dir::DownRight);
        down == (side == Color::Black)
    }

    /// The two directions a man of `side` moves in.
    pub fn forward(side: Color) -> [Dir; 2] {
        match side {
            Color::Black => [Dir::DownLeft, Dir::DownRight],
            Color::White => [Dir::UpLeft, Dir::UpRight],
        }
    }
}

/// The neighbour of every square in every direction (0 = off the board).
const NEIGHBOURS: [[u8; 4]; 32] = neighbours();

const fn neighbours() -> [[u8; 4]; 32] {
    let deltas: [(i8, i8); 4] = [(1, -1), (1, 1), (-1, -1), (-1, 1)];
    let mut table = [[0u8; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let row = (i / 4) as i8 + 1;
        let k = (i % 4) as i8;
        let col = if row % 2 == 1 { 2 * k + 1 } else { 2 * k };
        let mut d = 0;
        while d < 4 {
            let (r, c) = (row + deltas[d].0, col + deltas[d].1);
            if r >= 1 && r <= 8 && c >= 0 && c <= 7 {
                table[i][d] = ((r - 1) * 4 + c / 2 + 1) as u8;
            }
            d += 1;
        }
        i += 1;
    }
    table
}

impl Square {
    /// The diagonal neighbour in direction `d`, if on the board.
    pub fn step(self, d: Dir) -> Option<Square> {
        let n = NEIGHBOURS[self.index()][d as usize];
        (n != 0).then_some(Square(n))
    }

    /// The square two steps away in direction `d`, if on the board.
    pub fn jump(self, d: Dir) -> Option<Square> {
        self.step(d)?.step(d)
    }

    /// The direction and number of steps from `self` to `to`, if they share
    /// a diagonal.
    pub fn diagonal_to(self, to: Square) -> Option<(Dir, u8)> {
        let dr = to.row() as i8 - self.row() as i8;
        let dc = to.column() as i8 - self.column() as i8;
        if dr == 0 || dr.abs() != dc.abs() {
            return None;
        }
        let dir = Dir::ALL
            .into_iter()
            .find(|d| d.delta() == (dr.signum(), dc.signum()))?;
        Some((dir, dr.unsigned_abs()))
    }
}

/// A piece: a man or a king of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub king: bool,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = match self.color {
            Color::Black => "black",
            Color::White => "white",
        };
        write!(f, "{color} {}", if self.king { "king" } else { "man" })
    }
}

/// The far row of `side`, where its men are crowned: row 8 for Black,
/// row 1 for White.
pub fn crowning_row(side: Color) -> u8 {
    match side {
        Color::Black => 8,
        Color::White => 1,
    }
}

/// A position: who stands where, and the side to move.
///
/// Always a possible one (see [`Position::new`]): no square held twice, at
/// most 12 pieces a side, no man on the row where it would have been
/// crowned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    black: u32,
    white: u32,
    kings: u32,
    turn: Color,
}

/// Why a set of masks is not a possible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Impossible {
    BothSides(Square),
    KingWithoutPiece(Square),
    TooMany { side: Color, count: u32 },
    ManOnCrowningRow { side: Color, square: Square },
    Empty,
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Impossible::BothSides(s) => write!(f, "square {s} is listed for both sides"),
            Impossible::KingWithoutPiece(s) => write!(f, "square {s} is a king of no side"),
            Impossible::TooMany { side, count } => {
                write!(f, "{} has {count} pieces, more than 12", side_word(*side))
            }
            Impossible::ManOnCrowningRow { side, square } => write!(
                f,
                "a {} man on row {} would have been crowned (square {square})",
                side_word(*side).to_lowercase(),
                crowning_row(*side)
            ),
            Impossible::Empty => write!(f, "no pieces on the board"),
        }
    }
}

fn side_word(side: Color) -> &'static str {
    match side {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Black's men on 1–12 and White's on 21–32.
const INITIAL_BLACK: u32 = 0x0000_0FFF;
const INITIAL_WHITE: u32 = 0xFFF0_0000;
/// The squares of row 1 and of row 8.
const ROW_1: u32 = 0x0000_000F;
const ROW_8: u32 = 0xF000_0000;

impl Position {
    /// The initial position, Black to move.
    pub fn initial() -> Position {
        Position {
            black: INITIAL_BLACK,
            white: INITIAL_WHITE,
            kings: 0,
            turn: Color::Black,
        }
    }

    /// A position from masks (bit n-1 = square n) and the side to move.
    ///
    /// # Errors
    /// A square held by both sides, a king bit on an empty square, more than
    /// 12 pieces a side, a man on its crowning row, or an empty board.
    pub fn new(black: u32, white: u32, kings: u32, turn: Color) -> Result<Position, Impossible> {
        if let Some(s) = Square::of(black & white).next() {
            return Err(Impossible::BothSides(s));
        }
        if let Some(s) = Square::of(kings & !(black | white)).next() {
            return Err(Impossible::KingWithoutPiece(s));
        }
        for (side, mask) in [(Color::Black, black), (Color::White, white)] {
            if mask.count_ones() > 12 {
                return Err(Impossible::TooMany {
                    side,
                    count: mask.count_ones(),
                });
            }
        }
        let crowned = [(Color::Black, black & ROW_8), (Color::White, white & ROW_1)];
        for (side, men) in crowned {
            if let Some(square) = Square::of(men & !kings).next() {
                return Err(Impossible::ManOnCrowningRow { side, square });
            }
        }
        if black | white == 0 {
            return Err(Impossible::Empty);
        }
        Ok(Position {
            black,
            white,
            kings,
            turn,
        })
    }

    pub fn black(&self) -> u32 {
        self.black
    }

    pub fn white(&self) -> u32 {
        self.white
    }

    pub fn kings(&self) -> u32 {
        self.kings
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The pieces of `side`.
    pub fn pieces(&self, side: Color) -> u32 {
        match side {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    pub fn occupied(&self) -> u32 {
        self.black | self.white
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        let color = if self.black & bit != 0 {
            Color::Black
        } else if self.white & bit != 0 {
            Color::White
        } else {
            return None;
        };
        Some(Piece {
            color,
            king: self.kings & bit != 0,
        })
    }

    /// Moves the piece on `from` to `to`, removes `captured`, crowns it if
    /// `crown`, and hands the move to the other side. No checks.
    pub(crate) fn apply(&mut self, from: Square, to: Square, captured: u32, crown: bool) {
        let us = self.turn;
        let was_king = self.kings & from.bit() != 0;
        let mine = match us {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        };
        *mine = (*mine & !from.bit()) | to.bit();
        match us {
            Color::Black => self.white &= !captured,
            Color::White => self.black &= !captured,
        }
        self.kings &= !(captured | from.bit());
        if was_king || crown {
            self.kings |= to.bit();
        }
        self.turn = !us;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn geometry_matches_the_pdn_diagram() {
        // Row 1 holds 1..4 on columns B, D, F, H; row 2 holds 5..8 on A..G.
        assert_eq!((sq(1).row(), sq(1).column()), (1, 1));
        assert_eq!((sq(5).row(), sq(5).column()), (2, 0));
        assert_eq!((sq(29).row(), sq(29).column()), (8, 0));
        assert_eq!(Square::at(8, 6), Some(sq(32)));
        assert_eq!(Square::at(8, 7), None);
        // Black's first moves from 9..12 go to 13..16.
        assert_eq!(sq(9).step(Dir::DownLeft), Some(sq(13)));
        assert_eq!(sq(9).step(Dir::DownRight), Some(sq(14)));
        assert_eq!(sq(12).step(Dir::DownRight), None);
        assert_eq!(sq(11).step(Dir::DownRight), Some(sq(16)));
        assert_eq!(sq(22).step(Dir::UpLeft), Some(sq(17)));
        assert_eq!(sq(22).step(Dir::UpRight), Some(sq(18)));
        assert_eq!(sq(15).jump(Dir::DownRight), Some(sq(24)));
        assert_eq!(sq(15).diagonal_to(sq(24)), Some((Dir::DownRight, 2)));
        assert_eq!(sq(29).diagonal_to(sq(4)), Some((Dir::UpRight, 7)));
        assert_eq!(sq(14).diagonal_to(sq(16)), None);
        // The long diagonal.
        let long: Vec<u8> = std::iter::successors(Some(sq(29)), |s| s.step(Dir::UpRight))
            .map(Square::number)
            .collect();
        assert_eq!(long, [29, 25, 22, 18, 15, 11, 8, 4]);
    }

    #[test]
    fn impossible_positions_are_refused() {
        let b = |ns: &[u32]| ns.iter().fold(0, |m, &n| m | sq(n).bit());
        let err = |black, white, kings| {
            Position::new(black, white, kings, Color::Black)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(b(&[14]), b(&[14]), 0),
            "square 14 is listed for both sides"
        );
        assert_eq!(
            err(b(&[30]), b(&[1]), b(&[1])),
            "a black man on row 8 would have been crowned (square 30)"
        );
        assert_eq!(
            err(b(&[9]), b(&[3]), 0),
            "a white man on row 1 would have been crowned (square 3)"
        );
        assert_eq!(err(b(&[9]), 0, b(&[10])), "square 10 is a king of no side");
        assert_eq!(
            err(0x1FFF, b(&[30]), 0),
            "Black has 13 pieces, more than 12"
        );
        assert_eq!(err(0, 0, 0), "no pieces on the board");
        assert!(Position::new(b(&[30]), b(&[3]), b(&[30, 3]), Color::White).is_ok());
    }
}
