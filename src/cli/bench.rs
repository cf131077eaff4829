//! `retrochess bench`, in the manner of Stockfish's: a fixed, seeded sequence
//! of engine moves (the engine against a seeded random mover, new games as
//! needed), then the program's search timed in the harness and on a bare
//! iz80, so the harness's cost is a ratio. Output is one figure per line.

use std::time::{Duration, Instant};

use retrochess::engines::{Catalogue, EngineOptions, Played, onek};
use retrochess::machine::SplitMix64;
use retrochess::rules::chess::{ChessRules, judge};
use retrochess::rules::{Game, Verdict};
use shakmaty::{Chess, Position};

use super::CliError;

pub fn run(id: &str, options: &EngineOptions, moves: usize) -> Result<(), CliError> {
    let options = options.clone().with(onek::OPENING, "think");
    let mut engine = ChessRules::create(id, &options)?;
    let mut rng = SplitMix64::new(options.seed);
    let mut game = Game::new(ChessRules, Chess::default());
    let (mut host, mut authentic, mut tstates) = (Vec::new(), Vec::new(), 0u64);
    let started = Instant::now();
    while host.len() < moves {
        if game.ending().is_some() || game.moves().len() >= 120 {
            game = Game::new(ChessRules, Chess::default());
            engine.new_game()?;
        }
        let pos = game.position().clone();
        if pos.turn().is_black() {
            let legal = pos.legal_moves();
            game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize]);
            continue;
        }
        let t = Instant::now();
        let reply = engine.play(&game, options.budget)?;
        host.push(t.elapsed());
        authentic.push(reply.authentic);
        tstates += reply.tstates;
        let legal = match reply.played {
            Played::Move(uci) => match judge(&pos, &uci) {
                Verdict::Legal(m) => Some(m),
                Verdict::Illegal(..) => None,
            },
            _ => None,
        };
        match legal {
            Some(m) => game.push(m),
            None => game = Game::new(ChessRules, Chess::default()),
        }
    }
    let total: Duration = host.iter().sum();
    println!("engine: {id}");
    println!("engine moves: {}", host.len());
    println!("total T-states: {tstates}");
    println!("host time: {:.3} s", total.as_secs_f64());
    println!("emulated MHz: {:.1}", mhz(tstates, total));
    println!(
        "median host ms per move: {:.3}",
        median(&host).as_secs_f64() * 1e3
    );
    println!(
        "median authentic s per move: {:.2}",
        median(&authentic).as_secs_f64()
    );
    let mut harness = Vec::new();
    let mut bare = Vec::new();
    for _ in 0..9 {
        if let Some(s) = engine.raw_rate(&Chess::default()) {
            harness.push(mhz(s.harness_tstates, s.harness_time));
            bare.push(mhz(s.bare_tstates, s.bare_time));
        }
    }
    if let (Some(h), Some(b)) = (median_f(&mut harness), median_f(&mut bare)) {
        println!("harness search: {h:.1} MHz");
        println!("raw {b:.1} MHz");
        println!("harness/raw: {:.1}%", 100.0 * h / b);
    }
    println!("wall time: {:.3} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn mhz(tstates: u64, time: Duration) -> f64 {
    tstates as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

fn median(xs: &[Duration]) -> Duration {
    let mut v = xs.to_vec();
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn median_f(xs: &mut [f64]) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied()
}
