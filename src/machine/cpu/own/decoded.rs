//! Decoded code: what our core keeps so that it reads and decodes an
//! instruction once, not every time it runs it.
//!
//! - A **slot** per address: the instruction decoded there (opcode,
//!   immediate operand, length). An unprefixed instruction is decoded whole;
//!   a prefixed one (`CB`, `DD`, `ED`, `FD`) as its first byte, the rest
//!   read from the bus as it runs.
//! - A **block** per address: how many decoded instructions from there on
//!   run one after the other with no check in between: none is at a
//!   marked address, none is a HALT, a `DD`/`FD` prefix or an `ED`
//!   instruction outside [`ed_in_block`]. A `CB` or `ED` instruction in a
//!   block is decoded with its second byte (the operand of `ED`'s
//!   `LD (nn),rr` is read as it runs). A block follows the code
//!   through jumps whose destination is in it (`JP nn`, `JR e`, `CALL nn`)
//!   and through conditional ones where they fall through (it ends where
//!   one jumps), and ends at a `RET`, `JP (HL)` or `RST`. The run loop
//!   checks the T-state limit once for the whole block (against the most
//!   its instructions can take), and the marks not at all when one block
//!   follows another.
//! - A block that is one of the bus's compiled blocks (see
//!   [`Compiled`](super::Compiled): the same instructions at the same
//!   addresses, ending at the same place) notes which, in its first entry
//!   ([`Decoded::note_compiled`]): the run loop runs that instead of the
//!   entries.
//! - For each memory **cell** (see [`Bus::cell`]), the generation in which
//!   a decoded instruction was read from it.
//!
//! Staying right: a write by the CPU to a cell code was decoded from, or
//! the host writing over one (see [`Bus::take_host_writes`]), starts a new
//! generation, in which no slot or block is valid: self-modifying code runs
//! as on the Z80, the instruction after the write decoded afresh. Blocks
//! have a generation of their own, also moved on when an address a block
//! has an instruction at is marked ([`Marks::raised_since`]), or when other
//! marks are used; a mark cleared, or set where no block runs, leaves the
//! blocks (a driver's breakpoint set and cleared for every run would
//! otherwise have them made again each time).

use super::super::{Bus, Marks};

/// The most T-states an unprefixed or `CB` instruction takes
/// (`EX (SP),HL`): what a block is charged per instruction when the loop
/// decides whether it fits before the limit.
pub const MOST_TSTATES: u16 = 19;

/// The most an `ED` instruction of a block takes (`LDIR`, `CPIR` running
/// again: 21).
pub const MOST_TSTATES_ED: u16 = 21;

/// What a block is charged for an instruction whose first byte is `op`.
const fn most_tstates(op: u8) -> u16 {
    if op == 0xED {
        MOST_TSTATES_ED
    } else {
        MOST_TSTATES
    }
}

/// The most instructions in a block.
const MOST_IN_BLOCK: u8 = 32;

/// An instruction decoded at an address.
#[derive(Clone, Copy, Debug, Default)]
pub struct Slot {
    /// Valid while it equals [`Decoded::generation`].
    pub generation: u32,
    /// The immediate operand (byte, word, or displacement).
    pub n: u16,
    pub op: u8,
    /// Its length in bytes (1 for a prefix: the rest is read as it runs).
    pub len: u8,
}

/// A block starting at an address (see the module's documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Block {
    /// Valid while it equals [`Decoded::blocks_generation`].
    pub generation: u32,
    /// Where its instructions are in [`Decoded::arena`], one after another.
    pub first: u16,
    /// The most T-states its instructions can take together (each charged
    /// [`MOST_TSTATES`], or [`MOST_TSTATES_ED`]): 0 if the one at its
    /// address cannot be in a block.
    pub max_tstates: u16,
}

/// An instruction of a block: its opcode, operand and address. After a
/// block's last instruction comes [`END`], at the address the block would
/// go on at. For `CB` and `ED` the operand is the second byte.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockInstruction {
    pub n: u16,
    pub op: u8,
    pub addr: u16,
}

/// Where in a block's first entry the compiled block that is it is noted
/// (above the entry's 40 bits; see [`Decoded::compiled`]).
const COMPILED_SHIFT: u32 = 40;

/// The opcode of the entry that ends a block: HALT's, which no block holds.
pub const END: u8 = 0x76;

// The tables keep slots, blocks and entries packed in `u64`s: a table of
// integers is allocated zeroed by the system (its pages mapped as they are
// first touched), and a machine made afresh for each move (ChesSkelet's
// injection) does not pay for writing 1.5 MB of zeros.

impl Slot {
    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.generation)
            | (u64::from(self.n) << 32)
            | (u64::from(self.op) << 48)
            | (u64::from(self.len) << 56)
    }

    #[inline(always)]
    fn unpack(v: u64) -> Slot {
        Slot {
            generation: v as u32,
            n: (v >> 32) as u16,
            op: (v >> 48) as u8,
            len: (v >> 56) as u8,
        }
    }
}

impl Block {
    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.generation)
            | (u64::from(self.first) << 32)
            | (u64::from(self.max_tstates) << 48)
    }

    #[inline(always)]
    fn unpack(v: u64) -> Block {
        Block {
            generation: v as u32,
            first: (v >> 32) as u16,
            max_tstates: (v >> 48) as u16,
        }
    }
}

impl BlockInstruction {
    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.op) | (u64::from(self.n) << 8) | (u64::from(self.addr) << 24)
    }

    #[inline(always)]
    fn unpack(v: u64) -> BlockInstruction {
        BlockInstruction {
            op: v as u8,
            n: (v >> 8) as u16,
            addr: (v >> 24) as u16,
        }
    }
}

/// The length of each unprefixed instruction; a prefix counts as 1.
const LENGTH: [u8; 256] = {
    let mut t = [1; 256];
    let mut op = 0;
    while op < 256 {
        let o = op as u8;
        t[op] = match o {
            // LD r,n; ALU A,n; DJNZ, JR; OUT (n),A; IN A,(n)
            _ if o & 0xC7 == 0x06 || o & 0xC7 == 0xC6 => 2,
            0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0xD3 | 0xDB => 2,
            // LD rr,nn; LD (nn),HL; LD HL,(nn); LD (nn),A; LD A,(nn)
            0x01 | 0x11 | 0x21 | 0x31 | 0x22 | 0x2A | 0x32 | 0x3A => 3,
            // JP cc,nn; JP nn; CALL cc,nn; CALL nn
            _ if o & 0xC7 == 0xC2 || o & 0xC7 == 0xC4 => 3,
            0xC3 | 0xCD => 3,
            _ => 1,
        };
        op += 1;
    }
    t
};

/// What an opcode is to a block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Runs in a block, and the next instruction follows it.
    Straight,
    /// A jump whose destination is in the code: `JP nn`, `JR e`, `CALL nn`
    /// (the block goes on there), or a conditional one: `JP cc`, `JR cc`,
    /// `CALL cc`, `RET cc`, `DJNZ` (the block goes on where it falls
    /// through, and ends there if it jumped).
    Branch,
    /// Ends a block: its destination is in a register or on the stack
    /// (`RET`, `JP (HL)`) or in the ROM (`RST`).
    Last,
    /// Never in a block: HALT, and the `DD`/`FD` prefixes (what follows
    /// them is not decoded, and a chain of prefixes has no bound on its
    /// T-states).
    Outside,
    /// `CB` and `ED`: in a block with their second byte (`ED` only for the
    /// instructions of [`ed_in_block`]).
    Prefix,
}

const ROLE: [Role; 256] = {
    let mut t = [Role::Straight; 256];
    let mut op = 0;
    while op < 256 {
        let o = op as u8;
        t[op] = match o {
            0x76 | 0xDD | 0xFD => Role::Outside,
            0xCB | 0xED => Role::Prefix,
            0xC9 | 0xE9 => Role::Last,
            _ if o & 0xC7 == 0xC7 => Role::Last,
            0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0xC3 | 0xCD => Role::Branch,
            // RET cc, JP cc, CALL cc
            _ if o & 0xC7 == 0xC0 || o & 0xC7 == 0xC2 || o & 0xC7 == 0xC4 => Role::Branch,
            _ => Role::Straight,
        };
        op += 1;
    }
    t
};

/// Opcodes after which a block checks that PC is where its next
/// instruction is (see [`Role::Branch`]; and `ED`, whose block loads and
/// compares may run again).
pub const BRANCHES: [bool; 256] = {
    let mut t = [false; 256];
    let mut op = 0;
    while op < 256 {
        t[op] = matches!(ROLE[op], Role::Branch) || op == 0xED;
        op += 1;
    }
    t
};

/// Opcodes that always end their block ([`Role::Last`]: `RET`, `JP (HL)`,
/// `RST`): the block is left after them without running its END.
pub const LAST: [bool; 256] = {
    let mut t = [false; 256];
    let mut op = 0;
    while op < 256 {
        t[op] = matches!(ROLE[op], Role::Last);
        op += 1;
    }
    t
};

/// The `ED` instructions a block may hold: those that touch neither R
/// (counted for the whole block at its end), the interrupt state nor a
/// port: `ADC`/`SBC HL,rr`, `LD (nn),rr`, `LD rr,(nn)`, `NEG`, `RRD`,
/// `RLD`, and the block loads and compares (`LDI` … `CPDR`; one that runs
/// again jumps back to itself, which ends the block there).
pub const fn ed_in_block(op: u8) -> bool {
    matches!(op & 0xC7, 0x42..=0x44) && op & 0xC0 == 0x40
        || matches!(op, 0x67 | 0x6F)
        || matches!(op, 0xA0 | 0xA1 | 0xA8 | 0xA9 | 0xB0 | 0xB1 | 0xB8 | 0xB9)
}

/// The length of the `ED` instruction `op` of a block.
const fn ed_length(op: u8) -> u16 {
    if op & 0xC7 == 0x43 { 4 } else { 2 }
}

/// Where a block goes on after the instruction `slot` at `at`.
fn next(at: u16, slot: Slot) -> u16 {
    let after = at.wrapping_add(u16::from(slot.len));
    match slot.op {
        0xC3 | 0xCD => slot.n,
        0x18 => after.wrapping_add(slot.n as u8 as i8 as u16),
        _ => after,
    }
}

/// The decoded code of one CPU.
pub struct Decoded {
    slots: Box<[u64; 0x10000]>,
    blocks: Box<[u64; 0x10000]>,
    /// The blocks' instructions (indexed by a `u16`: never out of bounds).
    arena: Box<[u64; 0x10000]>,
    /// The first free entry of the arena.
    filled: usize,
    code: Box<[u32; 0x10000]>,
    /// The lowest and highest cell code was decoded from in this
    /// generation (`lo > hi`: none).
    code_lo: u16,
    code_hi: u16,
    pub generation: u32,
    pub blocks_generation: u32,
    /// The marks the blocks were made for: their id and version.
    marks: (u64, u64),
    /// For each address, the blocks' generation in which a block was made
    /// with an instruction there (the marks can be raised at any other
    /// address and leave the blocks valid).
    covered: Box<[u32; 0x10000]>,
    /// For each compiled block (by its index in the bus's table), the
    /// blocks' generation in which it was last made (bits 0-31), its
    /// [`Block::max_tstates`] (bits 32-47; see [`Decoded::compiled_made`]) and
    /// the compiled block that last ran after it had left by a return
    /// (bits 48-63; see [`Decoded::after`]).
    made: Box<[u64; COMPILED_MOST]>,
}

/// The most compiled blocks of a bus that [`Decoded::compiled_made`]
/// knows (others run, but are not chained to).
const COMPILED_MOST: usize = 512;

/// Where [`Decoded::made`] keeps [`Decoded::after`].
const AFTER: u64 = 0xFFFF << 48;

impl std::fmt::Debug for Decoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Decoded(generation {}, blocks {})",
            self.generation, self.blocks_generation
        )
    }
}

/// 64K of `T`s on the heap.
fn page_table<T: Clone + Default>() -> Box<[T; 0x10000]> {
    // (For integers, `vec!` of the default asks the allocator for zeroed
    // memory.)
    match vec![T::default(); 0x10000].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a vector of 0x10000 is 0x10000 long"),
    }
}

/// The most decoded tables a thread keeps for reuse (see
/// [`Decoded::retire`]).
const SPARES: usize = 4;

thread_local! {
    /// Tables of cores gone, for the next core made on this thread.
    static SPARE: std::cell::RefCell<Vec<Decoded>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Nothing decoded (no slot or block is valid in its generation): the
/// tables of a core gone before on this thread if there are some (see
/// [`Decoded::retire`]), else new ones.
impl Default for Decoded {
    fn default() -> Decoded {
        match SPARE.with(|spare| spare.borrow_mut().pop()) {
            Some(mut kept) => {
                kept.flush();
                kept.marks = (0, 0);
                kept
            }
            None => Decoded::fresh(),
        }
    }
}

impl Decoded {
    /// New tables of zeros: nothing is valid in generation 1. Their 2 MB
    /// come zeroed from the allocator, which writes the zeros itself when
    /// it reuses memory freed before, as it does for a machine made after
    /// another was dropped (ChesSkelet's, for every injected position):
    /// the cost [`Decoded::retire`] saves.
    fn fresh() -> Decoded {
        Decoded {
            slots: page_table(),
            blocks: page_table(),
            arena: page_table(),
            filled: 0,
            code: page_table(),
            code_lo: 0xFFFF,
            code_hi: 0,
            generation: 1,
            blocks_generation: 1,
            marks: (0, 0),
            covered: page_table(),
            made: Box::new([0; COMPILED_MOST]),
        }
    }

    /// Keeps these tables for the next core made on this thread (up to
    /// [`SPARES`]). They are taken as they are: a generation moved on
    /// invalidates every slot, block and code cell in them, as a write
    /// into code does.
    pub fn retire(self) {
        // (While the thread exits its spares may be gone: then the tables
        // are freed.)
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARES {
                spare.push(self);
            }
        });
    }
}

impl Decoded {
    /// Forgets every decoded instruction and block.
    #[cold]
    #[inline(never)]
    pub fn flush(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        (self.code_lo, self.code_hi) = (0xFFFF, 0);
        if self.generation == 0 {
            self.slots.fill(0);
            self.code.fill(0);
            self.generation = 1;
        }
        self.forget_blocks();
    }

    fn forget_blocks(&mut self) {
        self.filled = 0;
        self.blocks_generation = self.blocks_generation.wrapping_add(1);
        if self.blocks_generation == 0 {
            self.blocks.fill(0);
            self.covered.fill(0);
            self.made.fill(0);
            self.blocks_generation = 1;
        }
    }

    /// The slot at `pc` (valid or not).
    #[inline(always)]
    pub fn slot(&self, pc: u16) -> Slot {
        Slot::unpack(self.slots[usize::from(pc)])
    }

    /// The block at `pc` (valid or not).
    #[inline(always)]
    pub fn block_at(&self, pc: u16) -> Block {
        Block::unpack(self.blocks[usize::from(pc)])
    }

    /// BlockInstruction `i` of the arena.
    #[inline(always)]
    pub fn entry(&self, i: u16) -> BlockInstruction {
        BlockInstruction::unpack(self.arena[usize::from(i)])
    }

    /// Which compiled block `block` is (1 + its index in the bus's
    /// table), or 0.
    #[inline(always)]
    pub fn compiled(&self, block: Block) -> usize {
        (self.arena[usize::from(block.first)] >> COMPILED_SHIFT) as usize
    }

    /// If compiled block `to` (1 + its index in the bus's table) is the
    /// block made at its start in the blocks' current generation, the most
    /// T-states it can take; None if it is not (or `to` is 0). Within a
    /// generation the block made at an address stays, so this is what the
    /// block table says there.
    #[cfg(feature = "compiled-blocks")]
    #[inline(always)]
    pub fn compiled_made(&self, to: u16) -> Option<u16> {
        let made = *self.made.get(usize::from(to).wrapping_sub(1))?;
        (made as u32 == self.blocks_generation).then_some((made >> 32) as u16)
    }

    /// The compiled block (1 + its index) that last ran next after
    /// compiled block `to` had left by an exit that names none (a return,
    /// `JP (HL)`): where it most likely goes on again. 0 if none is known.
    /// Only a guess, kept over generations: [`Decoded::compiled_made`]
    /// and the block's start say whether it can run.
    #[cfg(feature = "compiled-blocks")]
    #[inline(always)]
    pub fn after(&self, to: u16) -> u16 {
        self.made
            .get(usize::from(to).wrapping_sub(1))
            .map_or(0, |made| (made >> 48) as u16)
    }

    /// Notes that compiled block `next` ran after `to` left by an exit
    /// that named none (see [`Decoded::after`]).
    #[inline(always)]
    pub fn note_after(&mut self, to: u16, next: u16) {
        if let Some(made) = self.made.get_mut(usize::from(to).wrapping_sub(1)) {
            *made = (*made & !AFTER) | (u64::from(next) << 48);
        }
    }

    /// The `count` instructions of a block from `first` in the arena:
    /// opcode, operand, address.
    fn code_of(
        &self,
        first: usize,
        count: usize,
    ) -> impl ExactSizeIterator<Item = (u8, u16, u16)> + '_ {
        self.arena[first..first + count].iter().map(|&v| {
            let e = BlockInstruction::unpack(v);
            (e.op, e.n, e.addr)
        })
    }

    /// The instructions of `block` (opcode, operand, address), and the
    /// address of its END: what a compiled block must be to be it.
    pub fn code(&self, block: Block) -> (impl ExactSizeIterator<Item = (u8, u16, u16)> + '_, u16) {
        let first = usize::from(block.first);
        let count = self.arena[first..]
            .iter()
            .position(|&v| BlockInstruction::unpack(v).op == END)
            .unwrap_or(0);
        let end = BlockInstruction::unpack(self.arena[first + count]).addr;
        (self.code_of(first, count), end)
    }

    /// Notes in `block`, just made, that it is the bus's compiled block
    /// `index` (its place in the table), and when it was made (see
    /// `Decoded::compiled_made`).
    pub fn note_compiled(&mut self, block: Block, index: usize) {
        let first = usize::from(block.first);
        self.arena[first] |= ((index + 1) as u64) << COMPILED_SHIFT;
        if let Some(made) = self.made.get_mut(index) {
            *made = (*made & AFTER)
                | u64::from(self.blocks_generation)
                | (u64::from(block.max_tstates) << 32);
        }
    }

    /// Was code decoded from `cell`? (A write there must flush.)
    #[inline(always)]
    pub fn is_code(&self, cell: u16) -> bool {
        self.code[usize::from(cell)] == self.generation
    }

    /// Before a run or a step: forgets what the host wrote over, and the
    /// blocks if the marks changed.
    pub fn sync<B: Bus>(&mut self, bus: &mut B, marks: Option<&Marks>) {
        // Only where a span meets decoded code is there anything to look at.
        let written = bus.take_host_writes();
        let over_code = |&(lo, hi): &(u16, u16)| {
            let (lo, hi) = (lo.max(self.code_lo), hi.min(self.code_hi));
            lo <= hi && (lo..=hi).any(|c| self.is_code(c))
        };
        if written.spans().iter().any(over_code) {
            self.flush();
        }
        if let Some(marks) = marks
            && (marks.id(), marks.version()) != self.marks
        {
            // Marks raised where no block has an instruction leave every
            // block as it was made: running to its end, it passes none.
            let (id, version) = self.marks;
            let kept = id == marks.id()
                && marks.raised_since(version).is_some_and(|mut raised| {
                    raised.all(|a| self.covered[usize::from(a)] != self.blocks_generation)
                });
            self.marks = (marks.id(), marks.version());
            if !kept {
                self.forget_blocks();
            }
        }
    }

    /// Decodes the instruction at `pc` into its slot, if every byte of it
    /// can be read plainly (see [`Bus::plain`]), and notes the cells it
    /// was read from.
    #[cold]
    #[inline(never)]
    pub fn decode<B: Bus>(&mut self, bus: &B, pc: u16) -> Option<Slot> {
        let op = bus.peek(pc);
        let len = LENGTH[usize::from(op)];
        let at = |i: u8| pc.wrapping_add(u16::from(i));
        if !(0..len).all(|i| bus.plain(at(i))) {
            return None;
        }
        let n = match len {
            2 => u16::from(bus.peek(at(1))),
            3 => u16::from_le_bytes([bus.peek(at(1)), bus.peek(at(2))]),
            _ => 0,
        };
        for i in 0..len {
            self.note_code(bus.cell(at(i)));
        }
        let slot = Slot {
            generation: self.generation,
            n,
            op,
            len,
        };
        self.slots[usize::from(pc)] = slot.pack();
        Some(slot)
    }

    /// The block at `pc`, made now.
    #[cold]
    #[inline(never)]
    pub fn block<B: Bus>(&mut self, bus: &B, marks: &Marks, pc: u16) -> Block {
        if self.filled + usize::from(MOST_IN_BLOCK) + 1 > self.arena.len() {
            self.forget_blocks();
        }
        let first = self.filled;
        let (mut count, mut max_tstates) = (0, 0);
        let mut at = pc;
        while count < MOST_IN_BLOCK && marks.at(at) == 0 {
            let slot = self.slot(at);
            let slot = if slot.generation == self.generation {
                slot
            } else if let Some(slot) = self.decode(bus, at) {
                slot
            } else {
                break;
            };
            let role = ROLE[usize::from(slot.op)];
            let (n, next_at) = match role {
                Role::Outside => break,
                Role::Prefix => match self.second_byte(bus, at, slot.op) {
                    Some((op2, len)) => (u16::from(op2), at.wrapping_add(len)),
                    None => break,
                },
                _ => (slot.n, next(at, slot)),
            };
            self.arena[first + usize::from(count)] = BlockInstruction {
                n,
                op: slot.op,
                addr: at,
            }
            .pack();
            self.covered[usize::from(at)] = self.blocks_generation;
            count += 1;
            max_tstates += most_tstates(slot.op);
            if role == Role::Last {
                at = at.wrapping_add(u16::from(slot.len));
                break;
            }
            at = next_at;
        }
        self.arena[first + usize::from(count)] = BlockInstruction {
            n: 0,
            op: END,
            addr: at,
        }
        .pack();
        self.filled += usize::from(count) + 1;
        let block = Block {
            generation: self.blocks_generation,
            first: first as u16,
            max_tstates,
        };
        self.blocks[usize::from(pc)] = block.pack();
        #[cfg(feature = "census")]
        super::census::made(pc, self.code_of(first, usize::from(count)).collect(), at);
        block
    }

    /// The second byte of the `CB` or `ED` instruction `prefix` at `at`,
    /// and the instruction's length, if it can be in a block: the byte
    /// read plainly, and its cell noted as code.
    fn second_byte<B: Bus>(&mut self, bus: &B, at: u16, prefix: u8) -> Option<(u8, u16)> {
        let at2 = at.wrapping_add(1);
        if !bus.plain(at2) {
            return None;
        }
        let op = bus.peek(at2);
        let len = match prefix {
            0xCB => 2,
            _ if ed_in_block(op) => ed_length(op),
            _ => return None,
        };
        self.note_code(bus.cell(at2));
        Some((op, len))
    }

    /// Notes that code was decoded from `cell` (a write there must flush).
    fn note_code(&mut self, cell: u16) {
        self.code[usize::from(cell)] = self.generation;
        self.code_lo = self.code_lo.min(cell);
        self.code_hi = self.code_hi.max(cell);
    }
}

/// Opcodes after which a block checks the bus's signal: those that read
/// memory or a port (a decoded instruction's own bytes are read plainly).
pub const READS: [bool; 256] = {
    let mut t = [false; 256];
    let mut op = 0;
    while op < 256 {
        let o = op as u8;
        t[op] = match o {
            0x0A | 0x1A | 0x2A | 0x3A | 0x34 | 0x35 | 0xC1 | 0xD1 | 0xE1 | 0xF1 | 0xC9 => true,
            0xDB | 0xE3 => true,
            // CB and ED in a block, whichever their second byte
            0xCB | 0xED => true,
            // LD r,(HL); ALU A,(HL); RET cc
            _ if (o & 0xC7 == 0x46 && o != 0x76) || o & 0xC7 == 0x86 || o & 0xC7 == 0xC0 => true,
            _ => false,
        };
        op += 1;
    }
    t
};

/// Opcodes that write memory (and so may write into decoded code).
pub const WRITES: [bool; 256] = {
    let mut t = [false; 256];
    let mut op = 0;
    while op < 256 {
        let o = op as u8;
        t[op] = match o {
            0x02 | 0x12 | 0x22 | 0x32 | 0x34 | 0x35 | 0x36 | 0xCD | 0xE3 => true,
            0xC5 | 0xD5 | 0xE5 | 0xF5 | 0xCB | 0xED => true,
            // LD (HL),r; CALL cc; RST
            _ if (o & 0xF8 == 0x70 && o != 0x76) || o & 0xC7 == 0xC4 || o & 0xC7 == 0xC7 => true,
            _ => false,
        };
        op += 1;
    }
    t
};

/// The length of a decoded unprefixed instruction.
pub const fn length(op: u8) -> u16 {
    LENGTH[op as usize] as u16
}
