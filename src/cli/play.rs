//! `retrochess play`: a person against a retro engine in the terminal.
//!
//! The person types standard coordinates (`e7e5`, or SAN such as `Nf6`); the
//! arbiter refuses illegal moves with the reason; the engine's moves are
//! judged too, and an illegal one ends the game, announced with its reason.

use std::io::{BufRead, Write};

use retrochess::engines::{Catalogue, EngineOptions, Played};
use retrochess::machine::ScreenStyle;
use retrochess::rules::chess::{ChessRules, judge};
use retrochess::rules::{EndReason, Ending, Game, GameResult, Verdict};

use super::CliError;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

pub fn run(id: &str, options: &EngineOptions, person: Color, ansi: bool) -> Result<(), CliError> {
    let mut engine = ChessRules::create(id, options)?;
    let name = engine.info().name;
    let style = if ansi {
        ScreenStyle::Ansi
    } else {
        ScreenStyle::Plain
    };
    let mut game = Game::new(ChessRules, Chess::default());
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let out = &mut std::io::stdout();
    let say = |out: &mut std::io::Stdout, text: String| {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    say(
        out,
        format!(
            "You play {} against {name}. Type moves like e2e4 or Nf3; 'quit' ends.",
            side(person)
        ),
    );
    let show = |engine: &mut dyn retrochess::engines::Engine<ChessRules>| {
        engine.screen().map(|s| s.render(style)).unwrap_or_default()
    };
    if person == Color::White {
        say(out, show(engine.as_mut()));
    }
    loop {
        if let Some(end) = game.ending() {
            say(out, format!("Game over: {}.", words(&end)));
            return Ok(());
        }
        let pos = game.position().clone();
        if pos.turn() == person {
            let _ = write!(out, "{} to move> ", side(person));
            let _ = out.flush();
            let Some(line) = lines.next() else {
                say(out, String::new());
                return Ok(());
            };
            let line = line.map_err(|e| CliError::Input(e.to_string()))?;
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "exit" | "resign" => return Ok(()),
                _ => {}
            }
            let uci = match text.parse::<UciMove>() {
                Ok(uci) => uci,
                Err(_) => match text
                    .parse::<San>()
                    .ok()
                    .and_then(|san| san.to_move(&pos).ok())
                {
                    Some(m) => UciMove::from_standard(m),
                    None => {
                        say(
                            out,
                            format!("Cannot read {text:?}: type a move like e2e4 or Nf3."),
                        );
                        continue;
                    }
                },
            };
            match judge(&pos, &uci) {
                Verdict::Legal(m) => game.push(m),
                Verdict::Illegal(_, why) => say(out, format!("Illegal move {uci}: {why}.")),
            }
            continue;
        }
        let reply = engine.play(&game, options.budget)?;
        say(out, show(engine.as_mut()));
        match reply.played {
            Played::Move(uci) => match judge(&pos, &uci) {
                Verdict::Legal(m) => {
                    say(
                        out,
                        format!(
                            "{name} plays {uci} ({:.1} s on the original machine; {}).",
                            reply.authentic.as_secs_f64(),
                            reply.path
                        ),
                    );
                    game.push(m);
                }
                Verdict::Illegal(_, why) => {
                    say(
                        out,
                        format!("{name} plays {uci}, an illegal move: {why}. You win."),
                    );
                    return Ok(());
                }
            },
            Played::DeadEnd => {
                let why = match game.ending() {
                    Some(end) => words(&end),
                    None => "though the rules say the game goes on".to_string(),
                };
                say(out, format!("{name} found no move and stopped ({why})."));
                return Ok(());
            }
            Played::Hung(hang) => {
                say(out, format!("{name} did not answer: {hang}. You win."));
                return Ok(());
            }
        }
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `1-0 by checkmate`.
fn words(end: &Ending) -> String {
    let _ = (EndReason::Checkmate, GameResult::Draw);
    format!("{} by {}", end.result.pgn(), end.reason.words())
}
