//! The two draughts program images: Draughts 1K (seed 002) and Toni Baker's
//! routines from part three (seed 003) with our glue.
//!
//! The images are checked against the fixture copies of the printed listings
//! (`tests/fixtures/draughts-1k/`, `tests/fixtures/baker/`, extracted from the
//! seeds by `scripts/transcribe-*.py`), by length, hash and spot bytes; the
//! scripts and the glue's pasmo build are rerun in check mode. Then the facts
//! `tapes/DRAUGHTS-1K.md` and `tapes/BAKER.md` state about the code are
//! checked by running it on a bare Z80 (iz80 with a flat 64K memory whose
//! ROM area, 0x0000..0x3FFF, holds zeros and ignores writes, as a ZX81's ROM
//! would ignore them; no ROM image).

use crate::common;

use common::repo;
use iz80::{Cpu, Machine, Reg16};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::process::Command;

// ---------------------------------------------------------------------------
// A bare Z80 with 64K of memory.

struct Bare {
    mem: Vec<u8>,
    rom_writes: Vec<(u16, u8)>,
}

impl Machine for Bare {
    fn peek(&mut self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    fn poke(&mut self, address: u16, value: u8) {
        if address < 0x4000 {
            self.rom_writes.push((address, value));
        } else {
            self.mem[address as usize] = value;
        }
    }
    fn port_in(&mut self, _: u16) -> u8 {
        0xFF
    }
    fn port_out(&mut self, _: u16, _: u8) {}
}

const STUB: u16 = 0x4000 + 0x0F00; // a return address nothing else uses

impl Bare {
    fn new() -> Bare {
        Bare {
            mem: vec![0; 0x10000],
            rom_writes: vec![],
        }
    }
    fn load(&mut self, at: u16, bytes: &[u8]) {
        self.mem[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
    }
    fn word(&self, at: u16) -> u16 {
        u16::from_le_bytes([self.mem[at as usize], self.mem[at as usize + 1]])
    }

    /// CALLs `entry` with SP = `sp` and runs until it returns; the Z80 state
    /// at the return, or where it stood when the budget ran out.
    fn call(&mut self, entry: u16, sp: u16) -> Result<Cpu, String> {
        self.call_watching(entry, sp, |_, _| false)
    }

    /// As `call`, stopping early (Ok) when `stop` says so before an instruction.
    fn call_watching(
        &mut self,
        entry: u16,
        sp: u16,
        mut stop: impl FnMut(&mut Cpu, &mut Bare) -> bool,
    ) -> Result<Cpu, String> {
        let mut cpu = Cpu::new_z80();
        self.load(sp - 2, &STUB.to_le_bytes());
        cpu.registers().set16(Reg16::SP, sp - 2);
        cpu.registers().set_pc(entry);
        for _ in 0..5_000_000 {
            if cpu.registers().pc() == STUB || stop(&mut cpu, self) {
                return Ok(cpu);
            }
            cpu.execute_instruction(self);
        }
        Err(format!("still running at {:04X}", cpu.registers().pc()))
    }
}

fn sha256(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect()
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap()
}

/// The rows of a `|`-separated fixture, comments and blank lines skipped.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('|').map(str::to_string).collect())
        .collect()
}

/// Runs a script of `scripts/` from the repository root; they need pasmo.
fn run_script(args: &[&str]) {
    common::peer("pasmo");
    let out = Command::new(args[0])
        .args(&args[1..])
        .current_dir(repo(""))
        .output()
        .unwrap_or_else(|e| panic!("{} did not start: {e}", args[0]));
    assert!(
        out.status.success(),
        "{} failed:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---------------------------------------------------------------------------
// Draughts 1K: the image.

const D1K_AT: u16 = 0x4082;

fn d1k_image() -> Vec<u8> {
    std::fs::read(repo("tapes/draughts-1k.bin")).unwrap()
}

/// (address, bytes, instruction) of every line the seed prints.
fn d1k_listing() -> Vec<(u16, Vec<u8>, String)> {
    rows(&fixture("tests/fixtures/draughts-1k/listing.txt"))
        .into_iter()
        .filter(|r| r.len() == 4)
        .map(|r| {
            (
                u16::from_str_radix(&r[0], 16).unwrap(),
                hex_bytes(&r[1]),
                r[3].clone(),
            )
        })
        .collect()
}

#[test]
fn draughts_1k_image_is_the_printed_listing() {
    let image = d1k_image();
    assert_eq!(image.len(), 175);
    assert_eq!(
        sha256(&image),
        "72a5cedabf2ded859ea316d068a1801c11e1168264a23c857b28a9fa77c5c7be"
    );
    let listing = d1k_listing();
    assert_eq!(listing.len(), 100);
    let mut next = D1K_AT;
    for (addr, bytes, ins) in &listing {
        assert_eq!(*addr, next, "{ins}: the listing is contiguous");
        let at = (addr - D1K_AT) as usize;
        assert_eq!(&image[at..at + bytes.len()], &bytes[..], "{addr:04X} {ins}");
        next += bytes.len() as u16;
    }
    assert_eq!(next, 0x4131);
    let at = |a: u16| image[(a - D1K_AT) as usize];
    assert_eq!(
        [at(0x408C), at(0x408D)],
        [0x06, 0x48],
        "ld b,0x48: 72 bytes scanned"
    );
    assert_eq!(
        [at(0x40F4), at(0x40F5)],
        [0xFE, 0x08],
        "cp 0x08: the empty square"
    );
    assert_eq!([at(0x4113), at(0x4114)], [0xFE, 0x08]);
    assert_eq!([at(0x40D2), at(0x40D3)], [0x36, 0x08], "ld (hl),0x08");
    assert_eq!([at(0x4093), at(0x4094)], [0xFE, 0xA7], "cp 0xa7: B king");
    assert_eq!([at(0x40E1), at(0x40E2), at(0x40E3)], [0x01, 0x3F, 0x00]);
}

#[test]
fn draughts_1k_script_rebuilds_the_image_and_assembles_every_line() {
    run_script(&[
        &common::python(),
        "scripts/transcribe-draughts-1k.py",
        "--check",
    ]);
}

/// Every CALL, JP, JR and DJNZ stays inside 0x4082..0x4130, and there is no
/// RST: the routine calls no ROM.
#[test]
fn draughts_1k_calls_no_rom() {
    let mut transfers = 0;
    for (addr, b, ins) in d1k_listing() {
        let op = b[0];
        assert!(op & 0xC7 != 0xC7, "{addr:04X} {ins}: RST");
        let target = match op {
            0xC3 | 0xCD | 0xC2 | 0xCA | 0xD2 | 0xDA | 0xC4 | 0xCC | 0xD4 | 0xDC => {
                Some(u16::from_le_bytes([b[1], b[2]]))
            }
            0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 => {
                Some((addr + 2).wrapping_add(b[1] as i8 as u16))
            }
            _ => None,
        };
        if let Some(t) = target {
            assert!(
                (0x4082..=0x4130).contains(&t),
                "{addr:04X} {ins} -> {t:04X}"
            );
            transfers += 1;
        }
        assert!(op != 0xE9, "{addr:04X}: JP (HL)");
    }
    assert_eq!(transfers, 19, "7 CALLs, 12 JR/DJNZ");
}

// ---------------------------------------------------------------------------
// Draughts 1K: the board in the display file, and the routine's behaviour.

const B: u8 = 0x27;
const BK: u8 = 0xA7;
const W: u8 = 0x3C;
const WK: u8 = 0xBC;
const E08: u8 = 0x08;

/// PDN square -> (offset from D_FILE, book name), from the layout fixture.
fn d1k_layout() -> BTreeMap<u8, (u16, String)> {
    rows(&fixture("tests/fixtures/draughts-1k/layout.txt"))
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), (r[1].parse().unwrap(), r[2].clone())))
        .collect()
}

/// A 1K ZX81 as the routine sees it: `100 REM` + the routine at 0x407D, the
/// display file right after (collapsed: the board's 8 rows of 8 characters,
/// then 16 empty lines), D_FILE pointing at it. `empty` fills the dark
/// squares not in `pieces`.
struct OneK {
    m: Bare,
    d_file: u16,
    layout: BTreeMap<u8, (u16, String)>,
}

impl OneK {
    fn new(pieces: &[(u8, u8)], empty: u8) -> OneK {
        let mut m = Bare::new();
        let code = d1k_image();
        m.load(0x407D, &[0x00, 0x64, 0xB1, 0x00, 0xEA]); // 100 REM, 177 bytes
        m.load(D1K_AT, &code);
        m.load(0x4131, &[0x76]);
        let d_file = 0x4132u16;
        m.load(0x400C, &d_file.to_le_bytes());
        let mut dfile = vec![0x76];
        for r in 0..8 {
            let mut row = [0u8; 8];
            if r % 2 == 0 {
                row[0] = 0x1D + r as u8; // the row label 1, 3, 5, 7
            }
            dfile.extend_from_slice(&row);
            dfile.push(0x76);
        }
        dfile.extend(std::iter::repeat_n(0x76, 16));
        dfile.push(0x80); // VARS
        m.load(d_file, &dfile);
        let mut one = OneK {
            m,
            d_file,
            layout: d1k_layout(),
        };
        for n in 1..=32 {
            let code = pieces.iter().find(|p| p.0 == n).map_or(empty, |p| p.1);
            one.set(n, code);
        }
        one
    }
    fn addr(&self, n: u8) -> u16 {
        self.d_file + self.layout[&n].0
    }
    fn set(&mut self, n: u8, code: u8) {
        let a = self.addr(n);
        self.m.mem[a as usize] = code;
    }
    fn board(&self) -> Vec<u8> {
        (1..=32)
            .map(|n| self.m.mem[self.addr(n) as usize])
            .collect()
    }
    /// Runs the routine once; (the changed squares as (n, before, after), BC).
    fn play(&mut self) -> (Vec<(u8, u8, u8)>, u16) {
        let before = self.board();
        let mut cpu = self.m.call(D1K_AT, 0x4400).expect("the routine returns");
        let after = self.board();
        let diff = (1..=32u8)
            .filter(|&n| before[n as usize - 1] != after[n as usize - 1])
            .map(|n| (n, before[n as usize - 1], after[n as usize - 1]))
            .collect();
        (diff, cpu.registers().get16(Reg16::BC))
    }
}

/// The usual start: `top` on squares 1..12, `bottom` on 21..32.
fn opening(top: u8, bottom: u8) -> Vec<(u8, u8)> {
    (1..=12)
        .map(|n| (n, top))
        .chain((21..=32).map(|n| (n, bottom)))
        .collect()
}

fn start() -> Vec<(u8, u8)> {
    opening(B, W)
}

#[test]
fn draughts_1k_layout_matches_the_seeds_picture_of_the_board() {
    let one = OneK::new(&start(), E08);
    let picture: Vec<String> = fixture("tests/fixtures/draughts-1k/board.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(picture.len(), 8);
    for (r, line) in picture.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let want = match ch {
                'B' => B,
                'W' => W,
                '█' => E08,
                ' ' => 0x00,
                d => 0x1C + d.to_digit(10).unwrap() as u8,
            };
            let at = one.d_file as usize + 1 + 9 * r + c;
            assert_eq!(one.m.mem[at], want, "row {r} column {c} ({ch})");
        }
        assert_eq!(one.m.mem[one.d_file as usize + 9 * (r + 1)], 0x76);
    }
    assert_eq!(one.layout[&1].1, "B1");
    assert_eq!(one.layout[&32].1, "G8");
}

#[test]
fn draughts_1k_opens_12_16_and_returns_63() {
    let mut one = OneK::new(&start(), E08);
    let (diff, bc) = one.play();
    assert_eq!(diff, [(12, B, E08), (16, E08, B)]);
    assert_eq!(bc, 0x003F, "USR returns BC = 63");
    // The move is also in PRBUFF: SAFE_ORG, SAFE_DST.
    assert_eq!(one.m.word(0x403C), one.addr(12));
    assert_eq!(one.m.word(0x403E), one.addr(16));
    // A step writes 08 through CAPT_ORG = 0: into the ROM.
    assert_eq!(one.m.rom_writes, [(0x0000, 0x08)]);
}

#[test]
fn draughts_1k_empty_square_is_08_not_the_comments_00() {
    let mut one = OneK::new(&start(), 0x00);
    let (diff, _) = one.play();
    assert!(diff.is_empty(), "{diff:?}");
}

#[test]
fn draughts_1k_prefers_a_capture_and_keeps_the_last_one_found() {
    // 10x19 and 11x18 both take 15; 1-5 and 1-6 are safe steps.
    let mut one = OneK::new(&[(1, B), (10, B), (11, B), (15, W)], E08);
    let (diff, _) = one.play();
    assert_eq!(diff, [(11, B, E08), (15, W, E08), (18, E08, B)]);
    assert_eq!(one.m.word(0x4044), one.addr(15), "CAPT_MID");
}

#[test]
fn draughts_1k_unsafe_step_only_when_no_safe_one() {
    // Every step of 10 and 11 lands in front of a W: the first one found is made.
    let pieces = [(10, B), (11, B), (17, W), (18, W), (19, W), (20, W)];
    let mut one = OneK::new(&pieces, E08);
    assert_eq!(one.play().0, [(10, B, E08), (14, E08, B)]);
    // A safe step anywhere wins, even when found first: 9-13 (beyond it, the edge).
    let mut one = OneK::new(&[(9, B), (18, W)], E08);
    assert_eq!(one.play().0, [(9, B, E08), (13, E08, B)]);
}

#[test]
fn draughts_1k_king_moves_and_captures_upwards_only() {
    let mut one = OneK::new(&[(18, BK)], E08);
    assert_eq!(one.play().0, [(15, E08, BK), (18, BK, E08)]);
    let mut one = OneK::new(&[(18, BK), (14, WK)], E08);
    assert_eq!(one.play().0, [(9, E08, BK), (14, WK, E08), (18, BK, E08)]);
    // Nothing upwards: the free squares below are not used.
    let mut one = OneK::new(&[(18, BK), (14, W), (15, W), (9, W), (11, W)], E08);
    assert!(one.play().0.is_empty());
}

#[test]
fn draughts_1k_man_reaching_the_bottom_row_is_crowned() {
    let mut one = OneK::new(&[(27, B)], E08);
    assert_eq!(one.play().0, [(27, B, E08), (32, E08, BK)]);
}

#[test]
fn draughts_1k_king_on_the_top_row_never_moves() {
    for n in 1..=4 {
        let mut one = OneK::new(&[(n, BK), (30, W)], E08);
        let (diff, _) = one.play();
        assert!(diff.is_empty(), "king on {n}: {diff:?}");
    }
}

#[test]
fn draughts_1k_without_a_move_leaves_the_board_and_writes_only_rom() {
    // 5 and 8 face W men whose squares beyond are taken or off the board.
    let pieces = [(5, B), (8, B), (9, W), (14, W), (11, W), (15, W), (12, W)];
    let mut one = OneK::new(&pieces, E08);
    let (diff, bc) = one.play();
    assert!(diff.is_empty(), "{diff:?}");
    assert_eq!(bc, 0x003F);
    assert_eq!((one.m.word(0x403C), one.m.word(0x403E)), (0, 0));
    assert_eq!(one.m.rom_writes.len(), 3);
    assert!(one.m.rom_writes.iter().all(|w| w.0 == 0x0000));
}

// ---------------------------------------------------------------------------
// Toni Baker: the images.

const BAKER_AT: u16 = 0x4DF1;
const GLUE_AT: u16 = 0x4C97;

fn baker_image(name: &str) -> Vec<u8> {
    std::fs::read(repo(&format!("tapes/{name}"))).unwrap()
}

/// The listing blocks with their printed lines (bytes, instruction).
/// A printed block: kind (listing, preview, sketch), address, lines.
type Block = (String, Option<u16>, Vec<(Vec<u8>, String)>);

fn baker_blocks() -> Vec<Block> {
    let mut blocks: Vec<Block> = vec![];
    for line in fixture("tests/fixtures/baker/listing.txt").lines() {
        if let Some(rest) = line.strip_prefix("block ") {
            let (kind, addr) = rest.split_once(' ').unwrap();
            blocks.push((kind.into(), u16::from_str_radix(addr, 16).ok(), vec![]));
        } else if !line.starts_with('#') && !line.starts_with("name ") {
            let r: Vec<&str> = line.split('|').collect();
            blocks
                .last_mut()
                .unwrap()
                .2
                .push((hex_bytes(r[1]), r[3].into()));
        }
    }
    blocks
}

struct Resolution {
    addr: u16,
    printed: Vec<u8>,
    ins: String,
    action: String,
    used: Vec<u8>,
}

fn resolutions() -> Vec<Resolution> {
    rows(&fixture("tests/fixtures/baker/resolutions.txt"))
        .into_iter()
        .map(|r| Resolution {
            addr: u16::from_str_radix(&r[0], 16).unwrap(),
            printed: hex_bytes(&r[1]),
            ins: r[2].clone(),
            action: r[3].clone(),
            used: hex_bytes(&r[4]),
        })
        .collect()
}

/// The routines rebuilt from the fixtures: (resolved, as first printed),
/// both with the fix of the deliberate mistake.
fn baker_rebuilt() -> (Vec<u8>, Vec<u8>) {
    let res = resolutions();
    let (mut resolved, mut printed) = (vec![], vec![]);
    let mut twin_done = vec![];
    for (kind, _, lines) in baker_blocks() {
        if kind != "listing" {
            continue;
        }
        for (bytes, ins) in lines {
            let r = res.iter().find(|r| r.printed == bytes && r.ins == ins);
            match r.map(|r| r.action.as_str()) {
                Some("drop") => {}
                Some(_) => resolved.extend(&r.unwrap().used),
                None => resolved.extend(&bytes),
            }
            let twin = r.filter(|r| res.iter().any(|o| o.addr == r.addr && o.action == "drop"));
            if let Some(t) = twin {
                if twin_done.contains(&t.addr) {
                    continue;
                }
                twin_done.push(t.addr);
            }
            match r {
                Some(r) if r.action == "fix" => printed.extend(&r.used),
                _ => printed.extend(&bytes),
            }
        }
    }
    (resolved, printed)
}

#[test]
fn baker_images_are_the_printed_listing_with_the_documented_resolutions() {
    let (resolved, printed) = baker_rebuilt();
    let image = baker_image("baker-draughts.bin");
    let image_printed = baker_image("baker-draughts-printed.bin");
    assert_eq!(image, resolved);
    assert_eq!(image_printed, printed);
    assert_eq!(image.len(), 0x4ED1 - 0x4DF1);
    assert_eq!(
        sha256(&image),
        "28c22bd6c3098734e88058afa30f0da320162b2f85349ce3173c926640788a48"
    );
    assert_eq!(
        sha256(&image_printed),
        "ba0c96f756a9a4623083533f04175b9dfa903831b56696c394b2c58e00395e59"
    );
    let at = |img: &[u8], a: u16| img[(a - BAKER_AT) as usize];
    // The fix: TEST's JR NZ now reaches WHAT (4E6C + 33 = 4E9F).
    assert_eq!((at(&image, 0x4E6A), at(&image, 0x4E6B)), (0x20, 0x33));
    // Printed twice as 28 BD (JR NZ, then JR Z): the byte is kept.
    assert_eq!((at(&image, 0x4E3A), at(&image, 0x4E3B)), (0x28, 0xBD));
    // Where the two images differ, and nowhere else.
    let diffs: Vec<(u16, u8, u8)> = (0..image.len())
        .filter(|&i| image[i] != image_printed[i])
        .map(|i| (BAKER_AT + i as u16, image_printed[i], image[i]))
        .collect();
    assert_eq!(
        diffs,
        [
            (0x4E63, 0xB1, 0x81),
            (0x4EAF, 0x99, 0x9F),
            (0x4EC5, 0x53, 0x5B)
        ]
    );
    // Entry points: SQUAREVAL PUSH BC, EVALUATE CALL SQUAREVAL, WHAT LD (SCANSQR),DE.
    assert_eq!(at(&image, 0x4DF1), 0xC5);
    assert_eq!(image[0x52..0x55], [0xCD, 0xF1, 0x4D]);
    assert_eq!(image[0xAE..0xB2], [0xED, 0x53, 0x79, 0x40]);
}

#[test]
fn baker_previews_agree_with_the_listing() {
    let image = baker_image("baker-draughts.bin");
    let mut previews = 0;
    for (kind, addr, lines) in baker_blocks() {
        if kind != "preview" {
            continue;
        }
        let mut at = (addr.unwrap() - BAKER_AT) as usize;
        for (bytes, ins) in lines {
            assert_eq!(image[at..at + bytes.len()], bytes[..], "preview {ins}");
            at += bytes.len();
        }
        previews += 1;
    }
    assert_eq!(previews, 2);
}

#[test]
fn baker_script_rebuilds_the_images_and_assembles_every_line() {
    run_script(&[&common::python(), "scripts/transcribe-baker.py", "--check"]);
}

#[test]
fn glue_rebuilds_byte_identically_with_pasmo() {
    run_script(&["sh", "scripts/build-tapes.sh", "--check"]);
}

/// The glue's symbol table, as pasmo wrote it.
fn glue_symbols() -> BTreeMap<String, u16> {
    fixture("tapes/baker-draughts-16k.sym")
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next()?.to_string();
            let v = w.nth(1)?.trim_end_matches('H');
            Some((name, u16::from_str_radix(v, 16).ok()?))
        })
        .collect()
}

#[test]
fn glue_image_holds_bakers_bytes_unmodified_and_the_documented_interface() {
    let glue = baker_image("baker-draughts-16k.bin");
    let baker = baker_image("baker-draughts.bin");
    assert_eq!(glue.len(), 0x4ED1 - GLUE_AT as usize);
    assert_eq!(&glue[(BAKER_AT - GLUE_AT) as usize..], &baker[..]);
    let s = glue_symbols();
    for (name, addr) in [
        ("TABLE", 0x4C97),
        ("RANDOM", 0x4C9C),
        ("RESULT", 0x4C9D),
        ("FROM", 0x4C9E),
        ("TO", 0x4C9F),
        ("OVER", 0x4CA0),
        ("DIR", 0x4CA1),
        ("COUNT", 0x4CA2),
        ("PRIORITY", 0x4CA3),
        ("PICK", 0x4CA4),
        ("GAME", 0x4CA5),
        ("SHOW", 0x4D4A),
        ("KPCHKNG", 0x4DA0),
        ("FIRSTSQ", 0x404B),
        ("LASTSQ", 0x406D),
        ("CROWN", 0x406A),
    ] {
        assert_eq!(s[name], addr, "{name}");
    }
    assert_eq!(glue[..5], [0xFC, 0xFB, 0x04, 0x05, 0x2E], "TABLE");
}

// ---------------------------------------------------------------------------
// Toni Baker's routines running with the glue.

const CM: u8 = 0xBC; // computer man
const CK: u8 = 0x3C; // computer king
const PM: u8 = 0xA7; // person's man
const PK: u8 = 0x27; // person's king
const EMPTY: u8 = 0x80;
const SP16K: u16 = 0x4A00; // RAMTOP of the transcriber's download
const DFILE16K: u16 = 0x5000;
const NOWT: u16 = 0x4DF9; // SQUAREVAL: LD A,(DE), the next direction
const NXTDIR: u16 = 0x4E52; // EVALUATE: LD A,(DE), the next direction

/// The working-board address of PDN square n (computer on 1..12), from the
/// baker layout fixture.
fn wk(n: u8) -> u16 {
    let layout = rows(&fixture("tests/fixtures/baker/layout.txt"));
    let row = layout.iter().find(|r| r[0] == n.to_string()).unwrap();
    u16::from_str_radix(&row[1], 16).unwrap()
}

/// The square at working-board address 40xx, if it is one.
fn square_at(low: u8) -> Option<u8> {
    (1..=32).find(|&n| wk(n) == 0x4000 | low as u16)
}

#[derive(Debug, PartialEq)]
enum Outcome {
    /// (from, to, captured) as PDN squares.
    Moved(u8, u8, Option<u8>),
    NoMove,
    /// A routine was about to read its next direction from DE outside
    /// TABLE (0x4C97..0x4C9B).
    LeftTable {
        pc: u16,
        de: u16,
    },
}

struct Sixteen {
    m: Bare,
    sym: BTreeMap<String, u16>,
}

impl Sixteen {
    fn new(image: &str, pieces: &[(u8, u8)]) -> Sixteen {
        let mut m = Bare::new();
        m.load(GLUE_AT, &baker_image("baker-draughts-16k.bin"));
        m.load(BAKER_AT, &baker_image(image));
        m.load(0x400C, &DFILE16K.to_le_bytes());
        let mut dfile = vec![0x76];
        for _ in 0..24 {
            dfile.extend([0u8; 32]);
            dfile.push(0x76);
        }
        m.load(DFILE16K, &dfile);
        let mut s = Sixteen {
            m,
            sym: glue_symbols(),
        };
        s.put(pieces);
        s
    }
    fn put(&mut self, pieces: &[(u8, u8)]) {
        for n in 1..=32 {
            let code = pieces.iter().find(|p| p.0 == n).map_or(EMPTY, |p| p.1);
            self.m.mem[wk(n) as usize] = code;
        }
    }
    fn cell(&self, name: &str) -> u8 {
        self.m.mem[self.sym[name] as usize]
    }
    fn board(&self) -> Vec<u8> {
        (1..=32).map(|n| self.m.mem[wk(n) as usize]).collect()
    }
    /// Calls `entry`; Err when a direction is about to be read off TABLE.
    fn run(&mut self, entry: u16, hl: u16) -> Result<Cpu, Outcome> {
        let mut left = None;
        let cpu = self
            .m
            .call_watching_hl(entry, SP16K, hl, |cpu, _| {
                let (pc, de) = (cpu.registers().pc(), cpu.registers().get16(Reg16::DE));
                if (pc == NOWT || pc == NXTDIR) && !(0x4C97..=0x4C9B).contains(&de) {
                    left = Some(Outcome::LeftTable { pc, de });
                }
                left.is_some()
            })
            .expect("returns or leaves the table");
        left.map_or(Ok(cpu), Err)
    }
    /// GAME with this random byte.
    fn game(&mut self, random: u8) -> Outcome {
        self.m.mem[self.sym["RANDOM"] as usize] = random;
        let cpu = match self.run(self.sym["GAME"], 0) {
            Ok(cpu) => cpu,
            Err(left) => return left,
        };
        assert_eq!(cpu.immutable_registers().get16(Reg16::SP), SP16K);
        if self.cell("RESULT") != 0 {
            return Outcome::NoMove;
        }
        let sq = |name| square_at(self.cell(name)).unwrap();
        let over = self.cell("OVER");
        Outcome::Moved(
            sq("FROM"),
            sq("TO"),
            (over != 0).then(|| square_at(over).unwrap()),
        )
    }
    /// SQUAREVAL at square n: the signed value it returns in A.
    fn squareval(&mut self, n: u8) -> Result<i8, Outcome> {
        let mut cpu = self.run(self.sym["SQUAREVAL"], wk(n))?;
        Ok(cpu.registers().a() as i8)
    }
}

impl Bare {
    fn call_watching_hl(
        &mut self,
        entry: u16,
        sp: u16,
        hl: u16,
        stop: impl FnMut(&mut Cpu, &mut Bare) -> bool,
    ) -> Result<Cpu, String> {
        let mut stop = stop;
        let mut first = true;
        self.call_watching(entry, sp, |cpu, m| {
            if first {
                cpu.registers().set16(Reg16::HL, hl);
                first = false;
            }
            stop(cpu, m)
        })
    }
}

/// The square one step from `n` in direction `d` (+4, +5, -5, -4).
fn step(n: u8, d: i16) -> u8 {
    square_at((wk(n) as i16 + d) as u8).expect("on the board")
}

#[test]
fn baker_layout_fixture_matches_the_glue() {
    let s = glue_symbols();
    assert_eq!(wk(1), s["FIRSTSQ"]);
    assert_eq!(wk(32), s["LASTSQ"]);
    assert_eq!(wk(29), s["CROWN"]);
    // +4 and +5 reach exactly the two diagonal neighbours one row down.
    for n in 1..=32u8 {
        let (r, k) = ((n - 1) / 4, (n - 1) % 4);
        let col = 2 * k + (r % 2 == 0) as u8;
        let mut expected: Vec<u8> = [col.wrapping_sub(1), col + 1]
            .into_iter()
            .filter(|&c| c < 8 && r < 7)
            .map(|c| 4 * (r + 1) + c / 2 + 1)
            .collect();
        expected.sort();
        let mut by_dirs: Vec<u8> = [4u16, 5]
            .iter()
            .filter_map(|d| square_at((wk(n) + d) as u8))
            .collect();
        by_dirs.sort();
        assert_eq!(by_dirs, expected, "square {n}");
    }
}

/// SQUAREVAL on the text's two diagrams. "Protecting" gives -5 (-7 when
/// the protected piece is a king), as the text says. "In danger" does not:
/// the routine has stored the value in D (LD D,A at 4E33) before it tests
/// the square behind, and the printed JR Z,NOWT (4E3A) goes back to NOWT
/// exactly when that square is blank -- the text's danger -- with DE
/// pointing into the ROM. It returns 5 (7 for a king) when the square
/// behind is taken.
#[test]
fn squareval_on_the_texts_diagrams() {
    let (a, b) = (14, step(14, 5)); // b = 18, in front of 14
    let behind = step(a, -5); // 9
    let mut s = Sixteen::new("baker-draughts.bin", &[(a, CM), (b, PM), (behind, CM)]);
    assert_eq!(s.squareval(behind), Ok(-5), "9 protects 14");
    assert_eq!(s.squareval(a), Ok(5), "behind taken: counted as danger");
    let mut s = Sixteen::new("baker-draughts.bin", &[(a, CK), (b, PM), (behind, CM)]);
    assert_eq!(s.squareval(behind), Ok(-7));
    assert_eq!(s.squareval(a), Ok(7));
    // The text's danger: 9 blank. D = 5, E = the entry after +5 in TABLE.
    let mut s = Sixteen::new("baker-draughts.bin", &[(a, CM), (b, PM)]);
    assert_eq!(
        s.squareval(a),
        Err(Outcome::LeftTable {
            pc: NOWT,
            de: 0x059B
        })
    );
    // A person's man cannot come back towards 14: no threat, value 0.
    let mut s = Sixteen::new("baker-draughts.bin", &[(a, CM), (behind, PM)]);
    assert_eq!(s.squareval(a), Ok(0));
}

#[test]
fn a_quiet_move_has_the_neutral_priority_80() {
    let mut s = Sixteen::new("baker-draughts.bin", &[(1, CM), (32, PM)]);
    let mv = s.game(0);
    assert!(
        mv == Outcome::Moved(1, 5, None) || mv == Outcome::Moved(1, 6, None),
        "{mv:?}"
    );
    assert_eq!(s.cell("PRIORITY"), 0x80);
    assert_eq!(s.cell("COUNT"), 2);
}

fn start_16k() -> Vec<(u8, u8)> {
    opening(CM, PM)
}

#[test]
fn glue_plays_the_opening_deterministically_per_random_byte() {
    let mut seen = std::collections::BTreeSet::new();
    for random in [0u8, 60, 120, 180, 250] {
        let mut s = Sixteen::new("baker-draughts.bin", &start_16k());
        let mv = s.game(random);
        let again = Sixteen::new("baker-draughts.bin", &start_16k()).game(random);
        assert_eq!(mv, again, "same random byte, same move");
        let Outcome::Moved(from, to, None) = mv else {
            panic!("{mv:?}")
        };
        assert!((9..=12).contains(&from) && (13..=16).contains(&to));
        let board = s.board();
        assert_eq!(
            (board[from as usize - 1], board[to as usize - 1]),
            (EMPTY, CM)
        );
        assert_eq!(
            s.cell("PICK") as u16,
            random as u16 * s.cell("COUNT") as u16 / 256
        );
        seen.insert((from, to));
    }
    assert!(seen.len() > 1, "the random byte chooses among equal moves");
}

#[test]
fn the_fix_makes_the_computer_jump() {
    // 14 takes 18 (behind it 23 is free); 14's own square has nothing behind.
    let pieces = [(14, CM), (18, PM), (1, CM), (9, CM)];
    let mut s = Sixteen::new("baker-draughts.bin", &pieces);
    assert_eq!(s.game(0), Outcome::Moved(14, 23, Some(18)));
    assert_eq!(s.board()[17], EMPTY, "the captured man is gone");
    // The deliberate mistake put back (4E6B = E3): it "won't jump".
    let mut s = Sixteen::new("baker-draughts.bin", &pieces);
    s.m.mem[0x4E6B] = 0xE3;
    let Outcome::Moved(_, _, over) = s.game(0) else {
        panic!()
    };
    assert_eq!(over, None);
}

#[test]
fn glue_crowns_the_computers_man_and_reports_no_move() {
    let mut s = Sixteen::new("baker-draughts.bin", &[(27, CM), (1, PM)]);
    let Outcome::Moved(27, to, None) = s.game(0) else {
        panic!()
    };
    assert_eq!(s.board()[to as usize - 1], CK);
    // The man on 29 (placed there uncrowned) has no square ahead; 5's two
    // forward squares are taken and cannot be jumped.
    let pieces = [(29, CM), (5, CM), (9, PM), (14, PM), (18, PM)];
    let mut s = Sixteen::new("baker-draughts.bin", &pieces);
    let before = s.board();
    assert_eq!(s.game(0), Outcome::NoMove);
    assert_eq!(s.board(), before);
}

#[test]
fn show_prints_the_working_board_into_the_display_file() {
    let mut s = Sixteen::new("baker-draughts.bin", &[(1, CM), (32, PK)]);
    s.run(s.sym["SHOW"], 0).unwrap();
    let line = |r: usize| s.m.mem[DFILE16K as usize + 1 + 33 * r..][..8].to_vec();
    assert_eq!(line(0), [0x00, CM, 0x00, EMPTY, 0x00, EMPTY, 0x00, EMPTY]);
    assert_eq!(line(7), [EMPTY, 0x00, EMPTY, 0x00, EMPTY, 0x00, PK, 0x00]);
    assert_eq!(s.m.mem[DFILE16K as usize + 33 * 8], 0x76);
}

/// Self-play from the opening, turning the board round after every move,
/// with RANDOM = (37 * ply + 101 * seed) mod 256, until the program has no
/// move or leaves its table: (plies, jumps, the end, the machine).
fn self_play(seed: u32) -> (u32, u32, Outcome, Sixteen) {
    let mut s = Sixteen::new("baker-draughts.bin", &start_16k());
    let (mut plies, mut jumps) = (0, 0);
    let end = loop {
        let outcome = s.game(((plies * 37 + seed * 101) % 256) as u8);
        let Outcome::Moved(from, to, over) = outcome else {
            break outcome;
        };
        let dist = (wk(to) as i16 - wk(from) as i16).abs();
        assert!(
            matches!((dist, over), (4 | 5, None) | (8 | 10, Some(_))),
            "{outcome:?}"
        );
        jumps += over.is_some() as u32;
        plies += 1;
        if plies == 300 {
            break outcome;
        }
        let board = s.board();
        let turned: Vec<(u8, u8)> = (1..=32u8)
            .map(|n| {
                let code = match board[32 - n as usize] {
                    CM => PM,
                    CK => PK,
                    PM => CM,
                    PK => CK,
                    c => c,
                };
                (n, code)
            })
            .collect();
        s.put(&turned);
    };
    (plies, jumps, end, s)
}

/// Every move of a self-played game is a step or a single jump, and Toni
/// Baker's bytes in memory are still the transcription at the end.
#[test]
fn bakers_bytes_survive_a_self_played_game() {
    let (plies, jumps, end, s) = self_play(0);
    // SQUAREVAL finds the text's "in danger" (a man of the side to move
    // exposed, the square behind it blank): LD D,A at 4E33 has put 5 in D,
    // and JR Z,NOWT goes back to read the next direction from 059A.
    assert_eq!((plies, jumps), (13, 1));
    assert_eq!(
        end,
        Outcome::LeftTable {
            pc: NOWT,
            de: 0x059A
        }
    );
    let baker = baker_image("baker-draughts.bin");
    assert_eq!(&s.m.mem[BAKER_AT as usize..][..baker.len()], &baker[..]);
}

/// Over 20 seeds, every self-played game ends the same way, within 13
/// plies: SQUAREVAL at NOWT with D = 05 (tapes/BAKER.md "Does it crash?").
#[test]
fn squareval_leaves_its_table_within_a_few_plies() {
    let mut lengths = vec![];
    for seed in 0..20 {
        let (plies, _, end, _) = self_play(seed);
        let Outcome::LeftTable { pc: NOWT, de } = end else {
            panic!("seed {seed}: {end:?}")
        };
        assert!(matches!(de, 0x059A | 0x059B), "seed {seed}: {de:04X}");
        lengths.push(plies);
    }
    lengths.sort();
    assert_eq!((lengths[0], lengths[19]), (2, 13), "{lengths:?}");
    assert_eq!(
        lengths.iter().filter(|&&p| p == 2).count(),
        15,
        "{lengths:?}"
    );
}

/// Each of the three printed bytes the resolutions replace, put back alone
/// into the resolved routines (with the fix), breaks the program in its own
/// way (tapes/BAKER.md "Does it crash?"):
/// - 53 at 4EC5 (LD (SCANSQR),DE for LD DE,(SCANSQR)): when a capture's
///   landing square is taken, EVALUATE goes on with DE = (capture value,
///   direction), reading its next direction from the ROM;
/// - 99 at 4EAF (JR to 4E49, inside LD (INITIAL),A): a step onto a square
///   held by a non-person piece makes C = 40, the scan starts again from the
///   top, and the list on the stack grows without end;
/// - B1 at 4E63 (OR C for ADD A,C): the destination is direction OR square:
///   no move at all from the opening, and a capture onto a taken square.
#[test]
fn each_printed_misprint_breaks_the_program() {
    let blocked = [(14, CM), (18, PM), (23, PM), (9, CM), (1, CM)];
    let play = |patch: (u16, u8), pieces: &[(u8, u8)]| {
        let mut s = Sixteen::new("baker-draughts.bin", pieces);
        s.m.mem[patch.0 as usize] = patch.1;
        let mut lowest = SP16K;
        let out = s.m.call_watching(s.sym["GAME"], SP16K, |cpu, _| {
            lowest = lowest.min(cpu.registers().get16(Reg16::SP));
            let (pc, de) = (cpu.registers().pc(), cpu.registers().get16(Reg16::DE));
            lowest < 0x4800 || ((pc == NOWT || pc == NXTDIR) && !(0x4C97..=0x4C9B).contains(&de))
        });
        let cpu = out.map(|mut c| (c.registers().pc(), c.registers().get16(Reg16::DE)));
        (cpu, lowest, s)
    };
    // As resolved: 14 steps to 17 (its capture is blocked).
    let mut s = Sixteen::new("baker-draughts.bin", &blocked);
    assert_eq!(s.game(0), Outcome::Moved(14, 17, None));
    // 53: the direction pointer becomes 0505 (a man, direction +5).
    let (cpu, _, _) = play((0x4EC5, 0x53), &blocked);
    assert_eq!(cpu, Ok((NXTDIR, 0x0505)));
    // 99: the stack runs away.
    let (_, lowest, _) = play((0x4EAF, 0x99), &blocked);
    assert!(lowest < 0x4800, "{lowest:04X}");
    // B1: nothing to play from the opening; 14 "takes" 18 onto the man on 23.
    let (_, _, s) = play((0x4E63, 0xB1), &start_16k());
    assert_eq!(s.cell("RESULT"), 1);
    let (_, _, s) = play((0x4E63, 0xB1), &blocked);
    assert_eq!(
        (s.cell("FROM"), s.cell("OVER"), s.cell("TO")),
        (0x59, 0x5E, 0x63)
    );
    assert_eq!(square_at(0x63), Some(23));
}
