//! Bench: T-states per ChesSkelet move, measured on the 44 positions of the
//! published games (seed 001, chapter 12, through the fixture
//! `chesskelet-games.txt`; each published reply imposed),
//! each build. Two figures per reply:
//! - generation and choice: from `befmov` of the computer's turn (`call
//!   genlis`) to the chooser's result, CPU only;
//! - the full reply cycle: from the person's first key to the program's
//!   next wait for a key (the person's move made, the board reversed, the
//!   computer's generation and choice, its move, the reversal, the
//!   person's list, CLS and the board printed), split into what the CPU ran
//!   and what the traps charge as estimates for the ROM (CLS, `RST 16`,
//!   the interrupt handler; rounded figures, see src/machine/spectrum/).
//!
//! `cargo test --profile suite --test bench chesskelet_bench -- --nocapture`
//! prints the table that tapes/CHESSKELET.md carries.

use crate::common;

use retrochess::engines::chesskelet::{BUILDS, Session, view_square};
use retrochess::machine::Stop;
use shakmaty::{Color, Square};

struct Stats(Vec<u64>);

impl Stats {
    fn line(&self) -> String {
        let n = self.0.len() as u64;
        let mean = self.0.iter().sum::<u64>() / n;
        format!(
            "mean {mean:>7}  min {:>7}  max {:>7}",
            self.0.iter().min().unwrap(),
            self.0.iter().max().unwrap()
        )
    }
    fn mean(&self) -> u64 {
        self.0.iter().sum::<u64>() / self.0.len() as u64
    }
}

#[test]
fn tstates_per_move() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    for build in &BUILDS {
        let (mut think, mut cpu, mut est, mut candidates) =
            (Stats(vec![]), Stats(vec![]), Stats(vec![]), Stats(vec![]));
        for common::PublishedGame { white, black, .. } in common::chesskelet_games() {
            let mut s = Session::boot(build, build.tape).unwrap();
            for (w, b) in white.iter().zip(black.iter()) {
                let (b0, e0) = (s.zx.busy_tstates(), s.zx.estimated_tstates());
                s.type_keys(w).unwrap();
                // The person's move made, the board reversed: the computer's
                // turn starts at befmov.
                assert!(matches!(
                    s.zx.run_to(50_000_000, Some(build.hooks.befmov)),
                    Stop::Breakpoint { .. }
                ));
                let (b1, e1) = (s.zx.busy_tstates(), s.zx.estimated_tstates());
                let c = s.run_to_choice(50_000_000).unwrap();
                let (b2, e2) = (s.zx.busy_tstates(), s.zx.estimated_tstates());
                think.0.push((b2 - b1) - (e2 - e1));
                candidates.0.push(u64::from(c.candidates));
                s.impose(
                    view_square(sq(&b[..2]), Color::Black),
                    view_square(sq(&b[2..]), Color::Black),
                );
                assert_eq!(s.finish(50_000_000), Stop::WaitingForKey);
                let (b3, e3) = (s.zx.busy_tstates(), s.zx.estimated_tstates());
                cpu.0.push((b3 - b0) - (e3 - e0));
                est.0.push(e3 - e0);
            }
        }
        println!("{} ({} replies)", build.info.id, think.0.len());
        println!("  candidates                     {}", candidates.line());
        println!("  generation + choice, CPU       {}", think.line());
        println!("  full reply cycle, CPU          {}", cpu.line());
        println!("  full reply cycle, ROM estimate {}", est.line());
        println!(
            "  full reply cycle, total        mean {:>7}",
            cpu.mean() + est.mean()
        );
        // The feasibility study saw ~34-50 k T-states for generation plus
        // choice and ~0.1 M per cycle; these bounds hold the measurement.
        assert!((25_000..80_000).contains(&think.mean()), "{}", think.mean());
        assert!((60_000..200_000).contains(&cpu.mean()), "{}", cpu.mean());
    }
}
