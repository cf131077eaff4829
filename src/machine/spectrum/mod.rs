//! A headless 48K ZX Spectrum without its ROM.
//!
//! # Memory map
//! - `0x0000..=0x3FFF`: the 16K ROM. We have no ROM image: writes are
//!   ignored (as on the real machine), a data read stops the run with
//!   [`Fault::RomRead`], and execution there is one of the routines of
//!   [`rom`] or a [`Fault::RomCall`].
//! - `0x4000..=0xFFFF`: 48K of RAM (display file at 0x4000, attributes at
//!   0x5800, system variables at 0x5C00, BASIC from 0x5CCB).
//!
//! # The interrupt
//! Every [`FRAME_TSTATES`] the ULA interrupts the CPU; in mode 1 the ROM's
//! handler advances the 3-byte FRAMES (23672) and runs KEYBOARD, which puts
//! a newly pressed key's code into LAST_K (23560) and sets bit 5 of FLAGS
//! (23611). Here a key typed with [`Spectrum48::type_keys`] is delivered by
//! one interrupt, one key per interrupt, and only once the program has read
//! LAST_K as 0 since the previous key (it waits; ChesSkelet clears LAST_K
//! before it polls, so a key delivered earlier would be lost). The interrupt
//! is taken by the CPU (return address pushed, IFF cleared) and the
//! handler's closing `EI; RET` is fed to it from the ROM's address. A HALT
//! waits for it; with interrupts off (or in a mode other than 1) a HALT is
//! [`Stop::Halted`] at once.
//!
//! The memory map (ROM entry points, RAM, system variables) is in
//! `memory_map.rs`, the bus the CPU sees in `bus.rs` ([`SpectrumBus`]), the
//! ROM routines in [`rom`], `RST 16` printing in [`print`], tapes in
//! [`tap`], snapshots in [`snapshot`], loading by format in `load.rs`
//! ([`Spectrum48::load`]).
//!
//! The display file and attributes hold what the print trap drew there
//! ([`display`], with our own character set: the ROM's patterns are not
//! used); the text screen is kept beside them. Not emulated: the lower screen, sound, tape signals, and the contention of
//! the lower 16K of RAM by the ULA (code and data there run at full speed).

mod bus;
pub mod display;
mod load;
mod memory_map;
pub mod print;
pub mod rom;
pub mod snapshot;
pub mod tap;

use std::collections::VecDeque;
use std::time::Duration;

use super::cpu::{Bus, Memory};
use super::emulator::{Devices, Emulator};
use super::host::{Machine, Model};
use super::{Fault, Stop, TextScreen};

pub use super::cpu::Regs;
pub use bus::SpectrumBus;
pub use memory_map::{
    BASIC_START, CHAN_OPEN, CL_ALL, IRQ_VECTOR, PRINT_A, PRINT_OUT, RAM_SIZE, RAM_START, sysvar,
};
pub use print::Printer;

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

/// Z80 clock of the 48K Spectrum.
pub const CLOCK_HZ: u64 = 3_500_000;
/// T-states per 50 Hz frame (one interrupt each).
pub const FRAME_TSTATES: u64 = 69_888;
/// T-states charged for the ROM's interrupt handler beyond what the CPU runs
/// itself (acceptance, `EI`, `RET`): an estimate of MASK-INT plus KEYBOARD's
/// scan of the eight half-rows with no key down, not an instruction count.
pub const IRQ_HANDLER_TSTATES: u64 = 1_000;

/// What the Spectrum keeps besides CPU and memory (and the printed screen,
/// which is on the bus): the interrupt's clock, the keys waiting to be
/// pressed.
pub struct SpectrumDevices {
    next_irq_at: u64,
    keys: VecDeque<u8>,
    interrupts: u64,
}

impl SpectrumDevices {
    /// The 50 Hz interrupt, if the CPU takes it now.
    fn interrupt(&mut self, emu: &mut Emulator<SpectrumBus>) -> Option<Stop> {
        while self.next_irq_at <= emu.tstates() {
            self.next_irq_at += FRAME_TSTATES;
        }
        let regs = emu.regs();
        if !regs.iff1 {
            return None;
        }
        if regs.im != 1 {
            return Some(Stop::Fault(Fault::InterruptMode {
                mode: regs.im,
                pc: regs.pc,
            }));
        }
        if !emu.interrupt_im1() {
            // Just after EI: the CPU lets the INT pulse pass.
            return None;
        }
        emu.bus_mut().in_irq = true;
        emu.step(); // EI
        emu.step(); // RET
        emu.bus_mut().in_irq = false;
        if let Some(fault) = emu.bus_mut().take_fault() {
            return Some(Stop::Fault(fault.at(IRQ_VECTOR)));
        }
        emu.charge(IRQ_HANDLER_TSTATES);
        self.interrupts += 1;
        self.mask_int(emu);
        None
    }

    /// What the ROM's handler does: FRAMES up by one (three bytes), and
    /// KEYBOARD's new key into LAST_K with FLAGS bit 5 set.
    fn mask_int(&mut self, emu: &mut Emulator<SpectrumBus>) {
        let frames = frames(emu.bus()).wrapping_add(1) & 0xFF_FFFF;
        emu.poke16(sysvar::FRAMES, frames as u16);
        emu.poke(sysvar::FRAMES + 2, (frames >> 16) as u8);
        if emu.bus().waiting.get()
            && let Some(key) = self.keys.pop_front()
        {
            emu.poke(sysvar::LAST_K, key);
            let flags = emu.peek(sysvar::FLAGS);
            emu.poke(sysvar::FLAGS, flags | 0x20);
            emu.bus().waiting.set(false);
        }
    }
}

impl Devices<SpectrumBus> for SpectrumDevices {
    fn next_event(&self) -> u64 {
        self.next_irq_at
    }

    fn event(&mut self, emu: &mut Emulator<SpectrumBus>) -> Option<Stop> {
        self.interrupt(emu)
    }

    fn rom(&mut self, emu: &mut Emulator<SpectrumBus>, pc: u16) -> Option<Stop> {
        rom::call(emu, pc)
    }

    /// A poll of an empty LAST_K: with no key to come the program waits for
    /// a person; otherwise nothing but time changes until the interrupt that
    /// brings the next key, so it is skipped.
    fn after(&mut self, emu: &mut Emulator<SpectrumBus>) -> Option<Stop> {
        if !emu.bus().polled_now.replace(false) {
            return None;
        }
        if self.keys.is_empty() {
            return Some(Stop::WaitingForKey);
        }
        let now = emu.tstates();
        if self.next_irq_at > now && emu.regs().iff1 {
            emu.idle(self.next_irq_at - now);
        }
        None
    }

    fn wakes_halt(&self, emu: &Emulator<SpectrumBus>) -> bool {
        let regs = emu.regs();
        regs.iff1 && regs.im == 1
    }
}

/// The 24-bit FRAMES counter in `mem`.
fn frames(mem: &impl Memory) -> u32 {
    u32::from(mem.peek16(sysvar::FRAMES)) | (u32::from(mem.peek(sysvar::FRAMES + 2)) << 16)
}

/// An emulated 48K ZX Spectrum with a program loaded. Its memory,
/// registers, clock, watches and traps are those of the [`Emulator`] it
/// dereferences to; running it goes through [`Machine::run`],
/// [`Machine::run_to`] and [`Machine::call`].
pub type Spectrum48 = Machine<SpectrumBus, SpectrumDevices>;

impl Model<SpectrumBus> for SpectrumDevices {
    fn name(&self) -> &'static str {
        "ZX Spectrum 48K"
    }

    /// Queues keys to be pressed one by one, as the ROM's keyboard routine
    /// would report them in LAST_K: `a`–`z` and `0`–`9` as themselves, `A`–`Z`
    /// (caps shift) as upper case, space, and `\n` for ENTER (13). The
    /// Spectrum's person types at once: each key comes with the first
    /// interrupt after the program has read LAST_K empty (module notes), and
    /// no time is drawn from a seed: a seeded typing model here would only
    /// move the interrupts, and is not needed by the programs run here,
    /// which take their keys from LAST_K.
    fn type_keys(&mut self, _emu: &mut Emulator<SpectrumBus>, keys: &str) -> Result<(), char> {
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

    /// Nothing: the Spectrum's person takes no time ([`Model::type_keys`]).
    fn person_thinks(&mut self, _emu: &mut Emulator<SpectrumBus>) {}

    /// The text the `RST 16` trap printed.
    fn screen(&self, emu: &Emulator<SpectrumBus>) -> TextScreen {
        emu.bus().printer.screen().clone()
    }

    /// Bitmap, attributes and border, as the ULA shows them.
    fn display(&self, emu: &Emulator<SpectrumBus>) -> crate::machine::Display {
        let start = usize::from(display::BITMAP);
        let mut memory = Box::new([0u8; display::DISPLAY_BYTES]);
        memory.copy_from_slice(&emu.bus().mem[start..start + display::DISPLAY_BYTES]);
        crate::machine::Display::Spectrum {
            memory,
            border: emu.bus().border,
        }
    }

    /// At [`CLOCK_HZ`] (the contention of the lower 16K is not emulated).
    fn authentic_time(&self, tstates: u64) -> Duration {
        Duration::from_nanos(tstates.saturating_mul(1_000_000_000) / CLOCK_HZ)
    }
}

impl Spectrum48 {
    /// A 48K Spectrum as the ROM leaves it after power-on (RAM zero, system
    /// variables of a fresh machine), with no program.
    pub fn new() -> Spectrum48 {
        let mut zx = Machine {
            emu: Emulator::new(SpectrumBus::new(), SpectrumBus::compiled()),
            dev: SpectrumDevices {
                next_irq_at: FRAME_TSTATES,
                keys: VecDeque::new(),
                interrupts: 0,
            },
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
        zx.bus_mut().fill(0x5800..0x5B00, 0x38);
        let regs = Regs {
            iy: sysvar::IY_BASE,
            i: 0x3F,
            sp: 0xFF4A,
            iff1: true,
            iff2: true,
            im: 1,
            ..zx.regs()
        };
        zx.set_regs(regs);
        zx
    }

    /// Sets every register (PC and SP included).
    pub fn set_regs(&mut self, v: Regs) {
        self.emu.set_regs(&v)
    }

    /// Interrupts enabled (IFF1) and the interrupt mode.
    pub fn interrupt_mode(&self) -> (bool, u8) {
        let regs = self.emu.regs();
        (regs.iff1, regs.im)
    }

    /// The 24-bit FRAMES counter.
    pub fn frames(&self) -> u32 {
        frames(self.emu.bus())
    }

    /// Interrupts taken so far.
    pub fn interrupts(&self) -> u64 {
        self.dev.interrupts
    }

    /// Writes to the ROM area ignored so far.
    pub fn ignored_rom_writes(&self) -> u64 {
        self.emu.bus().ignored_rom_writes
    }

    /// Was the cell printed with BRIGHT 1?
    pub fn bright(&self, row: usize, col: usize) -> bool {
        self.emu.bus().printer.bright(row, col)
    }

    /// The print position (row, column) of the upper screen.
    pub fn print_position(&self) -> (usize, usize) {
        self.emu.bus().printer.position()
    }

    /// Keys not yet delivered.
    pub fn pending_keys(&self) -> usize {
        self.dev.keys.len()
    }

    /// Forgets keys not yet delivered.
    pub fn clear_keys(&mut self) {
        self.dev.keys.clear();
    }
}

impl Default for Spectrum48 {
    fn default() -> Self {
        Spectrum48::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Display;

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
    fn printing_draws_into_the_display_file_and_out_sets_the_border() {
        // BRIGHT 1, 'a', BRIGHT 0, INVERSE 1, AT 9,31, 'b', then
        // ld a,2; out ($FE),a (a red border); jr $
        let mut zx = with_code(&[
            0x3E, 19, 0xD7, 0x3E, 1, 0xD7, 0x3E, b'a', 0xD7, 0x3E, 19, 0xD7, 0xAF, 0xD7, 0x3E, 20,
            0xD7, 0x3E, 1, 0xD7, 0x3E, 22, 0xD7, 0x3E, 9, 0xD7, 0x3E, 31, 0xD7, 0x3E, b'b', 0xD7,
            0x3E, 2, 0xD3, 0xFE, 0x18, 0xFE,
        ]);
        assert!(matches!(zx.run(1_000_000), Stop::Stuck { .. }));
        let Display::Spectrum { memory, border } = zx.display() else {
            panic!("a Spectrum display");
        };
        assert_eq!(border, 2);
        let a = crate::machine::charset::glyph('a').unwrap();
        let b = crate::machine::charset::glyph('b').unwrap();
        for line in 0..8 {
            let at = |r, c| usize::from(display::bitmap_address(r, c, line)) - 0x4000;
            assert_eq!(memory[at(0, 0)], a[line], "line {line} of 'a'");
            assert_eq!(memory[at(9, 31)], !b[line], "line {line} of inverse 'b'");
        }
        // Row 9 is in the second third: 0x4800 + 1 << 5 + 31.
        assert_eq!(display::bitmap_address(9, 31, 0), 0x483F);
        assert_eq!(memory[6144], 0x78, "ATTR_P 0x38 with BRIGHT");
        assert_eq!(memory[6144 + 9 * 32 + 31], 0x38);
    }

    #[test]
    fn scrolling_moves_the_display_file_with_the_text() {
        // AT 1,0; 'x'; AT 21,0; CR (the upper screen scrolls); jr $
        let mut code = Vec::new();
        for byte in [22, 1, 0, b'x', 22, 21, 0, 13] {
            code.extend([0x3E, byte, 0xD7]);
        }
        code.extend([0x18, 0xFE]);
        let mut zx = with_code(&code);
        assert!(matches!(zx.run(1_000_000), Stop::Stuck { .. }));
        assert_eq!(zx.screen().row_text(0), "x");
        let Display::Spectrum { memory, .. } = zx.display() else {
            panic!("a Spectrum display");
        };
        let x = crate::machine::charset::glyph('x').unwrap();
        for (line, &want) in x.iter().enumerate() {
            let at = |r| usize::from(display::bitmap_address(r, 0, line)) - 0x4000;
            assert_eq!(memory[at(0)], want);
            assert_eq!(memory[at(1)], 0, "row 1 moved up");
        }
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

    #[test]
    fn halt_waits_for_the_interrupt_or_is_a_named_stop() {
        // halt; ld ($9000),a; jr $ — interrupts on in mode 1: the next
        // interrupt ends the HALT, after a frame's worth of budget.
        let mut zx = with_code(&[0x76, 0x32, 0x00, 0x90, 0x18, 0xFE]);
        zx.poke(0x9000, 0xAA);
        assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: 0x8004 });
        assert_eq!(zx.interrupts(), 1);
        assert_ne!(zx.peek(0x9000), 0xAA);
        assert!(zx.busy_tstates() >= FRAME_TSTATES);
        // A HALT waiting for an interrupt still honours the budget.
        let mut zx = with_code(&[0x76, 0x00]);
        match zx.run(10_000) {
            Stop::BudgetExhausted { .. } => {}
            other => panic!("{other:?}"),
        }
        assert!((10_000..10_004).contains(&zx.busy_tstates()));
        // di; halt: nothing will ever end it.
        let mut zx = with_code(&[0xF3, 0x76, 0x00]);
        assert_eq!(zx.run(1_000_000), Stop::Halted { pc: 0x8001 });
        assert!(zx.busy_tstates() < 100);
    }
}
