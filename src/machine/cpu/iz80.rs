//! `iz80` 0.5.1 behind the CPU contract, stepped one instruction at a time.
//!
//! `iz80` has no setters for the alternate registers, IFF1/2, the interrupt
//! mode or the halt state; its public `serialize`/`deserialize` of the whole
//! CPU state (registers in `Reg8` order, then the alternate bank, PC, IFF1,
//! IFF2, IM, the cycle counter and the hidden flags) is how they are read and
//! set here. It does not count the R register. Its T-state counter only
//! moves while instructions run, so time a halted CPU spends is added here.

use iz80::{Machine, Reg8, Reg16};

use super::{Bus, Marks, Regs, RunEnd};

/// Byte offsets in `iz80`'s serialized state (`State::serialize`).
const SHADOW: usize = 16;
const IFF1: usize = 34;
const IFF2: usize = 35;
const IM: usize = 36;
const HALTED: usize = 37 + 8 + 1;
const INT_JUST_ENABLED: usize = 37 + 8 + 5;

/// An `iz80` CPU and what it does not keep itself.
pub struct Iz80 {
    cpu: iz80::Cpu,
    /// Added to `iz80`'s cycle counter: time halted, and the NOP an
    /// interrupt acceptance is fed (see [`Iz80::interrupt_im1`]), taken off.
    offset: u64,
    last_pc: u16,
}

/// A bus as `iz80` wants it. During an interrupt's acceptance (`accepting`)
/// it feeds a NOP at the vector: `iz80` accepts and runs the instruction at
/// the vector in one call.
struct Iz80Bus<'a, B> {
    bus: &'a mut B,
    accepting: bool,
}

impl<B: Bus> Machine for Iz80Bus<'_, B> {
    #[inline]
    fn peek(&mut self, address: u16) -> u8 {
        if self.accepting && address == 0x0038 {
            0x00
        } else {
            self.bus.read(address)
        }
    }

    #[inline]
    fn poke(&mut self, address: u16, value: u8) {
        self.bus.write(address, value)
    }

    fn port_in(&mut self, address: u16) -> u8 {
        self.bus.input(address)
    }

    fn port_out(&mut self, address: u16, value: u8) {
        self.bus.output(address, value)
    }
}

const MAIN: [Reg16; 7] = [
    Reg16::AF,
    Reg16::BC,
    Reg16::DE,
    Reg16::HL,
    Reg16::IX,
    Reg16::IY,
    Reg16::SP,
];

impl Iz80 {
    pub fn new() -> Iz80 {
        Iz80 {
            cpu: iz80::Cpu::new_z80(),
            offset: 0,
            last_pc: 0,
        }
    }

    pub fn regs(&self) -> Regs {
        let r = self.cpu.immutable_registers();
        let state = self.cpu.serialize();
        let alt = |i: usize| u16::from_be_bytes([state[SHADOW + i], state[SHADOW + i + 1]]);
        let (iff1, im) = r.get_interrupt_mode();
        Regs {
            af: r.get16(Reg16::AF),
            bc: r.get16(Reg16::BC),
            de: r.get16(Reg16::DE),
            hl: r.get16(Reg16::HL),
            ix: r.get16(Reg16::IX),
            iy: r.get16(Reg16::IY),
            sp: r.get16(Reg16::SP),
            pc: r.pc(),
            af_alt: alt(0),
            bc_alt: alt(2),
            de_alt: alt(4),
            hl_alt: alt(6),
            i: r.get8(Reg8::I),
            r: r.get8(Reg8::R),
            iff1,
            iff2: state[IFF2] != 0,
            im,
        }
    }

    pub fn set_regs(&mut self, v: &Regs) {
        let mut state = self.cpu.serialize();
        for (alt, at) in [v.af_alt, v.bc_alt, v.de_alt, v.hl_alt]
            .into_iter()
            .zip([0, 2, 4, 6])
        {
            state[SHADOW + at..SHADOW + at + 2].copy_from_slice(&alt.to_be_bytes());
        }
        state[IFF1] = u8::from(v.iff1);
        state[IFF2] = u8::from(v.iff2);
        state[IM] = v.im;
        state[HALTED] = 0;
        // The state was just serialized by the same version: it fits.
        let _ = self.cpu.deserialize(&state);
        let regs = self.cpu.registers();
        for (reg, value) in MAIN.iter().zip([v.af, v.bc, v.de, v.hl, v.ix, v.iy, v.sp]) {
            regs.set16(*reg, value);
        }
        regs.set8(Reg8::I, v.i);
        regs.set8(Reg8::R, v.r);
        regs.set_pc(v.pc);
    }

    #[inline]
    pub fn pc(&self) -> u16 {
        self.cpu.immutable_registers().pc()
    }

    pub fn set_pc(&mut self, pc: u16) {
        if self.halted() {
            let regs = self.regs();
            self.set_regs(&regs);
        }
        self.cpu.registers().set_pc(pc);
    }

    #[inline]
    pub fn sp(&self) -> u16 {
        self.cpu.immutable_registers().get16(Reg16::SP)
    }

    pub fn a(&self) -> u8 {
        self.cpu.immutable_registers().a()
    }

    pub fn f(&self) -> u8 {
        self.cpu.immutable_registers().get8(Reg8::F)
    }

    pub fn set_sp(&mut self, sp: u16) {
        self.cpu.registers().set16(Reg16::SP, sp);
    }

    #[inline]
    pub fn tstates(&self) -> u64 {
        self.cpu.cycle_count().wrapping_add(self.offset)
    }

    pub fn set_tstates(&mut self, tstates: u64) {
        self.offset = tstates.wrapping_sub(self.cpu.cycle_count());
    }

    pub fn halted(&self) -> bool {
        self.cpu.is_halted()
    }

    pub fn last_pc(&self) -> u16 {
        self.last_pc
    }

    pub fn run<B: Bus>(&mut self, bus: &mut B, marks: &Marks, until: u64) -> RunEnd {
        if self.halted() {
            // A halted Z80 runs NOPs (4 T-states each) until interrupted.
            let now = self.tstates();
            if now < until {
                self.offset += (until - now).div_ceil(4) * 4;
            }
            return RunEnd::Limit;
        }
        let mut wire = Iz80Bus {
            bus,
            accepting: false,
        };
        loop {
            self.last_pc = self.pc();
            self.cpu.execute_instruction(&mut wire);
            if wire.bus.signalled() {
                return RunEnd::Signal;
            }
            if self.cpu.is_halted() {
                return RunEnd::Halt;
            }
            if self.tstates() >= until {
                return RunEnd::Limit;
            }
            if marks.at(self.pc()) != 0 {
                return RunEnd::Marked;
            }
        }
    }

    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.last_pc = self.pc();
        self.cpu.execute_instruction(&mut Iz80Bus {
            bus,
            accepting: false,
        });
    }

    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        let state = self.cpu.serialize();
        if state[IFF1] == 0 || state[INT_JUST_ENABLED] != 0 {
            return false;
        }
        let before = self.cpu.cycle_count();
        self.cpu.signal_interrupt(true);
        self.cpu.execute_instruction(&mut Iz80Bus {
            bus,
            accepting: true,
        });
        self.cpu.signal_interrupt(false);
        // Take the NOP back: PC to the vector, its 4 T-states off.
        self.cpu.registers().set_pc(0x0038);
        let nop = 4;
        debug_assert_eq!(self.cpu.cycle_count() - before, 13 + nop);
        self.offset = self.offset.wrapping_sub(nop);
        true
    }
}

impl Default for Iz80 {
    fn default() -> Self {
        Iz80::new()
    }
}
