//! Pictures of the emulated screens, pixel for pixel, and their PNG files.
//!
//! A picture is made from the machine's display memory ([`Display`]), never
//! from the text we read off it:
//! - **ZX81**: the 24 lines of 32 codes of the display file, each an 8×8
//!   cell; codes 128–191 are the inverse video of 0–63 (every pixel
//!   complemented). The patterns come from our own character set
//!   ([`crate::machine::charset`], OURS: the ZX81 keeps its patterns in ROM
//!   and we use no ROM image); the 16 block graphics and the grey
//!   characters follow from their definition. Black ink on white paper, and
//!   a white border (the ZX81 has no border colour of its own).
//! - **Spectrum**: the 256×192 bitmap and the 768 attributes exactly as the
//!   ULA reads them (INK, PAPER, BRIGHT; FLASH shown in its first phase,
//!   ink as ink), in the border colour the program last sent to the ULA.
//!   What the programs print through `RST 16` is in the bitmap because our
//!   print trap draws it there, with our character set.
//!
//! The border around the 256×192 picture is ours in size: 32 pixels left and
//! right, 24 above and below (a television showed more or less of it). The
//! colours are ours in value: a Spectrum colour is on at level 0xD7, or 0xFF
//! with BRIGHT (a usual approximation of the ULA's output levels).

use std::fmt;

use crate::machine::Display;
use crate::machine::charset;

/// Pixels of the display area.
pub const WIDTH: usize = 256;
pub const HEIGHT: usize = 192;
/// The border we draw around it (ours).
pub const BORDER_X: usize = 32;
pub const BORDER_Y: usize = 24;

/// An RGB picture, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    /// Three bytes (red, green, blue) per pixel.
    pub rgb: Vec<u8>,
}

type Rgb = [u8; 3];

const ZX81_INK: Rgb = [0, 0, 0];
const ZX81_PAPER: Rgb = [0xFF, 0xFF, 0xFF];

/// A Spectrum colour 0–7 (bit 0 blue, bit 1 red, bit 2 green; Spectrum
/// manual, chapter 16), at the normal or BRIGHT level.
pub fn spectrum_colour(colour: u8, bright: bool) -> Rgb {
    let level = if bright { 0xFF } else { 0xD7 };
    let on = |bit: u8| if colour & bit != 0 { level } else { 0 };
    [on(2), on(4), on(1)]
}

impl Picture {
    fn filled(width: usize, height: usize, colour: Rgb) -> Picture {
        Picture {
            width,
            height,
            rgb: colour.repeat(width * height),
        }
    }

    fn set(&mut self, x: usize, y: usize, colour: Rgb) {
        let i = 3 * (y * self.width + x);
        self.rgb[i..i + 3].copy_from_slice(&colour);
    }

    /// The colour at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> Rgb {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The picture of a display, border included.
    pub fn of(display: &Display) -> Picture {
        let width = WIDTH + 2 * BORDER_X;
        let height = HEIGHT + 2 * BORDER_Y;
        match display {
            Display::Zx81 { codes } => {
                let mut p = Picture::filled(width, height, ZX81_PAPER);
                for (cell, &code) in codes.iter().enumerate() {
                    let (row, col) = (cell / 32, cell % 32);
                    for (line, bits) in charset::zx81_glyph(code).iter().enumerate() {
                        for x in 0..8 {
                            let ink = bits & (0x80 >> x) != 0;
                            p.set(
                                BORDER_X + 8 * col + x,
                                BORDER_Y + 8 * row + line,
                                if ink { ZX81_INK } else { ZX81_PAPER },
                            );
                        }
                    }
                }
                p
            }
            Display::Spectrum { memory, border } => {
                let mut p = Picture::filled(width, height, spectrum_colour(*border, false));
                for y in 0..HEIGHT {
                    let (row, line) = (y / 8, y % 8);
                    for col in 0..32 {
                        let addr = usize::from(crate::machine::spectrum::display::bitmap_address(
                            row, col, line,
                        )) - 0x4000;
                        let bits = memory[addr];
                        let attr = memory[6144 + row * 32 + col];
                        let bright = attr & 0x40 != 0;
                        let ink = spectrum_colour(attr & 7, bright);
                        let paper = spectrum_colour((attr >> 3) & 7, bright);
                        for x in 0..8 {
                            let on = bits & (0x80 >> x) != 0;
                            p.set(
                                BORDER_X + 8 * col + x,
                                BORDER_Y + y,
                                if on { ink } else { paper },
                            );
                        }
                    }
                }
                p
            }
        }
    }

    /// The picture enlarged `scale` times in both directions (1: as is).
    pub fn scaled(&self, scale: usize) -> Picture {
        let scale = scale.max(1);
        if scale == 1 {
            return self.clone();
        }
        let (width, height) = (self.width * scale, self.height * scale);
        let mut rgb = Vec::with_capacity(3 * width * height);
        for y in 0..height {
            for x in 0..width {
                rgb.extend_from_slice(&self.pixel(x / scale, y / scale));
            }
        }
        Picture { width, height, rgb }
    }

    /// The picture as a PNG file (8-bit RGB), enlarged `scale` times.
    ///
    /// # Errors
    /// The encoder failed (it writes to memory, so only on a picture too
    /// large for PNG).
    pub fn png(&self, scale: usize) -> Result<Vec<u8>, PictureError> {
        let p = self.scaled(scale);
        let mut out = Vec::new();
        let (w, h) = (
            u32::try_from(p.width).map_err(|_| PictureError::TooLarge)?,
            u32::try_from(p.height).map_err(|_| PictureError::TooLarge)?,
        );
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PictureError::Png(e.to_string()))?;
        writer
            .write_image_data(&p.rgb)
            .map_err(|e| PictureError::Png(e.to_string()))?;
        writer
            .finish()
            .map_err(|e| PictureError::Png(e.to_string()))?;
        Ok(out)
    }
}

/// The largest `--scale` we accept: 8 makes a 2560×1920 picture.
pub const MAX_SCALE: usize = 8;

/// Why a picture could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    TooLarge,
    Png(String),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::TooLarge => write!(f, "picture too large"),
            PictureError::Png(e) => write!(f, "cannot encode the PNG: {e}"),
        }
    }
}

impl std::error::Error for PictureError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectrum_pixels_follow_bitmap_and_attributes() {
        let mut memory = Box::new([0u8; 6912]);
        memory[0] = 0b1000_0001; // row 0, line 0, column 0
        memory[6144] = 0x40 | (1 << 3) | 2; // BRIGHT, PAPER blue, INK red
        let p = Picture::of(&Display::Spectrum { memory, border: 4 });
        assert_eq!(p.pixel(0, 0), [0, 0xD7, 0]); // green border
        assert_eq!(p.pixel(BORDER_X, BORDER_Y), [0xFF, 0, 0]); // ink, bright red
        assert_eq!(p.pixel(BORDER_X + 1, BORDER_Y), [0, 0, 0xFF]); // paper
        assert_eq!(p.pixel(BORDER_X + 7, BORDER_Y), [0xFF, 0, 0]);
        // Cell (0, 1) has attribute 0: black on black.
        assert_eq!(p.pixel(BORDER_X + 8, BORDER_Y), [0, 0, 0]);
    }

    #[test]
    fn scaled_png_has_the_size_asked() {
        let p = Picture::of(&Display::Zx81 {
            codes: Box::new([0x80; 768]),
        });
        assert_eq!(p.pixel(BORDER_X, BORDER_Y), [0, 0, 0]);
        assert_eq!(p.pixel(0, 0), [0xFF; 3]);
        let png = p.png(3).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height, big-endian, at bytes 16..24.
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 960);
        assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 720);
    }
}
