//! The Z80 cores a machine can run on, by name ([`Core`]), and the CPU of
//! a machine, whichever core emulates it ([`Cpu`]).

use std::fmt;

use super::bus::Bus;
use super::iz80::Iz80;
use super::lockstep::{Follow, Lockstep};
use super::marks::Marks;
use super::own::{Compiled, Own};
use super::regs::Regs;
use super::run_end::RunEnd;
use super::z80emu::Z80emu;
use crate::machine::watches::Watches;

/// The Z80 core a machine runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Core {
    /// `z80emu` 0.11.0: the T-states of the Z80 manual, driven in long
    /// runs; the default before our own core.
    Z80emu,
    /// Our own core ([`super::own`]), the default: the T-states of the Z80
    /// manual, and everything `z80emu` computes (the same registers,
    /// memory, timing and stops, compared after every instruction), 2–3×
    /// as fast.
    #[default]
    Own,
    /// `iz80` 0.5.1, the reference: reproduces games recorded before
    /// `z80emu` became the default. Known timing differences: a `JR cc` not
    /// taken counts 8 T-states (the manual: 7), a `JP cc` not taken 7 (the
    /// manual: 10); see [`super::lockstep::KNOWN_TSTATE_DIFFERENCES`].
    Iz80,
    /// `z80emu` and `iz80`, compared after every instruction (`z80emu`
    /// leads); slow, for tests ([`super::lockstep`]).
    Lockstep,
    /// `z80emu` and our own core, compared exactly after every
    /// instruction (`z80emu` leads); slow, for tests.
    LockstepOwn,
}

impl Core {
    /// Every core, by name.
    pub const ALL: [Core; 5] = [
        Core::Own,
        Core::Z80emu,
        Core::Iz80,
        Core::Lockstep,
        Core::LockstepOwn,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Core::Own => "own",
            Core::Z80emu => "z80emu",
            Core::Iz80 => "iz80",
            Core::Lockstep => "lockstep",
            Core::LockstepOwn => "lockstep-own",
        }
    }
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The CPU of a machine: one of the cores, behind one set of methods.
pub enum Cpu {
    Own(Own),
    Z80emu(Z80emu),
    Iz80(Iz80),
    Lockstep(Box<Lockstep>),
}

/// Calls `$method` on whichever core (the lockstep pair answers with its
/// leading core, or runs both where it has its own method).
macro_rules! each {
    ($self:expr, $cpu:ident => $call:expr, $pair:ident => $pair_call:expr) => {
        match $self {
            Cpu::Own($cpu) => $call,
            Cpu::Z80emu($cpu) => $call,
            Cpu::Iz80($cpu) => $call,
            Cpu::Lockstep($pair) => $pair_call,
        }
    };
    ($self:expr, $cpu:ident => $call:expr) => {
        each!($self, $cpu => $call, pair => { let $cpu = &pair.lead; $call })
    };
}

impl Cpu {
    /// A Z80 as after power-on, emulated by `core`.
    pub fn new(core: Core) -> Cpu {
        match core {
            Core::Own => Cpu::Own(Own::new()),
            Core::LockstepOwn => Cpu::Lockstep(Box::new(Lockstep::own())),
            Core::Z80emu => Cpu::Z80emu(Z80emu::new()),
            Core::Iz80 => Cpu::Iz80(Iz80::new()),
            Core::Lockstep => Cpu::Lockstep(Box::default()),
        }
    }

    /// Drops it, leaving what can be used again to the next CPU made on
    /// this thread (our core's decoded tables).
    pub fn retire(self) {
        if let Cpu::Own(own) = self {
            own.retire();
        }
    }

    /// The core emulating it.
    pub fn core(&self) -> Core {
        match self {
            Cpu::Own(_) => Core::Own,
            Cpu::Z80emu(_) => Core::Z80emu,
            Cpu::Iz80(_) => Core::Iz80,
            Cpu::Lockstep(pair) => match pair.follow {
                Follow::Own(_) => Core::LockstepOwn,
                Follow::Iz80(_) => Core::Lockstep,
            },
        }
    }

    /// Every register.
    pub fn regs(&self) -> Regs {
        each!(self, cpu => cpu.regs())
    }

    /// Sets every register (and leaves the CPU not halted).
    pub fn set_regs(&mut self, regs: &Regs) {
        each!(self, cpu => cpu.set_regs(regs), pair => pair.set_regs(regs))
    }

    #[inline]
    pub fn pc(&self) -> u16 {
        each!(self, cpu => cpu.pc())
    }

    /// Sets PC (and leaves the CPU not halted).
    pub fn set_pc(&mut self, pc: u16) {
        each!(self, cpu => cpu.set_pc(pc), pair => {
            pair.lead.set_pc(pc);
            pair.follow.set_pc(pc)
        })
    }

    #[inline]
    pub fn sp(&self) -> u16 {
        each!(self, cpu => cpu.sp())
    }

    pub fn set_sp(&mut self, sp: u16) {
        each!(self, cpu => cpu.set_sp(sp), pair => {
            pair.lead.set_sp(sp);
            pair.follow.set_sp(sp)
        })
    }

    /// The flags register.
    pub fn f(&self) -> u8 {
        each!(self, cpu => cpu.f())
    }

    /// The accumulator.
    pub fn a(&self) -> u8 {
        each!(self, cpu => cpu.a())
    }

    /// T-states the CPU has run since power-on.
    #[inline]
    pub fn tstates(&self) -> u64 {
        each!(self, cpu => cpu.tstates())
    }

    /// Sets the T-state counter (when a machine changes cores).
    pub fn set_tstates(&mut self, tstates: u64) {
        each!(self, cpu => cpu.set_tstates(tstates), pair => {
            pair.lead.set_tstates(tstates);
            pair.follow.set_tstates(tstates)
        })
    }

    /// Is the CPU halted (waiting for an interrupt)?
    pub fn halted(&self) -> bool {
        each!(self, cpu => cpu.halted())
    }

    /// The address of the last instruction begun (for fault reports).
    pub fn last_pc(&self) -> u16 {
        each!(self, cpu => cpu.last_pc())
    }

    /// Runs from the current PC until `until` T-states (the CPU's own
    /// count), a marked address, a bus signal or a HALT. The instruction at
    /// the current PC runs even if its address is marked.
    ///
    /// Our own core does not stop at an address marked only as watched: it
    /// counts the visit in `watches` and goes on, as the driver's loop
    /// would have after a stop (see [`Own::run_counting`]). The other
    /// cores stop there, and the caller counts.
    ///
    /// `compiled` are the blocks compiled ahead of time for this bus
    /// ([`Compiled`]), which our core runs: the same table on every run.
    #[inline]
    pub fn run<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        watches: &mut Watches,
        until: u64,
    ) -> RunEnd {
        match self {
            Cpu::Own(cpu) => cpu.run_counting(bus, compiled, marks, watches, until),
            Cpu::Z80emu(cpu) => cpu.run(bus, marks, until),
            Cpu::Iz80(cpu) => cpu.run(bus, marks, until),
            Cpu::Lockstep(pair) => pair.run(bus, compiled, marks, until),
        }
    }

    /// The T-states of the ROM routines the bus performed inside the last
    /// run ([`Bus::routine`], our core only), which the machine charges;
    /// zeroed.
    pub fn take_charged(&mut self) -> u64 {
        match self {
            Cpu::Own(cpu) => cpu.take_charged(),
            _ => 0,
        }
    }

    /// Runs one instruction, marks or not.
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        each!(self, cpu => cpu.step(bus), pair => pair.step(bus))
    }

    /// Accepts a mode 1 interrupt: PC pushed, interrupts off, PC = 0x0038.
    /// Returns false if the CPU cannot accept one now (interrupts off, or
    /// just after `EI`).
    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        each!(self, cpu => cpu.interrupt_im1(bus), pair => pair.interrupt_im1(bus))
    }
}
