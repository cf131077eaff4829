//! Our own Z80 core (NMOS), written for this workload: each instruction
//! decoded once and run in blocks (see the `decoded` module: slots, blocks, and how
//! they stay right under self-modifying code, host writes and new marks),
//! the hot ones compiled ahead of time ([`Compiled`]), each instruction
//! one `match` arm specialised for its opcode (registers,
//! condition, ALU operation and length constants), the memory access of
//! the machine's bus inlined through the generic [`Bus`](super::Bus), T-states counted
//! per instruction from the Z80 manual's tables (Zilog UM0080), and the
//! hidden state the NMOS Z80 shows in flag bits 3 and 5: MEMPTR
//! (`BIT b,(HL)`) and Q (`SCF`, `CCF`). No `unsafe`.
//!
//! Invariants. It computes what `z80emu` computes, stop for stop: the
//! same registers (R and flag bits 3 and 5 included), MEMPTR, halt state,
//! RAM and T-states after every instruction, which `--core lockstep-own`,
//! `tests/bench/own_lockstep_bench.rs` and the fuzz target `z80_cores`
//! check. T-states and PC pass from one instruction of a block to the next
//! in locals, not through the struct (see `run_block`): kept in the struct,
//! each instruction waits for the store of the one before. Near a run's
//! limit, where a block as a whole may not fit, its instructions run
//! through the block loop with the limit checked after each. How it is
//! measured: `retrochess bench` (docs/cores.md).
//!
//! An instruction here is a whole prefix chain (`DD DD 21 nn nn` runs as
//! one, 4 T-states and one R increment per prefix), so every stop falls
//! where the `z80emu` driver stops: before an instruction's first byte.
//! Everything a run does at its end matches what `z80emu` 0.11 does behind
//! [`super::z80emu`] (which feeds a HALT at a marked address and takes it
//! back): after a stop at a mark or a signal, the CPU has forgotten an `EI`
//! just run and the flags last changed (Q), as `z80emu` has after the HALT
//! and the NOP it is fed. A watch alone does not end a run of ours
//! ([`Own::run_counting`]): the visit is counted and the run goes on as a
//! stop there and a new run would have (Q and `EI` forgotten too), so that
//! a driver counting a program's evaluations (Draughts 1K's some 20 a
//! move) does not return to the emulator's loop at each.
//!
//! Where the facts come from: the Z80 manual for the documented opcodes'
//! timing and flags; Sean Young, "The Undocumented Z80 Documented" (2005),
//! for the undocumented opcodes, flag bits 3 and 5, MEMPTR and R. The
//! lockstep core ([`super::lockstep`]) and the fuzz target compare it with
//! `z80emu` after every instruction.
//!
//! Where it is: the core's state ([`Own`]) here; its methods, the run
//! loop and every instruction in `run`; decoded code in `decoded`; the
//! blocks compiled ahead of time in `compiled`, whose table the machine
//! hands to each run (see [`Own::run`]).

mod alu;
#[cfg(feature = "census")]
pub mod census;
mod compiled;
mod decoded;
mod run;

pub use alu::{C, H, N, PV, S, X, Y, Z};
pub use compiled::Compiled;
#[cfg(feature = "compiled-blocks")]
pub(in crate::machine) use compiled::{blocks, to_rom};

use decoded::Decoded;

/// A Z80 and its T-state counter.
///
/// In declared order (`repr(C)`), with PC, SP and MEMPTR apart: left side
/// by side, the compiler updated SP and PC together in one vector
/// register, loaded just after PC was stored (a store-forwarding stall in
/// every `CALL`, measured at ~9% of the host's time).
#[derive(Debug)]
#[repr(C)]
pub struct Own {
    pub(in crate::machine) tstates: u64,
    /// Where the current run ends (0 after a HALT, so that the loop tests
    /// one number).
    limit: u64,
    /// When the last instruction that changed the flags ended (T-states;
    /// `NEVER` if forgotten): Q holds F if that is when `SCF`/`CCF`
    /// starts, 0 otherwise. (Every instruction takes time, so nothing
    /// needs to be noted per instruction.)
    q_at: u64,
    /// When the last `EI` ended: no interrupt is accepted at that time.
    ei_at: u64,
    /// The code decoded so far.
    pub(in crate::machine) cache: Decoded,
    /// C B E D L H F A (see `field` in `run`).
    r8: [u8; 8],
    pub(in crate::machine) pc: u16,
    af_alt: u16,
    bc_alt: u16,
    sp: u16,
    de_alt: u16,
    hl_alt: u16,
    /// The internal address register (WZ) whose high byte `BIT b,(HL)`
    /// shows in flag bits 3 and 5.
    memptr: u16,
    ix: u16,
    iy: u16,
    last_pc: u16,
    /// Compiled blocks run (see [`compiled`]).
    pub(in crate::machine) compiled_runs: u64,
    /// Of those, how many ran straight after another (see
    /// [`Own::chained`]).
    pub(in crate::machine) chained_runs: u64,
    /// T-states of the ROM routines the bus performed inside runs
    /// ([`Own::routine`]), for the machine to charge.
    charged: u64,
    /// Does a run perform the ROM routines the bus can (see
    /// [`Own::routine`])? Off only for the lockstep's copy, whose runs
    /// are compared with `z80emu`'s, which end at every ROM address.
    routines: bool,
    i: u8,
    /// R's low seven bits count M1 cycles (this counter, wrapping); bit 7
    /// is what was last loaded into it.
    r: u8,
    r7: u8,
    iff1: bool,
    iff2: bool,
    im: u8,
    halted: bool,
}

/// No time: what `q_at` and `ei_at` hold when forgotten.
const NEVER: u64 = u64::MAX;

impl Default for Own {
    fn default() -> Self {
        Own {
            r8: [0; 8],
            ix: 0,
            iy: 0,
            sp: 0,
            pc: 0,
            af_alt: 0,
            bc_alt: 0,
            de_alt: 0,
            hl_alt: 0,
            i: 0,
            r: 0,
            r7: 0,
            iff1: false,
            iff2: false,
            im: 0,
            memptr: 0,
            q_at: NEVER,
            ei_at: NEVER,
            halted: false,
            tstates: 0,
            limit: 0,
            last_pc: 0,
            compiled_runs: 0,
            chained_runs: 0,
            charged: 0,
            routines: true,
            cache: Decoded::default(),
        }
    }
}

/// A copy decodes afresh.
impl Clone for Own {
    fn clone(&self) -> Self {
        Own {
            cache: Decoded::default(),
            ..*self
        }
    }
}
