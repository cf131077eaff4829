//! Positions in the neutral terms of the API: PDN squares 1..=32 as bits
//! `n - 1` of three masks, the side to move, PDN FEN text
//! (`B:W18,24,K30:B9,14`). Converted to and from the notes' ACTIVE/PASSIVE
//! board (`board.rs`, where square `n` is bit `32 - n`: a bit reversal).

use std::fmt;
use std::str::FromStr;

use super::board::SearchBoard;
use super::error::SamuelError;
use super::movegen::{self, SamuelMove};
use super::side::Side;

/// A position of English checkers: bit `n - 1` of a mask is PDN square `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    black: u32,
    white: u32,
    kings: u32,
    side: Side,
}

impl Position {
    /// # Errors
    /// A square holds both colours, a king bit is set on an empty square, or
    /// a side has more than the 12 pieces it starts with.
    pub fn new(black: u32, white: u32, kings: u32, side: Side) -> Result<Position, SamuelError> {
        if black & white != 0 {
            return Err(SamuelError::BothColours(first_square(black & white)));
        }
        if kings & !(black | white) != 0 {
            return Err(SamuelError::KingOnEmpty(first_square(
                kings & !(black | white),
            )));
        }
        for (side, pieces) in [(Side::Black, black), (Side::White, white)] {
            if pieces.count_ones() > 12 {
                return Err(SamuelError::TooManyPieces(side, pieces.count_ones()));
            }
        }
        Ok(Position {
            black,
            white,
            kings,
            side,
        })
    }

    /// Black on 1-12, White on 21-32, Black to move.
    pub fn initial() -> Position {
        Position {
            black: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
            side: Side::Black,
        }
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

    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The notes' board: ACTIVE is the side to move.
    pub(super) fn board(&self) -> SearchBoard {
        let (active, passive) = match self.side {
            Side::Black => (self.black, self.white),
            Side::White => (self.white, self.black),
        };
        SearchBoard {
            active: active.reverse_bits(),
            passive: passive.reverse_bits(),
            kings: self.kings.reverse_bits(),
            black_active: self.side == Side::Black,
        }
    }

    pub(super) fn from_board(board: &SearchBoard) -> Position {
        let (side, black, white) = if board.black_active {
            (Side::Black, board.active, board.passive)
        } else {
            (Side::White, board.passive, board.active)
        };
        Position {
            black: black.reverse_bits(),
            white: white.reverse_bits(),
            kings: board.kings.reverse_bits(),
            side,
        }
    }

    /// The position after `mv`, which must be one of [`legal_moves`]
    /// (the notes' "Opponents move checking", p. 14: "see if the opponent's
    /// move is in this list").
    ///
    /// # Errors
    /// `mv` is not legal here.
    pub fn play(&self, mv: &SamuelMove) -> Result<Position, SamuelError> {
        let board = self.board();
        let mut legal = Vec::new();
        movegen::find(&board, &mut legal);
        if !legal.contains(mv) {
            return Err(SamuelError::IllegalMove(mv.to_string()));
        }
        Ok(Position::from_board(&movegen::play(&board, mv)))
    }

    /// The legal move written `text`: the full path (`9x18x27`), or start and
    /// end alone (`9x27`, `11-15`) when only one legal move has them.
    ///
    /// # Errors
    /// No legal move, or more than one, matches.
    pub fn parse_move(&self, text: &str) -> Result<SamuelMove, SamuelError> {
        let text = text.trim();
        let mut legal = Vec::new();
        movegen::find(&self.board(), &mut legal);
        if let Some(mv) = legal.iter().find(|m| m.to_string() == text) {
            return Ok(*mv);
        }
        let ends = parse_ends(text).ok_or_else(|| SamuelError::BadMove(text.to_string()))?;
        let mut matching = legal
            .iter()
            .filter(|m| (m.from(), m.to(), m.is_capture()) == ends);
        match (matching.next(), matching.next()) {
            (Some(mv), None) => Ok(*mv),
            (Some(_), Some(_)) => Err(SamuelError::AmbiguousMove(text.to_string())),
            (None, _) => Err(SamuelError::IllegalMove(text.to_string())),
        }
    }

    /// PDN FEN, White's field first: `B:W21,22,...:B1,2,...`, kings as `K5`.
    pub fn to_fen(&self) -> String {
        format!(
            "{}:W{}:B{}",
            self.side.letter(),
            fen_squares(self.white, self.kings),
            fen_squares(self.black, self.kings)
        )
    }

    /// Reads PDN FEN: the side to move, then a `W` and a `B` field in either
    /// order, each a comma list of squares (`K` before a king) or ranges
    /// (`1-12`); a trailing `.` is allowed.
    ///
    /// # Errors
    /// The text is not such a FEN, or describes an impossible position.
    pub fn from_fen(text: &str) -> Result<Position, SamuelError> {
        let bad = |reason: &'static str| SamuelError::BadFen {
            fen: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text.trim().trim_end_matches('.').split(':').collect();
        let [side, a, b] = fields[..] else {
            return Err(bad("expected three fields separated by ':'"));
        };
        let side = match side.trim() {
            "B" => Side::Black,
            "W" => Side::White,
            _ => return Err(bad("the side to move must be B or W")),
        };
        let (mut black, mut white, mut kings) = (None, None, 0u32);
        for field in [a, b] {
            let mut chars = field.trim().chars();
            let colour = chars.next();
            let (men, crowned) = parse_squares(chars.as_str()).map_err(bad)?;
            match colour {
                Some('B') if black.is_none() => black = Some(men),
                Some('W') if white.is_none() => white = Some(men),
                _ => return Err(bad("expected one W and one B field")),
            }
            kings |= crowned;
        }
        let (Some(black), Some(white)) = (black, white) else {
            return Err(bad("expected one W and one B field"));
        };
        Position::new(black, white, kings, side)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl FromStr for Position {
    type Err = SamuelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

fn first_square(mask: u32) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

fn fen_squares(pieces: u32, kings: u32) -> String {
    (1..=32u8)
        .filter(|sq| pieces & (1 << (sq - 1)) != 0)
        .map(|sq| {
            let k = if kings & (1 << (sq - 1)) != 0 {
                "K"
            } else {
                ""
            };
            format!("{k}{sq}")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A field's squares and, of those, the kings.
fn parse_squares(list: &str) -> Result<(u32, u32), &'static str> {
    let (mut all, mut kings) = (0u32, 0u32);
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (king, item) = match item.strip_prefix('K') {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (lo, hi) = match item.split_once('-') {
            Some((lo, hi)) => (square(lo)?, square(hi)?),
            None => (square(item)?, square(item)?),
        };
        if lo > hi {
            return Err("a square range must run upwards");
        }
        for sq in lo..=hi {
            let one = 1u32 << (sq - 1);
            if all & one != 0 {
                return Err("a square is listed twice");
            }
            all |= one;
            if king {
                kings |= one;
            }
        }
    }
    Ok((all, kings))
}

fn square(text: &str) -> Result<u8, &'static str> {
    match text.parse::<u8>() {
        Ok(n) if (1..=32).contains(&n) => Ok(n),
        _ => Err("squares are numbered 1 to 32"),
    }
}

/// `from-to` or `fromxto` as (from, to, is_capture).
fn parse_ends(text: &str) -> Option<(u8, u8, bool)> {
    let capture = text.contains('x');
    let sep = if capture { 'x' } else { '-' };
    let parts: Vec<&str> = text.split(sep).collect();
    if parts.len() != 2 {
        return None;
    }
    Some((square(parts[0]).ok()?, square(parts[1]).ok()?, capture))
}

/// The legal moves of the side to move, in the order the notes' FIND and
/// SELECT produce them (jumps only, when there are any).
pub fn legal_moves(pos: &Position) -> Vec<SamuelMove> {
    let mut moves = Vec::new();
    movegen::find(&pos.board(), &mut moves);
    moves
}

/// The number of move sequences `depth` plies long from `pos`, by this
/// module's own generator (each jump path counted as a move).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut lists = vec![Vec::new(); depth as usize];
    movegen::perft(&pos.board(), depth, &mut lists)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trips_and_reads_ranges_and_either_field_order() {
        let p = Position::from_fen("B:W18,24,K30:B9,14").unwrap();
        assert_eq!(p.to_fen(), "B:W18,24,K30:B9,14");
        assert_eq!(p.side_to_move(), Side::Black);
        assert_eq!(p.kings(), 1 << 29);
        let q = Position::from_fen("W:BK1,2:W21-23.").unwrap();
        assert_eq!(q.to_fen(), "W:W21,22,23:BK1,2");
        assert_eq!(
            Position::from_fen("B:W21-32:B1-12").unwrap(),
            Position::initial()
        );
    }

    #[test]
    fn bad_fens_and_positions_say_what_is_wrong() {
        let cases = [
            ("B:W18", "expected three fields separated by ':'"),
            ("X:W18:B9", "the side to move must be B or W"),
            ("B:W18:W9", "expected one W and one B field"),
            ("B:W33:B9", "squares are numbered 1 to 32"),
            ("B:W18,18:B9", "a square is listed twice"),
            ("B:W9-3:B1", "a square range must run upwards"),
            ("B:é1:B1", "expected one W and one B field"),
            ("B:W1:Bé", "squares are numbered 1 to 32"),
        ];
        for (fen, reason) in cases {
            let err = Position::from_fen(fen).unwrap_err();
            assert_eq!(err.to_string(), format!("bad fen {fen:?}: {reason}"));
        }
        assert_eq!(
            Position::from_fen("B:W9:B9").unwrap_err().to_string(),
            "square 9 holds both colours"
        );
        assert_eq!(
            Position::new(1, 0, 2, Side::Black).unwrap_err().to_string(),
            "king on empty square 2"
        );
        assert_eq!(
            Position::from_fen("W:W1-13:B20").unwrap_err().to_string(),
            "white has 13 pieces, at most 12"
        );
    }

    #[test]
    fn board_conversion_is_a_bit_reversal_and_round_trips() {
        let p = Position::from_fen("W:WK3,18:B9,K14").unwrap();
        let b = p.board();
        assert!(!b.black_active);
        assert_eq!(b.active, (1u32 << 29) | (1 << 14));
        assert_eq!(Position::from_board(&b), p);
    }

    #[test]
    fn moves_parse_by_path_or_ends_and_are_checked() {
        let p = Position::from_fen("B:W9,10,17,18:BK6").unwrap();
        assert_eq!(
            p.parse_move("6x15x22x13x6").unwrap().to_string(),
            "6x15x22x13x6"
        );
        assert_eq!(
            p.parse_move("6x6").unwrap_err().to_string(),
            "ambiguous move 6x6: give every landing square"
        );
        let start = Position::initial();
        assert_eq!(start.parse_move("11-15").unwrap().to_string(), "11-15");
        assert_eq!(
            start.parse_move("11-14").unwrap_err().to_string(),
            "illegal move 11-14"
        );
        assert_eq!(
            start.parse_move("eleven").unwrap_err().to_string(),
            "cannot read move \"eleven\""
        );
        let mv = start.parse_move("9-14").unwrap();
        let after = start.play(&mv).unwrap();
        assert_eq!(
            after.to_fen(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14"
        );
        assert!(after.play(&mv).is_err());
    }

    #[test]
    fn perft_from_the_initial_position_matches_the_published_counts() {
        let published = [
            7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
        ];
        let start = Position::initial();
        for (depth, &count) in (1..).zip(&published) {
            assert_eq!(perft(&start, depth), count, "depth {depth}");
        }
    }
}
