//! The emulated ZX81: ROM traps, keyboard, FRAMES, stops, tape validation.
//! Programs are hand-assembled Z80 bytes in a minimal `.p` image.

use crate::common;

use common::p_image;
use retrochess::machine::zx81::{
    FramesMode, Ram, USER_TSTATES_PER_FRAME, Zx81, char_to_code, sysvar,
};
use retrochess::machine::{Fault, MachineError, Memory, Regs, Resume, Stop, TextScreen};

const CODE: u16 = 0x407D;

fn machine(code: &[u8], frames: FramesMode) -> Zx81 {
    let mut zx = Zx81::load_p(&p_image(code), frames, 7).unwrap();
    let sp = zx.sp();
    zx.jump(CODE, sp);
    zx
}

#[test]
fn keyboard_and_decode_traps_read_a_typed_key() {
    // call 02BB; ld (4300),hl; ld b,h; ld c,l; call 07BD; ld a,(hl); ld (4302),a; jr $
    let code = [
        0xCD, 0xBB, 0x02, 0x22, 0x00, 0x43, 0x44, 0x4D, 0xCD, 0xBD, 0x07, 0x7E, 0x32, 0x02, 0x43,
        0x18, 0xFE,
    ];
    for (key, row, col, char_code) in [
        ('E', 2, 2, 0x2A),
        ('7', 4, 3, 0x23),
        ('B', 7, 4, 0x27),
        ('Z', 0, 1, 0x3F),
    ] {
        let mut zx = machine(&code, FramesMode::Slow);
        zx.type_keys(&key.to_string()).unwrap();
        let stop = zx.run(10_000_000);
        assert_eq!(stop, Stop::Stuck { pc: CODE + 15 }, "{key}");
        // L: the half-row's select bit low; H: the column bit low, shifted
        // left, with SHIFT (not pressed: 1) in bit 0.
        assert_eq!(zx.peek(0x4300), !(1u8 << row), "L for {key}");
        assert_eq!(
            zx.peek(0x4301),
            ((0xE0 | (0x1F & !(1u8 << col))) << 1) | 1,
            "H for {key}"
        );
        assert_eq!(zx.peek(0x4302), char_code, "character code of {key}");
    }
}

#[test]
fn keyboard_with_no_key_is_a_named_stop_and_resumes() {
    // loop: call 02BB; inc l; jr z,loop; ld a,h; ld (4300),a; jr $
    let code = [
        0xCD, 0xBB, 0x02, 0x2C, 0x28, 0xFA, 0x7C, 0x32, 0x00, 0x43, 0x18, 0xFE,
    ];
    let mut zx = machine(&code, FramesMode::Slow);
    assert_eq!(zx.run(1_000_000), Stop::WaitingForKey);
    assert_eq!(zx.pc(), 0x02BB, "left at the keyboard routine");
    assert_eq!(
        zx.run(1_000_000),
        Stop::WaitingForKey,
        "still nothing typed"
    );
    zx.type_keys("Q").unwrap();
    assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: CODE + 10 });
    assert_eq!(zx.peek(0x4300), ((0xE0 | 0x1E) << 1) | 1);
}

#[test]
fn newline_tail_stores_b_c_e_d_downwards() {
    // ld hl,4305; ld bc,1122; ld de,3344; call 0724; ld (4310),hl; jr $
    let code = [
        0x21, 0x05, 0x43, 0x01, 0x22, 0x11, 0x11, 0x44, 0x33, 0xCD, 0x24, 0x07, 0x22, 0x10, 0x43,
        0x18, 0xFE,
    ];
    let mut zx = machine(&code, FramesMode::Slow);
    assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: CODE + 15 });
    let got: Vec<u8> = (0x4302..=0x4305).map(|a| zx.peek(a)).collect();
    assert_eq!(
        got,
        [0x33, 0x44, 0x22, 0x11],
        "(hl)=b, (hl-1)=c, (hl-2)=e, (hl-3)=d"
    );
    assert_eq!(zx.peek16(0x4310), 0x4302, "HL three lower");
}

#[test]
fn other_rom_calls_and_reads_are_reported_faults() {
    let mut zx = machine(&[0xCD, 0x2A, 0x0A], FramesMode::Slow); // call 0A2A
    assert_eq!(
        zx.run(1_000_000),
        Stop::Fault(Fault::RomCall { pc: 0x0A2A })
    );
    let mut zx = machine(&[0x3A, 0x00, 0x10], FramesMode::Slow); // ld a,(1000)
    assert_eq!(
        zx.run(1_000_000),
        Stop::Fault(Fault::RomRead {
            addr: 0x1000,
            pc: CODE
        })
    );
    let mut zx = machine(&[0xC3, 0x00, 0x90], FramesMode::Slow); // jp 9000 (ROM echo)
    assert_eq!(
        zx.run(1_000_000),
        Stop::Fault(Fault::RomCall { pc: 0x9000 })
    );
    let mut zx = machine(&[0xC3, 0x00, 0xC0], FramesMode::Slow); // jp C000 (RAM echo)
    assert_eq!(
        zx.run(1_000_000),
        Stop::Fault(Fault::Unmapped { pc: 0xC000 })
    );
}

#[test]
fn rom_writes_are_ignored_and_ram_is_echoed_every_1k() {
    // ld a,55; ld (0100),a; ld (4700),a; jr $
    let code = [0x3E, 0x55, 0x32, 0x00, 0x01, 0x32, 0x00, 0x47, 0x18, 0xFE];
    let mut zx = machine(&code, FramesMode::Slow);
    assert_eq!(zx.run(1_000_000), Stop::Stuck { pc: CODE + 8 });
    assert_eq!(zx.ignored_rom_writes(), 1);
    assert_eq!(zx.peek(0x4300), 0x55, "0x4700 is 0x4300 again");
}

#[test]
fn frames_counts_down_in_slow_mode_and_stands_still_in_fast() {
    // A counted loop: ld bc,0; loop: dec bc; ld a,b; or c; jr nz,loop; jr $
    let code = [0x01, 0x00, 0x00, 0x0B, 0x78, 0xB1, 0x20, 0xFB, 0x18, 0xFE];
    let mut slow = machine(&code, FramesMode::Slow);
    let before = slow.frames();
    assert_eq!(slow.run(10_000_000), Stop::Stuck { pc: CODE + 8 });
    let t = slow.tstates();
    let counted = u64::from(before - slow.frames());
    assert_eq!(
        counted,
        t / USER_TSTATES_PER_FRAME,
        "one frame per {USER_TSTATES_PER_FRAME} T-states"
    );
    assert!(
        counted > 50,
        "65536 iterations of 24 T-states is ~87 frames: {counted}"
    );
    let mut fast = machine(&code, FramesMode::Fast);
    let before = fast.frames();
    fast.run(10_000_000);
    assert_eq!(fast.frames(), before);
}

#[test]
fn frames_keeps_bit_15_and_wraps_in_15_bits() {
    let mut zx = machine(&[0x00, 0x18, 0xFD], FramesMode::Slow); // loop: nop; jr loop
    zx.poke16(sysvar::FRAMES, 0x8001);
    zx.run(3 * USER_TSTATES_PER_FRAME);
    let f = zx.frames();
    assert_eq!(f & 0x8000, 0x8000);
    assert!(f > 0xF000, "wrapped below 0x8000 within 15 bits: {f:04X}");
}

#[test]
fn frames_counts_every_frame_of_a_wait_for_a_key() {
    // CALL KEYBOARD until a key is down, then JR $: the wait for the key
    // is skipped over (idle time), many frames at once.
    let code = [0xCD, 0xBB, 0x02, 0x2C, 0x28, 0xFA, 0x18, 0xFE];
    let mut zx = Zx81::load_p(&p_image(&code), FramesMode::Slow, 3).unwrap();
    let sp = zx.sp();
    zx.jump(CODE, sp);
    zx.poke16(sysvar::FRAMES, 0x8005);
    zx.type_keys("1").unwrap();
    zx.run(100_000_000);
    let passed = zx.tstates() / USER_TSTATES_PER_FRAME;
    assert!(passed > 10, "the key came after {passed} frames");
    // Counted down in 15 bits from 5, bit 15 kept.
    let expected = 0x8000 | (5u64.wrapping_sub(passed) & 0x7FFF) as u16;
    assert_eq!(zx.frames(), expected, "{passed} frames");
}

#[test]
fn typing_is_reproducible_from_the_seed() {
    let code = [0xCD, 0xBB, 0x02, 0x2C, 0x28, 0xFA, 0x18, 0xFE];
    let frames_after = |seed| {
        let mut zx = Zx81::load_p(&p_image(&code), FramesMode::Slow, seed).unwrap();
        let sp = zx.sp();
        zx.jump(CODE, sp);
        zx.type_keys("1").unwrap();
        zx.run(100_000_000);
        (zx.frames(), zx.tstates())
    };
    assert_eq!(frames_after(3), frames_after(3));
    let distinct: std::collections::HashSet<_> = (0..8).map(frames_after).collect();
    assert!(distinct.len() > 1, "different seeds give different timings");
}

#[test]
fn a_loop_that_never_waits_exhausts_the_budget() {
    let mut zx = machine(&[0x3C, 0x18, 0xFD], FramesMode::Slow); // loop: inc a; jr loop
    match zx.run(1_000_000) {
        Stop::BudgetExhausted { pc } => assert!(pc == CODE || pc == CODE + 1, "{pc:04X}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_keys_are_refused() {
    let mut zx = machine(&[0x18, 0xFE], FramesMode::Slow);
    assert_eq!(zx.type_keys("E!"), Err('!'));
}

#[test]
fn corrupt_tapes_are_refused_with_a_reason() {
    let good = p_image(&[0x18, 0xFE]);
    let err = |img: &[u8]| match Zx81::load_p(img, FramesMode::Slow, 1) {
        Err(MachineError::BadTape(why)) => why,
        Ok(_) => panic!("accepted"),
        Err(e) => panic!("{e}"),
    };
    assert!(
        err(&[]).starts_with("tape too short: 0 bytes"),
        "{}",
        err(&[])
    );
    assert!(err(&good[..50]).starts_with("tape too short: 50 bytes"));
    let truncated = &good[..good.len() - 3];
    assert!(
        err(truncated).contains("disagrees with E_LINE"),
        "{}",
        err(truncated)
    );
    let mut long = good.clone();
    long.resize(1100, 0);
    assert!(err(&long).starts_with("tape too long for a 1K ZX81: 1100 bytes"));
    let mut no_end = good.clone();
    *no_end.last_mut().unwrap() = 0x00;
    assert!(err(&no_end).contains("0x80 end-of-variables marker"));
    let mut bad_dfile = good.clone();
    let n = bad_dfile.len();
    bad_dfile[n - 5] = 0x00; // one NEWLINE fewer in the display file
    assert!(
        err(&bad_dfile).contains("24 NEWLINEs, expected 25"),
        "{}",
        err(&bad_dfile)
    );
    let mut disorder = good.clone();
    disorder[3] = 0xFF; // D_FILE beyond VARS
    assert!(
        err(&disorder).contains("out of order"),
        "{}",
        err(&disorder)
    );
}

#[test]
fn a_16k_machine_runs_raw_code_called_from_rust() {
    let mut zx = Zx81::new(Ram::K16, FramesMode::Fast, 1);
    assert_eq!(zx.peek16(sysvar::RAMTOP), 0x8000);
    // At 0x6000, beyond any 1K echo: ld hl,(7000); add hl,hl; ld (7002),hl; ret
    let code = [0x2A, 0x00, 0x70, 0x29, 0x22, 0x02, 0x70, 0xC9];
    zx.load(0x6000, &code).unwrap();
    zx.poke16(0x7000, 1234);
    let sp = zx.sp();
    assert_eq!(zx.call(0x6000, 1_000), Stop::Returned);
    assert_eq!(zx.peek16(0x7002), 2468);
    assert_eq!(zx.sp(), sp, "the call's return address popped");
    // 16 + 11 + 16 + 10 T-states by the Z80 manual.
    assert_eq!(zx.busy_tstates(), 53);
    // 0x7002 is not an echo of 0x4002 (ERR_SP) on 16K.
    assert_eq!(zx.peek16(0x4002), 0x7FFC);
    assert!(zx.load(0x7FFC, &[0; 8]).is_err(), "past RAMTOP");
    assert!(zx.load(0x3000, &[0]).is_err(), "into the ROM");
    let mut small = Zx81::new(Ram::K1, FramesMode::Fast, 1);
    assert!(small.load(0x4400, &[0]).is_err(), "beyond 1K");
}

#[test]
fn a_rust_trap_replaces_the_code_at_its_address() {
    let mut zx = Zx81::new(Ram::K16, FramesMode::Fast, 1);
    // main: ld a,5; call 0x6100; ld (7000),a; ret      0x6100: (trapped)
    zx.load(0x6000, &[0x3E, 5, 0xCD, 0x00, 0x61, 0x32, 0x00, 0x70, 0xC9])
        .unwrap();
    zx.load(0x6100, &[0x76]).unwrap(); // a HALT, never run: the trap runs instead
    zx.trap(0x6100, |regs: &mut Regs, mem: &mut dyn Memory| {
        let squared = regs.a() * regs.a();
        regs.af = (u16::from(squared) << 8) | (regs.af & 0xFF);
        mem.poke(0x7001, 0xAA);
        Resume::Return { tstates: 100 }
    });
    assert_eq!(zx.call(0x6000, 10_000), Stop::Returned);
    assert_eq!((zx.peek(0x7000), zx.peek(0x7001)), (25, 0xAA));
    // ld a,n 7, call 17, ld (nn),a 13, ret 10, and the trap's 100.
    assert_eq!(zx.busy_tstates(), 7 + 17 + 100 + 13 + 10);
    // A trap can also stop the run, leaving PC at its address.
    zx.trap(0x6100, |_: &mut Regs, _: &mut dyn Memory| {
        Resume::Stop(Stop::Breakpoint { pc: 0x6100 })
    });
    assert_eq!(zx.call(0x6000, 10_000), Stop::Breakpoint { pc: 0x6100 });
    assert_eq!(zx.pc(), 0x6100);
    zx.untrap(0x6100);
    assert_eq!(zx.call(0x6000, 10_000), Stop::Halted { pc: 0x6100 });
}

#[test]
fn the_display_file_of_a_fresh_machine_is_read_as_text() {
    for ram in [Ram::K1, Ram::K16] {
        let mut zx = Zx81::new(ram, FramesMode::Slow, 1);
        assert_eq!(zx.screen(), TextScreen::default(), "{ram:?}");
        let d_file = zx.peek16(sysvar::D_FILE);
        if ram == Ram::K16 {
            // Line 3, column 5 of the expanded file: HELLO in inverse video.
            let at = d_file + 1 + 3 * 33 + 5;
            for (i, ch) in "HELLO".chars().enumerate() {
                zx.poke(at + i as u16, 0x80 | char_to_code(ch).unwrap());
            }
            let screen = zx.screen();
            // (Plain text shows inverse video in lower case.)
            assert_eq!(screen.row_text(3), "     hello");
            assert!(screen.cell(3, 5).inverse);
        } else {
            let newlines = (0..25).filter(|i| zx.peek(d_file + i) == 0x76).count();
            assert_eq!(newlines, 25, "collapsed on 1K");
        }
    }
}

#[test]
fn a_halt_is_a_named_stop_at_once() {
    // ld a,1; halt  (no interrupt of ours ever ends it)
    let mut zx = machine(&[0x3E, 0x01, 0x76, 0x00], FramesMode::Slow);
    assert_eq!(zx.run(1_000_000_000), Stop::Halted { pc: CODE + 2 });
    assert!(zx.busy_tstates() < 100, "{} T-states", zx.busy_tstates());
    // Asked again, it says the same at once.
    assert_eq!(zx.run(1_000_000_000), Stop::Halted { pc: CODE + 2 });
}

#[test]
fn the_budget_is_honoured_to_the_instruction() {
    // loop: inc a; jr loop (4 + 12 T-states), never waits.
    for budget in [1, 100, 18_039, 18_041, 1_000_000] {
        let mut zx = machine(&[0x3C, 0x18, 0xFD], FramesMode::Slow);
        assert!(matches!(zx.run(budget), Stop::BudgetExhausted { .. }));
        let used = zx.busy_tstates();
        assert!(
            (budget..budget + 12).contains(&used),
            "budget {budget}: ran {used}"
        );
    }
}

#[test]
fn a_probe_copies_each_visit_and_changes_nothing() {
    // ld b,5; loop: ld a,b; add a,a; ld (7000),a; djnz loop; ret
    // The probe sits on `add a,a`: it sees A = B before the doubling.
    let code = [0x06, 5, 0x78, 0x87, 0x32, 0x00, 0x70, 0x10, 0xF9, 0xC9];
    let run = |probe: bool| {
        let mut zx = Zx81::new(Ram::K16, FramesMode::Slow, 3);
        zx.load(0x6000, &code).unwrap();
        if probe {
            zx.probe(0x6003, |regs: &Regs, mem: &dyn Memory| {
                vec![regs.a(), mem.peek(0x7000)]
            });
        }
        assert_eq!(zx.call(0x6000, 10_000), Stop::Returned);
        (
            zx.busy_tstates(),
            zx.regs(),
            zx.peek(0x7000),
            zx.take_samples(),
        )
    };
    let (t_off, regs_off, mem_off, none) = run(false);
    let (t_on, regs_on, mem_on, samples) = run(true);
    assert!(none.is_empty());
    assert_eq!((t_on, regs_on, mem_on), (t_off, regs_off, mem_off));
    let seen: Vec<Vec<u8>> = samples.iter().map(|s| s.bytes.clone()).collect();
    // A before the doubling, and what the previous pass stored.
    assert_eq!(seen, [[5, 0], [4, 10], [3, 8], [2, 6], [1, 4]]);
    assert!(samples.iter().all(|s| s.pc == 0x6003));
    assert!(samples.windows(2).all(|w| w[0].tstates < w[1].tstates));
}
