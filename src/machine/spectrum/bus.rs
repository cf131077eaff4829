//! The 48K Spectrum's address space as the CPU sees it ([`SpectrumBus`]):
//! the RAM, the ROM (no image: reads fault, writes are ignored), the
//! handler's `EI; RET` during an interrupt, a poll of LAST_K, the border,
//! and the upper screen `RST 16` prints on (drawn by [`super::display`]).

use std::cell::Cell;

use super::super::Fault;
use super::super::cpu::own::Compiled;
#[cfg(feature = "compiled-blocks")]
use super::super::cpu::own::blocks;
use super::super::cpu::{Bus, HostWrites, Memory};
use super::memory_map::{IRQ_VECTOR, PRINT_A, PRINT_TSTATES, RAM_START, sysvar};
use super::print::Printer;

/// The address space as the CPU sees it: the 48K of RAM (in a 64K array,
/// the ROM's part unused), the handler's `EI; RET` during an interrupt, and
/// what the running program did that the machine must notice.
#[derive(Clone)]
pub struct SpectrumBus {
    pub(super) mem: Box<[u8; 0x10000]>,
    pub(super) fault: Cell<Option<Fault>>,
    pub(super) ignored_rom_writes: u64,
    /// The program read LAST_K as 0 during the last instruction.
    pub(super) polled_now: Cell<bool>,
    /// The program has read LAST_K as 0 since the last key was delivered.
    pub(super) waiting: Cell<bool>,
    /// An interrupt is being taken: the ROM handler's `EI; RET` is read at
    /// the vector.
    pub(super) in_irq: bool,
    /// The border colour, bits 0–2 of the last OUT to an even port (the
    /// ULA); 7 (white) as the ROM leaves it at power-on.
    pub(super) border: u8,
    /// What the host wrote (for the CPU's decoded code).
    pub(super) host_writes: HostWrites,
    /// The upper screen as `RST 16` printed it: the text, the print
    /// position and attributes. On the bus beside the display file it
    /// draws into, so that the bus can print alone ([`Bus::routine`]).
    pub(super) printer: Printer,
}

impl SpectrumBus {
    pub(super) fn new() -> SpectrumBus {
        SpectrumBus {
            mem: Box::new([0; 0x10000]),
            fault: Cell::new(None),
            ignored_rom_writes: 0,
            polled_now: Cell::new(false),
            waiting: Cell::new(false),
            in_irq: false,
            border: 7,
            host_writes: HostWrites::default(),
            printer: Printer::default(),
        }
    }

    /// Writes `value` over `range` of RAM (the display file and attributes
    /// that CLS clears).
    pub(super) fn fill(&mut self, range: std::ops::Range<u16>, value: u8) {
        let (start, end) = (range.start.max(RAM_START), range.end);
        if start < end {
            self.mem[usize::from(start)..usize::from(end)].fill(value);
            self.host_writes.span(start, end - 1);
        }
    }

    #[cold]
    #[inline(never)]
    fn read_rom(&self, address: u16) -> u8 {
        match address {
            IRQ_VECTOR if self.in_irq => 0xFB, // EI
            0x0039 if self.in_irq => 0xC9,     // RET
            _ => {
                if self.fault.get().is_none() {
                    self.fault.set(Some(Fault::RomRead {
                        addr: address,
                        pc: 0,
                    }));
                }
                0xFF
            }
        }
    }
}

impl Memory for SpectrumBus {
    /// ROM reads as 0xFF: we have no image.
    fn peek(&self, addr: u16) -> u8 {
        if addr >= RAM_START {
            self.mem[usize::from(addr)]
        } else {
            0xFF
        }
    }

    fn poke(&mut self, addr: u16, value: u8) {
        if addr >= RAM_START {
            self.mem[usize::from(addr)] = value;
            self.host_writes.note(addr);
        }
    }
}

impl Bus for SpectrumBus {
    #[inline]
    fn read(&self, address: u16) -> u8 {
        if address >= RAM_START {
            let v = self.mem[usize::from(address)];
            if address == sysvar::LAST_K && v == 0 {
                self.polled_now.set(true);
                self.waiting.set(true);
            }
            v
        } else {
            self.read_rom(address)
        }
    }

    #[inline]
    fn write(&mut self, address: u16, value: u8) {
        if address >= RAM_START {
            self.mem[usize::from(address)] = value;
        } else {
            self.ignored_rom_writes += 1;
        }
    }

    #[inline]
    fn signalled(&self) -> bool {
        self.polled_now.get() || self.fault.get().is_some()
    }

    fn take_fault(&mut self) -> Option<Fault> {
        self.fault.take()
    }

    /// The ULA answers every even port: bits 0–2 are the border colour
    /// (bits 3 and 4, MIC and the speaker, are not emulated).
    fn output(&mut self, port: u16, value: u8) {
        if port & 1 == 0 {
            self.border = value & 7;
        }
    }

    fn ram(&self) -> &[u8] {
        &self.mem[usize::from(RAM_START)..]
    }

    fn executable(&self, addr: u16) -> bool {
        addr >= RAM_START
    }

    /// LAST_K read as an instruction byte would be a poll.
    fn plain(&self, addr: u16) -> bool {
        addr >= RAM_START && addr != sysvar::LAST_K
    }

    fn take_host_writes(&mut self) -> HostWrites {
        self.host_writes.take()
    }

    /// `RST 16`, which needs nothing but A and the memory. CL-ALL and
    /// CHAN-OPEN set registers and are left to the run loop, as is a
    /// print that faults.
    fn routine(&mut self, pc: u16, a: u8, room: u64) -> Option<u64> {
        let t = PRINT_TSTATES;
        (pc == PRINT_A && t < room && self.print_a(a).is_ok()).then_some(t)
    }
}

impl SpectrumBus {
    /// The blocks of the collection's Spectrum programs compiled for our
    /// core on this bus (see [`Compiled`]), by start address: `SPECTRUM`,
    /// written by scripts/own-compiled-blocks, with the `compiled-blocks`
    /// feature; none without it.
    pub fn compiled() -> &'static [Compiled<SpectrumBus>] {
        #[cfg(feature = "compiled-blocks")]
        return SPECTRUM;
        #[cfg(not(feature = "compiled-blocks"))]
        return &[];
    }
}

// The blocks our core runs compiled ahead of time on this bus
// (`SPECTRUM` and the function that runs them; see
// `machine::cpu::own::compiled`), written by scripts/own-compiled-blocks:
// built with the `compiled-blocks` feature (Cargo.toml).
#[cfg(feature = "compiled-blocks")]
include!("compiled_blocks.rs");
