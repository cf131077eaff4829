//! 48K snapshots: `.sna` and `.z80` (versions 1, 2 and 3).
//!
//! `.sna`: a 27-byte header (I, HL', DE', BC', AF', HL, DE, BC, IY, IX,
//! IFF2 in bit 2, R, AF, SP, IM, border) and the 48K of RAM; the program
//! counter is on the stack, as RETN would take it. `.z80` version 1: a
//! 30-byte header (A, F, BC, HL, PC, SP, I, R, flags, DE, BC', DE', HL', A',
//! F', IY, IX, IFF1, IFF2, IM) then the RAM, compressed if flags bit 5 (runs
//! `ED ED n b`, ending `00 ED ED 00`); versions 2 and 3 have PC 0 there, an
//! extended header (its length, PC, hardware mode...) and 16K pages, each a
//! length (0xFFFF: stored raw), a page number (8, 4, 5 for 0x4000, 0x8000,
//! 0xC000 on a 48K) and the data. The formats as commonly documented for
//! Spectrum emulators.

use super::{RAM_SIZE, RAM_START, Regs, Spectrum48};
use crate::machine::MachineError;

/// The length of a 48K `.sna`: its header and the RAM.
pub const SNA_LEN: usize = 27 + RAM_SIZE;

/// Bytes to write from an address.
pub type LoadBlock = (u16, Vec<u8>);

/// A 48K snapshot as its file holds it, parsed apart from any machine:
/// the registers and the memory blocks to write, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub regs: Regs,
    /// `(address, bytes)`, written in this order.
    pub blocks: Vec<LoadBlock>,
}

fn bad(why: String) -> MachineError {
    MachineError::BadTape(why)
}

impl Snapshot {
    /// Parses a 48K `.sna` (27-byte header, then the 48K of RAM; the
    /// program counter is on the stack, as RETN would take it).
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the file is not 49179 bytes, its stack
    /// pointer is not in RAM, or its interrupt mode is not 0 to 2.
    pub fn parse_sna(sna: &[u8]) -> Result<Snapshot, MachineError> {
        if sna.len() != SNA_LEN {
            return Err(bad(format!(
                "48K .sna must be {SNA_LEN} bytes, this one is {}",
                sna.len()
            )));
        }
        let (h, ram) = sna.split_at(27);
        let w = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let sp = w(23);
        if sp < RAM_START || sp == 0xFFFF {
            return Err(bad(format!("stack pointer 0x{sp:04X} is not in RAM")));
        }
        let at = usize::from(sp - RAM_START);
        let pc = u16::from_le_bytes([ram[at], ram[at + 1]]);
        let im = h[25] & 3;
        if im > 2 {
            return Err(bad(format!("interrupt mode {im}")));
        }
        let iff = h[19] & 0x04 != 0;
        let regs = Regs {
            af: w(21),
            bc: w(13),
            de: w(11),
            hl: w(9),
            ix: w(17),
            iy: w(15),
            sp: sp.wrapping_add(2),
            pc,
            af_alt: w(7),
            bc_alt: w(5),
            de_alt: w(3),
            hl_alt: w(1),
            i: h[0],
            r: h[20],
            iff1: iff,
            iff2: iff,
            im,
        };
        Ok(Snapshot {
            regs,
            blocks: vec![(RAM_START, ram.to_vec())],
        })
    }

    /// Parses a 48K `.z80`, version 1 (the RAM after the 30-byte header,
    /// compressed if flags bit 5) or 2 and 3 (PC 0 there, an extended
    /// header, then 16K pages).
    ///
    /// # Errors
    /// [`MachineError::BadTape`]: too short, a truncated header or page, a
    /// hardware mode other than a 48K Spectrum, fewer than three pages,
    /// or an interrupt mode other than 0 to 2.
    pub fn parse_z80(z80: &[u8]) -> Result<Snapshot, MachineError> {
        if z80.len() < 30 {
            return Err(bad(format!(".z80 too short: {} bytes", z80.len())));
        }
        let w = |i: usize| u16::from_le_bytes([z80[i], z80[i + 1]]);
        let flags1 = if z80[12] == 0xFF { 1 } else { z80[12] };
        let (pc, blocks) = match w(6) {
            0 => z80_pages(z80)?,
            pc => (pc, vec![(RAM_START, z80_v1_ram(&z80[30..], flags1)?)]),
        };
        let im = z80[29] & 3;
        if im > 2 {
            return Err(bad(format!("interrupt mode {im}")));
        }
        let iff = z80[27] != 0;
        let regs = Regs {
            af: u16::from_be_bytes([z80[0], z80[1]]),
            bc: w(2),
            de: w(13),
            hl: w(4),
            ix: w(25),
            iy: w(23),
            sp: w(8),
            pc,
            af_alt: u16::from_be_bytes([z80[21], z80[22]]),
            bc_alt: w(15),
            de_alt: w(17),
            hl_alt: w(19),
            i: z80[10],
            r: (z80[11] & 0x7F) | ((flags1 & 1) << 7),
            iff1: iff,
            iff2: iff,
            im,
        };
        Ok(Snapshot { regs, blocks })
    }
}

/// The 48K of a version 1 `.z80` body, expanded if `flags1` bit 5.
fn z80_v1_ram(body: &[u8], flags1: u8) -> Result<Vec<u8>, MachineError> {
    let ram = if flags1 & 0x20 != 0 {
        let body = body.strip_suffix(&[0x00, 0xED, 0xED, 0x00]).unwrap_or(body);
        z80_expand(body, RAM_SIZE).map_err(|why| bad(format!(".z80 v1: {why}")))?
    } else {
        body.to_vec()
    };
    if ram.len() != RAM_SIZE {
        return Err(bad(format!(
            ".z80 v1 holds {} bytes of RAM, not 49152",
            ram.len()
        )));
    }
    Ok(ram)
}

/// The PC and the 48K's pages of a version 2 or 3 `.z80`: pages 8, 4, 5
/// at 0x4000, 0x8000, 0xC000 (others skipped), each a length (0xFFFF:
/// stored raw), a page number and the data.
fn z80_pages(z80: &[u8]) -> Result<(u16, Vec<LoadBlock>), MachineError> {
    let w = |i: usize| u16::from_le_bytes([z80[i], z80[i + 1]]);
    if z80.len() < 32 {
        return Err(bad(".z80 v2/v3 header truncated".into()));
    }
    let extra = usize::from(w(30));
    let start = 32 + extra;
    if extra < 23 || z80.len() < start {
        return Err(bad(format!(
            ".z80 extended header of {extra} bytes is truncated"
        )));
    }
    let hw = z80[34];
    let is_48k = if extra == 23 {
        hw <= 1
    } else {
        hw <= 1 || hw == 3
    };
    if !is_48k {
        return Err(bad(format!(
            ".z80 is for hardware mode {hw}, not a 48K Spectrum"
        )));
    }
    let mut blocks = Vec::new();
    let mut at = start;
    while at + 3 <= z80.len() {
        let len = usize::from(w(at));
        let page = z80[at + 2];
        at += 3;
        let (data, used) = if len == 0xFFFF {
            (z80.get(at..at + 0x4000).map(<[u8]>::to_vec), 0x4000)
        } else {
            let block = z80.get(at..at + len);
            (block.and_then(|b| z80_expand(b, 0x4000).ok()), len)
        };
        let data = data.filter(|d| d.len() == 0x4000).ok_or_else(|| {
            bad(format!(
                ".z80 page {page} at byte {at} is truncated or malformed"
            ))
        })?;
        at += used;
        let base = match page {
            8 => 0x4000u16,
            4 => 0x8000,
            5 => 0xC000,
            _ => continue,
        };
        blocks.push((base, data));
    }
    if blocks.len() < 3 {
        return Err(bad(format!(
            ".z80 holds {} of the 48K's three pages",
            blocks.len()
        )));
    }
    Ok((w(32), blocks))
}

impl Spectrum48 {
    /// A fresh 48K Spectrum holding `snapshot`: its memory blocks written
    /// over the power-on state, then its registers.
    pub fn from_snapshot(snapshot: &Snapshot) -> Spectrum48 {
        let mut zx = Spectrum48::new();
        for (base, bytes) in &snapshot.blocks {
            for (k, &v) in bytes.iter().enumerate().take(0x1_0000 - usize::from(*base)) {
                zx.poke(base + k as u16, v);
            }
        }
        zx.set_regs(snapshot.regs);
        zx
    }

    /// Loads a 48K `.sna` snapshot ([`Snapshot::parse_sna`]).
    ///
    /// # Errors
    /// As [`Snapshot::parse_sna`].
    pub fn load_sna(sna: &[u8]) -> Result<Spectrum48, MachineError> {
        Snapshot::parse_sna(sna).map(|s| Spectrum48::from_snapshot(&s))
    }

    /// Loads a 48K `.z80` snapshot ([`Snapshot::parse_z80`]).
    ///
    /// # Errors
    /// As [`Snapshot::parse_z80`].
    pub fn load_z80(z80: &[u8]) -> Result<Spectrum48, MachineError> {
        Snapshot::parse_z80(z80).map(|s| Spectrum48::from_snapshot(&s))
    }
}

/// Expands `.z80` compression (`ED ED n b` = n copies of b) to `want` bytes.
// String error: a leaf decoder whose message the caller wraps into its `MachineError`.
fn z80_expand(data: &[u8], want: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(want);
    let mut i = 0;
    while i < data.len() {
        if data[i] == 0xED && data.get(i + 1) == Some(&0xED) {
            let (n, b) = match (data.get(i + 2), data.get(i + 3)) {
                (Some(&n), Some(&b)) => (n, b),
                _ => return Err(format!("truncated run at byte {i}")),
            };
            out.extend(std::iter::repeat_n(b, usize::from(n)));
            i += 4;
        } else {
            out.push(data[i]);
            i += 1;
        }
        if out.len() > want {
            return Err(format!("expands beyond {want} bytes"));
        }
    }
    if out.len() != want {
        return Err(format!("expands to {} bytes, not {want}", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Stop;

    #[test]
    fn sna_and_z80_snapshots_restore_state() {
        let mut sna = vec![0u8; 27 + RAM_SIZE];
        sna[0] = 0x3F; // I
        sna[9..11].copy_from_slice(&0x1234u16.to_le_bytes()); // HL
        sna[13..15].copy_from_slice(&0xBEEFu16.to_le_bytes()); // BC
        sna[19] = 0x04; // IFF2
        sna[21..23].copy_from_slice(&0x0500u16.to_le_bytes()); // AF
        sna[23..25].copy_from_slice(&0xFF00u16.to_le_bytes()); // SP
        sna[25] = 1;
        let ram = |a: u16| 27 + usize::from(a - RAM_START);
        sna[ram(0xFF00)..ram(0xFF00) + 2].copy_from_slice(&0x8000u16.to_le_bytes());
        sna[ram(0x8000)..ram(0x8000) + 2].copy_from_slice(&[0x18, 0xFE]);
        let mut zx = Spectrum48::load_sna(&sna).unwrap();
        assert_eq!(zx.regs().pc, 0x8000);
        assert_eq!(zx.regs().sp, 0xFF02);
        assert_eq!(zx.regs().hl, 0x1234);
        assert_eq!(zx.regs().bc, 0xBEEF);
        assert_eq!(zx.interrupt_mode(), (true, 1));
        assert_eq!(zx.run(100_000), Stop::Stuck { pc: 0x8000 });
        assert!(Spectrum48::load_sna(&sna[..100]).is_err());

        // The same machine as a compressed version 1 .z80.
        let mut z = vec![0u8; 30];
        z[0] = 0x05; // A
        z[4..6].copy_from_slice(&0x1234u16.to_le_bytes());
        z[6..8].copy_from_slice(&0x8000u16.to_le_bytes()); // PC
        z[8..10].copy_from_slice(&0xFF02u16.to_le_bytes());
        z[12] = 0x20; // compressed
        z[27] = 1;
        z[29] = 1;
        let mut ram_img = vec![0u8; RAM_SIZE];
        ram_img[0x4000..0x4002].copy_from_slice(&[0x18, 0xFE]);
        let mut packed = Vec::new();
        let mut i = 0;
        while i < ram_img.len() {
            let b = ram_img[i];
            let mut n = 1;
            while i + n < ram_img.len() && ram_img[i + n] == b && n < 255 {
                n += 1;
            }
            if n >= 5 {
                packed.extend([0xED, 0xED, n as u8, b]);
            } else {
                packed.extend(std::iter::repeat_n(b, n));
            }
            i += n;
        }
        z.extend(packed);
        z.extend([0x00, 0xED, 0xED, 0x00]);
        let mut zx = Spectrum48::load_z80(&z).unwrap();
        assert_eq!(zx.regs().hl, 0x1234);
        assert_eq!(zx.regs().af >> 8, 0x05);
        assert_eq!(zx.run(100_000), Stop::Stuck { pc: 0x8000 });
        assert!(Spectrum48::load_z80(&z[..40]).is_err());
    }
}
