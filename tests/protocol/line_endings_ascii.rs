//! What a Windows GUI needs over pipes: input lines ending in CR LF read as
//! well as LF ones, and every byte of the output ASCII, the emulated
//! screen (`ShowScreen`) included, so that a GUI reading engine output in
//! its ANSI code page shows it as sent (`src/machine/screen.rs`, the ASCII
//! style). UCI, CECP and Hub, each both ways.

use crate::common::pipe;

/// Sends `lines`, each ended by `eol`.
fn send_all(e: &mut pipe::Engine, lines: &[&str], eol: &str) {
    for l in lines {
        e.send_bytes(format!("{l}{eol}").as_bytes());
    }
}

fn assert_ascii(lines: &[String], what: &str) {
    for l in lines {
        assert!(l.is_ascii(), "{what}: a byte >= 0x80 in {l:?}");
    }
}

#[test]
fn uci_reads_crlf_and_lf_and_writes_ascii() {
    for eol in ["\r\n", "\n"] {
        let mut e = pipe::Engine::start(&["uci", "--engine", "1k-zx-chess"]);
        send_all(&mut e, &["uci"], eol);
        let mut out = e.until_prefix("uciok");
        send_all(
            &mut e,
            &[
                "setoption name ShowScreen value true",
                "setoption name Opening value think",
                "isready",
            ],
            eol,
        );
        out.extend(e.until_prefix("readyok"));
        send_all(
            &mut e,
            &[
                "ucinewgame",
                "position startpos moves e2e4",
                "go movetime 300",
            ],
            eol,
        );
        let searched = e.until_prefix("bestmove");
        assert!(
            searched
                .iter()
                .any(|l| l.starts_with("info string screen ")),
            "{eol:?}: ShowScreen sends the screen\n{searched:?}"
        );
        // The move is the program's reply to e2e4, not a complaint about
        // the line: the CR is not part of any word.
        let best = searched.last().unwrap();
        assert!(best.len() >= 13 && !best.contains('\r'), "{best:?}");
        out.extend(searched);
        assert!(
            !out.iter()
                .any(|l| l.contains("unknown") || l.contains("error")),
            "{eol:?}: {out:?}"
        );
        assert_ascii(&out, "uci");
        send_all(&mut e, &["quit"], eol);
        assert!(e.wait(std::time::Duration::from_secs(10)).success());
    }
}

#[test]
fn cecp_reads_crlf_and_lf_and_writes_ascii() {
    for eol in ["\r\n", "\n"] {
        let mut e = pipe::Engine::start(&["xboard", "--engine", "chesskelet"]);
        send_all(&mut e, &["xboard", "protover 2"], eol);
        let mut out = e.until_prefix("feature done=1");
        send_all(
            &mut e,
            &["option ShowScreen=1", "new", "st 1", "usermove e2e4"],
            eol,
        );
        let searched = e.until(std::time::Duration::from_secs(60), |l| {
            l.starts_with("move ") || l.starts_with("Error") || l.starts_with("Illegal")
        });
        assert!(
            searched.last().unwrap().starts_with("move "),
            "{eol:?}: {searched:?}"
        );
        assert!(
            searched.iter().any(|l| l.starts_with("# screen ")),
            "{eol:?}: ShowScreen sends the screen\n{searched:?}"
        );
        out.extend(searched);
        assert_ascii(&out, "cecp");
        send_all(&mut e, &["quit"], eol);
        assert!(e.wait(std::time::Duration::from_secs(10)).success());
    }
}

#[test]
fn hub_reads_crlf_and_lf_and_writes_ascii() {
    for eol in ["\r\n", "\n"] {
        let mut e = pipe::Engine::start(&["hub", "--engine", "draughts-1k"]);
        send_all(&mut e, &["hub"], eol);
        let mut out = e.until_prefix("wait");
        send_all(
            &mut e,
            &[
                "set-param name=variant value=zx81-1k",
                "set-param name=ShowScreen value=true",
                "init",
            ],
            eol,
        );
        out.extend(e.until_prefix("ready"));
        send_all(
            &mut e,
            &[
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
                "level time=10 inc=0.1",
                "go think",
            ],
            eol,
        );
        let searched = e.until_prefix("done");
        assert!(
            searched.iter().any(|l| l.starts_with("info screen=")),
            "{eol:?}: ShowScreen sends the screen\n{searched:?}"
        );
        out.extend(searched);
        assert!(
            !out.iter().any(|l| l.starts_with("error")),
            "{eol:?}: {out:?}"
        );
        assert_ascii(&out, "hub");
        send_all(&mut e, &["quit"], eol);
        assert!(e.wait(std::time::Duration::from_secs(10)).success());
    }
}
