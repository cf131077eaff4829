//! Every PGN and PDN file retrochess writes, read by the peers' own readers
//! (python-chess; pydraughts 0.6.7's `PDNReader`) and replayed move for
//! move to the same result (`tests/peers/peer_read.py`), and rated by
//! `retrochess rate`, which must credit each game to the player the peer
//! reads as its winner: `match` with and without comments, a match's
//! shards, a file a killed match's journal was recovered into, and the web
//! page's downloads.
//!
//! One result convention for every writer: PGN's `1-0` is a win for White;
//! PDN 3.0 gives the first side to move's score first, and in English
//! checkers Black moves first, so PDN's `1-0` is a win for Black.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common;

/// A game as the peer read it: White, Black, the result token.
type Row = (String, String, String);

/// `tests/peers/peer_read.py` on `path`: every game, or the test fails with
/// what the peer could not read.
fn peer_read(path: &Path) -> Vec<Row> {
    let python = if path.extension().is_some_and(|e| e == "pdn") {
        common::python_draughts()
    } else {
        common::python_chess()
    };
    let out = Command::new(python)
        .arg(common::repo("tests/peers/peer_read.py"))
        .arg(path)
        .current_dir(common::repo("tests/peers"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: {stdout}{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Row> = stdout
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() == 4).then(|| (f[0].into(), f[1].into(), f[2].into()))
        })
        .collect();
    assert!(
        stdout.contains(&format!("games: {}", rows.len())),
        "{stdout}"
    );
    rows
}

/// Each player's wins, draws and losses as the peer's rows say, by the
/// format's convention (`chess`: `1-0` White wins; draughts: `1-0` Black
/// wins).
fn credited(rows: &[Row], chess: bool) -> BTreeMap<String, [u32; 3]> {
    let mut t: BTreeMap<String, [u32; 3]> = BTreeMap::new();
    for (white, black, result) in rows {
        let (first, second) = if chess {
            (white, black)
        } else {
            (black, white)
        };
        let (a, b) = match result.as_str() {
            "1-0" => (0, 2),
            "0-1" => (2, 0),
            "1/2-1/2" => (1, 1),
            other => panic!("unfinished or unknown result {other}"),
        };
        t.entry(first.clone()).or_default()[a] += 1;
        t.entry(second.clone()).or_default()[b] += 1;
    }
    t
}

/// `retrochess rate --csv` on `files`: each player's wins, draws, losses.
fn rated(files: &[&Path]) -> BTreeMap<String, [u32; 3]> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retrochess"));
    cmd.args(["rate", "--csv", "--bootstrap", "0"]).args(files);
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .skip(1)
        .map(|l| {
            // "name",elo,lo,hi,games,wins,draws,losses
            let (name, rest) = l[1..].rsplit_once("\",").unwrap();
            let f: Vec<u32> = rest
                .split(',')
                .skip(4)
                .map(|x| x.parse().unwrap())
                .collect();
            (name.replace("\"\"", "\""), [f[0], f[1], f[2]])
        })
        .collect()
}

/// Read by the peer, every game replayed, and rated as the peer reads it.
fn agree(path: &Path, games: usize) -> Vec<Row> {
    let rows = peer_read(path);
    assert_eq!(rows.len(), games, "{}", path.display());
    let chess = path.extension().is_none_or(|e| e != "pdn");
    assert_eq!(
        rated(&[path]),
        credited(&rows, chess),
        "{}: rate credits the players as the peer reads them",
        path.display()
    );
    rows
}

fn retrochess(args: &[&str]) -> String {
    let (ok, out, err) = common::retrochess(args, "");
    assert!(ok, "{args:?}: {out}{err}");
    out
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("retrochess-peers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(format!("{}.journal", p.display()));
    p
}

/// `match` with and without comments, as shards, and a file a killed
/// match's journal was recovered into, for `game`'s engines.
fn every_match_file(ext: &str, engines: &[&str], games: usize) {
    let mut base = vec!["match"];
    for e in engines {
        base.extend(["--engine", e]);
    }
    let n = games.to_string();
    base.extend(["--games", n.as_str(), "--core", "own"]);
    let played = |extra: &[&str], path: &Path| {
        let mut args = base.clone();
        args.extend(["--seed", "5"]);
        args.extend(extra);
        args.extend(["--pgn", path.to_str().unwrap()]);
        retrochess(&args);
    };
    let pairings = engines.len() * (engines.len() - 1) / 2;
    let total = games * pairings;
    // With the comments (each retro move's score, time and nodes).
    let with = temp(&format!("comments.{ext}"));
    played(&[], &with);
    let text = std::fs::read_to_string(&with).unwrap();
    assert!(text.contains("nodes"), "comments written: {text}");
    let rows = agree(&with, total);
    // Without them: the same games, the same results.
    let without = temp(&format!("bare.{ext}"));
    played(&["--no-comments"], &without);
    assert!(!std::fs::read_to_string(&without).unwrap().contains("nodes"));
    assert_eq!(agree(&without, total), rows);
    // Two shards: together the same games.
    let (s1, s2) = (temp(&format!("s1.{ext}")), temp(&format!("s2.{ext}")));
    played(&["--shard", "1/2"], &s1);
    played(&["--shard", "2/2"], &s2);
    let mut sharded = agree(&s1, total.div_ceil(2));
    sharded.extend(agree(&s2, total / 2));
    let (mut a, mut b) = (sharded, rows.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "the shards hold the match's games");
    // A killed match left games 2 and 3 in its journal (written as the
    // runner journals them: `% retrochess game N` and the record); the next
    // match on the file appends them first, then its own games.
    let records: Vec<&str> = text
        .split("\n\n[")
        .map(|r| r.trim_start_matches('['))
        .collect();
    let journal_text = format!(
        "% retrochess game 2\n[{}\n\n% retrochess game 3\n[{}\n\n",
        records[1].trim_end(),
        records[2].trim_end()
    );
    let recovered = temp(&format!("recovered.{ext}"));
    std::fs::write(format!("{}.journal", recovered.display()), journal_text).unwrap();
    let (ok, out, err) = common::retrochess(
        &[
            base.as_slice(),
            // Another seed: games of their own, not duplicates of the
            // journal's (which `rate` would count once).
            &["--seed", "6", "--pgn", recovered.to_str().unwrap()][..],
        ]
        .concat(),
        "",
    );
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("2 finished games a killed match left"),
        "{err}"
    );
    let back = agree(&recovered, total + 2);
    assert_eq!(&back[..2], &rows[1..3], "the journal's games first");
}

#[test]
fn chess_match_files_are_read_by_python_chess_and_rated_as_it_reads_them() {
    every_match_file("pgn", &["1k-zx-chess", "chesskelet", "random"], 4);
}

#[test]
fn draughts_match_files_are_read_by_pdnreader_and_rated_as_it_reads_them() {
    // Draughts 1K forfeits often under English rules, Baker's mended
    // program wins: results both ways, as Black and as White.
    every_match_file(
        "pdn",
        &["draughts-1k", "baker-draughts-mended", "random"],
        6,
    );
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    text.split_once("\r\n\r\n").map_or("", |b| b.1).to_string()
}

/// A person who plays the first legal move the page offers, to the end,
/// against `engine` (the person has `color`); the page's record, why the
/// game ended and the side the page says won (`None`: a draw).
fn page_game(s: &common::Served, engine: &str, color: &str) -> (String, String, Option<String>) {
    let created = http(
        &s.addr,
        "POST",
        "/api/games",
        &format!("engine={engine}&color={color}&seed=3"),
    );
    let v: serde_json::Value = serde_json::from_str(&created).expect(&created);
    let id = v["id"].as_str().unwrap().to_string();
    let mut state = v;
    for _ in 0..400 {
        if !state["over"].is_null() {
            break;
        }
        let m = state["legal"][0].as_str().unwrap().to_string();
        let body = http(
            &s.addr,
            "POST",
            &format!("/api/games/{id}/move"),
            &format!("move={m}"),
        );
        state = serde_json::from_str(&body).expect(&body);
    }
    let over = state["over"]
        .as_str()
        .unwrap_or_else(|| panic!("not over: {state}"))
        .to_string();
    let winner = state["winner"].as_str().map(str::to_string);
    let record = http(&s.addr, "GET", &format!("/api/games/{id}/record"), "");
    (record, over, winner)
}

#[test]
fn the_pages_downloads_are_read_by_the_peers_and_rated_as_the_page_says() {
    let s = common::serve(&[]);
    for (engine, color, ext, chess) in [
        ("baker-draughts-mended", "white", "pdn", false),
        ("draughts-1k", "white", "pdn", false),
        ("1k-zx-chess", "white", "pgn", true),
    ] {
        let (record, over, winner) = page_game(&s, engine, color);
        let path = temp(&format!("page-{engine}.{ext}"));
        std::fs::write(&path, &record).unwrap();
        let rows = agree(&path, 1);
        // The side the page says won; rate credits its player.
        let t = rated(&[&path]);
        let (white, black, _) = &rows[0];
        let winner = match winner.as_deref() {
            Some("white") => Some(white),
            Some("black") => Some(black),
            _ => None,
        };
        match winner {
            Some(w) => assert_eq!(t[w], [1, 0, 0], "{over}\n{record}"),
            None => assert_eq!(t[white], [0, 1, 0], "{over}\n{record}"),
        }
        if !chess {
            assert!(record.contains("[GameType \"21\"]"), "{record}");
        }
        if engine == "baker-draughts-mended" {
            // The case that once read backwards: the program wins as Black,
            // the side that moves first, and the file says 1-0 for it.
            assert_eq!(winner.map(String::as_str), Some(black.as_str()), "{over}");
            assert!(record.contains("[Result \"1-0\"]"), "{record}");
        }
    }
}
