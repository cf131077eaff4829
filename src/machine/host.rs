//! The host contract: what a driver may ask of any emulated machine, and
//! the one wrapper that gives every machine model its run calls.
//!
//! A machine is an [`Emulator`] (CPU, bus, clock, watches, traps) plus the
//! devices of its model ([`Model`]: frame clock or interrupt, keyboard,
//! screen, ROM routines, the real machine's speed). [`Machine`] puts the two
//! together once, for every model: [`Machine::run`], [`Machine::run_to`],
//! [`Machine::call`], and `Deref` to the emulator for memory, registers and
//! time. [`Zx81`](super::zx81::Zx81) and
//! [`Spectrum48`](super::spectrum::Spectrum48) are `Machine`s of their
//! models.
//!
//! A driver meets its machine through [`Host`], the contract every
//! `Machine` of a [`Model`] keeps: a person typing (seeded by the machine's
//! seed, as the model times it), runs to a named [`Stop`], the screen, busy
//! T-states, and how long the real machine takes. Timing facts belong to
//! the model, not to a driver: a draughts driver on the ZX81 asks its
//! machine for the ZX81's time, not a chess driver.

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use super::cpu::Bus;
use super::emulator::{Devices, Emulator};
use super::{Display, Stop, TextScreen};

/// A machine model: the devices it adds to the run loop ([`Devices`]) and
/// what the host contract needs of them.
pub trait Model<B: Bus>: Devices<B> + Send {
    /// The machine's name, as an engine's info gives it (`ZX81`).
    fn name(&self) -> &'static str;

    /// Schedules `keys` as this model's person types them (see the model
    /// for which characters are keys and how a press is timed).
    ///
    /// # Errors
    /// The first character that is not a key of the machine.
    fn type_keys(&mut self, emu: &mut Emulator<B>, keys: &str) -> Result<(), char>;

    /// Lets the person think before anything else, as between two typed
    /// moves, where a position is set up instead of typed. A model whose
    /// programs cannot see the time passing does nothing.
    fn person_thinks(&mut self, emu: &mut Emulator<B>);

    /// The text on the screen now.
    fn screen(&self, emu: &Emulator<B>) -> TextScreen;

    /// The display memory as the video reads it now, for a picture.
    fn display(&self, emu: &Emulator<B>) -> Display;

    /// How long the real machine takes for `tstates` of the program's work.
    fn authentic_time(&self, tstates: u64) -> Duration;
}

/// A CPU on a model's bus with the model's devices: the wrapper written
/// once for every machine. Memory, registers, time, watches, probes and
/// traps are those of the [`Emulator`] it dereferences to.
pub struct Machine<B: Bus, D> {
    pub(super) emu: Emulator<B>,
    pub(super) dev: D,
}

impl<B: Bus, D: Devices<B>> Machine<B, D> {
    /// Runs until a named stop, at most `budget` T-states of execution.
    pub fn run(&mut self, budget: u64) -> Stop {
        self.emu.run(&mut self.dev, budget, None)
    }

    /// Like [`run`](Self::run), and also stops with [`Stop::Breakpoint`]
    /// when execution is about to run the instruction at `breakpoint` (not
    /// counting the instruction it starts at).
    pub fn run_to(&mut self, budget: u64, breakpoint: Option<u16>) -> Stop {
        self.emu.run(&mut self.dev, budget, breakpoint)
    }

    /// Calls the routine at `entry` with the registers as they are (push a
    /// return address, jump) and runs until it returns ([`Stop::Returned`])
    /// or stops otherwise, within `budget` T-states.
    pub fn call(&mut self, entry: u16, budget: u64) -> Stop {
        self.emu.call(&mut self.dev, entry, budget)
    }
}

impl<B: Bus, D: Model<B>> Machine<B, D> {
    /// The text on the screen now.
    pub fn screen(&self) -> TextScreen {
        self.dev.screen(&self.emu)
    }

    /// The display memory now ([`Model::display`]).
    pub fn display(&self) -> Display {
        self.dev.display(&self.emu)
    }

    /// Schedules keys as a person types them ([`Model::type_keys`]).
    ///
    /// # Errors
    /// The first character that is not a key of the machine.
    pub fn type_keys(&mut self, keys: &str) -> Result<(), char> {
        self.dev.type_keys(&mut self.emu, keys)
    }

    /// Lets a person think before anything else ([`Model::person_thinks`]).
    pub fn person_thinks(&mut self) {
        self.dev.person_thinks(&mut self.emu)
    }

    /// How long the real machine takes for `tstates` of program work.
    pub fn authentic_time(&self, tstates: u64) -> Duration {
        self.dev.authentic_time(tstates)
    }
}

impl<B: Bus, D> Deref for Machine<B, D> {
    type Target = Emulator<B>;

    fn deref(&self) -> &Emulator<B> {
        &self.emu
    }
}

impl<B: Bus, D> DerefMut for Machine<B, D> {
    fn deref_mut(&mut self) -> &mut Emulator<B> {
        &mut self.emu
    }
}

/// What a driver may ask of the machine its program runs on. Every
/// [`Machine`] of a [`Model`] keeps it; memory, registers, watches, probes
/// and traps come with the emulator it dereferences to.
pub trait Host: DerefMut<Target = Emulator<Self::Bus>> + Send {
    /// The machine's address space.
    type Bus: Bus;

    /// The machine's name (`ZX81`).
    fn name(&self) -> &'static str;
    /// Runs until a named stop, at most `budget` T-states.
    fn run(&mut self, budget: u64) -> Stop;
    /// Runs until a named stop or `breakpoint`.
    fn run_to(&mut self, budget: u64, breakpoint: Option<u16>) -> Stop;
    /// Calls the routine at `entry` until it returns or stops.
    fn call(&mut self, entry: u16, budget: u64) -> Stop;
    /// Schedules keys as the machine's person types them.
    ///
    /// # Errors
    /// The first character that is not a key of the machine.
    fn type_keys(&mut self, keys: &str) -> Result<(), char>;
    /// Lets the person think, as between two moves (seeded).
    fn person_thinks(&mut self);
    /// The text on the screen now.
    fn screen(&self) -> TextScreen;
    /// The display memory now, for a picture.
    fn display(&self) -> Display;
    /// How long the real machine takes for `tstates` of program work.
    fn authentic_time(&self, tstates: u64) -> Duration;
    /// Machine time the program spent working (idle time excluded): what
    /// budgets and replies count.
    fn busy_tstates(&self) -> u64 {
        (**self).busy_tstates()
    }
}

impl<B: Bus + Send, D: Model<B>> Host for Machine<B, D> {
    type Bus = B;

    fn name(&self) -> &'static str {
        self.dev.name()
    }
    fn run(&mut self, budget: u64) -> Stop {
        Machine::run(self, budget)
    }
    fn run_to(&mut self, budget: u64, breakpoint: Option<u16>) -> Stop {
        Machine::run_to(self, budget, breakpoint)
    }
    fn call(&mut self, entry: u16, budget: u64) -> Stop {
        Machine::call(self, entry, budget)
    }
    fn type_keys(&mut self, keys: &str) -> Result<(), char> {
        Machine::type_keys(self, keys)
    }
    fn person_thinks(&mut self) {
        Machine::person_thinks(self)
    }
    fn screen(&self) -> TextScreen {
        Machine::screen(self)
    }
    fn display(&self) -> Display {
        Machine::display(self)
    }
    fn authentic_time(&self, tstates: u64) -> Duration {
        Machine::authentic_time(self, tstates)
    }
}
