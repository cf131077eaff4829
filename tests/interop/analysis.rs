//! Analysis with independent clients: python-chess's XBoard client runs its
//! own CECP analysis (`analyze`, `.`, `exit`) against every chess engine
//! (`tests/peers/xboard_analysis.py`), and pydraughts's Hub client reads
//! `go analyze` from every draughts engine (`tests/peers/hub_analysis.py`).
//! Each client judges the program's candidates by its own rules: several
//! lines, each a legal move, as many as retrochess counts legal, illegal
//! ones never in a pv, the program's choice last and the same as the move
//! it plays. Fails until the drivers report candidates.

use retrochess::engines::{GameKind, catalogue};

use crate::common;

/// Positions with either side to move, a capture to weigh, a check to
/// answer, and a promotion.
const CHESS: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3
rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3
4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1
";

/// English checkers with no capture on, where every draughts program's
/// moves are those of the English rules: the start (Black to move), after
/// 11-15 (White), and two middle games. (Toni Baker's program hangs at
/// 0x4DF9 with a black man on 16 and white men on 18 and 22 or 17 and
/// 21, so those are left out.)
const DRAUGHTS: [&str; 4] = [
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    "B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15",
    "W:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,12,14,15",
];

/// The number after `key=` in `line`.
fn number(line: &str, key: &str) -> usize {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

/// Each result line of a peer: several lines, as many as the legal
/// candidates, the analysis's best move the one played (`played`/`think`),
/// unless the program's choice is illegal (`played=illegal:X`).
fn check_results(what: &str, stdout: &str, positions: usize, played: &str) {
    let results: Vec<&str> = stdout.lines().collect();
    assert_eq!(results.len(), positions, "{what}: {stdout}");
    for line in results {
        assert!(number(line, "lines") >= 2, "{what}: {line}");
        assert_eq!(
            number(line, "lines"),
            number(line, "legal"),
            "{what}: {line}"
        );
        assert!(
            number(line, "weighed") >= number(line, "legal"),
            "{what}: {line}"
        );
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
                .unwrap_or_else(|| panic!("{what}: no {key}= in {line}"))
        };
        match field(played).strip_prefix("illegal:") {
            // The program's choice is illegal: flagged (the peer checked),
            // never a pv.
            Some(illegal) => assert!(
                !field("pvs").split(',').any(|pv| pv == illegal),
                "{what}: {line}"
            ),
            None => assert_eq!(field("best"), field(played), "{what}: {line}"),
        }
        assert!(field("pvs").ends_with(field("best")), "{what}: {line}");
    }
}

#[test]
fn python_chess_analyses_with_every_chess_engine_over_cecp() {
    let python = common::python_chess();
    let ids = catalogue().iter().filter(|e| e.game == GameKind::Chess);
    for id in ids.map(|e| e.info.id) {
        let out = common::output_with_stdin(
            std::process::Command::new(&python)
                .arg(common::repo("tests/peers/xboard_analysis.py"))
                .args([env!("CARGO_BIN_EXE_retrochess"), id]),
            CHESS,
        );
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{id}:\n{stdout}\n{stderr}");
        eprintln!("{id}:\n{stdout}");
        check_results(id, &stdout, CHESS.lines().count(), "played");
    }
}

#[test]
fn pydraughts_reads_go_analyze_from_every_draughts_engine() {
    common::python_draughts();
    for id in common::hub_engines() {
        let command = [env!("CARGO_BIN_EXE_retrochess"), "hub", "--engine", id];
        let fens = DRAUGHTS.join("|");
        let mut args = vec![fens.as_str()];
        args.extend_from_slice(&command);
        let (ok, stdout, stderr) = common::peer_script("hub_analysis.py", &args, "");
        assert!(ok, "{id}:\n{stdout}\n{stderr}");
        eprintln!("{id}:\n{stdout}");
        check_results(id, &stdout, DRAUGHTS.len(), "think");
    }
}
