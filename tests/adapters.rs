//! The files in `adapters/` and `scripts/`, run exactly as shipped, with the
//! built binary on PATH as `retrochess`.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use common::repo;

/// PATH with the directory of the built `retrochess` first.
fn path_with_binary() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_retrochess"));
    format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn run(cmd: &mut Command, stdin: &str) -> Output {
    common::output_with_stdin(cmd.env("PATH", path_with_binary()), stdin)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn launchers_detect_uci_and_cecp() {
    for (id, name) in [
        ("1k-zx-chess", "1K ZX Chess"),
        ("1k-zx-chess-kp", "1K ZX Chess (king's pawn)"),
        ("chesskelet", "ChesSkelet"),
        ("chesskelet-lite", "ChesSkelet"),
    ] {
        let launcher = repo(&format!("adapters/retrochess-{id}"));
        let uci = run(&mut Command::new(&launcher), "uci\nisready\nquit\n");
        let out = text(&uci);
        assert!(uci.status.success(), "{id}: {out}");
        assert!(
            out.contains(&format!("id name {name}"))
                && out.contains("uciok")
                && out.contains("readyok"),
            "{id}: {out}"
        );
        let cecp = run(&mut Command::new(&launcher), "xboard\nprotover 2\nquit\n");
        let out = text(&cecp);
        assert!(
            out.contains("feature done=1") && out.contains(&format!("myname=\"{name}")),
            "{id}: {out}"
        );
        let bat = std::fs::read_to_string(repo(&format!("adapters/retrochess-{id}.bat"))).unwrap();
        assert!(
            bat.contains(&format!("retrochess.exe --engine {id} %*")),
            "{bat}"
        );
    }
}

#[test]
fn polyglot_ini_puts_retrochess_uci_behind_cecp() {
    let polyglot = common::peer("polyglot");
    let o = run(
        Command::new(common::python_chess())
            .arg(repo("tests/interop/polyglot_game.py"))
            .arg(polyglot)
            .arg("1k-zx-chess.ini")
            .current_dir(repo("adapters/polyglot")),
        "",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let mut words = out.split_whitespace();
    let result = words.next().unwrap();
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&result),
        "a complete game: {out}"
    );
    assert!(words.next().unwrap().parse::<u32>().unwrap() >= 10, "{out}");
}

#[test]
fn python_chess_script_plays_a_game() {
    let o = run(
        Command::new(common::python_chess())
            .arg(repo("adapters/python-chess/play.py"))
            .arg("chesskelet"),
        "",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "name, moves, result: {out}");
    assert!(lines[0].starts_with("ChesSkelet"), "{out}");
    assert!(lines[1].split_whitespace().count() >= 2, "{out}");
    assert!(
        ["1-0", "0-1", "1/2-1/2", "*"]
            .iter()
            .any(|r| lines[2].starts_with(r)),
        "{out}"
    );
}

#[test]
fn cutechess_engines_json_names_real_engines() {
    let check = "import json,sys\nfor e in json.load(open(sys.argv[1])):\n    print(e['protocol'], *e['arguments'])";
    let o = run(
        Command::new(common::python())
            .args(["-c", check])
            .arg(repo("adapters/cutechess/engines.json")),
        "",
    );
    assert!(o.status.success(), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(stdout.lines().count(), 5);
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            words[0], words[1],
            "protocol matches the subcommand: {line}"
        );
        let o = run(
            Command::new("retrochess").args(&words[1..]),
            if words[0] == "uci" {
                "uci\nquit\n"
            } else {
                "xboard\nprotover 2\nquit\n"
            },
        );
        let out = text(&o);
        assert!(
            out.contains("uciok") || out.contains("feature done=1"),
            "{line}: {out}"
        );
    }
}

#[test]
fn rating_script_plays_a_round_robin() {
    let dir = std::env::temp_dir().join(format!("retrochess-rating-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = run(
        Command::new("sh")
            .arg(repo("scripts/rating.sh"))
            .arg("2")
            .arg("3")
            .current_dir(&dir),
        "",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    for name in [
        "1K ZX Chess ",
        "1K ZX Chess (king's pawn)",
        "ChesSkelet ",
        "Random mover",
    ] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} in\n{out}");
    }
    // 5 players: 10 pairings of 2 games.
    assert!(out.contains("20 games in"), "{out}");
    assert!(dir.join("rating.pgn").exists());
}

#[test]
fn gauntlet_script_falls_back_to_the_built_in_runner() {
    let dir = std::env::temp_dir().join(format!("retrochess-gauntlet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_retrochess"));
    let o = Command::new("sh")
        .arg(repo("scripts/gauntlet.sh"))
        .args(["chesskelet", "2"])
        .current_dir(&dir)
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", bin.parent().unwrap().display()),
        )
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("neither fastchess nor cutechess-cli is on PATH"),
        "{out}"
    );
    assert_eq!(out.matches("== chesskelet vs ").count(), 4, "{out}");
}
