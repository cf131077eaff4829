//! Our core's blocks compiled ahead of time (the `compiled-blocks`
//! feature; `scripts/test` runs these with it): each runs where its code
//! is and nowhere else, their chains name the right blocks, they go on to
//! one another (after a return too) and stop where `z80emu` does. Each
//! case also runs on `z80emu`, which compiles nothing, and must end the
//! same.

use retrochess::machine::cpu::own::{Compiled, Own};
use retrochess::machine::cpu::z80emu::Z80emu;
use retrochess::machine::cpu::{Bus, Marks, Memory, Regs, RunEnd};
use retrochess::machine::spectrum::SpectrumBus;
use retrochess::machine::zx81::{FramesMode, Ram, Zx81, Zx81Bus};

use super::own_decoded::before;

/// Whether all of a compiled block's instructions are unprefixed (no
/// `CB`, no `ED`) and at addresses in `ram`.
fn unprefixed_in<B>(c: &Compiled<B>, ram: std::ops::Range<u16>) -> bool {
    c.code
        .iter()
        .all(|&(op, _, addr)| op != 0xCB && op != 0xED && ram.contains(&addr))
}

/// A 16K ZX81's bus holding the bytes of `blocks`.
fn zx81_holding(blocks: &[&Compiled<Zx81Bus>]) -> Zx81Bus {
    let mut zx = Zx81::new(Ram::K16, FramesMode::Fast, 1);
    for (addr, byte) in blocks.iter().flat_map(|c| c.bytes()) {
        zx.poke(addr, byte);
    }
    zx.bus_mut().clone()
}

/// A compiled block of the ZX81's (one ending in `RET`, `JP (HL)` or
/// `RST`, all its instructions unprefixed, in 16K RAM), and a 16K ZX81 bus
/// holding its bytes.
fn compiled_block_on_a_zx81() -> (&'static Compiled<Zx81Bus>, Zx81Bus) {
    let block = Zx81Bus::compiled()
        .iter()
        .find(|c| {
            let last = c.code.last().map_or(0, |&(op, _, _)| op);
            (last == 0xC9 || last == 0xE9 || last & 0xC7 == 0xC7)
                && unprefixed_in(c, 0x4100..0x7F00)
        })
        .expect("a compiled block ending in a return");
    assert!(block.bytes().iter().all(|&(a, _)| a != block.at - 1));
    (block, zx81_holding(&[block]))
}

/// Runs our core and `z80emu` on copies of `bus` from a `NOP` just before
/// `at` (a run's first instruction runs alone: so the run looks for a
/// block at `at`): the same end, registers, T-states and RAM; gives our
/// core.
fn both_on(bus: &Zx81Bus, at: u16) -> Own {
    let mut bus = bus.clone();
    bus.write(at - 1, 0x00);
    let regs = Regs {
        bc: 0x0102,
        ..before(at)
    };
    both_from(&bus, &regs, 20_000).1
}

/// Runs our core `own` and `z80emu` `reference` on their buses from
/// `regs` for `tstates` more: the same end, registers, T-states and RAM;
/// gives how the run ended.
fn again_on_both(
    (own, a): (&mut Own, &mut Zx81Bus),
    (reference, b): (&mut Z80emu, &mut Zx81Bus),
    regs: &Regs,
    tstates: u64,
) -> RunEnd {
    own.set_regs(regs);
    reference.set_regs(regs);
    let ends = (
        own.run(
            a,
            Zx81Bus::compiled(),
            &Marks::new(),
            own.tstates() + tstates,
        ),
        reference.run(b, &Marks::new(), reference.tstates() + tstates),
    );
    assert_eq!(ends.0, ends.1, "how the run of {tstates} ended");
    assert_eq!(own.regs(), reference.regs(), "registers after {tstates}");
    assert_eq!(
        own.tstates(),
        reference.tstates(),
        "T-states after {tstates}"
    );
    assert_eq!(a.ram(), b.ram(), "RAM after {tstates}");
    ends.0
}

/// Runs our core and `z80emu` from `regs` on copies of `bus` until
/// `until` T-states: the same end, registers, T-states and RAM; gives how
/// the run ended, and our core.
fn both_from(bus: &Zx81Bus, regs: &Regs, until: u64) -> (RunEnd, Own) {
    let (mut a, mut b) = (bus.clone(), bus.clone());
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    let end = again_on_both((&mut own, &mut a), (&mut reference, &mut b), regs, until);
    (end, own)
}

#[test]
fn a_compiled_block_runs_where_its_code_is_and_ends_as_on_z80emu() {
    let (block, bus) = compiled_block_on_a_zx81();
    let own = both_on(&bus, block.at);
    assert!(
        own.compiled_runs() > 0,
        "the compiled block at {:04X} ran",
        block.at
    );
}

#[test]
fn other_code_where_a_compiled_block_starts_runs_in_the_block_loop() {
    let (block, mut bus) = compiled_block_on_a_zx81();
    // Its first instruction's opcode one more: another instruction (or
    // the same one, another register), so another block.
    let (op, _, addr) = block.code[0];
    bus.write(addr, op ^ 1);
    let own = both_on(&bus, block.at);
    assert_eq!(
        own.compiled_runs(),
        0,
        "no compiled block at {:04X}",
        block.at
    );
}

/// Where a block leaves at its instruction `op` (operand `n`, at `addr`)
/// by a jump with a fixed destination: a conditional `JR`, `JP` or `CALL`
/// taken, `DJNZ`, `RST`, an `ED` instruction repeating itself. (Worked out
/// here from the Z80's encoding, apart from the script that writes the
/// chains.)
fn fixed_exit(op: u8, n: u16, addr: u16) -> Option<u16> {
    match op {
        0x10 | 0x20 | 0x28 | 0x30 | 0x38 => {
            Some(addr.wrapping_add(2).wrapping_add(n as u8 as i8 as u16))
        }
        _ if op & 0xC7 == 0xC2 || op & 0xC7 == 0xC4 => Some(n),
        _ if op & 0xC7 == 0xC7 => Some(u16::from(op & 0x38)),
        0xED => Some(addr),
        _ => None,
    }
}

/// Checks one bus's compiled blocks' chains: each names a block compiled
/// at the destination of its exit (or at the END), and none is missing
/// where there is one; gives how many there are, and how many name
/// another block than the first at their destination (one made by the
/// same program, where programs share the address).
fn chains_are_right<B>(list: &[Compiled<B>]) -> (usize, usize) {
    let first_at = |at: u16| list.iter().position(|c| c.at == at);
    let (mut named, mut not_first) = (0, 0);
    for c in list {
        assert_eq!(
            c.chains.len(),
            c.code.len() + 1,
            "a chain per step and the END"
        );
        let exits = c.code.iter().map(|&(op, n, addr)| fixed_exit(op, n, addr));
        for (&to, exit) in c.chains.iter().zip(exits.chain([Some(c.end)])) {
            let first = exit.and_then(first_at);
            match (exit, first) {
                (Some(dest), Some(first)) => {
                    let to = usize::from(to);
                    assert!(to > 0, "the block at {:04X} names none", c.at);
                    assert_eq!(list[to - 1].at, dest, "the block at {:04X}", c.at);
                    named += 1;
                    not_first += usize::from(to != first + 1);
                }
                _ => assert_eq!(to, 0, "the block at {:04X} names one", c.at),
            }
        }
    }
    (named, not_first)
}

#[test]
fn each_chain_of_the_compiled_blocks_names_the_block_at_its_destination() {
    let (zx81, spectrum) = (
        chains_are_right(Zx81Bus::compiled()),
        chains_are_right(SpectrumBus::compiled()),
    );
    assert!(zx81.0 > 100 && spectrum.0 > 50, "{zx81:?} {spectrum:?}");
    // The ZX81's programs share addresses, as do ChesSkelet's builds.
    assert!(zx81.1 > 0 && spectrum.1 > 0, "{zx81:?} {spectrum:?}");
}

/// A compiled ZX81 block `c` that leaves by a `DJNZ` for a compiled block
/// `t` holding code `c` does not, both of unprefixed instructions in 16K
/// RAM; a 16K ZX81 bus holding both, and an address only `t` has code at.
fn a_loop_into_another_block() -> (&'static Compiled<Zx81Bus>, Zx81Bus, u16) {
    let list = Zx81Bus::compiled();
    let (c, t) = list
        .iter()
        .flat_map(|c| {
            c.code
                .iter()
                .zip(c.chains)
                .filter(|((op, _, _), to)| *op == 0x10 && **to != 0)
                .map(move |(_, &to)| (c, &list[usize::from(to) - 1]))
        })
        .find(|(c, t)| {
            let ours = c.bytes();
            unprefixed_in(c, 0x4100..0x7F00)
                && unprefixed_in(t, 0x4100..0x7F00)
                && t.bytes().iter().any(|b| !ours.iter().any(|o| o.0 == b.0))
                && t.bytes()
                    .iter()
                    .all(|b| ours.iter().all(|o| o.0 != b.0 || o.1 == b.1))
        })
        .expect("a compiled block looping into another");
    let only_t = t
        .code
        .iter()
        .map(|&(_, _, addr)| addr)
        .find(|&a| !c.bytes().iter().any(|o| o.0 == a))
        .expect("an instruction only the second block has");
    assert!(
        c.bytes()
            .iter()
            .chain(&t.bytes())
            .all(|&(a, _)| a != c.at - 1)
    );
    (c, zx81_holding(&[c, t]), only_t)
}

/// A compiled ZX81 block that goes on to itself by a `DJNZ` (the loop's
/// head is its start), all its instructions unprefixed in 16K RAM; a 16K
/// ZX81 bus holding it.
fn a_compiled_loop() -> (&'static Compiled<Zx81Bus>, Zx81Bus) {
    let list = Zx81Bus::compiled();
    let c = list
        .iter()
        .enumerate()
        .find(|(i, c)| {
            c.code
                .iter()
                .zip(c.chains)
                .any(|(&(op, _, _), &to)| op == 0x10 && usize::from(to) == i + 1)
                && unprefixed_in(c, 0x4100..0x6F00)
        })
        .map(|(_, c)| c)
        .expect("a compiled block looping to itself");
    assert!(c.bytes().iter().all(|&(a, _)| a != c.at - 1));
    (c, zx81_holding(&[c]))
}

#[test]
fn compiled_blocks_go_on_to_one_another_and_stop_where_z80emu_does() {
    let (c, mut bus) = a_compiled_loop();
    bus.write(c.at - 1, 0x00);
    // B counts 200 rounds; HL points away from the code.
    let regs = Regs {
        bc: 0xC802,
        hl: 0x7000,
        ..before(c.at)
    };
    let mut chained = 0;
    // Every limit up to past the loop: a block goes on to another only if
    // none of the other's instructions can reach it.
    for until in (1..=8000).chain([50_000]) {
        let (_, own) = both_from(&bus, &regs, until);
        chained = chained.max(own.chained_runs());
        own.retire();
    }
    assert!(chained > 100, "the block at {:04X} went on to itself", c.at);
}

#[test]
fn a_compiled_block_whose_code_changed_is_not_gone_on_to() {
    let (c, mut bus, only_t) = a_loop_into_another_block();
    bus.write(c.at - 1, 0x00);
    let (mut a, mut b) = (bus.clone(), bus.clone());
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    for (round, byte) in [(1, None), (2, Some(0x00))] {
        if let Some(byte) = byte {
            // The host writes over code only the second block has: the
            // first block still matches, the second no longer does.
            a.poke(only_t, byte);
            b.poke(only_t, byte);
        }
        again_on_both(
            (&mut own, &mut a),
            (&mut reference, &mut b),
            &before(c.at),
            20_000,
        );
        if round == 1 {
            assert!(own.chained_runs() > 0, "went on to the second block");
        }
    }
}

#[test]
fn a_signal_ends_the_run_in_a_compiled_block_that_goes_on_to_itself() {
    // A compiled block starting with `LDIR`, which goes on to itself while
    // it repeats.
    let list = Zx81Bus::compiled();
    let (i, c) = list
        .iter()
        .enumerate()
        .find(|(_, c)| c.code[0].0 == 0xED && c.code[0].1 == 0xB0)
        .expect("a compiled block starting with LDIR");
    assert_eq!(usize::from(c.chains[0]), i + 1, "LDIR goes on to its block");
    let mut bus = zx81_holding(&[c]);
    bus.write(c.at - 1, 0x00);
    // Copying from the ROM, where the ZX81 signals a read (no ROM here):
    // the run stops after the first byte read.
    let regs = Regs {
        hl: 0x2000,
        de: 0x7000,
        bc: 0x0040,
        ..before(c.at)
    };
    let (end, own) = both_from(&bus, &regs, 20_000);
    assert_eq!(end, RunEnd::Signal);
    assert!(
        own.compiled_runs() > 0,
        "the block at {:04X} ran compiled",
        c.at
    );
}

/// A compiled ZX81 block of unprefixed instructions in 16K RAM below
/// 7E00h whose only way out is the `RET` at its end: no other jump,
/// nothing else done to the stack or SP.
fn a_compiled_return() -> &'static Compiled<Zx81Bus> {
    let stays = |op: u8| {
        !(matches!(op, 0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0x76)
            || matches!(
                op,
                0xC3 | 0xC9 | 0xCD | 0xE3 | 0xE9 | 0x31 | 0x33 | 0x3B | 0xF9
            )
            || matches!(op & 0xC7, 0xC0 | 0xC2 | 0xC4 | 0xC7)
            || matches!(op & 0xCF, 0xC1 | 0xC5))
    };
    Zx81Bus::compiled()
        .iter()
        .find(|c| {
            let (last, body) = c.code.split_last().expect("a block has instructions");
            last.0 == 0xC9
                && body.iter().all(|&(op, _, _)| stays(op))
                && unprefixed_in(c, 0x4100..0x7E00)
                && c.bytes().iter().all(|&(a, _)| a != c.at - 1)
        })
        .expect("a compiled block that leaves only by its RET")
}

#[test]
fn a_compiled_block_goes_on_after_a_return_to_the_block_that_followed_it_before() {
    let c = a_compiled_return();
    let mut bus = zx81_holding(&[c]);
    bus.write(c.at - 1, 0x00);
    // `JR $` at 7000h.
    bus.write(0x7000, 0x18);
    bus.write(0x7001, 0xFE);
    // On the stack, the block's start eight times, then 7000h: the
    // block returns to itself eight times, then elsewhere.
    let stack = |bus: &mut Zx81Bus| {
        for (i, to) in [c.at; 8].into_iter().chain([0x7000]).enumerate() {
            let [lo, hi] = to.to_le_bytes();
            bus.write(0x7F00 + 2 * i as u16, lo);
            bus.write(0x7F01 + 2 * i as u16, hi);
        }
    };
    stack(&mut bus);
    let regs = Regs {
        sp: 0x7F00,
        ..before(c.at)
    };
    // Every limit up to past the returns.
    for until in (1..=3000).step_by(3).chain([20_000]) {
        let (_, own) = both_from(&bus, &regs, until);
        own.retire();
    }
    // Run after run on the same core: each return to the block goes on
    // to it, the block that followed it last time, except the first of
    // the first run, looked up (unless the tables, taken over from a core
    // before on this thread, kept the guess); the last return, to 7000h,
    // is not gone on to.
    let (mut a, mut b) = (bus.clone(), bus);
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    for round in 1..=3 {
        stack(&mut a);
        stack(&mut b);
        let chained = own.chained_runs();
        again_on_both((&mut own, &mut a), (&mut reference, &mut b), &regs, 20_000);
        assert_eq!(own.pc(), 0x7000);
        let went_on = own.chained_runs() - chained;
        assert!(
            went_on == 8 || (round == 1 && went_on == 7),
            "round {round}: {went_on}"
        );
    }
}
