//! `RST 16` printing on the upper screen, kept as text.
//!
//! What the ROM's PRINT-OUT does with each code, as far as the text and its
//! BRIGHT/INVERSE attributes go (ZX Spectrum manual, appendix A, the
//! character set and its control codes): printable characters 32–127, CR,
//! the PRINT comma, AT row/col, TAB, and the one-byte parameters of the
//! colour codes 16–21. Scrolling has no "scroll?" prompt (the text screen
//! just scrolls). Each call also says what it changed on the screen
//! ([`Drawn`]), so the trap can draw it into the display file and
//! attributes as PRINT-OUT would (`super::rom`).

use crate::machine::{Cell, TextScreen};

/// The upper screen has 22 lines; the lower two belong to the editor.
pub const UPPER_ROWS: usize = 22;

/// What the print routine expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PrintState {
    Normal,
    /// A colour code (16–21) waits for its parameter.
    Param(u8),
    /// AT waits for its row.
    AtRow,
    /// AT has its row, waits for the column.
    AtCol(u8),
    /// TAB waits for its two bytes (only the first is used, as the ROM).
    Tab1,
    Tab2(u8),
}

/// What one printed code changed on the upper screen, for the trap to draw
/// into the display file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The code `code` was put at (row, column) with these temporary
    /// attributes (those set by the colour control codes since the last
    /// CLS; `None`: the permanent ones, ATTR_P).
    Put {
        row: u8,
        col: u8,
        code: u8,
        attrs: TempAttrs,
    },
    /// The upper screen scrolled up one line.
    Scrolled,
}

/// The colour control codes' effect on the next characters (PRINT-OUT's
/// ATTR_T, MASK_T and P_FLAG, as far as our programs use them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TempAttrs {
    pub ink: Option<u8>,
    pub paper: Option<u8>,
    pub flash: Option<bool>,
    pub bright: bool,
    pub inverse: bool,
}

/// The upper screen as text, and the print position and attributes.
#[derive(Clone, Debug)]
pub struct Printer {
    screen: TextScreen,
    bright: Vec<bool>,
    row: usize,
    col: usize,
    state: PrintState,
    bright_now: bool,
    inverse_now: bool,
    ink_now: Option<u8>,
    paper_now: Option<u8>,
    flash_now: Option<bool>,
    /// What the code being printed changed: at most a scroll and a
    /// character.
    drawn: [Option<Drawn>; 2],
}

impl Default for Printer {
    fn default() -> Self {
        Printer {
            screen: TextScreen::default(),
            bright: vec![false; TextScreen::COLS * TextScreen::ROWS],
            row: 0,
            col: 0,
            state: PrintState::Normal,
            bright_now: false,
            inverse_now: false,
            ink_now: None,
            paper_now: None,
            flash_now: None,
            drawn: [None; 2],
        }
    }
}

impl Printer {
    /// The text printed.
    pub fn screen(&self) -> &TextScreen {
        &self.screen
    }

    /// Was the cell printed with BRIGHT 1?
    pub fn bright(&self, row: usize, col: usize) -> bool {
        row < TextScreen::ROWS
            && col < TextScreen::COLS
            && self.bright[row * TextScreen::COLS + col]
    }

    /// The print position (row, column).
    pub fn position(&self) -> (usize, usize) {
        (self.row, self.col)
    }

    /// A cleared screen, position home, attributes off (CLS).
    pub fn clear(&mut self) {
        *self = Printer::default();
    }

    /// PRINT-OUT on the upper screen, for one code; gives what it changed
    /// on the screen (at most a scroll and a character), in order.
    pub fn print(&mut self, code: u8) -> [Option<Drawn>; 2] {
        self.print_text(code);
        std::mem::take(&mut self.drawn)
    }

    /// Notes a change to the screen for [`Printer::print`] to give.
    fn drawn(&mut self, drawn: Drawn) {
        if let Some(free) = self.drawn.iter_mut().find(|d| d.is_none()) {
            *free = Some(drawn);
        }
    }

    fn print_text(&mut self, code: u8) {
        if self.parameter(code) {
            return;
        }
        match code {
            13 => self.newline(),
            6 => {
                // PRINT comma: to the next half-line.
                if self.col >= 16 {
                    self.newline();
                } else {
                    self.col = 16;
                }
            }
            8 => self.col = self.col.saturating_sub(1),
            16..=21 => self.state = PrintState::Param(code),
            22 => self.state = PrintState::AtRow,
            23 => self.state = PrintState::Tab1,
            32..=126 => self.put(code as char, code),
            127 => self.put('©', code),
            128..=143 => {
                // Block graphics: bit 0 top right, 1 top left, 2 bottom right,
                // 3 bottom left.
                const QUADS: [char; 16] = [
                    ' ', '▝', '▘', '▀', '▗', '▐', '▚', '▜', '▖', '▞', '▌', '▛', '▄', '▟', '▙', '█',
                ];
                self.put(QUADS[usize::from(code - 128)], code);
            }
            144..=164 => self.put((b'A' + code - 144) as char, code), // UDGs, as their letters
            _ => self.put('¿', code), // other control codes and keyword tokens
        }
    }

    /// Takes `code` as the parameter of an earlier control code, if one
    /// waits for it.
    fn parameter(&mut self, code: u8) -> bool {
        let state = std::mem::replace(&mut self.state, PrintState::Normal);
        match state {
            PrintState::Normal => return false,
            PrintState::Param(19) => self.bright_now = code & 1 != 0,
            PrintState::Param(20) => self.inverse_now = code & 1 != 0,
            // INK, PAPER 0–7 and FLASH 0/1 colour the cells (8 and 9,
            // "transparent" and "contrast", keep the permanent colours);
            // OVER is not drawn.
            PrintState::Param(16) => self.ink_now = (code < 8).then_some(code),
            PrintState::Param(17) => self.paper_now = (code < 8).then_some(code),
            PrintState::Param(18) => self.flash_now = (code < 2).then_some(code == 1),
            PrintState::Param(_) => {}
            PrintState::AtRow => self.state = PrintState::AtCol(code),
            PrintState::AtCol(row) => {
                // Out of range, the ROM stops with an error; we keep the
                // position (no program of ours does this).
                if usize::from(row) < UPPER_ROWS && usize::from(code) < TextScreen::COLS {
                    self.row = usize::from(row);
                    self.col = usize::from(code);
                }
            }
            PrintState::Tab1 => self.state = PrintState::Tab2(code),
            PrintState::Tab2(col) => {
                let target = usize::from(col) % TextScreen::COLS;
                if target < self.col {
                    self.newline();
                }
                self.col = target;
            }
        }
        true
    }

    fn put(&mut self, glyph: char, code: u8) {
        if self.col >= TextScreen::COLS {
            self.newline();
        }
        self.drawn(Drawn::Put {
            // Within the 24×32 screen.
            row: self.row as u8,
            col: self.col as u8,
            code,
            attrs: TempAttrs {
                ink: self.ink_now,
                paper: self.paper_now,
                flash: self.flash_now,
                bright: self.bright_now,
                inverse: self.inverse_now,
            },
        });
        self.screen.set(
            self.row,
            self.col,
            Cell {
                glyph,
                inverse: self.inverse_now,
            },
        );
        self.bright[self.row * TextScreen::COLS + self.col] = self.bright_now;
        self.col += 1;
    }

    fn newline(&mut self) {
        self.col = 0;
        self.row += 1;
        if self.row >= UPPER_ROWS {
            // Scroll the upper screen one line (no "scroll?" prompt).
            let mut s = TextScreen::default();
            for r in 1..UPPER_ROWS {
                for c in 0..TextScreen::COLS {
                    s.set(r - 1, c, self.screen.cell(r, c));
                }
            }
            self.screen = s;
            self.bright
                .copy_within(TextScreen::COLS..UPPER_ROWS * TextScreen::COLS, 0);
            self.row = UPPER_ROWS - 1;
            self.drawn(Drawn::Scrolled);
        }
    }
}
