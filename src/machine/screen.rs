//! A 32×24 text screen scraped from an emulated display, and its rendering.
//!
//! Each cell is a glyph plus an inverse-video flag. Plain rendering must stay
//! unambiguous without colour: the Sinclair character sets have no lower case,
//! so an inverse letter is shown in lower case (handy: 1K ZX Chess draws the
//! person's pieces in inverse video, and lower case is also how FEN writes
//! Black); an inverse block graphic is shown as its complementary block; any
//! other inverse character is followed by a combining low line (U+0332).
//! ANSI rendering uses reverse video instead. ASCII rendering, what the
//! protocols send (a GUI may read engine output in its ANSI code page, where
//! UTF-8 blocks arrive as "â–ˆ"), marks inverse letters the same way and draws
//! every other glyph with the ASCII character of [`ascii`]; it is close, not
//! unambiguous (an inverse digit or sign is shown as itself).

use std::fmt::Write;

/// One character position of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub glyph: char,
    pub inverse: bool,
}

impl Cell {
    pub const BLANK: Cell = Cell {
        glyph: ' ',
        inverse: false,
    };
}

/// How to render a [`TextScreen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenStyle {
    /// Plain text; inverse video marked as described in the module docs.
    Plain,
    /// ANSI reverse video (`ESC[7m`) for inverse cells.
    Ansi,
    /// Plain's marking, every byte ASCII (see [`ascii`]).
    Ascii,
}

/// The text screen: 24 rows of 32 cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextScreen {
    cells: Vec<Cell>,
}

impl Default for TextScreen {
    fn default() -> Self {
        TextScreen {
            cells: vec![Cell::BLANK; Self::COLS * Self::ROWS],
        }
    }
}

/// Block graphics and their complements (inverse video of the same glyph).
const COMPLEMENTS: [(char, char); 8] = [
    (' ', '█'),
    ('▘', '▟'),
    ('▝', '▙'),
    ('▀', '▄'),
    ('▖', '▜'),
    ('▌', '▐'),
    ('▞', '▚'),
    ('▛', '▗'),
];

impl TextScreen {
    pub const COLS: usize = 32;
    pub const ROWS: usize = 24;

    pub fn cell(&self, row: usize, col: usize) -> Cell {
        self.cells[row * Self::COLS + col]
    }

    /// Sets a cell; positions off the screen are ignored.
    pub fn set(&mut self, row: usize, col: usize, cell: Cell) {
        if row < Self::ROWS && col < Self::COLS {
            self.cells[row * Self::COLS + col] = cell;
        }
    }

    /// One row in the plain style, trailing blanks removed.
    pub fn row_text(&self, row: usize) -> String {
        let mut s = String::new();
        for col in 0..Self::COLS {
            push_plain(&mut s, self.cell(row, col));
        }
        s.trim_end_matches(' ').to_string()
    }

    /// The whole screen, one line per row, trailing blanks removed.
    pub fn render(&self, style: ScreenStyle) -> String {
        let mut out = String::new();
        for row in 0..Self::ROWS {
            match style {
                ScreenStyle::Plain => out.push_str(&self.row_text(row)),
                ScreenStyle::Ascii => out.extend(self.row_text(row).chars().filter_map(ascii)),
                ScreenStyle::Ansi => {
                    let mut line = String::new();
                    let mut inverse = false;
                    let last = (0..Self::COLS)
                        .rev()
                        .find(|&c| self.cell(row, c) != Cell::BLANK)
                        .map_or(0, |c| c + 1);
                    for col in 0..last {
                        let cell = self.cell(row, col);
                        if cell.inverse != inverse {
                            line.push_str(if cell.inverse { "\x1b[7m" } else { "\x1b[27m" });
                            inverse = cell.inverse;
                        }
                        line.push(cell.glyph);
                    }
                    if inverse {
                        line.push_str("\x1b[27m");
                    }
                    out.push_str(&line);
                }
            }
            out.push('\n');
        }
        out
    }
}

fn push_plain(s: &mut String, cell: Cell) {
    if !cell.inverse {
        s.push(cell.glyph);
    } else if cell.glyph.is_ascii_uppercase() {
        s.push(cell.glyph.to_ascii_lowercase());
    } else if let Some(&(_, inv)) = COMPLEMENTS.iter().find(|(g, _)| *g == cell.glyph) {
        s.push(inv);
    } else if cell.glyph == '▒' {
        s.push('▓');
    } else {
        let _ = write!(s, "{}\u{332}", cell.glyph);
    }
}

/// The ASCII character that draws a plain-style glyph: itself if ASCII, a
/// block graphic by the shape it is nearest (`#` full, `"` and `_` the
/// halves, `'` and `,` the quadrants, `:` and `%` the greys), the few other
/// characters of the two machines by a look-alike; the combining low line
/// of an inverse character is dropped.
pub fn ascii(glyph: char) -> Option<char> {
    Some(match glyph {
        '\u{332}' => return None,
        c if c.is_ascii() => c,
        '█' => '#',
        '▀' => '"',
        '▄' => '_',
        '▌' => '[',
        '▐' => ']',
        '▘' => '`',
        '▝' => '\'',
        '▖' => ',',
        '▗' => '.',
        '▚' => '\\',
        '▞' => '/',
        '▛' => '{',
        '▜' => '}',
        '▙' => '&',
        '▟' => '@',
        '▒' => ':',
        '▓' => '%',
        '↑' => '^',
        '£' => '~',
        '©' => 'C',
        _ => '?',
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_video_is_marked_unambiguously() {
        let mut s = TextScreen::default();
        let put = |s: &mut TextScreen, col, glyph, inverse| s.set(0, col, Cell { glyph, inverse });
        put(&mut s, 0, 'K', false);
        put(&mut s, 1, 'K', true);
        put(&mut s, 2, ' ', true);
        put(&mut s, 3, '7', true);
        put(&mut s, 4, '▒', true);
        put(&mut s, 5, '▘', true);
        assert_eq!(s.row_text(0), "Kk█7\u{332}▓▟");
        let ansi = s.render(ScreenStyle::Ansi);
        assert!(ansi.starts_with("K\x1b[7mK 7▒▘\x1b[27m\n"), "{ansi:?}");
        assert_eq!(s.render(ScreenStyle::Plain).lines().count(), 24);
        assert!(s.render(ScreenStyle::Ascii).starts_with("Kk#7%@\n"));
    }

    #[test]
    fn ascii_draws_every_glyph_of_both_machines_in_ascii() {
        let mut glyphs: Vec<char> = crate::machine::charset::characters();
        glyphs.extend(COMPLEMENTS.iter().flat_map(|&(a, b)| [a, b]));
        glyphs.extend(['▒', '▓', '\u{332}']);
        for g in glyphs {
            assert!(
                ascii(g).is_none_or(|c| c.is_ascii_graphic() || c == ' '),
                "{g:?}"
            );
        }
        // The sixteen blocks stay sixteen.
        let mut blocks: Vec<char> = COMPLEMENTS
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter_map(ascii)
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        assert_eq!(blocks.len(), 16);
    }

    #[test]
    fn set_off_screen_is_ignored() {
        let mut s = TextScreen::default();
        s.set(
            24,
            0,
            Cell {
                glyph: 'X',
                inverse: false,
            },
        );
        s.set(
            0,
            32,
            Cell {
                glyph: 'X',
                inverse: false,
            },
        );
        assert_eq!(s, TextScreen::default());
    }
}
