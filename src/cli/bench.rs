//! `retrochess bench`, in the manner of Stockfish's: a fixed, seeded
//! sequence of engine moves (the engine against a seeded random mover, new
//! games as needed), played on the default Z80 core and on the reference
//! core (`iz80`) in the same run, move for move in turn, so that the
//! speed-up is a ratio of figures taken under the same load. For each core:
//! the emulated MHz end to end, the median host time per engine move, and
//! the share of host time spent outside the core (the harness: run loop,
//! ROM traps, screen reading, board diffing, arbitration). Then the
//! program's search alone in the harness and on a bare `iz80`, as before.
//! Output is one figure per line.
//!
//! Host times per move are the engine thread's CPU time (other processes on
//! the host do not inflate them); the share outside the core compares wall
//! times taken around the whole reply and around each run of the CPU, and
//! is the median over the moves (a move during which the host scheduled
//! something else is an outlier, not a trend).

use std::time::{Duration, Instant};

use retrochess::arbiter::{Game, Verdict, judge};
use retrochess::engines::{self, ChessEngine, EngineOptions, Played};
use retrochess::machine::{Core, SplitMix64, profile};
use shakmaty::{Chess, Position};

/// One core's run of the workload.
struct Workload {
    core: Core,
    engine: Box<dyn ChessEngine>,
    rng: SplitMix64,
    game: Game,
    /// CPU time of each engine move.
    host: Vec<Duration>,
    /// Per move, the share of its wall time spent outside the core.
    outside: Vec<f64>,
    authentic: Vec<Duration>,
    tstates: u64,
}

impl Workload {
    fn new(id: &str, options: &EngineOptions, core: Core) -> Result<Workload, String> {
        let options = EngineOptions {
            core,
            think_first_move: true,
            ..options.clone()
        };
        Ok(Workload {
            core,
            engine: engines::create(id, &options).map_err(|e| e.to_string())?,
            rng: SplitMix64::new(options.seed),
            game: Game::new(Chess::default()),
            host: Vec::new(),
            outside: Vec::new(),
            authentic: Vec::new(),
            tstates: 0,
        })
    }

    /// Plays the random mover's moves, then one engine move.
    fn engine_move(&mut self, budget: u64) -> Result<(), String> {
        loop {
            if self.game.ending().is_some() || self.game.moves().len() >= 120 {
                self.game = Game::new(Chess::default());
                self.engine.new_game().map_err(|e| e.to_string())?;
            }
            let pos = self.game.position().clone();
            if pos.turn().is_white() {
                break;
            }
            let legal = pos.legal_moves();
            self.game
                .push(legal[self.rng.range(0, legal.len() as u64 - 1) as usize]);
        }
        let pos = self.game.position().clone();
        let (t, cpu) = (Instant::now(), thread_cpu_time());
        let (reply, in_core) = profile::core_time(|| {
            self.engine
                .play(self.game.root(), self.game.moves(), budget)
        });
        let reply = reply.map_err(|e| e.to_string())?;
        self.host.push(thread_cpu_time().saturating_sub(cpu));
        let wall = t.elapsed().as_secs_f64().max(1e-9);
        self.outside
            .push((wall - in_core.as_secs_f64()).max(0.0) / wall);
        self.authentic.push(reply.authentic);
        self.tstates += reply.tstates;
        let legal = match reply.played {
            Played::Move(uci) => match judge(&pos, &uci) {
                Verdict::Legal(m) => Some(m),
                Verdict::Illegal(..) => None,
            },
            _ => None,
        };
        match legal {
            Some(m) => self.game.push(m),
            None => self.game = Game::new(Chess::default()),
        }
        Ok(())
    }

    fn host_time(&self) -> Duration {
        self.host.iter().sum()
    }

    fn mhz(&self) -> f64 {
        mhz(self.tstates, self.host_time())
    }

    /// Prints the figures, each key prefixed with `prefix`.
    fn report(&self, prefix: &str) {
        let total = self.host_time();
        println!("{prefix}engine moves: {}", self.host.len());
        println!("{prefix}total T-states: {}", self.tstates);
        println!("{prefix}host time: {:.3} s", total.as_secs_f64());
        println!("{prefix}emulated MHz: {:.1}", self.mhz());
        println!(
            "{prefix}median host ms per move: {:.3}",
            median(&self.host).as_secs_f64() * 1e3
        );
        println!(
            "{prefix}median authentic s per move: {:.2}",
            median(&self.authentic).as_secs_f64()
        );
        println!(
            "{prefix}host time outside the core: {:.1}% (median of the moves)",
            100.0 * median_f(&mut self.outside.clone()).unwrap_or(0.0)
        );
    }
}

pub fn run(id: &str, options: &EngineOptions, moves: usize) -> Result<(), String> {
    let started = Instant::now();
    let mut runs = [
        Workload::new(id, options, Core::default())?,
        Workload::new(id, options, Core::Iz80)?,
    ];
    for _ in 0..moves {
        for run in &mut runs {
            run.engine_move(options.budget)?;
        }
    }
    let [default, reference] = &mut runs;
    println!("engine: {id}");
    println!("core: {}", default.core);
    default.report("");
    println!(
        "reference core: {} (the same workload, move for move in turn)",
        reference.core
    );
    reference.report(&format!("{} ", reference.core));
    println!(
        "speed-up, emulated MHz {}/{}: {:.2}x",
        default.core,
        reference.core,
        default.mhz() / reference.mhz().max(1e-9)
    );
    println!(
        "speed-up, median host ms per move {}/{}: {:.2}x",
        reference.core,
        default.core,
        median(&reference.host).as_secs_f64() / median(&default.host).as_secs_f64().max(1e-9)
    );
    search_rates(default.engine.as_mut());
    println!("wall time: {:.3} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The search alone, in the harness on the default core and on a bare
/// `iz80` with nothing between instructions (engines that offer it).
fn search_rates(engine: &mut dyn ChessEngine) {
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
        println!("raw {b:.1} MHz (bare iz80)");
        println!("harness/raw: {:.1}%", 100.0 * h / b);
    }
}

/// CPU time of the calling thread.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok {
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    } else {
        Duration::ZERO
    }
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
