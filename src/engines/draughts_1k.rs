//! Draughts 1K (*Not Only 30 Programs for the Sinclair ZX81: 1K*) on an
//! emulated 1K ZX81.
//!
//! Facts from seed 002, a commented disassembly of the book's machine-code
//! routine 0x4082..0x4130 (the 175 bytes in `tapes/draughts-1k.bin`; what
//! the code does is read out in `tapes/DRAUGHTS-1K.md`).
//!
//! # The board is the display file
//! The routine keeps no board: `ld hl,(D_FILE)` at 0x408E and `ld b,0x48`
//! scan 72 bytes from the display file's first byte. Row r (0 = top) and
//! column c are at D_FILE + 1 + 9r + c: eight rows of 8 characters, each
//! ended by a NEWLINE (0x76) that guards the side edges. An empty dark
//! square is 0x08 (the grey chequer; the seed's comment says 00, the code
//! compares with 08), the routine's men `B` 0x27 and kings inverse `B` 0xA7,
//! the other side's `W` 0x3C and inverse `W` 0xBC. The routine moves only
//! the `B` pieces, at the top: men down (+8, +10), kings up (−10, −8). That
//! is PDN Black, on squares 1–12, the standard diagram: PDN square n is
//! row (n−1) div 4. It always takes a capture if it finds one (the last in
//! scan order), otherwise the last safe step, otherwise the first step;
//! it never jumps twice, and crowns a piece landing on the bottom row by
//! setting bit 7 (`or 0x80` at 0x40ED).
//!
//! # What is ours: the BASIC's part
//! The book's BASIC half (printing the board, reading the person's move,
//! the loop calling `USR 16514`) is **not** in the seed. This driver plays
//! that part:
//! - The memory is a 1K ZX81 after `NEW` ([`Zx81::new`]) holding the
//!   program the seed gives: line 100, a `REM` whose 175 characters are the
//!   routine, at 0x407D (so the routine starts at 16514 = 0x4082), and
//!   after it, where the ROM keeps it, the display file: collapsed as on
//!   every 1K machine, a NEWLINE, then the board as a `PRINT` of eight
//!   8-character lines would leave it (light squares blank, the row labels
//!   1, 3, 5, 7 in column A as the seed's picture shows), then the 16 other
//!   lines of the screen empty (a NEWLINE each), 25 NEWLINEs in all. The
//!   BASIC lines that would stand between the `REM` and the display file
//!   are unknown; the routine finds the board through D_FILE and reads
//!   nothing else of the program except the 10 bytes before the display
//!   file, where the steps and jumps of a king on the top two rows land:
//!   here the routine's own tail (D8 E1 E1 C9 5E 23 56 EB C9 76), none of
//!   them 08, 3C or BC, so such a king has the board's edge there and one
//!   on the top row stays put, as the seed says ("non si muove più").
//! - Before each move the driver writes the whole position into the
//!   display file, as the BASIC would have after the person's move, and
//!   CALLs 0x4082 until it returns (as `USR` does).
//! - The move is read from the board: the square that lost a `B`, the one
//!   that gained it (inverse if crowned), and a `W` square emptied by a
//!   capture; PRBUFF (SAFE_ORG 0x403C, SAFE_DST 0x403E, CAPT_MID 0x4044,
//!   display-file addresses) must say the same. An unchanged board is the
//!   program's dead end: it found no move ([`Played::DeadEnd`]).
//! - For White the board is turned round (PDN n ↔ 33 − n) with the colours
//!   swapped, so that the routine's `B` pieces are always the side to move,
//!   and its move is turned back: the same position mirrored gives the
//!   mirrored move in the same T-states.
//!
//! # A ROM read
//! With no move found, PRBUFF is all zero and the routine "makes" the move
//! from 0x0000 to 0x0000: it writes 08 twice into the ROM (ignored, as on
//! the real machine; even a normal step writes 08 once there through
//! CAPT_ORG = 0) and reads the ROM's first byte with `ld a,(hl)` at 0x40D8.
//! Our ZX81 has no ROM image and stops on a ROM read it cannot serve, so a
//! trap at 0x40D8 performs that one read when HL is in the ROM: the byte
//! goes back into the ROM at 0x40EF and is lost, so its value cannot
//! matter; we give the ZX81 ROM's first byte, 0xD3 (`OUT (0xFD),A`).
//!
//! # Options, score, nodes, time
//! - No options: the routine reads nothing the machine leaves to chance
//!   (not FRAMES: its only memory reads are D_FILE, the 72 board bytes,
//!   the bytes next to them and PRBUFF), so the seed changes nothing and
//!   there is no `Frames` to offer.
//! - `score`: the routine keeps none (`None`).
//! - `nodes`: the calls of EVAL (0x40F1, "Valutazione di una mossa" in the
//!   seed's listing), one per direction tried from each `B` piece: the
//!   moves the routine looked at.
//! - `authentic`: the routine's T-states at the SLOW-mode rate of
//!   18,040 user T-states per 50 Hz frame. The seed shows no `FAST`, and a
//!   ZX81 runs BASIC in SLOW mode unless told otherwise: about 10 ms a move.

use std::time::Duration;

use log::debug;

use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Hang, InputPath, OptionSpec, Played, Reply,
};
use crate::machine::zx81::{FramesMode, RAM_START, Ram, Zx81, sysvar};
use crate::machine::{Core, MachineError, Regs, Resume, Stop, TextScreen};
use crate::rules::draughts::{Draughts, PdnMove, Position, Square};
use crate::rules::{Color, Game};

/// The routine, transcribed from seed 002 (see tapes/README.md).
pub const IMAGE: &[u8] = include_bytes!("../../tapes/draughts-1k.bin");

/// Entry point, `USR 16514`: the first character of the `REM`.
pub const ENTRY: u16 = 0x4082;
/// EVAL, which tries one direction from one piece.
pub const EVAL: u16 = 0x40F1;
/// `ld a,(hl)` reading the moving piece off the origin square.
const READ_ORIGIN: u16 = 0x40D8;
/// SAFE_ORG, SAFE_DST and CAPT_MID in the printer buffer.
pub const SAFE_ORG: u16 = 0x403C;
pub const SAFE_DST: u16 = 0x403E;
pub const CAPT_MID: u16 = 0x4044;
/// The ZX81 ROM's first byte (`OUT (0xFD),A`), all the routine ever reads
/// of the ROM.
const ROM_FIRST_BYTE: u8 = 0xD3;

/// The `REM` line holding the routine: line 100, then its length.
const LINE_100: [u8; 2] = [0x00, 0x64];
const REM: u8 = 0xEA;
const NEWLINE: u8 = 0x76;
/// Where the display file starts: right after the `REM` line (0x4132).
pub const DISPLAY_FILE: u16 = sysvar::PROGRAM + LINE_HEADER + IMAGE.len() as u16 + 1;
/// Line number, length, `REM`.
const LINE_HEADER: u16 = 5;
/// Lines of the screen, and the display file's length with all but the
/// board's eight collapsed: a NEWLINE, 8 × 9 board bytes, 16 NEWLINEs.
const SCREEN_LINES: usize = 24;
const DISPLAY_BYTES: usize = 1 + 8 * 9 + (SCREEN_LINES - 8);
/// The end marker of an empty variables area.
const VARS_END: u8 = 0x80;

/// Display-file codes of the board.
pub const EMPTY: u8 = 0x08;
pub const LIGHT: u8 = 0x00;
pub const MAN: u8 = 0x27;
pub const KING: u8 = 0xA7;
pub const THEIR_MAN: u8 = 0x3C;
pub const THEIR_KING: u8 = 0xBC;
/// The row labels 1, 3, 5, 7 of the seed's picture, in column A.
const LABEL_ONE: u8 = 0x1D;

/// Bytes that identify the routine in a replacement image.
const SIGNATURE: [(u16, &[u8]); 3] = [
    (ENTRY, &[0xAF, 0x21, 0x3C, 0x40, 0x06, 0x0A]),
    (0x408C, &[0x06, 0x48, 0x2A, 0x0C, 0x40]),
    (EVAL, &[0xE5, 0x19, 0x7E, 0xFE, 0x08]),
];

pub static INFO: EngineInfo = EngineInfo {
    id: "draughts-1k",
    name: "Draughts 1K",
    // Seed 002 names neither a person nor a year. The year is OURS: 1982,
    // as we date the book (the seed's reprint is of a 1K ZX81 book whose
    // companion volume it advertises); check it against the book itself.
    author: "the book Not Only 30 Programs for the Sinclair ZX81: 1K",
    year: 1982,
    machine: "ZX81 (1K)",
    about: "The draughts routine of the book Not Only 30 Programs for the Sinclair ZX81: 1K: \
            175 bytes of machine code that keep the board in the display file, look one move \
            ahead, take a single capture whenever they see one and otherwise a step the \
            opponent cannot jump back over, running unmodified in an emulated 1K ZX81. The \
            book's BASIC half is not preserved; the driver plays its part.",
};

/// The options this driver declares: none (see the module notes).
pub fn declared_options() -> Vec<OptionSpec> {
    Vec::new()
}

/// The routine's board: the display-file code of each PDN square, in the
/// routine's orientation (its own pieces `B`, at the top).
pub type Board = [u8; 32];

/// The Draughts 1K driver.
pub struct Draughts1K {
    options: EngineOptions,
    image: Vec<u8>,
    zx: Zx81,
    /// False after a call that did not return: the next move starts on a
    /// machine built afresh.
    sound: bool,
}

impl Draughts1K {
    /// The machine with the routine (built in, or `options.tape`, a raw
    /// image of it) and the initial position on its screen.
    ///
    /// # Errors
    /// The replacement image cannot be read or is not the routine.
    pub fn new(options: &EngineOptions) -> Result<Draughts1K, EngineError> {
        let image = match &options.tape {
            Some(path) => crate::machine::read_tape(path)?,
            None => IMAGE.to_vec(),
        };
        check_image(&image)?;
        let zx = machine(&image, options.seed, options.core)?;
        Ok(Draughts1K {
            options: options.clone(),
            image,
            zx,
            sound: true,
        })
    }

    /// The emulated machine, for tests and tools.
    pub fn machine(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    /// Writes `board` into the display file.
    fn draw(&mut self, board: &Board) {
        let d_file = self.zx.peek16(sysvar::D_FILE);
        for sq in Square::all() {
            self.zx.poke(d_file + square_offset(sq), board[sq.index()]);
        }
    }

    /// The display file's bytes as the routine scans them and around.
    fn display_bytes(&self) -> Vec<u8> {
        let d_file = self.zx.peek16(sysvar::D_FILE);
        (0..DISPLAY_BYTES as u16)
            .map(|i| self.zx.peek(d_file + i))
            .collect()
    }

    /// Runs the routine on `before` and reads what it did.
    fn think(&mut self, before: &Board, budget: u64) -> Result<Reply<RoutineMove>, EngineError> {
        if !self.sound {
            self.zx = machine(&self.image, self.options.seed, self.options.core)?;
            self.sound = true;
        }
        self.draw(before);
        let screen_before = self.display_bytes();
        self.zx.watch(&[EVAL]);
        let t0 = self.zx.busy_tstates();
        let stop = self.zx.call(ENTRY, budget);
        let tstates = self.zx.busy_tstates() - t0;
        let nodes = self.zx.hits(0);
        let played = match stop {
            Stop::Returned => self.read_move(&screen_before)?,
            other => {
                self.sound = false;
                Played::Hung(Hang::from_stop(other))
            }
        };
        debug!("Draughts 1K: {played:?} in {tstates} T-states, {nodes} moves looked at");
        Ok(Reply {
            played,
            score: None,
            thoughts: None,
            nodes,
            tstates,
            authentic: authentic_time(tstates),
            path: InputPath::Injected(
                "board written into the display file in place of the book's BASIC".to_string(),
            ),
        })
    }

    /// The routine's move, in its own orientation, from the display file
    /// before and after, checked against PRBUFF.
    fn read_move(&self, screen_before: &[u8]) -> Result<Played<RoutineMove>, EngineError> {
        let screen_after = self.display_bytes();
        let m = board_move(screen_before, &screen_after)?;
        let d_file = self.zx.peek16(sysvar::D_FILE);
        let addr = |sq: Option<Square>| sq.map_or(0, |s| d_file + square_offset(s));
        let said = (
            self.zx.peek16(SAFE_ORG),
            self.zx.peek16(SAFE_DST),
            self.zx.peek16(CAPT_MID),
        );
        let seen = match &m {
            Played::Move(m) => (addr(Some(m.from)), addr(Some(m.to)), addr(m.captured)),
            _ => (0, 0, 0),
        };
        if said != seen {
            return Err(EngineError::Unreadable(format!(
                "the board shows {m:?} but PRBUFF holds {:04X} {:04X} {:04X}",
                said.0, said.1, said.2
            )));
        }
        Ok(m)
    }
}

/// A move on the routine's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoutineMove {
    pub from: Square,
    pub to: Square,
    pub captured: Option<Square>,
}

impl RoutineMove {
    /// The move on the real board, for the routine playing `side`.
    pub fn real(self, side: Color) -> PdnMove {
        let (from, to) = (
            routine_square(self.from, side),
            routine_square(self.to, side),
        );
        match self.captured {
            None => PdnMove::step(from, to),
            Some(_) => PdnMove::capture(vec![from, to]).expect("two squares"),
        }
    }
}

impl Engine<Draughts> for Draughts1K {
    fn info(&self) -> &'static EngineInfo {
        &INFO
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.zx = machine(&self.image, self.options.seed, self.options.core)?;
        self.sound = true;
        Ok(())
    }

    fn play(&mut self, game: &Game<Draughts>, budget: u64) -> Result<Reply<PdnMove>, EngineError> {
        let side = game.position().turn();
        let board = routine_board(game.position(), side);
        let reply = self.think(&board, budget.min(self.options.budget))?;
        let played = match reply.played {
            Played::Move(m) => Played::Move(m.real(side)),
            Played::DeadEnd => Played::DeadEnd,
            Played::Hung(h) => Played::Hung(h),
        };
        Ok(Reply {
            played,
            score: reply.score,
            thoughts: None,
            nodes: reply.nodes,
            tstates: reply.tstates,
            authentic: reply.authentic,
            path: reply.path,
        })
    }

    fn screen(&mut self) -> Option<TextScreen> {
        Some(self.zx.screen())
    }
}

/// Refuses an image that is not the routine.
fn check_image(image: &[u8]) -> Result<(), EngineError> {
    if image.len() != IMAGE.len() {
        return Err(MachineError::BadTape(format!(
            "not Draughts 1K: {} bytes, the routine is {}",
            image.len(),
            IMAGE.len()
        ))
        .into());
    }
    for (addr, bytes) in SIGNATURE {
        let at = usize::from(addr - ENTRY);
        if image[at..at + bytes.len()] != *bytes {
            return Err(MachineError::BadTape(format!(
                "not Draughts 1K: the bytes at 0x{addr:04X} differ from the routine's"
            ))
            .into());
        }
    }
    Ok(())
}

/// A 1K ZX81 holding the `REM` line with `image`, the display file after
/// it showing the initial position, and the trap of the ROM read.
fn machine(image: &[u8], seed: u64, core: Core) -> Result<Zx81, EngineError> {
    let mut zx = Zx81::new(Ram::K1, FramesMode::Slow, seed);
    zx.set_core(core);
    let mut line = LINE_100.to_vec();
    line.extend_from_slice(&(image.len() as u16 + 2).to_le_bytes());
    line.push(REM);
    line.extend_from_slice(image);
    line.push(NEWLINE);
    zx.load(sysvar::PROGRAM, &line)?;
    let d_file = DISPLAY_FILE;
    zx.load(
        d_file,
        &display_file(&routine_board(&Position::initial(), Color::Black)),
    )?;
    let vars = d_file + DISPLAY_BYTES as u16;
    zx.load(vars, &[VARS_END])?;
    zx.poke16(sysvar::D_FILE, d_file);
    zx.poke16(sysvar::VARS, vars);
    zx.poke16(sysvar::E_LINE, vars + 1);
    zx.trap(READ_ORIGIN, read_rom_origin);
    Ok(zx)
}

/// `ld a,(hl)` at 0x40D8 when HL points into the ROM (no move found): the
/// ROM's byte, 7 T-states as the instruction takes. Otherwise the
/// instruction runs.
fn read_rom_origin(regs: &mut Regs, _memory: &mut dyn crate::machine::Memory) -> Resume {
    if regs.hl >= RAM_START {
        return Resume::Continue { tstates: 0 };
    }
    regs.af = u16::from(ROM_FIRST_BYTE) << 8 | (regs.af & 0x00FF);
    regs.pc = READ_ORIGIN + 1;
    Resume::Continue { tstates: 7 }
}

/// The display file showing `board`: a NEWLINE, eight rows of 8
/// characters and a NEWLINE, 16 empty lines.
pub fn display_file(board: &Board) -> Vec<u8> {
    let mut bytes = vec![NEWLINE];
    for row in 0..8u8 {
        for col in 0..8u8 {
            let code = match Square::at(row as i8 + 1, col as i8) {
                Some(sq) => board[sq.index()],
                None if col == 0 => LABEL_ONE + row,
                None => LIGHT,
            };
            bytes.push(code);
        }
        bytes.push(NEWLINE);
    }
    bytes.extend([NEWLINE; SCREEN_LINES - 8]);
    bytes
}

/// The offset of a PDN square from D_FILE: 1 + 9 × row + column.
pub fn square_offset(sq: Square) -> u16 {
    1 + 9 * u16::from(sq.row() - 1) + u16::from(sq.column())
}

/// The square the routine sees for `sq` when it plays `side`: the same for
/// Black, turned round (n ↔ 33 − n) for White. Its own inverse.
pub fn routine_square(sq: Square, side: Color) -> Square {
    match side {
        Color::Black => sq,
        Color::White => Square::new(33 - u32::from(sq.number())).expect("1..=32"),
    }
}

/// `pos` as the routine must see it to move for `side`.
pub fn routine_board(pos: &Position, side: Color) -> Board {
    let mut board = [EMPTY; 32];
    for sq in Square::all() {
        let code = match pos.piece_at(sq) {
            None => EMPTY,
            Some(p) => match (p.color == side, p.king) {
                (true, false) => MAN,
                (true, true) => KING,
                (false, false) => THEIR_MAN,
                (false, true) => THEIR_KING,
            },
        };
        board[routine_square(sq, side).index()] = code;
    }
    board
}

/// The routine's move from the display file before and after it ran: one
/// `B` piece gone from its square and arrived on another (crowned only on
/// the bottom row), at most one `W` piece gone, nothing else changed.
/// Nothing changed: the dead end.
///
/// # Errors
/// Any other change, described.
pub fn board_move(before: &[u8], after: &[u8]) -> Result<Played<RoutineMove>, EngineError> {
    let changed: Vec<usize> = (0..before.len().min(after.len()))
        .filter(|&i| before[i] != after[i])
        .collect();
    if changed.is_empty() {
        return Ok(Played::DeadEnd);
    }
    let square_at = |i: usize| Square::all().find(|&s| usize::from(square_offset(s)) == i);
    let bad = |why: String| Err(EngineError::Unreadable(why));
    let (mut from, mut to, mut captured) = (None, None, None);
    for &i in &changed {
        let Some(sq) = square_at(i) else {
            return bad(format!(
                "byte {i} of the display file changed off the board"
            ));
        };
        match (before[i], after[i]) {
            (MAN | KING, EMPTY) if from.is_none() => from = Some(sq),
            (EMPTY, MAN | KING) if to.is_none() => to = Some(sq),
            (THEIR_MAN | THEIR_KING, EMPTY) if captured.is_none() => captured = Some(sq),
            (b, a) => return bad(format!("square {sq} went from {b:02X} to {a:02X}")),
        }
    }
    let (Some(from), Some(to)) = (from, to) else {
        return bad(format!("{} squares changed, no move", changed.len()));
    };
    let (moved, arrived) = (
        before[usize::from(square_offset(from))],
        after[usize::from(square_offset(to))],
    );
    let crowned = moved == MAN && arrived == KING && to.row() == 8;
    if moved != arrived && !crowned {
        return bad(format!(
            "{moved:02X} left {from} but {arrived:02X} arrived on {to}"
        ));
    }
    Ok(Played::Move(RoutineMove { from, to, captured }))
}

/// Seconds on a ZX81 in SLOW mode for `tstates` of the routine.
pub fn authentic_time(tstates: u64) -> Duration {
    super::onek::authentic_time(tstates, FramesMode::Slow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn squares_sit_where_the_layout_puts_them() {
        // tests/fixtures/draughts-1k/layout.txt: 1 at 2, 5 at 10, 32 at 70.
        assert_eq!(square_offset(sq(1)), 2);
        assert_eq!(square_offset(sq(5)), 10);
        assert_eq!(square_offset(sq(12)), 26);
        assert_eq!(square_offset(sq(29)), 64);
        assert_eq!(square_offset(sq(32)), 70);
        assert_eq!(routine_square(sq(1), Color::White), sq(32));
        assert_eq!(routine_square(sq(14), Color::White), sq(19));
        assert_eq!(routine_square(sq(14), Color::Black), sq(14));
    }

    #[test]
    fn the_display_file_is_the_seeds_picture() {
        let bytes = display_file(&routine_board(&Position::initial(), Color::Black));
        assert_eq!(bytes.len(), DISPLAY_BYTES);
        assert_eq!(bytes.iter().filter(|&&b| b == NEWLINE).count(), 25);
        // "1B B B B" and "W W W W ".
        assert_eq!(&bytes[1..10], &[0x1D, MAN, 0, MAN, 0, MAN, 0, MAN, NEWLINE]);
        assert_eq!(
            &bytes[64..73],
            &[
                THEIR_MAN, 0, THEIR_MAN, 0, THEIR_MAN, 0, THEIR_MAN, 0, NEWLINE
            ]
        );
    }

    #[test]
    fn the_board_has_edges_above_it() {
        let zx = machine(IMAGE, 1, Core::default()).unwrap();
        assert_eq!(DISPLAY_FILE, 0x4132);
        assert_eq!(zx.peek16(sysvar::D_FILE), DISPLAY_FILE);
        // What a king's steps and jumps from the top two rows reach.
        let before: Vec<u8> = (DISPLAY_FILE - 10..DISPLAY_FILE)
            .map(|a| zx.peek(a))
            .collect();
        assert_eq!(
            before,
            [
                0xD8, 0xE1, 0xE1, 0xC9, 0x5E, 0x23, 0x56, 0xEB, 0xC9, NEWLINE
            ]
        );
        assert_eq!(zx.peek(DISPLAY_FILE + DISPLAY_BYTES as u16), VARS_END);
        assert_eq!(zx.peek16(sysvar::VARS), DISPLAY_FILE + DISPLAY_BYTES as u16);
    }

    #[test]
    fn board_differences_are_read_strictly() {
        let before = display_file(&routine_board(&Position::initial(), Color::Black));
        let mut after = before.clone();
        after[usize::from(square_offset(sq(12)))] = EMPTY;
        after[usize::from(square_offset(sq(16)))] = MAN;
        let m = board_move(&before, &after).unwrap();
        let step = RoutineMove {
            from: sq(12),
            to: sq(16),
            captured: None,
        };
        assert_eq!(m, Played::Move(step));
        assert_eq!(step.real(Color::Black).to_string(), "12-16");
        assert_eq!(step.real(Color::White).to_string(), "21-17");
        assert_eq!(board_move(&before, &before).unwrap(), Played::DeadEnd);
        let mut odd = after.clone();
        odd[usize::from(square_offset(sq(16)))] = KING;
        assert!(
            board_move(&before, &odd).is_err(),
            "crowned off the bottom row"
        );
        let mut odd = after;
        odd[80] = 0x3C;
        assert!(
            board_move(&before, &odd).is_err(),
            "a change under the board"
        );
    }
}
