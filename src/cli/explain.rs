//! `retrochess explain`: one search of a retro program, shown as the
//! program saw it. For a position (a FEN, moves from it or from the start),
//! every move the program weighed, in its own order of preference: the
//! score it computed (raw, as the program holds it, and mapped to
//! centipawns or draughts units by the driver's documented mapping), when
//! it weighed it, how it breaks ties, whether the rules allow the move, and
//! the move it chose.
//!
//! The candidates are read off the emulated program during its normal
//! search (see each driver for the address watched and the seed it is cited
//! from); nothing here recomputes them. Where the program draws part of a
//! score by chance (1K ZX Chess: FRAMES bit 0), a `chance` column shows
//! that part: what decided between moves it otherwise values the same. A 1K ZX Chess asked about the
//! initial position would play the move stored on its tape without
//! searching: unless `--option Opening=…` says otherwise, explain sets
//! `Opening=think` so that there is a search to show.

use std::fmt::Write as _;

use retrochess::arbiter::Judgement;
use retrochess::engines::{EngineOptions, Entry, InputPath, Played, Reply};
use retrochess::protocol::judging::{Weighed, judge_thoughts};
use retrochess::protocol::prose::{no_thoughts, ties};
use retrochess::rules::{Game, Rules, Verdict};

use super::typed::Typed;
use retrochess::with_rules;

use super::CliError;

/// What to explain.
pub struct ExplainRequest<'a> {
    pub engine: &'static Entry,
    /// The position to start from (FEN in the game's notation); the
    /// initial position if `None`.
    pub fen: Option<&'a str>,
    /// Moves played from there, separated by spaces.
    pub moves: &'a str,
    /// Draughts rules (`english`, `zx81-1k`).
    pub rules: Option<&'a str>,
}

/// Runs the search and prints the table.
///
/// # Errors
/// Unknown engine, rules for the wrong game, a position or move the rules
/// refuse, a finished game, or an engine that cannot be loaded or fails.
pub fn run(request: &ExplainRequest, options: &EngineOptions) -> Result<(), CliError> {
    let options = request.engine.search_options(options);
    let rules = request
        .engine
        .rules(request.rules)
        .map_err(CliError::Rules)?;
    let text = with_rules!(rules, |rules| explain(rules, request, &options))?;
    Ok(super::say(&text)?)
}

/// The game the request describes, every move judged.
fn setup<R: Typed>(rules: R, request: &ExplainRequest) -> Result<Game<R>, CliError> {
    let root = match request.fen {
        Some(fen) => rules.parse_position(fen).map_err(CliError::Fen)?,
        None => rules.initial(),
    };
    let mut game = Game::new(rules, root);
    for (i, text) in request.moves.split_whitespace().enumerate() {
        let wire =
            game.rules()
                .read(game.position(), text)
                .map_err(|why| CliError::UnreadableMove {
                    n: i + 1,
                    text: text.to_string(),
                    why,
                })?;
        if let Verdict::Illegal(_, why) = game.play_wire(&wire) {
            return Err(CliError::IllegalMove {
                n: i + 1,
                text: text.to_string(),
                why: why.to_string(),
            });
        }
    }
    if let Some(end) = game.ending() {
        return Err(CliError::GameOver(end.reason.words()));
    }
    Ok(game)
}

fn explain<R: Typed>(
    rules: R,
    request: &ExplainRequest,
    options: &EngineOptions,
) -> Result<String, CliError> {
    let game = setup(rules, request)?;
    let mut engine = R::create(request.engine, options)?;
    let collecting = engine.collect_candidates(true);
    let reply = engine.play(&game, options.budget)?;
    let info = engine.info();
    let mut out = String::new();
    let pos = game.position();
    let side = game.rules().side_name(game.turn());
    let _ = writeln!(
        out,
        "{} ({}, {}) to move as {side} in",
        info.name, info.author, info.year
    );
    let _ = writeln!(out, "  {}", game.rules().position_text(pos));
    let _ = writeln!(out, "input: {}", reply.path);
    match (&reply.thoughts, collecting) {
        (Some(thoughts), _) => {
            let judged = judge_thoughts(game.rules(), pos, thoughts);
            table(&mut out, &judged, &reply);
            let shown: Vec<&Weighed<R>> = judged.iter().collect();
            let ties = ties(&shown);
            if !ties.is_empty() {
                let _ = writeln!(out, "ties: {}", thoughts.tie_break);
            }
            for tie in ties {
                let _ = writeln!(out, "  {tie}");
            }
            let legal = judged.iter().filter(|w| w.legal().is_some()).count();
            let _ = writeln!(out, "{} candidates weighed, {legal} legal.", judged.len());
        }
        (None, true) => {
            let _ = writeln!(out, "no candidates: {}", no_thoughts(&reply));
        }
        (None, false) => {
            let _ = writeln!(out, "no candidates: {} does not report them", info.id);
        }
    }
    verdict(&mut out, &game, &reply);
    Ok(out)
}

/// One row per candidate, best first.
fn table<R: Rules>(out: &mut String, judged: &[Weighed<R>], reply: &Reply<R::Wire>) {
    let played = match &reply.played {
        Played::Move(m) => Some(m),
        _ => None,
    };
    let width = judged
        .iter()
        .map(|w| w.candidate.wire.to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    let chance = judged.iter().any(|w| w.candidate.chance.is_some());
    let head = if chance { "  chance" } else { "" };
    let _ = writeln!(
        out,
        "rank  seq  {:width$}  raw   score{head}  verdict",
        "move"
    );
    for w in judged {
        let c = &w.candidate;
        let drawn = match (chance, c.chance) {
            (false, _) => String::new(),
            (true, Some(n)) => format!("  {n:>6}"),
            (true, None) => format!("  {:>6}", "-"),
        };
        let verdict = match w.illegal() {
            None => "legal".to_string(),
            Some(why) => format!("illegal: {why}"),
        };
        let mark = if played == Some(&c.wire) {
            "  <- played"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:>4}  {:>3}  {:width$}  {:>4}  {:>+6}{drawn}  {verdict}{mark}",
            w.rank,
            c.seq,
            c.wire.to_string(),
            c.raw,
            c.score
        );
    }
}

/// The program's move, judged, and what it cost.
fn verdict<R: Rules>(out: &mut String, game: &Game<R>, reply: &Reply<R::Wire>) {
    let rules = game.rules();
    let line = match Judgement::of(rules, game.position(), &reply.played) {
        Judgement::Legal(_, m) => format!("played: {m} (legal)"),
        Judgement::Illegal(m, why) => format!("played: {m}, illegal: {why}"),
        Judgement::DeadEnd { .. } => {
            "played: nothing (the program found no move and stopped)".to_string()
        }
        Judgement::Hung(hang) => format!("played: nothing (the program did not come back: {hang})"),
    };
    let _ = writeln!(out, "{line}");
    let score = reply.score.map_or("none".to_string(), |s| s.to_string());
    if reply.path == InputPath::Native {
        let _ = writeln!(
            out,
            "score {score}; {} moves evaluated (native: no emulated time)",
            reply.nodes
        );
        return;
    }
    let secs = reply.authentic.as_secs_f64();
    let authentic = if secs < 1.0 {
        format!("{:.1} ms", secs * 1000.0)
    } else {
        format!("{secs:.1} s")
    };
    let _ = writeln!(
        out,
        "score {score}; {} moves evaluated; {} T-states, {authentic} on the original machine",
        reply.nodes, reply.tstates
    );
}
