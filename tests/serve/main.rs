//! Evidence for `retrochess serve` (`src/serve/`, `src/cli/serve.rs`): the
//! real binary on a loopback port, asked over plain TCP (bad input and
//! misuse, each with its specific HTTP status, the server serving on), and
//! driven in a real Chromium through WebDriver (`tests/peers/browser.py`).

#[path = "../common/mod.rs"]
mod common;
mod json;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use common::serve;

/// Sends raw bytes, returns (status, body).
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |b| b.1).to_string();
    (status, body)
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes())
}

/// The strings of `"key":[...]` in a flat JSON answer.
fn list(json: &str, key: &str) -> Vec<String> {
    let tag = format!("\"{key}\":[");
    let start = json.find(&tag).unwrap_or_else(|| panic!("{key} in {json}")) + tag.len();
    let inner = json[start..].split(']').next().unwrap();
    inner
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

/// The value of `"key":"..."` in a flat JSON answer.
fn field(json: &str, key: &str) -> String {
    let tag = format!("\"{key}\":\"");
    let start = json.find(&tag).unwrap_or_else(|| panic!("{key} in {json}")) + tag.len();
    json[start..].split('"').next().unwrap().to_string()
}

#[test]
fn bad_input_gets_a_specific_error_and_the_server_keeps_serving() {
    let s = serve(&["--max-games", "2"]);
    let a = s.addr.as_str();
    let ok = || assert_eq!(http(a, "GET", "/api/engines", "").0, 200);
    ok();
    // Malformed requests.
    let (st, _) = raw(a, b"this is not http\r\n\r\n");
    assert_eq!(st, 400);
    ok();
    let (st, body) = http(a, "POST", "/api/games", "engine=%zz");
    assert_eq!((st, body.contains("bad escape")), (400, true), "{body}");
    let (st, body) = http(a, "POST", "/api/games", "color=white");
    assert_eq!(
        (st, body.contains("missing form field: engine")),
        (400, true)
    );
    let (st, body) = http(a, "POST", "/api/games", "engine=1k-zx-chess&color=green");
    assert_eq!(
        (st, body.contains("expected white or black")),
        (400, true),
        "{body}"
    );
    // Unknown engines and pages, wrong methods.
    let (st, body) = http(a, "POST", "/api/games", "engine=deep-blue");
    assert_eq!(st, 404);
    assert!(body.contains("unknown engine \\\"deep-blue\\\""), "{body}");
    assert_eq!(http(a, "GET", "/nowhere", "").0, 404);
    assert_eq!(http(a, "PUT", "/api/games", "").0, 405);
    // Huge bodies: refused unread.
    let big = "x".repeat(1 << 20);
    let (st, body) = http(a, "POST", "/api/games", &big);
    assert_eq!(st, 413, "{body}");
    assert!(body.contains("limit is 4096 bytes"));
    ok();
    // Moves for another game: an unknown id, a draughts move in a chess game,
    // a move out of turn after the game is over.
    let (st, chess) = http(a, "POST", "/api/games", "engine=1k-zx-chess&seed=3");
    assert_eq!(st, 201, "{chess}");
    let id = field(&chess, "id");
    let (st, body) = http(a, "POST", "/api/games/0123456789abcdef/move", "move=e7e5");
    assert_eq!((st, body.contains("no such game")), (404, true), "{body}");
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/move"), "move=11-15");
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("not a move in UCI notation"), "{body}");
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/move"), "move=e7e4");
    assert_eq!(st, 422, "{body}");
    assert!(
        body.contains("\"reason\":\"not a legal pawn move"),
        "{body}"
    );
    let (st, body) = http(
        a,
        "GET",
        &format!("/api/games/{id}/screen.png?scale=99"),
        "",
    );
    assert_eq!((st, body.contains("expected 1 to 8")), (400, true));
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(
        (st, body.contains("nothing to take back")),
        (409, true),
        "{body}"
    );
    // Many tabs: the third game at once is refused with the reason.
    let (st, _) = http(a, "POST", "/api/games", "engine=draughts-1k");
    assert_eq!(st, 201);
    let (st, body) = http(a, "POST", "/api/games", "engine=chesskelet");
    assert_eq!(st, 503, "{body}");
    assert!(body.contains("too many games at once") && body.contains("limit is 2"));
    // One game ends, the next may start.
    assert_eq!(http(a, "DELETE", &format!("/api/games/{id}"), "").0, 200);
    let (st, body) = http(a, "POST", "/api/games", "engine=chesskelet");
    assert_eq!(st, 201, "{body}");
    ok();
}

#[test]
fn a_game_is_played_judged_taken_back_and_recorded() {
    let s = serve(&[]);
    let a = s.addr.as_str();
    // Draughts: the person White, the program (Black) moves first.
    let (st, body) = http(a, "POST", "/api/games", "engine=draughts-1k&seed=1");
    assert_eq!(st, 201, "{body}");
    let id = field(&body, "id");
    assert_eq!(field(&body, "person"), "white");
    assert_eq!(field(&body, "turn"), "white");
    let (st, png) = http(a, "GET", &format!("/api/games/{id}/screen.png"), "");
    assert_eq!(st, 200);
    assert!(png.starts_with("\u{fffd}PNG"), "a PNG");
    let first = list(&body, "moves");
    assert_eq!(first.len(), 1, "the program's first move: {body}");
    // An illegal move: refused with the rules' reason, the game unchanged.
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/move"), "move=22-13");
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("\"reason\":\""), "{body}");
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/move"), "move=22-17");
    assert_eq!(st, 200, "{body}");
    assert_eq!(field(&body, "turn"), "white", "the program answered");
    assert_eq!(list(&body, "moves").len(), 3, "{body}");
    assert!(body.contains("\"candidates\":["), "{body}");
    let (st, body) = http(a, "POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(st, 200, "{body}");
    assert_eq!(list(&body, "moves"), first, "back to the person's turn");
    let (st, record) = http(a, "GET", &format!("/api/games/{id}/record"), "");
    assert_eq!(st, 200);
    assert!(record.contains("[Black \"Draughts 1K\"]"), "{record}");
    assert!(record.contains("[White \"Person\"]"), "{record}");
    assert!(!record.contains("22-17"), "taken back: {record}");
}

/// The page in a real Chromium: see `tests/peers/browser.py` for the steps.
/// With `RETROCHESS_SCREENSHOTS=DIR` it also saves the screenshots of
/// `docs/screenshots/` there.
#[test]
fn the_page_plays_a_whole_game_in_chromium() {
    let python = common::python_chess();
    for program in ["chromium", "chromedriver"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            found,
            "{program} is missing: scripts/test installs it (apt-get install chromium chromium-driver)"
        );
    }
    let s = serve(&[]);
    let shots = std::env::var("RETROCHESS_SCREENSHOTS").unwrap_or_default();
    let mut cmd = Command::new(python);
    cmd.arg(common::repo("tests/peers/browser.py"))
        .arg(format!("http://{}/", s.addr))
        .arg(env!("CARGO_BIN_EXE_retrochess"));
    if !shots.is_empty() {
        cmd.arg(shots);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("illegal a7a4 refused"), "{stdout}");
    assert!(stdout.contains("PGN replays in python-chess"), "{stdout}");
}

/// The program's own illegal move ends the game as its `IllegalMoves`
/// setting says, with the arbiter's reason. ChesSkelet looks one move
/// ahead at single moves, so "nothing prevents a piece from moving and
/// uncovering the King from an opponent's attack (illegal move!)" (seed
/// 001, chapter 8, "Black moves (computer)"): in this line (found by a
/// seeded search of games against the page) it answers 5...Qh4 with
/// f4xe5, leaving its king in check from h4.
/// Plays Black's `moves` against ChesSkelet (White) under each
/// `IllegalMoves` setting; the program's last reply is flagged with
/// `illegal` (the start of the arbiter's reason) and the game ends as the
/// setting says. Returns the last answer of each.
fn illegal_reply_ends_the_game(moves: &[&str], illegal: &str) -> Vec<String> {
    let s = serve(&[]);
    let a = s.addr.as_str();
    let mut lasts = Vec::new();
    for (setting, words) in [
        (
            "play",
            "IllegalMoves=play passes it on and the arbiter refuses it",
        ),
        ("resign", "IllegalMoves=resign: it resigns instead"),
    ] {
        let form = format!("engine=chesskelet&color=black&seed=1&illegal={setting}");
        let (st, body) = http(a, "POST", "/api/games", &form);
        assert_eq!(st, 201, "{body}");
        let id = field(&body, "id");
        let mut last = String::new();
        for m in moves {
            let (st, body) = http(
                a,
                "POST",
                &format!("/api/games/{id}/move"),
                &format!("move={m}"),
            );
            assert_eq!(st, 200, "{m}: {body}");
            last = body;
        }
        assert!(last.contains(&format!("\"illegal\":\"{illegal}")), "{last}");
        assert!(field(&last, "over").contains(words), "{last}");
        assert!(!last.contains("cannot read"), "{last}");
        let (st, body) = http(a, "POST", &format!("/api/games/{id}/move"), "move=h4e1");
        assert_eq!(
            (st, body.contains("the game is over")),
            (409, true),
            "{body}"
        );
        let (_, record) = http(a, "GET", &format!("/api/games/{id}/record"), "");
        assert!(record.contains("[Result \"0-1\"]"), "{record}");
        lasts.push(last);
    }
    lasts
}

#[test]
fn the_programs_illegal_move_ends_the_game_as_illegal_moves_says() {
    let lasts = illegal_reply_ends_the_game(
        &["b8a6", "h7h5", "a6c5", "e7e5", "d8h4"],
        "leaves the king in check",
    );
    for last in lasts {
        assert_eq!(
            list(&last, "moves"),
            [
                "d2d4", "b8a6", "f2f4", "h7h5", "d1d3", "a6c5", "d4c5", "e7e5", "c5c6", "d8h4"
            ]
        );
    }
}

/// ChesSkelet's long-castling test on the page (issue 33): the game ends as
/// `IllegalMoves` says for an illegal move, with what the program did to
/// its board, read from it, as the reason.
#[test]
fn the_long_castling_test_ends_the_game_as_illegal_moves_says() {
    illegal_reply_ends_the_game(
        &common::LONG_CASTLING_FROM_START,
        "its long-castling test (piece + origin - target = $38) took Qb7-a8 for castling: the \
         white queen went from b7 to a8, taking the black rook; a white rook appeared on d1; the \
         white rook on a1 gave way to 0x",
    );
}
