//! Positions as pydraughts's Hub client sends them for English checkers.
//!
//! The Hub protocol (Scan's `protocol.txt`, version 2) writes a position as
//! `pos=<side><one letter a square>`: `w`/`b` a man, `W`/`B` a king, `e`
//! empty, squares in numbering order. pydraughts 0.6.7 (`HubEngine.go`,
//! sending `board._game.initial_hub_fen`) writes it for `english` in its
//! own internal orientation, which is the standard board turned round with
//! the colours exchanged (white always starts inside pydraughts): letter
//! *i* (1-based, after the side letter) describes standard square 33−*i*,
//! with `w`/`W` standing for Black's pieces and `b`/`B` for White's, and
//! the side letter `W` means Black to move. The initial position is
//! `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`. The moves it sends with it
//! (`moves="11-15 23-19"`), and the moves it reads back, are in standard
//! numbering (see [`super::wire`]).

use shakmaty::Color;

use super::board::{Position, Square};
use super::fen::FenError;

/// `pos` as pydraughts's Hub client writes it for English checkers.
pub fn pydraughts_position(pos: &Position) -> String {
    // pydraughts's colours are the other way round.
    let side = match pos.turn() {
        Color::Black => 'W',
        Color::White => 'B',
    };
    let squares = (1..=32).map(|i| {
        let sq = Square::from_index(32 - i);
        match pos.piece_at(sq) {
            None => 'e',
            Some(p) => match (p.color, p.king) {
                (Color::Black, false) => 'w',
                (Color::Black, true) => 'W',
                (Color::White, false) => 'b',
                (Color::White, true) => 'B',
            },
        }
    });
    std::iter::once(side).chain(squares).collect()
}

/// Reads a position as pydraughts's Hub client writes it for English
/// checkers.
///
/// # Errors
/// Not a side letter and 32 square letters, or an impossible position.
pub fn parse_pydraughts_position(text: &str) -> Result<Position, FenError> {
    let mut chars = text.chars();
    let turn = match chars.next() {
        Some('W') => Color::Black,
        Some('B') => Color::White,
        other => return Err(FenError::Turn(other.map(String::from).unwrap_or_default())),
    };
    let letters: Vec<char> = chars.collect();
    if letters.len() != 32 {
        return Err(FenError::HubLength(letters.len()));
    }
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for (i, c) in letters.into_iter().enumerate() {
        let bit = Square::from_index(31 - i).bit();
        match c {
            'e' => {}
            'w' | 'W' => black |= bit,
            'b' | 'B' => white |= bit,
            other => return Err(FenError::HubLetter(other)),
        }
        if c.is_ascii_uppercase() {
            kings |= bit;
        }
    }
    Position::new(black, white, kings, turn).map_err(FenError::Impossible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::draughts::parse_fen;

    #[test]
    fn pydraughts_orientation() {
        let start = Position::initial();
        assert_eq!(
            pydraughts_position(&start),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        // Found with pydraughts 0.6.7: Board(variant='english',
        // fen='B:W18,24,K30:B9,K14')._game.initial_hub_fen
        let pos = parse_fen("B:W18,24,K30:B9,K14").unwrap();
        let text = "WeeBeeeeebeeeeebeeeWeeeeweeeeeeee";
        assert_eq!(pydraughts_position(&pos), text);
        assert_eq!(parse_pydraughts_position(text), Ok(pos));
        let errors = [
            ("", "the side to move is B or W, not ''"),
            ("Xeee", "the side to move is B or W, not 'X'"),
            ("Weee", "a Hub position has 32 squares, not 3"),
            (
                "WeeBeeeeebeeeeebeeeWeeeeweeeeeeex",
                "'x' is not a Hub square letter (w, b, W, B or e)",
            ),
            (
                "Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                "no pieces on the board",
            ),
        ];
        for (text, why) in errors {
            assert_eq!(
                parse_pydraughts_position(text).unwrap_err().to_string(),
                why
            );
        }
    }
}
