//! python-chess's UCI client (`analysis(…, multipv=N)`) against every chess
//! engine: the program's candidates arrive as `multipv` lines that
//! python-chess, an independent judge, finds legal, numbered without gaps,
//! as many as the legal candidates (up to N), the first being the program's
//! move, and every candidate flagged illegal in an `info string` illegal
//! (`tests/peers/multipv.py`).

use retrochess::engines::{GameKind, catalogue};

use crate::common;

/// Positions with either side to move, a capture to weigh, a check to
/// answer, and a promotion.
const POSITIONS: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3
rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3
4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1
";

/// The number after `key=` in `line`.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

fn number(line: &str, key: &str) -> usize {
    field(line, key)
        .parse()
        .unwrap_or_else(|_| panic!("{key} in {line}"))
}

#[test]
fn python_chess_reads_every_chess_engines_candidates_as_multipv() {
    let python = common::python_chess();
    let ids = catalogue().iter().filter(|e| e.game == GameKind::Chess);
    for id in ids.map(|e| e.info.id) {
        for n in ["3", "500"] {
            let out = common::output_with_stdin(
                std::process::Command::new(&python)
                    .arg(common::repo("tests/peers/multipv.py"))
                    .args([env!("CARGO_BIN_EXE_retrochess"), id, n]),
                POSITIONS,
            );
            let (stdout, stderr) = (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
            );
            assert!(
                out.status.success(),
                "{id} MultiPV {n}:\n{stdout}\n{stderr}"
            );
            let results: Vec<&str> = stdout.lines().collect();
            if id.starts_with("chesskelet") {
                // Its king may be left en prise: the flagged path is used.
                assert!(
                    results
                        .iter()
                        .any(|l| number(l, "weighed") > number(l, "legal")),
                    "{id}: {stdout}"
                );
            }
            assert_eq!(results.len(), 4, "{id} MultiPV {n}: {stdout}");
            for line in results {
                let (lines, legal) = (number(line, "lines"), number(line, "legal"));
                assert!(number(line, "weighed") >= legal, "{id}: {line}");
                let want = legal.min(n.parse().unwrap());
                assert_eq!(lines, want, "{id} MultiPV {n}: {line}");
                assert!(
                    lines >= 2,
                    "{id} MultiPV {n}: the programs weigh several moves: {line}"
                );
            }
        }
    }
}
