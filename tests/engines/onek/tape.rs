//! The 1K ZX Chess tape: bytes, provenance, and what it shows when it starts.

use crate::common;

use common::{fixture, repo};
use retrochess::engines::onek::TAPE;
use sha2::{Digest, Sha256};
use std::process::Command;

#[test]
fn tape_length_hash_and_spot_bytes() {
    let file = std::fs::read(repo("tapes/1k-zx-chess.p")).unwrap();
    assert_eq!(file, TAPE, "the built-in tape is the committed file");
    assert_eq!(TAPE.len(), 0x3AD);
    let hash = format!("{:x}", Sha256::digest(TAPE));
    assert_eq!(
        hash,
        "3a37bcefd36cbdefdb79502ce375e9c55475eeda6c62cd0f86cd238cf0298d36"
    );
    let at = |addr: u16| TAPE[(addr - 0x4009) as usize];
    // D_FILE = 0x4332, VARS = 0x43AF, E_LINE = 0x43B6 (seed 000).
    assert_eq!([at(0x400C), at(0x400D)], [0x32, 0x43]);
    assert_eq!([at(0x4010), at(0x4011)], [0xAF, 0x43]);
    // The undocumented bootstrap at X = 0x406D: ld hl,405D; ld de,400E; ld bc,0010; ldir; jp 4082.
    let boot: Vec<u8> = (0x406D..0x407B).map(at).collect();
    assert_eq!(
        boot,
        [
            0x21, 0x5D, 0x40, 0x11, 0x0E, 0x40, 0x01, 0x10, 0x00, 0xED, 0xB0, 0xC3, 0x82, 0x40
        ]
    );
    // The move table it copies: +13 -13 +21 -21 +23 -23 -9 +9 +1 +11 -1 -11 -10 -12 +12 +10.
    let table: Vec<i8> = (0x405D..0x406D).map(|a| at(a) as i8).collect();
    assert_eq!(
        table,
        [
            13, -13, 21, -21, 23, -23, -9, 9, 1, 11, -1, -11, -10, -12, 12, 10
        ]
    );
    // MPSCAN's dead end, TABPIE, and the variable X (exponent 8F, mantissa 00 DA 00 00).
    assert_eq!([at(0x42C0), at(0x42C1), at(0x42C2)], [0xCA, 0xC0, 0x42]);
    assert_eq!(
        (0x431E..0x4323).map(at).collect::<Vec<_>>(),
        [0x36, 0x37, 0x27, 0x33, 0x35]
    );
    assert_eq!(
        (0x43AF..0x43B6).map(at).collect::<Vec<_>>(),
        [0x7D, 0x8F, 0x00, 0xDA, 0x00, 0x00, 0x80]
    );
}

/// Every byte the seed's disassembly and display-table columns give agrees
/// with the tape, except 0x400E..0x401D, which the listing shows after the
/// bootstrap copied the move table there. The columns are the fixture
/// `1k-listing-bytes.txt` ("ADDR B1 B2 ..." per listing line, seed 000).
#[test]
fn tape_agrees_with_the_seed_listing() {
    let mut checked = 0;
    let mut moved = 0;
    for line in fixture("1k-listing-bytes.txt").lines() {
        let mut words = line.split_whitespace();
        let addr = u16::from_str_radix(words.next().unwrap(), 16).unwrap();
        assert!((0x4009..0x43B6).contains(&addr), "{line}");
        for (i, word) in words.enumerate() {
            let b = u8::from_str_radix(word, 16).unwrap();
            let a = addr + i as u16;
            if (0x400E..=0x401D).contains(&a) {
                moved += 1;
                assert_eq!(
                    b,
                    TAPE[(a - 0x4009 + 0x405D - 0x400E) as usize],
                    "moved table byte {a:04X}"
                );
            } else {
                assert_eq!(b, TAPE[(a - 0x4009) as usize], "byte {a:04X}");
            }
            checked += 1;
        }
    }
    assert_eq!(moved, 16);
    assert_eq!(checked, 831, "bytes cross-checked");
}

#[test]
fn boot_screen_matches_the_seed() {
    // Seed 000's display-file table, decoded (fixture `1k-boot-screen.txt`).
    let expected = fixture("1k-boot-screen.txt");
    assert_eq!(expected.lines().count(), 24);
    let out = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["screen", "--engine", "1k-zx-chess"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let ansi = Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["screen", "--color"])
        .output()
        .unwrap();
    let ansi = String::from_utf8(ansi.stdout).unwrap();
    assert!(
        ansi.contains("\x1b[7m PPPPPPPP") || ansi.contains("\x1b[7mPPPPPPPP"),
        "{ansi}"
    );
    assert!(
        ansi.lines().nth(4).unwrap().contains("\x1b[7mDRH\x1b[27m"),
        "{ansi}"
    );
}
