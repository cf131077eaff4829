//! With the `census` feature: how often our core ran a block from each
//! address, and every block it made there (instructions and END), for
//! choosing which blocks to compile ahead of time
//! (`scripts/own-compiled-blocks`). The process's whole count, printed by
//! `retrochess bench` at its end.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// The instructions of a block (opcode, operand, address) and its END.
type Made = (Vec<(u8, u16, u16)>, u16);

static RAN: Mutex<BTreeMap<u16, u64>> = Mutex::new(BTreeMap::new());
static MADE: Mutex<BTreeSet<(u16, Made)>> = Mutex::new(BTreeSet::new());

/// A block run from `pc` (in the block loop or compiled).
pub fn ran(pc: u16) {
    if let Ok(mut ran) = RAN.lock() {
        *ran.entry(pc).or_default() += 1;
    }
}

/// A block made at `pc`: `code`, its END at `end`.
pub fn made(pc: u16, code: Vec<(u8, u16, u16)>, end: u16) {
    if let Ok(mut made) = MADE.lock() {
        made.insert((pc, (code, end)));
    }
}

/// The census as lines: `ran ADDR COUNT`, then `made ADDR END OP:N@ADDR…`
/// (hexadecimal).
pub fn report() -> String {
    let mut out = String::new();
    if let Ok(ran) = RAN.lock() {
        for (pc, n) in ran.iter() {
            out += &format!("ran {pc:04X} {n}\n");
        }
    }
    if let Ok(made) = MADE.lock() {
        for (pc, (code, end)) in made.iter() {
            let code: Vec<String> = code
                .iter()
                .map(|(op, n, addr)| format!("{op:02X}:{n:04X}@{addr:04X}"))
                .collect();
            out += &format!("made {pc:04X} {end:04X} {}\n", code.join(" "));
        }
    }
    out
}
