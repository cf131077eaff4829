//! Our own core and `z80emu` side by side on any program: a flat 64K of
//! RAM ([`FlatBus`]) filled from bytes, the registers set from bytes, then
//! a sequence of single steps, interrupts and bounded runs (with a watch,
//! where both stop or ours counts it and `z80emu` stops and runs again),
//! each done on both, with the registers, MEMPTR, the halt state, the
//! T-states, the way the run ended, the last instruction's first byte and
//! the whole memory compared after each. What the fuzz target `z80_cores`
//! and the tests drive.

use super::own::Own;
use super::z80emu::Z80emu;
use super::{Bus, HostWrites, Marks, Memory, Regs, RunEnd};
use crate::machine::{Fault, Watches};

/// 64K of RAM, every address executable; `IN` answers a byte made from
/// the port, so that both cores read the same.
#[derive(Clone)]
pub struct FlatBus {
    pub mem: Box<[u8; 0x10000]>,
    host_writes: HostWrites,
}

impl FlatBus {
    /// Memory filled with `bytes`, repeated (zeros if there are none).
    pub fn new(bytes: &[u8]) -> FlatBus {
        let mut mem = Box::new([0; 0x10000]);
        if !bytes.is_empty() {
            for (m, b) in mem.iter_mut().zip(bytes.iter().cycle()) {
                *m = *b;
            }
        }
        FlatBus {
            mem,
            host_writes: HostWrites::default(),
        }
    }
}

impl Memory for FlatBus {
    fn peek(&self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }

    fn poke(&mut self, addr: u16, value: u8) {
        self.mem[usize::from(addr)] = value;
        self.host_writes.note(addr);
    }
}

impl Bus for FlatBus {
    #[inline]
    fn read(&self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }

    #[inline]
    fn write(&mut self, addr: u16, value: u8) {
        self.mem[usize::from(addr)] = value;
    }

    fn input(&mut self, port: u16) -> u8 {
        (port as u8).rotate_left(3) ^ (port >> 8) as u8
    }

    fn signalled(&self) -> bool {
        false
    }

    fn take_fault(&mut self) -> Option<Fault> {
        None
    }

    fn executable(&self, _addr: u16) -> bool {
        true
    }

    fn ram(&self) -> &[u8] {
        &self.mem[..]
    }

    fn take_host_writes(&mut self) -> HostWrites {
        self.host_writes.take()
    }
}

/// Registers from the first 24 bytes of `data` (missing bytes are 0).
fn regs_from(data: &[u8]) -> Regs {
    let b = |i: usize| data.get(i).copied().unwrap_or(0);
    let w = |i: usize| u16::from_le_bytes([b(i), b(i + 1)]);
    Regs {
        af: w(0),
        bc: w(2),
        de: w(4),
        hl: w(6),
        ix: w(8),
        iy: w(10),
        sp: w(12),
        pc: w(14),
        af_alt: w(16),
        bc_alt: w(18),
        de_alt: w(20),
        i: b(22),
        r: b(23),
        iff1: b(22) & 1 != 0,
        iff2: b(22) & 2 != 0,
        im: 1,
        ..Regs::default()
    }
}

/// What both cores did, compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    /// Steps, interrupts and runs done on both.
    pub actions: u64,
    /// T-states both ran.
    pub tstates: u64,
}

/// Runs `data` (24 bytes of registers, then a script byte per action,
/// and the whole of it as the memory image) on both cores for at most
/// `max_actions` actions.
///
/// Memory of nothing but `DD` and `FD` bytes is left out (no action):
/// it is one endless instruction, a chain of prefixes, which neither core
/// ends, as a run's limit never falls inside an instruction. On the
/// machines it cannot happen: reading their ROM space gives `0xFF`, which
/// ends a chain.
///
/// # Errors
/// The first difference, described.
// String error: a diagnostic for the fuzz target and tests whose message is the whole finding.
pub fn side_by_side(data: &[u8], max_actions: usize) -> Result<Compared, String> {
    if !data.is_empty() && data.iter().all(|&b| b == 0xDD || b == 0xFD) {
        return Ok(Compared::default());
    }
    let regs = regs_from(data);
    let mut bus_own = FlatBus::new(data);
    let mut bus_ref = bus_own.clone();
    let mut own = Own::new();
    let mut reference = Z80emu::new();
    own.set_regs(&regs);
    reference.set_regs(&regs);
    let mut marks = Marks::new();
    let script = data.get(24..).unwrap_or(&[]);
    let mut done = Compared::default();
    for i in 0..max_actions {
        let action = script.get(i % script.len().max(1)).copied().unwrap_or(0);
        let what;
        match action >> 5 {
            // Mostly single steps.
            0..=4 => {
                what = "step".to_string();
                own.step(&mut bus_own);
                reference.step(&mut bus_ref);
            }
            5 => {
                what = "interrupt".to_string();
                let a = own.interrupt_im1(&mut bus_own);
                let b = reference.interrupt_im1(&mut bus_ref);
                if a != b {
                    return Err(format!("action {i}: interrupt taken: own {a}, z80emu {b}"));
                }
            }
            // A run to a limit a few instructions on, with a watch a few
            // bytes ahead: where it stops both, or (bit 3) ours counting
            // it, `z80emu` stopping there, counted, and run again.
            _ => {
                let mark = own.pc().wrapping_add(u16::from(action & 7));
                marks.set(mark, Marks::WATCH);
                let until = own.tstates() + u64::from(action & 0x1F) * 4;
                let counting = action & 8 != 0;
                let (a, b) = if counting {
                    let mut watches = Watches::new(&[mark]);
                    let a = own.run_counting(&mut bus_own, &[], &marks, &mut watches, until);
                    let mut hits = 0;
                    let mut b = reference.run(&mut bus_ref, &marks, until);
                    while b == RunEnd::Marked {
                        hits += 1;
                        b = reference.run(&mut bus_ref, &marks, until);
                    }
                    if watches.hits(0) != hits {
                        return Err(format!(
                            "action {i}: watch {mark:04X} counted: own {}, z80emu stopped {hits} times",
                            watches.hits(0)
                        ));
                    }
                    (a, b)
                } else {
                    let a = own.run(&mut bus_own, &[], &marks, until);
                    (a, reference.run(&mut bus_ref, &marks, until))
                };
                marks.clear(mark, Marks::WATCH);
                if a != b {
                    return Err(format!("action {i}: run ended: own {a:?}, z80emu {b:?}"));
                }
                let how = if counting { "counted" } else { "stops" };
                what = format!("run to {until} ({a:?}, watch {mark:04X} {how})");
            }
        }
        done.actions += 1;
        compare(&own, &reference, &bus_own, &bus_ref)
            .map_err(|e| format!("after {what}, action {i}: {e}"))?;
        if own.halted() && action & 1 == 0 {
            // Wake it, as a machine would.
            own.set_pc(own.pc().wrapping_add(1));
            reference.set_pc(reference.pc().wrapping_add(1));
        }
    }
    done.tstates = own.tstates();
    Ok(done)
}

// String error: the leaf of `side_by_side`, its message the whole difference.
fn compare(own: &Own, reference: &Z80emu, a: &FlatBus, b: &FlatBus) -> Result<(), String> {
    let (ra, rb) = (own.regs(), reference.regs());
    if ra != rb {
        return Err(format!(
            "registers: own {ra} R {:02X} / z80emu {rb} R {:02X}",
            ra.r, rb.r
        ));
    }
    if own.memptr() != reference.memptr() {
        return Err(format!(
            "MEMPTR: own {:04X} / z80emu {:04X} ({ra})",
            own.memptr(),
            reference.memptr()
        ));
    }
    if own.halted() != reference.halted() {
        return Err(format!(
            "halted: own {} / z80emu {}",
            own.halted(),
            reference.halted()
        ));
    }
    if own.tstates() != reference.tstates() {
        return Err(format!(
            "T-states: own {} / z80emu {} ({ra})",
            own.tstates(),
            reference.tstates()
        ));
    }
    if own.last_pc() != reference.last_pc() {
        return Err(format!(
            "last PC: own {:04X} / z80emu {:04X}",
            own.last_pc(),
            reference.last_pc()
        ));
    }
    if a.mem[..] == b.mem[..] {
        return Ok(());
    }
    if let Some(i) = (0..0x10000).find(|&i| a.mem[i] != b.mem[i]) {
        return Err(format!(
            "memory at {i:04X}: own {:02X} / z80emu {:02X} ({ra})",
            a.mem[i], b.mem[i]
        ));
    }
    Ok(())
}
