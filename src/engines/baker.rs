//! Toni Baker's ZX81 draughts (part three of "Mastering Machine Code on Your
//! ZX81", seed 003) on an emulated 16K ZX81, behind [`Engine<Draughts>`].
//!
//! # What runs
//! One image, `tapes/baker-draughts-16k.bin`, loaded at 0x4C97: Toni Baker's
//! SQUAREVAL (0x4DF1), EVALUATE (0x4E43) and WHAT (0x4E9F), transcribed with
//! the "deliberate mistake" fixed and every listing inconsistency resolved,
//! around them **our glue** (`tapes/src/baker-glue.asm`): the direction
//! TABLE, GAME (the scan over the computer's pieces, KPCHKNG, CHOOSE, the
//! move, promotion, no move), SHOW. Where every byte comes from, the board
//! layout and the interface: `tapes/BAKER.md`; the addresses below are the
//! ones pasmo's symbol table `tapes/baker-draughts-16k.sym` gives (a test
//! compares them).
//!
//! # The machine
//! A 16K ZX81 as after power-on and `NEW` ([`Zx81::new`]): full display
//! file, RAMTOP at the top of the 16K, the stack under it. The transcriber
//! set RAMTOP to 0x4A00 so that `NEW` would spare the code; nothing runs
//! BASIC here, and with RAMTOP that low the ROM's CLS would give a collapsed
//! display file (ZX81 manual, RAMTOP: poked "to fool CLS into setting up a
//! minimal display file"), which our SHOW cannot print into. **SLOW mode**:
//! the text's only FAST is for SAVEing the game (its DOWNLOADING section);
//! the game itself is `RUN 4` from BASIC with no FAST line, and the ZX81
//! starts in SLOW, so the board shows while the program thinks. FRAMES moves
//! as in SLOW mode, and by a seeded "person typing the move" time before
//! each call, as between two `RAND USR` of the BASIC loop. At start-up the
//! driver writes the initial position and calls SHOW, so the screen shows
//! the board, as the transcriber's saved tape did.
//!
//! # A move
//! The driver writes the 32 squares (the side to move is the computer, on
//! 1..12 moving towards 32: square n of the game, or 33 − n when it plays
//! White), puts a byte of its seeded generator (reseeded by `new_game`) into
//! RANDOM, and `CALL`s GAME. RESULT 1 is the program's own end: no move,
//! [`Played::DeadEnd`]. Otherwise FROM, TO and OVER (0 for a step) give the
//! move as a step or a single jump: the routines never make more than one
//! jump (the text leaves multiple jumps to the reader), so the arbiter flags
//! an unfinished multi-jump under `english`. The person's move and its check
//! (part one) are not in the seed: the position is always written, never
//! typed ([`InputPath::Injected`]).
//!
//! # Score, nodes, time
//! - `score`: PRIORITY − 0x80 (the text: "a neutral move ... has a priority
//!   of 80 (hex)") × 20 draughts units (hundredths of a man). One man is 5
//!   points in Toni Baker's scale: a man in danger or protecting counts 5, a
//!   captured man adds 5 (a king 7 in each case, 140 units).
//! - `nodes`: visits of NEWPRI (0x4E73), where EVALUATE turns a candidate
//!   into a priority and compares it with its list: every step onto an empty
//!   square (after CALL SQUAREVAL at 0x4E70) and every jump WHAT finds (its
//!   `JR NEWPRI`). Directions blocked by the board are not counted.
//! - `authentic`: the T-states of GAME at SLOW-mode speed (18,040 T-states
//!   of program time per 50 Hz frame).
//!
//! # Candidates ([`Engine::collect_candidates`])
//! A probe (which never stops the program) at [`COMPARE`], 0x4E7C `EX
//! (SP),HL`, where EVALUATE compares a candidate with its list (seed 003,
//! "[Write to 4E7Ch.]": "We now have D containing the computed priority of
//! this move, and E containing the number of steps"): D the priority, H
//! the direction, L the origin's low byte. Every NEWPRI visit runs on to
//! it, so there is one candidate per node. The probe also reads the square
//! in the move's direction: the person's piece there makes it a jump (as
//! our MAKE tells a capture from a step), landing one square further.
//! - `raw`: the priority byte, compared unsigned (`SBC HL,DE` at 0x4E7E
//!   on priority and steps, steps always 1); `score` = (raw − 0x80) × 20,
//!   as [`Reply::score`].
//! - Ties: equal priorities all stay on the list (`JR Z,EQUAL` at 0x4E80,
//!   then `PUSH HL` at NEWITEM 0x4E92), a higher one starts it afresh (`LD
//!   SP,(LBASE)` at 0x4E86), a lower one is forgotten (`JR NC,FORGETIT` at
//!   0x4E84). The list lies on the stack last found first, which is
//!   [`Ties::KeepsLast`] order; our CHOOSE takes its entry PICK =
//!   (RANDOM × COUNT) div 256, so that candidate is moved to the front and
//!   the rest of its list follow in the stack's order.
//! - `seq`: the order of the comparisons (pieces from square 1, each
//!   piece's directions in TABLE's order −4, −5, +4, +5).
//! - On a hang the candidates are those compared before it, unchosen.
//!
//! # The fault, and what the driver does with it
//! SQUAREVAL as published loses its pointer into TABLE: `LD D,A` (0x4E33)
//! stores its value in D, then `JR Z,NOWT` (0x4E3A) goes back to NOWT,
//! `LD A,(DE)` at 0x4DF9, with D = 5 or 7 (a piece in danger, the square
//! behind it blank) or 0 (the end-of-table probe finding 0x80), so the next
//! "direction" is a ROM byte (0x05xx, 0x07xx, 0x00xx). A real ZX81 would go
//! on with its ROM bytes; we have no ROM image (and never will), so the
//! emulated machine stops with [`Fault::RomRead`]. **Policy: that reply is
//! [`Played::Hung`] with [`HangKind::Fault`]**, the detail naming the
//! routine, PC, DE and the ROM byte; the runner scores it (the program loses
//! that game). No faithful alternative exists without the ROM: any byte we
//! supplied would be invented, and patching Toni Baker's bytes would no
//! longer be his program. The investigation: `tapes/BAKER.md`, "Does it
//! crash?".
//!
//! # `baker-draughts-mended`
//! The same driver on another image ([`MENDED`]):
//! `tapes/baker-draughts-mended-16k.bin`, the glue assembled with
//! `--equ mended=1`. Toni Baker's routines with six errata (SQUAREVAL keeps
//! its TABLE pointer, exits with zero at the table's end and counts a piece
//! in danger when the square behind is blank, three bytes longer, so it
//! starts at 0x4DEE; WHAT's load at 0x4EC4; EVALUATE values a step's
//! destination through DESTVAL, 0x4DDD, ours, with the origin blank), and
//! our exercises: multiple
//! jumps with her ADDASTEP and the two procedures she describes, crowning,
//! captures first (`tapes/BAKER.md`, "The mended program"). The move is read
//! from FROM, STEPS and PATH (`15x24x31`); nodes count NEWPRI and our
//! JUMPED; its candidates are the steps compared at [`COMPARE`] and each
//! capture at ENDMOVE, where it can go no further (raw = 256 × steps +
//! priority: the exercises' order). Its names say "mended", the printed
//! one's "as printed", wherever a user sees them.

use log::debug;

use super::driver::{Driver, Injecting, Program, Read, Track, Untypable};
use super::{
    Candidate, EngineError, EngineInfo, EngineOptions, Entry, Hang, Played, Thoughts, Ties,
};
use crate::machine::zx81::{FramesMode, Ram, Zx81};
use crate::machine::{Core, Fault, MachineError, Memory, Regs, Sample, Stop};
use crate::rng::SplitMix64;
use crate::rules::draughts::{Draughts, PdnMove, Position, Square};
use crate::rules::{Color, Game, HangKind};

pub static INFO: EngineInfo = EngineInfo {
    id: "baker-draughts",
    name: "Toni Baker's ZX81 draughts (as printed)",
    author: "Toni Baker",
    year: 1982,
    machine: "ZX81 (16K)",
    about: "AS PRINTED: the draughts routines of Toni Baker's \"Mastering Machine Code on \
            Your ZX81\" (SQUAREVAL, EVALUATE, WHAT: priorities from danger, protection and \
            single jumps), running unmodified on an emulated 16K ZX81 inside our glue (the \
            rest of the program is not in the text). It looks one move ahead, never jumps \
            twice, and as published reads its ROM when a piece is in danger, which stops the \
            game. For the program as the text intends it, see baker-draughts-mended.",
};

/// `baker-draughts-mended`: the same routines with the errata and the
/// exercises (tapes/BAKER.md "The mended program").
pub static MENDED_INFO: EngineInfo = EngineInfo {
    id: "baker-draughts-mended",
    name: "Toni Baker's ZX81 draughts (mended)",
    author: "Toni Baker; errata and exercises by retrochess",
    year: 1982,
    machine: "ZX81 (16K)",
    about: "MENDED, not as printed: Toni Baker's SQUAREVAL, EVALUATE and WHAT with the \
            fewest byte changes that make them do what her text says (SQUAREVAL keeps its \
            table pointer and adds 5 or 7 for a piece in danger), and the exercises the \
            text leaves to the reader written by us: multiple jumps with her ADDASTEP and \
            the two procedures she describes, the computer's men crowned, and captures \
            first (English rules). Plays whole games of English checkers on an emulated \
            16K ZX81. For her bytes as printed, see baker-draughts.",
};

/// Our glue with Toni Baker's routines inside (see `tapes/README.md`).
pub const IMAGE: &[u8] = include_bytes!("../../tapes/baker-draughts-16k.bin");
/// The same glue with the mended routines and the exercises.
pub const MENDED_IMAGE: &[u8] = include_bytes!("../../tapes/baker-draughts-mended-16k.bin");

/// One of the two programs: Toni Baker's routines as printed, or mended.
pub struct BakerProgram {
    pub info: &'static EngineInfo,
    pub image: &'static [u8],
    /// SHOW, which prints the board (ours).
    pub show: u16,
    /// SQUAREVAL and its NOWT (`LD A,(DE)`).
    pub squareval: u16,
    pub nowt: u16,
    /// The multiple-jump exercise: where WHAT's last JR goes, and the cells
    /// with the move's steps and landing squares (mended only).
    pub multi: Option<Multi>,
}

/// The cells and entry of the multiple-jump exercise (ours,
/// `tapes/src/baker-exercises.asm`; the addresses are pasmo's symbol table
/// `tapes/baker-draughts-mended-16k.sym`).
#[derive(Clone, Copy)]
pub struct Multi {
    pub jumped: u16,
    pub steps: u16,
    pub path: u16,
    /// ENDMOVE: a capture "can be increased no more"; its steps on the
    /// stack under the header, C − 1 of them (the candidates' probe).
    pub endmove: u16,
}

/// PRI, the capture's priority (ours; read by the probe at ENDMOVE).
const MENDED_PRI: u16 = 0x4FFB;

/// The printed program.
pub static PRINTED: BakerProgram = BakerProgram {
    info: &INFO,
    image: IMAGE,
    show: SHOW,
    squareval: SQUAREVAL,
    nowt: NOWT,
    multi: None,
};

/// The mended program: SQUAREVAL three bytes lower (erratum 4).
pub static MENDED: BakerProgram = BakerProgram {
    info: &MENDED_INFO,
    image: MENDED_IMAGE,
    show: 0x4D2F,
    squareval: 0x4DEE,
    nowt: 0x4DF6,
    multi: Some(Multi {
        jumped: 0x4ED1,
        steps: 0x4FEA,
        path: 0x4FEB,
        endmove: 0x4F52,
    }),
};

/// Both, printed first.
pub static VARIANTS: [&BakerProgram; 2] = [&PRINTED, &MENDED];

/// Where the image loads: TABLE, the first byte of the program proper
/// (`LD DE,TABLE` = 11 97 4C).
pub const LOAD_AT: u16 = 0x4C97;
/// TABLE's last byte, the 2E end mark (ours: −4 −5 +4 +5 2E).
pub const TABLE_END: u16 = 0x4C9B;
/// In: a random byte for CHOOSE (ours).
pub const RANDOM: u16 = 0x4C9C;
/// Out: 0 moved, 1 no move (ours).
pub const RESULT: u16 = 0x4C9D;
/// Out: low bytes of the origin, landing and captured squares (ours).
pub const FROM: u16 = 0x4C9E;
pub const TO: u16 = 0x4C9F;
pub const OVER: u16 = 0x4CA0;
/// Out: the chosen move's direction (ours).
pub const DIR: u16 = 0x4CA1;
/// Out: moves of the top priority (ours).
pub const COUNT: u16 = 0x4CA2;
/// Out: that priority, 0x80 neutral (ours; Toni Baker's scale).
pub const PRIORITY: u16 = 0x4CA3;
/// Out: which of the COUNT moves CHOOSE took (ours).
pub const PICK: u16 = 0x4CA4;
/// GAME, the entry: `CALL` it, it returns with `RET` (ours).
pub const GAME: u16 = 0x4CA5;
/// SHOW, which prints the board into the display file (ours).
pub const SHOW: u16 = 0x4D4A;
/// KPCHKNG, where EVALUATE jumps after a piece (`JP Z,KPCHKNG` = CA A0 4D;
/// ours at Toni Baker's address).
pub const KPCHKNG: u16 = 0x4DA0;
/// Toni Baker's routines.
pub const SQUAREVAL: u16 = 0x4DF1;
pub const EVALUATE: u16 = 0x4E43;
pub const WHAT: u16 = 0x4E9F;
/// The last byte of WHAT.
pub const BAKER_END: u16 = 0x4ED0;
/// SQUAREVAL's NOWT: `LD A,(DE)`, the next direction.
pub const NOWT: u16 = 0x4DF9;
/// EVALUATE's NXTDIR: `LD A,(DE)`, the next direction.
pub const NXTDIR: u16 = 0x4E52;
/// EVALUATE's NEWPRI: a candidate's priority is computed (the nodes).
pub const NEWPRI: u16 = 0x4E73;
/// EVALUATE compares a candidate with its list: `EX (SP),HL` with D the
/// priority, E the steps, H the direction, L the origin (seed 003,
/// "[Write to 4E7Ch.]").
pub const COMPARE: u16 = 0x4E7C;
/// How the program breaks ties, for [`Thoughts::tie_break`].
pub const TIE_BREAK: &str = "equal priorities all stay on EVALUATE's list (SBC HL,DE / JR \
     Z,EQUAL at 0x4E7E); our CHOOSE (0x4CD7) takes entry (RANDOM x COUNT) div 256 of it, \
     counted from the last found";
/// The byte of the deliberate mistake: E3 as printed, 33 fixed.
pub const TEST_OFFSET: u16 = 0x4E6B;
/// INITIAL, the origin's value + 0x80 (`LD (INITIAL),A` = 32 21 40).
pub const INITIAL: u16 = 0x4021;
/// SCANSQR, where EVALUATE keeps DE (`LD (SCANSQR),DE` = ED 53 79 40).
pub const SCANSQR: u16 = 0x4079;
/// LBASE, the stack pointer of an empty move list (`LD SP,(LBASE)` =
/// ED 7B 7B 40).
pub const LBASE: u16 = 0x407B;
/// PDN square 1 of the working board (ours).
pub const FIRST_SQUARE: u16 = 0x404B;

/// The piece codes, from Toni Baker's bit tests (tapes/BAKER.md).
pub const MAN: u8 = 0xBC;
pub const KING: u8 = 0x3C;
pub const HIS_MAN: u8 = 0xA7;
pub const HIS_KING: u8 = 0x27;
pub const EMPTY: u8 = 0x80;

/// Toni Baker's neutral priority.
pub const NEUTRAL: u8 = 0x80;
/// Draughts units (hundredths of a man) per priority point: a man is 5.
pub const UNITS_PER_POINT: i32 = 20;

/// GAME's first bytes, `LD (LBASE),SP` (ED 73 7B 40): how a tape given
/// instead of the built-in image is recognised.
const GAME_SIGNATURE: [u8; 4] = [0xED, 0x73, 0x7B, 0x40];
/// T-states SHOW may take at start-up (it needs about 5,000).
const SHOW_BUDGET: u64 = 1_000_000;
/// The last byte a program image may occupy: "we are allowed to go as far as
/// 4FFF" (seed 003).
const IMAGE_LIMIT: u16 = 0x4FFF;

/// The working-board address of program square `n` (1..=32): rows of four
/// with a guard byte after every second row.
pub fn square_address(n: u8) -> u16 {
    let i = u16::from(n - 1);
    FIRST_SQUARE + i + i / 8
}

/// The program square whose address has low byte `low`, if it is one.
pub fn square_of_low(low: u8) -> Option<u8> {
    let offset = low.checked_sub(FIRST_SQUARE as u8)?;
    let n = offset - offset / 9 + 1;
    (offset % 9 != 8 && n <= 32).then_some(n)
}

/// The square of the game for the working-board address with low byte
/// `low`, seen by `engine`.
pub fn game_square(low: u8, engine: Color) -> Option<Square> {
    square_of_low(low)
        .and_then(|n| Square::new(u32::from(n)))
        .map(|sq| program_square(sq, engine))
}

/// The program's square for square `sq` of the game: the computer's side is
/// always on 1..12, so the board is turned round when it plays White.
pub fn program_square(sq: Square, engine: Color) -> Square {
    match engine {
        Color::Black => sq,
        Color::White => Square::new(33 - u32::from(sq.number())).expect("1..=32"),
    }
}

/// The piece code of what stands on `sq` of `pos`, seen by `engine`.
pub fn code_at(pos: &Position, sq: Square, engine: Color) -> u8 {
    match pos.piece_at(sq) {
        None => EMPTY,
        Some(p) => match (p.color == engine, p.king) {
            (true, false) => MAN,
            (true, true) => KING,
            (false, false) => HIS_MAN,
            (false, true) => HIS_KING,
        },
    }
}

/// PRIORITY in draughts units.
pub fn score_units(priority: u8) -> i32 {
    (i32::from(priority) - i32::from(NEUTRAL)) * UNITS_PER_POINT
}

/// The registry's entries: as printed, and mended.
pub static ENTRIES: [Entry; 2] = [
    Entry::draughts(&INFO, Vec::new, |o| {
        Ok(Box::new(BakerDraughts::new(o.clone())?))
    }),
    Entry::draughts(&MENDED_INFO, Vec::new, |o| {
        Ok(Box::new(BakerDraughts::mended(o.clone())?))
    }),
];

/// Toni Baker's draughts: the routines behind the one pipeline.
pub type BakerDraughts = Driver<Baker>;

impl Driver<Baker> {
    /// A 16K ZX81 with the image (built in, or `options.tape`) loaded.
    ///
    /// # Errors
    /// The tape cannot be read, does not fit between 0x4C97 and 0x4FFF, or
    /// is not this program's glue (GAME's first bytes).
    pub fn new(options: EngineOptions) -> Result<BakerDraughts, EngineError> {
        Ok(Driver::of(Baker::new(options.clone())?, options))
    }

    /// `baker-draughts-mended`.
    ///
    /// # Errors
    /// As [`BakerDraughts::new`].
    pub fn mended(options: EngineOptions) -> Result<BakerDraughts, EngineError> {
        Ok(Driver::of(
            Baker::variant(&MENDED, options.clone())?,
            options,
        ))
    }
}

/// Toni Baker's routines on their machine: what is special about them.
pub struct Baker {
    variant: &'static BakerProgram,
    options: EngineOptions,
    image: Vec<u8>,
    zx: Zx81,
    rng: SplitMix64,
    /// The stack pointer as the machine starts: every call begins there.
    stack: u16,
    /// Collect the candidates EVALUATE compares.
    collect: bool,
}

impl Baker {
    /// As [`BakerDraughts::new`].
    ///
    /// # Errors
    /// As [`BakerDraughts::new`].
    pub fn new(options: EngineOptions) -> Result<Baker, EngineError> {
        Baker::variant(&PRINTED, options)
    }

    /// The program `variant` (its image, or `options.tape`).
    ///
    /// # Errors
    /// As [`BakerDraughts::new`].
    pub fn variant(
        variant: &'static BakerProgram,
        options: EngineOptions,
    ) -> Result<Baker, EngineError> {
        let image = match &options.tape {
            Some(path) => crate::machine::read_tape(path)?,
            None => variant.image.to_vec(),
        };
        check_image(&image)?;
        let (zx, rng) = boot(&image, variant.show, options.seed, options.core)?;
        let stack = zx.sp();
        Ok(Baker {
            variant,
            options,
            image,
            zx,
            rng,
            stack,
            collect: false,
        })
    }

    /// The emulated machine, for tests and tools.
    pub fn machine(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    /// The stack pointer every call starts from.
    pub fn stack(&self) -> u16 {
        self.stack
    }

    /// Writes the 32 squares of `pos` as its side to move sees them.
    pub fn set_position(&mut self, pos: &Position) {
        let engine = pos.turn();
        for sq in Square::all() {
            let at = square_address(program_square(sq, engine).number());
            self.zx.poke(at, code_at(pos, sq, engine));
        }
    }

    /// The move GAME made, in the game's squares.
    fn read_move(&self, engine: Color) -> Result<PdnMove, EngineError> {
        let square = |cell: u16| {
            let low = self.zx.peek(cell);
            game_square(low, engine).ok_or_else(|| {
                EngineError::Unreadable(format!(
                    "0x{cell:04X} holds 0x{low:02X}, not a square of the board"
                ))
            })
        };
        let (from, to) = (square(FROM)?, square(TO)?);
        let landings = match self.variant.multi {
            Some(m) => {
                let steps = self.zx.peek(m.steps);
                if !(1..=12).contains(&steps) {
                    return Err(EngineError::Unreadable(format!(
                        "STEPS (0x{:04X}) holds {steps}, not 1 to 12",
                        m.steps
                    )));
                }
                (0..u16::from(steps))
                    .map(|i| square(m.path + i))
                    .collect::<Result<Vec<_>, _>>()?
            }
            None => vec![to],
        };
        if self.zx.peek(OVER) == 0 && landings.len() == 1 {
            return Ok(PdnMove::step(from, to));
        }
        square(OVER)?;
        let mut squares = vec![from];
        squares.extend(landings);
        PdnMove::capture(squares).map_err(|e| EngineError::Unreadable(e.to_string()))
    }

    /// The candidates the probe saw, ranked, the one CHOOSE took first if
    /// GAME `moved`; the probe removed.
    fn take_thoughts(&mut self, engine: Color, moved: bool) -> Thoughts<PdnMove> {
        self.zx.unprobe();
        let weighed = self
            .zx
            .take_samples()
            .iter()
            .filter_map(|s| match self.variant.multi {
                Some(m) if s.pc == m.endmove => captured(s, engine),
                _ => compared(s, engine).map(|(w, p)| (w, i32::from(p), p)),
            })
            .zip(1..)
            .map(|((wire, raw, priority), seq)| Candidate {
                seq,
                wire,
                raw,
                score: score_units(priority),
                chance: None,
            })
            .collect();
        let mut thoughts = Thoughts::rank(weighed, Ties::KeepsLast, TIE_BREAK);
        if moved {
            chosen_first(&mut thoughts.ranked, usize::from(self.zx.peek(PICK)));
        }
        thoughts
    }

    /// The hang a stop means; a ROM read is the table lost (module notes).
    fn hang(&self, stop: Stop) -> Hang {
        let Stop::Fault(Fault::RomRead { addr, pc }) = stop else {
            return Hang::from_stop(stop);
        };
        let routine = match pc {
            pc if pc == self.variant.nowt => "SQUAREVAL's NOWT",
            NXTDIR => "EVALUATE's NXTDIR",
            _ => "the program",
        };
        let de = self.zx.regs().de;
        Hang {
            kind: HangKind::Fault,
            detail: format!(
                "{routine} lost its direction table: LD A,(DE) at PC 0x{pc:04X} with \
                 DE = 0x{de:04X} reads ROM byte 0x{addr:04X}, which we do not have"
            ),
        }
    }
}

impl Program for Baker {
    type Rules = Draughts;
    type Host = Zx81;

    fn info(&self) -> &'static EngineInfo {
        self.variant.info
    }

    fn host(&self) -> &Zx81 {
        &self.zx
    }

    fn host_mut(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    fn boot(&mut self, seed: u64) -> Result<(), EngineError> {
        let (zx, rng) = boot(&self.image, self.variant.show, seed, self.options.core)?;
        self.stack = zx.sp();
        self.zx = zx;
        self.rng = rng;
        Ok(())
    }

    /// Parts one and two of the program, which read and checked the
    /// person's move, are not in the seed.
    fn keys(
        &mut self,
        _: Option<&Track<Draughts>>,
        _: &Game<Draughts>,
    ) -> Result<String, Untypable> {
        Err(Untypable::NoReader(
            "the person's move and its check are in parts one and two, not in the seed",
        ))
    }

    /// The 32 squares, RANDOM filled from the seed, and a person's thinking
    /// time.
    fn inject(&mut self, game: &Game<Draughts>, _: Injecting) -> Result<(), EngineError> {
        self.set_position(game.position());
        self.zx.poke(RANDOM, self.rng.next_u64() as u8);
        self.zx.person_thinks();
        Ok(())
    }

    /// GAME called from the stack it starts with, NEWPRI (and the mended
    /// program's JUMPED) counted.
    fn run_to_reply(&mut self, _: &Game<Draughts>, budget: u64) -> Stop {
        match self.variant.multi {
            Some(m) => self.zx.watch(&[NEWPRI, m.jumped]),
            None => self.zx.watch(&[NEWPRI]),
        }
        if self.collect {
            self.zx.take_samples();
            self.zx.probe(COMPARE, beyond_origin);
            if let Some(m) = self.variant.multi {
                self.zx.probe(m.endmove, whole_capture);
            }
        }
        self.zx.jump(GAME, self.stack);
        self.zx.call(GAME, budget)
    }

    fn thoughts(&mut self, game: &Game<Draughts>, stop: Stop) -> Option<Thoughts<PdnMove>> {
        let moved = stop == Stop::Returned && self.zx.peek(RESULT) == 0;
        self.collect
            .then(|| self.take_thoughts(game.position().turn(), moved))
    }

    fn read_reply(
        &mut self,
        game: &Game<Draughts>,
        stop: Stop,
    ) -> Result<Read<PdnMove>, EngineError> {
        let engine = game.position().turn();
        let nodes = self.zx.hits(0) + self.zx.hits(1);
        let (played, score) = match stop {
            Stop::Returned if self.zx.peek(RESULT) != 0 => (Played::DeadEnd, None),
            Stop::Returned => (
                Played::Move(self.read_move(engine)?),
                Some(score_units(self.zx.peek(PRIORITY))),
            ),
            other => (Played::Hung(self.hang(other)), None),
        };
        debug!(
            "{}: {played:?}, {nodes} moves evaluated",
            self.variant.info.id
        );
        Ok(Read {
            played,
            score,
            nodes,
            intact: true,
        })
    }

    fn set_collect(&mut self, on: bool) -> bool {
        self.collect = on;
        true
    }
}

/// The probe at [`COMPARE`]: the working-board byte one step from the
/// origin (L) in the direction (H).
fn beyond_origin(regs: &Regs, memory: &dyn Memory) -> Vec<u8> {
    let [origin, direction] = regs.hl.to_le_bytes();
    let at = u16::from_le_bytes([
        origin.wrapping_add(direction),
        FIRST_SQUARE.to_be_bytes()[0],
    ]);
    vec![memory.peek(at)]
}

/// The probe at ENDMOVE (mended): PRI, then the current move from the
/// stack, its initial square and its C − 1 directions.
fn whole_capture(regs: &Regs, memory: &dyn Memory) -> Vec<u8> {
    let steps = u16::from((regs.bc as u8).saturating_sub(1)).min(12);
    let mut bytes = vec![memory.peek(MENDED_PRI)];
    bytes.extend((0..=steps).map(|i| memory.peek(regs.sp.wrapping_add(2 + i))));
    bytes
}

/// A capture the mended program weighed at ENDMOVE, in the game's squares:
/// (move, raw, priority). Raw is 256 × its steps + its priority, the order
/// the exercises keep: any capture before any step, more steps first, then
/// the priority.
fn captured(sample: &Sample, engine: Color) -> Option<(PdnMove, i32, u8)> {
    let (&priority, rest) = sample.bytes.split_first()?;
    let (&origin, dirs) = rest.split_first()?;
    let mut square = origin;
    let mut squares = vec![game_square(origin, engine)?];
    for &d in dirs {
        square = square.wrapping_add(d).wrapping_add(d);
        squares.push(game_square(square, engine)?);
    }
    let raw = 256 * dirs.len() as i32 + i32::from(priority);
    Some((PdnMove::capture(squares).ok()?, raw, priority))
}

/// The move and priority of one comparison, in the game's squares: a jump
/// if the person's piece stands in the move's direction.
fn compared(sample: &Sample, engine: Color) -> Option<(PdnMove, u8)> {
    let [origin, direction] = sample.regs.hl.to_le_bytes();
    let priority = sample.regs.de.to_be_bytes()[0];
    let next = origin.wrapping_add(direction);
    let from = game_square(origin, engine)?;
    let jump = sample.bytes.first().is_some_and(|&b| b & 0x7F == HIS_KING);
    let wire = if jump {
        let to = game_square(next.wrapping_add(direction), engine)?;
        PdnMove::capture(vec![from, to]).ok()?
    } else {
        PdnMove::step(from, game_square(next, engine)?)
    };
    Some((wire, priority))
}

/// Puts entry `pick` of the top priority (CHOOSE's pick, counted in
/// [`Ties::KeepsLast`] order) in front of the others of its list.
fn chosen_first<W>(ranked: &mut [Candidate<W>], pick: usize) {
    let top = ranked.first().map(|c| c.raw);
    if pick < ranked.len() && ranked.get(pick).map(|c| c.raw) == top {
        ranked[..=pick].rotate_right(1);
    }
}

/// A fresh 16K machine with `image` at 0x4C97 and the initial position on
/// its screen (as the transcriber's SAVE kept it: "the current display file
/// (with the board pre-set-up)"), and the generator of RANDOM.
fn boot(image: &[u8], show: u16, seed: u64, core: Core) -> Result<(Zx81, SplitMix64), EngineError> {
    let mut zx = Zx81::new(Ram::K16, FramesMode::Slow, seed);
    zx.set_core(core);
    zx.load(LOAD_AT, image)?;
    for n in 1..=32 {
        let code = match n {
            1..=12 => MAN,
            21..=32 => HIS_MAN,
            _ => EMPTY,
        };
        zx.poke(square_address(n), code);
    }
    match zx.call(show, SHOW_BUDGET) {
        Stop::Returned => {}
        other => {
            return Err(MachineError::BadTape(format!("SHOW did not return: {other}")).into());
        }
    }
    // A stream apart from the machine's own (FRAMES, typing times).
    let rng = SplitMix64::new(seed ^ 0xBA4E_D8A6_0000_0000);
    Ok((zx, rng))
}

/// Refuses an image that cannot be this program.
fn check_image(image: &[u8]) -> Result<(), EngineError> {
    let room = usize::from(IMAGE_LIMIT - LOAD_AT) + 1;
    let needed = usize::from(BAKER_END - LOAD_AT) + 1;
    let bad = |why: String| EngineError::Machine(MachineError::BadTape(why));
    if image.len() < needed || image.len() > room {
        return Err(bad(format!(
            "{} bytes: a Toni Baker draughts image at 0x{LOAD_AT:04X} is {needed} to {room} bytes",
            image.len()
        )));
    }
    let at = usize::from(GAME - LOAD_AT);
    if image[at..at + GAME_SIGNATURE.len()] != GAME_SIGNATURE {
        return Err(bad(format!(
            "not the draughts glue: no LD (LBASE),SP at GAME (0x{GAME:04X})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_addresses_round_trip() {
        assert_eq!(square_address(1), 0x404B);
        assert_eq!(square_address(9), 0x4054);
        assert_eq!(square_address(32), 0x406D);
        for n in 1..=32 {
            assert_eq!(square_of_low(square_address(n) as u8), Some(n));
        }
        for guard in [0x53, 0x5C, 0x65, 0x4A, 0x6E, 0x00] {
            assert_eq!(square_of_low(guard), None, "{guard:02X}");
        }
    }

    #[test]
    fn white_sees_the_board_turned_round() {
        let sq = |n| Square::new(n).unwrap();
        assert_eq!(program_square(sq(21), Color::White), sq(12));
        assert_eq!(program_square(sq(1), Color::White), sq(32));
        assert_eq!(program_square(sq(7), Color::Black), sq(7));
    }

    #[test]
    fn priority_maps_to_draughts_units() {
        assert_eq!(score_units(0x80), 0);
        assert_eq!(score_units(0x85), 100);
        assert_eq!(score_units(0x7B), -100);
        assert_eq!(score_units(0x87), 140);
    }

    #[test]
    fn images_that_are_not_the_glue_are_refused() {
        assert!(check_image(IMAGE).is_ok());
        assert!(check_image(&IMAGE[..100]).is_err());
        let mut other = IMAGE.to_vec();
        other[usize::from(GAME - LOAD_AT)] = 0;
        assert!(check_image(&other).is_err());
    }
}
