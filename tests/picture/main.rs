//! Evidence for the pictures (`src/picture/`, `src/machine/charset.rs`,
//! `src/machine/spectrum/display.rs`): a golden image per engine, each cell
//! checked against what the program's seed says is on its screen, and the
//! whole picture against the committed golden PNG.
//!
//! The character patterns are ours (no ROM image), so a cell is expected to
//! hold *our* glyph of the character the seed names; the source of each
//! expectation (which character, which attribute, which border) is named
//! at each test.

#[path = "../common/mod.rs"]
mod common;

use retrochess::engines::{Catalogue, EngineOptions};
use retrochess::machine::Display;
use retrochess::machine::charset::{self, Glyph, ZX81_CHARACTERS};
use retrochess::picture::{BORDER_X, BORDER_Y, Picture, spectrum_colour};
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::Draughts;

const WHITE: [u8; 3] = [0xFF; 3];
const BLACK: [u8; 3] = [0; 3];

fn boot_display<R: Catalogue>(id: &str) -> Display {
    R::create(
        retrochess::engines::find(id).unwrap(),
        &EngineOptions::default(),
    )
    .unwrap()
    .display()
    .expect("an emulated screen")
}

/// The ZX81 code of a character of a screen as the fixtures write it:
/// lower case is inverse video, `█` an inverse space, `▒` the grey 0x08.
fn zx81_code(c: char) -> u8 {
    match c {
        ' ' => 0x00,
        '█' => 0x80,
        '▒' => 0x08,
        c if c.is_ascii_lowercase() => 0x80 | zx81_code(c.to_ascii_uppercase()),
        c => ZX81_CHARACTERS
            .chars()
            .skip(11)
            .position(|x| x == c)
            .map_or_else(|| panic!("{c:?} is no ZX81 character"), |i| i as u8 + 11),
    }
}

/// The 8×8 block of the picture at a character cell.
fn cell(p: &Picture, row: usize, col: usize) -> Vec<[u8; 3]> {
    let mut v = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            v.push(p.pixel(BORDER_X + 8 * col + x, BORDER_Y + 8 * row + y));
        }
    }
    v
}

fn glyph_pixels(g: Glyph, ink: [u8; 3], paper: [u8; 3]) -> Vec<[u8; 3]> {
    let mut v = Vec::new();
    for row in g {
        for x in 0..8 {
            v.push(if row & (0x80 >> x) != 0 { ink } else { paper });
        }
    }
    v
}

/// Every ZX81 cell holds our glyph of `codes[row][col]`, black on white.
fn assert_zx81_cells(p: &Picture, rows: &[Vec<u8>], what: &str) {
    for (r, line) in rows.iter().enumerate() {
        for c in 0..32 {
            let code = line.get(c).copied().unwrap_or(0);
            assert_eq!(
                cell(p, r, c),
                glyph_pixels(charset::zx81_glyph(code), BLACK, WHITE),
                "{what}: row {r} column {c} should be code {code:#04x}"
            );
        }
    }
}

/// The border all round, in one colour.
fn assert_border(p: &Picture, colour: [u8; 3]) {
    for y in 0..p.height {
        for x in 0..p.width {
            let inside = (BORDER_X..p.width - BORDER_X).contains(&x)
                && (BORDER_Y..p.height - BORDER_Y).contains(&y);
            if !inside {
                assert_eq!(p.pixel(x, y), colour, "border at ({x}, {y})");
            }
        }
    }
    assert_eq!((p.width, p.height), (320, 240));
}

/// The committed golden picture, decoded with the `png` crate.
fn golden(name: &str) -> Picture {
    let path = common::repo(&format!("tests/fixtures/pictures/{name}"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb: buf,
    }
}

/// Our PNG of the picture decodes to the same pixels, and it is the golden.
fn assert_golden(p: &Picture, name: &str) {
    let png = p.png(1).unwrap();
    let decoded = {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    };
    assert_eq!(decoded, p.rgb, "the PNG round trip");
    assert!(
        golden(name) == *p,
        "{name} differs from the picture (regenerate with `retrochess screen --png \
         tests/fixtures/pictures/{name} --scale 1` only if the change is meant)"
    );
}

/// 1K ZX Chess: the display file is the one the seed prints.
/// Source: seed 000, the display file table 0x4332–0x43AE ("Riformattando il
/// contenuto del Display file"), as `tests/fixtures/1k-listing-bytes.txt`.
#[test]
fn one_k_zx_chess_boot_picture_is_the_seeds_display_file() {
    let listing =
        std::fs::read_to_string(common::repo("tests/fixtures/1k-listing-bytes.txt")).unwrap();
    let mut bytes = Vec::new();
    for line in listing.lines() {
        let mut words = line.split_whitespace();
        let Some(addr) = words.next().and_then(|a| u16::from_str_radix(a, 16).ok()) else {
            continue;
        };
        for (i, w) in words.enumerate() {
            let a = addr + i as u16;
            if (0x4332..=0x43AE).contains(&a) {
                bytes.push(u8::from_str_radix(w, 16).unwrap());
            }
        }
    }
    assert_eq!(bytes.len(), 0x43AE - 0x4332 + 1);
    assert_eq!(bytes[0], 0x76, "the display file opens with a NEWLINE");
    let rows: Vec<Vec<u8>> = bytes[1..]
        .split(|&b| b == 0x76)
        .take(24)
        .map(<[u8]>::to_vec)
        .collect();
    assert_eq!(rows.len(), 24);
    let p = Picture::of(&boot_display::<ChessRules>("1k-zx-chess"));
    assert_zx81_cells(&p, &rows, "1K ZX Chess");
    // The ZX81 shows its white paper all round.
    assert_border(&p, WHITE);
    // Inverse video: row 4 starts with an inverse space (all ink), then the
    // grey 0x08, a one-pixel chequer.
    assert!(cell(&p, 4, 0).iter().all(|&px| px == BLACK));
    let grey = cell(&p, 4, 1);
    assert_eq!((grey[0], grey[1], grey[8]), (BLACK, WHITE, WHITE));
    assert_golden(&p, "1k-zx-chess-boot.png");
}

/// Draughts 1K: the board the seed's comment draws, with its empty dark
/// squares as the grey 0x08 the code prints (source: seed 002, the
/// `;     1B B B B␊` picture, as `tests/fixtures/draughts-1k/board.txt`).
#[test]
fn draughts_1k_boot_picture_is_the_seeds_board() {
    let board =
        std::fs::read_to_string(common::repo("tests/fixtures/draughts-1k/board.txt")).unwrap();
    let mut rows: Vec<Vec<u8>> = board
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.replace('█', "▒").chars().map(zx81_code).collect())
        .collect();
    assert_eq!(rows.len(), 8);
    rows.resize(24, Vec::new());
    let p = Picture::of(&boot_display::<Draughts>("draughts-1k"));
    assert_zx81_cells(&p, &rows, "Draughts 1K");
    assert_border(&p, WHITE);
    assert_golden(&p, "draughts-1k-boot.png");
}

/// Toni Baker's draughts: the working board as the program's SHOW prints it,
/// computer's men (inverse W) at the top, the person's (inverse B) below,
/// empty dark squares inverse spaces (source: the SHOW routine of Toni
/// Baker's listing, seed 003, as `tests/engines/baker.rs` reads the text).
#[test]
fn baker_boot_picture_is_the_working_board() {
    let text = [
        ".w.w.w.w", "w.w.w.w.", ".w.w.w.w", "#.#.#.#.", ".#.#.#.#", "b.b.b.b.", ".b.b.b.b",
        "b.b.b.b.",
    ];
    let mut rows: Vec<Vec<u8>> = text
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| match c {
                    '.' => 0x00,
                    '#' => 0x80,
                    c => zx81_code(c),
                })
                .collect()
        })
        .collect();
    rows.resize(24, Vec::new());
    let p = Picture::of(&boot_display::<Draughts>("baker-draughts"));
    assert_zx81_cells(&p, &rows, "Baker");
    assert_border(&p, WHITE);
    assert_golden(&p, "baker-draughts-boot.png");
}

/// ChesSkelet: the board as the program prints it through `RST 16`
/// (source: seed 001, chapter 5 "Printing the board": pieces as letters,
/// capitals for White, the coordinates beside and below, and every square's
/// BRIGHT flipped from its neighbour's, "changing the bright of the
/// character position for each piece being printed"), in the colours a
/// Spectrum has at power-on (ATTR_P 56: black ink on white paper; BORDER 7:
/// white; Spectrum manual, chapters 16 and 25).
#[test]
fn chesskelet_boot_picture_is_its_printed_board() {
    let display = boot_display::<ChessRules>("chesskelet");
    let p = Picture::of(&display);
    assert_border(&p, spectrum_colour(7, false));
    let rows = [
        "rnbqkbnr 8",
        "pppppppp 7",
        "         6",
        "         5",
        "         4",
        "         3",
        "PPPPPPPP 2",
        "RNBQKBNR 1",
    ];
    let mut brights = Vec::new();
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let block = cell(&p, r, c);
            // Paper is white at one of the two levels; ink is black.
            let paper = block
                .iter()
                .copied()
                .find(|&px| px != BLACK)
                .expect("some paper");
            let bright = paper == spectrum_colour(7, true);
            assert!(
                bright || paper == spectrum_colour(7, false),
                "row {r} col {c}"
            );
            assert_eq!(
                block,
                glyph_pixels(charset::glyph(ch).unwrap(), BLACK, paper),
                "row {r} col {c} should be {ch:?}"
            );
            if c < 8 {
                brights.push(bright);
            }
        }
    }
    // A chequerboard of BRIGHT: every square differs from the one to its
    // right and the one below.
    for r in 0..8 {
        for c in 0..8 {
            if c < 7 {
                assert_ne!(brights[r * 8 + c], brights[r * 8 + c + 1], "({r},{c}) →");
            }
            if r < 7 {
                assert_ne!(brights[r * 8 + c], brights[(r + 1) * 8 + c], "({r},{c}) ↓");
            }
        }
    }
    assert_golden(&p, "chesskelet-boot.png");
}

/// After a move the picture follows the program's own output: ChesSkelet
/// echoes the typed move on its input line and reprints the board with the
/// pawn moved (seed 001, chapter 5; the text as `chesskelet_engine.rs`
/// checks it).
#[test]
fn chesskelet_picture_follows_the_game() {
    use retrochess::rules::Game;
    let mut e = ChessRules::create(
        retrochess::engines::find("chesskelet").unwrap(),
        &EngineOptions::default(),
    )
    .unwrap();
    let before = Picture::of(&e.display().unwrap());
    let mut game = Game::initial(ChessRules);
    game.play_wire(&"e2e4".parse().unwrap());
    e.play(&game, u64::MAX).unwrap();
    let after = Picture::of(&e.display().unwrap());
    assert_ne!(before, after);
    let screen = e.screen().unwrap();
    // Every printed character of the text screen is our glyph in the picture.
    for r in 0..22 {
        for (c, ch) in screen.row_text(r).chars().enumerate() {
            if let Some(g) = charset::glyph(ch) {
                let block = cell(&after, r, c);
                let paper = block.iter().copied().find(|&px| px != BLACK);
                let paper = paper.unwrap_or(spectrum_colour(7, false));
                assert_eq!(
                    block,
                    glyph_pixels(g, BLACK, paper),
                    "row {r} col {c} {ch:?}"
                );
            }
        }
    }
}
