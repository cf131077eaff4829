//! Why a run of the CPU ended ([`RunEnd`]).

/// Why a run of the CPU ended (always at an instruction boundary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The next instruction is at a marked address (not run).
    Marked,
    /// The CPU's T-state count reached the limit it was given.
    Limit,
    /// The bus raised its signal during the last instruction.
    Signal,
    /// The CPU executed HALT and waits for an interrupt.
    Halt,
}
