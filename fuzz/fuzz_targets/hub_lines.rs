//! Hub from the GUI: any bytes, as lines, to `retrochess hub`'s front end
//! (the argument syntax with its quotes, `pos` in pydraughts's orientation
//! with `moves`, `level` numbers, `set-param`, `go` modes, `stop`,
//! `ponder-hit`), with searches answered in memory (see
//! `retrochess_fuzz::converse`).
//!
//! Checked beyond `converse`'s one-line rule: every line sent reads back
//! with the front end's own parser, and every argument of `id`, `param`,
//! `info` and `error` is `key=value` with no `=` or `"` in the value, the
//! form pydraughts's HubEngine splits; `done` has no argument or starts
//! with `move=`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::engines::{self, EngineOptions};
use retrochess::protocol::hub::{Hub, split};
use retrochess::protocol::FrontEnd;
use retrochess::protocol::events::{Action, Input};
use retrochess::protocol::settings::Settings;
use retrochess::rules::draughts::Draughts;

struct Checked(Hub);

impl FrontEnd<Draughts> for Checked {
    fn handle(&mut self, input: Input<Draughts>) -> Vec<Action<Draughts>> {
        let actions = self.0.handle(input);
        for action in &actions {
            if let Action::Send(line) = action {
                check(line);
            }
        }
        actions
    }
}

fn check(line: &str) {
    let parsed = split(line)
        .unwrap_or_else(|e| panic!("{line:?} does not read back: {e}"))
        .unwrap_or_else(|| panic!("a blank line sent"));
    match parsed.command.as_str() {
        "id" | "param" | "info" | "error" => {
            for (key, value) in &parsed.args {
                let value = value
                    .as_deref()
                    .unwrap_or_else(|| panic!("{line:?}: {key} has no value"));
                assert!(!value.contains(['=', '"']), "{line:?}: {key}={value:?}");
            }
        }
        "done" => assert!(
            parsed.args.is_empty() || parsed.args[0].0 == "move",
            "{line:?}"
        ),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let entry = engines::entry("samuel-f8").expect("built-in engine");
    let hub = Hub::new(entry.info, Settings::new(entry, EngineOptions::default()));
    retrochess_fuzz::converse(&mut Checked(hub), data);
});
