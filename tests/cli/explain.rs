//! `retrochess explain`: bad requests get specific errors; every engine's
//! table shows the candidates the emulated program weighed, ranked as it
//! ranks them, with the move it played first and each verdict agreeing with
//! an independent judge (python-chess, pydraughts).

use crate::common::retrochess as run;

#[test]
fn bad_requests_get_specific_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["explain", "--moves", "e2e4 e7e6 e1e3"],
            "move 3 e1e3 is illegal: not a legal king move from e1 to e3",
        ),
        (
            &["explain", "--moves", "e2e4 zz"],
            "move 2 \"zz\" is not a move",
        ),
        (&["explain", "--fen", "8/8/8/8 w"], "--fen: "),
        (
            &["explain", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"],
            "--fen: ",
        ),
        (
            &["explain", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"],
            "the game is over (stalemate): there is no move to explain",
        ),
        (&["explain", "--engine", "nope"], "unknown engine \"nope\""),
        (
            &["explain", "--rules", "english"],
            "--rules english: 1k-zx-chess plays chess",
        ),
        (
            &["explain", "-e", "samuel-f8", "--rules", "polish"],
            "--rules: ",
        ),
        (
            &["explain", "-e", "draughts-1k", "--moves", "11-15 11-15"],
            "move 2 11-15 is illegal",
        ),
        (
            &["explain", "-e", "samuel-f8", "--fen", "B:WK1:B"],
            "the game is over",
        ),
    ];
    for (args, want) in cases {
        let (ok, out, err) = run(args, "");
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
