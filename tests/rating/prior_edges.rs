//! `retrochess rate` at the prior's edges (`src/rating/unbounded.rs`, the
//! `prior` of `src/rating/mod.rs`): a clean sweep with `--prior 0` is
//! refused with its reason, as Ordo refuses it; with a prior, the output
//! says where the prior alone keeps a rating finite or moves it by more
//! than its interval's width. On the seeded default match's record
//! (`tests/fixtures/rating/chess-seed1.pgn`: 1K ZX Chess 20 of 20 against
//! ChesSkelet) and on files written here.

use std::path::PathBuf;

use crate::common;

fn seed1() -> String {
    common::repo("tests/fixtures/rating/chess-seed1.pgn")
        .display()
        .to_string()
}

/// `a` against `b`: `wins` won by `a` (colours alternating) and `draws`.
fn written(name: &str, wins: usize, draws: usize) -> PathBuf {
    let mut text = String::new();
    for k in 0..wins + draws {
        let (white, black) = if k % 2 == 0 { ("A", "B") } else { ("B", "A") };
        let result = match (k < wins, white) {
            (false, _) => "1/2-1/2",
            (true, "A") => "1-0",
            (true, _) => "0-1",
        };
        text += &format!(
            "[Event \"t\"]\n[Round \"{k}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        );
    }
    common::temp_file(name, text.as_bytes())
}

#[test]
fn a_clean_sweep_without_a_prior_is_refused_with_its_reason() {
    let file = seed1();
    let (ok, out, err) = common::retrochess(&["rate", "--prior", "0", &file], "");
    assert!(!ok, "rated: {out}");
    assert!(
        err.contains(
            "--prior 0: 1K ZX Chess won every one of its 20 games against the other players, \
             so without a prior the ratings have no maximum-likelihood value"
        ),
        "{err}"
    );
    assert!(err.contains("Ordo refuses"), "{err}");
    assert!(!err.contains("17476"), "no rating given: {err}");
    assert!(!out.contains("17476"), "no rating given: {out}");
    // The same for CSV: nothing printed as a rating.
    let (ok, out, _) = common::retrochess(&["rate", "--prior", "0", "--csv", &file], "");
    assert!(!ok && out.is_empty(), "{out}");
}

#[test]
fn with_the_default_prior_the_sweep_is_rated_and_the_prior_named_as_what_bounds_it() {
    let (ok, out, err) = common::retrochess(&["rate", &seed1()], "");
    assert!(ok, "{err}");
    let note = out
        .lines()
        .find(|l| l.starts_with("note:"))
        .unwrap_or_else(|| panic!("no note: {out}"));
    assert!(
        note.contains("1K ZX Chess won every one of its 20 games")
            && note.contains("only the prior of 2 virtual draws a pair keeps their ratings finite"),
        "{note}"
    );
    // Rated finitely, as the prior makes it: 400·log10(1 + 2·20/2) = 529
    // between the two, ±264 about the mean.
    let row = out
        .lines()
        .find(|l| l.contains("1K ZX Chess") && !l.starts_with("note:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains(" 264 "), "{row}");
}

#[test]
fn where_the_prior_moves_ratings_past_their_intervals_the_output_says_so() {
    // 99 wins and a draw: without the prior A is 400·log10(199)/2 = 460
    // above the mean; the prior's 2 draws make it 400·log10(67)/2 = 365,
    // more than its bootstrap interval is wide.
    let file = written("prior-moved.pgn", 99, 1);
    let file = file.display().to_string();
    let (ok, out, err) = common::retrochess(&["rate", &file], "");
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "note: the prior of 2 virtual draws a pair moved 2 ratings by more than the width of \
             their 95% interval: A 365 (without it 460), B -365 (without it -460)"
        ),
        "{out}"
    );
    // Without a prior the fit exists (B drew once) and is rated, with no note.
    let (ok, out, err) = common::retrochess(&["rate", "--prior", "0", &file], "");
    assert!(ok, "{err}");
    assert!(!out.contains("note:"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains(" A ") && l.contains(" 460 ")),
        "{out}"
    );
    // Where the prior moves nothing that far, no note.
    let even = written("prior-small.pgn", 12, 8).display().to_string();
    let (ok, out, err) = common::retrochess(&["rate", &even], "");
    assert!(ok, "{err}");
    assert!(!out.contains("note:"), "{out}");
}
