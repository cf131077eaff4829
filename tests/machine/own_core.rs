//! Our own Z80 core against `z80emu` on random programs: seeded random
//! bytes as registers, memory and a script of steps, interrupts and
//! bounded runs (`cpu::check::side_by_side`, what the fuzz target
//! `z80_cores` runs on libFuzzer's inputs).

use retrochess::machine::cpu::check;
use retrochess::rng::SplitMix64;

#[test]
fn random_programs_run_the_same_on_both_cores() {
    let mut rng = SplitMix64::new(22);
    let mut actions = 0;
    for program in 0..400 {
        let len = 24 + rng.range(1, 600) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.range(0, 255) as u8).collect();
        match check::side_by_side(&data, 300) {
            Ok(done) => actions += done.actions,
            Err(e) => panic!("program {program} ({data:02X?}): {e}"),
        }
    }
    assert_eq!(actions, 400 * 300);
}

/// 64 bytes for `check::side_by_side`: SP F000, PC 29, the actions'
/// `script` from byte 24 and `code` from byte 29, zeros elsewhere.
fn program(script: &[u8], code: &[u8]) -> Vec<u8> {
    let mut data = vec![0u8; 64];
    data[12..16].copy_from_slice(&[0x00, 0xF0, 29, 0]);
    data[24..24 + script.len()].copy_from_slice(script);
    data[29..29 + code.len()].copy_from_slice(code);
    data
}

/// How many of at most `max` actions ran the same on both cores.
fn actions(data: &[u8], max: usize) -> Result<u64, String> {
    check::side_by_side(data, max).map(|d| d.actions)
}

/// A fuzz finding kept as a seed runs all its 2,000 actions the same.
fn seed_runs(seed: &[u8]) {
    assert_eq!(actions(seed, 2_000), Ok(2_000));
}

/// Found by the fuzz target: a run stopped at a mark after `SET 5,L` (CB
/// ED) reported the ED as the last instruction's first byte on `z80emu`.
#[test]
fn a_cb_instruction_whose_opcode_looks_like_a_prefix_is_reported_at_its_start() {
    // A run, the mark 3 bytes on: NOP (a run's first instruction is a
    // step), then SET 5,L.
    let data = program(&[0xDB], &[0x00, 0xCB, 0xED, 0x00]);
    assert_eq!(actions(&data, 1), Ok(1));
}

/// Found by the fuzz target (its input is the seed
/// `fuzz/corpus/z80_cores/jr-back-past-a-prefix.bin`): `FD 30 FE` is a
/// `JR NC` to its own second byte, past its prefix; a run that looped
/// there and stopped at its limit reported the prefix, fetched on the
/// first pass only, as the last instruction's first byte on `z80emu`.
#[test]
fn a_jump_back_past_a_prefix_is_reported_at_the_jump() {
    seed_runs(include_bytes!(
        "../../fuzz/corpus/z80_cores/jr-back-past-a-prefix.bin"
    ));
    // A run of 44 T-states with the mark 3 bytes on (on the FE, never an
    // instruction's first byte): NOP (4), FD JR NC (16), then JR NC (12)
    // twice, the second reaching the limit.
    let data = program(&[0xEB], &[0x00, 0xFD, 0x30, 0xFE]);
    assert_eq!(actions(&data, 1), Ok(1));
}

/// Found by the fuzz target (its input is the seed
/// `fuzz/corpus/z80_cores/limit-in-a-prefix-chain.bin`, where 25 FD
/// prefixes precede an instruction): a run that reached its limit within
/// a chain of prefixes reported, on `z80emu`, the byte where the step that
/// finished the instruction began, not the chain's first prefix.
#[test]
fn a_limit_within_a_prefix_chain_reports_its_first_prefix() {
    seed_runs(include_bytes!(
        "../../fuzz/corpus/z80_cores/limit-in-a-prefix-chain.bin"
    ));
    // A run of 60 T-states with the mark 7 bytes on (within the chain):
    // NOP (4), then 30 FD prefixes and a NOP, the limit reached after 14.
    let mut code = vec![0x00];
    code.extend([0xFD; 30]);
    let data = program(&[0xEF], &code);
    assert_eq!(actions(&data, 1), Ok(1));
}

/// Found by the fuzz target (its input is the seed
/// `fuzz/corpus/z80_cores/interrupt-in-im-2.bin`): `interrupt_im1` after
/// the program ran `IM 2` went to 0038 on our core and through the IM 2
/// vector on `z80emu`. The contract is a mode 1 interrupt whatever the
/// mode (the Spectrum refuses the others before asking for one).
#[test]
fn a_mode_1_interrupt_is_taken_in_any_interrupt_mode() {
    seed_runs(include_bytes!(
        "../../fuzz/corpus/z80_cores/interrupt-in-im-2.bin"
    ));
    for im in [0x46, 0x56, 0x5E] {
        // A step (IM 0, 1 or 2), then an interrupt.
        let mut data = program(&[0x00, 0xA0], &[0xED, im]);
        data[22] = 0x03; // I 03, IFF1 and IFF2 set
        assert_eq!(actions(&data, 2), Ok(2), "ED {im:02X}");
    }
}

/// Found by the fuzz target (its input is the seed
/// `fuzz/corpus/z80_cores/limit-between-a-prefix-and-halt.bin`): a run
/// whose limit fell between a DD prefix and a HALT ended with `Limit` on
/// `z80emu` (its driver finishes the instruction with a step) and with
/// `Halt` on our core, as when the HALT begins before the limit.
#[test]
fn a_limit_between_a_prefix_and_halt_ends_the_run_on_the_halt() {
    seed_runs(include_bytes!(
        "../../fuzz/corpus/z80_cores/limit-between-a-prefix-and-halt.bin"
    ));
    // A run of 32 T-states, the mark on its first instruction: 7 NOPs
    // (28), then DD (32, the limit) and HALT.
    let data = program(&[0xE8], &[0, 0, 0, 0, 0, 0, 0, 0xDD, 0x76]);
    assert_eq!(actions(&data, 1), Ok(1));
}

/// Found by the fuzz target: memory of nothing but `DD` and `FD` bytes is
/// one endless chain of prefixes, on which both cores ran for ever (a
/// run's limit never falls inside an instruction). Such memory is left
/// out, and memory with any other byte among them still runs: a chain ends
/// at it.
#[test]
fn memory_of_nothing_but_prefixes_is_left_out_and_one_other_byte_ends_a_chain() {
    let prefixes: Vec<u8> = [0xDD, 0xFD].repeat(20);
    assert_eq!(
        check::side_by_side(&prefixes, 50),
        Ok(check::Compared::default())
    );
    // The same with a NOP in it: every chain ends there (memory repeats
    // the 41 bytes), and all 50 actions run, compared.
    let mut almost = prefixes;
    almost.push(0x00);
    assert_eq!(actions(&almost, 50), Ok(50));
}
