//! The display file and attributes, drawn as the ROM's PRINT-OUT draws them.
//!
//! Facts from the ZX Spectrum manual (chapter 24, "The memory", and
//! appendix A): the bitmap at 0x4000 holds 192 lines of 32 bytes, a byte's
//! bit 7 the leftmost pixel, in thirds of 8 character rows whose address is
//! `0x4000 | third << 11 | pixel line << 8 | row in third << 5 | column`;
//! the 768 attributes at 0x5800 (a byte per cell, row by row) are
//! `FLASH << 7 | BRIGHT << 6 | PAPER << 3 | INK`. The patterns are our own
//! character set ([`crate::machine::charset`], OURS: the ROM's are not
//! used); user-defined graphics are read from RAM at UDG, as the ROM does.

use super::bus::SpectrumBus;
use super::memory_map::{PRINT_A, PRINT_OUT, RAM_START, sysvar};
use super::print::{Drawn, TempAttrs, UPPER_ROWS};
use crate::machine::charset;
use crate::machine::{Fault, Memory};

/// The bitmap's first byte.
pub const BITMAP: u16 = 0x4000;
/// The attributes' first byte.
pub const ATTRIBUTES: u16 = 0x5800;
/// Bitmap and attributes: 6144 + 768 bytes.
pub const DISPLAY_BYTES: usize = 6912;
/// UDG: where the user-defined graphics start (system variable 23675).
const UDG: u16 = 23675;

/// Address of pixel line `line` (0–7) of the character cell at
/// (`row`, `col`).
pub fn bitmap_address(row: usize, col: usize, line: usize) -> u16 {
    let (row, col, line) = (row as u16, col as u16, line as u16);
    BITMAP | ((row & 0x18) << 8) | (line << 8) | ((row & 7) << 5) | col
}

impl SpectrumBus {
    /// `RST 16` as the ROM performs it, through the current channel: the
    /// code printed on the upper screen and drawn into the display file
    /// and attributes (see [`super::rom`]). The fault that stops the real
    /// machine's course where the channel area no longer holds PRINT-OUT's
    /// address, and nothing printed.
    pub(super) fn print_a(&mut self, code: u8) -> Result<(), Fault> {
        // The ROM jumps to the output address of the channel CURCHL points
        // at. A program whose stack has run down into the channel area
        // (ChesSkelet after some 250 move pairs) has overwritten it: the
        // real machine would run whatever the bytes now say, which we
        // cannot follow.
        let record = self.peek16(sysvar::CURCHL);
        if record < RAM_START {
            return Err(Fault::RomRead {
                addr: record,
                pc: PRINT_A,
            });
        }
        if self.peek16(record) != PRINT_OUT {
            return Err(Fault::RomCall { pc: PRINT_A });
        }
        // (Not an iterator over the two: this is done some 300 times a
        // move, and nothing at all for most codes.)
        let [first, second] = self.printer.print(code);
        if let Some(drawn) = first {
            draw(self, drawn);
            if let Some(drawn) = second {
                draw(self, drawn);
            }
        }
        Ok(())
    }

    /// Writes the eight pixel lines of a character cell, the first at `top`
    /// in the display file, each 256 bytes after the one above: one span of
    /// host writes over them all (the cells between are not code either).
    fn put_lines(&mut self, top: u16, lines: [u8; 8]) {
        // (Always so for a cell of the 24×32 screen.)
        let top = top.clamp(RAM_START, 0x57FF - 7 * 256);
        for (i, line) in lines.into_iter().enumerate() {
            self.mem[usize::from(top) + 256 * i] = line;
        }
        self.host_writes.span(top, top + 7 * 256);
    }
}

/// Draws what one `RST 16` changed.
pub(super) fn draw(bus: &mut SpectrumBus, drawn: Drawn) {
    match drawn {
        Drawn::Put {
            row,
            col,
            code,
            attrs,
        } => put(bus, usize::from(row), usize::from(col), code, attrs),
        Drawn::Scrolled => scroll(bus),
    }
}

fn put(bus: &mut SpectrumBus, row: usize, col: usize, code: u8, attrs: TempAttrs) {
    let glyph = match code {
        144..=164 => {
            let base = bus.peek16(UDG).wrapping_add(8 * u16::from(code - 144));
            std::array::from_fn(|i| bus.peek(base.wrapping_add(i as u16)))
        }
        _ => charset::spectrum_glyph(code).unwrap_or([0; 8]),
    };
    let lines = glyph.map(|byte| if attrs.inverse { !byte } else { byte });
    bus.put_lines(bitmap_address(row, col, 0), lines);
    let permanent = bus.peek(sysvar::ATTR_P);
    let mut attr = permanent & 0x3F;
    if let Some(ink) = attrs.ink {
        attr = (attr & !0x07) | ink;
    }
    if let Some(paper) = attrs.paper {
        attr = (attr & !0x38) | (paper << 3);
    }
    let flash = attrs.flash.unwrap_or(permanent & 0x80 != 0);
    attr |= u8::from(flash) << 7 | u8::from(attrs.bright) << 6;
    bus.poke(ATTRIBUTES + (row * 32 + col) as u16, attr);
}

/// The upper screen's 22 lines up by one; the last one cleared to the
/// permanent colours.
fn scroll(bus: &mut SpectrumBus) {
    for row in 0..UPPER_ROWS {
        for col in 0..32 {
            for line in 0..8 {
                let byte = if row + 1 < UPPER_ROWS {
                    bus.peek(bitmap_address(row + 1, col, line))
                } else {
                    0
                };
                bus.poke(bitmap_address(row, col, line), byte);
            }
            let attr = if row + 1 < UPPER_ROWS {
                bus.peek(ATTRIBUTES + ((row + 1) * 32 + col) as u16)
            } else {
                bus.peek(sysvar::ATTR_P)
            };
            bus.poke(ATTRIBUTES + (row * 32 + col) as u16, attr);
        }
    }
}
