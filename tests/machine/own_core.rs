//! Our own Z80 core against `z80emu` on random programs: seeded random
//! bytes as registers, memory and a script of steps, interrupts and
//! bounded runs (`cpu::check::side_by_side`, what the fuzz target
//! `z80_cores` runs on libFuzzer's inputs).

use retrochess::machine::SplitMix64;
use retrochess::machine::cpu::check;

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
