//! One run loop for every machine: a CPU on a machine's bus, the clock,
//! the T-state budget, watches, breakpoints, Rust traps, calls that return,
//! and the self-jump and HALT detectors.
//!
//! A machine (ZX81, Spectrum) is an [`Emulator`] over its [`Bus`] plus its
//! [`Devices`]: what happens at its frame boundary (FRAMES, the interrupt),
//! what its ROM routines do, and what it checks after the CPU ran.
//!
//! # Time
//! Machine time ([`Emulator::tstates`]) is what the CPU ran plus what it did
//! not run but would have taken: high-level ROM routines and traps
//! (charged, [`Emulator::estimated_tstates`]) and the time skipped while a
//! program idles waiting for a person ([`Emulator::idle`]). Budgets count
//! busy time: machine time less idle time.
//!
//! # The loop
//! At each stop of the CPU the loop takes the machine's event if it is due,
//! looks at the address about to run (return of a call, breakpoint, watch,
//! trap, ROM), runs the CPU until the next event or the budget, then lets the
//! machine look (its clock, its signals), checks for a program that can never
//! move again (a jump to itself taken, a HALT nothing will end) and the
//! budget. The CPU stops only there: at marked addresses, at the event or
//! budget boundary, on a bus signal or a HALT (our core performs the ROM
//! routines a bus can do alone without stopping, exactly as this loop
//! would: see [`Bus::routine`]; the time it charged for them is taken
//! into machine time after its run). A [`Cut`] set from outside
//! is asked there too, every [`CUT_SLICE`] busy T-states, and never makes
//! the CPU stop anywhere else.

use super::cpu::own::Compiled;
use super::cpu::{self, Bus, Cpu, Marks, Memory, Regs, RunEnd};
use super::cut::{CUT_SLICE, Cut};
use super::{Core, ProbeRead, Sample, Stop, Watches, profile};

/// How execution goes on after a trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Return to the caller (`RET`), the routine having taken `tstates`.
    Return { tstates: u64 },
    /// Continue at the PC the trap left (if it left the trap's own address,
    /// the Z80 code there runs), the trap having taken `tstates`.
    Continue { tstates: u64 },
    /// End the run with this stop, PC left at the trap (the next run calls
    /// the trap again).
    Stop(Stop),
}

/// Glue code written in Rust that runs in place of the Z80 code at an
/// address: it gets the registers and the memory, and says how to go on.
/// Any `FnMut(&mut Regs, &mut dyn Memory) -> Resume + Send` is one.
pub trait Trap: Send {
    fn run(&mut self, regs: &mut Regs, memory: &mut dyn Memory) -> Resume;
}

impl<F> Trap for F
where
    F: FnMut(&mut Regs, &mut dyn Memory) -> Resume + Send,
{
    fn run(&mut self, regs: &mut Regs, memory: &mut dyn Memory) -> Resume {
        self(regs, memory)
    }
}

/// What a machine adds to the run loop.
pub trait Devices<B: Bus> {
    /// Machine time of the next event (frame tick, interrupt): the CPU stops
    /// there.
    fn next_event(&self) -> u64;
    /// The event is due: take it (and move [`next_event`](Self::next_event)
    /// past now).
    fn event(&mut self, emu: &mut Emulator<B>) -> Option<Stop>;
    /// Execution reached a non-executable address (see
    /// [`Bus::executable`]): perform the ROM routine there or name the fault.
    fn rom(&mut self, emu: &mut Emulator<B>, pc: u16) -> Option<Stop>;
    /// After every run of the CPU or trap: the machine's clock and signals.
    fn after(&mut self, emu: &mut Emulator<B>) -> Option<Stop>;
    /// Would an interrupt ever end a HALT now?
    fn wakes_halt(&self, emu: &Emulator<B>) -> bool;
}

/// The address calls made from Rust return to: the last byte of the ROM,
/// which no program runs. OURS, not a ROM entry point of either machine.
pub const CALL_RETURN: u16 = 0x3FFF;

/// A CPU on a bus, with everything the run loop keeps.
pub struct Emulator<B: Bus> {
    cpu: Cpu,
    bus: B,
    /// The blocks compiled ahead of time for the bus, which our core runs
    /// (see [`Compiled`]): given by the machine that made the bus.
    compiled: &'static [Compiled<B>],
    marks: Marks,
    watches: Watches,
    probes: Vec<(u16, ProbeRead)>,
    samples: Vec<Sample>,
    traps: Vec<(u16, Box<dyn Trap>)>,
    /// T-states not run by the CPU: high-level routines and idle time.
    extra: u64,
    /// The part of `extra` skipped while the program waited.
    idle: u64,
    /// The stack pointer a call from Rust returns with.
    call_sp: Option<u16>,
    /// Asked between slices of a run whether to end it ([`Stop::Cut`]).
    cut: Cut,
}

/// A machine gone leaves its CPU's reusable parts to the next one made on
/// the thread (a driver that boots afresh for each position makes one a
/// move).
impl<B: Bus> Drop for Emulator<B> {
    fn drop(&mut self) {
        std::mem::replace(&mut self.cpu, Cpu::new(Core::Z80emu)).retire();
    }
}

enum Visit {
    Stop(Stop),
    /// A trap or ROM routine ran instead of the instruction.
    Trapped,
    /// Run the instruction.
    Run,
}

impl<B: Bus> Emulator<B> {
    /// A CPU (of the default core) as after power-on on `bus`, our core
    /// running the blocks `compiled` for it where the program has them
    /// (none: `&[]`).
    pub fn new(bus: B, compiled: &'static [Compiled<B>]) -> Emulator<B> {
        let mut emu = Emulator {
            cpu: Cpu::new(Core::default()),
            bus,
            compiled,
            marks: Marks::new(),
            watches: Watches::default(),
            probes: Vec::new(),
            samples: Vec::new(),
            traps: Vec::new(),
            extra: 0,
            idle: 0,
            call_sp: None,
            cut: Cut::never(),
        };
        emu.remap();
        emu
    }

    /// The core the CPU runs on.
    pub fn core(&self) -> Core {
        self.cpu.core()
    }

    /// Moves the CPU, its registers and its T-state count, to `core`.
    pub fn set_core(&mut self, core: Core) {
        if core != self.cpu.core() {
            let (regs, tstates, halted) = (self.cpu.regs(), self.cpu.tstates(), self.cpu.halted());
            debug_assert!(!halted, "a halted CPU changes core only by being reset");
            std::mem::replace(&mut self.cpu, Cpu::new(core)).retire();
            self.cpu.set_regs(&regs);
            self.cpu.set_tstates(tstates);
        }
    }

    /// Marks again what is not executable (after the memory map changed),
    /// page by page: the machines' memory maps change at 256-byte
    /// boundaries.
    pub fn remap(&mut self) {
        for page in 0..=255u16 {
            let executable = self.bus.executable(page << 8);
            self.marks.page(page as u8, Marks::ROM, !executable);
        }
    }

    /// The machine's bus.
    pub fn bus(&self) -> &B {
        &self.bus
    }

    pub fn bus_mut(&mut self) -> &mut B {
        &mut self.bus
    }

    pub fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }

    pub fn peek16(&self, addr: u16) -> u16 {
        self.bus.peek16(addr)
    }

    pub fn poke(&mut self, addr: u16, value: u8) {
        self.bus.poke(addr, value)
    }

    pub fn poke16(&mut self, addr: u16, value: u16) {
        self.bus.poke16(addr, value)
    }

    /// Writes `bytes` from `addr` on (see [`Memory::poke_bytes`]).
    pub fn poke_bytes(&mut self, addr: u16, bytes: &[u8]) {
        self.bus.poke_bytes(addr, bytes)
    }

    /// Every register.
    pub fn regs(&self) -> Regs {
        self.cpu.regs()
    }

    /// Sets every register.
    pub fn set_regs(&mut self, regs: &Regs) {
        self.cpu.set_regs(regs)
    }

    pub fn pc(&self) -> u16 {
        self.cpu.pc()
    }

    pub fn sp(&self) -> u16 {
        self.cpu.sp()
    }

    /// The flags register.
    pub fn f(&self) -> u8 {
        self.cpu.f()
    }

    /// The accumulator.
    pub fn a(&self) -> u8 {
        self.cpu.a()
    }

    /// Continues execution at `pc` with the stack pointer at `sp`.
    pub fn jump(&mut self, pc: u16, sp: u16) {
        self.cpu.set_pc(pc);
        self.cpu.set_sp(sp);
    }

    /// Pushes a word, as `PUSH` or `CALL` would.
    pub fn push(&mut self, value: u16) {
        let sp = self.cpu.sp().wrapping_sub(2);
        self.bus.poke16(sp, value);
        self.cpu.set_sp(sp);
    }

    /// Pops a word.
    pub fn pop(&mut self) -> u16 {
        let sp = self.cpu.sp();
        self.cpu.set_sp(sp.wrapping_add(2));
        self.bus.peek16(sp)
    }

    /// Returns from a high-level routine that took `tstates`: `RET`.
    pub fn ret(&mut self, tstates: u64) {
        let to = self.pop();
        self.cpu.set_pc(to);
        self.charge(tstates);
    }

    /// Runs one instruction at PC whatever is marked there (for the few
    /// instructions a machine feeds the CPU itself, such as an interrupt
    /// handler's `EI; RET`).
    pub fn step(&mut self) {
        self.cpu.step(&mut self.bus)
    }

    /// Accepts a mode 1 interrupt (PC pushed, PC = 0x0038), if the CPU can.
    pub fn interrupt_im1(&mut self) -> bool {
        self.cpu.interrupt_im1(&mut self.bus)
    }

    /// Is the CPU halted?
    pub fn halted(&self) -> bool {
        self.cpu.halted()
    }

    /// Machine time: T-states since power-on, high-level routines and idle
    /// time included.
    pub fn tstates(&self) -> u64 {
        self.cpu.tstates() + self.extra
    }

    /// T-states the CPU or a high-level routine ran (idle time excluded).
    pub fn busy_tstates(&self) -> u64 {
        self.tstates() - self.idle
    }

    /// The part of [`busy_tstates`](Self::busy_tstates) that is charged by
    /// high-level routines rather than run by the CPU.
    pub fn estimated_tstates(&self) -> u64 {
        self.extra - self.idle
    }

    /// Adds the time of a high-level routine.
    pub fn charge(&mut self, tstates: u64) {
        self.extra += tstates;
    }

    /// Skips time in which the program only waits (for a key).
    pub fn idle(&mut self, tstates: u64) {
        self.extra += tstates;
        self.idle += tstates;
    }

    /// Counts how often execution reaches each of `addrs` (replacing any
    /// earlier watches; counts restart at zero).
    pub fn watch(&mut self, addrs: &[u16]) {
        for addr in self.watches.addrs() {
            self.marks.clear(addr, Marks::WATCH);
        }
        self.watches = Watches::new(addrs);
        for &addr in addrs {
            self.marks.set(addr, Marks::WATCH);
        }
    }

    /// How often execution reached the `i`-th watched address.
    pub fn hits(&self, i: usize) -> u64 {
        self.watches.hits(i)
    }

    /// Copies what `read` chooses, with the registers, each time execution
    /// reaches `addr`, before the instruction there runs (replacing any
    /// probe at `addr`). A probe changes nothing the program can see: it
    /// gets the machine read-only, and the CPU only stops at the address
    /// between two instructions, as it does for a watch, so the program's
    /// course and its T-states are those of a run without it.
    pub fn probe(&mut self, addr: u16, read: ProbeRead) {
        self.probes.retain(|(a, _)| *a != addr);
        self.probes.push((addr, read));
        self.marks.set(addr, Marks::PROBE);
    }

    /// Removes every probe (the samples taken stay until taken).
    pub fn unprobe(&mut self) {
        for (addr, _) in self.probes.drain(..) {
            self.marks.clear(addr, Marks::PROBE);
        }
    }

    /// The samples the probes took since the last call, oldest first.
    pub fn take_samples(&mut self) -> Vec<Sample> {
        std::mem::take(&mut self.samples)
    }

    /// Runs `trap` whenever execution reaches `addr`, instead of the code
    /// there (replacing any trap at `addr`). Traps come before ROM routines.
    pub fn trap(&mut self, addr: u16, trap: impl Trap + 'static) {
        self.traps.retain(|(a, _)| *a != addr);
        self.traps.push((addr, Box::new(trap)));
        self.marks.set(addr, Marks::TRAP);
    }

    /// Removes the trap at `addr`, if any.
    pub fn untrap(&mut self, addr: u16) {
        self.traps.retain(|(a, _)| *a != addr);
        self.marks.clear(addr, Marks::TRAP);
    }

    /// From now on, runs also end with [`Stop::Cut`] when `cut` says so
    /// (asked every [`CUT_SLICE`] busy T-states, where the loop stops
    /// anyway); [`Cut::never`] removes it.
    pub fn set_cut(&mut self, cut: Cut) {
        self.cut = cut;
    }

    /// Runs until a named stop, and also stops with [`Stop::Breakpoint`]
    /// when execution is about to run the instruction at `breakpoint` (not
    /// counting the one it starts at). The budget: [`Stop::BudgetExhausted`]
    /// at the first instruction boundary where `budget` T-states of busy
    /// time have passed (so at most one instruction, or one high-level
    /// routine, past it).
    pub fn run<D: Devices<B>>(
        &mut self,
        dev: &mut D,
        budget: u64,
        breakpoint: Option<u16>,
    ) -> Stop {
        if let Some(bp) = breakpoint {
            self.marks.set(bp, Marks::BREAK);
        }
        let stop = self.run_loop(dev, budget, breakpoint);
        if let Some(bp) = breakpoint {
            self.marks.clear(bp, Marks::BREAK);
        }
        stop
    }

    /// Calls the routine at `entry` as a `CALL` from [`CALL_RETURN`] would,
    /// with the registers as they are, and runs until it returns
    /// ([`Stop::Returned`], PC left at [`CALL_RETURN`]) or stops otherwise.
    pub fn call<D: Devices<B>>(&mut self, dev: &mut D, entry: u16, budget: u64) -> Stop {
        let sp = self.cpu.sp();
        self.push(CALL_RETURN);
        self.cpu.set_pc(entry);
        self.call_sp = Some(sp);
        self.marks.set(CALL_RETURN, Marks::RETURN);
        let stop = self.run(dev, budget, None);
        self.marks.clear(CALL_RETURN, Marks::RETURN);
        self.call_sp = None;
        stop
    }

    fn run_loop<D: Devices<B>>(
        &mut self,
        dev: &mut D,
        budget: u64,
        breakpoint: Option<u16>,
    ) -> Stop {
        let limit = self.busy_tstates().saturating_add(budget);
        let mut check_at = if self.cut.is_set() {
            self.busy_tstates().saturating_add(CUT_SLICE)
        } else {
            u64::MAX
        };
        let mut first = true;
        loop {
            if self.tstates() >= dev.next_event()
                && let Some(stop) = dev.event(self)
            {
                return stop;
            }
            let pc = self.cpu.pc();
            let mark = self.marks.at(pc);
            let visit = if mark == 0 {
                Visit::Run
            } else {
                self.visit(dev, pc, mark, first, breakpoint)
            };
            first = false;
            // A program stuck for good ends a run of the CPU at the event
            // (or halts): only then is it looked for.
            let ended_at_limit = match visit {
                Visit::Stop(stop) => return stop,
                Visit::Trapped => false,
                Visit::Run => match self.segment(dev, limit) {
                    Ok(end) => matches!(end, RunEnd::Limit | RunEnd::Halt),
                    Err(stop) => return stop,
                },
            };
            if let Some(stop) = dev.after(self) {
                return stop;
            }
            if ended_at_limit && let Some(stop) = self.stuck(dev) {
                return stop;
            }
            if self.busy_tstates() >= limit {
                return Stop::BudgetExhausted { pc: self.cpu.pc() };
            }
            if self.busy_tstates() >= check_at {
                if self.cut.due() {
                    return Stop::Cut { pc: self.cpu.pc() };
                }
                check_at = self.busy_tstates().saturating_add(CUT_SLICE);
            }
        }
    }

    /// What happens at a marked address before the instruction there runs.
    fn visit<D: Devices<B>>(
        &mut self,
        dev: &mut D,
        pc: u16,
        mark: u8,
        first: bool,
        breakpoint: Option<u16>,
    ) -> Visit {
        if mark & Marks::RETURN != 0 && self.call_sp == Some(self.cpu.sp()) {
            return Visit::Stop(Stop::Returned);
        }
        if mark & Marks::BREAK != 0 && !first && breakpoint == Some(pc) {
            return Visit::Stop(Stop::Breakpoint { pc });
        }
        if mark & Marks::WATCH != 0 {
            self.watches.visit(pc);
        }
        if mark & Marks::PROBE != 0 {
            self.sample(pc);
        }
        if mark & Marks::TRAP != 0 {
            return self.run_trap(pc);
        }
        if mark & Marks::ROM != 0 {
            return match dev.rom(self, pc) {
                Some(stop) => Visit::Stop(stop),
                None => Visit::Trapped,
            };
        }
        Visit::Run
    }

    fn sample(&mut self, pc: u16) {
        let Some(&(_, read)) = self.probes.iter().find(|(a, _)| *a == pc) else {
            return;
        };
        let regs = self.cpu.regs();
        let bytes = read(&regs, &self.bus);
        self.samples.push(Sample {
            pc,
            tstates: self.tstates(),
            regs,
            bytes,
        });
    }

    fn run_trap(&mut self, pc: u16) -> Visit {
        let Some((_, trap)) = self.traps.iter_mut().find(|(a, _)| *a == pc) else {
            return Visit::Run;
        };
        let mut regs = self.cpu.regs();
        let resume = trap.run(&mut regs, &mut self.bus);
        self.cpu.set_regs(&regs);
        match resume {
            Resume::Return { tstates } => {
                self.ret(tstates);
                Visit::Trapped
            }
            Resume::Continue { tstates } => {
                self.charge(tstates);
                if regs.pc == pc {
                    Visit::Run
                } else {
                    Visit::Trapped
                }
            }
            Resume::Stop(stop) => Visit::Stop(stop),
        }
    }

    /// Runs the CPU until the next event or the budget's end, and charges
    /// the ROM routines it performed inside the run ([`Bus::routine`]).
    fn segment<D: Devices<B>>(&mut self, dev: &D, limit: u64) -> Result<RunEnd, Stop> {
        let until = dev.next_event().min(limit.saturating_add(self.idle));
        let (cpu, bus, compiled, marks, watches) = (
            &mut self.cpu,
            &mut self.bus,
            self.compiled,
            &self.marks,
            &mut self.watches,
        );
        let until = until.saturating_sub(self.extra);
        let end = profile::in_core(|| cpu.run(bus, compiled, marks, watches, until));
        self.extra += self.cpu.take_charged();
        if let Some(fault) = self.bus.take_fault() {
            return Err(Stop::Fault(fault.at(self.cpu.last_pc())));
        }
        debug_assert!(end != RunEnd::Halt || self.cpu.halted());
        Ok(end)
    }

    /// A program that can never do anything else: a HALT nothing will end,
    /// or a jump to itself whose condition holds.
    fn stuck<D: Devices<B>>(&self, dev: &D) -> Option<Stop> {
        if self.cpu.halted() {
            return (!dev.wakes_halt(self)).then(|| Stop::Halted {
                pc: self.cpu.last_pc(),
            });
        }
        let pc = self.cpu.pc();
        let code = |i: u16| self.bus.peek(pc.wrapping_add(i));
        cpu::is_self_jump(pc, self.cpu.f(), code).then_some(Stop::Stuck { pc })
    }
}

#[cfg(test)]
mod tests {
    //! The run loop on a bare machine: 64K of flat memory whose first page
    //! is "ROM" (not executable), no frame clock, no keyboard. Each test
    //! runs a few hand-assembled instructions and checks the stop, the
    //! registers and the T-states the Z80 manual gives.

    use super::*;
    use crate::machine::{Fault, Memory};

    #[derive(Clone)]
    struct Flat {
        mem: Box<[u8; 0x1_0000]>,
    }

    impl Memory for Flat {
        fn peek(&self, addr: u16) -> u8 {
            self.mem[usize::from(addr)]
        }
        fn poke(&mut self, addr: u16, value: u8) {
            self.mem[usize::from(addr)] = value;
        }
    }

    impl Bus for Flat {
        fn read(&self, addr: u16) -> u8 {
            self.mem[usize::from(addr)]
        }
        fn write(&mut self, addr: u16, value: u8) {
            self.mem[usize::from(addr)] = value;
        }
        fn signalled(&self) -> bool {
            false
        }
        fn take_fault(&mut self) -> Option<crate::machine::Fault> {
            None
        }
        fn executable(&self, addr: u16) -> bool {
            addr >= 0x100
        }
        fn ram(&self) -> &[u8] {
            &self.mem[..]
        }
    }

    /// No events; the "ROM" is a fault.
    struct Bare;

    impl Devices<Flat> for Bare {
        fn next_event(&self) -> u64 {
            u64::MAX
        }
        fn event(&mut self, _: &mut Emulator<Flat>) -> Option<Stop> {
            None
        }
        fn rom(&mut self, _: &mut Emulator<Flat>, pc: u16) -> Option<Stop> {
            Some(Stop::Fault(Fault::RomCall { pc }))
        }
        fn after(&mut self, _: &mut Emulator<Flat>) -> Option<Stop> {
            None
        }
        fn wakes_halt(&self, _: &Emulator<Flat>) -> bool {
            false
        }
    }

    /// An emulator with `code` at 0x8000, PC there and SP at 0xF000.
    fn with_code(code: &[u8]) -> Emulator<Flat> {
        let mut emu = Emulator::new(
            Flat {
                mem: Box::new([0; 0x1_0000]),
            },
            &[],
        );
        for (i, &b) in code.iter().enumerate() {
            emu.poke(0x8000 + i as u16, b);
        }
        emu.jump(0x8000, 0xF000);
        emu
    }

    #[test]
    fn a_call_returns_with_the_routines_tstates() {
        // LD A,42 (7 T-states); RET (10).
        let mut emu = with_code(&[0x3E, 42, 0xC9]);
        let stop = emu.call(&mut Bare, 0x8000, 1_000);
        assert_eq!(stop, Stop::Returned);
        assert_eq!(emu.a(), 42);
        assert_eq!(emu.pc(), CALL_RETURN);
        assert_eq!(emu.sp(), 0xF000, "the return address was popped");
        assert_eq!(emu.busy_tstates(), 17);
    }

    #[test]
    fn watches_count_visits_and_a_halt_nothing_wakes_ends_the_run() {
        // LD B,10; loop: DJNZ loop; HALT.
        let mut emu = with_code(&[0x06, 10, 0x10, 0xFE, 0x76]);
        emu.watch(&[0x8002]);
        let stop = emu.run(&mut Bare, 10_000, None);
        assert_eq!(stop, Stop::Halted { pc: 0x8004 });
        assert_eq!(emu.hits(0), 10);
        assert_eq!(emu.hits(1), 0, "no second watch");
        // 7 + 9 × 13 (taken) + 8 (not taken) + 4 (HALT).
        assert_eq!(emu.busy_tstates(), 7 + 9 * 13 + 8 + 4);
    }

    #[test]
    fn a_jump_to_itself_is_stuck_and_a_loop_runs_out_of_budget() {
        let mut emu = with_code(&[0x00, 0x18, 0xFE]); // NOP; JR $
        assert_eq!(
            emu.run(&mut Bare, 1_000_000, None),
            Stop::Stuck { pc: 0x8001 }
        );
        // loop: INC A; JR loop — never the same instruction twice in a row.
        let mut emu = with_code(&[0x3C, 0x18, 0xFD]);
        let stop = emu.run(&mut Bare, 1_000, None);
        assert!(matches!(stop, Stop::BudgetExhausted { .. }), "{stop:?}");
        let busy = emu.busy_tstates();
        assert!((1_000..1_000 + 12).contains(&busy), "{busy}");
    }

    /// An event every 10,000 T-states that does nothing (a frame clock).
    struct Ticking(u64);

    impl Devices<Flat> for Ticking {
        fn next_event(&self) -> u64 {
            self.0
        }
        fn event(&mut self, _: &mut Emulator<Flat>) -> Option<Stop> {
            self.0 += 10_000;
            None
        }
        fn rom(&mut self, _: &mut Emulator<Flat>, pc: u16) -> Option<Stop> {
            Some(Stop::Fault(Fault::RomCall { pc }))
        }
        fn after(&mut self, _: &mut Emulator<Flat>) -> Option<Stop> {
            None
        }
        fn wakes_halt(&self, _: &Emulator<Flat>) -> bool {
            false
        }
    }

    #[test]
    fn a_cut_ends_the_run_where_it_stops_anyway_and_changes_nothing_before() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicU32, Ordering};
        // loop: INC A; JR loop.
        let code = [0x3C, 0x18, 0xFD];
        let asked = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&asked);
        let mut emu = with_code(&code);
        // Due at the third time of asking.
        emu.set_cut(Cut::when(move || {
            counter.fetch_add(1, Ordering::SeqCst) >= 2
        }));
        let stop = emu.run(&mut Ticking(10_000), 10_000_000, None);
        assert!(matches!(stop, Stop::Cut { .. }), "{stop:?}");
        assert_eq!(asked.load(Ordering::SeqCst), 3, "asked once a slice");
        let busy = emu.busy_tstates();
        assert!(
            (3 * CUT_SLICE..3 * CUT_SLICE + 3 * 10_000 + 12).contains(&busy),
            "cut at a frame past the third slice: {busy}"
        );
        // The same run without a cut, to the same time, is the same machine.
        let mut plain = with_code(&code);
        let stop = plain.run(&mut Ticking(10_000), busy, None);
        assert!(matches!(stop, Stop::BudgetExhausted { .. }), "{stop:?}");
        assert_eq!(plain.busy_tstates(), busy);
        assert_eq!((plain.a(), plain.pc()), (emu.a(), emu.pc()));
        // Removed, the cut is never asked again: the budget ends the run.
        emu.set_cut(Cut::never());
        let stop = emu.run(&mut Ticking(emu.tstates() + 10_000), 100_000, None);
        assert!(matches!(stop, Stop::BudgetExhausted { .. }), "{stop:?}");
        assert_eq!(asked.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_breakpoint_stops_before_its_instruction_but_not_where_the_run_starts() {
        let mut emu = with_code(&[0x00, 0x00, 0x00, 0x18, 0xFE]);
        let stop = emu.run(&mut Bare, 1_000, Some(0x8002));
        assert_eq!(stop, Stop::Breakpoint { pc: 0x8002 });
        assert_eq!(emu.busy_tstates(), 8, "two NOPs ran");
        // From the breakpoint itself, the run goes on past it.
        assert_eq!(
            emu.run(&mut Bare, 1_000, Some(0x8002)),
            Stop::Stuck { pc: 0x8003 }
        );
    }

    #[test]
    fn a_trap_runs_in_place_of_the_code_and_charges_its_time() {
        // CALL 0x9000; HALT — and at 0x9000 a trap that sets A and returns.
        let mut emu = with_code(&[0xCD, 0x00, 0x90, 0x76]);
        emu.trap(0x9000, |regs: &mut Regs, _: &mut dyn Memory| {
            regs.af = 0x9900 | (regs.af & 0xFF);
            Resume::Return { tstates: 100 }
        });
        assert_eq!(
            emu.run(&mut Bare, 10_000, None),
            Stop::Halted { pc: 0x8003 }
        );
        assert_eq!(emu.a(), 0x99);
        // CALL (17) and HALT (4) ran; the trap was charged 100.
        assert_eq!(emu.busy_tstates(), 17 + 4 + 100);
        assert_eq!(emu.estimated_tstates(), 100);
    }

    #[test]
    fn a_probe_copies_every_visit_and_changes_nothing() {
        let code = [0x06, 3, 0x78, 0x10, 0xFD, 0x76]; // LD B,3; l: LD A,B; DJNZ l; HALT
        let mut plain = with_code(&code);
        let stop = plain.run(&mut Bare, 10_000, None);
        let mut probed = with_code(&code);
        probed.probe(0x8002, |regs, mem| vec![mem.peek(regs.pc)]);
        assert_eq!(probed.run(&mut Bare, 10_000, None), stop);
        assert_eq!(probed.busy_tstates(), plain.busy_tstates());
        assert_eq!(probed.regs(), plain.regs());
        let samples = probed.take_samples();
        let bs: Vec<u16> = samples.iter().map(|s| s.regs.bc >> 8).collect();
        assert_eq!(bs, [3, 2, 1]);
        assert!(samples.iter().all(|s| s.pc == 0x8002 && s.bytes == [0x78]));
        assert!(probed.take_samples().is_empty(), "taken once");
    }

    #[test]
    fn idle_time_is_machine_time_but_not_busy_time() {
        let mut emu = with_code(&[0x00, 0x76]);
        emu.idle(5_000);
        emu.charge(30);
        assert_eq!(emu.tstates(), 5_030);
        assert_eq!(emu.busy_tstates(), 30);
        emu.run(&mut Bare, 100, None);
        assert_eq!(emu.busy_tstates(), 38);
    }

    #[test]
    fn execution_in_rom_goes_to_the_machine() {
        let mut emu = with_code(&[0xC3, 0x10, 0x00]); // JP 0x0010
        assert_eq!(
            emu.run(&mut Bare, 1_000, None),
            Stop::Fault(Fault::RomCall { pc: 0x0010 })
        );
    }
}
