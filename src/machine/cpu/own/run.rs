//! How our core runs ([`Own`]'s methods): its registers as the rest of the
//! crate sees them, the run loop, the blocks (decoded, and compiled ahead
//! of time) and every instruction.

use super::alu::{self, C, H, N, PV, S, SZXY, SZXYP, X, XY, Y, Z};
use super::compiled::Compiled;
use super::decoded::{self, Block, Slot};
use super::{NEVER, Own};
use crate::machine::cpu::z80emu::Z80emu;
use crate::machine::cpu::{Bus, Marks, Regs, RunEnd};
use crate::machine::watches::Watches;

/// Which register pair an instruction's "HL" is: HL, or IX/IY after a DD
/// or FD prefix.
const HL: u8 = 0;
const IX: u8 = 1;
const IY: u8 = 2;

/// Indexes of the registers in [`Own::r8`]: each pair low byte first
/// (C B, E D, L H, F A), so that a pair is one little-endian word there.
const RC: usize = 0;
const RB: usize = 1;
const RE: usize = 2;
const RD: usize = 3;
const RL: usize = 4;
const RH: usize = 5;
const RF: usize = 6;
const RA: usize = 7;

/// Where the register of an opcode's 3-bit field (B C D E H L - A) is kept
/// in [`Own::r8`] (6, the memory operand, names F's place).
#[inline(always)]
fn field(r: u8) -> usize {
    let r = usize::from(r & 7);
    if r < 6 { r ^ 1 } else { r }
}

/// Calls `$arms!` with every opcode, as literals: how the decoded paths
/// make one match arm per opcode (see [`Own::run_block`]).
macro_rules! every_opcode {
    ($arms:ident) => {
        $arms!(
            0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F
            0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F
            0x20 0x21 0x22 0x23 0x24 0x25 0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F
            0x30 0x31 0x32 0x33 0x34 0x35 0x36 0x37 0x38 0x39 0x3A 0x3B 0x3C 0x3D 0x3E 0x3F
            0x40 0x41 0x42 0x43 0x44 0x45 0x46 0x47 0x48 0x49 0x4A 0x4B 0x4C 0x4D 0x4E 0x4F
            0x50 0x51 0x52 0x53 0x54 0x55 0x56 0x57 0x58 0x59 0x5A 0x5B 0x5C 0x5D 0x5E 0x5F
            0x60 0x61 0x62 0x63 0x64 0x65 0x66 0x67 0x68 0x69 0x6A 0x6B 0x6C 0x6D 0x6E 0x6F
            0x70 0x71 0x72 0x73 0x74 0x75 0x76 0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D 0x7E 0x7F
            0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87 0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F
            0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98 0x99 0x9A 0x9B 0x9C 0x9D 0x9E 0x9F
            0xA0 0xA1 0xA2 0xA3 0xA4 0xA5 0xA6 0xA7 0xA8 0xA9 0xAA 0xAB 0xAC 0xAD 0xAE 0xAF
            0xB0 0xB1 0xB2 0xB3 0xB4 0xB5 0xB6 0xB7 0xB8 0xB9 0xBA 0xBB 0xBC 0xBD 0xBE 0xBF
            0xC0 0xC1 0xC2 0xC3 0xC4 0xC5 0xC6 0xC7 0xC8 0xC9 0xCA 0xCB 0xCC 0xCD 0xCE 0xCF
            0xD0 0xD1 0xD2 0xD3 0xD4 0xD5 0xD6 0xD7 0xD8 0xD9 0xDA 0xDB 0xDC 0xDD 0xDE 0xDF
            0xE0 0xE1 0xE2 0xE3 0xE4 0xE5 0xE6 0xE7 0xE8 0xE9 0xEA 0xEB 0xEC 0xED 0xEE 0xEF
            0xF0 0xF1 0xF2 0xF3 0xF4 0xF5 0xF6 0xF7 0xF8 0xF9 0xFA 0xFB 0xFC 0xFD 0xFE 0xFF
        )
    };
}

impl Own {
    pub fn new() -> Own {
        Own::default()
    }

    /// Leaves its decoded tables to the next core made on this thread
    /// (making them costs more than a short search: see
    /// `Decoded::retire`).
    pub fn retire(self) {
        self.cache.retire();
    }

    pub fn regs(&self) -> Regs {
        Regs {
            af: self.af(),
            bc: pair(self.r8[RB], self.r8[RC]),
            de: pair(self.r8[RD], self.r8[RE]),
            hl: pair(self.r8[RH], self.r8[RL]),
            ix: self.ix,
            iy: self.iy,
            sp: self.sp,
            pc: self.pc,
            af_alt: self.af_alt,
            bc_alt: self.bc_alt,
            de_alt: self.de_alt,
            hl_alt: self.hl_alt,
            i: self.i,
            r: self.get_r(),
            iff1: self.iff1,
            iff2: self.iff2,
            im: self.im,
        }
    }

    pub fn set_regs(&mut self, v: &Regs) {
        self.unhalt();
        [self.r8[RA], self.r8[RF]] = v.af.to_be_bytes();
        [self.r8[RB], self.r8[RC]] = v.bc.to_be_bytes();
        [self.r8[RD], self.r8[RE]] = v.de.to_be_bytes();
        [self.r8[RH], self.r8[RL]] = v.hl.to_be_bytes();
        self.ix = v.ix;
        self.iy = v.iy;
        self.sp = v.sp;
        self.pc = v.pc;
        self.af_alt = v.af_alt;
        self.bc_alt = v.bc_alt;
        self.de_alt = v.de_alt;
        self.hl_alt = v.hl_alt;
        self.i = v.i;
        self.set_r(v.r);
        self.iff1 = v.iff1;
        self.iff2 = v.iff2;
        self.im = v.im;
    }

    /// Leaves the halt state as `z80emu` does (it runs a NOP, which counts
    /// as an instruction for Q and `EI`, but takes no time).
    fn unhalt(&mut self) {
        if self.halted {
            self.halted = false;
            self.forget();
        }
    }

    /// Forgets the last `EI` and flag change, as an instruction that takes
    /// no time would.
    fn forget(&mut self) {
        self.q_at = NEVER;
        self.ei_at = NEVER;
    }

    #[inline]
    pub fn pc(&self) -> u16 {
        self.pc
    }

    pub fn set_pc(&mut self, pc: u16) {
        self.unhalt();
        self.pc = pc;
    }

    #[inline]
    pub fn sp(&self) -> u16 {
        self.sp
    }

    pub fn set_sp(&mut self, sp: u16) {
        self.sp = sp;
    }

    pub fn a(&self) -> u8 {
        self.r8[RA]
    }

    pub fn f(&self) -> u8 {
        self.r8[RF]
    }

    /// MEMPTR (for comparisons with `z80emu`).
    pub fn memptr(&self) -> u16 {
        self.memptr
    }

    /// Takes over the state of a `z80emu` CPU: registers, MEMPTR, the halt
    /// and `EI` states, and its T-state count (for the lockstep core,
    /// after a divergence). Q is not readable there: it is taken as clear.
    pub fn copy_state(&mut self, lead: &Z80emu) {
        self.set_regs(&lead.regs());
        self.memptr = lead.memptr();
        self.halted = lead.halted();
        self.tstates = lead.tstates();
        self.q_at = NEVER;
        self.ei_at = if lead.after_ei() { self.tstates } else { NEVER };
    }

    #[inline]
    pub fn tstates(&self) -> u64 {
        self.tstates
    }

    pub fn set_tstates(&mut self, tstates: u64) {
        // What was just now stays just now.
        if self.q_at == self.tstates {
            self.q_at = tstates;
        }
        if self.ei_at == self.tstates {
            self.ei_at = tstates;
        }
        self.tstates = tstates;
    }

    pub fn halted(&self) -> bool {
        self.halted
    }

    /// Which blocks the core runs: a number that changes whenever it
    /// forgets them all (code written over, other marks; see [`decoded`]).
    /// For tests and diagnostics.
    pub fn blocks_generation(&self) -> u32 {
        self.cache.blocks_generation
    }

    /// How many blocks compiled ahead of time it has run (see
    /// [`Compiled`]).
    pub fn compiled_runs(&self) -> u64 {
        self.compiled_runs
    }

    /// How many of the compiled blocks run ran straight after another,
    /// not through the run loop's look at the block table (see
    /// `chained`).
    pub fn chained_runs(&self) -> u64 {
        self.chained_runs
    }

    pub fn last_pc(&self) -> u16 {
        self.last_pc
    }

    /// Whether runs perform the ROM routines the bus can, or end at them
    /// as the other cores' runs do (see [`Own::routine`]).
    pub fn set_routines(&mut self, on: bool) {
        self.routines = on;
    }

    /// The T-states of the ROM routines performed inside runs since the
    /// last call (see [`Own::routine`]).
    pub fn take_charged(&mut self) -> u64 {
        std::mem::take(&mut self.charged)
    }

    fn af(&self) -> u16 {
        pair(self.r8[RA], self.r8[RF])
    }

    fn get_r(&self) -> u8 {
        (self.r & 0x7F) | self.r7
    }

    fn set_r(&mut self, r: u8) {
        self.r = r;
        self.r7 = r & 0x80;
    }

    /// Runs from the current PC until `until` T-states, a marked address,
    /// a bus signal or a HALT; the instruction at the current PC runs even
    /// if its address is marked. See [`Cpu::run`](crate::machine::cpu::Cpu::run).
    ///
    /// `compiled` are the blocks compiled ahead of time for this bus, by
    /// start address (see [`Compiled`]; none for a bus without them): the
    /// same table on every run of a core, for the blocks it has made note
    /// which of them they are.
    #[inline]
    pub fn run<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        until: u64,
    ) -> RunEnd {
        self.run_watching(bus, compiled, marks, None, until)
    }

    /// As [`Own::run`], but a run does not end at an address marked only
    /// as watched ([`Marks::WATCH`]): the visit is counted in `watches`
    /// and the run goes on, in the state a stop there and a new run would
    /// have left (see `counted`). The driver's loop would only have
    /// counted the visit and run again: the counts and every register,
    /// T-state and byte are the same, without a return to it at each.
    #[inline]
    pub fn run_counting<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        watches: &mut Watches,
        until: u64,
    ) -> RunEnd {
        self.run_watching(bus, compiled, marks, Some(watches), until)
    }

    #[inline(never)]
    fn run_watching<B: Bus>(
        &mut self,
        bus: &mut B,
        compiled: &[Compiled<B>],
        marks: &Marks,
        mut watches: Option<&mut Watches>,
        until: u64,
    ) -> RunEnd {
        if self.halted {
            // Halted: an M1 cycle (a NOP's fetch) after another.
            while self.tstates < until {
                self.tstates += 4;
                self.r = self.r.wrapping_add(1);
            }
            return RunEnd::Limit;
        }
        self.cache.sync(bus, Some(marks));
        self.limit = until;
        let mut start = self.pc;
        if let Some(end) = self.first(bus) {
            return end;
        }
        // After a block that ran to its end, no signal is pending, and
        // the next block (made for these marks) starts at an unmarked
        // address: neither needs looking at again.
        let mut clean = false;
        // The compiled block that last ran, if it left by an exit that
        // named no block to go on to (a return): the compiled block found
        // next is noted as its likely successor (see `Decoded::after`).
        let mut returned = 0;
        loop {
            if self.tstates >= self.limit {
                if self.halted {
                    // On the HALT (past a prefix).
                    self.last_pc = self.pc;
                    return RunEnd::Halt;
                }
                self.last_pc = start;
                return RunEnd::Limit;
            }
            let pc = self.pc;
            let mut block = self.cache.block_at(pc);
            if block.generation != self.cache.blocks_generation {
                block = self.cache.block(bus, marks, pc);
                if let Some(k) = Compiled::find(compiled, &self.cache, block, pc) {
                    self.cache.note_compiled(block, k);
                }
            }
            let returned_from = std::mem::take(&mut returned);
            if !(clean && block.max_tstates > 0) && ((marks.at(pc) != 0) | bus.signalled()) {
                if let Some(w) = watches.as_deref_mut()
                    && marks.at(pc) == Marks::WATCH
                    && !bus.signalled()
                {
                    if let Some(end) = self.counted(bus, w) {
                        return end;
                    }
                    (start, clean) = (pc, false);
                    continue;
                }
                if marks.at(pc) == Marks::ROM && !bus.signalled() && self.routine(bus, pc) {
                    clean = false;
                    continue;
                }
                self.last_pc = start;
                // `z80emu` runs a HALT here and a NOP to leave it.
                self.forget();
                return if bus.signalled() {
                    RunEnd::Signal
                } else {
                    RunEnd::Marked
                };
            }
            start = pc;
            if block.max_tstates > 0 && self.tstates + u64::from(block.max_tstates) < self.limit {
                // No instruction of the block can reach the limit, none is
                // marked: only a signal or a write into decoded code ends
                // it early.
                #[cfg(feature = "census")]
                super::census::ran(pc);
                let which = self.cache.compiled(block);
                if which == 0 {
                    (start, clean) = self.run_block::<false, B>(bus, block);
                } else {
                    // A compiled block, and those it goes on to (see
                    // `chained` and the `compiled` module): the one its
                    // exit names, or after a return the one that followed
                    // it last time.
                    let to = which as u16;
                    if returned_from != 0 {
                        self.cache.note_after(returned_from, to);
                    }
                    (start, clean, returned) =
                        (compiled[usize::from(to) - 1].run)(self, bus, marks, to);
                }
            } else if block.max_tstates > 0 {
                // Too near the limit for the whole block: its instructions
                // one by one until the limit, as `exec` would run them (the
                // block has no marked address, and a signal ends it), with
                // the block's dispatch instead of decoding each again.
                start = self.run_block::<true, B>(bus, block).0;
                clean = false;
            } else {
                self.exec(bus);
                clean = false;
            }
        }
    }

    /// Runs the instruction at PC, marked or not, as a run's first: the
    /// run ends if it halts or signals.
    #[inline(always)]
    fn first<B: Bus>(&mut self, bus: &mut B) -> Option<RunEnd> {
        let start = self.pc;
        self.exec(bus);
        let end = if self.halted {
            RunEnd::Halt
        } else if bus.signalled() {
            RunEnd::Signal
        } else {
            return None;
        };
        self.last_pc = start;
        Some(end)
    }

    /// At an address marked only as watched, with no signal pending,
    /// where a run would otherwise end: counts the visit and does what a
    /// stop there and a new run would have done (forget, as at every
    /// stop, then the instruction there run as a run's first). What that
    /// instruction ended, if anything.
    #[cold]
    #[inline(never)]
    fn counted<B: Bus>(&mut self, bus: &mut B, watches: &mut Watches) -> Option<RunEnd> {
        watches.visit(self.pc);
        self.forget();
        self.first(bus)
    }

    /// At an address marked only as ROM, with no signal pending, where a
    /// run would otherwise end: the ROM routine there, if the bus performs
    /// it (see [`Bus::routine`]) in less time than the run has left. It
    /// does what a stop there would have led to, the run loop's call of
    /// the routine and a new run: Q and `EI` forgotten (as at every stop),
    /// the routine's T-states charged (the limit, in the CPU's time, comes
    /// that much nearer, as the run loop's next run would have been given
    /// it), `RET`, and what the routine wrote into memory looked at before
    /// the next instruction. With too little time left the run ends here
    /// as before, and the run loop sees its budget and events where it
    /// would have. Called here in the run's loop and at the compiled
    /// blocks' exits to the ROM area (see [`Compiled`]), where a clean exit
    /// leaves no signal pending.
    #[inline(never)]
    pub(in crate::machine) fn routine<B: Bus>(&mut self, bus: &mut B, pc: u16) -> bool {
        if !self.routines {
            return false;
        }
        let room = self.limit.saturating_sub(self.tstates);
        let Some(t) = bus.routine(pc, self.r8[RA], room) else {
            return false;
        };
        self.forget();
        self.charged += t;
        self.limit -= t;
        self.pc = bus.peek16(self.sp);
        self.sp = self.sp.wrapping_add(2);
        // The marks cannot have changed within the run.
        self.cache.sync(bus, None);
        true
    }

    /// Runs one instruction, marks or not (a halted CPU spends an M1
    /// cycle).
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.cache.sync(bus, None);
        self.last_pc = self.pc;
        if self.halted {
            self.tstates += 4;
            self.r = self.r.wrapping_add(1);
        } else {
            self.exec(bus);
        }
    }

    /// Accepts a mode 1 interrupt: 13 T-states (the acknowledge cycle, 7,
    /// and the `RST 38h` it runs, 6... the manual's 13 in all), R counted
    /// once, PC pushed (past a HALT), interrupts off.
    pub fn interrupt_im1<B: Bus>(&mut self, bus: &mut B) -> bool {
        if !self.iff1 || self.ei_at == self.tstates {
            return false;
        }
        self.iff1 = false;
        self.iff2 = false;
        self.r = self.r.wrapping_add(1);
        if self.halted {
            self.halted = false;
            self.pc = self.pc.wrapping_add(1);
        }
        self.tstates += 13;
        self.push(bus, self.pc);
        self.memptr = 0x0038;
        self.pc = 0x0038;
        true
    }

    // --- memory -------------------------------------------------------

    #[inline(always)]
    fn fetch_op<B: Bus>(&mut self, bus: &B) -> u8 {
        let op = bus.read(self.pc);
        self.pc = self.pc.wrapping_add(1);
        self.r = self.r.wrapping_add(1);
        op
    }

    #[inline(always)]
    fn imm8<B: Bus>(&mut self, bus: &B) -> u8 {
        let v = bus.read(self.pc);
        self.pc = self.pc.wrapping_add(1);
        v
    }

    #[inline(always)]
    fn imm16<B: Bus>(&mut self, bus: &B) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        pair(hi, lo)
    }

    #[inline(always)]
    fn read16<B: Bus>(bus: &B, addr: u16) -> u16 {
        let lo = bus.read(addr);
        pair(bus.read(addr.wrapping_add(1)), lo)
    }

    #[inline(always)]
    fn write16<B: Bus>(&mut self, bus: &mut B, addr: u16, v: u16) {
        self.store(bus, addr, v as u8);
        self.store(bus, addr.wrapping_add(1), (v >> 8) as u8);
    }

    /// A write by the CPU: a cell decoded code was read from makes the
    /// decoded code invalid.
    #[inline(always)]
    fn store<B: Bus>(&mut self, bus: &mut B, addr: u16, v: u8) {
        bus.write(addr, v);
        if self.cache.is_code(bus.cell(addr)) {
            self.cache.flush();
        }
    }

    /// The immediate byte: decoded, or read at PC.
    #[inline(always)]
    fn imm8d<const DECODED: bool, B: Bus>(&mut self, bus: &B, n: u16) -> u8 {
        if DECODED { n as u8 } else { self.imm8(bus) }
    }

    /// The immediate word: decoded, or read at PC.
    #[inline(always)]
    fn imm16d<const DECODED: bool, B: Bus>(&mut self, bus: &B, n: u16) -> u16 {
        if DECODED { n } else { self.imm16(bus) }
    }

    /// Steps over a displacement not used (a decoded instruction's PC is
    /// already past it).
    #[inline(always)]
    fn skip<const DECODED: bool>(&mut self) {
        if !DECODED {
            self.pc = self.pc.wrapping_add(1);
        }
    }

    /// (SP is read and written once, as a whole: updating it twice in
    /// place let the compiler merge it with its neighbour PC in one vector
    /// register, read back just after PC was stored — a stall.)
    #[inline(always)]
    fn push<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let sp = self.sp.wrapping_sub(2);
        self.sp = sp;
        self.store(bus, sp.wrapping_add(1), (v >> 8) as u8);
        self.store(bus, sp, v as u8);
    }

    #[inline(always)]
    fn pop<B: Bus>(&mut self, bus: &B) -> u16 {
        let sp = self.sp;
        let lo = bus.read(sp);
        let hi = bus.read(sp.wrapping_add(1));
        self.sp = sp.wrapping_add(2);
        pair(hi, lo)
    }

    // --- registers ----------------------------------------------------

    #[inline(always)]
    fn hl<const INDEX: u8>(&self) -> u16 {
        match INDEX {
            HL => pair(self.r8[RH], self.r8[RL]),
            IX => self.ix,
            _ => self.iy,
        }
    }

    #[inline(always)]
    fn set_hl<const INDEX: u8>(&mut self, v: u16) {
        match INDEX {
            HL => [self.r8[RH], self.r8[RL]] = v.to_be_bytes(),
            IX => self.ix = v,
            _ => self.iy = v,
        }
    }

    /// Register `r` of an opcode's 3-bit field (B C D E H L - A; 6, the
    /// memory operand, is not a register), H and L standing for the index
    /// register's halves after a prefix.
    #[inline(always)]
    fn reg<const INDEX: u8>(&self, r: u8) -> u8 {
        if INDEX == HL {
            return self.r8[field(r)];
        }
        match r & 7 {
            0 => self.r8[RB],
            1 => self.r8[RC],
            2 => self.r8[RD],
            3 => self.r8[RE],
            4 => (self.hl::<INDEX>() >> 8) as u8,
            5 => self.hl::<INDEX>() as u8,
            _ => self.r8[RA],
        }
    }

    #[inline(always)]
    fn set_reg<const INDEX: u8>(&mut self, r: u8, v: u8) {
        if INDEX == HL {
            self.r8[field(r)] = v;
            return;
        }
        match r & 7 {
            0 => self.r8[RB] = v,
            1 => self.r8[RC] = v,
            2 => self.r8[RD] = v,
            3 => self.r8[RE] = v,
            4 => {
                let w = self.hl::<INDEX>();
                self.set_hl::<INDEX>((w & 0x00FF) | (u16::from(v) << 8));
            }
            5 => {
                let w = self.hl::<INDEX>();
                self.set_hl::<INDEX>((w & 0xFF00) | u16::from(v));
            }
            _ => self.r8[RA] = v,
        }
    }

    /// Register pair `p` of an opcode's 2-bit field (BC DE HL SP).
    #[inline(always)]
    fn rp<const INDEX: u8>(&self, p: u8) -> u16 {
        match p & 3 {
            0 => pair(self.r8[RB], self.r8[RC]),
            1 => pair(self.r8[RD], self.r8[RE]),
            2 => self.hl::<INDEX>(),
            _ => self.sp,
        }
    }

    #[inline(always)]
    fn set_rp<const INDEX: u8>(&mut self, p: u8, v: u16) {
        match p & 3 {
            0 => [self.r8[RB], self.r8[RC]] = v.to_be_bytes(),
            1 => [self.r8[RD], self.r8[RE]] = v.to_be_bytes(),
            2 => self.set_hl::<INDEX>(v),
            _ => self.sp = v,
        }
    }

    /// The address of the memory operand: (HL), or (IX+d) with its
    /// displacement fetched (8 T-states more, MEMPTR set).
    #[inline(always)]
    fn operand<const INDEX: u8, B: Bus>(&mut self, bus: &B) -> u16 {
        if INDEX == HL {
            pair(self.r8[RH], self.r8[RL])
        } else {
            let d = self.imm8(bus) as i8;
            let addr = self.hl::<INDEX>().wrapping_add(d as u16);
            self.memptr = addr;
            self.tstates += 8;
            addr
        }
    }

    /// Sets the flags (after the instruction's T-states are counted).
    #[inline(always)]
    fn flags(&mut self, f: u8) {
        self.r8[RF] = f;
        self.q_at = self.tstates;
    }

    /// Q as `SCF` and `CCF` see it (before their T-states are counted):
    /// flag bits 3 and 5 come from A, or from A | F if the instruction
    /// before did not change the flags.
    #[inline(always)]
    fn q_xy(&self) -> u8 {
        if self.q_at == self.tstates {
            self.r8[RA]
        } else {
            self.r8[RA] | self.r8[RF]
        }
    }

    #[inline(always)]
    fn condition(&self, cc: u8) -> bool {
        crate::machine::cpu::condition(self.r8[RF], cc)
    }

    // --- execution ----------------------------------------------------

    /// Runs one instruction (with its prefixes): decoded if it can be.
    #[inline(never)]
    fn exec<B: Bus>(&mut self, bus: &mut B) {
        let pc = self.pc;
        let slot = self.cache.slot(pc);
        if slot.generation == self.cache.generation {
            self.exec_decoded(bus, slot);
        } else if let Some(slot) = self.cache.decode(bus, pc) {
            self.exec_decoded(bus, slot);
        } else {
            let op = self.fetch_op(bus);
            self.exec_main::<HL, B, false>(bus, op, 0);
        }
    }

    /// Runs a decoded instruction: its M1 cycle is counted, PC is moved
    /// past its bytes as reading them would.
    #[inline(always)]
    fn exec_decoded<B: Bus>(&mut self, bus: &mut B, slot: Slot) {
        self.pc = self.pc.wrapping_add(u16::from(slot.len));
        self.r = self.r.wrapping_add(1);
        macro_rules! arms {
            ($($op:literal)*) => {
                match slot.op {
                    $($op => self.exec_main::<HL, B, true>(bus, $op, slot.n),)*
                }
            };
        }
        every_opcode!(arms)
    }

    /// Runs a block (see [`decoded`]) until its end, a jump away from it,
    /// a signal from the bus or a write into decoded code, or (`LIMITED`)
    /// the first instruction that reaches the run's limit; gives the
    /// address of the last instruction run, and whether the block ended
    /// cleanly (not on a signal or a write into decoded code, nor at the
    /// limit).
    #[inline(always)]
    fn run_block<const LIMITED: bool, B: Bus>(&mut self, bus: &mut B, block: Block) -> (u16, bool) {
        let generation = self.cache.generation;
        let first = block.first;
        let mut i = first;
        // T-states and PC go from one instruction to the next in locals:
        // each instruction finds them stored, and they are read back after
        // it. The compiler sees through both in most arms, so they stay in
        // host registers instead of a read, add and write in memory per
        // instruction, each waiting for the one before.
        let mut t = self.tstates;
        let mut pc = self.pc;
        let mut e = self.cache.entry(i);
        loop {
            // The next entry is read before this one runs, so that the
            // jump to it waits for no load. (Nothing a block runs writes
            // the entries: a write into code ends the block before the
            // next is used, and after a block's END comes an entry not
            // used.)
            let next = self.cache.entry(i.wrapping_add(1));
            // One arm per opcode, each `exec_main` with its opcode a
            // constant, so that the compiler folds the opcode's fields
            // (registers, condition, ALU operation, length) and which
            // checks follow it into the arm: a jump table of 256
            // specialised instructions. An arm's value: did the block end
            // (with the instruction before, at its END), and cleanly?
            macro_rules! specialised {
                ($($op:literal)*) => {
                    match e.op {
                        $($op => {
                            if $op == decoded::END {
                                i = i.wrapping_sub(1);
                                Some(true)
                            } else {
                                self.in_block::<$op, B>(
                                    bus, e.n, next.addr, generation, &mut t, &mut pc,
                                )
                            }
                        })*
                    }
                };
            }
            let ended = every_opcode!(specialised);
            // Near the limit, where the block as a whole may not fit: the
            // run stops after the instruction that reaches it, as one
            // instruction run after another would.
            let ended = if LIMITED && ended.is_none() && t >= self.limit {
                Some(false)
            } else {
                ended
            };
            if let Some(clean) = ended {
                // One M1 cycle per instruction run (none reads R).
                self.r = self.r.wrapping_add(i.wrapping_sub(first) as u8 + 1);
                return (self.cache.entry(i).addr, clean);
            }
            i = i.wrapping_add(1);
            e = next;
        }
    }

    /// Runs one instruction of a block, `OP` with its operand `n` (not the
    /// block's END), with T-states and PC carried in `t` and `pc`; `next`
    /// is where the block's next entry is. Whether the block ends after
    /// it, and cleanly (not on a signal or a write into decoded code).
    #[inline(always)]
    pub(in crate::machine) fn in_block<const OP: u8, B: Bus>(
        &mut self,
        bus: &mut B,
        n: u16,
        next: u16,
        generation: u32,
        t: &mut u64,
        pc: &mut u16,
    ) -> Option<bool> {
        let op = usize::from(OP);
        self.tstates = *t;
        if OP == 0xCB || OP == 0xED {
            // The second byte decoded, its M1 cycle counted here (an
            // `ED`'s operand is read as it runs).
            self.pc = pc.wrapping_add(2);
            self.r = self.r.wrapping_add(1);
            if OP == 0xCB {
                self.cb(bus, n as u8);
            } else {
                self.ed(bus, n as u8);
            }
        } else {
            self.pc = pc.wrapping_add(decoded::length(OP));
            self.exec_main::<HL, B, true>(bus, OP, n);
        }
        (*t, *pc) = (self.tstates, self.pc);
        if (decoded::READS[op] && bus.signalled())
            || (decoded::WRITES[op] && self.cache.generation != generation)
        {
            Some(false)
        } else if (decoded::BRANCHES[op] && self.pc != next) || decoded::LAST[op] {
            Some(true)
        } else {
            None
        }
    }

    /// Leaving a compiled block after `ran` of its instructions: one M1
    /// cycle each (none reads R).
    #[cfg(feature = "compiled-blocks")]
    #[inline(always)]
    pub(in crate::machine) fn ran_in_block(&mut self, ran: u8) {
        self.r = self.r.wrapping_add(ran);
    }

    /// Whether compiled block `to` (1 + its index in `compiled`, the
    /// table of the bus's compiled blocks)
    /// can run next, straight after a compiled block that ended cleanly,
    /// without the run loop's look at the block table: it is the block
    /// made at PC in the blocks' current generation, and no instruction
    /// of it can reach the limit. The block table would say the same, and
    /// the run loop's other checks would pass: a clean end leaves no
    /// signal pending, and a block starts at no marked address. `to` is
    /// the block the exit named (a fixed destination), or after a return
    /// only a guess, the block that followed last time
    /// ([`Decoded::after`](decoded::Decoded::after)): for a guess,
    /// comparing PC with its start is what makes it right. With the
    /// census on, no block is gone on to: the run loop counts each run.
    #[cfg(feature = "compiled-blocks")]
    #[inline(always)]
    pub(in crate::machine) fn chained<B: Bus>(&self, compiled: &[Compiled<B>], to: u16) -> bool {
        !cfg!(feature = "census")
            && self.cache.compiled_made(to).is_some_and(|max_tstates| {
                self.tstates + u64::from(max_tstates) < self.limit
                    && compiled
                        .get(usize::from(to) - 1)
                        .is_some_and(|c| c.at == self.pc)
            })
    }

    /// The compiled block (1 + its index in the bus's table) the block
    /// table has at `pc` in the blocks' current generation, or 0: what the
    /// run loop would find there.
    #[cfg(feature = "compiled-blocks")]
    #[inline(always)]
    pub(in crate::machine) fn compiled_at(&self, pc: u16) -> u16 {
        let block = self.cache.block_at(pc);
        if block.generation == self.cache.blocks_generation && block.max_tstates > 0 {
            self.cache.compiled(block) as u16
        } else {
            0
        }
    }

    /// After a DD or FD prefix (4 T-states, one M1): the next opcode, which
    /// may be another prefix. Q is forgotten at each prefix.
    #[inline(never)]
    fn exec_prefixed<B: Bus>(&mut self, bus: &mut B, mut xx: u8) {
        loop {
            self.tstates += 4;
            let op = self.fetch_op(bus);
            match op {
                0xDD => xx = IX,
                0xFD => xx = IY,
                _ => {
                    if xx == IX {
                        self.exec_main::<IX, B, false>(bus, op, 0)
                    } else {
                        self.exec_main::<IY, B, false>(bus, op, 0)
                    }
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn exec_main<const INDEX: u8, B: Bus, const DECODED: bool>(
        &mut self,
        bus: &mut B,
        op: u8,
        n: u16,
    ) {
        match op {
            0x00 => self.tstates += 4,
            // LD rr,nn
            0x01 | 0x11 | 0x21 | 0x31 => {
                let v = self.imm16d::<DECODED, B>(bus, n);
                self.set_rp::<INDEX>(op >> 4, v);
                self.tstates += 10;
            }
            // LD (BC),A / LD (DE),A
            0x02 | 0x12 => {
                let addr = self.rp::<INDEX>(op >> 4);
                self.store(bus, addr, self.r8[RA]);
                self.memptr = pair(self.r8[RA], addr.wrapping_add(1) as u8);
                self.tstates += 7;
            }
            // INC rr / DEC rr
            0x03 | 0x13 | 0x23 | 0x33 => {
                let v = self.rp::<INDEX>(op >> 4).wrapping_add(1);
                self.set_rp::<INDEX>(op >> 4, v);
                self.tstates += 6;
            }
            0x0B | 0x1B | 0x2B | 0x3B => {
                let v = self.rp::<INDEX>(op >> 4).wrapping_sub(1);
                self.set_rp::<INDEX>(op >> 4, v);
                self.tstates += 6;
            }
            // INC r / DEC r
            0x04 | 0x0C | 0x14 | 0x1C | 0x24 | 0x2C | 0x3C => {
                let (v, f) = alu::inc8(self.reg::<INDEX>(op >> 3), self.r8[RF]);
                self.set_reg::<INDEX>(op >> 3, v);
                self.tstates += 4;
                self.flags(f);
            }
            0x05 | 0x0D | 0x15 | 0x1D | 0x25 | 0x2D | 0x3D => {
                let (v, f) = alu::dec8(self.reg::<INDEX>(op >> 3), self.r8[RF]);
                self.set_reg::<INDEX>(op >> 3, v);
                self.tstates += 4;
                self.flags(f);
            }
            // INC (HL) / DEC (HL)
            0x34 | 0x35 => {
                let addr = self.operand::<INDEX, B>(bus);
                let v = bus.read(addr);
                let (v, f) = if op == 0x34 {
                    alu::inc8(v, self.r8[RF])
                } else {
                    alu::dec8(v, self.r8[RF])
                };
                self.store(bus, addr, v);
                self.tstates += 11;
                self.flags(f);
            }
            // LD r,n
            0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x3E => {
                let v = self.imm8d::<DECODED, B>(bus, n);
                self.set_reg::<INDEX>(op >> 3, v);
                self.tstates += 7;
            }
            // LD (HL),n: 10; LD (IX+d),n: 19 (the displacement overlaps).
            0x36 => {
                let addr = self.operand::<INDEX, B>(bus);
                let v = self.imm8d::<DECODED, B>(bus, n);
                self.store(bus, addr, v);
                self.tstates += if INDEX == HL { 10 } else { 7 };
            }
            0x07 => {
                self.r8[RA] = self.r8[RA].rotate_left(1);
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (self.r8[RA] & (XY | C)));
            }
            0x0F => {
                let carry = self.r8[RA] & 1;
                self.r8[RA] = self.r8[RA].rotate_right(1);
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (self.r8[RA] & XY) | carry);
            }
            0x17 => {
                let carry = self.r8[RA] >> 7;
                self.r8[RA] = (self.r8[RA] << 1) | (self.r8[RF] & C);
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (self.r8[RA] & XY) | carry);
            }
            0x1F => {
                let carry = self.r8[RA] & 1;
                self.r8[RA] = (self.r8[RA] >> 1) | (self.r8[RF] << 7);
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (self.r8[RA] & XY) | carry);
            }
            0x08 => {
                let af = self.af();
                [self.r8[RA], self.r8[RF]] = self.af_alt.to_be_bytes();
                self.af_alt = af;
                self.tstates += 4;
            }
            // ADD HL,rr
            0x09 | 0x19 | 0x29 | 0x39 => {
                let hl = self.hl::<INDEX>();
                let (v, f) = alu::add16(hl, self.rp::<INDEX>(op >> 4), self.r8[RF]);
                self.memptr = hl.wrapping_add(1);
                self.set_hl::<INDEX>(v);
                self.tstates += 11;
                self.flags(f);
            }
            // LD A,(BC) / LD A,(DE)
            0x0A | 0x1A => {
                let addr = self.rp::<INDEX>(op >> 4);
                self.r8[RA] = bus.read(addr);
                self.memptr = addr.wrapping_add(1);
                self.tstates += 7;
            }
            0x10 => {
                self.r8[RB] = self.r8[RB].wrapping_sub(1);
                if self.r8[RB] != 0 {
                    self.jr::<DECODED, B>(bus, n);
                    self.tstates += 13;
                } else {
                    self.skip::<DECODED>();
                    self.tstates += 8;
                }
            }
            0x18 => {
                self.jr::<DECODED, B>(bus, n);
                self.tstates += 12;
            }
            0x20 | 0x28 | 0x30 | 0x38 => {
                if self.condition((op >> 3) & 3) {
                    self.jr::<DECODED, B>(bus, n);
                    self.tstates += 12;
                } else {
                    self.skip::<DECODED>();
                    self.tstates += 7;
                }
            }
            // LD (nn),HL / LD HL,(nn)
            0x22 => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.write16(bus, addr, self.hl::<INDEX>());
                self.memptr = addr.wrapping_add(1);
                self.tstates += 16;
            }
            0x2A => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                let v = Self::read16(bus, addr);
                self.set_hl::<INDEX>(v);
                self.memptr = addr.wrapping_add(1);
                self.tstates += 16;
            }
            0x27 => {
                let (a, f) = alu::daa(self.r8[RA], self.r8[RF]);
                self.r8[RA] = a;
                self.tstates += 4;
                self.flags(f);
            }
            0x2F => {
                self.r8[RA] = !self.r8[RA];
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV | C)) | H | N | (self.r8[RA] & XY));
            }
            // LD (nn),A / LD A,(nn)
            0x32 => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.store(bus, addr, self.r8[RA]);
                self.memptr = pair(self.r8[RA], addr.wrapping_add(1) as u8);
                self.tstates += 13;
            }
            0x3A => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.r8[RA] = bus.read(addr);
                self.memptr = addr.wrapping_add(1);
                self.tstates += 13;
            }
            0x37 => {
                let xy = self.q_xy();
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (xy & XY) | C);
            }
            0x3F => {
                let xy = self.q_xy();
                let carry = self.r8[RF] & C;
                self.tstates += 4;
                self.flags((self.r8[RF] & (S | Z | PV)) | (xy & XY) | (carry << 4) | (carry ^ C));
            }
            0x76 => {
                // PC stays on the HALT (past it once an interrupt comes).
                self.pc = self.pc.wrapping_sub(1);
                self.halted = true;
                self.limit = 0;
                self.tstates += 4;
            }
            // LD r,(HL)
            0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => {
                let addr = self.operand::<INDEX, B>(bus);
                self.set_reg::<HL>(op >> 3, bus.read(addr));
                self.tstates += 7;
            }
            // LD (HL),r
            0x70..=0x77 => {
                let addr = self.operand::<INDEX, B>(bus);
                self.store(bus, addr, self.reg::<HL>(op));
                self.tstates += 7;
            }
            // LD r,r'
            0x40..=0x7F => {
                let v = self.reg::<INDEX>(op);
                self.set_reg::<INDEX>(op >> 3, v);
                self.tstates += 4;
            }
            // ALU A,(HL)
            0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => {
                let addr = self.operand::<INDEX, B>(bus);
                let v = bus.read(addr);
                let (a, f) = alu::alu(op >> 3, self.r8[RA], v, self.r8[RF]);
                self.r8[RA] = a;
                self.tstates += 7;
                self.flags(f);
            }
            // ALU A,r
            0x80..=0xBF => {
                let v = self.reg::<INDEX>(op);
                let (a, f) = alu::alu(op >> 3, self.r8[RA], v, self.r8[RF]);
                self.r8[RA] = a;
                self.tstates += 4;
                self.flags(f);
            }
            // RET cc
            0xC0 | 0xC8 | 0xD0 | 0xD8 | 0xE0 | 0xE8 | 0xF0 | 0xF8 => {
                if self.condition((op >> 3) & 7) {
                    self.pc = self.pop(bus);
                    self.memptr = self.pc;
                    self.tstates += 11;
                } else {
                    self.tstates += 5;
                }
            }
            // POP rr
            0xC1 | 0xD1 | 0xE1 => {
                let v = self.pop(bus);
                self.set_rp::<INDEX>((op >> 4) & 3, v);
                self.tstates += 10;
            }
            0xF1 => {
                [self.r8[RA], self.r8[RF]] = self.pop(bus).to_be_bytes();
                self.tstates += 10;
            }
            // JP cc,nn
            0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.memptr = addr;
                if self.condition((op >> 3) & 7) {
                    self.pc = addr;
                }
                self.tstates += 10;
            }
            0xC3 => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.memptr = addr;
                self.pc = addr;
                self.tstates += 10;
            }
            // CALL cc,nn
            0xC4 | 0xCC | 0xD4 | 0xDC | 0xE4 | 0xEC | 0xF4 | 0xFC => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.memptr = addr;
                if self.condition((op >> 3) & 7) {
                    self.push(bus, self.pc);
                    self.pc = addr;
                    self.tstates += 17;
                } else {
                    self.tstates += 10;
                }
            }
            0xCD => {
                let addr = self.imm16d::<DECODED, B>(bus, n);
                self.push(bus, self.pc);
                self.memptr = addr;
                self.pc = addr;
                self.tstates += 17;
            }
            // PUSH rr
            0xC5 | 0xD5 | 0xE5 => {
                let v = self.rp::<INDEX>((op >> 4) & 3);
                self.push(bus, v);
                self.tstates += 11;
            }
            0xF5 => {
                self.push(bus, self.af());
                self.tstates += 11;
            }
            // ALU A,n
            0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => {
                let v = self.imm8d::<DECODED, B>(bus, n);
                let (a, f) = alu::alu(op >> 3, self.r8[RA], v, self.r8[RF]);
                self.r8[RA] = a;
                self.tstates += 7;
                self.flags(f);
            }
            // RST p
            0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => {
                self.push(bus, self.pc);
                self.pc = u16::from(op & 0x38);
                self.memptr = self.pc;
                self.tstates += 11;
            }
            0xC9 => {
                self.pc = self.pop(bus);
                self.memptr = self.pc;
                self.tstates += 10;
            }
            0xCB => {
                if INDEX == HL {
                    self.exec_cb(bus);
                } else {
                    self.exec_index_cb::<INDEX, B>(bus);
                }
            }
            0xD3 => {
                let n = self.imm8d::<DECODED, B>(bus, n);
                bus.output(pair(self.r8[RA], n), self.r8[RA]);
                self.memptr = pair(self.r8[RA], n.wrapping_add(1));
                self.tstates += 11;
            }
            0xDB => {
                let n = self.imm8d::<DECODED, B>(bus, n);
                let port = pair(self.r8[RA], n);
                self.r8[RA] = bus.input(port);
                self.memptr = port.wrapping_add(1);
                self.tstates += 11;
            }
            0xD9 => {
                let (bc, de, hl) = (
                    pair(self.r8[RB], self.r8[RC]),
                    pair(self.r8[RD], self.r8[RE]),
                    pair(self.r8[RH], self.r8[RL]),
                );
                [self.r8[RB], self.r8[RC]] = self.bc_alt.to_be_bytes();
                [self.r8[RD], self.r8[RE]] = self.de_alt.to_be_bytes();
                [self.r8[RH], self.r8[RL]] = self.hl_alt.to_be_bytes();
                (self.bc_alt, self.de_alt, self.hl_alt) = (bc, de, hl);
                self.tstates += 4;
            }
            0xDD => self.exec_prefixed(bus, IX),
            0xFD => self.exec_prefixed(bus, IY),
            0xE3 => {
                let v = Self::read16(bus, self.sp);
                self.write16(bus, self.sp, self.hl::<INDEX>());
                self.set_hl::<INDEX>(v);
                self.memptr = v;
                self.tstates += 19;
            }
            0xE9 => {
                self.pc = self.hl::<INDEX>();
                self.tstates += 4;
            }
            0xEB => {
                (self.r8[RD], self.r8[RE], self.r8[RH], self.r8[RL]) =
                    (self.r8[RH], self.r8[RL], self.r8[RD], self.r8[RE]);
                self.tstates += 4;
            }
            0xED => self.exec_ed(bus),
            0xF3 => {
                self.iff1 = false;
                self.iff2 = false;
                self.tstates += 4;
            }
            0xFB => {
                self.iff1 = true;
                self.iff2 = true;
                self.tstates += 4;
                self.ei_at = self.tstates;
            }
            0xF9 => {
                self.sp = self.hl::<INDEX>();
                self.tstates += 6;
            }
        }
    }

    #[inline(always)]
    fn jr<const DECODED: bool, B: Bus>(&mut self, bus: &B, n: u16) {
        let e = self.imm8d::<DECODED, B>(bus, n) as i8;
        self.pc = self.pc.wrapping_add(e as u16);
        self.memptr = self.pc;
    }

    /// CB-prefixed: rotations, shifts, BIT, RES, SET on a register or (HL).
    #[inline(always)]
    fn exec_cb<B: Bus>(&mut self, bus: &mut B) {
        let op = self.fetch_op(bus);
        self.cb(bus, op);
    }

    /// The CB-prefixed instruction `op` (its second byte), PC past it.
    /// (Inlined: in a compiled block `op` is a constant, and this folds to
    /// its one instruction.)
    #[inline(always)]
    fn cb<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let r = op & 7;
        let b = (op >> 3) & 7;
        if r == 6 {
            let addr = pair(self.r8[RH], self.r8[RL]);
            let v = bus.read(addr);
            match op >> 6 {
                0 => {
                    let (v, f) = alu::rot(b, v, self.r8[RF]);
                    self.store(bus, addr, v);
                    self.tstates += 15;
                    self.flags(f);
                }
                1 => {
                    let f = alu::bit(b, v, (self.memptr >> 8) as u8, self.r8[RF]);
                    self.tstates += 12;
                    self.flags(f);
                }
                2 => {
                    self.store(bus, addr, v & !(1 << b));
                    self.tstates += 15;
                }
                _ => {
                    self.store(bus, addr, v | (1 << b));
                    self.tstates += 15;
                }
            }
        } else {
            self.tstates += 8;
            let v = self.reg::<HL>(r);
            match op >> 6 {
                0 => {
                    let (v, f) = alu::rot(b, v, self.r8[RF]);
                    self.set_reg::<HL>(r, v);
                    self.flags(f);
                }
                1 => {
                    let f = alu::bit(b, v, v, self.r8[RF]);
                    self.flags(f);
                }
                2 => self.set_reg::<HL>(r, v & !(1 << b)),
                _ => self.set_reg::<HL>(r, v | (1 << b)),
            }
        }
    }

    /// DD CB d op / FD CB d op: the operation on (IX+d); the displacement
    /// and the opcode are read as data (no M1, no R). Outside `BIT`, a
    /// register field other than 6 also receives the result.
    #[inline(never)]
    fn exec_index_cb<const INDEX: u8, B: Bus>(&mut self, bus: &mut B) {
        let d = self.imm8(bus) as i8;
        let op = self.imm8(bus);
        let addr = self.hl::<INDEX>().wrapping_add(d as u16);
        self.memptr = addr;
        let v = bus.read(addr);
        let b = (op >> 3) & 7;
        // 4 (DD) + 19, or 16 for BIT.
        self.tstates += if op >> 6 == 1 { 16 } else { 19 };
        let result = match op >> 6 {
            0 => {
                let (v, f) = alu::rot(b, v, self.r8[RF]);
                self.flags(f);
                v
            }
            1 => {
                let f = alu::bit(b, v, (addr >> 8) as u8, self.r8[RF]);
                self.flags(f);
                return;
            }
            2 => v & !(1 << b),
            _ => v | (1 << b),
        };
        self.store(bus, addr, result);
        if op & 7 != 6 {
            self.set_reg::<HL>(op, result);
        }
    }

    /// ED-prefixed. Opcodes the manual leaves out run as their
    /// undocumented twins (NEG, RETN, IM) or as 8 T-state NOPs.
    #[inline(always)]
    fn exec_ed<B: Bus>(&mut self, bus: &mut B) {
        let op = self.fetch_op(bus);
        self.ed(bus, op);
    }

    /// The ED-prefixed instruction `op` (its second byte), PC past it.
    /// (Inlined, as [`Own::cb`] is.)
    #[inline(always)]
    fn ed<B: Bus>(&mut self, bus: &mut B, op: u8) {
        match op {
            // IN r,(C) (70: IN F,(C), flags only)
            0x40 | 0x48 | 0x50 | 0x58 | 0x60 | 0x68 | 0x70 | 0x78 => {
                let bc = pair(self.r8[RB], self.r8[RC]);
                let v = bus.input(bc);
                self.memptr = bc.wrapping_add(1);
                if op != 0x70 {
                    self.set_reg::<HL>(op >> 3, v);
                }
                self.tstates += 12;
                self.flags(SZXYP[usize::from(v)] | (self.r8[RF] & C));
            }
            // OUT (C),r (71: OUT (C),0 on the NMOS Z80)
            0x41 | 0x49 | 0x51 | 0x59 | 0x61 | 0x69 | 0x71 | 0x79 => {
                let bc = pair(self.r8[RB], self.r8[RC]);
                let v = if op == 0x71 {
                    0
                } else {
                    self.reg::<HL>(op >> 3)
                };
                bus.output(bc, v);
                self.memptr = bc.wrapping_add(1);
                self.tstates += 12;
            }
            // SBC HL,rr / ADC HL,rr
            0x42 | 0x52 | 0x62 | 0x72 | 0x4A | 0x5A | 0x6A | 0x7A => {
                let hl = pair(self.r8[RH], self.r8[RL]);
                let v = self.rp::<HL>(op >> 4);
                let (r, f) = if op & 8 == 0 {
                    alu::sbc16(hl, v, self.r8[RF])
                } else {
                    alu::adc16(hl, v, self.r8[RF])
                };
                self.memptr = hl.wrapping_add(1);
                [self.r8[RH], self.r8[RL]] = r.to_be_bytes();
                self.tstates += 15;
                self.flags(f);
            }
            // LD (nn),rr / LD rr,(nn)
            0x43 | 0x53 | 0x63 | 0x73 => {
                let addr = self.imm16(bus);
                self.write16(bus, addr, self.rp::<HL>(op >> 4));
                self.memptr = addr.wrapping_add(1);
                self.tstates += 20;
            }
            0x4B | 0x5B | 0x6B | 0x7B => {
                let addr = self.imm16(bus);
                let v = Self::read16(bus, addr);
                self.set_rp::<HL>(op >> 4, v);
                self.memptr = addr.wrapping_add(1);
                self.tstates += 20;
            }
            // NEG
            0x44 | 0x4C | 0x54 | 0x5C | 0x64 | 0x6C | 0x74 | 0x7C => {
                let (a, f) = alu::sub8(0, self.r8[RA], 0);
                self.r8[RA] = a;
                self.tstates += 8;
                self.flags(f);
            }
            // RETN / RETI
            0x45 | 0x4D | 0x55 | 0x5D | 0x65 | 0x6D | 0x75 | 0x7D => {
                self.iff1 = self.iff2;
                self.pc = self.pop(bus);
                self.memptr = self.pc;
                self.tstates += 14;
            }
            // IM 0 / 1 / 2
            0x46 | 0x4E | 0x66 | 0x6E => {
                self.im = 0;
                self.tstates += 8;
            }
            0x56 | 0x76 => {
                self.im = 1;
                self.tstates += 8;
            }
            0x5E | 0x7E => {
                self.im = 2;
                self.tstates += 8;
            }
            0x47 => {
                self.i = self.r8[RA];
                self.tstates += 9;
            }
            0x4F => {
                self.set_r(self.r8[RA]);
                self.tstates += 9;
            }
            0x57 | 0x5F => {
                let v = if op == 0x57 { self.i } else { self.get_r() };
                self.r8[RA] = v;
                let pv = if self.iff2 { PV } else { 0 };
                self.tstates += 9;
                self.flags(SZXY[usize::from(v)] | pv | (self.r8[RF] & C));
            }
            // RRD / RLD
            0x67 | 0x6F => {
                let hl = pair(self.r8[RH], self.r8[RL]);
                let m = bus.read(hl);
                let (a, m) = if op == 0x67 {
                    (
                        (self.r8[RA] & 0xF0) | (m & 0x0F),
                        (self.r8[RA] << 4) | (m >> 4),
                    )
                } else {
                    (
                        (self.r8[RA] & 0xF0) | (m >> 4),
                        (m << 4) | (self.r8[RA] & 0x0F),
                    )
                };
                self.store(bus, hl, m);
                self.r8[RA] = a;
                self.memptr = hl.wrapping_add(1);
                self.tstates += 18;
                self.flags(SZXYP[usize::from(a)] | (self.r8[RF] & C));
            }
            0xA0 | 0xA8 | 0xB0 | 0xB8 => self.block_ld(bus, op),
            0xA1 | 0xA9 | 0xB1 | 0xB9 => self.block_cp(bus, op),
            0xA2 | 0xAA | 0xB2 | 0xBA => self.block_in(bus, op),
            0xA3 | 0xAB | 0xB3 | 0xBB => self.block_out(bus, op),
            _ => self.tstates += 8,
        }
    }

    /// +1 for the incrementing block instructions, -1 (wrapping) for the
    /// decrementing ones (bit 3 of the opcode).
    fn delta(op: u8) -> u16 {
        if op & 8 == 0 { 1 } else { 0xFFFF }
    }

    /// The PC of a repeating block instruction about to run again (its
    /// first byte), with MEMPTR one past it.
    fn repeat(&mut self) {
        self.pc = self.pc.wrapping_sub(2);
        self.memptr = self.pc.wrapping_add(1);
        self.tstates += 5;
    }

    /// LDI LDD LDIR LDDR: 16 T-states, 21 for a repetition.
    fn block_ld<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let delta = Self::delta(op);
        let hl = pair(self.r8[RH], self.r8[RL]);
        let de = pair(self.r8[RD], self.r8[RE]);
        let v = bus.read(hl);
        self.store(bus, de, v);
        [self.r8[RH], self.r8[RL]] = hl.wrapping_add(delta).to_be_bytes();
        [self.r8[RD], self.r8[RE]] = de.wrapping_add(delta).to_be_bytes();
        let bc = pair(self.r8[RB], self.r8[RC]).wrapping_sub(1);
        [self.r8[RB], self.r8[RC]] = bc.to_be_bytes();
        let n = v.wrapping_add(self.r8[RA]);
        let pv = if bc != 0 { PV } else { 0 };
        self.tstates += 16;
        if op & 0x10 != 0 && bc != 0 {
            self.repeat();
        }
        self.flags((self.r8[RF] & (S | Z | C)) | (n & X) | ((n << 4) & Y) | pv);
    }

    /// CPI CPD CPIR CPDR: 16 T-states, 21 for a repetition.
    fn block_cp<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let delta = Self::delta(op);
        let hl = pair(self.r8[RH], self.r8[RL]);
        let v = bus.read(hl);
        [self.r8[RH], self.r8[RL]] = hl.wrapping_add(delta).to_be_bytes();
        let bc = pair(self.r8[RB], self.r8[RC]).wrapping_sub(1);
        [self.r8[RB], self.r8[RC]] = bc.to_be_bytes();
        let r = self.r8[RA].wrapping_sub(v);
        let half = (self.r8[RA] ^ v ^ r) & H;
        let n = r.wrapping_sub(half >> 4);
        let pv = if bc != 0 { PV } else { 0 };
        self.tstates += 16;
        if op & 0x10 != 0 && bc != 0 && r != 0 {
            self.repeat();
        } else {
            self.memptr = self.memptr.wrapping_add(delta);
        }
        self.flags(
            (self.r8[RF] & C)
                | N
                | half
                | (SZXY[usize::from(r)] & (S | Z))
                | pv
                | (n & X)
                | ((n << 4) & Y),
        );
    }

    /// Flags of INI/IND/OUTI/OUTD (Young's: S Z Y X of B, N from bit 7 of
    /// the byte, H and C from `byte + k` overflowing, P/V the parity of
    /// `((byte + k) & 7) ^ B`).
    fn block_io_flags(&mut self, v: u8, k: u8) {
        let (sum, over) = v.overflowing_add(k);
        let hc = if over { H | C } else { 0 };
        let nf = if v & 0x80 != 0 { N } else { 0 };
        let p = SZXYP[usize::from((sum & 7) ^ self.r8[RB])] & PV;
        self.flags(SZXY[usize::from(self.r8[RB])] | nf | hc | p);
    }

    /// INI IND INIR INDR: 16 T-states, 21 for a repetition.
    fn block_in<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let delta = Self::delta(op);
        let bc = pair(self.r8[RB], self.r8[RC]);
        let v = bus.input(bc);
        let hl = pair(self.r8[RH], self.r8[RL]);
        self.store(bus, hl, v);
        self.memptr = bc.wrapping_add(delta);
        self.r8[RB] = self.r8[RB].wrapping_sub(1);
        [self.r8[RH], self.r8[RL]] = hl.wrapping_add(delta).to_be_bytes();
        self.tstates += 16;
        if op & 0x10 != 0 && self.r8[RB] != 0 {
            self.pc = self.pc.wrapping_sub(2);
            self.tstates += 5;
        }
        self.block_io_flags(v, self.r8[RC].wrapping_add(delta as u8));
    }

    /// OUTI OUTD OTIR OTDR: 16 T-states, 21 for a repetition.
    fn block_out<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let delta = Self::delta(op);
        let hl = pair(self.r8[RH], self.r8[RL]);
        let v = bus.read(hl);
        self.r8[RB] = self.r8[RB].wrapping_sub(1);
        let hl1 = hl.wrapping_add(delta);
        let bc = pair(self.r8[RB], self.r8[RC]);
        self.memptr = bc.wrapping_add(delta);
        bus.output(bc, v);
        [self.r8[RH], self.r8[RL]] = hl1.to_be_bytes();
        self.tstates += 16;
        if op & 0x10 != 0 && self.r8[RB] != 0 {
            self.pc = self.pc.wrapping_sub(2);
            self.tstates += 5;
        }
        self.block_io_flags(v, hl1 as u8);
    }
}

#[inline(always)]
fn pair(hi: u8, lo: u8) -> u16 {
    u16::from_be_bytes([hi, lo])
}
