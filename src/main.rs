//! The `retrochess` command: protocol front ends, terminal play, the boot
//! screen, and the benchmark. Everything here is the binary's edge: argument
//! parsing, stdin/stdout, and the logger (on stderr: stdout belongs to the
//! protocols).

mod cli;

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use retrochess::engines::{self, EngineOptions};
use retrochess::machine::Core;
use retrochess::machine::zx81::FramesMode;
use retrochess::protocol::{self, Protocol};

const DEFAULT_ENGINE: &str = "1k-zx-chess";

#[derive(Parser)]
#[command(
    name = "retrochess",
    version,
    about = "Sinclair-era chess programs, run unmodified in emulated machines, as UCI/xboard engines",
    long_about = "Sinclair-era chess programs, run unmodified in emulated machines, as UCI/xboard engines.\n\n\
                  With no subcommand, retrochess reads the GUI's first line and speaks UCI (`uci`) or \
                  CECP (`xboard`), so GUIs that cannot pass arguments still work."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Engine to run (see `retrochess engines`).
    #[arg(long, short)]
    engine: Option<String>,
    #[command(flatten)]
    options: EngineArgs,
    /// More log output on stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
}

#[derive(Args, Clone)]
struct EngineArgs {
    /// Seed for everything the real machine left to chance (FRAMES, typing times).
    #[arg(long, default_value_t = 1, global = true)]
    seed: u64,
    /// From the initial position, let the program think instead of playing its tape's first move.
    #[arg(long, global = true)]
    think_first_move: bool,
    /// How FRAMES moves while a ZX81 program thinks: slow (as the real machine) or fast (frozen).
    #[arg(long, value_enum, default_value = "slow", global = true)]
    frames: Frames,
    /// Load this tape or snapshot instead of the built-in one.
    #[arg(long, global = true)]
    tape: Option<PathBuf>,
    /// Z80 core: z80emu (exact T-states, the default); iz80 (reproduces games recorded before
    /// z80emu became the default; it counts JR cc not taken as 8 T-states and JP cc not taken
    /// as 7, the Z80 manual says 7 and 10); lockstep (both, compared after every instruction; slow).
    #[arg(long, value_enum, default_value = "z80emu", global = true)]
    core: CoreArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum CoreArg {
    Z80emu,
    Iz80,
    Lockstep,
}

#[derive(Clone, Copy, ValueEnum)]
enum Frames {
    Slow,
    Fast,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout.
    Uci {
        /// Engine to run.
        #[arg(long, short)]
        engine: Option<String>,
    },
    /// Speak CECP (xboard/WinBoard protocol 2) on stdin/stdout.
    Xboard {
        /// Engine to run.
        #[arg(long, short)]
        engine: Option<String>,
    },
    /// Play a match or round-robin: built-in engines, `random`, or external engines.
    Match(cli::matches::MatchArgs),
    /// Play the engine in this terminal, in standard coordinates (e2e4).
    Play {
        /// Engine to play.
        #[arg(long, short)]
        engine: Option<String>,
        /// Your colour.
        #[arg(long, value_enum, default_value = "black")]
        color: Side,
        /// Show the emulated screen with ANSI reverse video.
        #[arg(long)]
        ansi: bool,
    },
    /// Print the engine's emulated screen after start-up.
    Screen {
        /// Engine to show.
        #[arg(long, short)]
        engine: Option<String>,
        /// ANSI reverse video instead of plain text.
        #[arg(long)]
        color: bool,
    },
    /// Benchmark: a fixed, seeded sequence of engine moves, and the bare emulator's rate.
    Bench {
        /// Engine to measure.
        #[arg(long, short)]
        engine: Option<String>,
        /// Engine moves to play.
        #[arg(long, default_value_t = 40)]
        moves: usize,
    },
    /// List the built-in engines.
    Engines,
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

impl EngineArgs {
    fn options(&self) -> EngineOptions {
        EngineOptions {
            seed: self.seed,
            think_first_move: self.think_first_move,
            frames: match self.frames {
                Frames::Slow => FramesMode::Slow,
                Frames::Fast => FramesMode::Fast,
            },
            tape: self.tape.clone(),
            core: match self.core {
                CoreArg::Z80emu => Core::Z80emu,
                CoreArg::Iz80 => Core::Iz80,
                CoreArg::Lockstep => Core::Lockstep,
            },
            ..EngineOptions::default()
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => log::LevelFilter::Warn,
        1 => log::LevelFilter::Info,
        _ => log::LevelFilter::Debug,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .parse_env("RETROCHESS_LOG")
        .target(env_logger::Target::Stderr)
        .init();
    let options = cli.options.options();
    let top = cli.engine;
    // `--engine` may stand before or after the subcommand.
    let pick = |e: Option<String>| {
        e.or_else(|| top.clone())
            .unwrap_or_else(|| DEFAULT_ENGINE.to_string())
    };
    let result = match cli.command {
        Some(Command::Uci { engine }) => {
            protocol::serve(Protocol::Uci, &pick(engine), options, None)
        }
        Some(Command::Xboard { engine }) => {
            protocol::serve(Protocol::Xboard, &pick(engine), options, None)
        }
        None => detect_and_serve(&pick(None), options),
        Some(Command::Match(args)) => cli::matches::run(&args, &options),
        Some(Command::Play {
            engine,
            color,
            ansi,
        }) => {
            let person = match color {
                Side::White => shakmaty::Color::White,
                Side::Black => shakmaty::Color::Black,
            };
            cli::play::run(&pick(engine), &options, person, ansi)
        }
        Some(Command::Screen { engine, color }) => cli::screen(&pick(engine), &options, color),
        Some(Command::Bench { engine, moves }) => cli::bench::run(&pick(engine), &options, moves),
        Some(Command::Engines) => {
            for id in engines::engine_ids() {
                if let Some(info) = engines::info(id) {
                    println!(
                        "{id:18} {} ({}, {}, {})",
                        info.name, info.author, info.year, info.machine
                    );
                }
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("retrochess: {e}");
            ExitCode::FAILURE
        }
    }
}

/// No subcommand: the GUI's first line says which protocol it speaks.
fn detect_and_serve(id: &str, options: EngineOptions) -> Result<(), String> {
    let mut first = String::new();
    loop {
        first.clear();
        let n = std::io::stdin()
            .lock()
            .read_line(&mut first)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(());
        }
        if !first.trim().is_empty() {
            break;
        }
    }
    match Protocol::detect(&first) {
        Some(p) => protocol::serve(p, id, options, Some(first)),
        None => Err(format!(
            "cannot tell the protocol from the first line {:?}: expected `uci` or `xboard` \
             (or run `retrochess uci` / `retrochess xboard`, or `retrochess --help`)",
            first.trim()
        )),
    }
}
