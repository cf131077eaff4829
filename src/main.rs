//! The `retrochess` command: protocol front ends, terminal play, the boot
//! screen, and the benchmark. Everything here is the binary's edge: argument
//! parsing, stdin/stdout, and the logger (on stderr: stdout belongs to the
//! protocols).

mod cli;

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use retrochess::engines::{self, EngineOptions, Entry, GameKind};
use retrochess::machine::Core;
use retrochess::protocol::{self, Protocol};

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
    /// Engine to run (see `retrochess engines`; default 1k-zx-chess, or
    /// samuel-f8 for draughts).
    #[arg(long, short)]
    engine: Option<String>,
    /// The engine's options, also before a subcommand that runs an engine.
    #[command(flatten)]
    options: EngineArgs,
    /// More log output on stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
}

/// The options of an emulated engine: given to each subcommand that runs
/// one (and before the subcommand, as before).
#[derive(Args, Clone, Default)]
struct EngineArgs {
    /// Seed for everything the real machine left to chance (FRAMES, typing
    /// times); default 1.
    #[arg(long)]
    seed: Option<u64>,
    /// From the initial position, let the program think instead of playing its tape's first move.
    #[arg(long)]
    think_first_move: bool,
    /// How FRAMES moves while a ZX81 program thinks: slow (as the real
    /// machine; the default) or fast (frozen).
    #[arg(long, value_enum)]
    frames: Option<Frames>,
    /// Load this tape or snapshot instead of the built-in one.
    #[arg(long)]
    tape: Option<PathBuf>,
    /// Set an option an engine's driver declares (NAME=VALUE; see the
    /// options each engine offers over UCI); engines that do not declare it
    /// ignore it.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    driver_options: Vec<String>,
    /// Z80 core: own (ours, the default: exact T-states, 2–3× as fast as z80emu); z80emu
    /// (the same T-states and results; the default before ours); iz80 (reproduces games
    /// recorded before z80emu became the default; it counts JR cc not taken as 8 T-states and
    /// JP cc as 7 not taken, 12 taken, the Z80 manual says 7 and 10); lockstep (z80emu and
    /// iz80 compared after every instruction; slow); lockstep-own (z80emu and ours compared
    /// exactly after every instruction; slow).
    #[arg(long, value_enum)]
    core: Option<CoreArg>,
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

/// A protocol front end's arguments.
#[derive(Args)]
struct Front {
    /// Engine to run (default 1k-zx-chess; samuel-f8 for `hub`).
    #[arg(long, short)]
    engine: Option<String>,
    #[command(flatten)]
    options: EngineArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout.
    Uci(Front),
    /// Speak CECP (xboard/WinBoard protocol 2) on stdin/stdout.
    Xboard(Front),
    /// Speak Hub (the draughts protocol of Scan, version 2; pydraughts's
    /// HubEngine on 8x8) on stdin/stdout.
    Hub(Front),
    /// Play a match or round-robin: built-in engines, `random`, or external engines.
    Match {
        #[command(flatten)]
        args: cli::matches::MatchArgs,
        #[command(flatten)]
        options: EngineArgs,
    },
    /// Rate the players of PGN (chess) or PDN (draughts) files jointly:
    /// draws as halves (as Ordo) or Bradley-Terry with a draw parameter
    /// (--model davidson), 95% bootstrap intervals, LOS.
    Rate(cli::rate::RateArgs),
    /// Play the engine in this terminal: chess in standard coordinates
    /// (e2e4) or SAN, draughts in PDN numbering (11-15, 15x24).
    Play(PlayArgs),
    /// Show how the program weighs a position: every candidate move with
    /// its own score, the order it weighed them, its tie-break, each move's
    /// legality, and the move it chose.
    Explain(ExplainArgs),
    /// Print the engine's emulated screen after start-up (or after
    /// `--play`), as text or as a PNG picture.
    Screen(ScreenArgs),
    /// A local web page to play any engine, beside its emulated screen.
    Serve(ServeArgs),
    /// Benchmark: a fixed, seeded sequence of engine moves, and the bare emulator's rate.
    Bench {
        /// Engine to measure.
        #[arg(long, short)]
        engine: Option<String>,
        /// Engine moves to play.
        #[arg(long, default_value_t = 40)]
        moves: usize,
        #[command(flatten)]
        options: EngineArgs,
    },
    /// List the built-in engines.
    Engines,
}

#[derive(Args)]
struct PlayArgs {
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
    png_dir: Option<PathBuf>,
    #[command(flatten)]
    options: EngineArgs,
}

#[derive(Args)]
struct ExplainArgs {
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
    #[command(flatten)]
    options: EngineArgs,
}

#[derive(Args)]
struct ScreenArgs {
    /// Engine to show.
    #[arg(long, short)]
    engine: Option<String>,
    /// ANSI reverse video instead of plain text.
    #[arg(long)]
    color: bool,
    /// Write a PNG picture of the screen, pixel for pixel, to this file.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
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
    #[command(flatten)]
    options: EngineArgs,
}

#[derive(Args)]
struct ServeArgs {
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
    #[command(flatten)]
    options: EngineArgs,
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
    /// These options over `before`, those given before the subcommand.
    fn over(&self, before: &EngineArgs) -> EngineArgs {
        EngineArgs {
            seed: self.seed.or(before.seed),
            think_first_move: self.think_first_move || before.think_first_move,
            frames: self.frames.or(before.frames),
            tape: self.tape.clone().or_else(|| before.tape.clone()),
            driver_options: [&before.driver_options[..], &self.driver_options[..]].concat(),
            core: self.core.or(before.core),
        }
    }

    /// The engine options: `--frames` and `--think-first-move` are
    /// shorthands for the 1K ZX Chess driver's `Frames` and `Opening`.
    fn options(&self) -> Result<EngineOptions, cli::CliError> {
        let mut options = EngineOptions {
            seed: self.seed.unwrap_or(1),
            tape: self.tape.clone(),
            core: match self.core.unwrap_or(CoreArg::Own) {
                CoreArg::Own => Core::Own,
                CoreArg::Z80emu => Core::Z80emu,
                CoreArg::Iz80 => Core::Iz80,
                CoreArg::Lockstep => Core::Lockstep,
                CoreArg::LockstepOwn => Core::LockstepOwn,
            },
            ..EngineOptions::default()
        };
        let frames = match self.frames.unwrap_or(Frames::Slow) {
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
    let before = Before {
        engine: cli.engine,
        options: cli.options,
    };
    match run(cli.command, &before) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("retrochess: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What was given before the subcommand: `--engine` and the engine's
/// options, which those after it override.
struct Before {
    engine: Option<String>,
    options: EngineArgs,
}

impl Before {
    /// The engine named after the subcommand, or before it, or the
    /// game's default: resolved here, once, into its catalogue entry.
    fn engine(&self, named: Option<&str>, game: GameKind) -> Result<&'static Entry, cli::CliError> {
        match named.or(self.engine.as_deref()) {
            Some(id) => Ok(engines::find(id)?),
            None => Ok(engines::default_for(game)),
        }
    }

    /// The engine options given after the subcommand over those before.
    fn options(&self, after: &EngineArgs) -> Result<EngineOptions, cli::CliError> {
        after.over(&self.options).options()
    }
}

/// Runs the subcommand. Its length is the dispatch table's: one match arm
/// a subcommand.
fn run(command: Option<Command>, before: &Before) -> Result<(), cli::CliError> {
    let Some(command) = command else {
        return detect_and_serve(before);
    };
    match command {
        Command::Uci(front) => serve(Protocol::Uci, &front, before, None),
        Command::Xboard(front) => serve(Protocol::Xboard, &front, before, None),
        Command::Hub(front) => serve(Protocol::Hub, &front, before, None),
        Command::Match { args, options } => {
            Ok(cli::matches::run(&args, &before.options(&options)?)?)
        }
        Command::Rate(args) => Ok(cli::rate::run(&args, before.options.seed)?),
        Command::Play(a) => cli::play::run(
            before.engine(a.engine.as_deref(), GameKind::Chess)?,
            &before.options(&a.options)?,
            a.color.map(Side::color),
            a.rules.as_deref(),
            a.ansi,
            a.png_dir.as_deref(),
        ),
        Command::Explain(a) => {
            let request = cli::explain::ExplainRequest {
                engine: before.engine(a.engine.as_deref(), GameKind::Chess)?,
                fen: a.fen.as_deref(),
                moves: &a.moves,
                rules: a.rules.as_deref(),
            };
            cli::explain::run(&request, &before.options(&a.options)?)
        }
        Command::Screen(a) => {
            let request = cli::screen::ScreenRequest {
                engine: before.engine(a.engine.as_deref(), GameKind::Chess)?,
                ansi: a.color,
                png: a.png.as_deref(),
                scale: a.scale,
                play: a.play.as_deref(),
                person: a.person.map(Side::color),
                rules: a.rules.as_deref(),
            };
            cli::screen::run(&request, &before.options(&a.options)?)
        }
        Command::Serve(a) => {
            let options = before.options(&a.options)?;
            cli::serve::run(a.listen.as_deref(), a.max_games, a.idle_minutes, &options)
        }
        Command::Bench {
            engine,
            moves,
            options,
        } => cli::bench::run(
            before.engine(engine.as_deref(), GameKind::Chess)?,
            &before.options(&options)?,
            moves,
        ),
        Command::Engines => list_engines(),
    }
}

/// `retrochess uci|xboard|hub`: the engine named, or the protocol's game's
/// default, served on stdin/stdout (`first`: a line already read).
fn serve(
    protocol: Protocol,
    front: &Front,
    before: &Before,
    first: Option<String>,
) -> Result<(), cli::CliError> {
    let engine = before.engine(front.engine.as_deref(), protocol.game())?;
    let options = before.options(&front.options)?;
    Ok(protocol::serve(protocol, engine, options, first)?)
}

/// `retrochess engines`: the registry, one line an engine.
fn list_engines() -> Result<(), cli::CliError> {
    let mut text = String::new();
    for entry in engines::catalogue() {
        let info = entry.info;
        let game = match entry.game {
            GameKind::Chess => "chess",
            GameKind::Draughts => "draughts",
        };
        text += &format!(
            "{:21} {game:9} {} ({}, {}, {})\n",
            info.id, info.name, info.author, info.year, info.machine
        );
    }
    Ok(cli::say(&text)?)
}

/// No subcommand: the GUI's first line says which protocol it speaks (and,
/// when no engine is named, which game's default engine to run).
fn detect_and_serve(before: &Before) -> Result<(), cli::CliError> {
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
        Some(protocol) => {
            let front = Front {
                engine: None,
                options: EngineArgs::default(),
            };
            serve(protocol, &front, before, Some(first))
        }
        None => Err(cli::CliError::UnknownProtocol(first.trim().to_string())),
    }
}
