//! Subcommands that talk to a person: `play`, `screen`, `bench`.

pub mod bench;
pub mod matches;
pub mod play;

use retrochess::engines::{self, EngineOptions};
use retrochess::machine::ScreenStyle;

/// `retrochess screen`: the emulated screen right after start-up.
pub fn screen(id: &str, options: &EngineOptions, ansi: bool) -> Result<(), String> {
    let mut engine = engines::create(id, options).map_err(|e| e.to_string())?;
    let style = if ansi {
        ScreenStyle::Ansi
    } else {
        ScreenStyle::Plain
    };
    print!("{}", engine.screen().render(style));
    Ok(())
}
