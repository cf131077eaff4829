//! The `retrochess` binary's person-facing subcommands, over pipes.

use crate::common;

use retrochess::machine::spectrum::Spectrum48;

use common::retrochess as run;

#[test]
fn play_as_black_refuses_illegal_moves_and_shows_the_screen() {
    let (ok, out, _) = run(&["play"], "e7e4\nhello\ne7e5\nNc6\n");
    assert!(ok);
    assert!(
        out.contains(
            "1K ZX Chess plays d2d3 (0.0 s on the original machine; move stored on the tape)"
        ),
        "{out}"
    );
    assert!(out.contains("Illegal move e7e4: not a legal pawn move from e7 to e4: the pawn cannot advance that far."), "{out}");
    assert!(out.contains("Cannot read \"hello\""), "{out}");
    // Two engine replies after e7e5 and Nc6, both typed on the emulated keyboard.
    assert_eq!(
        out.matches("typed 7E5E").count() + out.matches("typed 8B6C").count(),
        2,
        "{out}"
    );
    // The board as the emulated screen shows it last, files H..A: the b8
    // knight has left its (dark) square.
    assert!(out.lines().any(|l| l == "8▒rnbkqb█r"), "{out}");
}

#[test]
fn play_as_white_gets_a_mirrored_engine() {
    let (ok, out, _) = run(&["play", "--color", "white", "--seed", "3"], "e2e4\n");
    assert!(ok);
    assert!(out.contains("You play White"));
    assert!(out.contains("1K ZX Chess plays"), "{out}");
    assert!(out.contains("position injected"), "{out}");
}

#[test]
fn quit_ends_play() {
    let (ok, out, _) = run(&["play"], "quit\n");
    assert!(ok);
    assert!(out.contains("You play Black against 1K ZX Chess"));
}

#[test]
fn bench_of_a_native_engine_counts_nodes_per_second() {
    let figure = |out: &str, key: &str| -> f64 {
        out.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("{key} missing in\n{out}"))
            .parse()
            .unwrap()
    };
    let (ok, one, _) = run(&["bench", "--engine", "samuel-f8", "--moves", "20"], "");
    assert!(ok, "{one}");
    let (_, two, _) = run(&["bench", "--engine", "samuel-f8", "--moves", "20"], "");
    assert!(one.contains("engine moves: 20"), "{one}");
    assert!(figure(&one, "nodes: ") > 0.0);
    assert_eq!(
        figure(&one, "nodes: "),
        figure(&two, "nodes: "),
        "a fixed workload"
    );
    assert!(figure(&one, "nodes per second: ") > 0.0);
}

#[test]
fn bench_prints_its_figures() {
    let (ok, out, _) = run(&["bench", "--moves", "3"], "");
    assert!(ok);
    for key in [
        "engine moves: 3",
        "total T-states: ",
        "host time: ",
        "emulated MHz: ",
        "median host ms per move: ",
        "median authentic s per move: ",
        "raw ",
        "harness/raw: ",
        "core: own (the default)",
        "clock reads' cost taken off each move: ",
        "host time outside the core: ",
        "reference core: z80emu",
        "z80emu engine moves: 3",
        "z80emu median host ms per move: ",
        "reference core: iz80",
        "iz80 engine moves: 3",
        "iz80 emulated MHz: ",
        "speed-up, emulated MHz own/z80emu: ",
        "speed-up, median host ms per move z80emu/own: ",
        "speed-up, emulated MHz own/iz80: ",
    ] {
        assert!(out.contains(key), "{key} missing in\n{out}");
    }
    let tstates: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("total T-states: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        tstates > 3_000_000,
        "three searches of the 1K program: {tstates}"
    );
}

#[test]
fn engines_are_listed_and_unknown_ones_refused() {
    let (ok, out, _) = run(&["engines"], "");
    assert!(
        ok && out.contains("1k-zx-chess ") && out.contains("1k-zx-chess-kp"),
        "{out}"
    );
    let (ok, _, err) = run(&["screen", "--engine", "nope"], "");
    assert!(!ok);
    assert!(err.contains("unknown engine \"nope\""), "{err}");
}

/// Runs the binary with `args`, its standard output a pipe whose reader
/// has gone (as under `| head` once head has its lines): (exit code,
/// stderr).
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(writer)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Each subcommand that prints a report (and `play`, a session for no
/// one), with no one left to read it: a one-line error and exit code 1, as
/// the protocols give, not a panic; the match's games are in its PGN all
/// the same.
#[test]
fn a_reader_that_went_away_is_an_error_not_a_panic() {
    let pgn = common::temp_file("closed-stdout.pgn", b"");
    let pgn = pgn.to_str().unwrap();
    let reports: [&[&str]; 7] = [
        &["engines"],
        &["play", "--engine", "1k-zx-chess"],
        &["match", "--games", "2", "--pgn", pgn],
        &["rate", pgn],
        &["explain", "--engine", "1k-zx-chess"],
        &["screen", "--engine", "chesskelet"],
        &["bench", "--engine", "draughts-1k", "--moves", "2"],
    ];
    for args in reports {
        let (code, err) = with_stdout_closed(args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "retrochess: stdout: Broken pipe (os error 32)",
            "{args:?}"
        );
        if args[0] == "match" {
            let games = std::fs::read_to_string(pgn).unwrap();
            assert_eq!(games.matches("[Result ").count(), 2, "{games}");
        }
    }
}

#[test]
fn bad_tape_file_is_a_clear_error() {
    let path = std::env::temp_dir().join(format!("retrochess-cli-{}.p", std::process::id()));
    std::fs::write(&path, [0x00, 0x01, 0x02]).unwrap();
    let (ok, _, err) = run(&["screen", "--tape", path.to_str().unwrap()], "");
    assert!(!ok);
    assert!(err.contains("bad tape: tape too short: 3 bytes"), "{err}");
}

#[test]
fn first_line_that_is_no_protocol_is_refused() {
    let (ok, _, err) = run(&[], "hello\n");
    assert!(!ok);
    assert!(
        err.contains("cannot tell the protocol from the first line \"hello\""),
        "{err}"
    );
    let (ok, _, _) = run(&[], "");
    assert!(ok, "EOF before any line: clean exit");
}

/// What `play` shows of the engine's replies to `moves` (one a line).
fn replies(engine: &str, color: &str, tape: Option<&std::path::Path>, moves: &str) -> Vec<String> {
    let mut args = vec!["play", "--engine", engine, "--color", color];
    if let Some(tape) = tape {
        args.extend(["--tape", tape.to_str().unwrap()]);
    }
    let (ok, out, err) = run(&args, moves);
    assert!(ok, "{err}");
    let plays: Vec<String> = out
        .lines()
        .filter(|l| l.contains(" plays "))
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert!(!plays.is_empty(), "{out}");
    plays
}

/// A 48K `.sna` of `zx` (PC pushed on its stack, as the format keeps it).
fn sna_of(zx: &Spectrum48) -> Vec<u8> {
    let r = zx.regs();
    let sp = r.sp.wrapping_sub(2);
    let mut h = vec![r.i];
    for w in [
        r.hl_alt, r.de_alt, r.bc_alt, r.af_alt, r.hl, r.de, r.bc, r.iy, r.ix,
    ] {
        h.extend(w.to_le_bytes());
    }
    h.extend([if r.iff2 { 4 } else { 0 }, r.r]);
    h.extend(r.af.to_le_bytes());
    h.extend(sp.to_le_bytes());
    h.extend([r.im, 7]);
    let mut ram: Vec<u8> = (0x4000..=0xFFFFu16).map(|a| zx.peek(a)).collect();
    let at = usize::from(sp - 0x4000);
    ram[at..at + 2].copy_from_slice(&r.pc.to_le_bytes());
    h.extend(ram);
    h
}

/// An uncompressed version 1 `.z80` of `zx`.
fn z80_of(zx: &Spectrum48) -> Vec<u8> {
    let r = zx.regs();
    let mut h = vec![r.a(), r.f()];
    for w in [r.bc, r.hl, r.pc, r.sp] {
        h.extend(w.to_le_bytes());
    }
    h.extend([r.i, r.r & 0x7F, r.r >> 7]);
    for w in [r.de, r.bc_alt, r.de_alt, r.hl_alt] {
        h.extend(w.to_le_bytes());
    }
    h.extend(r.af_alt.to_be_bytes());
    h.extend(r.iy.to_le_bytes());
    h.extend(r.ix.to_le_bytes());
    h.extend([u8::from(r.iff1), u8::from(r.iff2), r.im]);
    h.extend((0x4000..=0xFFFFu16).map(|a| zx.peek(a)));
    h
}

#[test]
fn tapes_and_snapshots_load_by_content_through_the_binary() {
    use retrochess::engines::{chesskelet, onek};
    // 1K ZX Chess from a .p file plays as from its built-in tape.
    let p = common::temp_file("tape.p", onek::TAPE);
    let moves = "e7e5\nb8c6\n";
    assert_eq!(
        replies("1k-zx-chess", "black", Some(&p), moves),
        replies("1k-zx-chess", "black", None, moves)
    );
    // ChesSkelet from a .tap, and from .sna and .z80 snapshots of the
    // machine the tape's loader leaves at its USR entry, each under a name
    // that says nothing of its format.
    let zx = Spectrum48::load_tap(chesskelet::TAPE_LITE).unwrap();
    let built_in = replies("chesskelet-lite", "white", None, "e2e4\nd2d4\n");
    for (name, bytes) in [
        ("lite.tap", chesskelet::TAPE_LITE.to_vec()),
        ("lite-sna.bin", sna_of(&zx)),
        ("lite-z80.bin", z80_of(&zx)),
    ] {
        let path = common::temp_file(name, &bytes);
        assert_eq!(
            replies("chesskelet-lite", "white", Some(&path), "e2e4\nd2d4\n"),
            built_in,
            "{name}"
        );
    }
    // A .sna that is not quite one is named as none of the three formats.
    let mut short = sna_of(&zx);
    short.pop();
    let path = common::temp_file("short.sna", &short);
    let (ok, _, err) = run(
        &[
            "screen",
            "--engine",
            "chesskelet-lite",
            "--tape",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("neither a .tap (") && err.contains(".sna (49178 bytes, not 49179)"),
        "{err}"
    );
}

#[test]
fn an_endless_tape_file_is_refused_without_reading_it_all() {
    let (ok, _, err) = run(&["screen", "--tape", "/dev/zero"], "");
    assert!(!ok);
    assert!(
        err.contains("/dev/zero: more than 1048576 bytes, too large for a tape or snapshot"),
        "{err}"
    );
}

#[test]
fn a_tape_patched_with_halt_is_a_named_stop_not_a_hang() {
    // 1K ZX Chess with HALT written at 0x4293, inside MPSCAN (issue 12).
    let mut tape = retrochess::engines::onek::TAPE.to_vec();
    tape[0x4293 - 0x4009] = 0x76;
    let path = common::temp_file("halt.p", &tape);
    let pgn = common::temp_file("halt.pgn", b"");
    let (ok, out, err) = run(
        &[
            "match",
            "--tape",
            path.to_str().unwrap(),
            "--engine",
            "1k-zx-chess",
            "--engine",
            "random",
            "--games",
            "2",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    // The halt is a named stop, not a budget run out: both games say so.
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("1K ZX Chess hung: halted at PC 0x4293 with nothing to wake it")
            .count(),
        2,
        "{text}"
    );
}

/// `baker-draughts` runs on an emulated ZX81: its screen shows the board
/// SHOW printed at start-up (the computer's inverse W men at the top).
#[test]
fn an_emulated_draughts_engine_shows_its_screen() {
    let (ok, out, err) = run(&["screen", "--engine", "baker-draughts"], "");
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0].trim_end(), " w w w w");
    assert_eq!(lines[7].trim_end(), "b b b b");
    let (ok, _, err) = run(&["screen", "--engine", "samuel-f8"], "");
    assert!(!ok && err.contains("no emulated screen"), "{err}");
}

/// `play --png-dir` writes a picture after every move, and
/// `screen --png --play` draws the same game's last screen: the engine's
/// answer changes the picture, the person's move alone does not (the
/// machine sees it only when it is asked).
#[test]
fn play_png_dir_and_screen_png_picture_the_same_game() {
    let dir = std::env::temp_dir().join(format!("retrochess-png-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, out, err) = run(
        &["play", "--png-dir", dir.to_str().unwrap()],
        "e7e5\nquit\n",
    );
    assert!(ok, "{out}{err}");
    let read = |n: usize| std::fs::read(dir.join(format!("ply-{n:03}.png"))).unwrap();
    let pictures: Vec<Vec<u8>> = (0..4).map(read).collect();
    assert!(pictures.iter().all(|p| p.starts_with(b"\x89PNG\r\n\x1a\n")));
    assert_eq!(pictures[1], pictures[2], "e7e5 not yet seen by the machine");
    assert_ne!(
        pictures[2], pictures[3],
        "the engine's answer is on its screen"
    );
    let png = dir.join("screen.png");
    let (ok, _, err) = run(
        &["screen", "--png", png.to_str().unwrap(), "--play", "e7e5"],
        "",
    );
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&png).unwrap(), pictures[3]);
    let (ok, _, err) = run(&["screen", "--png", "/dev/null", "--scale", "9"], "");
    assert!(!ok);
    assert!(err.contains("--scale 9: expected 1 to 8"), "{err}");
    let (ok, _, err) = run(&["screen", "--play", "e7e4"], "");
    assert!(!ok);
    assert!(err.contains("e7e4: illegal move"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 19: Toni Baker's program as printed and as mended are kept apart
/// wherever a user looks: `engines`, the Hub's `id name`, the PDN
/// `White`/`Black` names, and the match table.
#[test]
fn baker_printed_and_mended_are_kept_apart() {
    let (ok, out, err) = run(&["engines"], "");
    assert!(ok, "{err}");
    let line = |id: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no {id} in {out}"))
            .to_string()
    };
    assert!(line("baker-draughts").contains("(as printed)"), "{out}");
    assert!(line("baker-draughts-mended").contains("(mended)"), "{out}");
    for (id, says) in [
        ("baker-draughts", "(as printed)"),
        ("baker-draughts-mended", "(mended)"),
    ] {
        let (ok, out, err) = run(&["hub", "--engine", id], "hub\nquit\n");
        assert!(ok, "{err}");
        let id_line = out.lines().find(|l| l.starts_with("id ")).unwrap();
        assert!(id_line.contains(says), "{id}: {id_line}");
    }
    let pdn = common::temp_file("baker-apart.pdn", b"");
    let (ok, out, err) = run(
        &[
            "match",
            "--game",
            "draughts",
            "--engine",
            "baker-draughts",
            "--engine",
            "baker-draughts-mended",
            "--games",
            "2",
            "--pgn",
            pdn.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("(as printed)") && out.contains("(mended)"),
        "{out}"
    );
    let games = std::fs::read_to_string(&pdn).unwrap();
    for side in ["White", "Black"] {
        for says in ["(as printed)", "(mended)"] {
            let tag = format!("[{side} \"Toni Baker's ZX81 draughts {says}\"]");
            assert!(games.contains(&tag), "{tag}: {games}");
        }
    }
}

/// The options of an emulated engine.
const ENGINE_OPTIONS: [&str; 6] = [
    "--seed",
    "--think-first-move",
    "--frames",
    "--tape",
    "--option",
    "--core",
];

/// Each subcommand's `--help` lists the engine's options where it runs an
/// engine and not where it runs none (issue 43): `rate` has its own
/// `--seed` (the bootstrap's) and none of the others, `engines` none.
#[test]
fn help_lists_what_applies_to_each_subcommand() {
    let help = |sub: &str| {
        let (ok, out, err) = run(&[sub, "--help"], "");
        assert!(ok, "{sub} --help: {err}");
        out
    };
    for sub in [
        "uci", "xboard", "hub", "match", "play", "explain", "screen", "serve", "bench",
    ] {
        let out = help(sub);
        for option in ENGINE_OPTIONS {
            assert!(out.contains(option), "{sub} --help lacks {option}:\n{out}");
        }
    }
    let rate = help("rate");
    for option in &ENGINE_OPTIONS[1..] {
        assert!(
            !rate.contains(option),
            "rate --help lists {option}:\n{rate}"
        );
    }
    assert!(
        rate.contains("--seed") && rate.contains("bootstrap"),
        "{rate}"
    );
    let first = rate.lines().next().unwrap();
    assert!(first.contains("draws as halves"), "{first}");
    let engines = help("engines");
    for option in ENGINE_OPTIONS {
        assert!(
            !engines.contains(option),
            "engines --help lists {option}:\n{engines}"
        );
    }
}

/// An engine's options given before the subcommand still count, and
/// after it override them.
#[test]
fn engine_options_before_the_subcommand_still_count() {
    let screen = |args: &[&str]| {
        let (ok, out, err) = run(args, "");
        assert!(ok, "{args:?}: {err}");
        out
    };
    let before = screen(&["--seed", "3", "screen", "--play", "e7e5"]);
    let after = screen(&["screen", "--seed", "3", "--play", "e7e5"]);
    assert_eq!(before, after);
    let (ok, _, err) = run(&["--tape", "/nonexistent.p", "screen", "--seed", "3"], "");
    assert!(!ok && err.contains("/nonexistent.p"), "{err}");
}

#[test]
fn version_names_the_version_and_the_target() {
    let (ok, out, _) = run(&["--version"], "");
    assert!(ok);
    // "retrochess 0.1.0 (x86_64-unknown-linux-gnu)": the triple cargo built
    // for, which names this machine's architecture and system.
    let line = out.trim_end();
    let rest = line
        .strip_prefix(&format!("retrochess {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line:?}"));
    let arch = std::env::consts::ARCH;
    assert!(rest.starts_with(&format!("{arch}-")), "{rest:?} for {arch}");
    assert!(rest.contains(std::env::consts::OS), "{rest:?}");
    assert_eq!(rest.split('-').count(), 4, "a target triple: {rest:?}");
}
