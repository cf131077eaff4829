//! PDN FEN for the 8×8 board: `B:W18,24,K30:B9,14`.
//!
//! The side to move (`B` or `W`), then the two colours' lists in either
//! order, each a colour letter followed by comma-separated squares, a `K`
//! before a king, and ranges such as `1-12` (or `K1-4`, all kings) as PDN
//! 3.0 and pydraughts allow. A colour with no pieces is its bare letter
//! (`W:W:B1`). We write the canonical form pydraughts writes too: side to
//! move, White's list, Black's list, squares in increasing order, no ranges.

use std::fmt;

use shakmaty::Color;

use super::board::{Impossible, Position, Square};
use crate::rules::PositionError;

/// What is wrong with a PDN FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    Parts(usize),
    Turn(String),
    Colour(String),
    ListedTwice(Color),
    NotASquare(String),
    Backwards(u32, u32),
    OffBoard(u32),
    SquareTwice(Square),
    Impossible(Impossible),
    /// A Hub position (see `hub`) of the wrong length.
    HubLength(usize),
    /// A Hub position's letter that is no piece and not `e`.
    HubLetter(char),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty position"),
            FenError::Parts(n) => write!(
                f,
                "a position has three parts separated by ':' (side to move, and each side's pieces), not {n}"
            ),
            FenError::Turn(t) => write!(f, "the side to move is B or W, not '{t}'"),
            FenError::Colour(t) => write!(f, "a list of pieces starts with W or B: '{t}'"),
            FenError::ListedTwice(c) => write!(f, "{} pieces are listed twice", colour(*c)),
            FenError::NotASquare(t) => write!(f, "'{t}' is not a square number"),
            FenError::Backwards(a, b) => write!(f, "the range {a}-{b} runs backwards"),
            FenError::OffBoard(n) => write!(f, "square {n} is off the board"),
            FenError::SquareTwice(s) => write!(f, "square {s} is listed twice"),
            FenError::Impossible(why) => why.fmt(f),
            FenError::HubLength(n) => write!(f, "a Hub position has 32 squares, not {n}"),
            FenError::HubLetter(c) => {
                write!(f, "'{c}' is not a Hub square letter (w, b, W, B or e)")
            }
        }
    }
}

impl From<FenError> for PositionError {
    fn from(e: FenError) -> PositionError {
        match e {
            FenError::OffBoard(_) | FenError::SquareTwice(_) | FenError::Impossible(_) => {
                PositionError::Impossible(e.to_string())
            }
            _ => PositionError::Unreadable(e.to_string()),
        }
    }
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Reads a PDN FEN.
///
/// # Errors
/// Text that is not a PDN FEN, a square off the board or listed twice, or
/// an impossible position (see [`Position::new`]).
pub fn parse(text: &str) -> Result<Position, FenError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 3 {
        return Err(FenError::Parts(parts.len()));
    }
    let turn = match parts[0] {
        "B" => Color::Black,
        "W" => Color::White,
        other => return Err(FenError::Turn(other.to_string())),
    };
    let (mut black, mut white) = (None, None);
    for part in &parts[1..] {
        let (side, slot, rest) = match part.split_at_checked(1) {
            Some(("B", rest)) => (Color::Black, &mut black, rest),
            Some(("W", rest)) => (Color::White, &mut white, rest),
            _ => return Err(FenError::Colour(part.to_string())),
        };
        if slot.is_some() {
            return Err(FenError::ListedTwice(side));
        }
        *slot = Some(pieces(rest)?);
    }
    // Two lists were read and neither twice: one of each.
    let (black, white) = (black.unwrap_or_default(), white.unwrap_or_default());
    Position::new(black.0, white.0, black.1 | white.1, turn).map_err(FenError::Impossible)
}

/// The pieces of one list: (all, kings).
fn pieces(list: &str) -> Result<(u32, u32), FenError> {
    let (mut all, mut kings) = (0u32, 0u32);
    if list.is_empty() {
        return Ok((0, 0));
    }
    for item in list.split(',') {
        let (king, item) = match item.strip_prefix('K') {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (a, b) = match item.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(item)?, number(item)?),
        };
        if a > b {
            return Err(FenError::Backwards(a, b));
        }
        for n in a..=b {
            let sq = Square::new(n).ok_or(FenError::OffBoard(n))?;
            if all & sq.bit() != 0 {
                return Err(FenError::SquareTwice(sq));
            }
            all |= sq.bit();
            if king {
                kings |= sq.bit();
            }
        }
    }
    Ok((all, kings))
}

fn number(token: &str) -> Result<u32, FenError> {
    super::wire::number(token).ok_or_else(|| FenError::NotASquare(token.to_string()))
}

/// The canonical PDN FEN of `pos`.
pub fn write(pos: &Position) -> String {
    let list = |mask: u32| {
        Square::of(mask)
            .map(|s| {
                let k = if pos.kings() & s.bit() != 0 { "K" } else { "" };
                format!("{k}{s}")
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let turn = match pos.turn() {
        Color::Black => 'B',
        Color::White => 'W',
    };
    format!("{turn}:W{}:B{}", list(pos.white()), list(pos.black()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let table = [
            ("B:W18,24,K30:B9,14", "B:W18,24,K30:B9,14"),
            (
                "W:B1-12:W21-32",
                "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            ),
            ("B:WK1-3,K32:B", "B:WK1,K2,K3,K32:B"),
            (" W:W:BK29 ", "W:W:BK29"),
            ("B:W24,18:B14,9", "B:W18,24:B9,14"),
        ];
        for (text, canonical) in table {
            let pos = parse(text).unwrap();
            assert_eq!(write(&pos), canonical, "{text}");
            assert_eq!(parse(canonical).unwrap(), pos);
        }
        assert_eq!(parse("B:W21-32:B1-12").unwrap(), Position::initial());
    }

    #[test]
    fn refusals_are_specific() {
        let table = [
            ("", "empty position"),
            (
                "B:W18",
                "a position has three parts separated by ':' (side to move, and each side's pieces), not 2",
            ),
            ("X:W18:B9", "the side to move is B or W, not 'X'"),
            ("b:W18:B9", "the side to move is B or W, not 'b'"),
            ("B:W18:Q9", "a list of pieces starts with W or B: 'Q9'"),
            ("B:W18:W9", "white pieces are listed twice"),
            ("B:W18,:B9", "'' is not a square number"),
            ("B:W1a:B9", "'1a' is not a square number"),
            ("B:WK:B9", "'' is not a square number"),
            ("B:W12-5:B30", "the range 12-5 runs backwards"),
            ("B:W33:B9", "square 33 is off the board"),
            ("B:W0:B9", "square 0 is off the board"),
            ("B:W18,K18:B9", "square 18 is listed twice"),
            ("B:W14:B14", "square 14 is listed for both sides"),
            (
                "B:W3:B9",
                "a white man on row 1 would have been crowned (square 3)",
            ),
            (
                "B:W20:B29",
                "a black man on row 8 would have been crowned (square 29)",
            ),
            ("B:W:B1-13", "Black has 13 pieces, more than 12"),
            ("B:W:B", "no pieces on the board"),
        ];
        for (text, why) in table {
            assert_eq!(parse(text).unwrap_err().to_string(), why, "{text:?}");
        }
        assert!(matches!(
            PositionError::from(parse("B:W33:B9").unwrap_err()),
            PositionError::Impossible(_)
        ));
        assert!(matches!(
            PositionError::from(parse("B:W18").unwrap_err()),
            PositionError::Unreadable(_)
        ));
    }
}
