//! `retrochess bench`, in the manner of Stockfish's: a fixed, seeded
//! sequence of engine moves (the engine, moving first, against a seeded
//! random mover, new games as needed), played on the default Z80 core (our
//! own) and on the two reference cores (`z80emu`, `iz80`) in the same run, move for
//! move in turn, so that the speed-ups are ratios of figures taken under the
//! same load.
//! For each core: the emulated MHz end to end, the median host time per
//! engine move, and the share of host time spent outside the core (the
//! harness: run loop, ROM traps, screen reading, board diffing,
//! arbitration). Then the program's search alone in the harness and on a
//! bare `iz80`, where the driver offers it. Output is one figure per line.
//!
//! Host times per move are the engine thread's CPU time (other processes on
//! the host do not inflate them), with nothing timed inside the move. The
//! share outside the core comes from the same moves played again (the same
//! seed, the same positions), each run of the CPU timed: it compares wall
//! times taken around the whole reply and around each run of the CPU, less
//! what the timing itself costs (measured once, on empty runs), and is the
//! median over the moves (a move during which the host scheduled something
//! else is an outlier, not a trend). Timing every run costs two clock reads
//! a run, a few hundred a move: for the small programs a tenth of a move,
//! which the host times would otherwise carry. What the two reads of the
//! clock around each move cost (the median of back-to-back reads, measured
//! once for each core's workload) is taken off every move's host time.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use retrochess::arbiter::Judgement;
use retrochess::engines::{Catalogue, Engine, EngineOptions, Entry, NATIVE};

use retrochess::machine::{Core, profile};
use retrochess::rng::SplitMix64;
use retrochess::rules::draughts::Draughts;
use retrochess::rules::{Game, Rules};

use super::{CliError, OutputError};
use retrochess::with_rules;

/// One core's run of the workload.
struct Workload<R: Catalogue> {
    core: Core,
    rules: R,
    engine: Box<dyn Engine<R>>,
    rng: SplitMix64,
    game: Game<R>,
    /// CPU time of each engine move.
    host: Vec<Duration>,
    /// Per move, the share of its wall time spent outside the core (when
    /// `profiled`).
    outside: Vec<f64>,
    /// Is every run of the CPU timed?
    profiled: bool,
    /// What timing one run of the CPU costs.
    timing: Duration,
    /// What the two clock reads around a move add to its host time.
    clock: Duration,
    authentic: Vec<Duration>,
    tstates: u64,
}

impl<R: Catalogue + Clone> Workload<R> {
    fn new(
        rules: R,
        entry: &'static Entry,
        options: &EngineOptions,
        core: Core,
        profiled: bool,
    ) -> Result<Self, CliError> {
        let options = EngineOptions {
            core,
            ..entry.search_options(options)
        };
        Ok(Workload {
            core,
            engine: R::create(entry, &options)?,
            rng: SplitMix64::new(options.seed),
            game: Game::initial(rules.clone()),
            rules,
            host: Vec::new(),
            outside: Vec::new(),
            profiled,
            timing: profile::timing_cost(),
            clock: clock_cost(),
            authentic: Vec::new(),
            tstates: 0,
        })
    }

    /// Plays the random mover's moves, then one engine move.
    fn engine_move(&mut self, budget: u64) -> Result<(), CliError> {
        let engine_side = self.rules.first_side();
        loop {
            if self.game.ending().is_some() || self.game.moves().len() >= 120 {
                self.game = Game::initial(self.rules.clone());
                self.engine.new_game()?;
            }
            if self.game.turn() == engine_side {
                break;
            }
            let legal = self.game.legal_moves();
            let pick = self.rng.range(0, legal.len() as u64 - 1) as usize;
            self.game.push(legal[pick].clone());
        }
        let (t, cpu) = (Instant::now(), thread_cpu_time());
        let reply = if self.profiled {
            let (reply, core) = profile::core_time(|| self.engine.play(&self.game, budget));
            let timing = (self.timing * core.runs as u32).as_secs_f64();
            let wall = (t.elapsed().as_secs_f64() - timing).max(1e-9);
            let inside = (core.in_core.as_secs_f64() - timing / 2.0).max(0.0);
            self.outside.push((wall - inside).max(0.0) / wall);
            reply?
        } else {
            self.engine.play(&self.game, budget)?
        };
        self.host.push(
            thread_cpu_time()
                .saturating_sub(cpu)
                .saturating_sub(self.clock),
        );
        self.authentic.push(reply.authentic);
        self.tstates += reply.tstates;
        let legal = Judgement::of(&self.rules, self.game.position(), &reply.played)
            .legal()
            .cloned();
        match legal {
            Some(m) => self.game.push(m),
            None => self.game = Game::initial(self.rules.clone()),
        }
        Ok(())
    }

    fn host_time(&self) -> Duration {
        self.host.iter().sum()
    }

    fn mhz(&self) -> f64 {
        mhz(self.tstates, self.host_time())
    }

    /// Writes the figures, each key prefixed with `prefix`.
    fn report(&self, prefix: &str, out: &mut impl Write) -> io::Result<()> {
        let total = self.host_time();
        writeln!(out, "{prefix}engine moves: {}", self.host.len())?;
        writeln!(out, "{prefix}total T-states: {}", self.tstates)?;
        writeln!(out, "{prefix}host time: {:.3} s", total.as_secs_f64())?;
        writeln!(out, "{prefix}emulated MHz: {:.1}", self.mhz())?;
        writeln!(
            out,
            "{prefix}clock reads' cost taken off each move: {:.3} us",
            self.clock.as_secs_f64() * 1e6
        )?;
        writeln!(
            out,
            "{prefix}median host ms per move: {:.4}",
            median(&self.host).as_secs_f64() * 1e3
        )?;
        writeln!(
            out,
            "{prefix}median authentic s per move: {:.2}",
            median(&self.authentic).as_secs_f64()
        )?;
        writeln!(
            out,
            "{prefix}host time outside the core: {:.1}% (median of the moves)",
            100.0 * median_f(&mut self.outside.clone()).unwrap_or(0.0)
        )
    }
}

pub fn run(entry: &'static Entry, options: &EngineOptions, moves: usize) -> Result<(), CliError> {
    if entry.info.machine == NATIVE {
        return native(entry, options, moves);
    }
    // Each program by the rules it plays by: Draughts 1K its house rules.
    let rules = entry.own_rules();
    let benched = with_rules!(rules, |rules| bench(rules, entry, options, moves));
    #[cfg(feature = "census")]
    eprint!("{}", retrochess::machine::cpu::own::census::report());
    benched
}

fn bench<R: Catalogue + Clone>(
    rules: R,
    entry: &'static Entry,
    options: &EngineOptions,
    moves: usize,
) -> Result<(), CliError> {
    let started = Instant::now();
    // The cores move for move in turn: the host times with nothing timed
    // inside the moves, then the share outside the core from the same
    // moves again.
    let play = |profiled| -> Result<[Workload<R>; 3], CliError> {
        let [own, z80emu, iz80] = [Core::default(), Core::Z80emu, Core::Iz80]
            .map(|core| Workload::new(rules.clone(), entry, options, core, profiled));
        let mut runs = [own?, z80emu?, iz80?];
        for _ in 0..moves {
            for run in &mut runs {
                run.engine_move(options.budget)?;
            }
        }
        Ok(runs)
    };
    let mut runs = play(false)?;
    for (run, profiled) in runs.iter_mut().zip(play(true)?) {
        run.outside = profiled.outside;
    }
    let [default, references @ ..] = &mut runs;
    let mut out = io::stdout().lock();
    compare(entry.info.id, default, references, &mut out).map_err(OutputError)?;
    let rates = search_rates(default.engine.as_mut(), &rules.initial());
    rates
        .iter()
        .try_for_each(|line| writeln!(out, "{line}"))
        .and_then(|()| writeln!(out, "wall time: {:.3} s", started.elapsed().as_secs_f64()))
        .and_then(|()| out.flush())
        .map_err(OutputError)?;
    Ok(())
}

/// The figures of the default core and of each reference, and the ratios.
fn compare<R: Catalogue>(
    id: &str,
    default: &Workload<R>,
    references: &[Workload<R>],
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(out, "engine: {id}")?;
    writeln!(out, "core: {} (the default)", default.core)?;
    default.report("", out)?;
    for reference in references {
        writeln!(
            out,
            "reference core: {} (the same workload, move for move in turn)",
            reference.core
        )?;
        reference.report(&format!("{} ", reference.core), out)?;
    }
    for reference in references {
        writeln!(
            out,
            "speed-up, emulated MHz {}/{}: {:.2}x",
            default.core,
            reference.core,
            default.mhz() / reference.mhz().max(1e-9)
        )?;
        writeln!(
            out,
            "speed-up, median host ms per move {}/{}: {:.2}x",
            reference.core,
            default.core,
            median(&reference.host).as_secs_f64() / median(&default.host).as_secs_f64().max(1e-9)
        )?;
    }
    Ok(())
}

/// The search alone, in the harness on the default core and on a bare
/// `iz80` with nothing between instructions (engines that offer it): the
/// lines to print.
fn search_rates<R: Rules>(engine: &mut dyn Engine<R>, pos: &R::Position) -> Vec<String> {
    let mut harness = Vec::new();
    let mut bare = Vec::new();
    for _ in 0..9 {
        if let Some(s) = engine.raw_rate(pos) {
            harness.push(mhz(s.harness_tstates, s.harness_time));
            bare.push(mhz(s.bare_tstates, s.bare_time));
        }
    }
    match (median_f(&mut harness), median_f(&mut bare)) {
        (Some(h), Some(b)) => vec![
            format!("harness search: {h:.1} MHz"),
            format!("raw {b:.1} MHz (bare iz80)"),
            format!("harness/raw: {:.1}%", 100.0 * h / b),
        ],
        _ => Vec::new(),
    }
}

/// CPU time of the calling thread (clock_gettime's thread clock).
#[cfg(unix)]
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

/// CPU time of the calling thread: GetThreadTimes's kernel and user times,
/// in 100 ns units.
#[cfg(windows)]
fn thread_cpu_time() -> Duration {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentThread, GetThreadTimes};
    let zero = || FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero(), zero(), zero(), zero());
    // SAFETY: the pseudo-handle of the current thread is always valid, and
    // the four FILETIMEs are ours for the call to fill in.
    let ok = unsafe {
        GetThreadTimes(
            GetCurrentThread(),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    } != 0;
    let ticks = |t: &FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
    if ok {
        Duration::from_nanos((ticks(&kernel) + ticks(&user)) * 100)
    } else {
        Duration::ZERO
    }
}

/// What a move's host time carries of the two reads of the thread's CPU
/// clock around it: the median of what back-to-back reads measure (some
/// 0.2–0.3 µs here, a twentieth of a Draughts 1K move).
fn clock_cost() -> Duration {
    let pairs: Vec<Duration> = (0..1001)
        .map(|_| {
            let start = thread_cpu_time();
            thread_cpu_time().saturating_sub(start)
        })
        .collect();
    median(&pairs)
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

/// A native engine (samuel-f8): no Z80, so no cores to compare; its search
/// measured as nodes per second over the same kind of workload (the engine
/// moving first against a seeded random mover, English checkers).
fn native(entry: &'static Entry, options: &EngineOptions, moves: usize) -> Result<(), CliError> {
    let id = entry.info.id;
    let rules = Draughts::english();
    let mut engine = Draughts::create(entry, options)?;
    let mut rng = SplitMix64::new(options.seed);
    let mut game = Game::initial(rules);
    let (mut host, mut nodes) = (Vec::new(), 0u64);
    let started = Instant::now();
    while host.len() < moves {
        if game.ending().is_some() || game.moves().len() >= 200 {
            game = Game::initial(rules);
            engine.new_game()?;
        }
        if game.turn() != rules.first_side() {
            let legal = game.legal_moves();
            game.push(legal[rng.range(0, legal.len() as u64 - 1) as usize]);
            continue;
        }
        let t = Instant::now();
        let reply = engine.play(&game, options.budget)?;
        host.push(t.elapsed());
        nodes += reply.nodes;
        let legal = Judgement::of(&rules, game.position(), &reply.played)
            .legal()
            .cloned();
        match legal {
            Some(m) => game.push(m),
            None => game = Game::initial(rules),
        }
    }
    let total: Duration = host.iter().sum();
    Ok(super::say(&format!(
        "engine: {id} (native: no emulated core)\n\
         engine moves: {}\n\
         nodes: {nodes}\n\
         host time: {:.3} s\n\
         nodes per second: {:.0}\n\
         median host ms per move: {:.3}\n\
         wall time: {:.3} s\n",
        host.len(),
        total.as_secs_f64(),
        nodes as f64 / total.as_secs_f64().max(1e-9),
        median(&host).as_secs_f64() * 1e3,
        started.elapsed().as_secs_f64()
    ))?)
}
