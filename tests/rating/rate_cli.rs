//! `retrochess rate` on PGN and PDN files written here from seeded draws of
//! the model, checked against `tests/peers/rate_reference.py` (choix for
//! Bradley–Terry with draws as halves; numpy/scipy for Davidson's draw
//! model), and on bad input.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::common;
use retrochess::rng::SplitMix64;

/// One game as PGN, with a short legal line and the result.
fn pgn_game(round: usize, white: &str, black: &str, result: &str) -> String {
    format!(
        "[Event \"rating test\"]\n[Site \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n"
    )
}

/// Games drawn from Davidson's model: `elo` of each player, `nu`, `games`
/// per pair in `pairs`. Results as PGN tokens, White first.
fn draw_games(
    seed: u64,
    elo: &[f64],
    nu: f64,
    pairs: &[(usize, usize)],
    games: usize,
) -> Vec<(usize, usize, &'static str)> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for &(a, b) in pairs {
        for g in 0..games {
            let (w, bl) = if g % 2 == 0 { (a, b) } else { (b, a) };
            let (pw, pb) = (10f64.powf(elo[w] / 400.0), 10f64.powf(elo[bl] / 400.0));
            let pd = nu * (pw * pb).sqrt();
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * (pw + pb + pd);
            let result = if u < pw {
                "1-0"
            } else if u < pw + pd {
                "1/2-1/2"
            } else {
                "0-1"
            };
            out.push((w, bl, result));
        }
    }
    out
}

fn write(name: &str, text: &str) -> PathBuf {
    common::temp_file(name, text.as_bytes())
}

/// `retrochess rate --csv`: name → Elo.
fn ours(model: &str, files: &[PathBuf]) -> BTreeMap<String, f64> {
    let mut args = vec![
        "rate",
        "--csv",
        "--bootstrap",
        "0",
        "--prior",
        "2",
        "--model",
        model,
    ];
    let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(files.iter().map(String::as_str));
    let (ok, out, err) = common::retrochess(&args, "");
    assert!(ok, "{err}");
    out.lines()
        .skip(1)
        .map(|l| {
            let (name, rest) = l[1..].split_once("\",").unwrap();
            (
                name.to_string(),
                rest.split(',').next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

/// The reference over every fixture at once (python starts slowly):
/// (fixture, model) → (name → Elo, ν).
type Reference = BTreeMap<(String, String), (BTreeMap<String, f64>, f64)>;

fn reference(fixtures: &[(&str, Vec<PathBuf>)]) -> Reference {
    let mut args = vec!["2".to_string()];
    for (name, files) in fixtures {
        args.push(name.to_string());
        let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        args.push(files.join(","));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, err) = common::peer_script("rate_reference.py", &args, "");
    assert!(
        ok,
        "rate_reference.py failed (it needs choix==0.4.1, which scripts/test installs):\n{err}"
    );
    let mut all = Reference::new();
    for l in out.lines() {
        let mut f = l.splitn(3, ',');
        let (fixture, model, rest) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let (name, v) = rest.rsplit_once(',').unwrap();
        let entry = all
            .entry((fixture.to_string(), model.to_string()))
            .or_insert_with(|| (BTreeMap::new(), f64::NAN));
        match name {
            "nu" => entry.1 = v.parse().unwrap(),
            _ => {
                entry.0.insert(name.to_string(), v.parse().unwrap());
            }
        }
    }
    all
}

/// The fixtures: (name, files).
fn fixtures() -> Vec<(&'static str, Vec<PathBuf>)> {
    let mut out = Vec::new();
    // A perfect score (A 12 of 12 against B), no draws at all.
    let mut text = String::new();
    let decisive = [(0, 1, 12, 0), (1, 2, 5, 4), (0, 2, 8, 0)];
    let names = ["Alpha", "Bravo", "Charlie"];
    let mut round = 0;
    for (a, b, wins, losses) in decisive {
        for k in 0..wins + losses {
            round += 1;
            let r = if k < wins { "1-0" } else { "0-1" };
            text += &pgn_game(round, names[a], names[b], r);
        }
    }
    out.push(("perfect", vec![write("perfect.pgn", &text)]));
    // Six players, every pair, many draws; the second file writes the names
    // with other spaces and case.
    let elo = [0.0, 100.0, 150.0, 300.0, 320.0, 500.0];
    let names = ["1K ZX Chess", "ChesSkelet", "Random mover", "D", "E", "F"];
    let odd = [
        " 1k  zx chess",
        "CHESSKELET",
        "random   mover",
        "d",
        "e",
        "f",
    ];
    let pairs: Vec<(usize, usize)> = (0..6)
        .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
        .collect();
    let games = draw_games(7, &elo, 0.8, &pairs, 16);
    let (mut first, mut second) = (String::new(), String::new());
    for (k, (w, b, r)) in games.iter().enumerate() {
        if k % 2 == 0 {
            first += &pgn_game(k, names[*w], names[*b], r);
        } else {
            second += &pgn_game(k, odd[*w], odd[*b], r);
        }
    }
    out.push((
        "draws",
        vec![write("draws-1.pgn", &first), write("draws-2.pgn", &second)],
    ));
    // Eight players in a chain, each meeting only its neighbours.
    let elo: Vec<f64> = (0..8).map(|i| 120.0 * f64::from(i)).collect();
    let chain: Vec<(usize, usize)> = (0..7).map(|i| (i, i + 1)).collect();
    let mut text = String::new();
    for (k, (w, b, r)) in draw_games(11, &elo, 0.3, &chain, 20).iter().enumerate() {
        text += &pgn_game(k, &format!("P{w}"), &format!("P{b}"), r);
    }
    out.push(("chain", vec![write("chain.pgn", &text)]));
    // Draughts: PDN, where 1-0 is a win for Black (who moves first).
    let mut text = String::new();
    for (k, (w, b, r)) in draw_games(13, &[0.0, 200.0, 250.0], 2.0, &[(0, 1), (1, 2), (0, 2)], 20)
        .iter()
        .enumerate()
    {
        let pdn = match *r {
            "1-0" => "0-1",
            "0-1" => "1-0",
            d => d,
        };
        let _ = write!(
            text,
            "[Event \"t\"]\n[Round \"{k}\"]\n[Black \"Q{b}\"]\n[White \"Q{w}\"]\n[Result \"{pdn}\"]\n\
             [GameType \"21\"]\n1. 11-15 23-19 {pdn}\n\n"
        );
    }
    out.push(("draughts", vec![write("draughts.pdn", &text)]));
    out
}

#[test]
fn ratings_agree_with_choix_and_a_scipy_davidson_within_one_elo() {
    let fixtures = fixtures();
    let reference = reference(&fixtures);
    for (name, files) in &fixtures {
        for model in ["halves", "davidson"] {
            let ours = ours(model, files);
            let (theirs, nu) = &reference[&(name.to_string(), model.to_string())];
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>(),
                "{name} {model}: the same players"
            );
            let worst = ours
                .iter()
                .map(|(p, e)| (e - theirs[p]).abs())
                .fold(0.0, f64::max);
            eprintln!(
                "{name:>8} {model:>8}: {} players, largest difference {worst:.4} Elo, nu {nu:.4}; {ours:.1?}",
                ours.len()
            );
            assert!(
                worst < 1.0,
                "{name} {model}: ours {ours:?}, reference {theirs:?}"
            );
        }
    }
}

#[test]
fn bad_input_is_named_and_the_rest_is_rated() {
    let mut good = String::new();
    for k in 0..6 {
        let r = ["1-0", "1/2-1/2", "0-1"][k % 3];
        good += &pgn_game(k, "Alpha", "Bravo", r);
    }
    good += &pgn_game(7, "Alpha", "Bravo", "1-0");
    // Two players who never met Alpha or Bravo.
    good += &pgn_game(8, "Charlie", "Delta", "1-0");
    let variant_at = good.lines().count() + 1;
    good +=
        &pgn_game(9, "Alpha", "Bravo", "1-0").replace("[Result", "[Variant \"Chess960\"]\n[Result");
    let broken_at = good.lines().count() + 1;
    good += "[White \"Alpha\"]\n[Black Bravo]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n";
    let unfinished_at = good.lines().count() + 1;
    good += &pgn_game(10, "Alpha", "Bravo", "*");
    let good = write("good.pgn", &good);
    let empty = write("empty.pgn", "");
    let missing = good.with_file_name("missing.pgn");
    let [g, e, m] = [&good, &empty, &missing].map(|p| p.display().to_string());
    // The good file twice: its games count once.
    let (ok, out, err) =
        common::retrochess(&["rate", "--anchor", "alpha=1000", &g, &e, &m, &g], "");
    assert!(ok, "{err}");
    for line in [
        format!("{e}: empty"),
        format!("{m}: cannot read it: "),
        format!("{g}:{variant_at}: another variant: Variant \"Chess960\", not standard chess"),
        format!("{g}:{}: not a tag: [Black Bravo]", broken_at + 1),
        format!("{g}:{unfinished_at}: unfinished (*)"),
        "Charlie has no games linking it to the anchor Alpha's group: not rated".to_string(),
        "Delta has no games linking it to the anchor Alpha's group: not rated".to_string(),
    ] {
        assert!(err.contains(&line), "{line:?} not in\n{err}");
    }
    assert!(
        out.starts_with("7 games of 2 players from 4 files, 8 duplicates counted once, 8 skipped"),
        "{out}"
    );
    let alpha = out
        .lines()
        .find(|l| l.trim_start().starts_with("1  Alpha"))
        .unwrap();
    assert!(alpha.split_whitespace().nth(2) == Some("1000"), "{out}");
    assert!(!out.contains("Charlie"), "{out}");
    // An anchor naming nobody: said, and the mean is 0.
    let (ok, out, err) = common::retrochess(&["rate", "--anchor", "Nobody=1350", &g], "");
    assert!(ok, "{err}");
    assert!(
        err.contains("--anchor: nobody called \"Nobody\" played (the players: Alpha, Bravo, Charlie, Delta); the mean is 0 instead"),
        "{err}"
    );
    assert!(out.contains("mean 0"), "{out}");
    // Nothing to rate at all: an error, with the reasons.
    let (ok, _, err) = common::retrochess(&["rate", &e, &m], "");
    assert!(!ok && err.contains("no game to rate"), "{err}");
}

/// A stray `)`, `}` or `]` in the movetext is an error of that game, named
/// with its line; it once stopped the scan from moving on, and `rate` hung.
#[test]
fn stray_delimiters_are_named_and_do_not_hang() {
    let mut text = pgn_game(1, "Alpha", "Bravo", "1-0");
    for (k, stray) in [")", "}", "]"].into_iter().enumerate() {
        text += &format!(
            "[White \"Alpha\"]\n[Black \"Bravo\"]\n[Result \"0-1\"]\n\n1. e4 {stray} e5 0-1\n\n"
        );
        text += &pgn_game(2 + k, "Alpha", "Bravo", "1/2-1/2");
    }
    let file = write("stray.pgn", &text);
    let f = file.display().to_string();
    let (ok, out, err) = common::retrochess(&["rate", &f], "");
    assert!(ok, "{err}");
    for stray in [")", "}", "]"] {
        assert!(
            err.contains(&format!("unexpected \"{stray}\"")),
            "{stray}: {err}"
        );
    }
    assert!(out.starts_with("4 games of 2 players"), "{out}");
}
