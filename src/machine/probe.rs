//! Probes: what a probe copies out of the machine at its address
//! ([`ProbeRead`]), and one visit of a probed address ([`Sample`]).

use super::cpu::{Memory, Regs};

/// What a probe copies out of the machine at its address, before the
/// instruction there runs: it reads, it cannot write (it gets `&` only).
pub type ProbeRead = fn(&Regs, &dyn Memory) -> Vec<u8>;

/// One visit of a probed address: where, when, the registers and the bytes
/// the probe chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub pc: u16,
    /// Machine time of the visit.
    pub tstates: u64,
    pub regs: Regs,
    pub bytes: Vec<u8>,
}
