//! `retrochess match`: the built-in match runner's command line. With no
//! arguments: 1K ZX Chess against ChesSkelet, 20 games (10 openings, each
//! with colours reversed). The game is the engines' (all must play the same
//! one); `--game draughts` with no engines is a round robin of the built-in
//! draughts engines and `random`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use retrochess::engines::{self, EngineOptions, GameKind};
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::{Draughts, UnknownVariant, Variant};
use retrochess::rules::{PositionError, Rules};
use retrochess::runner::openings::{Opening, OpeningError};
use retrochess::runner::pgnfile::{PgnFile, PgnFileError};
use retrochess::runner::player::{PlayerSpec, SpecError};
use retrochess::runner::shard::ShardError;
use retrochess::runner::time_control::TimeControlError;
use retrochess::runner::{
    self, IllegalRule, MatchConfig, MatchError, MatchGame, Standing, Stopped, openings, pdn,
};

use super::{OutputError, say};

/// Games at once: each may be two engine processes.
const MAX_CONCURRENCY: usize = 256;

#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// A player: a built-in engine id, `random`, or an external engine
    /// `cmd=PATH,proto=uci|xboard|hub[,name=N][,arg=A][,option.NAME=VALUE]` (hub: a draughts
    /// engine). Repeat for each player.
    /// Default: 1K ZX Chess and ChesSkelet; with --game draughts, every
    /// built-in draughts engine and random.
    #[arg(long = "engine", short = 'e', value_name = "SPEC")]
    engines: Vec<String>,
    /// The game: chess or draughts (default: the engines' game).
    #[arg(long, value_enum)]
    game: Option<Game>,
    /// The draughts rules that judge every move: english (English checkers)
    /// or zx81-1k (Draughts 1K's house rules).
    #[arg(long, default_value = "english")]
    rules: String,
    /// Games per pairing (each opening twice, colours reversed).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Rounds of the whole schedule.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Games played at once, 1 to 256 (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Openings from an EPD or PGN file (default: a built-in balanced set of 10).
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Time control of external engines (wall clock): SECONDS[+INC], MOVES/SECONDS[+INC]
    /// or inf. Default 10+0.1.
    #[arg(long)]
    tc: Option<String>,
    /// Emulated T-state budget per move of a retro engine; past it the engine
    /// counts as hung and loses on time.
    #[arg(long, value_name = "T", default_value_t = retrochess::engines::DEFAULT_BUDGET)]
    tstates: u64,
    /// Hold retro engines to --tc too, counted in their original machine's
    /// authentic time (1K ZX Chess needs about 7 s a move).
    #[arg(long)]
    authentic_clock: bool,
    /// Append each game to this PGN file, in game order. A finished game
    /// waiting for a slower earlier one is kept in FILE.journal meanwhile; on
    /// Ctrl-C or SIGTERM every finished game is written, and after a kill the
    /// next match with the same FILE appends what the journal kept.
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// On an illegal move: forfeit the game, or flag it and ask again.
    #[arg(long, value_enum, default_value = "forfeit")]
    illegal: Illegal,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Play only shard K of N (K/N): the games numbered K, K+N, K+2N, ...
    /// of the whole match, each with the seeds, opening and colours it has
    /// unsharded. `retrochess rate` reads the shards' PGN files together.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Seconds an external engine may take to start (a huge number: no limit).
    #[arg(long, default_value_t = 10.0)]
    startup: f64,
    /// Leave out the comment after each retro engine's move in the PGN/PDN
    /// (`{+0.35 6.6s, 23 nodes, typed e7e5}`: its score, authentic time,
    /// nodes and how the position reached it).
    #[arg(long)]
    no_comments: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Game {
    Chess,
    Draughts,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Illegal {
    Forfeit,
    Continue,
}

/// Why a match could not be played, or stopped before its end.
#[derive(Debug)]
pub enum MatchFailure {
    /// An `--engine` spec refused.
    Spec(SpecError),
    /// An engine of the other game (`spec` as given).
    OtherGame {
        spec: String,
        plays: GameKind,
        game: GameKind,
    },
    /// `--rules` names no draughts rule set.
    Rules(UnknownVariant),
    /// The `--openings` file cannot be read.
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A chess `--openings` file that is no EPD or PGN of openings.
    Openings {
        path: PathBuf,
        error: OpeningError,
    },
    /// A line of a draughts `--openings` file that is no position.
    DraughtsOpening {
        path: PathBuf,
        line: usize,
        error: PositionError,
    },
    /// A draughts `--openings` file without a position.
    NoPositions(PathBuf),
    TimeControl(TimeControlError),
    Shard(ShardError),
    /// `--games` or `--rounds` of 0.
    NoGames,
    /// `--startup` not a positive number.
    Startup,
    /// `--concurrency` out of range.
    Concurrency,
    /// The `--pgn` file cannot be opened (or its journal recovered).
    Pgn(PgnFileError),
    /// The `--pgn` file could not be written: the match stopped there.
    Unwritable(PgnFileError),
    /// The runner refused the match.
    Run(MatchError),
    /// A signal stopped the match after `games` finished games.
    Interrupted {
        games: usize,
    },
    /// The table of the match (its games recorded) could not be written.
    Output(OutputError),
}

impl fmt::Display for MatchFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchFailure::Spec(e) => e.fmt(f),
            MatchFailure::OtherGame { spec, plays, game } => {
                write!(
                    f,
                    "{spec} plays {}, the match is {}",
                    name(*plays),
                    name(*game)
                )
            }
            MatchFailure::Rules(e) => write!(f, "--rules: {e}"),
            MatchFailure::Read { path, error } => write!(f, "{}: {error}", path.display()),
            MatchFailure::Openings { path, error } => write!(f, "{}: {error}", path.display()),
            MatchFailure::DraughtsOpening { path, line, error } => {
                write!(f, "{}: line {line}: {error}", path.display())
            }
            MatchFailure::NoPositions(path) => write!(f, "{}: no positions", path.display()),
            MatchFailure::TimeControl(e) => e.fmt(f),
            MatchFailure::Shard(e) => e.fmt(f),
            MatchFailure::NoGames => f.write_str("--games and --rounds must be at least 1"),
            MatchFailure::Startup => f.write_str("--startup must be a positive number of seconds"),
            MatchFailure::Concurrency => {
                write!(f, "--concurrency must be from 1 to {MAX_CONCURRENCY}")
            }
            MatchFailure::Pgn(e) => e.fmt(f),
            MatchFailure::Unwritable(e) => write!(f, "{e}; the match stopped there"),
            MatchFailure::Run(e) => e.fmt(f),
            MatchFailure::Interrupted { games } => write!(
                f,
                "interrupted: {} recorded, the games in flight not",
                count(*games, "finished game")
            ),
            MatchFailure::Output(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MatchFailure {}

pub fn run(args: &MatchArgs, options: &EngineOptions) -> Result<(), MatchFailure> {
    let (game, players) = players(args)?;
    match game {
        GameKind::Chess => {
            let openings = match &args.openings {
                Some(path) => {
                    openings::parse(&read(path)?).map_err(|error| MatchFailure::Openings {
                        path: path.clone(),
                        error,
                    })?
                }
                None => openings::built_in(),
            };
            play_match(args, options, ChessRules, players, openings)
        }
        GameKind::Draughts => {
            let variant: Variant = args.rules.parse().map_err(MatchFailure::Rules)?;
            let rules = Draughts::new(variant);
            let openings = match &args.openings {
                Some(path) => draughts_openings(&rules, path, &read(path)?)?,
                None => pdn::two_move_ballots(&rules),
            };
            play_match(args, options, rules, players, openings)
        }
    }
}

/// The players and the game they play.
fn players(args: &MatchArgs) -> Result<(GameKind, Vec<PlayerSpec>), MatchFailure> {
    let wanted = args.game.map(|g| match g {
        Game::Chess => GameKind::Chess,
        Game::Draughts => GameKind::Draughts,
    });
    let specs: Vec<String> = if !args.engines.is_empty() {
        args.engines.clone()
    } else if wanted == Some(GameKind::Draughts) {
        engines::catalogue()
            .iter()
            .filter(|e| e.game == GameKind::Draughts)
            .map(|e| e.info.id.to_string())
            .chain(["random".to_string()])
            .collect()
    } else {
        vec!["1k-zx-chess".to_string(), "chesskelet".to_string()]
    };
    let players = specs
        .iter()
        .map(|s| s.parse())
        .collect::<Result<Vec<PlayerSpec>, _>>()
        .map_err(MatchFailure::Spec)?;
    let mut game = wanted;
    for (spec, player) in specs.iter().zip(&players) {
        let Some(kind) = player.game() else { continue };
        match game {
            Some(g) if g != kind => {
                return Err(MatchFailure::OtherGame {
                    spec: spec.clone(),
                    plays: kind,
                    game: g,
                });
            }
            _ => game = Some(kind),
        }
    }
    Ok((game.unwrap_or(GameKind::Chess), players))
}

fn name(game: GameKind) -> &'static str {
    match game {
        GameKind::Chess => "chess",
        GameKind::Draughts => "draughts",
    }
}

fn read(path: &Path) -> Result<String, MatchFailure> {
    std::fs::read_to_string(path).map_err(|error| MatchFailure::Read {
        path: path.to_path_buf(),
        error,
    })
}

/// Draughts openings: one PDN FEN a line (`B:W21-32:B1-12`); blank lines
/// and lines starting with `%` or `#` are skipped.
fn draughts_openings(
    rules: &Draughts,
    path: &Path,
    text: &str,
) -> Result<Vec<Opening<Draughts>>, MatchFailure> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let root = rules
            .parse_position(line)
            .map_err(|error| MatchFailure::DraughtsOpening {
                path: path.to_path_buf(),
                line: i + 1,
                error,
            })?;
        out.push(Opening {
            name: line.to_string(),
            root,
            moves: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(MatchFailure::NoPositions(path.to_path_buf()));
    }
    Ok(out)
}

fn play_match<R: MatchGame>(
    args: &MatchArgs,
    options: &EngineOptions,
    rules: R,
    players: Vec<PlayerSpec>,
    openings: Vec<Opening<R>>,
) -> Result<(), MatchFailure> {
    let config = match_config(args, options, rules, players, openings)?;
    let mut file = open_pgn(args)?;
    let stop = catch_signals();
    let bar = progress_bar();
    let started = std::time::Instant::now();
    let report = runner::run(&config, file.as_mut(), &stop, |done, total, standings| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(live(standings));
    })
    .map_err(MatchFailure::Run)?;
    bar.finish_and_clear();
    let whereto = match (&args.pgn, &file) {
        (Some(path), Some(f)) if matches!(report.stopped, Some(Stopped::Unwritable(_))) => {
            format!(", {} of them in {}", f.written(), path.display())
        }
        (Some(path), _) => format!(", PGN appended to {}", path.display()),
        _ => String::new(),
    };
    // The games are recorded by now: a reader of the table that went away
    // is reported, after why the match stopped if it stopped early.
    let printed = say(&format!(
        "{}{} in {:.1} s{whereto}\n",
        runner::table(&report.standings, options.seed),
        count(report.games, "game"),
        started.elapsed().as_secs_f64(),
    ))
    .map_err(MatchFailure::Output);
    match report.stopped {
        None => printed,
        Some(Stopped::Interrupted) => Err(MatchFailure::Interrupted {
            games: report.games,
        }),
        Some(Stopped::Unwritable(e)) => Err(MatchFailure::Unwritable(e)),
    }
}

/// The match's settings from the command line, checked.
fn match_config<R: MatchGame>(
    args: &MatchArgs,
    options: &EngineOptions,
    rules: R,
    players: Vec<PlayerSpec>,
    openings: Vec<Opening<R>>,
) -> Result<MatchConfig<R>, MatchFailure> {
    let tc = args
        .tc
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(MatchFailure::TimeControl)?;
    if args.games == 0 || args.rounds == 0 {
        return Err(MatchFailure::NoGames);
    }
    if args.startup.is_nan() || args.startup <= 0.0 {
        return Err(MatchFailure::Startup);
    }
    let concurrency = args.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_CONCURRENCY))
    });
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        return Err(MatchFailure::Concurrency);
    }
    Ok(MatchConfig {
        rules,
        players,
        games: args.games,
        rounds: args.rounds,
        concurrency,
        openings,
        tc,
        authentic_clock: args.authentic_clock,
        seed: options.seed,
        illegal: match args.illegal {
            Illegal::Forfeit => IllegalRule::Forfeit,
            Illegal::Continue => IllegalRule::Continue,
        },
        max_plies: args.max_plies,
        engine_options: EngineOptions {
            budget: args.tstates,
            ..options.clone()
        },
        // Past what a Duration holds (about 585 billion years): no limit.
        startup: Duration::try_from_secs_f64(args.startup).unwrap_or(Duration::MAX),
        comments: !args.no_comments,
        shard: match &args.shard {
            Some(k_of_n) => k_of_n.parse().map_err(MatchFailure::Shard)?,
            None => Default::default(),
        },
    })
}

/// `--pgn FILE` opened for appending, with what a killed match left in its
/// journal recovered first.
fn open_pgn(args: &MatchArgs) -> Result<Option<PgnFile>, MatchFailure> {
    Ok(match &args.pgn {
        Some(path) => {
            let (file, recovered) = PgnFile::open(path).map_err(MatchFailure::Pgn)?;
            if recovered > 0 {
                eprintln!(
                    "retrochess: appended to {} {} a killed match left in its journal",
                    path.display(),
                    count(recovered, "finished game")
                );
            }
            Some(file)
        }
        None => None,
    })
}

/// The live progress bar on stderr.
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A flag raised by SIGINT, SIGTERM or SIGHUP (Ctrl-C on Windows): the
/// match stops and writes what it finished. A second signal ends the
/// process at once.
fn catch_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let caught = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = caught {
        log::warn!("cannot catch signals ({e}): a killed match loses its waiting games");
    }
    stop
}

/// `1 game`, `2 games`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn live(standings: &[Standing]) -> String {
    standings
        .iter()
        .map(|s| format!("{} {}", s.name, s.wdl.points()))
        .collect::<Vec<_>>()
        .join("  ")
}
