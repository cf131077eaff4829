//! Legal moves of both rule sets.
//!
//! English checkers (the ACF/EDA laws as every checkers book states them):
//! a capture must be made if one can be, but any capture may be chosen, not
//! necessarily the longest; once begun, a jump continues as long as the same
//! piece can jump again; men move and jump forward only, kings one square
//! both ways; a man that reaches the far row is crowned and that ends the
//! move.
//!
//! Draughts 1K (seed 002's routine, 0x4082..0x4130, read instruction by
//! instruction; it moves the `B` pieces, at the top, down the board):
//! - `EVAL` looks one square ahead in each of a piece's two directions:
//!   +8/+10 bytes (down) for a man `B` (0x27), −10/−8 (up) for a king, `B`
//!   with bit 7 set (0xA7). An empty square (0x08) is a step; a `W` man or
//!   king (`and 0x7f; cp 0x3c`) with an empty square behind it is a capture,
//!   kept alone in CAPT_ORG/DST/MID and never extended: single jumps only.
//!   So a man takes a king as readily as a man (the seed says so too:
//!   "Una pedina così come un re può catturare indifferentemente una
//!   pedina o un re avversario").
//! - Nothing forces a capture (the seed: "Le prese non sono
//!   obbligatorie"). The routine itself always plays one when it finds one
//!   (CAPT is copied over SAFE): its choice, not a rule.
//! - The landing square, step or jump, is crowned (`or 0x80`) when it is
//!   at or past D_FILE+0x3F, the last row. (The seed's comment calls that
//!   address "SAFE_DST + 3f"; the word added to 0x3F is the D_FILE pushed
//!   at 0x4091 and popped at 0x40E0.)
//! - So a king moves and captures only the way the other side's men go,
//!   back towards its own first row. There it looks at bytes before the
//!   board (the display file's opening NEWLINE, or the end of the BASIC
//!   program before it); on the board it is stuck, which is what the seed means by "a
//!   giudicare dall'implementazione, non si muove più". We treat the board
//!   edge as an edge: that holds on the real machine as long as those bytes
//!   of the book's BASIC are neither 0x08 nor a `W` (the BASIC is not in
//!   the seed), and likewise for a man's jump from row 7 past row 8.
//! - Left open by the seed, and ours: the other side (the person) plays by
//!   the same rules, mirrored (the routine moves only `B`; a driver mirrors
//!   the board for the other colour), and the game's end (see the module
//!   notes of `draughts`).
//!
//! Two captures with the same squares: in English checkers a king can take
//! a ring of four pieces clockwise or anticlockwise, landing back on its
//! own square with the same pieces captured. They are two move sequences
//! (their landing squares differ), so both are listed, and perft counts
//! both, as the published figures do.

use std::fmt;

use shakmaty::Color;

use super::board::{Dir, Position, Square, crowning_row};

/// Landing squares one move can have: at most 12 pieces to capture.
const MAX_LANDINGS: usize = 12;

/// A legal move: the piece's square, every square it lands on, the pieces
/// it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DraughtsMove {
    from: Square,
    landings: [u8; MAX_LANDINGS],
    len: u8,
    captured: u32,
    king: bool,
    crowns: bool,
}

impl DraughtsMove {
    fn step(from: Square, to: Square, king: bool, crowns: bool) -> DraughtsMove {
        let mut landings = [0; MAX_LANDINGS];
        landings[0] = to.number();
        DraughtsMove {
            from,
            landings,
            len: 1,
            captured: 0,
            king,
            crowns,
        }
    }

    /// A jump about to begin: no landing square yet.
    fn start(from: Square, king: bool) -> DraughtsMove {
        DraughtsMove {
            len: 0,
            ..DraughtsMove::step(from, from, king, false)
        }
    }

    pub fn from(&self) -> Square {
        self.from
    }

    /// The final square.
    pub fn to(&self) -> Square {
        self.landing(usize::from(self.len) - 1)
    }

    fn landing(&self, i: usize) -> Square {
        Square::new(u32::from(self.landings[i])).unwrap_or(self.from)
    }

    /// Every square the piece lands on, in order (one for a step).
    pub fn landings(&self) -> impl Iterator<Item = Square> + '_ {
        (0..usize::from(self.len)).map(|i| self.landing(i))
    }

    /// The squares of the pieces captured (bit n-1 = square n).
    pub fn captured(&self) -> u32 {
        self.captured
    }

    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether the moving piece is a king.
    pub fn is_king_move(&self) -> bool {
        self.king
    }

    /// Whether a man is crowned by this move.
    pub fn crowns(&self) -> bool {
        self.crowns
    }

    /// Plays the move (known to be legal) on `pos`.
    pub fn apply(&self, pos: &mut Position) {
        pos.apply(self.from, self.to(), self.captured, self.crowns);
    }
}

/// PDN with every landing square: `11-15`, `15x24x31`.
impl fmt::Display for DraughtsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        write!(f, "{}", self.from)?;
        self.landings().try_for_each(|s| write!(f, "{sep}{s}"))
    }
}

/// The directions a piece of `side` moves in under each rule set.
fn directions(side: Color, king: bool, english: bool) -> &'static [Dir] {
    const DOWN: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const UP: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    match (king, english) {
        (true, true) => &Dir::ALL,
        // Draughts 1K's king goes the other side's way.
        (true, false) => match side {
            Color::Black => &UP,
            Color::White => &DOWN,
        },
        (false, _) => match side {
            Color::Black => &DOWN,
            Color::White => &UP,
        },
    }
}

/// Whether `sq` is on the row where men of `side` are crowned.
fn crowns_at(side: Color, sq: Square) -> bool {
    sq.row() == crowning_row(side)
}

/// The legal moves of English checkers, captures only if there are any.
pub fn english(pos: &Position, out: &mut Vec<DraughtsMove>) {
    out.clear();
    let us = pos.turn();
    for from in Square::of(pos.pieces(us)) {
        let king = pos.kings() & from.bit() != 0;
        extend_jumps(pos, &mut DraughtsMove::start(from, king), from, out);
    }
    if out.is_empty() {
        steps(pos, true, out);
    }
}

/// The moves of Draughts 1K's house rules: every step and every single jump.
pub fn zx81(pos: &Position, out: &mut Vec<DraughtsMove>) {
    out.clear();
    let us = pos.turn();
    let empty = !pos.occupied();
    for from in Square::of(pos.pieces(us)) {
        let king = pos.kings() & from.bit() != 0;
        for &d in directions(us, king, false) {
            let (Some(over), Some(to)) = (from.step(d), from.jump(d)) else {
                continue;
            };
            if pos.pieces(!us) & over.bit() != 0 && empty & to.bit() != 0 {
                let mut m = DraughtsMove::step(from, to, king, !king && crowns_at(us, to));
                m.captured = over.bit();
                out.push(m);
            }
        }
    }
    steps(pos, false, out);
}

/// Appends every simple step of the side to move.
fn steps(pos: &Position, english: bool, out: &mut Vec<DraughtsMove>) {
    let us = pos.turn();
    let empty = !pos.occupied();
    for from in Square::of(pos.pieces(us)) {
        let king = pos.kings() & from.bit() != 0;
        for &d in directions(us, king, english) {
            if let Some(to) = from.step(d).filter(|t| empty & t.bit() != 0) {
                out.push(DraughtsMove::step(
                    from,
                    to,
                    king,
                    !king && crowns_at(us, to),
                ));
            }
        }
    }
}

/// Extends the jump `m` (its piece now on `at`) in every way it can go on,
/// pushing each complete sequence. The piece's own square counts as empty
/// (a king may come back to it); captured pieces stay on the board until
/// the move ends, so none is jumped twice.
fn extend_jumps(pos: &Position, m: &mut DraughtsMove, at: Square, out: &mut Vec<DraughtsMove>) {
    let us = pos.turn();
    let empty = !pos.occupied() | m.from.bit();
    let mut extended = false;
    if !m.crowns && usize::from(m.len) < MAX_LANDINGS {
        for &d in directions(us, m.king, true) {
            let (Some(over), Some(to)) = (at.step(d), at.jump(d)) else {
                continue;
            };
            let capturable = pos.pieces(!us) & !m.captured & over.bit() != 0;
            if capturable && empty & to.bit() != 0 {
                let saved = *m;
                m.landings[usize::from(m.len)] = to.number();
                m.len += 1;
                m.captured |= over.bit();
                m.crowns = !m.king && crowns_at(us, to);
                extend_jumps(pos, m, to, out);
                *m = saved;
                extended = true;
            }
        }
    }
    if !extended && m.len > 0 {
        out.push(*m);
    }
}
