//! `retrochess play`: a person against a retro engine in the terminal.
//!
//! The person types standard coordinates (`e7e5`, or SAN such as `Nf6`); the
//! arbiter refuses illegal moves with the reason; the engine's moves are
//! judged too, and an illegal one ends the game, announced with its reason.

use std::io::{BufRead, Write};

use retrochess::arbiter::{Game, Verdict, judge};
use retrochess::engines::{self, EngineOptions, Played};
use retrochess::machine::ScreenStyle;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

pub fn run(id: &str, options: &EngineOptions, person: Color, ansi: bool) -> Result<(), String> {
    let mut engine = engines::create(id, options).map_err(|e| e.to_string())?;
    let name = engine.info().name;
    let style = if ansi {
        ScreenStyle::Ansi
    } else {
        ScreenStyle::Plain
    };
    let mut game = Game::new(Chess::default());
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
    if person == Color::White {
        say(out, engine.screen().render(style));
    }
    loop {
        if let Some(end) = game.ending() {
            say(
                out,
                format!("Game over: {} by {}.", end.result(), end.reason),
            );
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
            let line = line.map_err(|e| e.to_string())?;
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
        let reply = engine
            .play(game.root(), game.moves(), options.budget)
            .map_err(|e| e.to_string())?;
        say(out, engine.screen().render(style));
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
                    Some(end) => format!("{} by {}", end.result(), end.reason),
                    None => "though the rules say the game goes on".to_string(),
                };
                say(out, format!("{name} found no move and stopped ({why})."));
                return Ok(());
            }
            Played::Hung(stop) => {
                say(out, format!("{name} did not answer: {stop}. You win."));
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
