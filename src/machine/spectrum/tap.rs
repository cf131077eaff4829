//! `.tap` tapes, loaded as `LOAD ""` would, with the BASIC loader obeyed at
//! high level.
//!
//! A `.tap` is a sequence of blocks, each a 16-bit little-endian length then
//! that many bytes: a flag byte (0x00 header, 0xFF data), the data, and an
//! XOR checksum of all of them. A header is 17 bytes after its flag: type
//! (0 program, 3 CODE), a 10-character name, the data length, parameter 1
//! (a CODE block's address) and parameter 2. Numbers in a BASIC line are
//! followed by 0x0E and their hidden 5-byte form (ZX Spectrum manual,
//! chapters 20 and 24).

use super::snapshot::LoadBlock;
use super::{BASIC_START, RAM_START, Regs, Spectrum48, sysvar};
use crate::machine::MachineError;

/// What a `.tap` holds for `LOAD ""`, parsed apart from any machine: the
/// BASIC loader, the CODE blocks, and what the loader's `USR n` and
/// `CLEAR n` say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tape {
    /// The BASIC loader's bytes.
    pub program: Vec<u8>,
    /// `(address, bytes)` of every CODE block, in tape order.
    pub code: Vec<LoadBlock>,
    /// `USR n`: where the loader enters the machine code.
    pub entry: u16,
    /// `CLEAR n` (0xFF57, the power-on RAMTOP, without one).
    pub ramtop: u16,
}

fn bad(why: String) -> MachineError {
    MachineError::BadTape(why)
}

impl Tape {
    /// Parses a `.tap`: its blocks, each header with its data block, the
    /// loader's `USR n` and `CLEAR n`.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] for a malformed block (length, checksum,
    /// header), a missing BASIC loader or CODE block, a CODE block that does
    /// not fit in RAM, or a loader without `USR n`.
    pub fn parse(tape: &[u8]) -> Result<Tape, MachineError> {
        let (program, code) = files(&tap_blocks(tape)?)?;
        let program = program.ok_or_else(|| bad("no BASIC loader on the tape".into()))?;
        if code.is_empty() {
            return Err(bad("no CODE block on the tape".into()));
        }
        let entry = basic_number_after(&program, 0xC0)
            .ok_or_else(|| bad("the BASIC loader has no USR n".into()))?;
        let ramtop = basic_number_after(&program, 0xFD).unwrap_or(0xFF57);
        if entry < RAM_START || ramtop < 0x5D00 {
            return Err(bad(format!(
                "loader enters at 0x{entry:04X} with RAMTOP 0x{ramtop:04X}"
            )));
        }
        Ok(Tape {
            program,
            code,
            entry,
            ramtop,
        })
    }
}

/// The files of a tape's blocks: the last BASIC program and every CODE
/// block (a header, then its data block).
fn files(blocks: &[Vec<u8>]) -> Result<(Option<Vec<u8>>, Vec<LoadBlock>), MachineError> {
    let mut program = None;
    let mut code = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let b = &blocks[i];
        if b[0] != 0x00 || b.len() != 18 {
            i += 1;
            continue;
        }
        let kind = b[1];
        let length = u16::from_le_bytes([b[12], b[13]]) as usize;
        let param1 = u16::from_le_bytes([b[14], b[15]]);
        let data = blocks
            .get(i + 1)
            .ok_or_else(|| bad(format!("header {} has no data block", i + 1)))?;
        if data[0] != 0xFF || data.len() != length + 1 {
            return Err(bad(format!(
                "data block {} is {} bytes, its header says {length}",
                i + 2,
                data.len().saturating_sub(1)
            )));
        }
        let bytes = &data[1..];
        match kind {
            0 => program = Some(bytes.to_vec()),
            3 => {
                let end = usize::from(param1) + bytes.len();
                if param1 < RAM_START || end > 0x10000 {
                    return Err(bad(format!(
                        "CODE block of {} bytes at 0x{param1:04X} does not fit in RAM",
                        bytes.len()
                    )));
                }
                code.push((param1, bytes.to_vec()));
            }
            _ => {}
        }
        i += 2;
    }
    Ok((program, code))
}

impl Spectrum48 {
    /// A fresh 48K Spectrum after `LOAD ""` of `tape`, its BASIC loader
    /// obeyed at high level: every CODE block loaded at its header's
    /// address, `CLEAR n` (RAMTOP) and `USR n` (entry point) obeyed. The
    /// CPU is left at the entry point as the ROM's USR leaves it: BC = the
    /// address, HL = 0x2D2B (STACK-BC, also the return address on top of
    /// the stack), interrupts on in mode 1.
    pub fn from_tape(tape: &Tape) -> Spectrum48 {
        let mut zx = Spectrum48::new();
        for (at, bytes) in &tape.code {
            for (k, &v) in bytes.iter().enumerate() {
                zx.poke(at + k as u16, v);
            }
        }
        let (entry, ramtop) = (tape.entry, tape.ramtop);
        let room = usize::from(ramtop).saturating_sub(usize::from(BASIC_START));
        if tape.program.len() < room {
            for (k, &v) in tape.program.iter().enumerate() {
                zx.poke(BASIC_START + k as u16, v);
            }
        }
        // CLEAR n: RAMTOP = n, the GO SUB end marker 0x3E00 at n-1..n, the
        // error return (MAIN-4, 0x1303) at ERR_SP below it; then the
        // statement loop's and USR's return addresses.
        zx.poke16(sysvar::RAMTOP, ramtop);
        zx.poke16(ramtop.wrapping_sub(1), 0x3E00);
        let mut sp = ramtop.wrapping_sub(1);
        for word in [0x1303u16, 0x1B76, 0x2D2B] {
            sp = sp.wrapping_sub(2);
            zx.poke16(sp, word);
            if word == 0x1303 {
                zx.poke16(sysvar::ERR_SP, sp);
            }
        }
        let regs = Regs {
            sp,
            bc: entry,
            hl: 0x2D2B,
            pc: entry,
            ..zx.regs()
        };
        zx.set_regs(regs);
        zx
    }

    /// Loads a `.tap` file as `LOAD ""` would ([`Tape::parse`], then
    /// [`Spectrum48::from_tape`]).
    ///
    /// # Errors
    /// As [`Tape::parse`].
    pub fn load_tap(tape: &[u8]) -> Result<Spectrum48, MachineError> {
        Tape::parse(tape).map(|t| Spectrum48::from_tape(&t))
    }
}

/// Splits a `.tap` into its blocks (flag byte first, checksum dropped),
/// checking each block's length and XOR checksum.
pub(super) fn tap_blocks(tape: &[u8]) -> Result<Vec<Vec<u8>>, MachineError> {
    let mut blocks = Vec::new();
    let mut at = 0;
    while at < tape.len() {
        if at + 2 > tape.len() {
            return Err(MachineError::BadTape(format!(
                "truncated block length at byte {at}"
            )));
        }
        let len = usize::from(u16::from_le_bytes([tape[at], tape[at + 1]]));
        at += 2;
        let block = tape.get(at..at + len).ok_or_else(|| {
            MachineError::BadTape(format!(
                "block {} claims {len} bytes, {} left",
                blocks.len() + 1,
                tape.len() - at
            ))
        })?;
        if len < 2 {
            return Err(MachineError::BadTape(format!(
                "block {} is empty",
                blocks.len() + 1
            )));
        }
        if block.iter().fold(0u8, |x, &b| x ^ b) != 0 {
            return Err(MachineError::BadTape(format!(
                "block {} fails its checksum",
                blocks.len() + 1
            )));
        }
        blocks.push(block[..len - 1].to_vec());
        at += len;
    }
    if blocks.is_empty() {
        return Err(MachineError::BadTape("empty tape".into()));
    }
    Ok(blocks)
}

/// The number following the first `token` in a tokenised BASIC program: its
/// hidden 5-byte form after 0x0E (small integer or floating point).
fn basic_number_after(program: &[u8], token: u8) -> Option<u16> {
    let mut at = 0;
    // Walk line by line so that tokens inside numbers are not mistaken.
    while at + 4 <= program.len() {
        let len = usize::from(u16::from_le_bytes([program[at + 2], program[at + 3]]));
        let line = program.get(at + 4..at + 4 + len)?;
        let mut i = 0;
        let mut seen = false;
        while i < line.len() {
            let b = line[i];
            if b == 0x0E && i + 5 < line.len() {
                if seen {
                    return spectrum_number(&line[i + 1..i + 6]);
                }
                i += 6;
                continue;
            }
            if b == token {
                seen = true;
            }
            i += 1;
        }
        at += 4 + len;
    }
    None
}

/// A 5-byte Spectrum number as an address, if it is a whole number in range.
fn spectrum_number(b: &[u8]) -> Option<u16> {
    if b[0] == 0 {
        // Small integer: 0, sign, low, high, 0.
        return if b[1] == 0 {
            Some(u16::from_le_bytes([b[2], b[3]]))
        } else {
            None
        };
    }
    let mantissa = u32::from_be_bytes([b[1] | 0x80, b[2], b[3], b[4]]) as f64 / 4_294_967_296.0;
    let v = mantissa * 2f64.powi(i32::from(b[0]) - 128);
    (b[1] & 0x80 == 0 && v.fract() == 0.0 && v <= 65535.0).then_some(v as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Stop;

    fn tap_block(flag: u8, data: &[u8]) -> Vec<u8> {
        let mut v = vec![flag];
        v.extend_from_slice(data);
        let x = v.iter().fold(0, |a, &b| a ^ b);
        v.push(x);
        let mut out = (v.len() as u16).to_le_bytes().to_vec();
        out.extend(v);
        out
    }

    #[test]
    fn tap_loader_is_obeyed_and_bad_tapes_are_errors() {
        // 10 CLEAR 32767: LOAD "" CODE: RANDOMIZE USR 32768
        let num = |n: u16| {
            let mut v = n.to_string().into_bytes();
            v.extend([0x0E, 0, 0, n as u8, (n >> 8) as u8, 0]);
            v
        };
        let mut line = vec![0xFD];
        line.extend(num(32767));
        line.extend([b':', 0xEF, b'"', b'"', 0xAF, b':', 0xF9, 0xC0]);
        line.extend(num(32768));
        line.push(13);
        let mut prog = vec![0, 10, line.len() as u8, 0];
        prog.extend(line);
        let mut hdr = vec![0u8];
        hdr.extend(b"loader    ");
        hdr.extend((prog.len() as u16).to_le_bytes());
        hdr.extend([10, 0]);
        hdr.extend((prog.len() as u16).to_le_bytes());
        let code = [0x3E, b'!', 0xD7, 0x18, 0xFE];
        let mut chdr = vec![3u8];
        chdr.extend(b"code      ");
        chdr.extend((code.len() as u16).to_le_bytes());
        chdr.extend(0x8000u16.to_le_bytes());
        chdr.extend(0x8000u16.to_le_bytes());
        let mut tap = tap_block(0, &hdr);
        tap.extend(tap_block(0xFF, &prog));
        tap.extend(tap_block(0, &chdr));
        tap.extend(tap_block(0xFF, &code));
        let mut zx = Spectrum48::load_tap(&tap).unwrap();
        assert_eq!(zx.pc(), 0x8000);
        assert_eq!(zx.peek16(sysvar::RAMTOP), 32767);
        assert_eq!(zx.peek16(zx.sp()), 0x2D2B);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8003 });
        assert_eq!(zx.screen().row_text(0), "!");

        let mut broken = tap.clone();
        let last = broken.len() - 1;
        broken[last] ^= 1;
        assert!(matches!(
            Spectrum48::load_tap(&broken),
            Err(MachineError::BadTape(_))
        ));
        assert!(Spectrum48::load_tap(&tap[..tap.len() - 3]).is_err());
        assert!(Spectrum48::load_tap(&[]).is_err());
        assert!(Spectrum48::load_tap(&tap_block(0, &hdr)).is_err());
    }
}
