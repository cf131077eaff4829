//! Bench: `samuel-f8` speed. Nodes per second of the search at several
//! levels (the default is the notes' 4 to 10 plies), over self-play games
//! from each stored first move, and perft timings from the initial position
//! up to depth 11 (85,242,128, each jump path counted: the figure the
//! draughts issue quotes).
//!
//! `cargo test --profile suite --test bench samuel_f8_bench -- --nocapture`
//! prints the table.

use std::time::Instant;

use retrochess::engines::samuel_f8::{Level, Position, bench, perft};

#[test]
fn nodes_per_second_at_several_levels() {
    println!("level      moves      nodes   time (ms)        nps   per move (µs)");
    for (min, max) in [(4, 10), (6, 10), (8, 12)] {
        let level = Level::new(min, max).unwrap();
        let report = bench(level, 60);
        let again = bench(level, 60);
        assert_eq!(report.nodes, again.nodes, "the search is deterministic");
        assert!(report.moves > 100, "{report:?}");
        let per_move = report.elapsed.as_secs_f64() * 1e6 / f64::from(report.moves);
        println!(
            "{min:>2}..{max:<2}  {:>9}  {:>9}  {:>10.1}  {:>9.0}  {per_move:>14.1}",
            report.moves,
            report.nodes,
            report.elapsed.as_secs_f64() * 1e3,
            report.nodes_per_second()
        );
    }
}

#[test]
fn perft_timings_from_the_initial_position() {
    let published = [
        7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
    ];
    for (depth, &count) in (1..).zip(&published) {
        let started = Instant::now();
        let got = perft(&Position::initial(), depth);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!("perft {depth:>2} {got:>10} {ms:>10.1} ms");
        assert_eq!(got, count, "depth {depth}");
    }
}
