//! `retrochess match`: the real binary, the real engines, real external
//! peers (Debian's fairymax and stockfish, installed by scripts/test), and small
//! misbehaving engines.

use crate::common::{self, standings_row};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::repo;
use retrochess::runner::openings::read_pgn;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrochess-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn run_match(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A match between two random movers, with `args`.
fn random_match(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["--engine", "random", "--engine", "random"];
    all.extend_from_slice(args);
    run_match(&all)
}

/// The `--engine` spec of tests/peers/misbehaving_uci.py in `mode`, named `mode`.
fn misbehaving(mode: &str) -> String {
    format!(
        "cmd={},arg={},arg={mode},proto=uci,name={mode}",
        common::python(),
        repo("tests/peers/misbehaving_uci.py").display()
    )
}

/// python-chess's verdict on a PGN file: one "result termination plies" line per game.
fn python_check(pgn: &Path) -> Vec<String> {
    let out = Command::new(common::python_chess())
        .arg(repo("tests/peers/check_pgn.py"))
        .arg(pgn)
        .output()
        .expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "python-chess rejects {}:\n{text}{}",
        pgn.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .filter(|l| !l.starts_with("games:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn default_match_plays_20_games_with_valid_pgn_and_standings() {
    let pgn = temp("default.pgn");
    let (ok, out, err) = run_match(&["--pgn", pgn.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (g1, w1, d1, l1) = standings_row(&out, "1K ZX Chess");
    let (g2, w2, d2, l2) = standings_row(&out, "ChesSkelet");
    assert_eq!((g1, g2), (20, 20));
    assert_eq!((w1, d1, l1), (l2, d2, w2), "the two rows mirror each other");
    assert!(out.contains("20 games in"));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = read_pgn(&text).unwrap();
    assert_eq!(games.len(), 20);
    // Each of the 10 built-in openings twice, colours reversed.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].tag("Opening"), pair[1].tag("Opening"));
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
    }
    let checked = python_check(&pgn);
    assert_eq!(checked.len(), 20);
    // Results in the PGN add up to the table.
    let white_wins = games
        .iter()
        .filter(|g| g.tag("Result") == Some("1-0") && g.tag("White") == Some("1K ZX Chess"))
        .count();
    let black_wins = games
        .iter()
        .filter(|g| g.tag("Result") == Some("0-1") && g.tag("Black") == Some("1K ZX Chess"))
        .count();
    assert_eq!((white_wins + black_wins) as u32, w1);
    // ChesSkelet's illegal moves are flagged with the arbiter's reason.
    for g in games
        .iter()
        .filter(|g| g.tag("Termination") == Some("rules infraction"))
    {
        let loser_is_white = g.tag("Result") == Some("0-1");
        let loser = if loser_is_white {
            g.tag("White")
        } else {
            g.tag("Black")
        }
        .unwrap();
        let needle = format!("{{{loser} plays the illegal move ");
        assert!(
            text.contains(&needle),
            "no comment for an illegal move by {loser}"
        );
    }
}

/// The comments of a PGN text, in order.
fn comments(pgn: &str) -> Vec<String> {
    let flat = pgn.replace('\n', " ");
    flat.split('{')
        .skip(1)
        .filter_map(|c| c.split_once('}').map(|(c, _)| c.to_string()))
        .collect()
}

/// Whether `c` is a move comment as `runner::record` documents it:
/// `[+-]P.PP T.Ts, N nodes, tape|typed KEYS|injected|native`.
fn is_move_note(c: &str) -> bool {
    let c = match c.split_once(' ') {
        Some((score, rest)) if score.starts_with(['+', '-']) => {
            if score[1..].parse::<f64>().is_err() || !score.contains('.') {
                return false;
            }
            rest
        }
        _ => c,
    };
    let parts: Vec<&str> = c.split(", ").collect();
    let [time, nodes, path] = parts[..] else {
        return false;
    };
    time.strip_suffix('s')
        .is_some_and(|t| t.parse::<f64>().is_ok())
        && nodes
            .strip_suffix(" nodes")
            .is_some_and(|n| n.parse::<u64>().is_ok())
        && (["tape", "injected", "native"].contains(&path) || path.starts_with("typed "))
}

#[test]
fn each_retro_move_keeps_its_cost_as_a_comment_and_no_comments_leaves_them_out() {
    let with = temp("comments.pgn");
    let without = temp("no-comments.pgn");
    for (p, extra) in [(&with, None), (&without, Some("--no-comments"))] {
        let mut args = vec!["--games", "2", "--seed", "3", "--pgn", p.to_str().unwrap()];
        args.extend(extra);
        let (ok, _, err) = run_match(&args);
        assert!(ok, "{err}");
    }
    // The same games, read by python-chess with the comments and without.
    assert_eq!(python_check(&with), python_check(&without));
    let text = std::fs::read_to_string(&with).unwrap();
    let plain = std::fs::read_to_string(&without).unwrap();
    let games = read_pgn(&text).unwrap();
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    let notes = comments(&text);
    let moves: Vec<&String> = notes.iter().filter(|c| is_move_note(c)).collect();
    // Both players are retro engines: every move played by them, not the
    // opening's, has its note; the rest are the endings' reasons.
    let endings = comments(&plain);
    assert_eq!(endings.len(), games.len(), "{plain}");
    assert!(!endings.iter().any(|c| is_move_note(c)), "{plain}");
    assert_eq!(moves.len() + endings.len(), notes.len(), "{notes:?}");
    assert!(
        moves.len() + 10 * games.len() >= plies && moves.len() < plies,
        "{} notes for {plies} plies: {text}",
        moves.len()
    );
    assert!(
        moves.iter().any(|c| c.contains(" nodes, typed ")),
        "{moves:?}"
    );
    assert!(moves.iter().any(|c| c.starts_with(['+', '-'])), "{moves:?}");
}

#[test]
fn same_seed_same_pgn_and_other_seeds_differ() {
    let a = temp("a.pgn");
    let b = temp("b.pgn");
    let c = temp("c.pgn");
    for (p, seed) in [(&a, "5"), (&b, "5"), (&c, "6")] {
        let (ok, _, err) = run_match(&[
            "--engine",
            "1k-zx-chess",
            "--engine",
            "random",
            "--games",
            "4",
            "--seed",
            seed,
            "--concurrency",
            "2",
            "--pgn",
            p.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
    }
    let (a, b, c) = (
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        std::fs::read(c).unwrap(),
    );
    assert_eq!(a, b, "byte-identical PGN for the same seed and arguments");
    assert_ne!(a, c, "the seed drives the random mover and the machines");
}

#[test]
fn illegal_moves_forfeit_or_are_flagged_and_asked_again() {
    let forfeit = temp("forfeit.pgn");
    let cont = temp("continue.pgn");
    let args = |p: &Path, policy: &str| {
        vec![
            "--engine".to_string(),
            "chesskelet".into(),
            "--engine".into(),
            "1k-zx-chess".into(),
            "--games".into(),
            "6".into(),
            "--illegal".into(),
            policy.into(),
            "--pgn".into(),
            p.to_str().unwrap().into(),
        ]
    };
    let (ok, out, err) = run_match(
        &args(&forfeit, "forfeit")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&forfeit).unwrap();
    let infractions = text.matches("[Termination \"rules infraction\"]").count();
    assert!(
        infractions > 0,
        "ChesSkelet, which has no check test, plays illegal moves:\n{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("ChesSkelet") && l.contains("leaves king in check")),
        "{out}"
    );
    assert!(!text.contains("asked again"));
    let (ok, _, err) = run_match(
        &args(&cont, "continue")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&cont).unwrap();
    assert!(
        text.contains("not played, asked again"),
        "continue flags and asks again"
    );
    python_check(&cont);
}

#[test]
fn max_plies_adjudicates_a_draw() {
    let pgn = temp("maxplies.pgn");
    let (ok, out, err) = random_match(&[
        "--games",
        "2",
        "--max-plies",
        "12",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"adjudication\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("{draw: maximum of 12 plies} 1/2-1/2"));
    assert_eq!(
        standings_row(&out, "Random mover (2)"),
        (2, 0, 2, 0),
        "a repeated name is made unique"
    );
    assert_eq!(standings_row(&out, "Random mover "), (2, 0, 2, 0));
}

#[test]
fn openings_from_an_epd_file() {
    let epd = temp("openings.epd");
    std::fs::write(&epd, "4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn ending\";\n").unwrap();
    let pgn = temp("epd.pgn");
    let (ok, _, err) = run_match(&[
        "--engine",
        "1k-zx-chess",
        "--engine",
        "random",
        "--games",
        "2",
        "--openings",
        epd.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]")
            .count(),
        2
    );
    assert_eq!(text.matches("[Opening \"pawn ending\"]").count(), 2);
    python_check(&pgn);
    let (ok, _, err) = run_match(&["--openings", "/nonexistent.epd"]);
    assert!(!ok && err.contains("/nonexistent.epd"), "{err}");
}

#[test]
fn crashing_and_stalling_engines_lose_without_killing_the_match() {
    let spec = misbehaving;
    let pgn = temp("misbehaving.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        "random",
        "--engine",
        &spec("crash"),
        "--engine",
        &spec("stall"),
        "--engine",
        &spec("mute"),
        "--games",
        "2",
        "--tc",
        "0.5+0",
        "--startup",
        "1",
        "--concurrency",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "the match survives: {err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(read_pgn(&text).unwrap().len(), 12, "6 pairings × 2 games");
    assert!(text.contains("crash disconnects"), "{text}");
    assert!(
        text.contains("stall stalls: no move within its 0.50 s left"),
        "{text}"
    );
    assert!(
        text.contains("mute could not start: mute did not answer uci within 1.0 s"),
        "{text}"
    );
    // Against the random mover, each misbehaving engine loses both games.
    for name in ["crash", "stall", "mute"] {
        let (games, _, _, _) = standings_row(&out, name);
        assert_eq!(games, 6);
    }
    assert_eq!(standings_row(&out, "Random mover"), (6, 6, 0, 0));
}

/// Two games of a retro engine against a Debian engine through the
/// runner's external-engine path; returns the table and python-chess's
/// per-game lines.
fn against_debian_engine(retro: &str, spec: &str, tc: &str) -> (String, Vec<String>) {
    let pgn = temp(&format!("{retro}-external.pgn"));
    let (ok, out, err) = run_match(&[
        "--engine",
        retro,
        "--engine",
        spec,
        "--games",
        "2",
        "--tc",
        tc,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(!out.contains("could not start"), "{out}");
    let checked = python_check(&pgn);
    assert_eq!(checked.len(), 2);
    (out, checked)
}

#[test]
fn one_k_zx_chess_against_fairymax_over_cecp() {
    let fairymax = common::peer("fairymax");
    let (out, checked) = against_debian_engine(
        "1k-zx-chess",
        &format!("cmd={},proto=xboard", fairymax.display()),
        "5+0.05",
    );
    assert!(
        checked.iter().all(|l| !l.contains("abandoned")),
        "fairymax played both games: {checked:?}\n{out}"
    );
    assert!(
        checked
            .iter()
            .all(|l| l.split_whitespace().nth(2).unwrap().parse::<u32>().unwrap() > 8)
    );
}

#[test]
fn chesskelet_against_stockfish_at_minimum_strength_over_uci() {
    let stockfish = common::peer("stockfish");
    let spec = format!(
        "cmd={},proto=uci,option.Skill Level=0,name=Stockfish",
        stockfish.display()
    );
    let (out, _) = against_debian_engine("chesskelet", &spec, "2+0.05");
    assert_eq!(standings_row(&out, "Stockfish").0, 2);
}

#[test]
fn numbers_from_the_command_line_saturate_or_are_refused() {
    for (args, message) in [
        (
            &["--tc", "1e300"][..],
            "time control \"1e300\" too long: at most 2147483 s (use inf for no clock)",
        ),
        (&["--tc", "10+1e19"], "too long"),
        (&["--startup", "NaN"], "--startup must be a positive number"),
        (
            &["--concurrency", "0"],
            "--concurrency must be from 1 to 256",
        ),
        (
            &["--concurrency", "100000"],
            "--concurrency must be from 1 to 256",
        ),
        (
            &["--games", "18446744073709551615", "--rounds", "2"],
            "too many games: 2 players, 18446744073709551615 games, 2 rounds",
        ),
    ] {
        let (ok, _, err) = run_match(args);
        assert!(!ok && err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A start-up time past what a clock can hold is no limit: the engine
    // starts, and the game ends as that engine makes it end.
    let pgn = temp("startup.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        "random",
        "--engine",
        &misbehaving("crash"),
        "--games",
        "2",
        "--startup",
        "1e19",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok && !err.contains("panicked"), "{err}");
    assert_eq!(standings_row(&out, "crash"), (2, 0, 0, 2), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("crash disconnects").count(), 2, "{text}");
    let (ok, out, err) = run_match(&["--startup", "1e300", "--games", "2"]);
    assert!(ok && out.contains("2 games in"), "{err}");
}

#[test]
fn a_long_match_costs_no_memory_up_front() {
    // A hundred million games: the schedule is computed a game at a time,
    // and finished games are not kept.
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["match", "--engine", "random", "--engine", "random"])
        .args(["--games", "100000000", "--max-plies", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in\n{status}"));
    assert!(rss_kb < 64 * 1024, "{rss_kb} kB resident after 2 s");
}

/// A match whose first two games wait on an engine that never moves (for
/// 60 s), while its third, between two random movers, ends at once.
fn match_with_slow_first_games(pgn: &Path) -> Child {
    let _ = std::fs::remove_file(journal_of(pgn));
    Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .arg("match")
        .args(["--engine", &misbehaving("stall")])
        .args(["--engine", "random", "--engine", "random"])
        .args(["--games", "1", "--tc", "60", "--concurrency", "3"])
        .arg("--pgn")
        .arg(pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn journal_of(pgn: &Path) -> PathBuf {
    PathBuf::from(format!("{}.journal", pgn.display()))
}

/// How long a wait may last before the test fails instead of hanging.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// Waits until `done` holds; after `limit` the test fails rather than hang
/// (a guard against a runner that never gets there, not a speed check:
/// the limits are minutes, far past what a loaded machine takes).
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what} after {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name}");
}

#[test]
fn sigint_and_sigterm_write_every_finished_game() {
    for sig in ["INT", "TERM"] {
        let pgn = temp(&format!("sig{sig}.pgn"));
        let mut child = match_with_slow_first_games(&pgn);
        // Game 3 has finished and waits behind games 1 and 2.
        wait_until(HANG_GUARD, "no journal", || journal_of(&pgn).exists());
        assert_eq!(
            std::fs::read_to_string(&pgn).unwrap(),
            "",
            "game 1 is not over"
        );
        signal(&child, sig);
        // The games in flight are not waited for: that they are not in the
        // record (below) is the evidence, not how soon the runner ends.
        wait_until(HANG_GUARD, "still running", || {
            child.try_wait().unwrap().is_some()
        });
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(!out.status.success(), "{stdout}{stderr}");
        assert!(
            stderr.contains("interrupted: 1 finished game recorded, the games in flight not"),
            "{sig}: {stderr}"
        );
        assert_eq!(
            standings_row(&stdout, "Random mover "),
            (1, 0, 1, 0),
            "{stdout}"
        );
        assert_eq!(standings_row(&stdout, "stall"), (0, 0, 0, 0), "{stdout}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        let games = read_pgn(&text).unwrap();
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(games[0].tag("Black"), Some("Random mover (2)"));
        assert!(!journal_of(&pgn).exists(), "the journal is gone");
        python_check(&pgn);
    }
}

#[test]
fn after_a_kill_only_the_games_in_flight_are_lost() {
    let pgn = temp("killed.pgn");
    let mut child = match_with_slow_first_games(&pgn);
    wait_until(HANG_GUARD, "no journal", || journal_of(&pgn).exists());
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "");
    let journal = std::fs::read_to_string(journal_of(&pgn)).unwrap();
    let kept = read_pgn(&journal).unwrap();
    assert_eq!(kept.len(), 1, "game 3 survives the kill: {journal}");
    // The next match with the same file appends it first.
    let (ok, out, err) = random_match(&[
        "--games",
        "2",
        "--max-plies",
        "4",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("1 finished game a killed match left in its journal"),
        "{err}"
    );
    assert!(out.contains("2 games in"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let record = journal.split_once('\n').unwrap().1;
    assert!(text.starts_with(record), "{text}");
    assert_eq!(read_pgn(&text).unwrap().len(), 3);
    assert!(!journal_of(&pgn).exists());
    python_check(&pgn);
}

#[test]
fn a_full_disk_stops_the_match_with_the_standings_so_far() {
    let (ok, out, err) = run_match(&["--games", "40", "--pgn", "/dev/full"]);
    assert!(!ok);
    assert!(
        err.contains(
            "cannot write /dev/full: No space left on device (os error 28); the match stopped there"
        ),
        "{err}"
    );
    let (games, ..) = standings_row(&out, "1K ZX Chess");
    assert!((1..40).contains(&games), "stopped at once: {out}");
    assert!(out.contains("0 of them in /dev/full"), "{out}");
}

#[test]
fn a_record_that_does_not_fit_is_cut_away_whole() {
    // A 5000-byte file size limit (with SIGXFSZ ignored, writes past it
    // fail with EFBIG): a small file system, as far as the runner can tell.
    let pgn = temp("small.pgn");
    let limit = "import resource, signal, os, sys\n\
                 signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n\
                 resource.setrlimit(resource.RLIMIT_FSIZE, (5000, 5000))\n\
                 os.execvp(sys.argv[1], sys.argv[1:])";
    let out = Command::new(common::python())
        .args(["-c", limit, env!("CARGO_BIN_EXE_retrochess"), "match"])
        .args(["--engine", "random", "--engine", "random", "--games", "6"])
        .args(["--concurrency", "1", "--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success());
    assert!(
        stderr.contains("File too large") && stderr.contains("the match stopped there"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = read_pgn(&text).unwrap();
    assert!(!games.is_empty() && text.len() < 5000, "{}", text.len());
    assert!(text.ends_with("\n\n"), "ends with a whole record");
    assert_eq!(text.matches("[Event ").count(), games.len());
    for g in &games {
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
        assert!(g.result.is_some(), "every record has its result");
    }
    // The game that did not fit is in the standings, not in the file.
    let (played, ..) = standings_row(&stdout, "Random mover ");
    assert_eq!(played as usize, games.len() + 1, "{stdout}");
    assert!(
        stdout.contains(&format!("{} of them in", games.len())),
        "{stdout}"
    );
    python_check(&pgn);
}

#[test]
fn an_endless_line_is_a_protocol_fault_and_bad_text_only_that_lines_problem() {
    let spec = misbehaving;
    let pgn = temp("flood.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        "random",
        "--engine",
        &spec("flood"),
        "--games",
        "2",
        "--tc",
        "30",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // Faulted at once, not stalled out: the record names the long line, not
    // a stall (below).
    assert_eq!(standings_row(&out, "flood"), (2, 0, 0, 2), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("{flood breaks the protocol: a line longer than 65536 bytes}")
            .count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.matches("[Termination \"rules infraction\"]").count(),
        2
    );
    // Latin-1 bytes in `id author` and an `info string`: the engine plays on.
    let epd = temp("start.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    let pgn = temp("latin1.pgn");
    let (ok, out, err) = run_match(&[
        "--engine",
        &spec("latin1"),
        "--engine",
        "random",
        "--games",
        "1",
        "--max-plies",
        "1",
        "--openings",
        epd.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(standings_row(&out, "latin1"), (1, 0, 1, 0), "{out}");
    assert!(
        err.contains(
            "latin1 sent a line that is not UTF-8 text, read as \"id author Andr\u{FFFD}\""
        ),
        "{err}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("1. e4 {draw: maximum of 1 plies} 1/2-1/2"),
        "{text}"
    );
}

#[test]
fn a_byte_order_mark_keeps_pgn_openings_pgn_and_empty_engine_settings_are_refused() {
    let openings = temp("bom.pgn");
    std::fs::write(
        &openings,
        "\u{FEFF}[Event \"x\"]\n[Opening \"Two Knights\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *\n",
    )
    .unwrap();
    let pgn = temp("bom-out.pgn");
    let (ok, _, err) = random_match(&[
        "--games",
        "2",
        "--max-plies",
        "8",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Opening \"Two Knights\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4."), "{text}");
    for (spec, message) in [
        ("cmd=,proto=uci", "cmd= is empty in \"cmd=,proto=uci\""),
        ("cmd=stockfish,proto=uci,name=", "name= is empty"),
    ] {
        let (ok, _, err) = run_match(&["--engine", "random", "--engine", spec]);
        assert!(!ok && err.contains(message), "{spec}: {err}");
    }
}

#[test]
fn sigint_amid_quick_games_writes_exactly_the_games_it_counts() {
    // Games that end in milliseconds: the workers abandon theirs at once,
    // and every game the table counts is in the file.
    let pgn = temp("sigquick.pgn");
    let _ = std::fs::remove_file(journal_of(&pgn));
    let child = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["match", "--games", "100000", "--concurrency", "2", "--pgn"])
        .arg(&pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until(HANG_GUARD, "no game written", || {
        std::fs::metadata(&pgn).is_ok_and(|m| m.len() > 10_000)
    });
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stderr.contains("interrupted: "), "{stderr}");
    let (counted, ..) = standings_row(&stdout, "1K ZX Chess");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(read_pgn(&text).unwrap().len(), counted as usize, "{stdout}");
    assert!(!journal_of(&pgn).exists());
}
