//! `Seed` `random`: each new game (`ucinewgame`, `new`, `new-game`) draws a
//! fresh seed and says which (`info string seed N`, `# seed N`,
//! `info seed=N`), so the game can be replayed with `Seed` N; the default
//! stays one seed for every game.

use crate::common;
use crate::common::pipe::Engine;

fn seeds(out: &str, prefix: &str) -> Vec<u64> {
    out.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

/// Plays a move after 1. e4 e5 2. Nf3 with `Seed` `seed`, then starts another game:
/// (the seeds said, the move played).
fn session(seed: &str) -> (Vec<u64>, String) {
    let mut e = Engine::start(&["uci", "--engine", "chesskelet"]);
    e.send("uci");
    e.until_prefix("uciok");
    e.send(&format!("setoption name Seed value {seed}"));
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go wtime 60000 btime 60000");
    let mut lines = e.until_prefix("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    e.send("ucinewgame");
    e.send("isready");
    lines.extend(e.until_prefix("readyok"));
    e.send("quit");
    (seeds(&lines.join("\n"), "info string seed "), best)
}

#[test]
fn uci_draws_a_fresh_seed_each_game_and_the_seed_replays_it() {
    let (drawn, first) = session("random");
    assert_eq!(drawn.len(), 2, "{drawn:?}");
    assert_ne!(drawn[0], drawn[1]);
    let (again, replayed) = session(&drawn[0].to_string());
    assert_eq!(replayed, first, "Seed {} replays the game", drawn[0]);
    assert!(again.is_empty(), "a set seed is not redrawn: {again:?}");
}

/// Runs `retrochess ARGS` on `input`: two new games must say two different
/// seeds after `prefix`.
fn two_fresh_seeds(args: &[&str], input: &str, prefix: &str) {
    let (ok, out, err) = common::retrochess(args, input);
    assert!(ok, "{err}");
    let drawn = seeds(&out, prefix);
    assert!(drawn.len() == 2 && drawn[0] != drawn[1], "{out}");
}

#[test]
fn cecp_and_hub_say_the_seed_they_draw() {
    two_fresh_seeds(
        &["xboard", "--engine", "1k-zx-chess"],
        "xboard\nprotover 2\noption Seed=random\nnew\nnew\nquit\n",
        "# seed ",
    );
    two_fresh_seeds(
        &["hub", "--engine", "samuel-f8"],
        "hub\nset-param name=Seed value=random\ninit\nnew-game\nnew-game\nquit\n",
        "info seed=",
    );
    // The default: no seed drawn, none said.
    let (ok, out, _) = common::retrochess(&["hub"], "hub\ninit\nnew-game\nquit\n");
    assert!(ok && !out.contains("seed="), "{out}");
}

/// The front ends' own options from the command line (`--option
/// Seed=random`), for managers whose client refuses the value as an option
/// (python-chess refuses `random` for a spin, so lichess-bot passes it this
/// way): the same effect as the GUI setting it, over each protocol, and a
/// refused value is the program's error before any protocol starts.
#[test]
fn the_command_line_sets_the_front_ends_own_options() {
    // Detected from the first line, as lichess-bot starts it.
    two_fresh_seeds(
        &["--engine=chesskelet", "--core=own", "--option=Seed=random"],
        "uci\nucinewgame\nucinewgame\nisready\nquit\n",
        "info string seed ",
    );
    two_fresh_seeds(
        &[
            "xboard",
            "--engine",
            "1k-zx-chess",
            "--option",
            "Seed=random",
        ],
        "xboard\nprotover 2\nnew\nnew\nquit\n",
        "# seed ",
    );
    // The others show as the defaults the GUI sees, and a number seeds the
    // game as `--seed` does.
    let (ok, out, err) = common::retrochess(
        &[
            "uci",
            "--engine",
            "chesskelet",
            "--option",
            "IllegalMoves=resign",
            "--option",
            "authentictiming=on",
            "--option",
            "Seed=42",
        ],
        "uci\nquit\n",
    );
    assert!(ok, "{err}");
    for line in [
        "option name IllegalMoves type combo default resign var play var resign",
        "option name AuthenticTiming type check default true",
        "option name Seed type spin default 42 min 0 max 2147483647",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} missing:\n{out}");
    }
    // Refused before anything is read (no input: the pipe would be gone).
    let (ok, out, err) = common::retrochess(&["uci", "--option", "IllegalMoves=maybe"], "");
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("--option IllegalMoves=maybe") && err.contains("not one of play, resign"),
        "{err}"
    );
}
