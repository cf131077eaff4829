//! The files in `adapters/` and `scripts/`, run exactly as shipped, with the
//! built binary on PATH as `retrochess`.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::repo;
use retrochess::engines::{self, GameKind};

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

/// What a finished command said, stdout then stderr.
pub(crate) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn launchers_detect_uci_and_cecp() {
    // Every chess engine of the registry has its launcher.
    for id in common::ids_of(GameKind::Chess) {
        let name = retrochess::engines::info(id).unwrap().name;
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
        // The .bat runs the exe beside it (`%~dp0`, the batch file's own
        // folder), else the one on PATH; cmd reads it with CR LF endings.
        let bat = std::fs::read_to_string(repo(&format!("adapters/retrochess-{id}.bat"))).unwrap();
        assert!(
            bat.contains(&format!("\"%~dp0retrochess.exe\" --engine {id} %*\r\n"))
                && bat.contains(&format!("\r\nretrochess.exe --engine {id} %*")),
            "{bat}"
        );
        assert_eq!(
            bat.matches('\n').count(),
            bat.matches("\r\n").count(),
            "{bat}"
        );
    }
}

#[test]
fn launchers_run_the_binary_beside_them_from_any_folder() {
    // As a release archive lays them out: the launcher and `retrochess` in
    // one folder, started by its path from another working directory with
    // no retrochess on PATH.
    let dir = std::env::temp_dir().join(format!("retrochess-beside-{}", std::process::id()));
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_retrochess"), dir.join("retrochess")).unwrap();
    for id in common::ids_of(GameKind::Chess) {
        let launcher = dir.join(format!("retrochess-{id}"));
        std::fs::copy(repo(&format!("adapters/retrochess-{id}")), &launcher).unwrap();
        let o = common::output_with_stdin(
            Command::new(&launcher)
                .current_dir(&elsewhere)
                .env("PATH", "/usr/bin:/bin"),
            "uci\nquit\n",
        );
        let name = retrochess::engines::info(id).unwrap().name;
        assert!(
            text(&o).contains(&format!("id name {name}")),
            "{id}: {}",
            text(&o)
        );
    }
    // Without the binary beside it, a launcher falls back to PATH: here
    // there is none, and the shell says so.
    std::fs::remove_file(dir.join("retrochess")).unwrap();
    let o = common::output_with_stdin(
        Command::new(dir.join("retrochess-chesskelet"))
            .current_dir(&elsewhere)
            .env("PATH", "/usr/bin:/bin"),
        "uci\nquit\n",
    );
    assert!(
        !o.status.success() && text(&o).contains("retrochess"),
        "{}",
        text(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cutechess_windows_engines_json_names_the_bat_launchers() {
    // Windows starts no extensionless script: the Windows variant names the
    // same engines through the .bat launchers, which exist.
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(repo(f)).unwrap()).unwrap()
    };
    let unix = read("adapters/cutechess/engines.json");
    let windows = read("adapters/cutechess/engines-windows.json");
    let (unix, windows) = (unix.as_array().unwrap(), windows.as_array().unwrap());
    assert_eq!(unix.len(), windows.len());
    for (u, w) in unix.iter().zip(windows) {
        let command = w["command"].as_str().unwrap();
        assert_eq!(format!("{}.bat", u["command"].as_str().unwrap()), command);
        assert!(repo(&format!("adapters/{command}")).is_file(), "{command}");
        for key in ["name", "workingDirectory", "protocol", "options"] {
            assert_eq!(u[key], w[key], "{command}: {key}");
        }
    }
}

#[test]
fn polyglot_ini_puts_retrochess_uci_behind_cecp() {
    let polyglot = common::peer("polyglot");
    let o = run(
        Command::new(common::python_chess())
            .arg(repo("tests/peers/polyglot_game.py"))
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

/// PATH with the launchers in `adapters/` and the built `retrochess` first,
/// as adapters/README.md asks users to set it up.
fn path_with_launchers() -> String {
    format!("{}:{}", repo("adapters").display(), path_with_binary())
}

/// The name an engine started as `cmd args` in `cwd` announces: its
/// `id name` (UCI) or `myname` (CECP).
fn announced_name(cmd: &str, args: &[String], cwd: &Path, proto: &str) -> String {
    let input = match proto {
        "uci" => "uci\nquit\n",
        _ => "xboard\nprotover 2\nquit\n",
    };
    let o = common::output_with_stdin(
        Command::new(cmd)
            .args(args)
            .current_dir(cwd)
            .env("PATH", path_with_launchers()),
        input,
    );
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    let name = stdout.lines().find_map(|l| match proto {
        "uci" => l.strip_prefix("id name ").map(str::to_string),
        _ => l
            .split_once("myname=\"")
            .and_then(|(_, r)| r.split_once('"'))
            .map(|(n, _)| n.to_string()),
    });
    name.unwrap_or_else(|| panic!("{cmd} {args:?} in {}: no name\n{}", cwd.display(), text(&o)))
}

/// How the engine `id` introduces itself: "1K ZX Chess (David Horne 1982)".
fn own_name(id: &str) -> String {
    let info = engines::info(id).unwrap_or_else(|| panic!("no engine {id}"));
    format!("{} ({} {})", info.name, info.author, info.year)
}

/// Starts `cmd args` in `cwd` and checks it is the engine `id`.
fn check_starts(what: &str, cmd: &str, args: &[String], cwd: &Path, proto: &str, id: &str) {
    let name = announced_name(cmd, args, cwd, proto);
    assert!(
        name.starts_with(&format!("{} via retrochess", own_name(id))),
        "{what}: `{cmd} {}` ({proto}) is {name:?}, not {id}",
        args.join(" ")
    );
}

/// The engine id each shipped display name stands for.
fn id_of(name: &str) -> &'static str {
    match name {
        "1K ZX Chess" | "1K ZX Chess (CECP)" => "1k-zx-chess",
        "1K ZX Chess (king's pawn)" => "1k-zx-chess-kp",
        "ChesSkelet" => "chesskelet",
        "ChesSkelet lite" => "chesskelet-lite",
        "ChesSkelet (published games)" => "chesskelet-published",
        other => panic!("a shipped name with no engine: {other}"),
    }
}

/// Words of a shell line: blanks split, double quotes group and go.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => (word, any) = (word + &c.to_string(), true),
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// The `-engine` lines of a match script, as `key=value` lists.
fn engine_lines(script: &str) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(repo(script)).unwrap();
    let engines: Vec<_> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("-engine "))
        .map(|l| {
            shell_words(l)
                .into_iter()
                .filter_map(|w| {
                    w.split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                })
                .collect()
        })
        .collect();
    assert!(engines.len() >= 2, "{script}: {engines:?}");
    engines
}

fn value<'a>(pairs: &'a [(String, String)], key: &str) -> &'a str {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map_or_else(|| panic!("no {key}= in {pairs:?}"), |(_, v)| v.as_str())
}

#[test]
fn cutechess_engines_json_entries_start_their_engines_without_arguments() {
    // cutechess reads name, command, workingDirectory and protocol (and no
    // arguments) and starts the command alone, in workingDirectory or, if
    // that is empty, in the temporary directory.
    let fields = "import json,sys\nfor e in json.load(open(sys.argv[1])):\n    \
                  print(e['name'], e['command'], e.get('workingDirectory', ''), e['protocol'], \
                  'arguments' in e, sep='\\t')";
    let o = run(
        Command::new(common::python())
            .args(["-c", fields])
            .arg(repo("adapters/cutechess/engines.json")),
        "",
    );
    assert!(o.status.success(), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    for line in stdout.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (name, command, dir, proto) = (f[0], f[1], f[2], f[3]);
        assert_eq!(f[4], "False", "{name}: cutechess ignores `arguments`");
        let cwd = match dir {
            "" => std::env::temp_dir(),
            d => PathBuf::from(d),
        };
        check_starts("engines.json", command, &[], &cwd, proto, id_of(name));
    }
}

#[test]
fn match_scripts_start_the_engines_they_name() {
    // fastchess splits `args` into words; cutechess-cli passes each `arg=`.
    for e in engine_lines("adapters/fastchess/match.sh") {
        let args = shell_words(value(&e, "args"));
        let id = id_of(value(&e, "name"));
        check_starts("fastchess", value(&e, "cmd"), &args, &repo("."), "uci", id);
    }
    for e in engine_lines("adapters/cutechess/match.sh") {
        let args: Vec<String> = e
            .iter()
            .filter(|(k, _)| k == "arg")
            .map(|(_, v)| v.clone())
            .collect();
        let (cmd, proto, id) = (
            value(&e, "cmd"),
            value(&e, "proto"),
            id_of(value(&e, "name")),
        );
        check_starts("cutechess", cmd, &args, &repo("."), proto, id);
    }
}

#[test]
fn polyglot_ini_starts_the_engine_it_names() {
    // PolyGlot runs EngineCommand, split at blanks, in EngineDir.
    let dir = repo("adapters/polyglot");
    let ini = std::fs::read_to_string(dir.join("1k-zx-chess.ini")).unwrap();
    let setting = |key: &str| {
        ini.lines()
            .find_map(|l| l.strip_prefix(key)?.trim_start().strip_prefix('='))
            .map(str::trim)
            .unwrap_or_else(|| panic!("no {key} in the ini"))
    };
    let words = shell_words(setting("EngineCommand"));
    let id = id_of(setting("EngineName"));
    check_starts(
        "polyglot ini",
        &words[0],
        &words[1..],
        &dir.join(setting("EngineDir")),
        "uci",
        id,
    );
    // The real PolyGlot, as the xboard notes start it, passes the engine's
    // own UCI_EngineAbout on to the GUI.
    let polyglot = common::peer("polyglot");
    let notes = std::fs::read_to_string(repo("adapters/xboard/README.md")).unwrap();
    let line = notes
        .lines()
        .find_map(|l| l.split_once("-fcp \"polyglot ").map(|(_, r)| r))
        .expect("the xboard notes start PolyGlot");
    let ini_arg = line.split('"').next().unwrap();
    let mut child = Command::new(polyglot)
        .arg(ini_arg)
        .current_dir(repo("adapters/xboard"))
        .env("PATH", path_with_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "xboard\nprotover 2").unwrap();
    // PolyGlot lists the engine's options before `done=1`; a quit sent
    // sooner would end it before it asks the engine.
    let mut heard = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        heard.push(line.clone());
        if line == "feature done=1" {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    child.wait().unwrap();
    let about = engines::info(id).unwrap().about;
    let want = format!("feature option=\"UCI_EngineAbout -string {about}");
    assert!(
        heard.iter().any(|l| l.starts_with(&want)),
        "{want}\n{}",
        heard.join("\n")
    );
}

#[test]
fn xboard_and_arena_notes_start_the_engines_they_name() {
    // xboard's -fcp/-scp "COMMAND" and WinBoard's `retrochess.exe ...`.
    let notes = std::fs::read_to_string(repo("adapters/xboard/README.md")).unwrap();
    let mut commands: Vec<String> = notes
        .split("cp \"")
        .skip(1)
        .map(|r| r.split('"').next().unwrap().to_string())
        .filter(|c| c.starts_with("retrochess "))
        .collect();
    commands.extend(
        notes
            .split('`')
            .filter(|c| c.starts_with("retrochess.exe "))
            .map(|c| c.replacen("retrochess.exe", "retrochess", 1)),
    );
    assert_eq!(commands.len(), 4, "{commands:?}");
    // Arena installs the .bat launchers; the line they run, without `%*`.
    let arena = std::fs::read_to_string(repo("adapters/arena/README.md")).unwrap();
    assert!(arena.contains("`retrochess-1k-zx-chess.bat`"), "{arena}");
    for id in [
        "1k-zx-chess",
        "1k-zx-chess-kp",
        "chesskelet",
        "chesskelet-lite",
        "chesskelet-published",
    ] {
        let bat = std::fs::read_to_string(repo(&format!("adapters/retrochess-{id}.bat"))).unwrap();
        let line = bat
            .lines()
            .find(|l| l.starts_with("retrochess.exe "))
            .unwrap_or_else(|| panic!("{bat}"));
        commands.push(
            line.replace("retrochess.exe", "retrochess")
                .replace(" %*", ""),
        );
    }
    for command in commands {
        let words = shell_words(&command);
        let id = words
            .iter()
            .skip_while(|w| *w != "--engine")
            .nth(1)
            .unwrap_or_else(|| panic!("no --engine in {command}"));
        let protos: &[&str] = match words.get(1).map(String::as_str) {
            Some("xboard") => &["xboard"],
            Some("uci") => &["uci"],
            // A launcher: the GUI's first line picks the protocol.
            _ => &["uci", "xboard"],
        };
        for proto in protos {
            check_starts("notes", &words[0], &words[1..], &repo("."), proto, id);
        }
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
    // 6 players: 15 pairings of 2 games.
    assert!(out.contains("30 games in"), "{out}");
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
    assert_eq!(out.matches("== chesskelet vs ").count(), 5, "{out}");
}

/// The first `tool` on PATH, if any.
fn on_path(tool: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Each game of a PGN file: its moves, comments and move numbers left out.
fn pgn_moves(pgn: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut in_comment = false;
    for line in pgn.lines() {
        if line.starts_with('[') {
            if line.starts_with("[Event ") && !moves.is_empty() {
                games.push(std::mem::take(&mut moves));
            }
            continue;
        }
        for word in line.split_whitespace() {
            if in_comment || word.starts_with('{') {
                in_comment = !word.ends_with('}');
            } else if !word.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                moves.push(
                    word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                        .to_string(),
                );
            }
        }
    }
    if !moves.is_empty() {
        games.push(moves);
    }
    games
}

#[test]
fn match_scripts_play_other_games_each_round() {
    // Two rounds of what each script starts (2 games a round, colours
    // reversed): by the tool itself where it is on PATH, else the same
    // engines from the same book in `retrochess match`, whose schedule
    // gives each two games the book's next opening.
    let book = repo("adapters/openings/short-balanced.pgn");
    let openings = pgn_moves(&std::fs::read_to_string(&book).unwrap());
    assert!(openings.len() >= 100, "{} openings", openings.len());
    let mut distinct = openings.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), openings.len(), "an opening listed twice");
    for (script, tool) in [
        ("adapters/fastchess/match.sh", "fastchess"),
        ("adapters/cutechess/match.sh", "cutechess-cli"),
    ] {
        let shipped = std::fs::read_to_string(repo(script)).unwrap();
        let line = shipped
            .lines()
            .find(|l| l.trim_start().starts_with("-openings "))
            .unwrap_or_else(|| panic!("{script}: no -openings"));
        for word in ["format=pgn", "order=random", "-srand"] {
            assert!(line.contains(word), "{script}: {word} in {line}");
        }
        assert!(
            shipped.contains("/../openings") && shipped.contains("short-balanced.pgn"),
            "{script}"
        );
        let dir =
            std::env::temp_dir().join(format!("retrochess-rounds-{tool}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = if on_path(tool).is_some() {
            let o = run(
                Command::new("sh")
                    .arg(repo(script))
                    .env("ROUNDS", "2")
                    .env("TC", "10+0.1")
                    .current_dir(&dir),
                "",
            );
            assert!(o.status.success(), "{script}: {}", text(&o));
            dir.join("retro.pgn")
        } else {
            let ids: Vec<String> = engine_lines(script)
                .iter()
                .map(|e| id_of(value(e, "name")).to_string())
                .collect();
            let out = dir.join("rounds.pgn");
            let o = run(
                Command::new(env!("CARGO_BIN_EXE_retrochess"))
                    .args(["match", "-e", &ids[0], "-e", &ids[1], "--games", "4"])
                    .arg("--openings")
                    .arg(&book)
                    .arg("--pgn")
                    .arg(&out),
                "",
            );
            assert!(o.status.success(), "{script}: {}", text(&o));
            out
        };
        let games = pgn_moves(&std::fs::read_to_string(&pgn).unwrap());
        assert_eq!(games.len(), 4, "{script}: {games:?}");
        for (g, (first, second)) in games[..2].iter().zip(&games[2..]).enumerate() {
            let (n1, n2) = (g + 1, g + 3);
            assert_ne!(first, second, "{script}: game {n2} repeats game {n1}");
            assert_ne!(
                first[..4],
                second[..4],
                "{script}: round 2 starts as round 1"
            );
            assert!(
                openings.iter().any(|o| second.starts_with(o)),
                "{script}: game {n2} starts from no opening of the book: {second:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
