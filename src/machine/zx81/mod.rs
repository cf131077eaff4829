//! A headless Sinclair ZX81 with 1K or 16K of RAM, without its ROM.
//!
//! # Memory map
//! - `0x0000..=0x3FFF` and its echo `0x8000..=0xBFFF`: the 8K ROM. We have no
//!   ROM image. Writes there are ignored, as on the real machine. Reads return
//!   the one ROM table a program we run needs (the unshifted key table at
//!   [`KEY_TABLE`], rebuilt from the keyboard layout) and otherwise stop the
//!   run with [`Fault::RomRead`]. Execution there is one of the ROM routines
//!   of [`rom`] or a [`Fault::RomCall`].
//! - `0x4000..=0x7FFF` and `0xC000..=0xFFFF`: the RAM. The internal 1K at
//!   `0x4000..=0x43FF` decodes only A0–A9 and A14, so every 1K above it is an
//!   echo; we model that (a stray write beyond 0x43FF lands where it would on
//!   the real machine). A 16K RAM pack fills `0x4000..=0x7FFF`. Code runs
//!   only below 0x8000 (above, the ZX81's video hardware takes over the
//!   fetch): execution at `0xC000..` is a [`Fault::Unmapped`].
//!
//! # Time
//! The Z80 runs at 3.25 MHz. In SLOW mode (the mode 1K ZX Chess runs in: its
//! BASIC line 2 is `SLOW`) the CPU spends the 192 picture lines of each 50 Hz
//! frame drawing the screen and runs the user's program only in the top and
//! bottom margins: MARGIN = 55 lines each (the tape's MARGIN system variable,
//! PAL). Each margin line is 207 T-states, of which the line's NMI costs 43
//! (11 to accept it; EX AF,AF' 4, INC A 4, JP M 10, EX AF,AF' 4, RET 10 in the
//! ROM's NMI routine). So user time per frame is 2 × 55 × (207 − 43) =
//! [`USER_TSTATES_PER_FRAME`] = 18,040 T-states, a little over a quarter of
//! the CPU, consistent with the usual "SLOW is about four times slower than
//! FAST". The frame's remaining bookkeeping (VSYNC, the ROM's keyboard scan)
//! happens outside the margins and is not charged. The ROM's display routine
//! decrements FRAMES (0x4034) once per frame; [`FramesMode::Slow`] does the
//! same after every [`USER_TSTATES_PER_FRAME`] T-states of program time.
//! [`FramesMode::Fast`] freezes FRAMES, as FAST mode would (no display, no
//! frame counting).
//!
//! # Interrupts
//! None are delivered: the display's NMIs are folded into the frame model
//! above, and the maskable interrupt only serves the display. A HALT is
//! therefore [`Stop::Halted`](super::Stop::Halted) at once (on the real machine in SLOW mode the
//! next NMI would end it within a scan line; no program of ours halts).

mod keyboard;
mod ram;
pub mod rom;
mod tape;

use std::cell::Cell;
use std::collections::VecDeque;
use std::time::Duration;

use super::cpu::own::Compiled;
#[cfg(feature = "compiled-blocks")]
use super::cpu::own::blocks;
use super::cpu::{Bus, HostWrites, Memory, Regs};
use super::emulator::{Devices, Emulator};
use super::host::{Machine, Model};
use super::{Fault, MachineError, TextScreen};
use crate::rng::SplitMix64;

pub use keyboard::{KEY_TABLE, TypingModel, char_to_code, code_to_cell};
use keyboard::{KeyPress, key_position, key_table_char};
pub use ram::{RAM_START, Ram, sysvar};
pub use rom::{DECODE, KEYBOARD, STORE_BCED};
pub use tape::{TAPE_LOAD, zx_float};

/// Z80 clock of the ZX81.
pub const CLOCK_HZ: u64 = 3_250_000;
/// T-states of user time per 50 Hz frame in SLOW mode (see module docs).
pub const USER_TSTATES_PER_FRAME: u64 = 2 * 55 * (207 - 43);
/// Frames per second (PAL).
pub const FRAMES_PER_SECOND: u64 = 50;

/// How FRAMES moves while the program runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FramesMode {
    /// SLOW mode, as the real machine runs 1K ZX Chess: FRAMES counts down
    /// once per [`USER_TSTATES_PER_FRAME`] of program time.
    #[default]
    Slow,
    /// FAST mode: FRAMES does not move.
    Fast,
}

/// The address space as the CPU sees it: RAM, the ROM's key table, and the
/// record of the last bad access.
#[derive(Clone)]
pub struct Zx81Bus {
    /// Inside the bus, not behind a pointer of its own: a core's run gets
    /// the bus as a `&mut` of its own, so the compiler knows that a write
    /// to RAM changes none of the CPU's registers and keeps them in host
    /// registers across it (behind a `Box`, RAM was reached through a
    /// pointer loaded from the bus, which might have pointed anywhere, and
    /// every write had the registers, the bus's mask and that pointer read
    /// again). 1K ZX Chess's median move in `retrochess bench`: 0.84 ms
    /// against 0.93.
    ///
    /// The Spectrum's 64K stays behind a `Box`: inside its bus, ChesSkelet's
    /// move took 0.058–0.13 ms instead of 0.033 on both cores, `z80emu`'s
    /// too, in every layout tried (a cause this host, without hardware
    /// counters, did not show).
    ram: [u8; 0x4000],
    /// Address bits the RAM decodes.
    mask: u16,
    fault: Cell<Option<Fault>>,
    /// A fault was recorded (read on every instruction: one byte).
    signal: Cell<bool>,
    ignored_rom_writes: u64,
    /// What the host wrote (for the CPU's decoded code).
    host_writes: HostWrites,
}

impl Zx81Bus {
    fn new(ram: Ram) -> Zx81Bus {
        Zx81Bus {
            ram: [0; 0x4000],
            mask: ram.bytes() as u16 - 1,
            fault: Cell::new(None),
            signal: Cell::new(false),
            ignored_rom_writes: 0,
            host_writes: HostWrites::default(),
        }
    }

    /// A write by the host where the CPU would write (a ROM routine
    /// performed in Rust): ROM writes are counted as ignored.
    pub fn store(&mut self, address: u16, value: u8) {
        self.write(address, value);
        self.host_writes.note(self.cell(address));
    }

    /// ROM reads are rare (the key table) and kept off the hot path.
    #[cold]
    #[inline(never)]
    fn read_rom(&self, address: u16) -> u8 {
        let rom = address & 0x3FFF;
        key_table_char(rom).unwrap_or_else(|| {
            if self.fault.get().is_none() {
                self.fault.set(Some(Fault::RomRead { addr: rom, pc: 0 }));
                self.signal.set(true);
            }
            0xFF
        })
    }
}

impl Memory for Zx81Bus {
    fn peek(&self, addr: u16) -> u8 {
        if addr & 0x4000 != 0 {
            self.ram[usize::from(addr & self.mask & 0x3FFF)]
        } else {
            key_table_char(addr & 0x3FFF).unwrap_or(0xFF)
        }
    }

    fn poke(&mut self, addr: u16, value: u8) {
        if addr & 0x4000 != 0 {
            self.ram[usize::from(addr & self.mask & 0x3FFF)] = value;
            self.host_writes.note(self.cell(addr));
        }
    }

    /// One span of host writes for the lot, where the bytes go to RAM
    /// cells one after another (not across the end of the RAM or its
    /// mirror's); byte by byte otherwise.
    fn poke_bytes(&mut self, addr: u16, bytes: &[u8]) {
        let Some(last) = (bytes.len() as u16).checked_sub(1) else {
            return;
        };
        let (first_cell, last_cell) = (self.cell(addr), self.cell(addr.wrapping_add(last)));
        let end = addr.checked_add(last);
        if addr & end.unwrap_or(0) & 0x4000 != 0
            && bytes.len() <= 0x4000
            && last_cell.wrapping_sub(first_cell) == last
        {
            let at = usize::from(first_cell & 0x3FFF);
            self.ram[at..at + bytes.len()].copy_from_slice(bytes);
            self.host_writes.span(first_cell, last_cell);
        } else {
            for (i, &b) in bytes.iter().enumerate() {
                self.poke(addr.wrapping_add(i as u16), b);
            }
        }
    }
}

impl Bus for Zx81Bus {
    #[inline]
    fn read(&self, address: u16) -> u8 {
        if address & 0x4000 != 0 {
            self.ram[usize::from(address & self.mask & 0x3FFF)]
        } else {
            self.read_rom(address)
        }
    }

    #[inline]
    fn write(&mut self, address: u16, value: u8) {
        if address & 0x4000 != 0 {
            self.ram[usize::from(address & self.mask & 0x3FFF)] = value;
        } else {
            self.ignored_rom_writes = self.ignored_rom_writes.wrapping_add(1);
        }
    }

    #[inline]
    fn signalled(&self) -> bool {
        self.signal.get()
    }

    fn take_fault(&mut self) -> Option<Fault> {
        self.signal.set(false);
        self.fault.take()
    }

    fn ram(&self) -> &[u8] {
        &self.ram[..=usize::from(self.mask)]
    }

    fn executable(&self, addr: u16) -> bool {
        addr & 0xC000 == 0x4000
    }

    /// RAM repeats through 0x4000–0x7FFF and 0xC000–0xFFFF.
    #[inline]
    fn cell(&self, addr: u16) -> u16 {
        if addr & 0x4000 != 0 {
            0x4000 | (addr & self.mask & 0x3FFF)
        } else {
            addr
        }
    }

    fn take_host_writes(&mut self) -> HostWrites {
        self.host_writes.take()
    }
}

impl Zx81Bus {
    /// The blocks of the collection's ZX81 programs compiled for our core
    /// on this bus (see [`Compiled`]), by start address: `ZX81`, written
    /// by scripts/own-compiled-blocks, with the `compiled-blocks` feature;
    /// none without it.
    pub fn compiled() -> &'static [Compiled<Zx81Bus>] {
        #[cfg(feature = "compiled-blocks")]
        return ZX81;
        #[cfg(not(feature = "compiled-blocks"))]
        return &[];
    }
}

/// What the ZX81 keeps besides CPU and memory: its frame clock and the
/// person at its keyboard.
pub struct Zx81Devices {
    ram: Ram,
    frames_mode: FramesMode,
    typing: TypingModel,
    rng: SplitMix64,
    /// Machine time of the next FRAMES tick.
    next_frame_at: u64,
    keys: VecDeque<KeyPress>,
}

impl Zx81Devices {
    /// FRAMES for every frame boundary machine time has passed (counted
    /// down once for them all: nothing runs between them).
    fn tick(&mut self, emu: &mut Emulator<Zx81Bus>) {
        let now = emu.tstates();
        if now < self.next_frame_at {
            return;
        }
        let frames = (now - self.next_frame_at) / USER_TSTATES_PER_FRAME + 1;
        self.next_frame_at += frames * USER_TSTATES_PER_FRAME;
        if self.frames_mode == FramesMode::Slow {
            // The ROM counts the low 15 bits down; bit 15 belongs to PAUSE.
            let f = emu.peek16(sysvar::FRAMES);
            let down = f.wrapping_sub(frames as u16);
            emu.poke16(sysvar::FRAMES, (f & 0x8000) | (down & 0x7FFF));
        }
    }

    /// Skips time in which the program only waits.
    fn idle(&mut self, emu: &mut Emulator<Zx81Bus>, tstates: u64) {
        emu.idle(tstates);
        self.tick(emu);
    }

    /// The key held down now, skipping ahead over idle time if the next key
    /// is still to come. `None`: nothing down and nothing scheduled.
    fn key_down(&mut self, emu: &mut Emulator<Zx81Bus>) -> Option<char> {
        let now = emu.tstates();
        while self.keys.front().is_some_and(|k| k.up_at <= now) {
            self.keys.pop_front();
        }
        let next = *self.keys.front()?;
        if next.down_at > now {
            // Polling with no key down changes nothing but time: skip to the
            // moment the key goes down.
            self.idle(emu, next.down_at - now);
        }
        Some(next.key)
    }
}

/// An emulated ZX81 with a program loaded: a [`Machine`] of the ZX81's
/// devices. Its memory, registers, clock, watches and traps are those of
/// the [`Emulator`] it dereferences to (`peek`, `poke`, `regs`, `pc`,
/// `jump`, `push`, `tstates`, `watch`, `trap`...); running it goes through
/// [`Machine::run`], [`Machine::run_to`] and [`Machine::call`].
pub type Zx81 = Machine<Zx81Bus, Zx81Devices>;

impl Model<Zx81Bus> for Zx81Devices {
    fn name(&self) -> &'static str {
        "ZX81"
    }

    /// A seeded thinking time, then each key held and released in turn,
    /// timed by the [`TypingModel`]. Characters are ZX81 keys (`A`–`Z`,
    /// `0`–`9`, space, `.`, `\n` for NEWLINE).
    fn type_keys(&mut self, emu: &mut Emulator<Zx81Bus>, keys: &str) -> Result<(), char> {
        if let Some(bad) = keys
            .chars()
            .find(|&k| k == '\u{1}' || key_position(k).is_none())
        {
            return Err(bad);
        }
        let now = emu.tstates();
        let (think, hold, gap) = (self.typing.think, self.typing.hold, self.typing.gap);
        let mut at = self.keys.back().map_or(now, |k| k.up_at).max(now)
            + self.rng.range(think.0, think.1) * USER_TSTATES_PER_FRAME;
        for key in keys.chars() {
            let held = self.rng.range(hold.0, hold.1) * USER_TSTATES_PER_FRAME;
            self.keys.push_back(KeyPress {
                key,
                down_at: at,
                up_at: at + held,
            });
            at += held + self.rng.range(gap.0, gap.1) * USER_TSTATES_PER_FRAME;
        }
        Ok(())
    }

    /// A seeded number of frames of idle time, so that FRAMES moves as it
    /// would have between two moves.
    fn person_thinks(&mut self, emu: &mut Emulator<Zx81Bus>) {
        let (lo, hi) = self.typing.think;
        let frames = self.rng.range(lo, hi);
        self.idle(emu, frames * USER_TSTATES_PER_FRAME);
    }

    /// The display file (at D_FILE) as the video reads it: 24 lines of 32
    /// codes, collapsed lines padded with spaces (code 0).
    fn display(&self, emu: &Emulator<Zx81Bus>) -> crate::machine::Display {
        let mut codes = Box::new([0u8; 768]);
        let mut addr = emu.peek16(sysvar::D_FILE).wrapping_add(1);
        for row in 0..TextScreen::ROWS {
            for col in 0..=TextScreen::COLS {
                let code = emu.peek(addr);
                addr = addr.wrapping_add(1);
                if code == 0x76 {
                    break;
                }
                if col < TextScreen::COLS {
                    codes[row * TextScreen::COLS + col] = code;
                }
            }
        }
        crate::machine::Display::Zx81 { codes }
    }

    /// The display file (at D_FILE) decoded; collapsed lines (shorter than
    /// 32 characters) are padded with blanks.
    fn screen(&self, emu: &Emulator<Zx81Bus>) -> TextScreen {
        let mut screen = TextScreen::default();
        if let crate::machine::Display::Zx81 { codes } = self.display(emu) {
            for (i, &code) in codes.iter().enumerate() {
                let (row, col) = (i / TextScreen::COLS, i % TextScreen::COLS);
                screen.set(row, col, code_to_cell(code));
            }
        }
        screen
    }

    /// In SLOW mode the program gets [`USER_TSTATES_PER_FRAME`] of each
    /// 50 Hz frame (the rest draws the picture); in FAST mode the whole
    /// [`CLOCK_HZ`].
    fn authentic_time(&self, tstates: u64) -> Duration {
        let per_second = match self.frames_mode {
            FramesMode::Slow => USER_TSTATES_PER_FRAME * FRAMES_PER_SECOND,
            FramesMode::Fast => CLOCK_HZ,
        };
        Duration::from_secs_f64(tstates as f64 / per_second as f64)
    }
}

impl Zx81 {
    /// A ZX81 with `ram` as the ROM leaves it after power-on and `NEW`:
    /// system variables, an empty program, the display file (collapsed to 25
    /// NEWLINEs on 1K; 24 lines of 32 spaces with 16K, where the ROM has
    /// room to expand it), an empty variables area, and the machine stack
    /// under RAMTOP as [`Zx81::load_p`] leaves it.
    pub fn new(ram: Ram, frames_mode: FramesMode, seed: u64) -> Zx81 {
        let mut zx = Zx81::blank(ram, frames_mode, seed);
        let mut at = sysvar::PROGRAM;
        zx.poke16(sysvar::D_FILE, at);
        let line = if ram == Ram::K1 { 0 } else { 32 };
        zx.poke(at, 0x76);
        for _ in 0..24 {
            for _ in 0..line {
                at += 1;
                zx.poke(at, 0x00);
            }
            at += 1;
            zx.poke(at, 0x76);
        }
        zx.poke16(sysvar::VARS, at + 1);
        zx.poke(at + 1, 0x80);
        zx.poke16(sysvar::E_LINE, at + 2);
        zx.after_load();
        zx
    }

    /// Loads a `.p` tape image (the RAM from 0x4009 to E_LINE) into a fresh
    /// 1K machine, as the ROM's LOAD would, with the system variables the
    /// tape does not carry set as the ROM leaves them.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the image cannot be a 1K ZX81 program:
    /// too short to hold the system variables, too long for 1K, a length that
    /// disagrees with its own E_LINE, a missing end marker, or a display file
    /// that is not 25 NEWLINE-terminated lines inside the image.
    pub fn load_p(image: &[u8], frames_mode: FramesMode, seed: u64) -> Result<Zx81, MachineError> {
        Zx81::load_p_into(Ram::K1, image, frames_mode, seed)
    }

    /// [`Zx81::load_p`] on a machine with `ram`.
    ///
    /// # Errors
    /// As [`Zx81::load_p`], with "too long" measured against `ram`.
    pub fn load_p_into(
        ram: Ram,
        image: &[u8],
        frames_mode: FramesMode,
        seed: u64,
    ) -> Result<Zx81, MachineError> {
        tape::validate_p(image, ram)?;
        let mut zx = Zx81::blank(ram, frames_mode, seed);
        zx.load(TAPE_LOAD, image)?;
        zx.after_load();
        Ok(zx)
    }

    /// A machine with zeroed RAM and a CPU as after power-on.
    fn blank(ram: Ram, frames_mode: FramesMode, seed: u64) -> Zx81 {
        Machine {
            emu: Emulator::new(Zx81Bus::new(ram), Zx81Bus::compiled()),
            dev: Zx81Devices {
                ram,
                frames_mode,
                typing: TypingModel::default(),
                rng: SplitMix64::new(seed),
                next_frame_at: USER_TSTATES_PER_FRAME,
                keys: VecDeque::new(),
            },
        }
    }

    /// What the ROM leaves after NEW or LOAD: RAMTOP at the top of RAM, the
    /// GOSUB end marker 0x3E just below it, the machine stack under that
    /// (ERR_SP = RAMTOP − 4), and the CPU as `RAND USR` enters machine code.
    fn after_load(&mut self) {
        let top = self.dev.ram.top();
        self.poke(sysvar::ERR_NR, 0xFF);
        self.poke(sysvar::FLAGS, 0x40);
        self.poke16(sysvar::ERR_SP, top - 4);
        self.poke16(sysvar::RAMTOP, top);
        self.poke(top - 1, 0x3E);
        // The tape autoruns; the few frames between the end of loading and
        // the program's start vary from one loading to the next.
        let frames = self.peek16(sysvar::FRAMES);
        let gap = self.dev.rng.range(0, 255) as u16;
        self.poke16(
            sysvar::FRAMES,
            (frames & 0x8000) | (frames.wrapping_sub(gap) & 0x7FFF),
        );
        // The stack as BASIC leaves it when `RAND USR` calls machine code:
        // the ROM's return addresses (error handler, statement loop, the USR
        // call itself) below the marker. 1K ZX Chess never returns, so only
        // the depth matters: RAMTOP − 8 (0x43F8 on 1K).
        let regs = Regs {
            sp: top - 8,
            iy: 0x4000,
            i: 0x1E,
            ..self.emu.regs()
        };
        self.emu.set_regs(&regs);
    }

    /// Copies `bytes` into RAM from `addr`, as a loader would.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the bytes do not fit in RAM.
    pub fn load(&mut self, addr: u16, bytes: &[u8]) -> Result<(), MachineError> {
        let end = usize::from(addr) + bytes.len();
        if addr < RAM_START || end > usize::from(self.dev.ram.top()) {
            return Err(MachineError::BadTape(format!(
                "{} bytes at 0x{addr:04X} do not fit in the {} of RAM at 0x{RAM_START:04X}",
                bytes.len(),
                self.dev.ram.name()
            )));
        }
        self.poke_bytes(addr, bytes);
        Ok(())
    }

    /// The machine's RAM size.
    pub fn ram(&self) -> Ram {
        self.dev.ram
    }

    pub fn zero_flag(&self) -> bool {
        self.emu.f() & 0x40 != 0
    }

    pub fn frames_mode(&self) -> FramesMode {
        self.dev.frames_mode
    }

    pub fn frames(&self) -> u16 {
        self.peek16(sysvar::FRAMES)
    }

    /// Writes to the ROM area ignored so far (the real machine ignores them too).
    pub fn ignored_rom_writes(&self) -> u64 {
        self.emu.bus().ignored_rom_writes
    }

    /// The value of a numeric BASIC variable with a one-letter name, as the
    /// ROM would compute it from its five-byte floating-point form.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the variables area has no such variable
    /// or has a kind of variable this reader does not know.
    pub fn basic_number(&self, name: char) -> Result<f64, MachineError> {
        tape::basic_number(self.emu.bus(), name)
    }

    /// Replaces the model of a person's typing speed.
    pub fn set_typing(&mut self, typing: TypingModel) {
        self.dev.typing = typing;
    }
}

impl Zx81 {
    /// Runs the program from its current PC and SP on a bare `iz80`
    /// [`iz80::PlainMachine`] holding a copy of the RAM: no traps, no FRAMES,
    /// no watches, nothing between instructions but a halt check. The
    /// keyboard routine is replaced by a HALT and the 0x0724 tail by the eight
    /// instructions the seed lists for it. Returns the T-states run and the
    /// host time, the yardstick for what the harness costs (`bench`).
    pub fn bare_run(&mut self, max_instructions: u64) -> (u64, std::time::Duration) {
        use iz80::Machine;
        let mut plain = iz80::PlainMachine::new();
        for i in 0..self.dev.ram.bytes() as u16 {
            plain.poke(RAM_START + i, self.peek(RAM_START + i));
        }
        plain.poke(KEYBOARD, 0x76);
        // ld (hl),b; dec hl; ld (hl),c; dec hl; ld (hl),e; dec hl; ld (hl),d; ret
        for (i, b) in [0x70, 0x2B, 0x71, 0x2B, 0x73, 0x2B, 0x72, 0xC9]
            .into_iter()
            .enumerate()
        {
            plain.poke(STORE_BCED + i as u16, b);
        }
        let mut cpu = iz80::Cpu::new_z80();
        cpu.registers().set_pc(self.pc());
        cpu.registers().set16(iz80::Reg16::SP, self.sp());
        let start = std::time::Instant::now();
        let mut n = 0;
        while !cpu.is_halted() && n < max_instructions {
            cpu.execute_instruction(&mut plain);
            n += 1;
        }
        (cpu.cycle_count(), start.elapsed())
    }
}

// The blocks our core runs compiled ahead of time on this bus
// (`ZX81` and the function that runs them; see
// `machine::cpu::own::compiled`), written by scripts/own-compiled-blocks:
// built with the `compiled-blocks` feature (Cargo.toml).
#[cfg(feature = "compiled-blocks")]
include!("compiled_blocks.rs");

#[cfg(test)]
mod tests {
    use super::*;

    /// What a bus has noted as written since it was made (not counting
    /// the "everything" a new bus starts with).
    fn written(bus: &mut Zx81Bus) -> Vec<(u16, u16)> {
        bus.take_host_writes().spans().to_vec()
    }

    #[test]
    fn bytes_written_in_one_go_are_one_span_of_host_writes() {
        let mut bus = Zx81Bus::new(Ram::K16);
        let _ = written(&mut bus);
        let bytes: Vec<u8> = (1..=72).collect();
        bus.poke_bytes(0x4400, &bytes);
        assert_eq!(written(&mut bus), [(0x4400, 0x4447)]);
        for (i, &b) in bytes.iter().enumerate() {
            assert_eq!(bus.peek(0x4400 + i as u16), b);
        }
        // Through the 16K's mirror above 0xC000: the same cells.
        bus.poke_bytes(0xC400, &[9, 8]);
        assert_eq!(written(&mut bus), [(0x4400, 0x4401)]);
        assert_eq!((bus.peek(0x4400), bus.peek(0x4401)), (9, 8));
        bus.poke_bytes(0x4000, &[]);
        assert_eq!(written(&mut bus), []);
    }

    #[test]
    fn bytes_written_across_the_end_of_the_ram_go_byte_by_byte() {
        // The 1K repeats every 1K: 0x43FF and 0x4400 are its last and
        // first cells.
        let mut bus = Zx81Bus::new(Ram::K1);
        let _ = written(&mut bus);
        bus.poke_bytes(0x43FE, &[1, 2, 3, 4]);
        assert_eq!(
            (0x43FE..=0x4401).map(|a| bus.peek(a)).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(
            (bus.peek(0x4000), bus.peek(0x4001)),
            (3, 4),
            "0x4400 and 0x4401 are 0x4000 and 0x4001"
        );
        let spans = written(&mut bus);
        for cell in [0x4000, 0x4001, 0x43FE, 0x43FF] {
            assert!(
                spans.iter().any(|&(lo, hi)| lo <= cell && cell <= hi),
                "{cell:04X} not noted in {spans:04X?}"
            );
        }
        // Into the ROM and past the top of the address space: ROM writes
        // are ignored, RAM ones made.
        bus.poke_bytes(0x3FFF, &[5, 6]);
        assert_eq!(bus.peek(0x4000), 6);
        let mut big = Zx81Bus::new(Ram::K16);
        big.poke_bytes(0xFFFF, &[7, 8]);
        assert_eq!((big.peek(0xFFFF), big.peek(0x0000)), (7, 0xFF));
        big.poke_bytes(0x7FFF, &[1, 2]);
        assert_eq!((big.peek(0x7FFF), big.peek(0x8000)), (1, 0xFF));
    }
}
