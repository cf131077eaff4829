//! Blocks of the collection's programs compiled ahead of time: each a
//! straight run of the same [`Own::in_block`] calls the block loop makes,
//! with the opcode, operand and addresses as constants, so that no
//! instruction is dispatched through the jump table and the compiler keeps
//! registers and flags in host registers from one instruction to the next.
//!
//! A compiled block runs only where the block builder, at run time, made
//! exactly its instructions (opcode, operand and address of each, and where
//! it ends) from the memory the program has then: code changed, a mark in
//! the way, another program at the address, and the block runs in the
//! block loop as before. What it does is the block loop's, instruction for
//! instruction: the same stops, T-states, R, and what the lockstep test
//! compares.
//!
//! Where a compiled block leaves by a jump with a fixed destination (a
//! conditional `JR`, `JP` or `CALL` taken, `DJNZ`, `RST`, an `LDIR` or the
//! like repeating) or runs to its END, it names a compiled block at that
//! destination ([`Compiled::chains`]: the first of those made by a program
//! that made this block too, for the programs of one machine share
//! addresses; else the first), and that one runs next
//! without a look at the block table, if it is the block the builder made
//! there in the current generation and none of its instructions can reach
//! the limit (see [`Own::chained`]). Returns and `JP (HL)` name none: after
//! them the compiled block that followed last time runs next on the same
//! conditions if it starts at PC (a guess the core keeps,
//! `Decoded::after`), or else the compiled block the block table has at PC
//! (then noted as the guess); otherwise the run loop looks as before.
//!
//! Where a compiled block leaves for a fixed address in the ROM area (an
//! `RST`, a `CALL` or `JP` there) and the bus performs the ROM routine
//! there (the Spectrum's `RST 16`; see `Own::routine`), the routine is
//! performed at that exit and the compiled block at the return address
//! goes on, on the same conditions as after a return (ChesSkelet prints
//! some 300 codes a move).
//!
//! All of a bus's compiled blocks are one function (`run_zx81`,
//! `run_spectrum`; see the `blocks` macro): a loop over a `match` of the
//! blocks, in which going on to the next block is a `continue` (for a
//! block that loops on itself, back to its own start without the
//! `match`), with T-states and PC carried over in locals, so that no call
//! and no return to the run loop stand between two compiled blocks.
//!
//! Which blocks: `scripts/own-compiled-blocks` builds the core with the
//! `census` feature (see `census`), runs each engine's `retrochess bench`
//! on it, and writes each machine's `compiled_blocks.rs` (in `zx81/` and
//! `spectrum/`, included there, so the core names no machine): the blocks
//! made at the addresses whose block runs make up 99.5% of each
//! engine's, for the bus of its machine. Run it again when the block
//! builder changes: blocks it no longer makes are never used (the
//! lockstep test fails if no compiled block runs).
//!
//! How a run gets them: the machine hands its bus's table
//! (`Zx81Bus::compiled`, `SpectrumBus::compiled`) to its emulator, which
//! gives it to every run of our core ([`Own::run`]); the bus trait names
//! no compiled block (it would make a cycle of types: a bus naming its
//! blocks, a block naming our core, our core generic over the bus).

use super::Own;
use super::decoded::{self, Block, Decoded};
use crate::machine::cpu::Marks;

/// Whether instruction `op` with operand `n` leaves a block for a fixed
/// address in the ROM area (below 0x4000 on both machines), where the bus
/// may perform a ROM routine (see [`Own::routine`]): an `RST`, or a `CALL`
/// or `JP` there.
#[cfg(feature = "compiled-blocks")]
pub(in crate::machine) const fn to_rom(op: u8, n: u16) -> bool {
    op & 0xC7 == 0xC7
        || ((op == 0xCD || op == 0xC3 || op & 0xC7 == 0xC4 || op & 0xC7 == 0xC2) && n < 0x4000)
}

/// A compiled block (see the module's documentation).
pub struct Compiled<B> {
    /// Where it starts.
    pub at: u16,
    /// Its instructions as the builder makes them: opcode (`CB`/`ED` with
    /// its second byte as operand), operand, address.
    pub code: &'static [(u8, u16, u16)],
    /// Where its END is: where it would go on.
    pub end: u16,
    /// For each instruction, and then for its END, the compiled block it
    /// names to go on to when the block leaves there by a jump with a
    /// fixed destination (or runs to its END): 1 + its index, or 0 (see
    /// [`Own::chained`]).
    pub chains: &'static [u16],
    /// Runs compiled block `to` (this one: 1 + its index) as
    /// `Own::run_block` runs its entries, and the compiled blocks it goes
    /// on to (see [`Own::chained`]); gives what the last one's run gives,
    /// and that block if it left by an exit that names none (a return)
    /// and nothing went on from it, else 0 (see the `blocks` macro).
    pub run: fn(&mut Own, &mut B, &Marks, u16) -> (u16, bool, u16),
}

impl<B> Compiled<B> {
    /// Which of `table` (a bus's compiled blocks, by start address) is
    /// `block`, just made at `pc` in `cache`: its index, if one is.
    pub(super) fn find(
        table: &[Compiled<B>],
        cache: &Decoded,
        block: Block,
        pc: u16,
    ) -> Option<usize> {
        let from = table.partition_point(|c| c.at < pc);
        let k = table[from..]
            .iter()
            .take_while(|c| c.at == pc)
            .position(|c| {
                let (code, end) = cache.code(block);
                c.is(code, end)
            })?;
        Some(from + k)
    }

    /// Whether it is the block the builder made: `code` and `end`.
    pub fn is(&self, code: impl ExactSizeIterator<Item = (u8, u16, u16)>, end: u16) -> bool {
        self.end == end && code.len() == self.code.len() && code.eq(self.code.iter().copied())
    }

    /// The bytes it was made from, each at its address: every
    /// instruction's opcode and operand (for `CB` and `ED`, their second
    /// byte; an `ED` instruction's own operand is read as it runs).
    pub fn bytes(&self) -> Vec<(u16, u8)> {
        let mut bytes = Vec::new();
        for &(op, n, addr) in self.code {
            let len = if op == 0xCB || op == 0xED {
                2
            } else {
                decoded::length(op)
            };
            let operand = n.to_le_bytes();
            bytes.push((addr, op));
            for i in 1..len {
                bytes.push((addr.wrapping_add(i), operand[usize::from(i - 1)]));
            }
        }
        bytes
    }
}

/// The blocks `$name` on `$bus`, run by `$chain`: each its index (1 +
/// its place in `$name`), its start, its steps (how many have run with it,
/// opcode, operand, address, the next entry's address, and the compiled
/// block at the fixed destination of a jump away from the block there, 1 +
/// its index or 0), its END's address, how many it has, the last one's
/// address and the compiled block at its END.
///
/// `$chain` runs the compiled block it is given and those it goes on to
/// (see [`Own::chained`]) in one loop over a `match` of the blocks: where
/// an exit names a block, the check and the choice of the next block are
/// made at that exit with the block a constant, so that the compiler
/// jumps from the exit straight to the block's code (the loop's `match`
/// on a constant), not through one shared indirect jump or a call per
/// block. It gives what the last block's run gives (see
/// [`Own::run_block`]), and the block that last ran if it left by an
/// exit that names none and no block went on from it (for
/// [`Decoded::note_after`](super::decoded::Decoded::note_after)), else 0.
#[cfg(feature = "compiled-blocks")]
macro_rules! blocks {
    ($name:ident, $chain:ident: $bus:ty; $(
        $idx:literal $at:literal [ $( $k:literal $op:literal $n:literal $addr:literal $next:literal $to:literal ),* ]
        $end:literal $count:literal $last:literal $to_end:literal;
    )*) => {
        pub static $name: &[$crate::machine::cpu::own::Compiled<$bus>] = &[$(
            $crate::machine::cpu::own::Compiled {
                at: $at,
                code: &[$(($op, $n, $addr)),*],
                end: $end,
                chains: &[$($to,)* $to_end],
                run: $chain,
            },
        )*];

        #[allow(unused_labels)]
        fn $chain(
            cpu: &mut $crate::machine::cpu::own::Own,
            bus: &mut $bus,
            marks: &$crate::machine::cpu::Marks,
            mut to: u16,
        ) -> (u16, bool, u16) {
            // Blocks gone on to; the blocks run are one more.
            let mut chained = 0u64;
            // T-states and PC go on in locals from one block to the next
            // too, as from one instruction to the next (see
            // `Own::run_block`): a block does not start by loading what
            // the block before it has just stored (for PC, a 16-bit store
            // that the compiler may load back 32 bits wide, which the host
            // cannot forward from the store: a stall at every block).
            let (mut t, mut pc) = (cpu.tstates, cpu.pc);
            // Leaves block `$cur` after `$ran` instructions, the last at
            // `$addr`, cleanly or not, by an exit naming block `$named`
            // (and going to the ROM area if `$rom`): goes on to the next
            // block (`$on`, the loop over the blocks, or `$again`, the
            // block's own loop, if it is the same), or returns.
            macro_rules! leave {
                ($again:lifetime, $on:lifetime, $cur:literal, $ran:literal, $at_:literal, $clean:expr, $named:literal, $rom:expr) => {{
                    let clean = $clean;
                    cpu.ran_in_block($ran);
                    // At an exit to the ROM area, the routine there if the
                    // bus performs it (see `Own::routine`): then the run
                    // goes on from the return address as after a return.
                    if $rom && clean && marks.at(cpu.pc) == $crate::machine::cpu::Marks::ROM && cpu.routine(bus, cpu.pc) {
                        pc = cpu.pc;
                    }
                    // The block to go on to: the one the exit names, or
                    // after a return the one that followed last time, or
                    // else the compiled block the block table has at PC
                    // (noted as the one that follows now).
                    let next = if !clean {
                        0
                    } else if $named != 0 {
                        $named
                    } else if cpu.chained($name, cpu.cache.after($cur)) {
                        cpu.cache.after($cur)
                    } else {
                        let found = cpu.compiled_at(cpu.pc);
                        if found != 0 {
                            cpu.cache.note_after($cur, found);
                        }
                        found
                    };
                    if cpu.chained($name, next) {
                        chained += 1;
                        if next == $cur {
                            // A loop on itself: straight back to its
                            // start, not through the `match`.
                            continue $again;
                        }
                        to = next;
                        continue $on;
                    }
                    cpu.compiled_runs += chained + 1;
                    cpu.chained_runs += chained;
                    return ($at_, clean, if $named == 0 { $cur } else { 0 });
                }};
            }
            'chain: loop {
                match to {
                    $($idx => 'block: loop {
                        let generation = cpu.cache.generation;
                        $(
                            if let Some(clean) = cpu.in_block::<$op, $bus>(
                                bus, $n, $next, generation, &mut t, &mut pc,
                            ) {
                                leave!('block, 'chain, $idx, $k, $addr, clean, $to, const { $crate::machine::cpu::own::to_rom($op, $n) });
                            }
                        )*
                        leave!('block, 'chain, $idx, $count, $last, true, $to_end, false);
                    },)*
                    _ => unreachable!("compiled block {to} is not one of {}", stringify!($name)),
                }
            }
        }
    };
}

#[cfg(feature = "compiled-blocks")]
pub(in crate::machine) use blocks;
