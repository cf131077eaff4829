//! A headless Sinclair ZX81 with 1K of RAM, built on `iz80`, without its ROM.
//!
//! # Memory map (1K machine)
//! - `0x0000..=0x3FFF` and its echo `0x8000..=0xBFFF`: the 8K ROM. We have no
//!   ROM image. Writes there are ignored, as on the real machine. Reads return
//!   the one ROM table a program we run needs (the unshifted key table at
//!   [`KEY_TABLE`], rebuilt from the keyboard layout) and otherwise stop the
//!   run with [`Fault::RomRead`].
//! - `0x4000..=0x7FFF` and `0xC000..=0xFFFF`: the 1K of RAM at
//!   `0x4000..=0x43FF`. The internal RAM decodes only A0–A9 and A14, so every
//!   1K above it is an echo; we model that (a stray write beyond 0x43FF lands
//!   where it would on the real machine).
//!
//! # ROM entry points, emulated at high level
//! A run that reaches one of these addresses does what the ROM routine does,
//! charges the T-states the routine would take, and returns (`RET`). Facts are
//! from the ZX81 ROM as described in seed 000 (disassembly of 1K ZX Chess,
//! routine TKP and SCORE) and the ZX81 keyboard layout:
//! - [`KEYBOARD`] (0x02BB, "KEYBOARD SCANNING"): returns in HL the key that is
//!   down, or L=0xFF for none.
//! - [`DECODE`] (0x07BD, "KEYBOARD DECODE"): turns the HL of KEYBOARD (passed
//!   in BC) into HL pointing at the key's character code in the key table.
//! - [`STORE_BCED`] (0x0724, the tail of the NEWLINE key routine): stores B,
//!   C, E, D downwards from (HL), leaving HL three lower.
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

use std::collections::VecDeque;

use iz80::{Cpu, Machine};

use super::{Cell, Fault, MachineError, SplitMix64, Stop, TextScreen, Watches};

/// ROM "KEYBOARD SCANNING".
pub const KEYBOARD: u16 = 0x02BB;
/// ROM "KEYBOARD DECODE".
pub const DECODE: u16 = 0x07BD;
/// ROM 0x0724, tail of the NEWLINE key routine: `ld (hl),b; dec hl; ld (hl),c;
/// dec hl; ld (hl),e; dec hl; ld (hl),d; ret` (seed 000, routine SCORE).
pub const STORE_BCED: u16 = 0x0724;
/// ROM address of the unshifted key table (K-UNSHIFT) that DECODE points into.
pub const KEY_TABLE: u16 = 0x007E;

/// First byte of RAM.
pub const RAM_START: u16 = 0x4000;
/// Size of the internal RAM.
pub const RAM_SIZE: usize = 1024;
/// A `.p` tape image is the RAM from VERSN (0x4009) up to E_LINE.
pub const TAPE_LOAD: u16 = 0x4009;

/// System variables used here (ZX81 manual, chapter 28).
pub mod sysvar {
    pub const ERR_NR: u16 = 0x4000;
    pub const FLAGS: u16 = 0x4001;
    pub const ERR_SP: u16 = 0x4002;
    pub const RAMTOP: u16 = 0x4004;
    pub const D_FILE: u16 = 0x400C;
    pub const VARS: u16 = 0x4010;
    pub const E_LINE: u16 = 0x4014;
    pub const FRAMES: u16 = 0x4034;
    /// Start of the BASIC program, just after the system variables.
    pub const PROGRAM: u16 = 0x407D;
}

/// Z80 clock of the ZX81.
pub const CLOCK_HZ: u64 = 3_250_000;
/// T-states of user time per 50 Hz frame in SLOW mode (see module docs).
pub const USER_TSTATES_PER_FRAME: u64 = 2 * 55 * (207 - 43);
/// Frames per second (PAL).
pub const FRAMES_PER_SECOND: u64 = 50;

/// T-states of the trapped routines, counted from their instructions
/// (including the final RET; the caller's CALL is executed by the CPU).
const KEYBOARD_TSTATES: u64 = 712;
const STORE_BCED_TSTATES: u64 = 56;

/// Keyboard matrix, half-row by half-row (port A8..A15 low), bit 0 first.
/// `\u{1}` marks SHIFT, `\n` NEWLINE.
const MATRIX: [&str; 8] = [
    "\u{1}ZXCV",
    "ASDFG",
    "QWERT",
    "12345",
    "09876",
    "POIUY",
    "\nLKJH",
    " .MNB",
];

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

/// How long a person takes at the keyboard, in frames (drawn from the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypingModel {
    /// Thinking before the first key of a group.
    pub think: (u64, u64),
    /// How long a key is held down.
    pub hold: (u64, u64),
    /// Pause between releasing a key and pressing the next.
    pub gap: (u64, u64),
}

impl Default for TypingModel {
    /// 2–8 s to think, keys held 0.1–0.2 s, 0.16–0.5 s between keys.
    fn default() -> Self {
        TypingModel {
            think: (100, 400),
            hold: (5, 10),
            gap: (8, 25),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct KeyPress {
    key: char,
    down_at: u64,
    up_at: u64,
}

/// The address space: RAM, and the record of the last bad access.
struct Bus {
    ram: [u8; RAM_SIZE],
    /// A bad access by the instruction running; its PC is filled in by the
    /// run loop.
    fault: Option<Fault>,
    ignored_rom_writes: u64,
}

impl Machine for Bus {
    #[inline]
    fn peek(&mut self, address: u16) -> u8 {
        if address & 0x4000 != 0 {
            self.ram[(address & 0x3FF) as usize]
        } else {
            self.peek_rom(address)
        }
    }

    #[inline]
    fn poke(&mut self, address: u16, value: u8) {
        if address & 0x4000 != 0 {
            self.ram[(address & 0x3FF) as usize] = value;
        } else {
            self.ignored_rom_writes = self.ignored_rom_writes.wrapping_add(1);
        }
    }

    fn port_in(&mut self, _address: u16) -> u8 {
        0xFF
    }

    fn port_out(&mut self, _address: u16, _value: u8) {}
}

impl Bus {
    /// ROM reads are rare (the key table) and kept off the hot path.
    #[cold]
    #[inline(never)]
    fn peek_rom(&mut self, address: u16) -> u8 {
        let rom = address & 0x3FFF;
        match key_table_char(rom) {
            Some(code) => code,
            None => {
                self.fault
                    .get_or_insert(Fault::RomRead { addr: rom, pc: 0 });
                0xFF
            }
        }
    }
}

/// The character code of the key table entry at ROM address `rom`, if any.
fn key_table_char(rom: u16) -> Option<u8> {
    let index = rom.checked_sub(KEY_TABLE)? as usize;
    // Row 0 has 4 keys (its first position is SHIFT), the others 5.
    let (row, col) = if index < 4 {
        (0, index + 1)
    } else {
        ((index + 1) / 5, (index + 1) % 5)
    };
    let ch = MATRIX.get(row)?.chars().nth(col)?;
    char_to_code(ch)
}

/// Half-row and column of a key.
fn key_position(key: char) -> Option<(u8, u8)> {
    MATRIX.iter().enumerate().find_map(|(row, keys)| {
        keys.chars()
            .position(|k| k == key)
            .map(|col| (row as u8, col as u8))
    })
}

/// The ZX81 character code of an ASCII character (upper case, digits, the
/// punctuation of the keyboard), `\n` giving NEWLINE (0x76).
pub fn char_to_code(ch: char) -> Option<u8> {
    Some(match ch {
        ' ' => 0x00,
        '"' => 0x0B,
        '£' => 0x0C,
        '$' => 0x0D,
        ':' => 0x0E,
        '?' => 0x0F,
        '(' => 0x10,
        ')' => 0x11,
        '>' => 0x12,
        '<' => 0x13,
        '=' => 0x14,
        '+' => 0x15,
        '-' => 0x16,
        '*' => 0x17,
        '/' => 0x18,
        ';' => 0x19,
        ',' => 0x1A,
        '.' => 0x1B,
        '0'..='9' => 0x1C + (ch as u8 - b'0'),
        'A'..='Z' => 0x26 + (ch as u8 - b'A'),
        '\n' => 0x76,
        _ => return None,
    })
}

/// A screen cell for a ZX81 character code (bit 7: inverse video).
pub fn code_to_cell(code: u8) -> Cell {
    const GRAPHICS: [char; 11] = [' ', '▘', '▝', '▀', '▖', '▌', '▞', '▛', '▒', '▄', '▀'];
    const PUNCT: &str = "\"£$:?()><=+-*/;,.";
    let inverse = code & 0x80 != 0;
    let c = code & 0x7F;
    let glyph = match c {
        0x00..=0x0A => GRAPHICS[c as usize],
        0x0B..=0x1B => PUNCT.chars().nth((c - 0x0B) as usize).unwrap_or('?'),
        0x1C..=0x25 => (b'0' + c - 0x1C) as char,
        0x26..=0x3F => (b'A' + c - 0x26) as char,
        // Keyword tokens and control codes never appear in a display file.
        _ => '¿',
    };
    Cell { glyph, inverse }
}

/// An emulated 1K ZX81 with a program loaded.
pub struct Zx81 {
    cpu: Cpu,
    bus: Bus,
    frames_mode: FramesMode,
    typing: TypingModel,
    rng: SplitMix64,
    /// T-states not executed by the CPU: trapped ROM routines and time skipped
    /// while the program idles waiting for a key.
    extra_tstates: u64,
    /// T-states skipped (the person thinking), part of `extra_tstates`.
    idle_tstates: u64,
    next_frame_at: u64,
    keys: VecDeque<KeyPress>,
    watches: Watches,
}

impl Zx81 {
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
        validate_p(image)?;
        let mut bus = Bus {
            ram: [0; RAM_SIZE],
            fault: None,
            ignored_rom_writes: 0,
        };
        let base = (TAPE_LOAD - RAM_START) as usize;
        bus.ram[base..base + image.len()].copy_from_slice(image);
        let mut zx = Zx81 {
            cpu: Cpu::new_z80(),
            bus,
            frames_mode,
            typing: TypingModel::default(),
            rng: SplitMix64::new(seed),
            extra_tstates: 0,
            idle_tstates: 0,
            next_frame_at: USER_TSTATES_PER_FRAME,
            keys: VecDeque::new(),
            watches: Watches::default(),
        };
        // What the ROM leaves behind after NEW/LOAD on a 1K machine: RAMTOP
        // at the top of RAM, the GOSUB end marker 0x3E just below it, the
        // machine stack under that (SP = RAMTOP - 2), ERR_SP two lower.
        zx.poke(sysvar::ERR_NR, 0xFF);
        zx.poke(sysvar::FLAGS, 0x40);
        zx.poke16(sysvar::ERR_SP, 0x43FC);
        zx.poke16(sysvar::RAMTOP, 0x4400);
        zx.poke(0x43FF, 0x3E);
        // The tape autoruns; the few frames between the end of loading and
        // the program's start vary from one loading to the next.
        let frames = zx.peek16(sysvar::FRAMES);
        let gap = zx.rng.range(0, 255) as u16;
        zx.poke16(
            sysvar::FRAMES,
            (frames & 0x8000) | (frames.wrapping_sub(gap) & 0x7FFF),
        );
        let regs = zx.cpu.registers();
        // The stack as BASIC leaves it when `RAND USR` calls machine code: the
        // ROM's return addresses (error handler, statement loop, the USR call
        // itself) below the marker. The program never returns, so only the
        // depth matters: 0x43F8 leaves 62 bytes above the tape's end.
        regs.set16(iz80::Reg16::SP, 0x43F8);
        regs.set16(iz80::Reg16::IY, 0x4000);
        regs.set8(iz80::Reg8::I, 0x1E);
        Ok(zx)
    }

    pub fn peek(&mut self, addr: u16) -> u8 {
        self.bus.ram[(addr & 0x3FF) as usize]
    }

    pub fn peek16(&mut self, addr: u16) -> u16 {
        u16::from_le_bytes([self.peek(addr), self.peek(addr.wrapping_add(1))])
    }

    /// Writes RAM (addresses are taken modulo the 1K, as the hardware does).
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.bus.ram[(addr & 0x3FF) as usize] = value;
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
        self.cpu.immutable_registers().get16(iz80::Reg16::SP)
    }

    pub fn zero_flag(&self) -> bool {
        self.cpu.immutable_registers().get_flag(iz80::Flag::Z)
    }

    /// Continue execution at `pc` with the stack pointer at `sp`.
    pub fn jump(&mut self, pc: u16, sp: u16) {
        let regs = self.cpu.registers();
        regs.set_pc(pc);
        regs.set16(iz80::Reg16::SP, sp);
    }

    /// Pushes a return address, as a CALL would.
    pub fn push(&mut self, value: u16) {
        let sp = self.sp().wrapping_sub(2);
        self.poke16(sp, value);
        self.cpu.registers().set16(iz80::Reg16::SP, sp);
    }

    /// Emulated T-states since power-on, trapped routines and idle time
    /// included.
    pub fn tstates(&self) -> u64 {
        self.cpu.cycle_count() + self.extra_tstates
    }

    /// T-states the CPU or a trapped routine actually ran (idle time skipped
    /// while waiting for a key excluded).
    pub fn busy_tstates(&self) -> u64 {
        self.tstates() - self.idle_tstates
    }

    pub fn frames_mode(&self) -> FramesMode {
        self.frames_mode
    }

    pub fn frames(&mut self) -> u16 {
        self.peek16(sysvar::FRAMES)
    }

    /// Writes to the ROM area ignored so far (the real machine ignores them too).
    pub fn ignored_rom_writes(&self) -> u64 {
        self.bus.ignored_rom_writes
    }

    /// The value of a numeric BASIC variable with a one-letter name, as the
    /// ROM would compute it from its five-byte floating-point form.
    ///
    /// # Errors
    /// [`MachineError::BadTape`] if the variables area has no such variable
    /// or has a kind of variable this reader does not know.
    pub fn basic_number(&mut self, name: char) -> Result<f64, MachineError> {
        let want = char_to_code(name)
            .filter(|c| (0x26..=0x3F).contains(c))
            .ok_or_else(|| MachineError::BadTape(format!("not a variable name: {name:?}")))?;
        let mut addr = self.peek16(sysvar::VARS);
        let end = self.peek16(sysvar::E_LINE);
        while addr < end {
            let head = self.peek(addr);
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
                let b: Vec<u8> = (1..=5).map(|i| self.peek(addr + i)).collect();
                return Ok(zx_float(&b));
            }
            addr += 6;
        }
        Err(MachineError::BadTape(format!(
            "no BASIC variable {name} on the tape"
        )))
    }

    /// Decodes the display file (at D_FILE) into a text screen. Collapsed
    /// lines (shorter than 32 characters) are padded with blanks.
    pub fn screen(&mut self) -> TextScreen {
        let mut screen = TextScreen::default();
        let mut addr = self.peek16(sysvar::D_FILE).wrapping_add(1);
        for row in 0..TextScreen::ROWS {
            for col in 0..=TextScreen::COLS {
                let code = self.peek(addr);
                addr = addr.wrapping_add(1);
                if code == 0x76 {
                    break;
                }
                screen.set(row, col, code_to_cell(code));
            }
        }
        screen
    }

    /// Replaces the model of a person's typing speed.
    pub fn set_typing(&mut self, typing: TypingModel) {
        self.typing = typing;
    }

    /// Lets a person think (a seeded number of frames) before anything else;
    /// used when a position is set up instead of typed, so that FRAMES moves
    /// as it would have between two moves.
    pub fn person_thinks(&mut self) {
        let frames = self.rng.range(self.typing.think.0, self.typing.think.1);
        self.idle(frames * USER_TSTATES_PER_FRAME);
    }

    /// Schedules keys as a person types them: a seeded thinking time, then
    /// each key held and released in turn. Characters are ZX81 keys (`A`–`Z`,
    /// `0`–`9`, space, `.`, `\n` for NEWLINE).
    ///
    /// # Errors
    /// The first character that is not a key of the ZX81.
    pub fn type_keys(&mut self, keys: &str) -> Result<(), char> {
        if let Some(bad) = keys
            .chars()
            .find(|&k| k == '\u{1}' || key_position(k).is_none())
        {
            return Err(bad);
        }
        let t = &self.typing;
        let (think, hold, gap) = (t.think, t.hold, t.gap);
        let mut at = self
            .keys
            .back()
            .map_or(self.tstates(), |k| k.up_at)
            .max(self.tstates())
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
    /// when execution is about to run the instruction at `breakpoint` (not
    /// counting the instruction it starts at).
    pub fn run_to(&mut self, budget: u64, breakpoint: Option<u16>) -> Stop {
        let limit = self.busy_tstates().saturating_add(budget);
        // Addresses that need a look before they run are marked in a 1K map,
        // so the common case costs one load per instruction.
        let mut marks = [0u8; RAM_SIZE];
        for addr in self.watches.addrs() {
            marks[(addr & 0x3FF) as usize] = 1;
        }
        if let Some(bp) = breakpoint {
            marks[(bp & 0x3FF) as usize] = 1;
        }
        let mut first = true;
        // Frame ticks, the budget and the self-jump test happen once per
        // frame of emulated time, when the CPU's own cycle counter passes
        // this mark (a jump to itself is still caught: it is the last
        // instruction run before the tick).
        let mut tick_at = self.next_frame_at - self.extra_tstates;
        loop {
            let pc = self.pc();
            if pc & 0xC000 != 0x4000 {
                if let Some(stop) = self.trap(pc) {
                    return stop;
                }
                if self.busy_tstates() >= limit {
                    return Stop::BudgetExhausted { pc: self.pc() };
                }
                tick_at = self.next_frame_at - self.extra_tstates;
                continue;
            }
            if marks[(pc & 0x3FF) as usize] != 0 {
                if Some(pc) == breakpoint && !first {
                    return Stop::Breakpoint { pc };
                }
                self.watches.visit(pc);
            }
            first = false;
            self.cpu.execute_instruction(&mut self.bus);
            if self.bus.fault.is_some() {
                return Stop::Fault(self.bus.fault.take().map_or(
                    Fault::Unmapped { pc },
                    |f| match f {
                        Fault::RomRead { addr, .. } => Fault::RomRead { addr, pc },
                        other => other,
                    },
                ));
            }
            if self.cpu.cycle_count() >= tick_at {
                let now = self.tstates();
                self.tick_frames(now);
                tick_at = self.next_frame_at - self.extra_tstates;
                if self.pc() == pc && self.jumps_to_itself(pc) {
                    return Stop::Stuck { pc };
                }
                if now - self.idle_tstates >= limit {
                    return Stop::BudgetExhausted { pc: self.pc() };
                }
            }
        }
    }

    /// Is the instruction at `pc` (which just left PC unchanged) a jump to
    /// itself, or a HALT that nothing will end (we deliver no interrupts)?
    fn jumps_to_itself(&mut self, pc: u16) -> bool {
        if self.cpu.is_halted() {
            return true;
        }
        let op = self.peek(pc);
        matches!(
            op,
            0xC3 | 0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA
        ) || (matches!(op, 0x18 | 0x20 | 0x28 | 0x30 | 0x38) && self.peek(pc + 1) == 0xFE)
    }

    fn idle(&mut self, tstates: u64) {
        self.extra_tstates += tstates;
        self.idle_tstates += tstates;
        let now = self.tstates();
        self.tick_frames(now);
    }

    fn tick_frames(&mut self, now: u64) {
        while now >= self.next_frame_at {
            self.next_frame_at += USER_TSTATES_PER_FRAME;
            if self.frames_mode == FramesMode::Slow {
                // The ROM counts the low 15 bits down; bit 15 belongs to PAUSE.
                let f = self.frames();
                self.poke16(sysvar::FRAMES, (f & 0x8000) | (f.wrapping_sub(1) & 0x7FFF));
            }
        }
    }

    fn ret(&mut self, tstates: u64) {
        let sp = self.sp();
        let to = self.peek16(sp);
        let regs = self.cpu.registers();
        regs.set16(iz80::Reg16::SP, sp.wrapping_add(2));
        regs.set_pc(to);
        self.extra_tstates += tstates;
        let now = self.tstates();
        if now >= self.next_frame_at {
            self.tick_frames(now);
        }
    }

    /// The key held down now, skipping ahead over idle time if the next key
    /// is still to come. `None`: nothing down and nothing scheduled.
    fn key_down(&mut self) -> Option<char> {
        let now = self.tstates();
        while self.keys.front().is_some_and(|k| k.up_at <= now) {
            self.keys.pop_front();
        }
        let next = *self.keys.front()?;
        if next.down_at > now {
            // Polling with no key down changes nothing but time: skip to the
            // moment the key goes down.
            self.idle(next.down_at - now);
        }
        Some(next.key)
    }

    /// Performs the ROM routine at `pc`, or names why it cannot.
    fn trap(&mut self, pc: u16) -> Option<Stop> {
        match pc {
            KEYBOARD => {
                let Some(key) = self.key_down() else {
                    return Some(Stop::WaitingForKey);
                };
                // Position of the key: half-row `row` has its select bit low
                // in L; column `col` is a low bit in H, shifted left once with
                // the SHIFT key's state (high: not pressed) in bit 0.
                let (row, col) = key_position(key).unwrap_or((0, 0));
                let l = !(1u8 << row);
                let h = ((0xE0 | (0x1F & !(1u8 << col))) << 1) | 1;
                let regs = self.cpu.registers();
                regs.set16(iz80::Reg16::HL, u16::from_be_bytes([h, l]));
                regs.set16(iz80::Reg16::BC, 0xFEFE);
                self.ret(KEYBOARD_TSTATES);
                None
            }
            DECODE => {
                let regs = self.cpu.registers();
                let bc = regs.get16(iz80::Reg16::BC);
                let [b, c] = bc.to_be_bytes();
                let row = (!c).trailing_zeros() as u16;
                let col = ((!b >> 1) & 0x1F).trailing_zeros() as u16;
                let shifted = b & 1 == 0;
                // Entries run half-row by half-row, 5 per row, less SHIFT.
                // (A pattern that is not one key points outside the table, and
                // the caller's read of it is then reported as a ROM read.)
                let index =
                    (5 * row + col)
                        .wrapping_sub(1)
                        .wrapping_add(if shifted { 39 } else { 0 });
                regs.set16(iz80::Reg16::HL, KEY_TABLE.wrapping_add(index));
                regs.set16(iz80::Reg16::DE, index & 0xFF);
                regs.set_flag(iz80::Flag::C);
                // Two bit-search loops of 28 T-states per step plus ~130 fixed.
                let tstates = 130 + 28 * (u64::from(row) + u64::from(col) + 2);
                self.ret(tstates);
                None
            }
            STORE_BCED => {
                let regs = self.cpu.registers();
                let mut hl = regs.get16(iz80::Reg16::HL);
                let [b, c] = regs.get16(iz80::Reg16::BC).to_be_bytes();
                let [d, e] = regs.get16(iz80::Reg16::DE).to_be_bytes();
                for v in [b, c, e] {
                    self.bus.poke(hl, v);
                    hl = hl.wrapping_sub(1);
                }
                self.bus.poke(hl, d);
                self.cpu.registers().set16(iz80::Reg16::HL, hl);
                self.ret(STORE_BCED_TSTATES);
                None
            }
            _ if pc & 0x4000 == 0 => Some(Stop::Fault(Fault::RomCall { pc })),
            _ => Some(Stop::Fault(Fault::Unmapped { pc })),
        }
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
        let mut plain = iz80::PlainMachine::new();
        for (i, &b) in self.bus.ram.iter().enumerate() {
            plain.poke(RAM_START + i as u16, b);
        }
        plain.poke(KEYBOARD, 0x76);
        // ld (hl),b; dec hl; ld (hl),c; dec hl; ld (hl),e; dec hl; ld (hl),d; ret
        for (i, b) in [0x70, 0x2B, 0x71, 0x2B, 0x73, 0x2B, 0x72, 0xC9]
            .into_iter()
            .enumerate()
        {
            plain.poke(STORE_BCED + i as u16, b);
        }
        let mut cpu = Cpu::new_z80();
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

/// Checks that `image` can be a `.p` tape for a 1K ZX81.
fn validate_p(image: &[u8]) -> Result<(), MachineError> {
    let bad = |why: String| Err(MachineError::BadTape(why));
    let sysvars_len = (sysvar::PROGRAM - TAPE_LOAD) as usize;
    let room = RAM_SIZE - (TAPE_LOAD - RAM_START) as usize;
    if image.len() <= sysvars_len {
        return bad(format!(
            "tape too short: {} bytes, the system variables alone take {sysvars_len}",
            image.len()
        ));
    }
    if image.len() > room {
        return bad(format!(
            "tape too long for a 1K ZX81: {} bytes, at most {room}",
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

    #[test]
    fn key_table_is_the_keyboard_layout() {
        assert_eq!(key_table_char(KEY_TABLE), char_to_code('Z'));
        assert_eq!(key_table_char(KEY_TABLE + 4), char_to_code('A'));
        assert_eq!(key_table_char(KEY_TABLE + 14), char_to_code('1'));
        assert_eq!(key_table_char(KEY_TABLE + 29), char_to_code('\n'));
        assert_eq!(key_table_char(KEY_TABLE + 38), char_to_code('B'));
        assert_eq!(key_table_char(KEY_TABLE + 39), None);
        assert_eq!(key_table_char(KEY_TABLE - 1), None);
    }

    #[test]
    fn charset_round_trips() {
        for ch in "ABCXYZ0189.,;$".chars() {
            let code = char_to_code(ch).unwrap();
            assert_eq!(
                code_to_cell(code),
                Cell {
                    glyph: ch,
                    inverse: false
                }
            );
            assert_eq!(
                code_to_cell(code | 0x80),
                Cell {
                    glyph: ch,
                    inverse: true
                }
            );
        }
        assert_eq!(code_to_cell(0x08).glyph, '▒');
        assert_eq!(
            code_to_cell(0x80),
            Cell {
                glyph: ' ',
                inverse: true
            }
        );
    }
}
