//! Two cores side by side, compared after every instruction: `z80emu`
//! drives the machine, the follower (`iz80`, or our own core [`Own`]) runs
//! the same instruction on a copy of the bus, and their registers and RAM
//! must agree.
//!
//! Our own core must agree exactly: every register, R and flag bits 3 and
//! 5 included, MEMPTR, the RAM and the T-states of every instruction.
//!
//! `iz80` must agree with two known exceptions:
//! R (`iz80` does not count it) and the undocumented flag bits 3 and 5
//! after `SCF`/`CCF` and `BIT b,(HL)` (`z80emu` gives what the NMOS Z80
//! does: `(Q ^ F) | A` and MEMPTR's high byte; `iz80` does not; see
//! [`undocumented_xy`]). T-states are compared separately and tallied by
//! opcode, since `iz80` 0.5.1 counts the conditional jumps and indexed
//! instructions differently from the Z80 manual
//! ([`known_tstate_difference`]).
//!
//! What the comparisons found is gathered per thread ([`take_report`]), so a
//! test can drive an engine on [`super::super::Core::Lockstep`] and read
//! what was compared.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::iz80::Iz80;
use super::own::{Compiled, Own};
use super::z80emu::Z80emu;
use super::{Bus, Marks, Regs, RunEnd};

/// T-states `iz80` 0.5.1 counts differently from the Z80 manual (Zilog
/// UM0080, the instruction tables): (instruction, case, manual, `iz80`).
/// `JR cc` not taken is 7 (iz80 8); `JP cc` is 10 taken or not (iz80 12
/// taken, 7 not). Found in `iz80`'s cycle tables and measured
/// (`tests/cores.rs`).
pub const KNOWN_TSTATE_DIFFERENCES: [(&str, &str, u64, u64); 3] = [
    ("JR cc,e", "not taken", 7, 8),
    ("JP cc,nn", "not taken", 10, 7),
    ("JP cc,nn", "taken", 10, 12),
];

/// Is this a known difference of `iz80` 0.5.1's T-states from the Z80
/// manual? Names it: a conditional jump of [`KNOWN_TSTATE_DIFFERENCES`], or
/// a DD/FD-prefixed instruction, for which `iz80` counts the unprefixed
/// instruction's T-states (`LD A,(IX+d)`: the manual 19, `iz80` 7).
pub fn known_tstate_difference(opcode: Opcode, z80emu: u64, iz80: u64) -> Option<&'static str> {
    let jump = KNOWN_TSTATE_DIFFERENCES
        .iter()
        .find(|&&(name, _, manual, theirs)| {
            opcode.conditional_jump() == Some(name) && (z80emu, iz80) == (manual, theirs)
        })
        .map(|&(name, ..)| name);
    let indexed = matches!(opcode.0 >> 8, 0xDD | 0xFD | 0xDDCB | 0xFDCB) && iz80 < z80emu;
    jump.or(indexed.then_some("DD/FD-prefixed"))
}

/// Does `opcode` set flag bits 3 and 5 from state `iz80` does not keep (Q
/// for `SCF`/`CCF`, MEMPTR for `BIT b,(HL)` and `BIT b,(IX+d)`)?
pub fn undocumented_xy(opcode: Opcode) -> bool {
    let bit_mem = |op: u32| op & 0xC7 == 0x46;
    match opcode.0 >> 8 {
        0 => matches!(opcode.0, 0x37 | 0x3F),
        0xCB => bit_mem(opcode.0 & 0xFF),
        0xDDCB | 0xFDCB => opcode.0 & 0xC0 == 0x40,
        _ => false,
    }
}

/// An instruction's opcode: its prefixes and opcode byte (a displacement
/// left out), e.g. `3E`, `CB 46`, `DD CB 46`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Opcode(pub u32);

impl Opcode {
    /// The opcode of the instruction at `pc` in `mem`.
    pub fn at(mem: &impl Fn(u16) -> u8, pc: u16) -> Opcode {
        let b = |i: u16| u32::from(mem(pc.wrapping_add(i)));
        Opcode(match b(0) {
            0xCB | 0xED => (b(0) << 8) | b(1),
            0xDD | 0xFD if b(1) == 0xCB => (b(0) << 16) | (0xCB << 8) | b(3),
            0xDD | 0xFD => (b(0) << 8) | b(1),
            op => op,
        })
    }

    /// Is it `JR cc,e` or `JP cc,nn`?
    pub fn conditional_jump(self) -> Option<&'static str> {
        match self.0 {
            0x20 | 0x28 | 0x30 | 0x38 => Some("JR cc,e"),
            0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => Some("JP cc,nn"),
            _ => None,
        }
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0.to_be_bytes();
        let start = bytes.iter().position(|&b| b != 0).unwrap_or(3);
        let parts: Vec<String> = bytes[start..].iter().map(|b| format!("{b:02X}")).collect();
        write!(f, "{}", parts.join(" "))
    }
}

/// What lockstep runs compared on this thread.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Instructions run by both cores and compared.
    pub instructions: u64,
    /// Whole runs of our core (see [`Lockstep::run`]) compared.
    pub runs: u64,
    /// Blocks compiled ahead of time that our core ran in them (see
    /// [`super::own::Compiled`]).
    pub compiled: u64,
    /// Of those, how many ran straight after another (see
    /// [`super::own::Own::chained_runs`]).
    pub chained: u64,
    /// Distinct opcodes among them.
    pub opcodes: BTreeSet<Opcode>,
    /// Instructions whose T-states differ: (opcode, z80emu, follower) → count.
    pub tstates: BTreeMap<(Opcode, u64, u64), u64>,
    /// Instructions after which only flag bits 3 and 5 differed, as
    /// [`undocumented_xy`] allows.
    pub xy_flags: u64,
    /// Instructions after which registers or RAM differed otherwise.
    pub divergences: u64,
    /// The first few, described.
    pub first: Vec<String>,
}

thread_local! {
    static REPORT: RefCell<Report> = RefCell::new(Report::default());
}

/// What lockstep runs on this thread compared since the last call.
pub fn take_report() -> Report {
    REPORT.with(|r| std::mem::take(&mut *r.borrow_mut()))
}

/// The core that follows `z80emu`.
pub enum Follow {
    Iz80(Iz80),
    Own(Own),
}

impl Follow {
    fn regs(&self) -> Regs {
        match self {
            Follow::Iz80(c) => c.regs(),
            Follow::Own(c) => c.regs(),
        }
    }

    pub fn set_regs(&mut self, regs: &Regs) {
        match self {
            Follow::Iz80(c) => c.set_regs(regs),
            Follow::Own(c) => c.set_regs(regs),
        }
    }

    pub fn set_pc(&mut self, pc: u16) {
        match self {
            Follow::Iz80(c) => c.set_pc(pc),
            Follow::Own(c) => c.set_pc(pc),
        }
    }

    pub fn set_sp(&mut self, sp: u16) {
        match self {
            Follow::Iz80(c) => c.set_sp(sp),
            Follow::Own(c) => c.set_sp(sp),
        }
    }

    fn tstates(&self) -> u64 {
        match self {
            Follow::Iz80(c) => c.tstates(),
            Follow::Own(c) => c.tstates(),
        }
    }

    pub fn set_tstates(&mut self, tstates: u64) {
        match self {
            Follow::Iz80(c) => c.set_tstates(tstates),
            Follow::Own(c) => c.set_tstates(tstates),
        }
    }

    fn run<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        until: u64,
    ) -> RunEnd {
        match self {
            Follow::Iz80(c) => c.run(bus, marks, until),
            Follow::Own(c) => c.run(bus, compiled, marks, until),
        }
    }

    fn step<B: Bus>(&mut self, bus: &mut B) {
        match self {
            Follow::Iz80(c) => c.step(bus),
            Follow::Own(c) => c.step(bus),
        }
    }

    fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        match self {
            Follow::Iz80(c) => c.interrupt_im1(bus),
            Follow::Own(c) => c.interrupt_im1(bus),
        }
    }
}

/// `z80emu` and a follower on the same program.
pub struct Lockstep {
    pub lead: Z80emu,
    pub follow: Follow,
}

impl Default for Lockstep {
    fn default() -> Self {
        Lockstep {
            lead: Z80emu::new(),
            follow: Follow::Iz80(Iz80::new()),
        }
    }
}

impl Lockstep {
    /// `z80emu` followed by our own core.
    pub fn own() -> Lockstep {
        Lockstep {
            lead: Z80emu::new(),
            follow: Follow::Own(Own::new()),
        }
    }

    pub fn set_regs(&mut self, regs: &Regs) {
        self.lead.set_regs(regs);
        self.follow.set_regs(regs);
    }

    /// Runs both cores instruction by instruction, compared after each;
    /// with our core following, a copy of it also runs the whole run at
    /// once on a copy of the bus (decoded blocks and all), compared at the
    /// end: where the run ended, every register, MEMPTR, the T-states and
    /// the RAM. The copy performs no ROM routine inside its run
    /// ([`Own::set_routines`]): `z80emu`'s run ends at the routine's
    /// address, and the run loop performs it (what our core's routines
    /// leave is compared with that by `tests/machine/routines.rs`).
    ///
    /// `compiled` are the blocks compiled ahead of time for this bus, which
    /// our core runs (see [`Own::run`]).
    pub fn run<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        until: u64,
    ) -> RunEnd {
        let whole = match &self.follow {
            Follow::Own(c) => {
                let mut runner = c.clone();
                runner.set_routines(false);
                Some((runner, bus.clone()))
            }
            Follow::Iz80(_) => None,
        };
        let end = self.run_steps(bus, compiled, marks, until);
        if let Some((mut runner, mut copy)) = whole {
            let runner_end = runner.run(&mut copy, compiled, marks, until);
            let (a, b) = (self.lead.regs(), runner.regs());
            let same = end == runner_end
                && a == b
                && runner.memptr() == self.lead.memptr()
                && runner.halted() == self.lead.halted()
                && runner.tstates() == self.lead.tstates()
                && bus.ram() == copy.ram();
            REPORT.with(|r| {
                let mut r = r.borrow_mut();
                r.runs += 1;
                r.compiled += runner.compiled_runs();
                r.chained += runner.chained_runs();
                if !same {
                    r.divergences += 1;
                    if r.first.len() < 5 {
                        let ram = first_difference(bus.ram(), copy.ram());
                        r.first.push(format!(
                            "a whole run to {until}: z80emu {end:?} {a} R {:02X} {} T / own {runner_end:?} {b} R {:02X} {} T{ram}",
                            a.r,
                            self.lead.tstates(),
                            b.r,
                            runner.tstates()
                        ));
                    }
                }
            });
        }
        end
    }

    fn run_steps<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        until: u64,
    ) -> RunEnd {
        let mut copy = bus.clone();
        if self.lead.halted() {
            self.follow.run(&mut copy, compiled, marks, until);
            return self.lead.run(bus, marks, until);
        }
        loop {
            self.step_both(
                bus,
                &mut copy,
                |cpu, bus| cpu.lead.step(bus),
                |cpu, bus| cpu.follow.step(bus),
            );
            if self.lead.halted() {
                return RunEnd::Halt;
            }
            if bus.signalled() {
                return RunEnd::Signal;
            }
            if self.lead.tstates() >= until {
                return RunEnd::Limit;
            }
            if marks.at(self.lead.pc()) != 0 {
                return RunEnd::Marked;
            }
        }
    }

    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        let mut copy = bus.clone();
        self.step_both(
            bus,
            &mut copy,
            |cpu, bus| cpu.lead.step(bus),
            |cpu, bus| cpu.follow.step(bus),
        );
    }

    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        let mut copy = bus.clone();
        let mut taken = false;
        self.step_both(
            bus,
            &mut copy,
            |cpu, bus| taken = cpu.lead.interrupt_im1(bus),
            |cpu, bus| {
                cpu.follow.interrupt_im1(bus);
            },
        );
        taken
    }

    /// Runs `lead` on the bus and `follow` on its copy, then compares.
    fn step_both<B: Bus>(
        &mut self,
        bus: &mut B,
        copy: &mut B,
        mut lead: impl FnMut(&mut Self, &mut B),
        follow: impl FnOnce(&mut Self, &mut B),
    ) {
        let pc = self.lead.pc();
        let opcode = Opcode::at(&|a| bus.peek(a), pc);
        let (t_lead, t_follow) = (self.lead.tstates(), self.follow.tstates());
        lead(self, bus);
        follow(self, copy);
        let (d_lead, d_follow) = (
            self.lead.tstates() - t_lead,
            self.follow.tstates().wrapping_sub(t_follow),
        );
        let (a, b) = (self.lead.regs(), self.follow.regs());
        let own = matches!(self.follow, Follow::Own(_));
        let xy = if undocumented_xy(opcode) && !own {
            0x28
        } else {
            0
        };
        let masked = |r: Regs| Regs {
            r: if own { r.r } else { 0 },
            af: r.af & !xy,
            ..r
        };
        let memptr = match &self.follow {
            Follow::Own(c) => c.memptr() == self.lead.memptr() && c.halted() == self.lead.halted(),
            Follow::Iz80(_) => true,
        };
        let timing = !own || d_lead == d_follow;
        let exact = masked(a) == masked(b) && memptr && timing && bus.ram() == copy.ram();
        let same = exact && a.af == b.af;
        REPORT.with(|r| {
            let mut r = r.borrow_mut();
            r.instructions += 1;
            r.opcodes.insert(opcode);
            if d_lead != d_follow {
                *r.tstates.entry((opcode, d_lead, d_follow)).or_default() += 1;
            }
            if exact && !same {
                r.xy_flags += 1;
            }
            if !exact {
                r.divergences += 1;
                if r.first.len() < 5 {
                    let ram = first_difference(bus.ram(), copy.ram());
                    let name = if own { "own" } else { "iz80" };
                    let memptr = match &self.follow {
                        Follow::Own(c) => format!(
                            " (MEMPTR {:04X} / {:04X}, halted {} / {})",
                            self.lead.memptr(),
                            c.memptr(),
                            self.lead.halted(),
                            c.halted()
                        ),
                        Follow::Iz80(_) => String::new(),
                    };
                    r.first.push(format!(
                        "after {opcode} at 0x{pc:04X}: z80emu {a} R {:02X} {d_lead} T / {name} {b} R {:02X} {d_follow} T{ram}{memptr}",
                        a.r, b.r
                    ));
                }
            }
        });
        if !exact {
            // Carry on from the leading core's state.
            *copy = bus.clone();
        }
        if !same {
            match &mut self.follow {
                Follow::Own(c) => c.copy_state(&self.lead),
                Follow::Iz80(c) => c.set_regs(&a),
            }
        }
        self.follow.set_tstates(self.lead.tstates());
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .map_or(String::new(), |i| {
            format!("; RAM byte {i}: {:02X} / {:02X}", a[i], b[i])
        })
}
