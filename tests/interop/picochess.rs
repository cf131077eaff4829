//! `adapters/picochess/` as PicoChess reads and runs it (docs/picochess.md):
//! the retro menu's sections and level files read by Python's configparser
//! as PicoChess's `uci/read.py` reads them (`tests/peers/picochess_ini.py`),
//! the names within the DGT clocks' widths, each `elo` the manual's chess
//! ladder figure, each level's options offered by the engine with values it
//! takes, and `install.sh` and the launchers run as the installation steps
//! say: from another working directory, with no `retrochess` on PATH.
//! PicoChess itself is not here (it is not packaged; `scripts/picochess-proof`
//! plays through it).

use crate::adapters::text;
use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::repo;
use retrochess::engines::GameKind;
use serde_json::Value;

/// The DGT clocks' widths: XL, 3000, Pi.
const WIDTHS: [(&str, usize); 3] = [("small", 6), ("medium", 8), ("large", 11)];

/// Keys of a `.uci` level that PicoChess keeps for itself and never sends.
const PICOCHESS_ONLY: [&str; 3] = ["Analysis", "Name", "Variant"];

/// A fresh folder standing for PicoChess's `engines/<arch>/`.
fn engines_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "retrochess-picochess-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn install(dest: &Path, binary: &Path) -> Output {
    Command::new("sh")
        .arg(repo("adapters/picochess/install.sh"))
        .arg(dest)
        .arg(binary)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

/// The sections of `dir/name` as PicoChess reads them.
fn read_ini(dir: &Path, name: &str) -> BTreeMap<String, Value> {
    let (ok, out, err) =
        common::peer_script("picochess_ini.py", &[dir.to_str().unwrap(), name], "");
    assert!(ok, "picochess_ini.py {}: {err}", dir.display());
    serde_json::from_str(&out).unwrap()
}

/// The ladder's Elo of each player, from the first table of the manual's
/// "The chess ladder" (docs/ratings.md; the bold rows are the retro engines).
fn ladder() -> BTreeMap<String, i64> {
    let manual = std::fs::read_to_string(repo("docs/ratings.md")).unwrap();
    let section = manual
        .split("### The chess ladder")
        .nth(1)
        .expect("docs/ratings.md has The chess ladder");
    // The first table with bold rows: the ladder (the design's table of
    // links comes before it, the round robin's after).
    let lines: Vec<&str> = section.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.starts_with("| **"))
        .expect("a table with the retro engines");
    lines[first..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .filter(|l| l.starts_with("| **"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(|c| c.trim().trim_matches('*')).collect();
            let elo = cells[2].replace('−', "-").parse().unwrap();
            (cells[1].to_string(), elo)
        })
        .collect()
}

#[test]
fn retro_ini_names_fit_the_clocks_and_elo_is_the_ladders() {
    let ladder = ladder();
    let sections = read_ini(&repo("adapters/picochess"), "retro.ini");
    let ids = common::ids_of(GameKind::Chess);
    let names: Vec<String> = ids.iter().map(|id| format!("retrochess/{id}")).collect();
    let mut have: Vec<&String> = sections.keys().collect();
    have.sort();
    let mut want: Vec<&String> = names.iter().collect();
    want.sort();
    assert_eq!(have, want, "one section a chess engine");
    for id in ids {
        let s = &sections[&format!("retrochess/{id}")];
        let keys = &s["keys"];
        for (key, width) in WIDTHS {
            let v = keys[key]
                .as_str()
                .unwrap_or_else(|| panic!("{id}: no {key}"));
            assert!(
                !v.trim().is_empty() && v.chars().count() <= width,
                "{id}: {key} = {v:?} is not 1..{width} characters"
            );
        }
        assert!(!keys["name"].as_str().unwrap().is_empty(), "{id}: name");
        let info = retrochess::engines::info(id).unwrap();
        let elo: i64 = keys["elo"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            Some(&elo),
            ladder.get(info.name),
            "{id}: elo against the ladder's {:?} ({ladder:?})",
            info.name
        );
        assert_eq!(s["manufacturer"], "Sinclair", "{id}");
        assert!(!format!("/{id}/").contains("/mame/"));
    }
}

/// The `option name ...` lines of `retrochess uci --engine id`.
fn uci_options(id: &str) -> BTreeMap<String, String> {
    let (ok, out, err) = common::retrochess(&["uci", "--engine", id], "uci\nquit\n");
    assert!(ok, "{id}: {err}");
    out.lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| {
            let (name, rest) = l.split_once(" type ").unwrap();
            (name.to_string(), rest.to_string())
        })
        .collect()
}

/// Whether `value` is one the option described by `rest` (after `type `)
/// takes, judged as python-chess 1.11.2's `Option.parse` judges what
/// PicoChess sends through it (a combo's value exactly as offered).
fn takes(rest: &str, value: &str) -> bool {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|w| w.parse::<i64>().ok())
    };
    match words[0] {
        "check" => value == "true" || value == "false",
        "spin" => value.parse::<i64>().is_ok_and(|v| {
            after("min").is_some_and(|m| v >= m) && after("max").is_some_and(|m| v <= m)
        }),
        "combo" => words.windows(2).any(|w| w[0] == "var" && w[1] == value),
        "string" => true,
        _ => false,
    }
}

#[test]
fn every_level_sets_options_the_engine_offers() {
    let sections = read_ini(&repo("adapters/picochess"), "retro.ini");
    for id in common::ids_of(GameKind::Chess) {
        let levels = sections[&format!("retrochess/{id}")]["levels"]
            .as_object()
            .unwrap_or_else(|| panic!("{id}: no retrochess/{id}.uci"))
            .clone();
        assert!(levels.len() >= 2, "{id}: {levels:?}");
        let offered = uci_options(id);
        let mut timing = Vec::new();
        for (level, options) in &levels {
            assert!(
                level.starts_with("Level@") && level.len() == "Level@00".len(),
                "{id}: PicoChess's level names are Level@NN: {level}"
            );
            let options = options.as_object().unwrap();
            // What keeps PicoChess working when the program plays an illegal move.
            assert_eq!(options["Analysis"], "false", "{id} {level}");
            assert_eq!(options["IllegalMoves"], "resign", "{id} {level}");
            let mut script = String::from("uci\n");
            for (name, value) in options {
                if PICOCHESS_ONLY.contains(&name.as_str()) {
                    continue;
                }
                let value = value.as_str().unwrap();
                let rest = offered
                    .get(name)
                    .unwrap_or_else(|| panic!("{id} {level}: no option {name} in {offered:?}"));
                assert!(
                    takes(rest, value),
                    "{id} {level}: {name} = {value} ({rest})"
                );
                script.push_str(&format!("setoption name {name} value {value}\n"));
            }
            timing.push(options["AuthenticTiming"].as_str().unwrap().to_string());
            // The engine takes them without a word of complaint.
            script.push_str("isready\nquit\n");
            let (ok, out, err) = common::retrochess(&["uci", "--engine", id], &script);
            assert!(ok && out.contains("readyok"), "{id} {level}: {out}{err}");
            assert!(
                !out.contains("info string") && err.is_empty(),
                "{id} {level}: {out}{err}"
            );
        }
        // A level without the original machine's waits, and PicoChess's
        // default (its last level) with them.
        assert!(timing.contains(&"false".to_string()), "{id}: {timing:?}");
        assert_eq!(timing.last().map(String::as_str), Some("true"), "{id}");
    }
}

#[test]
fn installed_launchers_run_their_engines_from_anywhere() {
    let dest = engines_dir("launchers");
    // PicoChess's retro pack's retro.ini, its last line without a newline.
    let pack = "; Manufacturer: Mephisto\n[mame/academy]\nname = Mephisto Academy\nsmall = academ\n\
                medium = Academy\nlarge = Mep.Academy\nelo = 1980";
    std::fs::write(dest.join("retro.ini"), pack).unwrap();
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_retrochess"));
    for _ in 0..2 {
        let out = install(&dest, &binary);
        assert!(out.status.success(), "{}", text(&out));
    }
    // Merged once however often installed, the pack's engine kept in its group.
    let sections = read_ini(&dest, "retro.ini");
    assert_eq!(sections.len(), common::ids_of(GameKind::Chess).len() + 1);
    assert_eq!(sections["mame/academy"]["manufacturer"], "Mephisto");
    assert_eq!(sections["mame/academy"]["keys"]["elo"], "1980");
    let ini = std::fs::read_to_string(dest.join("retro.ini")).unwrap();
    assert_eq!(ini.matches("[retrochess/1k-zx-chess]").count(), 1, "{ini}");
    // Nothing executable at the top level (PicoChess's engine-list builder
    // starts every one there).
    for entry in std::fs::read_dir(&dest).unwrap() {
        let path = entry.unwrap().path();
        assert!(
            path.is_dir() || path.extension().is_some(),
            "{}",
            path.display()
        );
    }
    let elsewhere = engines_dir("cwd");
    for id in common::ids_of(GameKind::Chess) {
        let name = retrochess::engines::info(id).unwrap().name;
        let launcher = dest.join("retrochess").join(id);
        let mut cmd = Command::new(&launcher);
        cmd.current_dir(&elsewhere).env("PATH", "/usr/bin:/bin");
        let said = converse(&mut cmd, "uci\nucinewgame\nisready\n");
        assert!(
            said.contains(&format!("id name {name}")) && said.contains("readyok"),
            "{id}: {said}"
        );
        // Its log: what PicoChess sent and what the engine answered.
        let log = std::fs::read_to_string(dest.join(format!("retrochess/log/{id}.log"))).unwrap();
        assert!(
            log.contains(">engine: uci") && log.contains("<engine: uciok"),
            "{id}: {log}"
        );
        assert!(
            log.contains("<engine: info string seed"),
            "{id}: a fresh seed: {log}"
        );
    }
    // Without a writable log folder the launcher runs all the same.
    std::fs::remove_dir_all(dest.join("retrochess/log")).unwrap();
    let mut cmd = Command::new(dest.join("retrochess/chesskelet"));
    cmd.current_dir(&elsewhere);
    let said = converse(&mut cmd, "uci\nisready\n");
    assert!(said.contains("readyok"), "{said}");
}

/// Starts `cmd`, sends `lines`, reads its stdout up to `readyok`, then
/// sends `quit` (a GUI waits for `readyok`; a `quit` sent at once may end
/// the engine before it answers) and returns all it said, stderr too.
fn converse(cmd: &mut Command, lines: &str) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut said = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 {
        said.push_str(&line);
        if line.trim() == "readyok" {
            break;
        }
        line.clear();
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let rest = child.wait_with_output().unwrap();
    said.push_str(&String::from_utf8_lossy(&rest.stdout));
    said.push_str(&String::from_utf8_lossy(&rest.stderr));
    assert!(rest.status.success(), "{said}");
    said
}

#[test]
fn install_refuses_what_it_cannot_install() {
    let dest = engines_dir("refused");
    let out = install(
        &dest.join("missing"),
        Path::new(env!("CARGO_BIN_EXE_retrochess")),
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("no folder"), "{}", text(&out));
    let not_a_binary = common::temp_file("not-retrochess", b"#!/bin/sh\nexit 1\n");
    let out = install(&dest, &not_a_binary);
    assert!(!out.status.success());
    assert!(text(&out).contains("does not run"), "{}", text(&out));
    assert!(!dest.join("retro.ini").exists(), "nothing written");
}
