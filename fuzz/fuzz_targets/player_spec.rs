//! `--engine SPEC`: a built-in id, `random`, or `cmd=...,proto=...,arg=...,
//! option.NAME=VALUE,name=...` to `runner::player::PlayerSpec::from_str`.
//! What it accepts must have a name and, if external, a command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrochess::runner::player::PlayerSpec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = text.parse::<PlayerSpec>() {
        assert!(
            !spec.name().trim().is_empty(),
            "{text:?} accepted without a name"
        );
        if let PlayerSpec::External { cmd, .. } = &spec {
            assert!(
                !cmd.trim().is_empty(),
                "{text:?} accepted without a command"
            );
        }
    }
});
