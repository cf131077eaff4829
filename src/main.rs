//! The `retrochess` command: protocol front ends, terminal play, the boot
//! screen, and the benchmark. Everything here is the binary's edge: argument
//! parsing, stdin/stdout, and the logger (on stderr: stdout belongs to the
//! protocols).

mod cli;

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use retrochess::engines::{self, EngineOptions, GameKind};
use retrochess::machine::Core;
use retrochess::protocol::{self, Protocol};

const DEFAULT_ENGINE: &str = "1k-zx-chess";
/// The engine `retrochess hub` runs when none is named.
const DEFAULT_DRAUGHTS_ENGINE: &str = "samuel-f8";

#[derive(Parser)]
#[command(
    name = "retrochess",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("RETROCHESS_TARGET"), ")"),
    about = "Sinclair-era chess and draughts programs, run unmodified in emulated machines, as UCI/xboard/Hub engines",
    long_about = "Sinclair-era chess and draughts programs, run unmodified in emulated machines, as UCI/xboard/Hub engines.\n\n\
                  With no subcommand, retrochess reads the GUI's first line and speaks UCI (`uci`), \
                  CECP (`xboard`) or, for draughts, Hub (`hub`), so GUIs that cannot pass arguments still work."
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
    /// Set an option an engine's driver declares (NAME=VALUE; see the
    /// options each engine offers over UCI); engines that do not declare it
    /// ignore it.
    #[arg(long = "option", value_name = "NAME=VALUE", global = true)]
    driver_options: Vec<String>,
    /// Z80 core: own (ours, the default: exact T-states, 2–3× as fast as z80emu); z80emu
    /// (the same T-states and results; the default before ours); iz80 (reproduces games
    /// recorded before z80emu became the default; it counts JR cc not taken as 8 T-states and
    /// JP cc as 7 not taken, 12 taken, the Z80 manual says 7 and 10); lockstep (z80emu and
    /// iz80 compared after every instruction; slow); lockstep-own (z80emu and ours compared
    /// exactly after every instruction; slow).
    #[arg(long, value_enum, default_value = "own", global = true)]
    core: CoreArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum CoreArg {
    Own,
    Z80emu,
    Iz80,
    Lockstep,
    LockstepOwn,
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
    /// Speak Hub (the draughts protocol of Scan, version 2; pydraughts's
    /// HubEngine on 8x8) on stdin/stdout.
    Hub {
        /// Draughts engine to run (default samuel-f8).
        #[arg(long, short)]
        engine: Option<String>,
    },
    /// Play a match or round-robin: built-in engines, `random`, or external engines.
    Match(cli::matches::MatchArgs),
    /// Rate the players of PGN (chess) or PDN (draughts) files jointly:
    /// Bradley-Terry with a draw parameter, 95% bootstrap intervals, LOS.
    Rate(cli::rate::RateArgs),
    /// Play the engine in this terminal: chess in standard coordinates
    /// (e2e4) or SAN, draughts in PDN numbering (11-15, 15x24).
    Play {
        /// Engine to play.
        #[arg(long, short)]
        engine: Option<String>,
        /// Your colour (default: Black in chess; White in draughts, where
        /// Black moves first).
        #[arg(long, value_enum)]
        color: Option<Side>,
        /// The draughts rules that judge every move: english (default) or
        /// zx81-1k (Draughts 1K's house rules).
        #[arg(long)]
        rules: Option<String>,
        /// Show the emulated screen with ANSI reverse video.
        #[arg(long)]
        ansi: bool,
        /// Write a PNG picture of the emulated screen to this directory after
        /// every move (ply-000.png, ply-001.png, ...).
        #[arg(long, value_name = "DIR")]
        png_dir: Option<std::path::PathBuf>,
    },
    /// Show how the program weighs a position: every candidate move with
    /// its own score, the order it weighed them, its tie-break, each move's
    /// legality, and the move it chose.
    Explain {
        /// Engine to ask.
        #[arg(long, short)]
        engine: Option<String>,
        /// The position (chess FEN or PDN FEN); the initial position if left out.
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from there, separated by spaces ("e2e4 e7e5", "11-15 23-19").
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// The draughts rules: english (default) or zx81-1k.
        #[arg(long)]
        rules: Option<String>,
    },
    /// Print the engine's emulated screen after start-up (or after
    /// `--play`), as text or as a PNG picture.
    Screen {
        /// Engine to show.
        #[arg(long, short)]
        engine: Option<String>,
        /// ANSI reverse video instead of plain text.
        #[arg(long)]
        color: bool,
        /// Write a PNG picture of the screen, pixel for pixel, to this file.
        #[arg(long, value_name = "FILE")]
        png: Option<std::path::PathBuf>,
        /// Enlarge the picture this many times (1 to 8).
        #[arg(long, default_value_t = 2)]
        scale: usize,
        /// Your moves, separated by spaces; the engine answers each (as in
        /// `retrochess serve`), and the screen is shown after the last answer.
        #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
        play: Option<String>,
        /// Your colour with --play (default: Black in chess, White in draughts:
        /// the program moves first, as on its machine).
        #[arg(long, value_enum)]
        person: Option<Side>,
        /// The draughts rules: english (default) or zx81-1k.
        #[arg(long)]
        rules: Option<String>,
    },
    /// A local web page to play any engine, beside its emulated screen.
    Serve {
        /// Address to listen on (default 127.0.0.1:8481). Anything other than
        /// a loopback address is reachable from other machines: a warning is
        /// printed.
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        /// Games played at once; the next new game is refused with a message.
        #[arg(long, default_value_t = 32)]
        max_games: usize,
        /// Minutes after which a game nobody asks about is dropped.
        #[arg(long, default_value_t = 15)]
        idle_minutes: u64,
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

impl Side {
    fn color(self) -> shakmaty::Color {
        match self {
            Side::White => shakmaty::Color::White,
            Side::Black => shakmaty::Color::Black,
        }
    }
}

impl EngineArgs {
    /// The engine options: `--frames` and `--think-first-move` are
    /// shorthands for the 1K ZX Chess driver's `Frames` and `Opening`.
    fn options(&self) -> Result<EngineOptions, cli::CliError> {
        let mut options = EngineOptions {
            seed: self.seed,
            tape: self.tape.clone(),
            core: match self.core {
                CoreArg::Own => Core::Own,
                CoreArg::Z80emu => Core::Z80emu,
                CoreArg::Iz80 => Core::Iz80,
                CoreArg::Lockstep => Core::Lockstep,
                CoreArg::LockstepOwn => Core::LockstepOwn,
            },
            ..EngineOptions::default()
        };
        let frames = match self.frames {
            Frames::Slow => "slow",
            Frames::Fast => "fast",
        };
        options = options.with(engines::FRAMES, frames);
        if self.think_first_move {
            options = options.with(engines::OPENING, "think");
        }
        for pair in &self.driver_options {
            let (name, value) = pair
                .split_once('=')
                .filter(|(n, _)| !n.trim().is_empty())
                .ok_or_else(|| cli::CliError::OptionPair(pair.clone()))?;
            options = options.with(name.trim(), value.trim());
        }
        Ok(options)
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
    let result = match cli.options.options() {
        Ok(options) => run(cli.command, cli.engine, options),
        Err(e) => {
            eprintln!("retrochess: {e}");
            return ExitCode::FAILURE;
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

/// Runs the subcommand; `top` is the `--engine` given before it. Its length
/// is the dispatch table's: one match arm a subcommand.
fn run(
    command: Option<Command>,
    top: Option<String>,
    options: EngineOptions,
) -> Result<(), cli::CliError> {
    // `--engine` may stand before or after the subcommand.
    let pick = |e: Option<String>| {
        e.or_else(|| top.clone())
            .unwrap_or_else(|| DEFAULT_ENGINE.to_string())
    };
    match command {
        Some(Command::Uci { engine }) => {
            protocol::serve(Protocol::Uci, &pick(engine), options, None).map_err(Into::into)
        }
        Some(Command::Xboard { engine }) => {
            protocol::serve(Protocol::Xboard, &pick(engine), options, None).map_err(Into::into)
        }
        Some(Command::Hub { engine }) => {
            let engine = engine
                .or(top)
                .unwrap_or_else(|| DEFAULT_DRAUGHTS_ENGINE.to_string());
            protocol::serve(Protocol::Hub, &engine, options, None).map_err(Into::into)
        }
        None => detect_and_serve(top, options),
        Some(Command::Match(args)) => cli::matches::run(&args, &options),
        Some(Command::Rate(args)) => cli::rate::run(&args, options.seed),
        Some(Command::Play {
            engine,
            color,
            rules,
            ansi,
            png_dir,
        }) => {
            let person = color.map(|c| match c {
                Side::White => shakmaty::Color::White,
                Side::Black => shakmaty::Color::Black,
            });
            cli::play::run(
                &pick(engine),
                &options,
                person,
                rules.as_deref(),
                ansi,
                png_dir.as_deref(),
            )
        }
        Some(Command::Explain {
            engine,
            fen,
            moves,
            rules,
        }) => {
            let engine = pick(engine);
            let request = cli::explain::Request {
                engine: &engine,
                fen: fen.as_deref(),
                moves: &moves,
                rules: rules.as_deref(),
            };
            cli::explain::run(&request, &options)
        }
        Some(Command::Screen {
            engine,
            color,
            png,
            scale,
            play,
            person,
            rules,
        }) => {
            let engine = pick(engine);
            let request = cli::screen::Request {
                engine: &engine,
                ansi: color,
                png: png.as_deref(),
                scale,
                play: play.as_deref(),
                person: person.map(Side::color),
                rules: rules.as_deref(),
            };
            cli::screen::run(&request, &options)
        }
        Some(Command::Serve {
            listen,
            max_games,
            idle_minutes,
        }) => cli::serve::run(listen.as_deref(), max_games, idle_minutes, &options),
        Some(Command::Bench { engine, moves }) => cli::bench::run(&pick(engine), &options, moves),
        Some(Command::Engines) => list_engines(),
    }
}

/// `retrochess engines`: the registry, one line an engine.
fn list_engines() -> Result<(), cli::CliError> {
    let mut text = String::new();
    for entry in engines::catalogue() {
        let info = entry.info;
        let game = match entry.game {
            engines::GameKind::Chess => "chess",
            engines::GameKind::Draughts => "draughts",
        };
        text += &format!(
            "{:21} {game:9} {} ({}, {}, {})\n",
            info.id, info.name, info.author, info.year, info.machine
        );
    }
    cli::say(&text)
}

/// No subcommand: the GUI's first line says which protocol it speaks (and,
/// when no engine is named, which game's default engine to run).
fn detect_and_serve(id: Option<String>, options: EngineOptions) -> Result<(), cli::CliError> {
    let mut first = String::new();
    loop {
        first.clear();
        let n = std::io::stdin()
            .lock()
            .read_line(&mut first)
            .map_err(cli::CliError::Input)?;
        if n == 0 {
            return Ok(());
        }
        if !first.trim().is_empty() {
            break;
        }
    }
    match Protocol::detect(&first) {
        Some(p) => {
            let id = id.unwrap_or_else(|| match p.game() {
                GameKind::Chess => DEFAULT_ENGINE.to_string(),
                GameKind::Draughts => DEFAULT_DRAUGHTS_ENGINE.to_string(),
            });
            Ok(protocol::serve(p, &id, options, Some(first))?)
        }
        None => Err(cli::CliError::UnknownProtocol(first.trim().to_string())),
    }
}
