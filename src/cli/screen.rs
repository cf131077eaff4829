//! `retrochess screen`: the emulated screen after start-up, or after a
//! person's moves and the engine's answers (`--play`), as text or as a PNG
//! picture (`--png`, made from the machine's display memory: see
//! `retrochess::picture`).

use std::path::Path;

use retrochess::engines::{EngineOptions, Entry};
use retrochess::machine::{Display, ScreenStyle, TextScreen};
use retrochess::picture::{MAX_SCALE, Picture};
use retrochess::rules::Color;
use retrochess::serve::table::{IllegalMoves, PageRules, Table};

use retrochess::with_rules;

use super::CliError;

/// What to show.
pub struct ScreenRequest<'a> {
    pub engine: &'static Entry,
    pub ansi: bool,
    pub png: Option<&'a Path>,
    pub scale: usize,
    /// The person's moves, separated by spaces; the engine answers each.
    pub play: Option<&'a str>,
    pub person: Option<Color>,
    pub rules: Option<&'a str>,
}

/// Shows the screen.
///
/// # Errors
/// Unknown engine, a native engine (no screen), a move that cannot be
/// played, a scale out of range, the file cannot be written.
pub fn run(req: &ScreenRequest<'_>, options: &EngineOptions) -> Result<(), CliError> {
    if !(1..=MAX_SCALE).contains(&req.scale) {
        return Err(CliError::Scale(req.scale));
    }
    let id = req.engine.info.id;
    let rules = req.engine.rules(req.rules).map_err(CliError::Rules)?;
    let (text, display) = with_rules!(rules, |rules| screen(rules, req, options))?;
    let no_screen = || CliError::NoScreen(id.to_string());
    match req.png {
        Some(path) => {
            let display = display.ok_or_else(no_screen)?;
            write_png(path, &display, req.scale)
        }
        None => {
            let style = if req.ansi {
                ScreenStyle::Ansi
            } else {
                ScreenStyle::Plain
            };
            Ok(super::say(&text.ok_or_else(no_screen)?.render(style))?)
        }
    }
}

/// The screen after start-up, or after the person's moves of `--play`.
fn screen<R: PageRules>(
    rules: R,
    req: &ScreenRequest<'_>,
    options: &EngineOptions,
) -> Result<(Option<TextScreen>, Option<Display>), CliError> {
    match req.play {
        None => {
            let mut engine = R::create(req.engine, options)?;
            Ok((engine.screen(), engine.display()))
        }
        Some(moves) => replay(rules, req, moves, options),
    }
}

/// Plays the person's `moves` against the engine as `retrochess serve`
/// does (the engine first if it has the first move, then each person's
/// move and the engine's answer), and returns the screen at the end.
fn replay<R: PageRules>(
    rules: R,
    req: &ScreenRequest<'_>,
    moves: &str,
    options: &EngineOptions,
) -> Result<(Option<TextScreen>, Option<Display>), CliError> {
    let person = req.person.unwrap_or(req.engine.game.person_side());
    let mut table = Table::new(rules, req.engine, options, person, IllegalMoves::Play)?;
    if table.engine_to_move() {
        table.engine_moves()?;
    }
    for m in moves.split_whitespace() {
        table
            .person_moves(m)
            .map_err(|error| CliError::PersonMove {
                text: m.to_string(),
                error,
            })?;
        if table.engine_to_move() {
            table.engine_moves()?;
        }
    }
    let text = table.screen();
    Ok((text, table.display()))
}

/// Writes the picture of `display` to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write_png(path: &Path, display: &Display, scale: usize) -> Result<(), CliError> {
    let png = Picture::of(display).png(scale).map_err(CliError::Picture)?;
    std::fs::write(path, png).map_err(|error| CliError::Write {
        path: path.to_path_buf(),
        error,
    })
}
