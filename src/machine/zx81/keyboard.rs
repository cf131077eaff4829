//! The ZX81 keyboard and character set: the key matrix, the ROM's unshifted
//! key table, character codes, and a person's typing speed.
//!
//! Facts from the ZX81 keyboard layout (eight half-rows of five keys, read
//! with A8..A15 low) and the character set of the ZX81 manual (appendix A).

use super::super::Cell;

/// ROM address of the unshifted key table (K-UNSHIFT) that DECODE points into.
pub const KEY_TABLE: u16 = 0x007E;

/// Keyboard matrix, half-row by half-row (port A8..A15 low), bit 0 first.
/// `\u{1}` marks SHIFT, `\n` NEWLINE.
const MATRIX: [&str; 8] = [
    "\u{1}ZXCV",
    "ASDFG",
    "QWERT",
    "12345",
    "09876",
    "POIUY",
    "\nLKJH",
    " .MNB",
];

/// How long a person takes at the keyboard, in frames (drawn from the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypingModel {
    /// Thinking before the first key of a group.
    pub think: (u64, u64),
    /// How long a key is held down.
    pub hold: (u64, u64),
    /// Pause between releasing a key and pressing the next.
    pub gap: (u64, u64),
}

impl Default for TypingModel {
    /// 2–8 s to think, keys held 0.1–0.2 s, 0.16–0.5 s between keys.
    fn default() -> Self {
        TypingModel {
            think: (100, 400),
            hold: (5, 10),
            gap: (8, 25),
        }
    }
}

/// A key held down from `down_at` to `up_at` (machine time).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyPress {
    pub key: char,
    pub down_at: u64,
    pub up_at: u64,
}

/// The character code of the key table entry at ROM address `rom`, if any.
pub(super) fn key_table_char(rom: u16) -> Option<u8> {
    let index = rom.checked_sub(KEY_TABLE)? as usize;
    // Row 0 has 4 keys (its first position is SHIFT), the others 5.
    let (row, col) = if index < 4 {
        (0, index + 1)
    } else {
        ((index + 1) / 5, (index + 1) % 5)
    };
    let ch = MATRIX.get(row)?.chars().nth(col)?;
    char_to_code(ch)
}

/// Half-row and column of a key.
pub(super) fn key_position(key: char) -> Option<(u8, u8)> {
    MATRIX.iter().enumerate().find_map(|(row, keys)| {
        keys.chars()
            .position(|k| k == key)
            .map(|col| (row as u8, col as u8))
    })
}

/// The ZX81 character code of an ASCII character (upper case, digits, the
/// punctuation of the keyboard), `\n` giving NEWLINE (0x76).
pub fn char_to_code(ch: char) -> Option<u8> {
    Some(match ch {
        ' ' => 0x00,
        '"' => 0x0B,
        '£' => 0x0C,
        '$' => 0x0D,
        ':' => 0x0E,
        '?' => 0x0F,
        '(' => 0x10,
        ')' => 0x11,
        '>' => 0x12,
        '<' => 0x13,
        '=' => 0x14,
        '+' => 0x15,
        '-' => 0x16,
        '*' => 0x17,
        '/' => 0x18,
        ';' => 0x19,
        ',' => 0x1A,
        '.' => 0x1B,
        '0'..='9' => 0x1C + (ch as u8 - b'0'),
        'A'..='Z' => 0x26 + (ch as u8 - b'A'),
        '\n' => 0x76,
        _ => return None,
    })
}

/// A screen cell for a ZX81 character code (bit 7: inverse video).
pub fn code_to_cell(code: u8) -> Cell {
    const GRAPHICS: [char; 11] = [' ', '▘', '▝', '▀', '▖', '▌', '▞', '▛', '▒', '▄', '▀'];
    const PUNCT: &str = "\"£$:?()><=+-*/;,.";
    let inverse = code & 0x80 != 0;
    let c = code & 0x7F;
    let glyph = match c {
        0x00..=0x0A => GRAPHICS[c as usize],
        0x0B..=0x1B => PUNCT.chars().nth((c - 0x0B) as usize).unwrap_or('?'),
        0x1C..=0x25 => (b'0' + c - 0x1C) as char,
        0x26..=0x3F => (b'A' + c - 0x26) as char,
        // Keyword tokens and control codes never appear in a display file.
        _ => '¿',
    };
    Cell { glyph, inverse }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_table_is_the_keyboard_layout() {
        assert_eq!(key_table_char(KEY_TABLE), char_to_code('Z'));
        assert_eq!(key_table_char(KEY_TABLE + 4), char_to_code('A'));
        assert_eq!(key_table_char(KEY_TABLE + 14), char_to_code('1'));
        assert_eq!(key_table_char(KEY_TABLE + 29), char_to_code('\n'));
        assert_eq!(key_table_char(KEY_TABLE + 38), char_to_code('B'));
        assert_eq!(key_table_char(KEY_TABLE + 39), None);
        assert_eq!(key_table_char(KEY_TABLE - 1), None);
    }

    #[test]
    fn charset_round_trips() {
        for ch in "ABCXYZ0189.,;$".chars() {
            let code = char_to_code(ch).unwrap();
            assert_eq!(
                code_to_cell(code),
                Cell {
                    glyph: ch,
                    inverse: false
                }
            );
            assert_eq!(
                code_to_cell(code | 0x80),
                Cell {
                    glyph: ch,
                    inverse: true
                }
            );
        }
        assert_eq!(code_to_cell(0x08).glyph, '▒');
        assert_eq!(
            code_to_cell(0x80),
            Cell {
                glyph: ' ',
                inverse: true
            }
        );
    }
}
