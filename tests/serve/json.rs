//! The page's JSON is written by serde_json: a name or reason carrying any
//! character (quotes, backslashes, control characters, non-ASCII) comes
//! back, read by Python's own strict JSON parser (`tests/peers/json_strings.py`),
//! equal to what was sent.

use std::str::FromStr;

use retrochess::engines::{self, EngineError};
use retrochess::rules::draughts::PdnMove;

use super::{common, http, serve};

/// Every character a JSON writer must escape, and some it must not break.
const AWKWARD: &str =
    "say \"hi\" \\ back\\slash \u{1}\u{1f}\ttab\nline\r\u{7f} é ü 中文 🂡 \u{2028}end";

/// `s` as form data: every byte but letters and digits as `%XX`.
fn form(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Checks with Python that the JSON `body` has these string fields.
fn python_reads(body: &str, fields: &[(&str, &str)]) {
    let args: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, (key, value))| {
            let file = common::temp_file(
                &format!("serve-json-{}-{i}.txt", std::process::id()),
                value.as_bytes(),
            );
            format!("{key}={}", file.display())
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, err) = common::peer_script("json_strings.py", &args, body);
    assert!(ok, "python refused {body:?}: {err}");
    for (key, _) in fields {
        assert!(out.contains(&format!("equal {key}")), "{key}: {out}");
    }
}

/// The `id` of a new game's JSON.
fn game_id(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    v["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no id in {body}"))
        .to_string()
}

#[test]
fn names_and_reasons_with_any_character_come_back_equal_through_a_real_parser() {
    let s = serve(&[]);
    let a = s.addr.as_str();
    let awkward = form(AWKWARD);

    // An unknown engine: the reason names it.
    let (st, body) = http(a, "POST", "/api/games", &format!("engine={awkward}"));
    assert_eq!(st, 404, "{body}");
    let reason = EngineError::Unknown {
        id: AWKWARD.to_string(),
        known: engines::engine_ids(),
    }
    .to_string();
    python_reads(&body, &[("error", &reason)]);

    // A field given twice: the reason names the field.
    let (st, body) = http(a, "POST", "/api/games", &format!("{awkward}=1&{awkward}=2"));
    assert_eq!(st, 400, "{body}");
    python_reads(
        &body,
        &[("error", &format!("form field {AWKWARD:?} given twice"))],
    );

    // A chess move that is no move: the answer echoes it and says why.
    let (st, body) = http(
        a,
        "POST",
        "/api/games",
        "engine=1k-zx-chess&color=white&seed=1",
    );
    assert_eq!(st, 201, "{body}");
    let id = game_id(&body);
    let (st, body) = http(
        a,
        "POST",
        &format!("/api/games/{id}/move"),
        &format!("move={awkward}"),
    );
    assert_eq!(st, 422, "{body}");
    let reason = format!("{AWKWARD:?} is not a move in UCI notation (like e2e4 or e7e8q)");
    python_reads(&body, &[("move", AWKWARD), ("error", &reason)]);

    // A draughts move that is no move: the rules' reason after the text.
    let (st, body) = http(
        a,
        "POST",
        "/api/games",
        "engine=draughts-1k&color=black&seed=1",
    );
    assert_eq!(st, 201, "{body}");
    let id = game_id(&body);
    let (st, body) = http(
        a,
        "POST",
        &format!("/api/games/{id}/move"),
        &format!("move={awkward}"),
    );
    assert_eq!(st, 422, "{body}");
    let why = PdnMove::from_str(AWKWARD).unwrap_err();
    python_reads(
        &body,
        &[("move", AWKWARD), ("error", &format!("{AWKWARD:?}: {why}"))],
    );
}
