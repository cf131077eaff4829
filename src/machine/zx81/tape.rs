//! ZX81 `.p` tape images and the BASIC they carry.
//!
//! A `.p` file is the RAM from VERSN (0x4009) up to E_LINE, as the ROM's
//! SAVE writes it: the system variables from 0x4009, the BASIC program from
//! 0x407D, the display file (D_FILE), the variables (VARS) ending in 0x80.
//! Facts from the ZX81 manual (chapter 27, the system variables) and seed
//! 000, which describes such an image byte by byte.

use super::{Ram, sysvar};
use crate::machine::{MachineError, Memory};

/// A `.p` tape image is the RAM from VERSN (0x4009) up to E_LINE.
pub const TAPE_LOAD: u16 = 0x4009;

/// Checks that `image` can be a `.p` tape for a ZX81 with `ram`.
pub(super) fn validate_p(image: &[u8], ram: Ram) -> Result<(), MachineError> {
    let bad = |why: String| Err(MachineError::BadTape(why));
    let sysvars_len = (sysvar::PROGRAM - TAPE_LOAD) as usize;
    let room = ram.bytes() - (TAPE_LOAD - super::RAM_START) as usize;
    if image.len() <= sysvars_len {
        return bad(format!(
            "tape too short: {} bytes, the system variables alone take {sysvars_len}",
            image.len()
        ));
    }
    if image.len() > room {
        return bad(format!(
            "tape too long for a {} ZX81: {} bytes, at most {room}",
            ram.name(),
            image.len()
        ));
    }
    let word = |addr: u16| {
        let i = (addr - TAPE_LOAD) as usize;
        u16::from_le_bytes([image[i], image[i + 1]])
    };
    let e_line = word(sysvar::E_LINE);
    let expected = e_line.wrapping_sub(TAPE_LOAD) as usize;
    if expected != image.len() {
        return bad(format!(
            "length {} bytes disagrees with E_LINE 0x{e_line:04X}, which implies {expected}",
            image.len()
        ));
    }
    if image.last() != Some(&0x80) {
        return bad("missing the 0x80 end-of-variables marker".into());
    }
    let d_file = word(sysvar::D_FILE);
    let vars = word(sysvar::VARS);
    if !(sysvar::PROGRAM <= d_file && d_file < vars && vars < e_line) {
        return bad(format!(
            "system variables out of order: D_FILE 0x{d_file:04X}, VARS 0x{vars:04X}, E_LINE 0x{e_line:04X}"
        ));
    }
    let display = &image[(d_file - TAPE_LOAD) as usize..(vars - TAPE_LOAD) as usize];
    let newlines = display.iter().filter(|&&b| b == 0x76).count();
    if display.first() != Some(&0x76) || newlines != 25 {
        return bad(format!(
            "display file at 0x{d_file:04X} is not 24 lines: {newlines} NEWLINEs, expected 25"
        ));
    }
    Ok(())
}

/// The value of a numeric BASIC variable with a one-letter name in the
/// variables area of `mem`, as the ROM would compute it from its five-byte
/// floating-point form.
pub(super) fn basic_number(mem: &dyn Memory, name: char) -> Result<f64, MachineError> {
    let want = super::char_to_code(name)
        .filter(|c| (0x26..=0x3F).contains(c))
        .ok_or_else(|| MachineError::BadTape(format!("not a variable name: {name:?}")))?;
    let mut addr = mem.peek16(sysvar::VARS);
    let end = mem.peek16(sysvar::E_LINE);
    while addr < end {
        let head = mem.peek(addr);
        if head == 0x80 {
            break;
        }
        // Only simple numeric variables (0b011xxxxx) are read here.
        if head & 0xE0 != 0x60 {
            return Err(MachineError::BadTape(format!(
                "variable of kind 0x{head:02X} at 0x{addr:04X} is not supported"
            )));
        }
        if head & 0x3F == want & 0x3F {
            let b: Vec<u8> = (1..=5).map(|i| mem.peek(addr + i)).collect();
            return Ok(zx_float(&b));
        }
        addr += 6;
    }
    Err(MachineError::BadTape(format!(
        "no BASIC variable {name} on the tape"
    )))
}

/// The value of a ZX81 five-byte floating-point number: exponent byte (bias
/// 128, 0 means zero), then a 32-bit mantissa in [0.5, 1) whose always-set
/// top bit holds the sign instead.
pub fn zx_float(b: &[u8]) -> f64 {
    if b.len() < 5 || b[0] == 0 {
        return 0.0;
    }
    let mantissa = u32::from_be_bytes([b[1] | 0x80, b[2], b[3], b[4]]) as f64 / 4_294_967_296.0;
    let value = mantissa * 2f64.powi(i32::from(b[0]) - 128);
    if b[1] & 0x80 != 0 { -value } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_decodes_like_the_rom() {
        // 1K ZX Chess's X: exponent 0x8F, mantissa 00 DA 00 00 (seed 000).
        assert_eq!(zx_float(&[0x8F, 0x00, 0xDA, 0x00, 0x00]), 16493.0);
        assert_eq!(zx_float(&[0x81, 0x00, 0, 0, 0]), 1.0);
        assert_eq!(zx_float(&[0x81, 0x80, 0, 0, 0]), -1.0);
        assert_eq!(zx_float(&[0, 1, 2, 3, 4]), 0.0);
    }
}
