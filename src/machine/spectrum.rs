//! A headless 48K ZX Spectrum built on `iz80`, without its ROM.
//!
//! # Memory map
//! - `0x0000..=0x3FFF`: the 16K ROM. We have no ROM image: writes are
//!   ignored (as on the real machine), a data read stops the run with
//!   [`Fault::RomRead`], and execution there is one of the traps below or a
//!   [`Fault::RomCall`].
//! - `0x4000..=0xFFFF`: 48K of RAM (display file at 0x4000, attributes at
//!   0x5800, system variables at 0x5C00, BASIC from 0x5CCB).
//!
//! # ROM entry points, emulated at high level
//! Facts from the Spectrum's documented ROM entry points and system variables
//! and from what ChesSkelet (seed 001) says it relies on:
//! - [`PRINT_A`] (0x0010, `RST 16`): prints the code in A on the upper screen
//!   (printable characters 32–127, CR, AT row/col, TAB, and the one-byte
//!   parameters of the colour codes 16–21). The ROM's PRINT-OUT keeps BC, DE
//!   and HL and spoils AF and BC'/DE'; the trap keeps every register, which no
//!   caller can tell apart from the ROM unless it reads A after the call
//!   (ChesSkelet never does). Like the ROM it goes through the current
//!   channel (CURCHL → the record's output address): if that address is no
//!   longer PRINT-OUT — a program's stack has overwritten the channel area
//!   — the run stops with [`Fault::RomCall`] at 0x0010, since the real
//!   machine would jump wherever the bytes point.
//! - [`CL_ALL`] (0x0DAF, CLS): clears the screen and leaves the registers as
//!   the ROM's CL-ALL does on its way out through CL-SET/PO-STORE:
//!   A=0, BC=0x1821, DE=0, HL=0x4000, Z set. ChesSkelet relies on L=0 and
//!   C=0x21 ("C is always $21", chapter 5).
//! - [`CHAN_OPEN`] (0x1601): streams 2 and −2 (0xFE) select the upper screen,
//!   the only channel printed to here: CURCHL is set from STRMS and CHANS
//!   as the ROM does (both initialised at power-on). The ROM leaves HL=0x5C91 (P_FLAG,
//!   written last by TEMPS), C='S' and D=0; ChesSkelet's first `genlis` pass
//!   uses the H it leaves.
//! - The IM 1 interrupt, every [`FRAME_TSTATES`]: the ROM's handler advances
//!   the 3-byte FRAMES (23672) and runs KEYBOARD, which puts a newly pressed
//!   key's code into LAST_K (23560) and sets bit 5 of FLAGS (23611). Here a
//!   key typed with [`Spectrum48::type_keys`] is delivered by one interrupt,
//!   one key per interrupt, and only once the program has read LAST_K as 0
//!   since the previous key (it waits; ChesSkelet clears LAST_K before it
//!   polls, so a key delivered earlier would be lost). The interrupt is taken
//!   by the CPU (return address pushed, IFF cleared) and the handler's
//!   closing `EI; RET` is fed to it from the ROM's address.
//!
//! Not emulated: the display bitmap (the screen is the text the print trap
//! received), scrolling's "scroll?" prompt (the text screen just scrolls),
//! the lower screen, sound, tape signals, HALT (`iz80` 0.5 never wakes a
//! halted CPU: a HALT is reported as [`Stop::Stuck`]).

use std::collections::VecDeque;

use iz80::{Cpu, Machine, Reg8, Reg16};

use super::{Cell, Fault, MachineError, Stop, TextScreen, Watches};

/// ROM `RST 16` (PRINT-A).
pub const PRINT_A: u16 = 0x0010;
/// ROM CL-ALL, the routine BASIC's CLS calls (3503).
pub const CL_ALL: u16 = 0x0DAF;
/// ROM CHAN-OPEN.
pub const CHAN_OPEN: u16 = 0x1601;
/// ROM PRINT-OUT, the output routine of channels K, S and P: where `RST 16`
/// ends up through the current channel's record.
pub const PRINT_OUT: u16 = 0x09F4;
/// The channel area as the ROM sets it up at power-on (copied from its
/// initial channel data), at [`CHANNELS`]: K, S, R, P, each output address,
/// input address, letter; then the end marker. PROG follows at 0x5CCB.
pub const CHANNEL_DATA: [u8; 21] = [
    0xF4, 0x09, 0xA8, 0x10, b'K', // keyboard / lower screen
    0xF4, 0x09, 0xC4, 0x15, b'S', // upper screen
    0x81, 0x0F, 0xC4, 0x15, b'R', // workspace
    0xF4, 0x09, 0xC4, 0x15, b'P', // printer
    0x80,
];
/// Where the channel area starts on a 48K machine without microdrives.
pub const CHANNELS: u16 = 0x5CB6;
/// The initial stream table (streams −3..3 → K, S, R, K, K, S, P).
const STREAM_DATA: [u8; 14] = [1, 0, 6, 0, 11, 0, 1, 0, 1, 0, 6, 0, 16, 0];
/// The IM 1 interrupt vector.
pub const IRQ_VECTOR: u16 = 0x0038;

/// First byte of RAM.
pub const RAM_START: u16 = 0x4000;
/// Size of the RAM.
pub const RAM_SIZE: usize = 0xC000;
/// Where the ROM puts a BASIC program (PROG on a machine without
/// microdrives).
pub const BASIC_START: u16 = 0x5CCB;

/// System variables used here (ZX Spectrum manual, chapter 25).
pub mod sysvar {
    pub const LAST_K: u16 = 23560;
    pub const FLAGS: u16 = 23611;
    pub const TV_FLAG: u16 = 23612;
    pub const ERR_SP: u16 = 23613;
    pub const FRAMES: u16 = 23672;
    pub const S_POSN: u16 = 23688;
    pub const DF_CC: u16 = 23684;
    pub const ATTR_P: u16 = 23693;
    pub const P_FLAG: u16 = 23697;
    pub const RAMTOP: u16 = 23730;
    pub const P_RAMT: u16 = 23732;
    /// Stream table: 7 offsets (streams −3..3) into the channel area.
    pub const STRMS: u16 = 23568;
    /// Start of the channel area (5 bytes per channel).
    pub const CHANS: u16 = 23631;
    /// The channel in use: `RST 16` jumps to its output address.
    pub const CURCHL: u16 = 23633;
    /// IY always points here while the ROM is in charge.
    pub const IY_BASE: u16 = 0x5C3A;
}

/// Z80 clock of the 48K Spectrum.
pub const CLOCK_HZ: u64 = 3_500_000;
/// T-states per 50 Hz frame (one interrupt each).
pub const FRAME_TSTATES: u64 = 69_888;
/// T-states charged for the ROM's interrupt handler beyond what the CPU runs
/// itself (acceptance, `EI`, `RET`): an estimate of MASK-INT plus KEYBOARD's
/// scan of the eight half-rows with no key down, not an instruction count.
pub const IRQ_HANDLER_TSTATES: u64 = 1_000;
/// Estimates for the trapped routines, charged so that budgets and benches
/// see them; like [`IRQ_HANDLER_TSTATES`], rounded, not counted.
const PRINT_TSTATES: u64 = 400;
const CLS_TSTATES: u64 = 100_000;
const CHAN_OPEN_TSTATES: u64 = 300;

/// The upper screen has 22 lines; the lower two belong to the editor.
const UPPER_ROWS: usize = 22;

/// The address space: RAM, and the record of the last bad access.
struct Bus {
    ram: Vec<u8>,
    fault: Option<Fault>,
    pc: u16,
    ignored_rom_writes: u64,
    /// The program read LAST_K as 0 during the last instruction.
    polled_empty_now: bool,
    /// The program has read LAST_K as 0 since the last key was delivered.
    waiting: bool,
    /// An interrupt is being taken: the ROM handler's `EI; RET` is read at
    /// the vector.
    in_irq: bool,
}

impl Machine for Bus {
    #[inline]
    fn peek(&mut self, address: u16) -> u8 {
        if address >= RAM_START {
            let v = self.ram[(address - RAM_START) as usize];
            if address == sysvar::LAST_K && v == 0 {
                self.polled_empty_now = true;
                self.waiting = true;
            }
            v
        } else if self.in_irq && address == IRQ_VECTOR {
            0xFB // EI
        } else if self.in_irq && address == IRQ_VECTOR + 1 {
            0xC9 // RET
        } else {
            self.fault.get_or_insert(Fault::RomRead {
                addr: address,
                pc: self.pc,
            });
            0xFF
        }
    }

    #[inline]
    fn poke(&mut self, address: u16, value: u8) {
        if address >= RAM_START {
            self.ram[(address - RAM_START) as usize] = value;
        } else {
            self.ignored_rom_writes += 1;
        }
    }

    fn port_in(&mut self, _address: u16) -> u8 {
        0xFF
    }

    fn port_out(&mut self, _address: u16, _value: u8) {}
}

/// A few instructions fed to the CPU from a buffer, to set state `iz80`
/// offers no setter for (alternate registers, IFF, IM).
struct Stub<'a>(&'a [u8]);

impl Machine for Stub<'_> {
    fn peek(&mut self, address: u16) -> u8 {
        self.0.get(address as usize).copied().unwrap_or(0)
    }
    fn poke(&mut self, _address: u16, _value: u8) {}
    fn port_in(&mut self, _address: u16) -> u8 {
        0xFF
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

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

/// The registers of a machine, for snapshots and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub af: u16,
    pub bc: u16,
    pub de: u16,
    pub hl: u16,
    pub ix: u16,
    pub iy: u16,
    pub sp: u16,
    pub pc: u16,
}

/// An emulated 48K ZX Spectrum with a program loaded.
pub struct Spectrum48 {
    cpu: Cpu,
    bus: Bus,
    screen: TextScreen,
    bright: Vec<bool>,
    row: usize,
    col: usize,
    print: PrintState,
    bright_now: bool,
    inverse_now: bool,
    /// T-states not executed by the CPU: trapped ROM routines, the
    /// interrupt handler, and time skipped while the program waits.
    extra_tstates: u64,
    /// T-states skipped while the program waited for a key.
    idle_tstates: u64,
    /// CPU cycles spent by [`Stub`] runs, not part of emulated time.
    stub_cycles: u64,
    next_irq_at: u64,
    keys: VecDeque<u8>,
    interrupts: u64,
    watches: Watches,
}

impl Spectrum48 {
    /// A 48K Spectrum as the ROM leaves it after power-on (RAM zero, system
    /// variables of a fresh machine), with no program.
    pub fn new() -> Spectrum48 {
        let mut zx = Spectrum48 {
            cpu: Cpu::new_z80(),
            bus: Bus {
                ram: vec![0; RAM_SIZE],
                fault: None,
                pc: 0,
                ignored_rom_writes: 0,
                polled_empty_now: false,
                waiting: false,
                in_irq: false,
            },
            screen: TextScreen::default(),
            bright: vec![false; TextScreen::COLS * TextScreen::ROWS],
            row: 0,
            col: 0,
            print: PrintState::Normal,
            bright_now: false,
            inverse_now: false,
            extra_tstates: 0,
            idle_tstates: 0,
            stub_cycles: 0,
            next_irq_at: FRAME_TSTATES,
            keys: VecDeque::new(),
            interrupts: 0,
            watches: Watches::default(),
        };
        zx.poke(sysvar::ATTR_P, 0x38);
        zx.poke16(sysvar::RAMTOP, 0xFF57);
        zx.poke16(sysvar::P_RAMT, 0xFFFF);
        zx.poke(sysvar::FLAGS, 0x0C);
        for (i, &b) in STREAM_DATA.iter().enumerate() {
            zx.poke(sysvar::STRMS + i as u16, b);
        }
        for (i, &b) in CHANNEL_DATA.iter().enumerate() {
            zx.poke(CHANNELS + i as u16, b);
        }
        zx.poke16(sysvar::CHANS, CHANNELS);
        zx.poke16(sysvar::CURCHL, CHANNELS);
        for a in 0x5800..0x5B00 {
            zx.poke(a, 0x38);
        }
        let regs = zx.cpu.registers();
        regs.set16(Reg16::IY, sysvar::IY_BASE);
        regs.set8(Reg8::I, 0x3F);
        regs.set16(Reg16::SP, 0xFF4A);
        zx.set_interrupts(true, 1);
        zx
    }

    /// Loads a `.tap` file as `LOAD ""` would and runs its BASIC loader at
    /// high level: every CODE block is loaded at its header's address, and
    /// the loader's `CLEAR n` (RAMTOP) and `USR n` (entry point) are obeyed.
    /// The CPU is left at the entry point as the ROM's USR leaves it: BC =
    /// the address, HL = 0x2D2B (STACK-BC, also the return address on top of
    /// the stack), interrupts on in mode 1.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] for a malformed block (length, checksum,
    /// header), a missing BASIC loader or CODE block, a CODE block that does
    /// not fit in RAM, or a loader without `USR n`.
    pub fn load_tap(tape: &[u8]) -> Result<Spectrum48, MachineError> {
        let blocks = tap_blocks(tape)?;
        let mut zx = Spectrum48::new();
        let mut program: Option<Vec<u8>> = None;
        let mut loaded_code = false;
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
            let data = blocks.get(i + 1).ok_or_else(|| {
                MachineError::BadTape(format!("header {} has no data block", i + 1))
            })?;
            if data[0] != 0xFF || data.len() != length + 1 {
                return Err(MachineError::BadTape(format!(
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
                        return Err(MachineError::BadTape(format!(
                            "CODE block of {} bytes at 0x{param1:04X} does not fit in RAM",
                            bytes.len()
                        )));
                    }
                    for (k, &v) in bytes.iter().enumerate() {
                        zx.poke(param1 + k as u16, v);
                    }
                    loaded_code = true;
                }
                _ => {}
            }
            i += 2;
        }
        let program =
            program.ok_or_else(|| MachineError::BadTape("no BASIC loader on the tape".into()))?;
        if !loaded_code {
            return Err(MachineError::BadTape("no CODE block on the tape".into()));
        }
        let entry = basic_number_after(&program, 0xC0)
            .ok_or_else(|| MachineError::BadTape("the BASIC loader has no USR n".into()))?;
        let ramtop = basic_number_after(&program, 0xFD).unwrap_or(0xFF57);
        if entry < RAM_START || ramtop < 0x5D00 {
            return Err(MachineError::BadTape(format!(
                "loader enters at 0x{entry:04X} with RAMTOP 0x{ramtop:04X}"
            )));
        }
        let room = usize::from(ramtop).saturating_sub(usize::from(BASIC_START));
        if program.len() < room {
            for (k, &v) in program.iter().enumerate() {
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
        let regs = zx.cpu.registers();
        regs.set16(Reg16::SP, sp);
        regs.set16(Reg16::BC, entry);
        regs.set16(Reg16::HL, 0x2D2B);
        regs.set_pc(entry);
        Ok(zx)
    }

    /// Loads a 48K `.sna` snapshot (27-byte header, then the 48K of RAM;
    /// the program counter is on the stack, as RETN would take it).
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the file is not 49179 bytes or its stack
    /// pointer is not in RAM.
    pub fn load_sna(sna: &[u8]) -> Result<Spectrum48, MachineError> {
        const LEN: usize = 27 + RAM_SIZE;
        if sna.len() != LEN {
            return Err(MachineError::BadTape(format!(
                "48K .sna must be {LEN} bytes, this one is {}",
                sna.len()
            )));
        }
        let h = &sna[..27];
        let w = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let mut zx = Spectrum48::new();
        zx.bus.ram.copy_from_slice(&sna[27..]);
        let sp = w(23);
        if sp < RAM_START || sp == 0xFFFF {
            return Err(MachineError::BadTape(format!(
                "stack pointer 0x{sp:04X} is not in RAM"
            )));
        }
        let pc = zx.peek16(sp);
        let im = h[25] & 3;
        if im > 2 {
            return Err(MachineError::BadTape(format!("interrupt mode {im}")));
        }
        zx.set_state(
            Regs {
                af: w(21),
                bc: w(13),
                de: w(11),
                hl: w(9),
                ix: w(17),
                iy: w(15),
                sp: sp + 2,
                pc,
            },
            Regs {
                af: w(7),
                bc: w(5),
                de: w(3),
                hl: w(1),
                ..Regs::default()
            },
            h[0],
            h[20],
            h[19] & 0x04 != 0,
            im,
        );
        Ok(zx)
    }

    /// Loads a 48K `.z80` snapshot, version 1 (30-byte header, optionally
    /// compressed) or versions 2 and 3 (extended header, 16K pages 8, 4, 5).
    ///
    /// # Errors
    /// [`MachineError::BadTape`] for a truncated file, a snapshot of another
    /// model than the 48K, or a compressed block that does not expand to
    /// exactly its page.
    pub fn load_z80(z80: &[u8]) -> Result<Spectrum48, MachineError> {
        let bad = |why: String| MachineError::BadTape(why);
        if z80.len() < 30 {
            return Err(bad(format!(".z80 too short: {} bytes", z80.len())));
        }
        let w = |i: usize| u16::from_le_bytes([z80[i], z80[i + 1]]);
        let flags1 = if z80[12] == 0xFF { 1 } else { z80[12] };
        let mut zx = Spectrum48::new();
        let mut pc = w(6);
        if pc != 0 {
            // Version 1: the 48K follows, compressed if flags1 bit 5.
            let body = &z80[30..];
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
            zx.bus.ram.copy_from_slice(&ram);
        } else {
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
            pc = w(32);
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
            let mut at = start;
            let mut seen = 0;
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
                for (k, &v) in data.iter().enumerate() {
                    zx.poke(base + k as u16, v);
                }
                seen += 1;
            }
            if seen < 3 {
                return Err(bad(format!(".z80 holds {seen} of the 48K's three pages")));
            }
        }
        let im = z80[29] & 3;
        if im > 2 {
            return Err(bad(format!("interrupt mode {im}")));
        }
        let r = (z80[11] & 0x7F) | ((flags1 & 1) << 7);
        let af = u16::from_be_bytes([z80[0], z80[1]]);
        let alt_af = u16::from_be_bytes([z80[21], z80[22]]);
        zx.set_state(
            Regs {
                af,
                bc: w(2),
                de: w(13),
                hl: w(4),
                ix: w(25),
                iy: w(23),
                sp: w(8),
                pc,
            },
            Regs {
                af: alt_af,
                bc: w(15),
                de: w(17),
                hl: w(19),
                ..Regs::default()
            },
            z80[10],
            r,
            z80[27] != 0,
            im,
        );
        Ok(zx)
    }

    /// Sets every register, the alternate set, I, R, IFF1/2 and IM.
    fn set_state(&mut self, main: Regs, alt: Regs, i: u8, r: u8, iff: bool, im: u8) {
        {
            let regs = self.cpu.registers();
            regs.set16(Reg16::AF, alt.af);
            regs.set16(Reg16::BC, alt.bc);
            regs.set16(Reg16::DE, alt.de);
            regs.set16(Reg16::HL, alt.hl);
        }
        // EXX; EX AF,AF' move them to the alternate set.
        self.run_stub(&[0xD9, 0x08]);
        self.set_interrupts(iff, im);
        self.set_regs(main);
        let regs = self.cpu.registers();
        regs.set8(Reg8::I, i);
        regs.set8(Reg8::R, r);
    }

    /// Sets IFF1/IFF2 and the interrupt mode.
    fn set_interrupts(&mut self, enabled: bool, im: u8) {
        let im_op = match im {
            0 => 0x46,
            2 => 0x5E,
            _ => 0x56,
        };
        self.run_stub(&[0xED, im_op, if enabled { 0xFB } else { 0xF3 }]);
    }

    fn run_stub(&mut self, code: &[u8]) {
        let pc = self.cpu.immutable_registers().pc();
        let r = self.cpu.immutable_registers().get8(Reg8::R);
        let before = self.cpu.cycle_count();
        self.cpu.registers().set_pc(0);
        let mut stub = Stub(code);
        while usize::from(self.cpu.immutable_registers().pc()) < code.len() {
            self.cpu.execute_instruction(&mut stub);
        }
        self.stub_cycles += self.cpu.cycle_count() - before;
        let regs = self.cpu.registers();
        regs.set_pc(pc);
        regs.set8(Reg8::R, r);
    }

    /// The main registers.
    pub fn regs(&self) -> Regs {
        let r = self.cpu.immutable_registers();
        Regs {
            af: r.get16(Reg16::AF),
            bc: r.get16(Reg16::BC),
            de: r.get16(Reg16::DE),
            hl: r.get16(Reg16::HL),
            ix: r.get16(Reg16::IX),
            iy: r.get16(Reg16::IY),
            sp: r.get16(Reg16::SP),
            pc: r.pc(),
        }
    }

    /// Sets the main registers (PC and SP included).
    pub fn set_regs(&mut self, v: Regs) {
        let regs = self.cpu.registers();
        regs.set16(Reg16::AF, v.af);
        regs.set16(Reg16::BC, v.bc);
        regs.set16(Reg16::DE, v.de);
        regs.set16(Reg16::HL, v.hl);
        regs.set16(Reg16::IX, v.ix);
        regs.set16(Reg16::IY, v.iy);
        regs.set16(Reg16::SP, v.sp);
        regs.set_pc(v.pc);
    }

    /// Interrupts enabled (IFF1) and the interrupt mode.
    pub fn interrupt_mode(&self) -> (bool, u8) {
        self.cpu.immutable_registers().get_interrupt_mode()
    }

    /// Reads memory (ROM reads as 0xFF: we have no image).
    pub fn peek(&self, addr: u16) -> u8 {
        if addr >= RAM_START {
            self.bus.ram[(addr - RAM_START) as usize]
        } else {
            0xFF
        }
    }

    pub fn peek16(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.peek(addr), self.peek(addr.wrapping_add(1))])
    }

    /// Writes RAM; writes to the ROM are ignored, as on the real machine.
    pub fn poke(&mut self, addr: u16, value: u8) {
        if addr >= RAM_START {
            self.bus.ram[(addr - RAM_START) as usize] = value;
        }
    }

    pub fn poke16(&mut self, addr: u16, value: u16) {
        let [lo, hi] = value.to_le_bytes();
        self.poke(addr, lo);
        self.poke(addr.wrapping_add(1), hi);
    }

    pub fn pc(&self) -> u16 {
        self.cpu.immutable_registers().pc()
    }

    pub fn sp(&self) -> u16 {
        self.cpu.immutable_registers().get16(Reg16::SP)
    }

    /// Continue execution at `pc` with the stack pointer at `sp`.
    pub fn jump(&mut self, pc: u16, sp: u16) {
        let regs = self.cpu.registers();
        regs.set_pc(pc);
        regs.set16(Reg16::SP, sp);
    }

    /// Emulated T-states since power-on, trapped routines, the interrupt
    /// handler and idle time included.
    pub fn tstates(&self) -> u64 {
        self.cpu.cycle_count() - self.stub_cycles + self.extra_tstates
    }

    /// T-states the CPU or a trapped routine actually ran (time skipped
    /// while the program waited for a key excluded).
    pub fn busy_tstates(&self) -> u64 {
        self.tstates() - self.idle_tstates
    }

    /// The part of [`busy_tstates`](Self::busy_tstates) that is estimated,
    /// not executed: the trapped ROM routines and the interrupt handler
    /// (see [`IRQ_HANDLER_TSTATES`]).
    pub fn estimated_tstates(&self) -> u64 {
        self.extra_tstates - self.idle_tstates
    }

    /// The 24-bit FRAMES counter.
    pub fn frames(&self) -> u32 {
        u32::from(self.peek16(sysvar::FRAMES)) | (u32::from(self.peek(sysvar::FRAMES + 2)) << 16)
    }

    /// Interrupts taken so far.
    pub fn interrupts(&self) -> u64 {
        self.interrupts
    }

    /// Writes to the ROM area ignored so far.
    pub fn ignored_rom_writes(&self) -> u64 {
        self.bus.ignored_rom_writes
    }

    /// The text printed on the screen.
    pub fn screen(&self) -> TextScreen {
        self.screen.clone()
    }

    /// Was the cell printed with BRIGHT 1?
    pub fn bright(&self, row: usize, col: usize) -> bool {
        row < TextScreen::ROWS
            && col < TextScreen::COLS
            && self.bright[row * TextScreen::COLS + col]
    }

    /// The print position (row, column) of the upper screen.
    pub fn print_position(&self) -> (usize, usize) {
        (self.row, self.col)
    }

    /// Keys not yet delivered.
    pub fn pending_keys(&self) -> usize {
        self.keys.len()
    }

    /// Forgets keys not yet delivered.
    pub fn clear_keys(&mut self) {
        self.keys.clear();
    }

    /// Queues keys to be pressed one by one, as the ROM's keyboard routine
    /// would report them in LAST_K: `a`–`z` and `0`–`9` as themselves, `A`–`Z`
    /// (caps shift) as upper case, space, and `\n` for ENTER (13).
    ///
    /// # Errors
    /// The first character that is not such a key.
    pub fn type_keys(&mut self, keys: &str) -> Result<(), char> {
        if let Some(bad) = keys
            .chars()
            .find(|&k| !(k.is_ascii_alphanumeric() || k == ' ' || k == '\n'))
        {
            return Err(bad);
        }
        self.keys
            .extend(keys.bytes().map(|b| if b == b'\n' { 13 } else { b }));
        Ok(())
    }

    /// Counts how often execution reaches each of `addrs` (replacing any
    /// earlier watches; counts restart at zero).
    pub fn watch(&mut self, addrs: &[u16]) {
        self.watches = Watches::new(addrs);
    }

    /// How often execution reached the `i`-th watched address.
    pub fn hits(&self, i: usize) -> u64 {
        self.watches.hits(i)
    }

    /// Runs until a named stop, at most `budget` T-states of execution.
    pub fn run(&mut self, budget: u64) -> Stop {
        self.run_to(budget, None)
    }

    /// Like [`run`](Self::run), and also stops with [`Stop::Breakpoint`]
    /// when execution is about to run the instruction at `breakpoint`.
    pub fn run_to(&mut self, budget: u64, breakpoint: Option<u16>) -> Stop {
        let limit = self.busy_tstates().saturating_add(budget);
        let mut first = true;
        loop {
            if self.tstates() >= self.next_irq_at
                && let Some(stop) = self.interrupt()
            {
                return stop;
            }
            let pc = self.pc();
            if Some(pc) == breakpoint && !first {
                return Stop::Breakpoint { pc };
            }
            first = false;
            if pc < RAM_START {
                if let Some(stop) = self.trap(pc) {
                    return stop;
                }
                if self.busy_tstates() >= limit {
                    return Stop::BudgetExhausted { pc: self.pc() };
                }
                continue;
            }
            self.watches.visit(pc);
            self.bus.pc = pc;
            self.bus.polled_empty_now = false;
            self.cpu.execute_instruction(&mut self.bus);
            if let Some(fault) = self.bus.fault.take() {
                return Stop::Fault(fault);
            }
            let new_pc = self.pc();
            if new_pc == pc && self.jumps_to_itself(pc) {
                return Stop::Stuck { pc };
            }
            if self.bus.polled_empty_now {
                if self.keys.is_empty() {
                    return Stop::WaitingForKey;
                }
                // Polling an empty LAST_K changes nothing but time until the
                // interrupt that brings the next key: skip to it.
                let now = self.tstates();
                if self.next_irq_at > now && self.interrupt_mode().0 {
                    let skip = self.next_irq_at - now;
                    self.extra_tstates += skip;
                    self.idle_tstates += skip;
                }
            }
            if self.busy_tstates() >= limit {
                return Stop::BudgetExhausted { pc: new_pc };
            }
        }
    }

    /// Is the instruction at `pc` (which just left PC unchanged) a jump to
    /// itself, or a HALT (which `iz80` 0.5 never ends)?
    fn jumps_to_itself(&mut self, pc: u16) -> bool {
        if self.cpu.is_halted() {
            return true;
        }
        let op = self.peek(pc);
        matches!(
            op,
            0xC3 | 0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA
        ) || (matches!(op, 0x18 | 0x20 | 0x28 | 0x30 | 0x38)
            && self.peek(pc.wrapping_add(1)) == 0xFE)
    }

    /// The 50 Hz interrupt, if the CPU takes it now.
    fn interrupt(&mut self) -> Option<Stop> {
        while self.next_irq_at <= self.tstates() {
            self.next_irq_at += FRAME_TSTATES;
        }
        let (enabled, im) = self.interrupt_mode();
        if !enabled {
            return None;
        }
        let pc = self.pc();
        if im != 1 {
            return Some(Stop::Fault(Fault::InterruptMode { mode: im, pc }));
        }
        // The CPU accepts (pushes PC, clears IFF) and runs the handler's
        // EI at 0x0038 in the same step; then RET.
        self.bus.in_irq = true;
        self.cpu.signal_interrupt(true);
        self.cpu.execute_instruction(&mut self.bus);
        self.cpu.signal_interrupt(false);
        if self.pc() == IRQ_VECTOR + 1 {
            self.cpu.execute_instruction(&mut self.bus);
        }
        self.bus.in_irq = false;
        if let Some(fault) = self.bus.fault.take() {
            return Some(Stop::Fault(fault));
        }
        self.extra_tstates += IRQ_HANDLER_TSTATES;
        self.interrupts += 1;
        // MASK-INT: FRAMES, three bytes, counting up.
        let f = self.frames().wrapping_add(1) & 0xFF_FFFF;
        self.poke16(sysvar::FRAMES, f as u16);
        self.poke(sysvar::FRAMES + 2, (f >> 16) as u8);
        // KEYBOARD: a new key into LAST_K, FLAGS bit 5 set.
        if self.bus.waiting
            && let Some(key) = self.keys.pop_front()
        {
            self.poke(sysvar::LAST_K, key);
            let flags = self.peek(sysvar::FLAGS);
            self.poke(sysvar::FLAGS, flags | 0x20);
            self.bus.waiting = false;
        }
        None
    }

    fn ret(&mut self, tstates: u64) {
        let sp = self.sp();
        let to = self.peek16(sp);
        let regs = self.cpu.registers();
        regs.set16(Reg16::SP, sp.wrapping_add(2));
        regs.set_pc(to);
        self.extra_tstates += tstates;
    }

    /// Performs the ROM routine at `pc`, or names why it cannot.
    fn trap(&mut self, pc: u16) -> Option<Stop> {
        match pc {
            PRINT_A => {
                // The ROM jumps to the output address of the channel
                // CURCHL points at. A program whose stack has run down
                // into the channel area (ChesSkelet after some 250 move
                // pairs) has overwritten it: the real machine would run
                // whatever the bytes now say, which we cannot follow.
                let record = self.peek16(sysvar::CURCHL);
                if record < RAM_START {
                    return Some(Stop::Fault(Fault::RomRead { addr: record, pc }));
                }
                if self.peek16(record) != PRINT_OUT {
                    return Some(Stop::Fault(Fault::RomCall { pc }));
                }
                let a = self.cpu.immutable_registers().a();
                self.print_code(a);
                self.ret(PRINT_TSTATES);
                None
            }
            CL_ALL => {
                self.cls();
                let regs = self.cpu.registers();
                regs.set16(Reg16::AF, 0x0044); // A=0, Z and P/V as BIT leaves them
                regs.set16(Reg16::BC, 0x1821);
                regs.set16(Reg16::DE, 0x0000);
                regs.set16(Reg16::HL, 0x4000);
                self.ret(CLS_TSTATES);
                None
            }
            CHAN_OPEN => {
                let a = self.cpu.immutable_registers().a();
                if a != 2 && a != 0xFE {
                    return Some(Stop::Fault(Fault::RomCall { pc }));
                }
                // STR-DATA / CHAN-OP: CURCHL = CHANS + offset − 1; the
                // channel must be the upper screen's.
                let stream = sysvar::STRMS + 2 * u16::from(a.wrapping_add(3));
                let offset = self.peek16(stream);
                let record = self
                    .peek16(sysvar::CHANS)
                    .wrapping_add(offset)
                    .wrapping_sub(1);
                if offset == 0 || record < RAM_START || self.peek(record.wrapping_add(4)) != b'S' {
                    return Some(Stop::Fault(Fault::RomCall { pc }));
                }
                self.poke16(sysvar::CURCHL, record);
                let p_flag = self.peek(sysvar::P_FLAG);
                let tv = self.peek(sysvar::TV_FLAG);
                self.poke(sysvar::TV_FLAG, tv & !1);
                let regs = self.cpu.registers();
                regs.set_a(p_flag);
                regs.set8(Reg8::C, b'S');
                regs.set8(Reg8::D, 0);
                regs.set16(Reg16::HL, sysvar::P_FLAG);
                self.ret(CHAN_OPEN_TSTATES);
                None
            }
            _ => Some(Stop::Fault(Fault::RomCall { pc })),
        }
    }

    /// Clears the screen as CL-ALL does: text, attributes (ATTR_P), print
    /// position home.
    fn cls(&mut self) {
        self.screen = TextScreen::default();
        self.bright.iter_mut().for_each(|b| *b = false);
        self.row = 0;
        self.col = 0;
        self.print = PrintState::Normal;
        self.bright_now = false;
        self.inverse_now = false;
        let attr = self.peek(sysvar::ATTR_P);
        for a in 0x4000..0x5800u16 {
            self.poke(a, 0);
        }
        for a in 0x5800..0x5B00u16 {
            self.poke(a, attr);
        }
        self.poke16(sysvar::S_POSN, 0x1821);
        self.poke16(sysvar::DF_CC, 0x4000);
    }

    /// PRINT-OUT on the upper screen, for one code.
    fn print_code(&mut self, code: u8) {
        match self.print {
            PrintState::Param(ctrl) => {
                self.print = PrintState::Normal;
                match ctrl {
                    19 => self.bright_now = code & 1 != 0,
                    20 => self.inverse_now = code & 1 != 0,
                    _ => {} // INK, PAPER, FLASH, OVER: no text effect
                }
                return;
            }
            PrintState::AtRow => {
                self.print = PrintState::AtCol(code);
                return;
            }
            PrintState::AtCol(row) => {
                self.print = PrintState::Normal;
                // Out of range, the ROM stops with an error; we keep the
                // position (no program of ours does this).
                if usize::from(row) < UPPER_ROWS && usize::from(code) < TextScreen::COLS {
                    self.row = usize::from(row);
                    self.col = usize::from(code);
                }
                return;
            }
            PrintState::Tab1 => {
                self.print = PrintState::Tab2(code);
                return;
            }
            PrintState::Tab2(col) => {
                self.print = PrintState::Normal;
                let target = usize::from(col) % TextScreen::COLS;
                if target < self.col {
                    self.newline();
                }
                self.col = target;
                return;
            }
            PrintState::Normal => {}
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
            16..=21 => self.print = PrintState::Param(code),
            22 => self.print = PrintState::AtRow,
            23 => self.print = PrintState::Tab1,
            32..=126 => self.put(code as char),
            127 => self.put('©'),
            128..=143 => {
                // Block graphics: bit 0 top right, 1 top left, 2 bottom right,
                // 3 bottom left.
                const QUADS: [char; 16] = [
                    ' ', '▝', '▘', '▀', '▗', '▐', '▚', '▜', '▖', '▞', '▌', '▛', '▄', '▟', '▙', '█',
                ];
                self.put(QUADS[usize::from(code - 128)]);
            }
            144..=164 => self.put((b'A' + code - 144) as char), // UDGs, as their letters
            _ => self.put('¿'), // other control codes and keyword tokens
        }
    }

    fn put(&mut self, glyph: char) {
        if self.col >= TextScreen::COLS {
            self.newline();
        }
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
        }
    }
}

impl Default for Spectrum48 {
    fn default() -> Self {
        Spectrum48::new()
    }
}

/// Splits a `.tap` into its blocks (flag byte first, checksum dropped),
/// checking each block's length and XOR checksum.
fn tap_blocks(tape: &[u8]) -> Result<Vec<Vec<u8>>, MachineError> {
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

/// Expands `.z80` compression (`ED ED n b` = n copies of b) to `want` bytes.
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

    /// A machine running `code` at 0x8000 with the stack at 0xFF00.
    fn with_code(code: &[u8]) -> Spectrum48 {
        let mut zx = Spectrum48::new();
        for (i, &b) in code.iter().enumerate() {
            zx.poke(0x8000 + i as u16, b);
        }
        zx.jump(0x8000, 0xFF00);
        zx
    }

    #[test]
    fn rst16_prints_and_keeps_registers() {
        // ld a,'H'; ld bc,$1234; rst 16; ld a,'i'; rst 16; ld a,13; rst 16;
        // ld a,22; rst 16; ld a,5; rst 16; ld a,7; rst 16; ld a,'*'; rst 16;
        // jr $
        let mut zx = with_code(&[
            0x3E, b'H', 0x01, 0x34, 0x12, 0xD7, 0x3E, b'i', 0xD7, 0x3E, 13, 0xD7, 0x3E, 22, 0xD7,
            0x3E, 5, 0xD7, 0x3E, 7, 0xD7, 0x3E, b'*', 0xD7, 0x18, 0xFE,
        ]);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8018 });
        let s = zx.screen();
        assert_eq!(s.row_text(0), "Hi");
        assert_eq!(s.row_text(5), "       *");
        assert_eq!(zx.print_position(), (5, 8));
        let r = zx.regs();
        assert_eq!((r.af >> 8, r.bc, r.sp), (u16::from(b'*'), 0x1234, 0xFF00));
    }

    #[test]
    fn colour_codes_take_one_parameter() {
        // BRIGHT 1, 'a', BRIGHT 0, 'b', INK 13 (parameter not printed), 'c'
        let mut zx = with_code(&[
            0x3E, 19, 0xD7, 0x3E, 1, 0xD7, 0x3E, b'a', 0xD7, 0x3E, 19, 0xD7, 0xAF, 0xD7, 0x3E,
            b'b', 0xD7, 0x3E, 16, 0xD7, 0x3E, 13, 0xD7, 0x3E, b'c', 0xD7, 0x18, 0xFE,
        ]);
        assert!(matches!(zx.run(1_000_000), Stop::Stuck { .. }));
        assert_eq!(zx.screen().row_text(0), "abc");
        assert!(zx.bright(0, 0));
        assert!(!zx.bright(0, 1));
    }

    #[test]
    fn cls_leaves_registers_as_cl_all() {
        // ld a,'x'; rst 16; call $0DAF; jr $
        let mut zx = with_code(&[0x3E, b'x', 0xD7, 0xCD, 0xAF, 0x0D, 0x18, 0xFE]);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8006 });
        let r = zx.regs();
        assert_eq!(r.af >> 8, 0);
        assert_eq!(r.bc, 0x1821);
        assert_eq!(r.de, 0);
        assert_eq!(r.hl & 0xFF, 0, "ChesSkelet needs L=0");
        assert_eq!(r.bc & 0xFF, 0x21, "ChesSkelet needs C=0x21");
        assert_eq!(zx.screen(), TextScreen::default());
        assert_eq!(zx.print_position(), (0, 0));
        assert_eq!(zx.peek(0x5800), 0x38);
    }

    #[test]
    fn chan_open_upper_screen_and_others_reported() {
        let mut zx = with_code(&[0x3E, 2, 0xCD, 0x01, 0x16, 0x18, 0xFE]);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8005 });
        assert_eq!(zx.regs().hl, sysvar::P_FLAG);
        let mut zx = with_code(&[0x3E, 3, 0xCD, 0x01, 0x16, 0x18, 0xFE]);
        assert_eq!(
            zx.run(1_000_000),
            Stop::Fault(Fault::RomCall { pc: CHAN_OPEN })
        );
        let mut zx = with_code(&[0xCD, 0x00, 0x20]);
        assert_eq!(
            zx.run(1_000_000),
            Stop::Fault(Fault::RomCall { pc: 0x2000 })
        );
    }

    #[test]
    fn print_goes_through_the_channel_record() {
        // ld a,2; call CHAN-OPEN; ld a,'x'; rst 16; jr $
        let code = [0x3E, 2, 0xCD, 0x01, 0x16, 0x3E, b'x', 0xD7, 0x18, 0xFE];
        let mut zx = with_code(&code);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8008 });
        assert_eq!(zx.peek16(sysvar::CURCHL), CHANNELS + 5);
        assert_eq!(zx.screen().row_text(0), "x");
        // A stack that ran down over channel S: the ROM would not print.
        let mut zx = with_code(&code);
        zx.poke16(CHANNELS + 5, 0x2236);
        assert_eq!(
            zx.run(1_000_000),
            Stop::Fault(Fault::RomCall { pc: PRINT_A })
        );
    }

    #[test]
    fn interrupt_advances_frames_and_delivers_keys_to_waiting_program() {
        // The ChesSkelet wait loop: ld hl,LAST_K; xor a; ld (hl),a;
        // wait: add a,(hl); jr z,wait; ld ($9000),a; jr $
        let mut zx = with_code(&[
            0x21, 0x08, 0x5C, 0xAF, 0x77, 0x86, 0x28, 0xFD, 0x32, 0x00, 0x90, 0x18, 0xFE,
        ]);
        assert_eq!(zx.run(10_000_000), Stop::WaitingForKey);
        assert_eq!(zx.frames(), 0, "no time passes before the first poll");
        zx.type_keys("e").unwrap();
        assert_eq!(zx.run(10_000_000), Stop::Stuck { pc: 0x800B });
        assert_eq!(zx.peek(0x9000), b'e');
        assert_eq!(zx.frames(), 1);
        assert_eq!(zx.peek(sysvar::FLAGS) & 0x20, 0x20);
        // FRAMES keeps counting with interrupts on.
        let mut zx = with_code(&[0x00, 0x00, 0x18, 0xFC]);
        let _ = zx.run(10 * FRAME_TSTATES + 100);
        assert_eq!(zx.frames(), 10);
        assert_eq!(zx.interrupts(), 10);
        // ... and stops with them off (DI).
        let mut zx = with_code(&[0xF3, 0x00, 0x18, 0xFD]);
        let _ = zx.run(10 * FRAME_TSTATES);
        assert_eq!(zx.frames(), 0);
    }

    #[test]
    fn keys_wait_until_the_program_polls() {
        // Busy for some 22 frames (ld bc,0; dec bc; ld a,b; or c; jr nz),
        // then the wait loop: the key queued before is delivered only after
        // the poll.
        let mut zx = with_code(&[
            0x01, 0x00, 0x00, 0x0B, 0x78, 0xB1, 0x20, 0xFB, 0x21, 0x08, 0x5C, 0xAF, 0x77, 0x86,
            0x28, 0xFD, 0x18, 0xFE,
        ]);
        zx.type_keys("1").unwrap();
        assert_eq!(zx.run(10_000_000), Stop::Stuck { pc: 0x8010 });
        assert_eq!(zx.peek(sysvar::LAST_K), b'1');
        assert!(zx.frames() > 20, "delivered after the busy loop");
        assert!(zx.type_keys("e2é").is_err());
    }

    #[test]
    fn interrupt_mode_2_is_reported_not_panicked() {
        let mut zx = with_code(&[0xED, 0x5E, 0x18, 0xFE - 2]);
        // IM 2; then a loop that is not a jump to itself.
        zx.poke(0x8002, 0x00);
        zx.poke(0x8003, 0x18);
        zx.poke(0x8004, 0xFD);
        assert!(matches!(
            zx.run(2 * FRAME_TSTATES),
            Stop::Fault(Fault::InterruptMode { mode: 2, .. })
        ));
    }

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
