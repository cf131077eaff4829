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
use retrochess::engines::{self, EngineError, EngineOptions};
use retrochess::protocol::FrontEnd;
use retrochess::protocol::events::{Action, Searched};
use retrochess::protocol::hub::{Hub, split};
use retrochess::protocol::settings::Settings;
use retrochess::rules::draughts::Draughts;

/// Hub's front end, every line it sends checked as it is sent.
struct Checked(Hub);

/// Checks the lines among `actions` (those one input added).
fn check_sent(actions: &[Action<Draughts>]) {
    for action in actions {
        if let Action::Send(line) = action {
            check(line);
        }
    }
}

impl FrontEnd<Draughts> for Checked {
    fn line(&mut self, line: &str, out: &mut Vec<Action<Draughts>>) {
        let from = out.len();
        self.0.line(line, out);
        check_sent(&out[from..]);
    }

    fn searched(&mut self, searched: Searched<Draughts>, out: &mut Vec<Action<Draughts>>) {
        let from = out.len();
        self.0.searched(searched, out);
        check_sent(&out[from..]);
    }

    fn engine_ready(&mut self, out: &mut Vec<Action<Draughts>>) {
        let from = out.len();
        self.0.engine_ready(out);
        check_sent(&out[from..]);
    }

    fn not_recreated(&mut self, error: &EngineError, out: &mut Vec<Action<Draughts>>) {
        let from = out.len();
        self.0.not_recreated(error, out);
        check_sent(&out[from..]);
    }

    fn woken(&mut self, token: u64, out: &mut Vec<Action<Draughts>>) {
        let from = out.len();
        self.0.woken(token, out);
        check_sent(&out[from..]);
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
