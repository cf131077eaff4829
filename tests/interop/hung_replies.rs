//! A program that hangs, through the real client of each front end
//! (`tests/peers/hung_replies.py`; issue "Toni Baker's draughts plays whole
//! games", item 1): the client must not raise, and must see "no move" with
//! the reason.
//! - Hub: pydraughts 0.6.7's `HubEngine.go` and `.play` on the position
//!   where `baker-draughts` (the printed routines) faults; `done
//!   move=0-0`, pydraughts's null move, after `info problem=`.
//! - UCI: python-chess, 1K ZX Chess still running at the deadline of `go
//!   movetime 1`: `bestmove 0000` after `info string`.
//! - CECP: python-chess, the same program still running at the deadline
//!   of a 10 ms clock (on the `lockstep` core, two cores compared after
//!   every instruction: a host too slow for the move; `z80emu` alone
//!   would fit it): `resign` after a `#` comment.

use crate::common::{self, python_chess};

/// `hung_replies.py FRONT_END retrochess FRONT_END --engine ENGINE
/// [MORE]`: its one line of output.
fn client_sees(front_end: &str, engine: &str, more: &[&str]) -> String {
    let bin = env!("CARGO_BIN_EXE_retrochess");
    let mut args = vec![front_end, bin, front_end, "--engine", engine];
    args.extend_from_slice(more);
    let (ok, out, err) = common::peer_script("hung_replies.py", &args, "");
    assert!(ok, "{front_end} {engine}: the client failed:\n{out}\n{err}");
    eprintln!("{out}");
    out
}

#[test]
fn pydraughts_go_and_play_read_a_hang_over_hub_as_the_null_move() {
    let out = client_sees("hub", "baker-draughts", &[]);
    assert!(out.starts_with("hub move=0-0 null=True "), "{out}");
    assert!(out.contains("SQUAREVAL"), "the fault named: {out}");
}

#[test]
fn python_chess_reads_a_hang_over_uci_as_the_null_move() {
    python_chess();
    let out = client_sees("uci", "1k-zx-chess", &[]);
    assert!(out.starts_with("uci move=0000 resigned=False"), "{out}");
}

#[test]
fn python_chess_reads_a_hang_over_cecp_as_a_resignation() {
    python_chess();
    let out = client_sees("xboard", "1k-zx-chess", &["--core", "lockstep"]);
    assert!(out.starts_with("xboard move=None resigned=True"), "{out}");
}
