//! Draughts moves as text: PDN's `11-15`, `15x24`, `15x24x31`, and the form
//! pydraughts's Hub client exchanges.
//!
//! PDN (the 1995 SAGE proposal and PDN 3.0): squares in standard numbering,
//! `-` for a simple move, `x` for a capture; a multi-jump either names every
//! landing square (`15x24x31`) or only the first and last (`15x31`) where
//! that is unambiguous. We always write every landing square, which
//! pydraughts 0.6.7 also reads (it matches a long form against the full
//! list of steps of each legal move), and read both.
//!
//! Hub form (pydraughts 0.6.7, `draughts/core/move.py`, `hub_move`): the
//! first square, the last square, then the square of every captured piece
//! in increasing order, all joined with `x`: 14 jumping 18 to land on 23 is
//! `14x23x18`; 15 taking 19 and 27 to land on 31 is `15x31x19x27` (no
//! landing square in between). A simple move is `11-15`. pydraughts reads a
//! Hub move back by looking up first square + last square + the sorted
//! captured squares among the legal moves, so a capture without its captured
//! squares is not found (a `KeyError` in its `HubEngine.play`). Squares are
//! in standard numbering even in English, where pydraughts's own board is
//! turned round (its `pos` strings are not; see the Hub front end).

use std::fmt;
use std::str::FromStr;

use super::board::Square;

/// A move as PDN writes it, legal or not: its squares and whether it is
/// written as a capture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PdnMove {
    squares: Vec<Square>,
    capture: bool,
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    Empty,
    NotASquare(String),
    OffBoard(u32),
    MixedSeparators,
    OneSquare,
    LongStep,
    /// A Hub capture with a captured square listed twice.
    RepeatedCapture(Square),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Empty => write!(f, "empty move"),
            WireError::NotASquare(t) => write!(f, "'{t}' is not a square number"),
            WireError::OffBoard(n) => write!(f, "square {n} is off the board"),
            WireError::MixedSeparators => write!(f, "a move uses '-' or 'x', not both"),
            WireError::OneSquare => write!(f, "a move names at least two squares"),
            WireError::LongStep => write!(
                f,
                "a simple move names two squares; a move through more squares is a capture, written with 'x'"
            ),
            WireError::RepeatedCapture(s) => write!(f, "captured square {s} is listed twice"),
        }
    }
}

impl std::error::Error for WireError {}

/// Splits `text` into squares and whether the separator is `x`.
fn squares(text: &str) -> Result<(Vec<Square>, bool), WireError> {
    if text.is_empty() {
        return Err(WireError::Empty);
    }
    let dash = text.contains('-');
    let cross = text.contains(['x', 'X']);
    if dash && cross {
        return Err(WireError::MixedSeparators);
    }
    let parts = text.split(['-', 'x', 'X']);
    let squares = parts.map(square).collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 {
        return Err(WireError::OneSquare);
    }
    Ok((squares, cross))
}

fn square(token: &str) -> Result<Square, WireError> {
    let n = number(token).ok_or_else(|| WireError::NotASquare(token.to_string()))?;
    Square::new(n).ok_or(WireError::OffBoard(n))
}

/// The number a square token (one or two digits, nothing else) names.
pub(crate) fn number(token: &str) -> Option<u32> {
    let digits = !token.is_empty() && token.len() <= 2 && token.bytes().all(|b| b.is_ascii_digit());
    token.parse().ok().filter(|_| digits)
}

impl PdnMove {
    /// A simple move.
    pub fn step(from: Square, to: Square) -> PdnMove {
        PdnMove {
            squares: vec![from, to],
            capture: false,
        }
    }

    /// A capture through `squares`: the piece's square, then landing
    /// squares (or only the last).
    ///
    /// # Errors
    /// Fewer than two squares.
    pub fn capture(squares: Vec<Square>) -> Result<PdnMove, WireError> {
        if squares.len() < 2 {
            return Err(WireError::OneSquare);
        }
        Ok(PdnMove::jumps(squares))
    }

    /// A capture through `squares`, known to be two or more.
    pub(crate) fn jumps(squares: Vec<Square>) -> PdnMove {
        debug_assert!(squares.len() >= 2);
        PdnMove {
            squares,
            capture: true,
        }
    }

    /// The squares as written: the piece's square, then landing squares.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    pub fn from(&self) -> Square {
        self.squares[0]
    }

    pub fn to(&self) -> Square {
        self.squares[self.squares.len() - 1]
    }

    /// Whether it is written with `x`.
    pub fn is_capture(&self) -> bool {
        self.capture
    }
}

impl fmt::Display for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl FromStr for PdnMove {
    type Err = WireError;

    /// `11-15`, `15x24`, `15x24x31` (or `15x31`); `X` is read as `x`.
    ///
    /// # Errors
    /// Empty text, a token that is not a square 1..32, both separators, a
    /// single square, or a `-` move through more than two squares.
    fn from_str(text: &str) -> Result<PdnMove, WireError> {
        let (squares, capture) = squares(text)?;
        if !capture && squares.len() > 2 {
            return Err(WireError::LongStep);
        }
        Ok(PdnMove { squares, capture })
    }
}

/// A move as pydraughts's Hub client writes and reads it: first square,
/// last square and, for a capture, the captured squares in increasing order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HubMove {
    from: Square,
    to: Square,
    captured: Vec<Square>,
    capture: bool,
}

impl HubMove {
    /// A simple move.
    pub fn step(from: Square, to: Square) -> HubMove {
        HubMove {
            from,
            to,
            captured: Vec::new(),
            capture: false,
        }
    }

    /// A capture from `from` to `to` taking `captured` (any order).
    pub fn capture(from: Square, to: Square, mut captured: Vec<Square>) -> HubMove {
        captured.sort();
        HubMove {
            from,
            to,
            captured,
            capture: true,
        }
    }

    pub fn from(&self) -> Square {
        self.from
    }

    pub fn to(&self) -> Square {
        self.to
    }

    /// The captured squares, in increasing order (empty if not given).
    pub fn captured(&self) -> &[Square] {
        &self.captured
    }

    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// The captured squares as a mask.
    pub fn captured_mask(&self) -> u32 {
        self.captured.iter().fold(0, |m, s| m | s.bit())
    }

    /// The Hub form of a PDN move that may be illegal (a program's move the
    /// rules refused): its first and last squares and, for a capture, the
    /// square jumped over on each leg that is a jump (two steps along a
    /// diagonal); a leg that is not names no captured square.
    pub fn from_pdn(pdn: &PdnMove) -> HubMove {
        if !pdn.is_capture() {
            return HubMove::step(pdn.from(), pdn.to());
        }
        let over = pdn
            .squares()
            .windows(2)
            .filter_map(|leg| match leg[0].diagonal_to(leg[1]) {
                Some((dir, 2)) => leg[0].step(dir),
                _ => None,
            });
        HubMove::capture(pdn.from(), pdn.to(), over.collect())
    }
}

impl fmt::Display for HubMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.capture {
            return write!(f, "{}-{}", self.from, self.to);
        }
        write!(f, "{}x{}", self.from, self.to)?;
        for s in &self.captured {
            write!(f, "x{s}")?;
        }
        Ok(())
    }
}

impl FromStr for HubMove {
    type Err = WireError;

    /// `11-15`, or `14x23x18` (from, to, captured squares in any order).
    /// A capture written `14x23`, without its captured squares, is read
    /// with none: [`super::Draughts::wire_from_hub`] then accepts it only
    /// if one legal capture goes from 14 to 23.
    ///
    /// # Errors
    /// As [`PdnMove`]'s, and a captured square listed twice.
    fn from_str(text: &str) -> Result<HubMove, WireError> {
        let (squares, capture) = squares(text)?;
        if !capture {
            if squares.len() > 2 {
                return Err(WireError::LongStep);
            }
            return Ok(HubMove::step(squares[0], squares[1]));
        }
        let hub = HubMove::capture(squares[0], squares[1], squares[2..].to_vec());
        if let Some(w) = hub.captured.windows(2).find(|w| w[0] == w[1]) {
            return Err(WireError::RepeatedCapture(w[0]));
        }
        Ok(hub)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_moves_parse_and_print() {
        for text in [
            "11-15",
            "15x24",
            "15x24x31",
            "1x10x19x28x19",
            "9-14",
            "32-27",
        ] {
            assert_eq!(text.parse::<PdnMove>().unwrap().to_string(), text);
        }
        assert_eq!("15X24".parse::<PdnMove>().unwrap().to_string(), "15x24");
        assert_eq!("09-13".parse::<PdnMove>().unwrap().to_string(), "9-13");
    }

    #[test]
    fn pdn_move_errors_are_specific() {
        let table = [
            ("", "empty move"),
            ("11", "a move names at least two squares"),
            ("11-", "'' is not a square number"),
            ("11--15", "'' is not a square number"),
            ("a3-b4", "'a3' is not a square number"),
            ("11-15 ", "'15 ' is not a square number"),
            ("0-4", "square 0 is off the board"),
            ("11-33", "square 33 is off the board"),
            ("111-15", "'111' is not a square number"),
            ("15x24-31", "a move uses '-' or 'x', not both"),
            (
                "15-24-31",
                "a simple move names two squares; a move through more squares is a capture, written with 'x'",
            ),
            ("+1-5", "'+1' is not a square number"),
        ];
        for (text, why) in table {
            assert_eq!(
                text.parse::<PdnMove>().unwrap_err().to_string(),
                why,
                "{text:?}"
            );
        }
    }

    #[test]
    fn hub_moves_sort_their_captures() {
        let m: HubMove = "15x31x27x19".parse().unwrap();
        assert_eq!(m.to_string(), "15x31x19x27");
        assert_eq!(m.captured().len(), 2);
        assert_eq!("11-15".parse::<HubMove>().unwrap().to_string(), "11-15");
        assert_eq!(
            "15x31x19x19".parse::<HubMove>().unwrap_err().to_string(),
            "captured square 19 is listed twice"
        );
    }

    #[test]
    fn hub_form_of_a_pdn_move_names_the_squares_jumped() {
        let hub = |pdn: &str| HubMove::from_pdn(&pdn.parse().unwrap()).to_string();
        assert_eq!(hub("11-16"), "11-16");
        assert_eq!(hub("15x24x31"), "15x31x19x27");
        assert_eq!(hub("14x23"), "14x23x18");
        // Not jumps: the legs name nothing jumped over.
        assert_eq!(hub("14x18"), "14x18");
        assert_eq!(hub("1x32"), "1x32");
    }
}
