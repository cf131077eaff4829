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
//!
//! # Candidates ([`Engine::collect_candidates`])
//! EVAL computes no number: its verdict on a direction is the branch it
//! takes, and probes (which never stop the routine) see it. At
//! [`EVAL`] (0x40F1, "Valutazione di una mossa") HL is the origin and DE
//! the direction; then, in the seed's listing:
//! - [`RECORD_CAPTURE`] 0x4117 `ld (CAPT_DST),hl`: a capture ("si tratta di
//!   una mossa di cattura e viene perciò salvata"). MOVE plays a capture
//!   over any step (`inc (hl)`/`dec (hl)` on CAPT_DST+1 at 0x40BE, `jr
//!   nz,CAPT_FOUND` at 0x40C3).
//! - [`SAVE_MOVE`] 0x4101 without PICK_BEST: a safe step (`jr z,PICK_BEST`
//!   at 0x40FF not taken: no W beyond the destination).
//! - [`PICK_BEST`] 0x4123, then SAVE_MOVE: an unsafe step kept because no
//!   step is kept yet (`ld a,(SAFE_DST+1)` / `and a` / `jr z,SAVE_MOVE`
//!   at 0x4123..0x4127, "accetta la mossa solo se non è già stata trovata
//!   una mossa sicura").
//! - PICK_BEST, then END1 (0x4129): an unsafe step refused.
//! - none of them: no move (the destination holds a `B` or an edge, or a
//!   capture's landing square is taken); a node, not a candidate.
//!
//! `raw` is that verdict as a rung of the routine's ladder, higher
//! preferred ([`Rung`]): 3 capture, 2 safe step, 1 unsafe step kept, 0
//! unsafe step refused. Ties go to the last ([`Ties::KeepsLast`]): the
//! stores of a capture (0x4117..0x411F) and of a step (0x4101..0x4106) are
//! unconditional, so a later one replaces the earlier; rung 1 never holds
//! more than the first step of all. `score`, in draughts units, is the
//! material the verdict foresees one ply ahead: +100 for a capture (a man
//! taken), 0 for a safe step, −100 for an unsafe one (the man the opponent
//! can jump back over). `seq` counts the candidates in EVAL's order (the
//! scan from the top-left square, +8 before +10, −10 before −8). For
//! White the moves are turned round as the move is. On a hang the
//! candidates are those weighed before it (the last one's verdict perhaps
//! cut short).

use log::debug;

use super::driver::{Driver, Injecting, Program, Read, Track, Untypable};
use super::{
    Candidate, EngineError, EngineInfo, EngineOptions, Entry, Hang, OptionSpec, Played, Thoughts,
    Ties,
};
use crate::machine::zx81::{FramesMode, RAM_START, Ram, Zx81, sysvar};
use crate::machine::{Core, MachineError, Regs, Resume, Sample, Stop};
use crate::rules::draughts::{Draughts, PdnMove, Position, Square, Variant};
use crate::rules::{Color, Game};

/// The routine, transcribed from seed 002 (see tapes/README.md).
pub const IMAGE: &[u8] = include_bytes!("../../tapes/draughts-1k.bin");

/// Entry point, `USR 16514`: the first character of the `REM`.
pub const ENTRY: u16 = 0x4082;
/// EVAL, which tries one direction from one piece: HL the origin, DE the
/// direction (seed 002: `40f1 e5 EVAL push hl`).
pub const EVAL: u16 = 0x40F1;
/// SAVE_MOVE, a step kept in SAFE_ORG/SAFE_DST (seed 002: `4101 e1
/// SAVE_MOVE pop hl`).
pub const SAVE_MOVE: u16 = 0x4101;
/// A capture kept in CAPT_* (seed 002: `4117 22 42 40 ld (CAPT_DST),hl`).
pub const RECORD_CAPTURE: u16 = 0x4117;
/// PICK_BEST, an unsafe step (seed 002: `4123 3a 3f 40 PICK_BEST ld
/// a,(SAFE_DST+1)`).
pub const PICK_BEST: u16 = 0x4123;
/// How the routine breaks ties, for [`Thoughts::tie_break`].
pub const TIE_BREAK: &str = "the last found wins: a capture (0x4117 ld (CAPT_DST),hl) and a \
     safe step (0x4101 SAVE_MOVE) overwrite the one kept; an unsafe step is kept only while \
     SAFE_DST is empty (0x4123 ld a,(SAFE_DST+1) / jr z,SAVE_MOVE)";
/// Draughts units of a man.
const MAN_UNITS: i32 = 100;
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
const DISPLAY_BYTES: usize = 1 + BOARD_BYTES + (SCREEN_LINES - 8);
/// The board's eight lines in the display file, each with its NEWLINE.
const BOARD_BYTES: usize = 8 * 9;
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
pub type RoutineBoard = [u8; 32];

/// The registry's entry.
pub static ENTRIES: [Entry; 1] = [Entry::draughts(&INFO, declared_options, |o| {
    Ok(Box::new(Draughts1K::new(o)?))
})
.house_variant(Variant::Zx81)];

/// The Draughts 1K engine: the routine behind the one pipeline.
pub type Draughts1K = Driver<Routine>;

impl Driver<Routine> {
    /// The machine with the routine (built in, or `options.tape`, a raw
    /// image of it) and the initial position on its screen.
    ///
    /// # Errors
    /// The replacement image cannot be read or is not the routine.
    pub fn new(options: &EngineOptions) -> Result<Draughts1K, EngineError> {
        Ok(Driver::of(Routine::new(options)?, options.clone()))
    }
}

/// The Draughts 1K routine on its machine: what is special about it.
pub struct Routine {
    options: EngineOptions,
    image: Vec<u8>,
    zx: Zx81,
    /// False after a call that did not return: the next move starts on a
    /// machine built afresh.
    sound: bool,
    /// The display file before the call (the move is read against it).
    screen_before: Vec<u8>,
    /// Collect the candidates EVAL weighs.
    collect: bool,
}

impl Routine {
    /// As [`Draughts1K::new`].
    ///
    /// # Errors
    /// As [`Draughts1K::new`].
    pub fn new(options: &EngineOptions) -> Result<Routine, EngineError> {
        let image = match &options.tape {
            Some(path) => crate::machine::read_tape(path)?,
            None => IMAGE.to_vec(),
        };
        check_image(&image)?;
        let zx = machine(&image, options.seed, options.core)?;
        Ok(Routine {
            options: options.clone(),
            image,
            zx,
            sound: true,
            screen_before: Vec::new(),
            collect: false,
        })
    }

    /// The emulated machine, for tests and tools.
    pub fn machine(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    /// Writes `board` into the display file: its eight lines, squares and
    /// what is between them, in one write.
    fn draw(&mut self, board: &RoutineBoard) {
        let d_file = self.zx.peek16(sysvar::D_FILE);
        let mut lines = [0; BOARD_BYTES];
        for (i, b) in lines.iter_mut().enumerate() {
            *b = self.zx.peek(d_file + 1 + i as u16);
        }
        for sq in Square::all() {
            lines[usize::from(square_offset(sq)) - 1] = board[sq.index()];
        }
        self.zx.poke_bytes(d_file + 1, &lines);
    }

    /// The display file's bytes as the routine scans them and around.
    fn display_bytes(&self) -> Vec<u8> {
        let d_file = self.zx.peek16(sysvar::D_FILE);
        (0..DISPLAY_BYTES as u16)
            .map(|i| self.zx.peek(d_file + i))
            .collect()
    }

    /// Probes where EVAL starts and where it gives its verdicts.
    fn arm_probes(&mut self) {
        self.zx.take_samples();
        for addr in [EVAL, SAVE_MOVE, RECORD_CAPTURE, PICK_BEST] {
            self.zx.probe(addr, |_, _| Vec::new());
        }
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

impl Program for Routine {
    type Rules = Draughts;
    type Host = Zx81;

    fn info(&self) -> &'static EngineInfo {
        &INFO
    }

    fn host(&self) -> &Zx81 {
        &self.zx
    }

    fn host_mut(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    fn boot(&mut self, seed: u64) -> Result<(), EngineError> {
        self.zx = machine(&self.image, seed, self.options.core)?;
        self.sound = true;
        Ok(())
    }

    /// The book's BASIC, which read the person's move, is not in the seed.
    fn keys(
        &mut self,
        _: Option<&Track<Draughts>>,
        _: &Game<Draughts>,
    ) -> Result<String, Untypable> {
        Err(Untypable::NoReader(
            "board written into the display file in place of the book's BASIC",
        ))
    }

    /// The whole board into the display file, as the BASIC would have
    /// printed it, on a machine built afresh after a call that did not
    /// return.
    fn inject(&mut self, game: &Game<Draughts>, _: Injecting) -> Result<(), EngineError> {
        if !self.sound {
            self.boot(self.options.seed)?;
        }
        let side = game.position().turn();
        self.draw(&routine_board(game.position(), side));
        self.screen_before = self.display_bytes();
        Ok(())
    }

    /// `USR 16514`: the routine called until it returns, EVAL counted.
    fn run_to_reply(&mut self, _: &Game<Draughts>, budget: u64) -> Stop {
        self.zx.watch(&[EVAL]);
        if self.collect {
            self.arm_probes();
        }
        self.zx.call(ENTRY, budget)
    }

    /// The candidates the probes saw, ranked and turned round for White;
    /// the probes removed.
    fn thoughts(&mut self, game: &Game<Draughts>, _: Stop) -> Option<Thoughts<PdnMove>> {
        if !self.collect {
            return None;
        }
        self.zx.unprobe();
        let samples = self.zx.take_samples();
        let d_file = self.zx.peek16(sysvar::D_FILE);
        let side = game.position().turn();
        let t = Thoughts::rank(weighed(&samples, d_file), Ties::KeepsLast, TIE_BREAK);
        Some(Thoughts {
            ranked: t.ranked.into_iter().map(|c| real(c, side)).collect(),
            ties: t.ties,
            tie_break: t.tie_break,
        })
    }

    fn read_reply(
        &mut self,
        game: &Game<Draughts>,
        stop: Stop,
    ) -> Result<Read<PdnMove>, EngineError> {
        let side = game.position().turn();
        let nodes = self.zx.hits(0);
        let played = match stop {
            Stop::Returned => match self.read_move(&self.screen_before)? {
                Played::Move(m) => Played::Move(m.real(side)),
                Played::Astray(a) => Played::Astray(Box::new(crate::rules::Astray {
                    wire: a.wire.real(side),
                    before: a.before,
                    after: a.after,
                    quirk: a.quirk,
                })),
                Played::DeadEnd => Played::DeadEnd,
                Played::Hung(h) => Played::Hung(h),
            },
            other => {
                self.sound = false;
                Played::Hung(Hang::from_stop(other))
            }
        };
        debug!("Draughts 1K: {played:?}, {nodes} moves looked at");
        Ok(Read::played(played, nodes))
    }

    fn set_collect(&mut self, on: bool) -> bool {
        self.collect = on;
        true
    }
}

/// EVAL's verdict on one direction, as a rung of the routine's ladder
/// (module notes): the higher rung is preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rung {
    /// PICK_BEST, then END1: a step was kept already.
    Refused = 0,
    /// PICK_BEST, then SAVE_MOVE: the first step of all, unsafe.
    FirstUnsafe = 1,
    /// SAVE_MOVE straight from the `jr z,PICK_BEST` not taken.
    Safe = 2,
    /// `ld (CAPT_DST),hl`.
    Capture = 3,
}

impl Rung {
    /// What the probes passed after EVAL's entry say, if EVAL found a move.
    pub fn from_probes(pcs: &[u16]) -> Option<Rung> {
        let saw = |pc| pcs.contains(&pc);
        match (saw(RECORD_CAPTURE), saw(PICK_BEST), saw(SAVE_MOVE)) {
            (true, _, _) => Some(Rung::Capture),
            (false, false, true) => Some(Rung::Safe),
            (false, true, true) => Some(Rung::FirstUnsafe),
            (false, true, false) => Some(Rung::Refused),
            (false, false, false) => None,
        }
    }

    /// The material the verdict foresees, in draughts units.
    pub fn score(self) -> i32 {
        match self {
            Rung::Capture => MAN_UNITS,
            Rung::Safe => 0,
            Rung::FirstUnsafe | Rung::Refused => -MAN_UNITS,
        }
    }
}

/// The moves EVAL weighed, in its order, from the probes' samples: each
/// group starts at an EVAL entry and holds the verdicts that followed.
fn weighed(samples: &[Sample], d_file: u16) -> Vec<Candidate<RoutineMove>> {
    let starts: Vec<usize> = (0..samples.len())
        .filter(|&i| samples[i].pc == EVAL)
        .collect();
    let ends = starts.iter().skip(1).copied().chain([samples.len()]);
    starts
        .iter()
        .zip(ends)
        .filter_map(|(&start, end)| {
            let pcs: Vec<u16> = samples[start + 1..end].iter().map(|s| s.pc).collect();
            let rung = Rung::from_probes(&pcs)?;
            let regs = &samples[start].regs;
            Some((eval_move(d_file, regs.hl, regs.de, rung)?, rung))
        })
        .zip(1..)
        .map(|((wire, rung), seq)| Candidate {
            seq,
            wire,
            raw: rung as i32,
            score: rung.score(),
            chance: None,
        })
        .collect()
}

/// The move EVAL weighed from `origin` in `direction` (display-file
/// addresses), landing one step further for a capture.
fn eval_move(d_file: u16, origin: u16, direction: u16, rung: Rung) -> Option<RoutineMove> {
    let at = |addr: u16| square_at_offset(addr.wrapping_sub(d_file));
    let next = origin.wrapping_add(direction);
    let (to, captured) = match rung {
        Rung::Capture => (next.wrapping_add(direction), Some(at(next)?)),
        _ => (next, None),
    };
    Some(RoutineMove {
        from: at(origin)?,
        to: at(to)?,
        captured,
    })
}

/// A candidate on the routine's board as a candidate on the real one.
fn real(c: Candidate<RoutineMove>, side: Color) -> Candidate<PdnMove> {
    Candidate {
        seq: c.seq,
        wire: c.wire.real(side),
        raw: c.raw,
        score: c.score,
        chance: c.chance,
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
pub fn display_file(board: &RoutineBoard) -> Vec<u8> {
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

/// The PDN square at `offset` from D_FILE, if a square is there.
pub fn square_at_offset(offset: u16) -> Option<Square> {
    Square::all().find(|&s| square_offset(s) == offset)
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
pub fn routine_board(pos: &Position, side: Color) -> RoutineBoard {
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
    let square_at = |i: usize| u16::try_from(i).ok().and_then(square_at_offset);
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
