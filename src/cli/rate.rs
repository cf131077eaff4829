//! `retrochess rate FILE…`: the players of the games in PGN (chess) or PDN
//! (draughts) files rated jointly (`retrochess::rating`). What cannot be
//! rated is said on stderr, specifically, and the rest is rated: a file
//! that cannot be read or holds no game, a game that is unfinished, broken
//! or of another variant (with its file and line), a player with no games
//! linking it to the anchor's group, an anchor naming nobody.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use retrochess::rating::records::{Collection, Kind};
use retrochess::rating::{self, DrawModel, PriorEffect, RateOptions, Ratings, report};

use super::{OutputError, say};

#[derive(Args, Clone, Debug)]
pub struct RateArgs {
    /// PGN (chess) or PDN (draughts) files: from retrochess match,
    /// cutechess-cli, fastchess, pydraughts, or the shards of one match.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Hold this player at this rating (NAME=ELO); without it the mean is 0.
    #[arg(long, value_name = "NAME=ELO")]
    anchor: Option<String>,
    /// The game (default: by the first file's extension, .pdn draughts).
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// How draws count: halves (the expected-score model: a draw half a
    /// win and half a loss, as Ordo and rating lists count it) or davidson
    /// (Bradley-Terry with a fitted draw parameter).
    #[arg(long, value_enum, default_value = "halves")]
    model: ModelArg,
    /// Virtual draws between every two players who met (keeps a perfect
    /// score finite: n of n against one opponent is 400·log10(1 + 2n/PRIOR)
    /// Elo above it, under halves).
    #[arg(long, default_value_t = rating::DEFAULT_PRIOR)]
    prior: f64,
    /// Bootstrap resamples for the 95% intervals and the LOS (seeded by --seed).
    #[arg(long, default_value_t = rating::DEFAULT_BOOTSTRAP)]
    bootstrap: usize,
    /// Seed of the bootstrap's resampling (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Players in the LOS table.
    #[arg(long, default_value_t = 10)]
    los: usize,
    /// Also list the score of every pair that met.
    #[arg(long)]
    pairs: bool,
    /// Print CSV instead (player,elo,lo,hi,games,wins,draws,losses; the
    /// ratings unrounded), strongest first.
    #[arg(long)]
    csv: bool,
    /// Also draw the ratings as a chart into FILE (SVG): every player's Elo
    /// with its 95% interval on one axis, the anchor marked.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// The chart's title (default: the files' game and the model).
    #[arg(long, value_name = "TEXT", requires = "plot")]
    title: Option<String>,
}

/// Why `rate` rated nothing, or could not write its ratings.
#[derive(Debug)]
pub enum RateError {
    /// `--prior` is negative or not a number.
    Prior(f64),
    /// No file held a game that could be rated.
    NoGames,
    /// `--anchor` is not NAME=ELO.
    AnchorSpec(String),
    /// `--anchor`'s ELO is not a number.
    AnchorElo { spec: String, elo: String },
    /// `--prior 0` and players who won every game against the rest: the
    /// likelihood has no maximum (what it is, in words).
    NoMaximum(String),
    /// The chart could not be drawn.
    Plot(rating::plot::PlotError),
    /// The chart could not be written.
    PlotFile(PathBuf, std::io::Error),
    /// The ratings could not be written.
    Output(OutputError),
}

impl std::fmt::Display for RateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RateError::Prior(x) => {
                write!(
                    f,
                    "--prior {x}: must be a number of virtual draws, 0 or more"
                )
            }
            RateError::NoGames => write!(f, "no game to rate"),
            RateError::AnchorSpec(spec) => write!(f, "--anchor {spec:?}: not NAME=ELO"),
            RateError::AnchorElo { spec, elo } => {
                write!(f, "--anchor {spec:?}: {elo:?} is not a rating")
            }
            RateError::NoMaximum(words) => write!(
                f,
                "--prior 0: {words} (Ordo refuses such games too); rate them with a prior (the default, 2 virtual draws a pair, keeps a perfect score finite) or without those players"
            ),
            RateError::Plot(e) => e.fmt(f),
            RateError::PlotFile(path, e) => write!(f, "--plot {}: {e}", path.display()),
            RateError::Output(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RateError {}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum GameArg {
    Chess,
    Draughts,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ModelArg {
    Davidson,
    Halves,
}

/// Rates the files; `before` is a `--seed` given before the subcommand.
pub fn run(args: &RateArgs, before: Option<u64>) -> Result<(), RateError> {
    let seed = args.seed.or(before).unwrap_or(1);
    let text = rate(args, seed)?;
    say(&text).map_err(RateError::Output)
}

/// The ratings as text, or why there are none.
fn rate(args: &RateArgs, seed: u64) -> Result<String, RateError> {
    if !(args.prior >= 0.0 && args.prior.is_finite()) {
        return Err(RateError::Prior(args.prior));
    }
    let kind = match args.game {
        Some(GameArg::Chess) => Kind::Chess,
        Some(GameArg::Draughts) => Kind::Draughts,
        None => Kind::of_path(&args.files[0]),
    };
    let c = collect(&args.files, kind);
    for s in &c.skipped {
        eprintln!("retrochess rate: skipped {s}");
    }
    if c.games.is_empty() {
        return Err(RateError::NoGames);
    }
    let anchor = anchor(args.anchor.as_deref(), &c)?;
    let options = RateOptions {
        model: match args.model {
            ModelArg::Davidson => DrawModel::Davidson,
            ModelArg::Halves => DrawModel::Halves,
        },
        prior: args.prior,
        anchor,
        bootstrap: args.bootstrap,
        seed,
    };
    let r = rating::rate(c.names.len(), &c.games, &options);
    if options.prior == 0.0
        && let PriorEffect::Needed(nm) = &r.prior
    {
        return Err(RateError::NoMaximum(nm.words(&c.names)));
    }
    let top = r.order.first().map_or("", |&p| c.names[p].as_str());
    for &p in &r.unconnected {
        let group = match anchor {
            Some((a, _)) => format!("the anchor {}'s group", c.names[a]),
            None => format!("the largest group (with {top})"),
        };
        eprintln!(
            "retrochess rate: {} has no games linking it to {group}: not rated",
            c.names[p]
        );
    }
    if let Some(path) = &args.plot {
        let title = args.title.clone().unwrap_or_else(|| {
            format!(
                "{} ratings, {}",
                match kind {
                    Kind::Chess => "Chess",
                    Kind::Draughts => "Draughts",
                },
                match options.model {
                    DrawModel::Halves => "a draw half a point",
                    DrawModel::Davidson => "Davidson's draw model",
                }
            )
        });
        let svg = rating::plot::svg(&c.names, &r, anchor.map(|(a, _)| a), &title)
            .map_err(RateError::Plot)?;
        std::fs::write(path, svg).map_err(|e| RateError::PlotFile(path.clone(), e))?;
    }
    Ok(if args.csv {
        if let Some(note) = report::prior_note(&c.names, &r, &options) {
            eprint!("retrochess rate: {note}");
        }
        csv(&c, &r)
    } else {
        report_text(args, &c, &r, &options)
    })
}

/// The ratings as CSV, best first.
fn csv(c: &Collection, r: &Ratings) -> String {
    let mut text = "player,elo,lo,hi,games,wins,draws,losses\n".to_string();
    for &p in &r.order {
        let (lo, hi) = r.interval[p].unwrap_or((f64::NAN, f64::NAN));
        let w = &r.wdl[p];
        text += &format!(
            "\"{}\",{},{lo},{hi},{},{},{},{}\n",
            c.names[p].replace('"', "\"\""),
            r.elo[p],
            w.games(),
            w.wins,
            w.draws,
            w.losses
        );
    }
    text
}

/// The ratings as text: a summary line, the method, the table, and with
/// `--pairs` the head-to-head results.
fn report_text(args: &RateArgs, c: &Collection, r: &Ratings, options: &RateOptions) -> String {
    let rated = c
        .games
        .iter()
        .filter(|g| r.order.contains(&g.white) && r.order.contains(&g.black))
        .count();
    let mut text = format!(
        "{rated} games of {} players from {} files{}{}\n",
        r.order.len(),
        args.files.len(),
        match c.duplicates {
            0 => String::new(),
            n => format!(", {n} duplicates counted once"),
        },
        match c.skipped.len() {
            0 => String::new(),
            n => format!(", {n} skipped"),
        },
    );
    text += &report::method(&c.names, r, options);
    if let Some(note) = report::prior_note(&c.names, r, options) {
        text += &note;
    }
    text += "\n";
    text += &report::table(&c.names, r, args.los);
    if args.pairs {
        text += &report::head_to_head(&c.names, r, &c.games);
    }
    text
}

/// The games of `files`, each read as `kind`; what cannot be read is kept
/// in the collection's `skipped`.
fn collect(files: &[PathBuf], kind: Kind) -> Collection {
    let mut c = Collection::default();
    for path in files {
        let file = path.display().to_string();
        match std::fs::read(path) {
            Err(e) => c.unreadable(&file, &format!("cannot read it: {e}")),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                if text.trim().is_empty() {
                    c.unreadable(&file, "empty");
                } else {
                    c.add_text(&file, kind, &text);
                }
            }
        }
    }
    c
}

/// `--anchor NAME=ELO`: the player and the rating; `None`, said on stderr,
/// for a name nobody played under.
fn anchor(spec: Option<&str>, c: &Collection) -> Result<Option<(usize, f64)>, RateError> {
    Ok(match spec {
        None => None,
        Some(spec) => {
            let (name, at) = spec
                .rsplit_once('=')
                .ok_or_else(|| RateError::AnchorSpec(spec.to_string()))?;
            let at: f64 = at
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| RateError::AnchorElo {
                    spec: spec.to_string(),
                    elo: at.to_string(),
                })?;
            match c.player(name) {
                Some(p) => Some((p, at)),
                None => {
                    eprintln!(
                        "retrochess rate: --anchor: nobody called {:?} played (the players: {}); the mean is 0 instead",
                        name.trim(),
                        c.names.join(", ")
                    );
                    None
                }
            }
        }
    })
}
