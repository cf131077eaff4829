//! Our core's decoded code stays right when the code changes under it:
//! the CPU writing into code it decoded (within the block being run, and
//! through a mirror of the ZX81's 1K), the host writing over it between
//! runs, and marks set where a block was made; and watches our core
//! counts without stopping (blocks compiled ahead of time:
//! `own_compiled`). Each case also runs on
//! `z80emu`, which decodes nothing, and must end the same.

use retrochess::machine::cpu::check::FlatBus;
use retrochess::machine::cpu::own::Own;
use retrochess::machine::cpu::z80emu::Z80emu;
use retrochess::machine::cpu::{Bus, Cpu, HostWrites, Marks, Memory, Regs, RunEnd};
use retrochess::machine::zx81::{FramesMode, Ram, Zx81};
use retrochess::machine::{Core, Stop, Watches};

const AT: u16 = 0x8000;

/// A flat machine with `code` at [`AT`], PC there, SP high.
fn flat(code: &[u8]) -> (FlatBus, Regs) {
    let mut bus = FlatBus::new(&[]);
    for (i, b) in code.iter().enumerate() {
        bus.poke(AT + i as u16, *b);
    }
    let regs = Regs {
        pc: AT,
        sp: 0xF000,
        ..Regs::default()
    };
    (bus, regs)
}

/// Runs both cores from `regs` on copies of `bus` until `until` T-states;
/// both must end the same way with the same registers; gives ours.
fn both(bus: &FlatBus, regs: &Regs, marks: &Marks, until: u64) -> (RunEnd, Regs) {
    let (mut a, mut b) = (bus.clone(), bus.clone());
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    own.set_regs(regs);
    reference.set_regs(regs);
    let ends = (
        own.run(&mut a, &[], marks, until),
        reference.run(&mut b, marks, until),
    );
    assert_eq!(ends.0, ends.1, "how the run ended");
    assert_eq!(own.regs(), reference.regs());
    assert_eq!(own.tstates(), reference.tstates());
    (ends.0, own.regs())
}

/// `LD A,42h; LD (8006h),A; LD B,0; JR $`: the second instruction writes
/// the operand of the third, in the same block.
const WRITES_NEXT: [u8; 9] = [0x3E, 0x42, 0x32, 0x06, 0x80, 0x06, 0x00, 0x18, 0xFE];

#[test]
fn a_write_into_the_block_being_run_is_seen_by_the_next_instruction() {
    let (bus, regs) = flat(&WRITES_NEXT);
    let (end, after) = both(&bus, &regs, &Marks::new(), 200);
    assert_eq!(end, RunEnd::Limit);
    assert_eq!(after.bc >> 8, 0x42, "LD B,n ran with the operand written");
    // Ours again on the same CPU and bus: the block is made from the
    // written code, the second time as the first.
    let mut own = Own::new();
    let mut bus = bus;
    for _ in 0..3 {
        own.set_regs(&regs);
        own.run(&mut bus, &[], &Marks::new(), own.tstates() + 200);
        assert_eq!(own.regs().bc >> 8, 0x42);
    }
}

/// `LD B,7; JR $` run once on our core (decoded), and what it ran on.
fn ran_ld_b_7() -> (FlatBus, Regs, Own) {
    let (mut bus, regs) = flat(&[0x06, 0x07, 0x18, 0xFE]);
    let mut own = Own::new();
    own.set_regs(&regs);
    own.run(&mut bus, &[], &Marks::new(), 100);
    assert_eq!(own.regs().bc >> 8, 7);
    (bus, regs, own)
}

/// Runs `own` from `regs` again: `LD B,n` must have read `n`.
fn runs_again_with(own: &mut Own, bus: &mut FlatBus, regs: &Regs, n: u16) {
    own.set_regs(regs);
    own.run(bus, &[], &Marks::new(), own.tstates() + 100);
    assert_eq!(own.regs().bc >> 8, n, "the poked operand was read");
}

#[test]
fn the_host_writing_over_decoded_code_between_runs_is_seen() {
    let (mut bus, regs, mut own) = ran_ld_b_7();
    bus.poke(AT + 1, 9);
    runs_again_with(&mut own, &mut bus, &regs, 9);
    // And a step (no run) after another poke.
    bus.poke(AT + 1, 11);
    own.set_regs(&regs);
    own.step(&mut bus);
    assert_eq!(own.regs().bc >> 8, 11);
}

#[test]
fn the_host_writing_over_decoded_code_among_writes_far_from_it_is_seen() {
    // Writes below and above the code (more clusters than the spans
    // kept), and one into it, in between.
    let (mut bus, regs, mut own) = ran_ld_b_7();
    let far = |i: u16| {
        if i.is_multiple_of(2) {
            0x1000 + i * 0x100
        } else {
            0xF000 - i * 0x100
        }
    };
    for i in 0..(2 * HostWrites::SPANS as u16) {
        bus.poke(far(i), 0);
        if i == 3 {
            bus.poke(AT + 1, 9);
        }
    }
    runs_again_with(&mut own, &mut bus, &regs, 9);
}

/// Every cell written in `writes` (first, last) is in a span of what the
/// notes make.
fn covered(writes: &[(u16, u16)]) -> HostWrites {
    let mut host = HostWrites::NONE;
    for &(first, last) in writes {
        host.span(first, last);
    }
    assert!(host.spans().len() <= HostWrites::SPANS);
    for &(first, last) in writes {
        for cell in [first, last, first + (last - first) / 2] {
            assert!(
                host.spans()
                    .iter()
                    .any(|&(lo, hi)| lo <= cell && cell <= hi),
                "{cell:04X} written, in no span of {:04X?}",
                host.spans()
            );
        }
    }
    host
}

#[test]
fn host_writes_cover_every_cell_written_in_a_few_spans() {
    // A pseudo-random mix of single cells and runs, many more than the
    // spans kept.
    let mut x: u32 = 12345;
    let mut next = || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 8) as u16
    };
    for len in [1, 5, 9, 30, 200] {
        let writes: Vec<(u16, u16)> = (0..len)
            .map(|_| {
                let first = next();
                let run = if next() % 4 == 0 { next() % 300 } else { 0 };
                (first, first.saturating_add(run))
            })
            .collect();
        covered(&writes);
    }
    // What it started as, and what taking leaves.
    let mut all = HostWrites::default();
    assert_eq!(all.spans(), &[(0, 0xFFFF)]);
    assert_eq!(all.take(), HostWrites::ALL);
    assert!(all.spans().is_empty());
}

#[test]
fn host_writes_on_both_sides_of_a_program_do_not_cover_it() {
    // Baker's draughts between two moves (see `engines::baker`): FRAMES,
    // the 32 squares of its board (one cell in nine left out), RANDOM
    // just below the code, and a return address at the top of the stack.
    let mut writes = vec![(0x4034, 0x4035), (0x4C9C, 0x4C9C), (0x7FF6, 0x7FF7)];
    writes.extend((0..32u16).map(|i| (0x404B + i + i / 8, 0x404B + i + i / 8)));
    let host = covered(&writes);
    let (code_lo, code_hi) = (0x4CA5, 0x4FE9);
    assert!(
        host.spans()
            .iter()
            .all(|&(lo, hi)| hi < code_lo || lo > code_hi),
        "a span over the code: {:04X?}",
        host.spans()
    );
}

#[test]
fn a_mark_set_inside_a_block_made_before_stops_the_next_run_there() {
    // Eight NOPs then JR $: one block.
    let mut code = vec![0u8; 8];
    code.extend([0x18, 0xFE]);
    let (mut bus, regs) = flat(&code);
    let mut marks = Marks::new();
    let mut own = Own::new();
    own.set_regs(&regs);
    // (Far enough for a whole block to fit before the limit.)
    assert_eq!(own.run(&mut bus, &[], &marks, 2000), RunEnd::Limit);
    marks.set(AT + 5, Marks::BREAK);
    own.set_regs(&regs);
    let end = own.run(&mut bus, &[], &marks, own.tstates() + 2000);
    assert_eq!((end, own.pc()), (RunEnd::Marked, AT + 5));
    // The same on both cores from the start.
    let (end, after) = both(&bus, &regs, &marks, 2000);
    assert_eq!((end, after.pc), (RunEnd::Marked, AT + 5));
}

/// `LD HL,AT+10h; JP (HL)` at [`AT`], and at `AT+10h` `INC C; JP (HL)`:
/// a block that ends where its jump goes, and a block that runs again and
/// again, each time entered from the end of a block.
fn two_blocks() -> (FlatBus, Regs) {
    let mut code = vec![0x21, 0x10, 0x80, 0xE9];
    code.resize(0x10, 0);
    code.extend([0x0C, 0xE9]);
    flat(&code)
}

/// Where `two_blocks` loops, and an address outside both blocks.
const LOOP: u16 = AT + 0x10;
const NO_CODE: u16 = AT + 0x100;

/// Runs our core and `z80emu` on copies of `bus` from `regs`: `runs` runs
/// of `length` T-states, each with `marks` as `change` leaves them before
/// it; both must end each run alike. Gives ours, and how and where each
/// run ended.
///
/// (In [`two_blocks`], instruction boundaries fall at 14 T-states, at
/// [`LOOP`], then every 4: a run of 500 ends at `LOOP`, one of 504 at
/// `LOOP + 1`.)
fn in_turn(
    bus: &FlatBus,
    regs: &Regs,
    marks: &mut Marks,
    (runs, length): (usize, u64),
    mut change: impl FnMut(usize, &mut Marks),
) -> (Own, Vec<(RunEnd, u16)>) {
    let (mut a, mut b) = (bus.clone(), bus.clone());
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    own.set_regs(regs);
    reference.set_regs(regs);
    let mut ends = Vec::new();
    for run in 0..runs {
        change(run, marks);
        let end = own.run(&mut a, &[], marks, own.tstates() + length);
        let reference_end = reference.run(&mut b, marks, reference.tstates() + length);
        assert_eq!(end, reference_end, "run {run}");
        assert_eq!(own.regs(), reference.regs(), "run {run}");
        assert_eq!(own.tstates(), reference.tstates(), "run {run}");
        ends.push((end, own.pc()));
    }
    (own, ends)
}

#[test]
fn a_mark_where_a_block_starts_stops_a_run_that_enters_it_from_another() {
    let (bus, regs) = two_blocks();
    // The second run starts at `LOOP` (`INC C`, run whatever its marks),
    // then the block at `LOOP + 1` (`JP (HL)`) leads into the one at
    // `LOOP`, made before the mark.
    let (_, ends) = in_turn(&bus, &regs, &mut Marks::new(), (2, 500), |run, marks| {
        if run == 1 {
            marks.set(LOOP, Marks::BREAK);
        }
    });
    assert_eq!(ends[0], (RunEnd::Limit, LOOP));
    assert_eq!(ends[1], (RunEnd::Marked, LOOP));
}

#[test]
fn marks_cleared_or_set_where_no_block_runs_leave_the_blocks() {
    let (bus, regs) = two_blocks();
    let mut marks = Marks::new();
    marks.set(NO_CODE, Marks::BREAK);
    let (own, ends) = in_turn(&bus, &regs, &mut marks, (4, 500), |run, marks| {
        // A driver's breakpoint, away from the code: cleared, set again,
        // and another set.
        match run {
            1 => marks.clear(NO_CODE, Marks::BREAK),
            2 => marks.set(NO_CODE, Marks::BREAK),
            3 => marks.set(NO_CODE + 1, Marks::TRAP),
            _ => {}
        }
    });
    assert!(
        ends.iter().all(|&(end, _)| end == RunEnd::Limit),
        "{ends:?}"
    );
    // The same runs with no marks at all: as many blocks forgotten.
    let (unmarked, _) = in_turn(&bus, &regs, &mut Marks::new(), (4, 500), |_, _| {});
    assert_eq!(
        own.blocks_generation(),
        unmarked.blocks_generation(),
        "blocks made again"
    );
}

#[test]
fn a_mark_raised_inside_a_block_among_more_raises_than_are_kept_is_seen() {
    let (bus, regs) = two_blocks();
    // The second run starts at `LOOP + 1` (`JP (HL)`, run whatever its
    // marks), then goes into the block at `LOOP`, made before the mark.
    let (_, ends) = in_turn(&bus, &regs, &mut Marks::new(), (2, 504), |run, marks| {
        if run == 1 {
            // The one inside first, then enough outside to push it out of
            // the marks' record of raises.
            marks.set(LOOP + 1, Marks::WATCH);
            for i in 0..16 {
                marks.set(NO_CODE + i, Marks::WATCH);
            }
        }
    });
    assert_eq!(ends[0], (RunEnd::Limit, LOOP + 1));
    assert_eq!(ends[1], (RunEnd::Marked, LOOP + 1));
}

#[test]
fn other_marks_made_before_the_ones_a_block_was_made_for_are_seen() {
    let (bus, regs) = two_blocks();
    // Marked inside the loop, then (later versions) marks with nothing.
    let mut inside = Marks::new();
    inside.set(LOOP + 1, Marks::BREAK);
    let empty = Marks::new();
    let (mut a, mut b) = (bus.clone(), bus);
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    own.set_regs(&regs);
    reference.set_regs(&regs);
    // The second run goes from `JP (HL)` into the block at `LOOP`, made
    // for the empty marks, and must stop on coming back to `LOOP + 1`.
    let mut ends = Vec::new();
    for (marks, length) in [(&empty, 504), (&inside, 500)] {
        let end = own.run(&mut a, &[], marks, own.tstates() + length);
        let reference_end = reference.run(&mut b, marks, reference.tstates() + length);
        assert_eq!(
            (end, own.pc(), own.tstates()),
            (reference_end, reference.pc(), reference.tstates())
        );
        ends.push((end, own.pc()));
    }
    assert_eq!(
        ends,
        [(RunEnd::Limit, LOOP + 1), (RunEnd::Marked, LOOP + 1)]
    );
}

/// The addresses `marks` say were raised after `since`, if they know.
fn raised(marks: &Marks, since: u64) -> Option<Vec<u16>> {
    marks.raised_since(since).map(Iterator::collect)
}

#[test]
fn marks_keep_their_last_raises_and_say_when_they_lost_one() {
    let mut marks = Marks::new();
    let start = marks.version();
    marks.set(1, Marks::BREAK);
    marks.set(1, Marks::TRAP); // already marked: no raise
    marks.clear(1, Marks::BREAK);
    marks.clear(1, Marks::TRAP); // cleared: no raise
    let after_first = marks.version();
    marks.set(2, Marks::WATCH);
    assert_eq!(raised(&marks, start), Some(vec![1, 2]));
    assert_eq!(raised(&marks, after_first), Some(vec![2]));
    assert_eq!(raised(&marks, marks.version()), Some(vec![]));
    for a in 10..30 {
        marks.set(a, Marks::WATCH);
    }
    assert_eq!(raised(&marks, start), None, "the first raises are lost");
    assert_eq!(raised(&marks, after_first), None);
    let recent = marks.version();
    marks.set(40, Marks::PROBE);
    assert_eq!(raised(&marks, recent), Some(vec![40]));
    assert_ne!(Marks::new().id(), marks.id());
    // A page at once: its raises are not kept one by one.
    let before = marks.version();
    marks.page(0x90, Marks::ROM, true);
    assert!((0x9000..=0x90FF).all(|a| marks.at(a) == Marks::ROM));
    assert_eq!((marks.at(0x8FFF), marks.at(0x9100)), (0, 0));
    assert_ne!(marks.version(), before);
    assert_eq!(raised(&marks, before), None);
    let paged = marks.version();
    marks.page(0x90, Marks::ROM, true);
    assert_eq!(marks.version(), paged, "nothing changed");
    marks.page(0x90, Marks::ROM, false);
    assert_eq!(marks.at(0x9080), 0);
    assert_eq!(raised(&marks, paged), Some(vec![]), "a page cleared");
}

/// `CB` and `ED` instructions in one block, then `JR $`: a block load
/// (run again three times), a bit set and tested in memory, a word
/// stored, a subtraction, NEG, a rotation.
const CB_AND_ED: [u8; 29] = [
    0x21, 0x40, 0x80, // LD HL,8040h
    0x11, 0x50, 0x80, // LD DE,8050h
    0x01, 0x04, 0x00, // LD BC,4
    0xED, 0xB0, // LDIR
    0xCB, 0xDE, // SET 3,(HL)
    0xCB, 0x5E, // BIT 3,(HL)
    0xED, 0x53, 0x60, 0x80, // LD (8060h),DE
    0xED, 0x52, // SBC HL,DE
    0xED, 0x44, // NEG
    0xCB, 0x00, // RLC B
    0x3E, 0x81, // LD A,81h
    0x18, 0xFE, // JR $
];

#[test]
fn cb_and_ed_in_a_block_run_as_on_z80emu_wherever_the_limit_falls() {
    let (mut bus, regs) = flat(&CB_AND_ED);
    for i in 0..4 {
        bus.poke(0x8040 + i, 0x11 * (i as u8 + 1));
    }
    // Every limit up to past the `JR $`: each instruction boundary, R
    // counted for both bytes of each prefixed instruction.
    for until in 1..260 {
        both(&bus, &regs, &Marks::new(), until);
    }
    let (end, after) = both(&bus, &regs, &Marks::new(), 1000);
    assert_eq!((end, after.pc), (RunEnd::Limit, AT + 27));
    assert_eq!(after.de, 0x8054, "LDIR ran four times");
}

#[test]
fn a_block_load_over_the_second_byte_of_a_cb_instruction_is_seen() {
    // LD HL,8020h; LD DE,800Eh; LD BC,1; LDIR copies 08h over the 00h of
    // `RLC B` (CB 00), which becomes `RRC B` (CB 08); LD B,3; then the
    // patched instruction, in the same block.
    let mut code = vec![
        0x21, 0x20, 0x80, 0x11, 0x0E, 0x80, 0x01, 0x01, 0x00, 0xED, 0xB0, 0x06, 0x03,
    ];
    code.extend([0xCB, 0x00, 0x18, 0xFE]);
    code.resize(0x20, 0);
    code.push(0x08);
    let (bus, regs) = flat(&code);
    let (_, after) = both(&bus, &regs, &Marks::new(), 1000);
    assert_eq!(after.bc >> 8, 0x81, "RRC B, not RLC B (6)");
}

#[test]
fn a_run_near_its_limit_stops_where_the_instructions_do() {
    // LD B,n / LD C,n / ... : 7 T-states each, in one block; a limit
    // inside it stops at the first instruction boundary at or past it.
    let mut code = Vec::new();
    for r in 0..6u8 {
        code.extend([0x06 | (r << 3), r]);
    }
    code.extend([0x18, 0xFE]);
    let (bus, regs) = flat(&code);
    for until in 1..50 {
        let (end, after) = both(&bus, &regs, &Marks::new(), until);
        assert_eq!(end, RunEnd::Limit, "until {until}");
        let ran = until.div_ceil(7).min(6);
        assert_eq!(after.pc, AT + 2 * ran as u16, "until {until}");
    }
}

#[test]
fn a_write_through_a_mirror_of_the_zx81_s_1k_reaches_the_code() {
    // At 4100h: LD A,42h; LD (4506h),A (4506h is 4106h seen through the
    // 1K's mirror); LD B,0; JR $.
    let code = [0x3E, 0x42, 0x32, 0x06, 0x45, 0x06, 0x00, 0x18, 0xFE];
    for core in [Core::Own, Core::Z80emu] {
        let mut zx = Zx81::new(Ram::K1, FramesMode::Fast, 1);
        zx.set_core(core);
        zx.load(0x4100, &code).expect("fits in 1K");
        let regs = Regs {
            pc: 0x4100,
            ..zx.regs()
        };
        zx.set_regs(&regs);
        let stop = zx.run(10_000);
        assert_eq!(stop, Stop::Stuck { pc: 0x4107 }, "{core:?}");
        assert_eq!(zx.regs().bc >> 8, 0x42, "{core:?}");
    }
}

/// Our core's decoded tables are 2 MB; a machine made for every move
/// (ChesSkelet's injections) took longer zeroing them than searching. A
/// core gone leaves them to the next one made on its thread, which must
/// find nothing valid in them: here other code at the same address.
#[test]
fn a_core_made_after_one_retired_takes_its_tables_and_decodes_afresh() {
    // A thread of its own: its spare tables are this test's alone.
    std::thread::spawn(|| {
        let (_, regs, own) = ran_ld_b_7();
        let generation = own.blocks_generation();
        own.retire();
        let mut next = Own::new();
        assert!(
            next.blocks_generation() > generation,
            "the retired tables, their generation moved on"
        );
        let (mut bus, _) = flat(&[0x06, 0x09, 0x18, 0xFE]);
        next.set_regs(&regs);
        next.run(&mut bus, &[], &Marks::new(), 100);
        assert_eq!(next.regs().bc >> 8, 9, "LD B,n decoded afresh");
        next.retire();
        let (end, after) = both(&bus, &regs, &Marks::new(), 100);
        assert_eq!((end, after.bc >> 8), (RunEnd::Limit, 9));
    })
    .join()
    .expect("the test's thread");
}

/// A machine dropped, or moved to another core, leaves our core's tables
/// to the next core made on its thread.
#[test]
fn a_machine_gone_leaves_its_cores_tables() {
    std::thread::spawn(|| {
        assert_eq!(Own::new().blocks_generation(), 1, "new tables");
        let mut zx = Zx81::new(Ram::K1, FramesMode::Fast, 1);
        zx.set_core(Core::Own);
        zx.set_core(Core::Z80emu);
        // (A core that is only dropped keeps nothing: each of these takes
        // what the machine left, or new tables, at generation 1.)
        assert!(Own::new().blocks_generation() > 1, "left by set_core");
        zx.set_core(Core::Own);
        drop(zx);
        assert!(Own::new().blocks_generation() > 1, "left by drop");
    })
    .join()
    .expect("the test's thread");
}

/// Fifty times round: `XOR A; CP 28h` (flags bits 3 and 5 set, A's
/// clear), then at [`WATCHED`] `SCF`, whose bits 3 and 5 depend on
/// whether the flags changed just before (Q), its flags stored at 9000h
/// on; then `HALT`.
const SCF_LOOP: [u8; 16] = [
    0x06, 0x32, // LD B,50
    0x21, 0x00, 0x90, // LD HL,9000h
    0xAF, // XOR A
    0xFE, 0x28, // CP 28h
    0x37, // SCF (watched)
    0xF5, // PUSH AF
    0xD1, // POP DE
    0x73, // LD (HL),E
    0x23, // INC HL
    0x10, 0xF6, // DJNZ to XOR A
    0x76, // HALT
];
const WATCHED: u16 = AT + 8;

/// How the emulator's loop runs a core with watches (through the
/// machine layer's [`Cpu`], as it does): run, and at a stop on an address
/// marked only as watched, count it and run again; until a HALT or
/// `until`. The runs it took, the end and the watch's count.
fn watched_run(
    cpu: &mut Cpu,
    bus: &mut FlatBus,
    marks: &Marks,
    until: u64,
) -> (usize, RunEnd, u64) {
    let mut watches = Watches::new(&[WATCHED]);
    let mut runs = 0;
    loop {
        if marks.at(cpu.pc()) & Marks::WATCH != 0 {
            watches.visit(cpu.pc());
        }
        runs += 1;
        let end = cpu.run(bus, &[], marks, &mut watches, until);
        if end != RunEnd::Marked || marks.at(cpu.pc()) != Marks::WATCH {
            return (runs, end, watches.hits(0));
        }
    }
}

/// The same program run by that loop on `z80emu` (which stops at every
/// mark) and on ours counting watches itself, on copies of `bus`, until
/// `until`: the same end, count, registers, T-states and RAM. The runs
/// each took.
fn counted_on_both(bus: &FlatBus, regs: &Regs, marks: &Marks, until: u64) -> (usize, usize) {
    let (mut a, mut b) = (bus.clone(), bus.clone());
    let (mut own, mut reference) = (Cpu::new(Core::Own), Cpu::new(Core::Z80emu));
    own.set_regs(regs);
    reference.set_regs(regs);
    let ours = watched_run(&mut own, &mut a, marks, until);
    let theirs = watched_run(&mut reference, &mut b, marks, until);
    assert_eq!(
        (ours.1, ours.2),
        (theirs.1, theirs.2),
        "end and count at {until}"
    );
    assert_eq!(own.regs(), reference.regs(), "at {until}");
    assert_eq!(own.tstates(), reference.tstates(), "at {until}");
    assert_eq!(a.ram(), b.ram(), "at {until}");
    (ours.0, theirs.0)
}

#[test]
fn a_watch_that_only_counts_ends_no_run_of_our_core_and_counts_as_z80emu_s_stops_do() {
    let (bus, regs) = flat(&SCF_LOOP);
    let mut marks = Marks::new();
    marks.set(WATCHED, Marks::WATCH);
    // To the HALT: one run of ours against 51 of `z80emu`'s.
    let (ours, theirs) = counted_on_both(&bus, &regs, &marks, 100_000);
    assert_eq!((ours, theirs), (1, 51));
    // The flags `SCF` stored: Q forgotten at each visit, as at a stop
    // (bits 3 and 5 from `CP 28h`'s flags, not from A, which is 0).
    let (mut own, mut b) = (Own::new(), bus.clone());
    own.set_regs(&regs);
    own.run_counting(&mut b, &[], &marks, &mut Watches::new(&[WATCHED]), 100_000);
    assert!((0..50).all(|i| b.peek(0x9000 + i) & 0x28 == 0x28));
    // And wherever the limit falls.
    for until in (1..3000).step_by(7) {
        counted_on_both(&bus, &regs, &marks, until);
    }
}

#[test]
fn a_watch_with_another_mark_on_it_still_ends_the_run() {
    let (bus, regs) = flat(&SCF_LOOP);
    let mut marks = Marks::new();
    marks.set(WATCHED, Marks::WATCH | Marks::PROBE);
    let (mut own, mut b) = (Own::new(), bus);
    own.set_regs(&regs);
    let mut watches = Watches::new(&[WATCHED]);
    let end = own.run_counting(&mut b, &[], &marks, &mut watches, 100_000);
    assert_eq!(
        (end, own.pc(), watches.hits(0)),
        (RunEnd::Marked, WATCHED, 0)
    );
}

#[test]
fn a_signal_before_a_watch_ends_the_run_there_uncounted() {
    // `NOP; LD A,(0000h)`, a ROM read the ZX81 signals (no ROM here),
    // then a watched `NOP` and `HALT`.
    let mut zx = Zx81::new(Ram::K16, FramesMode::Fast, 1);
    for (i, b) in [0x00, 0x3A, 0x00, 0x00, 0x00, 0x76].into_iter().enumerate() {
        zx.poke(0x7000 + i as u16, b);
    }
    let bus = zx.bus_mut().clone();
    let mut marks = Marks::new();
    marks.set(0x7004, Marks::WATCH);
    let (mut a, mut b) = (bus.clone(), bus);
    let (mut own, mut reference) = (Own::new(), Z80emu::new());
    own.set_regs(&before(0x7001));
    reference.set_regs(&before(0x7001));
    let mut watches = Watches::new(&[0x7004]);
    let ours = own.run_counting(&mut a, &[], &marks, &mut watches, 20_000);
    let theirs = reference.run(&mut b, &marks, 20_000);
    assert_eq!(
        (ours, own.pc(), watches.hits(0)),
        (RunEnd::Signal, 0x7004, 0)
    );
    assert_eq!((theirs, reference.pc()), (ours, own.pc()));
    assert_eq!(own.tstates(), reference.tstates());
}

/// Registers for a run from the `NOP` just before `at`, B a loop's count.
pub(crate) fn before(at: u16) -> Regs {
    Regs {
        pc: at - 1,
        sp: 0x7FF0,
        af: 0x1234,
        bc: 0x0502,
        de: 0x4567,
        hl: 0x4200,
        ..Regs::default()
    }
}
