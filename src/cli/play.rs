//! `retrochess play`: a person against a retro engine in the terminal, in
//! the engine's game.
//!
//! Chess: the person types standard coordinates (`e7e5`) or SAN (`Nf6`).
//! Draughts: PDN numbering (`11-15`, `15x24`, `15x24x31`), judged by the
//! rules chosen with `--rules` (`english` by default, or `zx81-1k`). The
//! arbiter refuses illegal moves with the reason; the engine's moves are
//! judged too, and an illegal one ends the game, announced with its reason.
//! After each engine move the emulated screen is shown; with `--png-dir`
//! its picture is also written there after every move (`ply-000.png` at
//! the start, then one per ply, named by the number of moves played).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use retrochess::arbiter::Judgement;
use retrochess::engines::{Engine, EngineOptions, Entry, Played};
use retrochess::machine::ScreenStyle;
use retrochess::rules::{Color, Ending, Game, GameResult, Verdict};

use retrochess::with_rules;

use super::CliError;
use super::typed::{Typed, Unreadable};

/// Plays the engine of `entry` in its game. `person`: the person's colour
/// (default Black in chess, White in draughts, where the engine then
/// moves first); `rules`: the draughts rule set.
///
/// # Errors
/// Unknown engine, `--rules` for a chess engine or naming no rule set, the
/// engine cannot be loaded or fails, stdin cannot be read.
pub fn run(
    entry: &'static Entry,
    options: &EngineOptions,
    person: Option<Color>,
    rules: Option<&str>,
    ansi: bool,
    png_dir: Option<&Path>,
) -> Result<(), CliError> {
    if let Some(dir) = png_dir {
        std::fs::create_dir_all(dir).map_err(|error| CliError::PngDir {
            dir: dir.to_path_buf(),
            error,
        })?;
    }
    let style = if ansi {
        ScreenStyle::Ansi
    } else {
        ScreenStyle::Plain
    };
    let person = person.unwrap_or(entry.game.person_side());
    let rules = entry.rules(rules).map_err(CliError::Rules)?;
    with_rules!(rules, |rules| Table::new(
        rules, entry, options, style, png_dir
    )?
    .play(person))
}

/// The game, the engine and the terminal.
struct Table<R: Typed> {
    game: Game<R>,
    engine: Box<dyn Engine<R>>,
    name: &'static str,
    budget: u64,
    style: ScreenStyle,
    png_dir: Option<PathBuf>,
}

/// What happens after a turn.
enum Next {
    Go,
    Stop,
}

impl<R: Typed> Table<R> {
    fn new(
        rules: R,
        entry: &'static Entry,
        options: &EngineOptions,
        style: ScreenStyle,
        png_dir: Option<&Path>,
    ) -> Result<Table<R>, CliError> {
        let engine = R::create(entry, options)?;
        Ok(Table {
            name: engine.info().name,
            game: Game::initial(rules),
            engine,
            budget: options.budget,
            style,
            png_dir: png_dir.map(Path::to_path_buf),
        })
    }

    /// A line to the person; with no one reading (stdout closed), the
    /// session ends with the error, as every report does.
    fn say(&self, text: &str) -> Result<(), CliError> {
        Ok(super::say(&format!("{text}\n"))?)
    }

    fn show_screen(&mut self) -> Result<(), CliError> {
        let screen = self.engine.screen().map(|s| s.render(self.style));
        self.say(&screen.unwrap_or_default())
    }

    /// Writes the picture of the screen to the `--png-dir`, named by the
    /// number of moves played.
    fn write_picture(&mut self) -> Result<(), CliError> {
        let Some(dir) = &self.png_dir else {
            return Ok(());
        };
        let path = dir.join(format!("ply-{:03}.png", self.game.moves().len()));
        match self.engine.display() {
            Some(display) => super::screen::write_png(&path, &display, 2),
            None => Ok(()),
        }
    }

    fn side(&self, side: Color) -> &'static str {
        self.game.rules().side_name(side)
    }

    fn play(mut self, person: Color) -> Result<(), CliError> {
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        self.say(&format!(
            "You play {} against {}. Type moves like {}; 'quit' ends.",
            self.side(person),
            self.name,
            R::EXAMPLES
        ))?;
        if self.game.turn() == person {
            self.show_screen()?;
        }
        self.write_picture()?;
        loop {
            if let Some(end) = self.game.ending() {
                let words = self.words(&end);
                self.say(&format!("Game over: {words}."))?;
                return Ok(());
            }
            let next = if self.game.turn() == person {
                self.person_moves(person, &mut lines)?
            } else {
                self.engine_moves()?
            };
            if let Next::Stop = next {
                return Ok(());
            }
        }
    }

    /// Reads and judges one line of the person's.
    fn person_moves(
        &mut self,
        person: Color,
        lines: &mut impl Iterator<Item = std::io::Result<String>>,
    ) -> Result<Next, CliError> {
        super::say(&format!("{} to move> ", self.side(person)))?;
        let Some(line) = lines.next() else {
            self.say("")?;
            return Ok(Next::Stop);
        };
        let line = line.map_err(CliError::Input)?;
        let text = line.trim();
        match text {
            "" => return Ok(Next::Go),
            "quit" | "exit" | "resign" => return Ok(Next::Stop),
            _ => {}
        }
        let wire = match self.game.rules().read(self.game.position(), text) {
            Ok(wire) => wire,
            Err(why) => {
                let why = match why {
                    Unreadable::NoMove => String::new(),
                    Unreadable::Pdn(e) => format!(" ({e})"),
                };
                self.say(&format!(
                    "Cannot read {text:?}{why}: type a move like {}.",
                    R::EXAMPLES
                ))?;
                return Ok(Next::Go);
            }
        };
        if let Verdict::Illegal(_, why) = self.game.play_wire(&wire) {
            self.say(&format!("Illegal move {wire}: {why}."))?;
        } else {
            // The machine has not seen the move yet: it is typed in when the
            // engine is asked, so the picture is the screen as it stands.
            self.write_picture()?;
        }
        Ok(Next::Go)
    }

    /// Asks the engine, shows its screen, judges its move.
    fn engine_moves(&mut self) -> Result<Next, CliError> {
        let reply = self.engine.play(&self.game, self.budget)?;
        self.show_screen()?;
        if matches!(reply.played, Played::Move(_)) {
            // Named by the ply the engine's move will be once judged legal.
            if let Some(dir) = &self.png_dir
                && let Some(display) = self.engine.display()
            {
                let path = dir.join(format!("ply-{:03}.png", self.game.moves().len() + 1));
                super::screen::write_png(&path, &display, 2)?;
            }
        }
        let name = self.name;
        match Judgement::of(self.game.rules(), self.game.position(), &reply.played) {
            Judgement::Legal(m, wire) => {
                self.game.push(m);
                self.say(&format!(
                    "{name} plays {wire} ({:.1} s on the original machine; {}).",
                    reply.authentic.as_secs_f64(),
                    reply.path
                ))?;
                Ok(Next::Go)
            }
            Judgement::Illegal(wire, why) => {
                self.say(&format!(
                    "{name} plays {wire}, an illegal move: {why}. You win."
                ))?;
                Ok(Next::Stop)
            }
            Judgement::DeadEnd { .. } => {
                let why = match self.game.ending() {
                    Some(end) => self.words(&end),
                    None => "though the rules say the game goes on".to_string(),
                };
                self.say(&format!("{name} found no move and stopped ({why})."))?;
                Ok(Next::Stop)
            }
            Judgement::Hung(hang) => {
                self.say(&format!("{name} did not answer: {hang}. You win."))?;
                Ok(Next::Stop)
            }
        }
    }

    /// `White wins by checkmate`, `draw by threefold repetition`.
    fn words(&self, end: &Ending) -> String {
        match end.result {
            GameResult::Win(side) => {
                format!("{} wins by {}", self.side(side), end.reason.words())
            }
            GameResult::Draw => format!("draw by {}", end.reason.words()),
        }
    }
}
