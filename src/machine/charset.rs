//! Our own 8×8 character set, standing in for the patterns the ZX81's and
//! the Spectrum's ROMs hold.
//!
//! **OURS, not Sinclair's.** We use no ROM images, and a machine's character
//! patterns live in its ROM. The printable characters are drawn afresh in
//! `charset.txt` (a 5-wide dot-matrix style of our own) to the characters'
//! published descriptions: the character-set tables of the ZX81 manual
//! (appendix A, "The character set": 64 characters, codes 0–63, and their
//! inverse video, codes 128–191) and of the ZX Spectrum manual (appendix A: codes
//! 32–127, with `£` at 96, `↑` at 94 and `©` at 127; 128–143 the block
//! graphics). They look like neither machine's own font, and no program here
//! reads the patterns back.
//!
//! The graphics are not drawn but computed from their definition:
//! - the 16 block graphics are every combination of the four quadrants of the
//!   8×8 cell (4×4 pixels each): the ZX81 has 8 of them at codes 0–7 and the
//!   other 8 as their inverse video (128–135), the Spectrum all 16 at
//!   128–143 (bit 0 top right, bit 1 top left, bit 2 bottom right, bit 3
//!   bottom left);
//! - the ZX81's three grey characters (8: a chequerboard over the whole cell,
//!   9: over the lower half, 10: over the upper half) use a one-pixel
//!   chequerboard.

use std::collections::HashMap;
use std::sync::OnceLock;

/// One character cell: eight rows of eight pixels, top row first, bit 7 the
/// leftmost pixel (the Spectrum display file's own byte order). A set bit is
/// ink.
pub type Glyph = [u8; 8];

const SOURCE: &str = include_str!("charset.txt");

fn table() -> &'static HashMap<char, Glyph> {
    static TABLE: OnceLock<HashMap<char, Glyph>> = OnceLock::new();
    TABLE.get_or_init(|| parse(SOURCE))
}

/// Reads `charset.txt` (format in its header). A malformed file is a bug in
/// the repository, caught by the tests: bad rows are skipped here.
fn parse(text: &str) -> HashMap<char, Glyph> {
    let mut table = HashMap::new();
    let mut current: Option<(char, Glyph, usize)> = None;
    for line in text.lines() {
        if line.starts_with("# ") || line.is_empty() {
            continue;
        }
        let header = if line == "space" {
            Some(' ')
        } else if line.chars().count() == 1 {
            line.chars().next()
        } else {
            None
        };
        if let Some(c) = header {
            if let Some((c, g, _)) = current.take() {
                table.insert(c, g);
            }
            current = Some((c, [0; 8], 0));
            continue;
        }
        if let Some((_, glyph, row)) = current.as_mut()
            && *row < 8
            && line.len() == 5
        {
            for (i, dot) in line.bytes().enumerate() {
                if dot == b'#' {
                    glyph[*row] |= 0x40 >> i; // columns 1..=5
                }
            }
            *row += 1;
        }
    }
    if let Some((c, g, _)) = current {
        table.insert(c, g);
    }
    table
}

/// Our glyph for the printable character `c`, if the set has one.
pub fn glyph(c: char) -> Option<Glyph> {
    table().get(&c).copied()
}

/// Every character our set draws.
pub fn characters() -> Vec<char> {
    let mut all: Vec<char> = table().keys().copied().collect();
    all.sort_unstable();
    all
}

/// A block graphic from its quadrants: top left, top right, bottom left,
/// bottom right.
pub fn quadrants(tl: bool, tr: bool, bl: bool, br: bool) -> Glyph {
    let half = |l: bool, r: bool| (if l { 0xF0 } else { 0 }) | (if r { 0x0F } else { 0 });
    let top = half(tl, tr);
    let bottom = half(bl, br);
    [top, top, top, top, bottom, bottom, bottom, bottom]
}

/// The one-pixel chequerboard of the ZX81's grey characters.
const GREY: Glyph = [0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55];

/// The ZX81 characters of codes 0–63 in their order (ZX81 manual,
/// appendix A); 0–10 are graphics, drawn by [`zx81_glyph`].
pub const ZX81_CHARACTERS: &str =
    "           \"£$:?()><=+-*/;,.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The pattern of the ZX81 display code `code`: 0–63 as themselves, 128–191
/// in inverse video (every pixel complemented). Codes a display file never
/// holds (keyword tokens, 64–127 and 192–255) show as a blank cell, inverse
/// if bit 7 is set.
pub fn zx81_glyph(code: u8) -> Glyph {
    let base = code & 0x3F;
    let glyph = if code & 0x40 != 0 {
        [0; 8]
    } else {
        match base {
            // Bit 0 top left, bit 1 top right, bit 2 bottom left; bit 3
            // would be bottom right, which is how 128–135 complete the 16.
            0..=7 => quadrants(base & 1 != 0, base & 2 != 0, base & 4 != 0, false),
            8 => GREY,
            9 => [0, 0, 0, 0, GREY[4], GREY[5], GREY[6], GREY[7]],
            10 => [GREY[0], GREY[1], GREY[2], GREY[3], 0, 0, 0, 0],
            _ => ZX81_CHARACTERS
                .chars()
                .nth(usize::from(base))
                .and_then(glyph)
                .unwrap_or([0; 8]),
        }
    };
    if code & 0x80 != 0 {
        glyph.map(|row| !row)
    } else {
        glyph
    }
}

/// The pattern the Spectrum's PRINT-OUT draws for `code` in 32–143 (32–127
/// the character set, 128–143 the block graphics); `None` for others (user
/// graphics are read from RAM by the caller; tokens are not drawn here).
/// Looked up in a table of the 256 codes, made once (a character's move
/// prints a few hundred).
pub fn spectrum_glyph(code: u8) -> Option<Glyph> {
    static CODES: OnceLock<[Option<Glyph>; 256]> = OnceLock::new();
    CODES.get_or_init(|| std::array::from_fn(|c| spectrum_pattern(c as u8)))[usize::from(code)]
}

fn spectrum_pattern(code: u8) -> Option<Glyph> {
    match code {
        94 => glyph('↑'),
        96 => glyph('£'),
        127 => glyph('©'),
        32..=126 => glyph(code as char),
        128..=143 => {
            let b = code - 128;
            Some(quadrants(b & 2 != 0, b & 1 != 0, b & 8 != 0, b & 4 != 0))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printable_character_of_both_machines_is_drawn() {
        for (i, c) in ZX81_CHARACTERS.chars().enumerate().skip(11) {
            assert!(glyph(c).is_some(), "ZX81 code {i} {c:?} has no glyph");
        }
        for code in 32..=143u8 {
            assert!(spectrum_glyph(code).is_some(), "Spectrum code {code}");
        }
        // Every printable glyph but the space has ink, and no two are alike.
        let all = characters();
        assert_eq!(all.len(), 96, "{all:?}");
        let mut seen = HashMap::new();
        for c in all {
            let g = glyph(c).unwrap();
            assert_eq!(c == ' ', g == [0; 8], "{c:?}");
            assert!(
                g.iter().all(|row| row & 0x81 == 0),
                "{c:?} leaves column 0/7"
            );
            if let Some(other) = seen.insert(g, c) {
                panic!("{c:?} and {other:?} are drawn alike");
            }
        }
    }

    #[test]
    fn zx81_block_graphics_are_the_16_quadrant_combinations() {
        let mut patterns: Vec<Glyph> = (0..8u8).chain(128..136).map(zx81_glyph).collect::<Vec<_>>();
        patterns.sort_unstable();
        patterns.dedup();
        assert_eq!(patterns.len(), 16);
        assert_eq!(zx81_glyph(0), [0; 8]);
        assert_eq!(zx81_glyph(128), [0xFF; 8]);
        assert_eq!(zx81_glyph(1), quadrants(true, false, false, false)); // ▘
        assert_eq!(zx81_glyph(7), quadrants(true, true, true, false)); // ▛
        assert_eq!(zx81_glyph(0x80 | 0x26), glyph('A').unwrap().map(|r| !r));
    }

    #[test]
    fn spectrum_block_graphics_follow_the_manual_bits() {
        assert_eq!(
            spectrum_glyph(129),
            Some(quadrants(false, true, false, false))
        );
        assert_eq!(
            spectrum_glyph(130),
            Some(quadrants(true, false, false, false))
        );
        assert_eq!(spectrum_glyph(143), Some([0xFF; 8]));
    }
}
