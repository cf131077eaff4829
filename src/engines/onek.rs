//! 1K ZX Chess (David Horne, 1982) on an emulated 1K ZX81.
//!
//! Facts from seed 000 (a commented disassembly of the original tape):
//!
//! # The board is the screen
//! The program keeps no board of its own: it plays on the display file. Rank
//! `r` (1..8, top to bottom) is the screen line at `0x433D + 11·(r−1)`: the
//! rank digit, a grey separator, then eight squares for files H..A, left to
//! right, then NEWLINE. So the square of rank `r`, file `f` (a=0) is
//! `0x433F + 11·(r−1) + (7−f)`. The program's row digits and column letters
//! are the standard rank and file: the board is simply drawn from Black's
//! side. Pieces are the letters P N B R Q K (0x35 0x33 0x27 0x37 0x36 0x30);
//! the program's own side is in normal video and moves down the screen, the
//! person's side is in inverse video (+0x80). Empty squares are 0x00 (white)
//! at odd addresses and 0x80 (black) at even ones, as DOMOVE leaves them.
//! The cell at 0x4337 shows the colour of the side to move (0x80: the person).
//!
//! # Flow
//! DRIVER (0x4082) reads the person's move as four keys, row digit then
//! column letter, origin then destination (KYBD/TKP); validates it with the
//! program's own move generator (MOVE, TL) and check test (PMOVE); plays it
//! (CHGSQ) and calls MPSCAN (0x428F), which tries every move of the program's
//! side, plays the best (CHGSQ) and returns to DRIVER. With no move at all it
//! ends in `JP Z,0x42C0` at 0x42C0, jumping to itself: the dead end.
//!
//! # What the driver does
//! - Continuing a game on the machine: types the opponent's move. Castling,
//!   en passant and under-promotion are unknown to the program and cannot be
//!   typed; those positions, and moves the program refuses, are injected.
//! - Injection writes all 64 squares and the side-to-move cell, then runs
//!   MPSCAN with DRIVER as its return address, exactly the call DRIVER makes.
//!   The program carries no other state from move to move (its move lists and
//!   scores are rebuilt by every MPSCAN), so an injected position is seen
//!   exactly as a typed one, except for FRAMES, which moves on by a seeded
//!   "person thinking" time as it would have while a move was typed.
//! - Playing Black: the program only moves the normal-video side down the
//!   screen, so the driver mirrors the board (ranks flipped, colours swapped)
//!   and mirrors the program's move back. This is a symmetry of chess except
//!   for castling rights, which the program ignores anyway.
//! - Reading the move: the board is read off the emulated screen and compared
//!   with the board before the program moved; the two squares that changed
//!   give the move, a pawn turned queen its promotion.
//!
//! # Score and nodes
//! SCORE (0x4202) keeps the best move's score in BEST (0x4041). It starts at
//! 67 (the high byte of TABPIE's address, 0x43, "a positive constant") plus
//! the captured piece's rank in TABPIE (Q5 R4 B3 N2 P1), adds the moved
//! piece's rank if its square is attacked, subtracts it if the destination
//! is, adds 2 for check, subtracts 1 if the origin stays defended, and adds
//! FRAMES bit 0. A quirk of the original: CHK's CPIR runs with C holding the
//! score, so every score is lowered by the CPIR's count, the opponent king's
//! position in the scan from 0x433E (and may wrap below zero). The driver
//! undoes that shift and reports `100 × (score − 67)` centipawns. `nodes`
//! counts calls of PMOVE during the search: moves the program generated and
//! tried, including those PMOVE then rejects for leaving its king in check.
//!
//! # Candidates (issue 14)
//! With [`Engine::collect_candidates`] on, the driver probes SCORE at
//! [`SCORE_CMP`], 0x4257 (seed 000, SCORE: `4257 BE cp (hl)`, "il punteggio
//! della mossa corrente è maggiore di quello della mossa migliore trovata fin
//! qui?"): there A holds the move's final score, already stored in POINTS
//! (0x403C), and POINTS+1..+4 hold its origin, destination, captured piece
//! and moving piece (low address bytes and piece codes, as the ROM's 0x0724
//! wrote them from D, E, C, B; the seed's table of PRBUFF names the last two
//! the other way round, but the code and DOMOVE, which moves BEST+4, agree
//! that the moving piece is last). Each visit is one candidate: the move
//! (mirrored back when the program plays Black, a pawn reaching the last
//! rank promoting to a queen as DOMOVE does), `raw` the score byte as the
//! program holds it, `score` its centipawns by the mapping above, `seq` the
//! order SCORE saw it. Moves PMOVE rejects (its king left in check) never
//! reach SCORE and are not candidates, so there are `nodes` minus those.
//!
//! The comparison is `CP (HL)` then `RET C` (0x4258): an unsigned byte
//! compare in which the old best stays only if the new score is lower, so a
//! later equal score replaces it ([`Ties::KeepsLast`]). `raw` is that
//! unsigned byte, so ranking by `raw` is the program's own order and the
//! first candidate is the move it plays, even where the CPIR shift wraps some
//! scores below zero (to 0xFF and down) and they beat higher true scores:
//! there `score` is not monotonic in `raw`. Were every score byte of a
//! search 0, BEST would stay 0 and MPSCAN would take it for no move: a dead
//! end with candidates. With
//! `Opening=tape` the first move is the one on the tape: no search, no
//! thoughts.

use std::time::Duration;

use log::debug;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Piece, Position, Role, Square};

use super::driver::{Check, Driver, Injecting, Program, Read, TakenIn, Track, Untypable};
use super::{
    Candidate, EngineError, EngineInfo, EngineOptions, Entry, Hang, InputPath, OptionKind,
    OptionSpec, Played, RateSample, Reply, Thoughts, Ties,
};
use crate::machine::zx81::{self, FramesMode, Zx81};
use crate::machine::{MachineError, Memory, Regs, Sample, Stop, TextScreen};
use crate::rules::Game;
use crate::rules::chess::ChessRules;

type Candidates = Thoughts<UciMove>;

pub use super::{FRAMES, OPENING};

/// The options this driver declares.
pub fn declared_options() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: OPENING,
            kind: OptionKind::Combo {
                default: "tape",
                vars: &["tape", "think"],
            },
        },
        OptionSpec {
            name: FRAMES,
            kind: OptionKind::Combo {
                default: "slow",
                vars: &["slow", "fast"],
            },
        },
    ]
}

/// What the options ask of this driver.
fn think_first_move(options: &EngineOptions) -> bool {
    options.value(OPENING) == Some("think")
}

fn frames_mode(options: &EngineOptions) -> FramesMode {
    match options.value(FRAMES) {
        Some("fast") => FramesMode::Fast,
        _ => FramesMode::Slow,
    }
}

/// The seed of the machine that plays the tape's stored first move: a game
/// the program opens starts from a machine booted afresh with this seed, so
/// it is the same game whatever the process did before.
fn tape_game_seed(seed: u64) -> u64 {
    seed.wrapping_add(0x9E37_79B9)
}

/// The original tape, transcribed from seed 000 (see tapes/README.md).
pub const TAPE: &[u8] = include_bytes!("../../tapes/1k-zx-chess.p");

/// DRIVER, the main loop reading the person's move.
pub const DRIVER: u16 = 0x4082;
/// MOVE, the move generator of one piece.
pub const MOVE: u16 = 0x412D;
/// MPSCAN, the program's search: evaluate every move, play the best.
pub const MPSCAN: u16 = 0x428F;
/// `JP Z,0x42C0` in MPSCAN: the self-jump when no move was found.
pub const DEAD_END: u16 = 0x42C0;
/// PMOVE, which tries one move and scores it unless it leaves the king in check.
pub const PMOVE: u16 = 0x42D5;
/// BEST, the best move's score (then from, to, captured, moving piece).
pub const BEST: u16 = 0x4041;
/// POINTS, the current move's score (then from, to, captured, moving piece).
pub const POINTS: u16 = 0x403C;
/// `CP (HL)` in SCORE, seed 000 "4257 BE cp (hl)": the current move's score,
/// final in A, compared with BEST. The watch point of the candidates.
pub const SCORE_CMP: u16 = 0x4257;
/// How SCORE breaks ties, for [`Thoughts::tie_break`].
pub const TIE_BREAK: &str = "the last of equal scores wins: SCORE compares with CP (HL) \
     at 0x4257 and RET C at 0x4258 keeps the old best only if the new score is lower. \
     Every score has FRAMES bit 0 added (0x4249), the parity of the TV frames counted so \
     far, so of two moves worth the same one may score a point more by chance";
/// The side-to-move cell (first cell of screen line 4).
pub const TURN: u16 = 0x4337;
/// Square of rank 1, file H (top left of the board).
pub const BOARD: u16 = 0x433F;
/// Bytes per board line: rank digit, separator, 8 squares, NEWLINE.
pub const LINE: u16 = 11;
/// Where CHK's CPIR starts scanning for a king.
const KING_SCAN: u16 = 0x433E;
/// The piece code of a pawn (TABPIE, seed 000).
const PAWN: u8 = 0x35;
/// DOMOVE's promotion test: a pawn arriving below 0x4347 or from 0x438B on
/// (`CP 47` at 0x430A, `CP 8B` at 0x430E) becomes a queen.
const PROMOTES: (u8, u8) = (0x47, 0x8B);
/// The base constant of SCORE (H = 0x43 after PSC).
const SCORE_BASE: i32 = 0x43;
/// The stack pointer while the program runs from DRIVER (see `Zx81::load_p`).
const STACK: u16 = 0x43F8;
/// Budget for the start-up from `RAND USR X` to the first key wait.
const BOOT_BUDGET: u64 = 1_000_000;

/// Bytes that identify the program (outside the region the bootstrap moves).
const SIGNATURE: [(u16, &[u8]); 4] = [
    (DRIVER, &[0x06, 0x05, 0x3E, 0x08, 0x21, 0x9F, 0x43]),
    (MPSCAN, &[0xAF, 0x32, 0x41, 0x40]),
    (DEAD_END, &[0xCA, 0xC0, 0x42]),
    (PMOVE, &[0x2A, 0x07, 0x40, 0x1A]),
];

/// One way of running the tape.
#[derive(Debug)]
pub struct OneKVersion {
    pub info: EngineInfo,
    /// The program's first move, already on the tape's board.
    pub first_move: &'static str,
    /// Display-file bytes changed to get this variant's starting board.
    board_patch: &'static [(u16, u8)],
}

const ABOUT: &str = "1K ZX Chess by David Horne (Your Computer, 1982-83): a complete \
     chess player in 672 bytes for the 1K ZX81, running unmodified in an emulated ZX81. \
     It plays on its own screen, knows no castling, en passant or under-promotion, \
     and looks one move ahead.";

/// The tape as dumped (queen's pawn) and the cassette's other version.
pub static VARIANTS: [OneKVersion; 2] = [
    OneKVersion {
        info: EngineInfo {
            id: "1k-zx-chess",
            name: "1K ZX Chess",
            author: "David Horne",
            year: 1982,
            machine: "ZX81 (1K)",
            about: ABOUT,
        },
        first_move: "d2d3",
        board_patch: &[],
    },
    // The original cassette held a king's-pawn version too (seed 000): the
    // same program with e2e3 already played on its board.
    OneKVersion {
        info: EngineInfo {
            id: "1k-zx-chess-kp",
            name: "1K ZX Chess (king's pawn)",
            author: "David Horne",
            year: 1982,
            machine: "ZX81 (1K)",
            about: ABOUT,
        },
        first_move: "e2e3",
        board_patch: &[
            (0x434D, 0x00),
            (0x434E, 0x35),
            (0x4358, 0x35),
            (0x4359, 0x00),
        ],
    },
];

/// A square's content as the program draws it.
type ScreenBoard = [Option<(Role, bool)>; 64]; // (role, is the program's own piece)

/// 1K ZX Chess as dumped (queen's pawn): the chess engine run when none
/// is named ([`default_for`](super::default_for)).
pub static ONE_K_ZX_CHESS: Entry = Entry::chess(&VARIANTS[0].info, declared_options, |o| {
    Ok(Box::new(OneKZxChess::new(&VARIANTS[0], o.clone())?))
})
.searching(SEARCHING);

/// The registry's entries: one per variant.
pub static ENTRIES: [Entry; 2] = [
    ONE_K_ZX_CHESS,
    Entry::chess(&VARIANTS[1].info, declared_options, |o| {
        Ok(Box::new(OneKZxChess::new(&VARIANTS[1], o.clone())?))
    })
    .searching(SEARCHING),
];

/// `Opening=think`: search from the initial position.
const SEARCHING: &[(&str, &str)] = &[(OPENING, "think")];

/// The 1K ZX Chess engine: the program behind the one pipeline.
pub type OneKZxChess = Driver<OneK>;

impl Driver<OneK> {
    /// Loads the tape (built in, or `options.tape`) and boots the program.
    ///
    /// # Errors
    /// The tape cannot be read, is not a 1K ZX81 program, or is not 1K ZX
    /// Chess.
    pub fn new(variant: &'static OneKVersion, options: EngineOptions) -> Result<Self, EngineError> {
        Ok(Driver::of(OneK::new(variant, options.clone())?, options))
    }

    /// Sets the machine up to search `pos` (the program's side to move) by
    /// injection, without running it: for benchmarks and tools.
    pub fn setup_search(&mut self, pos: &Chess) {
        self.forget();
        self.inject_board(&program_board(pos, pos.turn()));
    }
}

/// 1K ZX Chess on its machine: what is special about it.
pub struct OneK {
    variant: &'static OneKVersion,
    options: EngineOptions,
    tape: Vec<u8>,
    zx: Zx81,
    /// The board the search starts from (the move is read against it).
    before: ScreenBoard,
    /// Probe SCORE and return the candidates ([`Engine::collect_candidates`]).
    collect: bool,
}

impl OneK {
    /// Loads the tape (built in, or `options.tape`) and boots the program.
    ///
    /// # Errors
    /// As [`OneKZxChess::new`].
    pub fn new(variant: &'static OneKVersion, options: EngineOptions) -> Result<OneK, EngineError> {
        let tape = match &options.tape {
            Some(path) => crate::machine::read_tape(path)?,
            None => TAPE.to_vec(),
        };
        let zx = boot(&tape, variant, &options, options.seed)?;
        Ok(OneK {
            variant,
            options,
            tape,
            zx,
            before: [None; 64],
            collect: false,
        })
    }

    /// The emulated machine, for tests and tools.
    pub fn machine(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    /// Writes the position into the display file and sets the program going
    /// at MPSCAN, returning to DRIVER as it does after a typed move.
    fn inject_board(&mut self, board: &ScreenBoard) {
        for (i, sq) in board.iter().enumerate() {
            let addr = square_addr(Square::new(i as u32));
            self.zx.poke(addr, square_code(addr, *sq));
        }
        // The program's side (normal video) to move.
        self.zx.poke(TURN, 0x00);
        self.zx.jump(MPSCAN, STACK);
        self.zx.push(DRIVER);
    }

    /// The board as drawn on the emulated screen.
    fn read_board(&mut self) -> Result<ScreenBoard, EngineError> {
        read_screen_board(&self.zx.screen())
    }
}

impl Program for OneK {
    type Rules = ChessRules;
    type Host = Zx81;

    fn info(&self) -> &'static EngineInfo {
        &self.variant.info
    }

    fn host(&self) -> &Zx81 {
        &self.zx
    }

    fn host_mut(&mut self) -> &mut Zx81 {
        &mut self.zx
    }

    fn boot(&mut self, seed: u64) -> Result<(), EngineError> {
        self.zx = boot(&self.tape, self.variant, &self.options, seed)?;
        Ok(())
    }

    /// The tape's board shows the program's first move already played.
    fn booted_track(&self) -> Option<Track<ChessRules>> {
        let root = Chess::default();
        let first = first_move(self.variant, &root);
        Some(Track {
            root,
            moves: vec![first],
            engine: Some(Color::White),
        })
    }

    /// From the initial position, unless asked to think (`Opening=think`):
    /// the move on the tape, on a machine booted afresh with a seed of its
    /// own ([`tape_game_seed`]).
    fn stored_reply(
        &mut self,
        game: &Game<ChessRules>,
    ) -> Result<Option<Reply<UciMove>>, EngineError> {
        let (root, moves) = (game.root(), game.moves());
        if *root != Chess::default() || !moves.is_empty() || think_first_move(&self.options) {
            return Ok(None);
        }
        self.boot(tape_game_seed(self.options.seed))?;
        let first = first_move(self.variant, root);
        Ok(Some(Reply {
            played: Played::Move(UciMove::from_standard(first)),
            score: None,
            thoughts: None,
            nodes: 0,
            tstates: 0,
            authentic: Duration::ZERO,
            path: InputPath::Tape,
        }))
    }

    /// Row digit then column letter, origin then destination, in the
    /// program's (mirrored, for Black) squares. Castling, en passant and
    /// under-promotion are unknown to the program.
    fn keys(
        &mut self,
        track: Option<&Track<ChessRules>>,
        game: &Game<ChessRules>,
    ) -> Result<String, Untypable> {
        let Some(track) = track else {
            return Err(Untypable::NoGame);
        };
        if !track.continued_by(game) {
            return Err(Untypable::NotContinued);
        }
        let engine = game.turn();
        let m = game.moves()[game.moves().len() - 1];
        match m {
            Move::Castle { .. } => return Err(Untypable::UnknownMove("castling")),
            Move::EnPassant { .. } => return Err(Untypable::UnknownMove("en passant")),
            Move::Normal {
                promotion: Some(r), ..
            } if r != Role::Queen => {
                return Err(Untypable::UnknownMove("under-promotion"));
            }
            _ => {}
        }
        let (from, to) = (
            program_square(m.from().unwrap_or(m.to()), engine),
            program_square(m.to(), engine),
        );
        Ok([from, to]
            .iter()
            .flat_map(|sq| [sq.rank().char(), sq.file().char().to_ascii_uppercase()])
            .collect())
    }

    /// DRIVER validates the move and, if it takes it, calls MPSCAN.
    fn take_in(&mut self, keys: &str, budget: u64) -> TakenIn {
        match self.zx.run_to(budget, Some(MPSCAN)) {
            Stop::Breakpoint { .. } => TakenIn::Accepted,
            Stop::WaitingForKey => TakenIn::Refused(format!("the program refused {keys}")),
            other => TakenIn::Refused(format!("after typing {keys}: {other}")),
        }
    }

    fn board_check(&mut self, keys: &str, game: &Game<ChessRules>) -> Result<Check, EngineError> {
        let expected = program_board(game.position(), game.turn());
        Ok(if self.read_board()? == expected {
            Check::Shows
        } else {
            Check::Differs(format!("the program played {keys} differently"))
        })
    }

    /// All 64 squares and the side-to-move cell, then MPSCAN called as
    /// DRIVER calls it. Instead of a typed move, FRAMES first moves on by a
    /// seeded "person thinking" time, as it would have while a move was
    /// typed; over a typed move (the program applied it its own way) the
    /// true position is put in front of it at once.
    fn inject(&mut self, game: &Game<ChessRules>, why: Injecting) -> Result<(), EngineError> {
        if why == Injecting::Instead {
            self.zx.person_thinks();
        }
        self.inject_board(&program_board(game.position(), game.turn()));
        Ok(())
    }

    /// MPSCAN from the position on the screen, counting PMOVE's calls.
    fn run_to_reply(&mut self, game: &Game<ChessRules>, budget: u64) -> Stop {
        self.before = program_board(game.position(), game.turn());
        // MOVE runs thousands of times a search and each watched visit
        // stops the CPU: count it only for the debug log.
        if log::log_enabled!(log::Level::Debug) {
            self.zx.watch(&[PMOVE, MOVE]);
        } else {
            self.zx.watch(&[PMOVE]);
        }
        if self.collect {
            self.zx.take_samples();
            self.zx.probe(SCORE_CMP, read_points);
        }
        self.zx.run(budget)
    }

    /// The candidates the probe at [`SCORE_CMP`] saw, ranked as SCORE ranks
    /// them; the probe is removed.
    fn thoughts(&mut self, game: &Game<ChessRules>, _stop: Stop) -> Option<Candidates> {
        if !self.collect {
            return None;
        }
        let (engine, shift) = (game.turn(), king_shift(&self.before));
        self.zx.unprobe();
        let weighed = self
            .zx
            .take_samples()
            .iter()
            .zip(1..)
            .filter_map(|(sample, seq)| candidate(sample, seq, engine, shift))
            .collect();
        Some(Thoughts::rank(weighed, Ties::KeepsLast, TIE_BREAK))
    }

    /// Back at the key wait: the move off the screen. The self-jump at
    /// [`DEAD_END`]: no move.
    fn read_reply(
        &mut self,
        game: &Game<ChessRules>,
        stop: Stop,
    ) -> Result<Read<UciMove>, EngineError> {
        let engine = game.turn();
        let shift = king_shift(&self.before);
        let nodes = self.zx.hits(0);
        let played = match stop {
            Stop::WaitingForKey => {
                let after = self.read_board()?;
                Played::Move(board_move(&self.before, &after, engine)?)
            }
            Stop::Stuck { pc: DEAD_END } => Played::DeadEnd,
            other => Played::Hung(Hang::from_stop(other)),
        };
        let score = match played {
            Played::Move(_) => Some(score_cp(self.zx.peek(BEST), shift)),
            _ => None,
        };
        debug!(
            "1K ZX Chess: {played:?}, {nodes} moves evaluated, {} move generations",
            self.zx.hits(1)
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

    fn raw_rate(&mut self, pos: &Chess) -> Option<RateSample> {
        self.inject_board(&program_board(pos, pos.turn()));
        let start = std::time::Instant::now();
        let t0 = self.zx.busy_tstates();
        let stop = self.zx.run(self.options.budget);
        let harness_time = start.elapsed();
        let harness_tstates = self.zx.busy_tstates() - t0;
        if stop != Stop::WaitingForKey {
            return None;
        }
        self.inject_board(&program_board(pos, pos.turn()));
        let (bare_tstates, bare_time) = self.zx.bare_run(u64::MAX);
        Some(RateSample {
            harness_tstates,
            harness_time,
            bare_tstates,
            bare_time,
        })
    }
}

/// What the probe at [`SCORE_CMP`] keeps: POINTS and the four bytes of the
/// move after it (the score itself is also in A).
fn read_points(_: &Regs, mem: &dyn Memory) -> Vec<u8> {
    (POINTS..POINTS + 5).map(|addr| mem.peek(addr)).collect()
}

/// One visit of [`SCORE_CMP`] as a candidate, in real squares; `None` if
/// POINTS does not hold two squares of the board.
fn candidate(sample: &Sample, seq: u32, engine: Color, shift: i32) -> Option<Candidate<UciMove>> {
    let [_, from, to, _, moving] = sample.bytes[..] else {
        return None;
    };
    let raw = sample.regs.a();
    let promotes = moving & 0x7F == PAWN && (to < PROMOTES.0 || to >= PROMOTES.1);
    Some(Candidate {
        seq,
        wire: UciMove::Normal {
            from: program_square(board_square(from)?, engine),
            to: program_square(board_square(to)?, engine),
            promotion: promotes.then_some(Role::Queen),
        },
        raw: i32::from(raw),
        score: score_cp(raw, shift),
        // SCORE: `ld a,(FRAMES); and 01; add a,c` (0x4249–0x424E), C
        // holding the score before the draw.
        chance: Some(i32::from(raw.wrapping_sub(sample.regs.bc as u8))),
    })
}

/// The program square whose display-file address has the low byte `lo`.
fn board_square(lo: u8) -> Option<Square> {
    let offset = lo.checked_sub(BOARD as u8)?;
    let (rank, column) = (offset / LINE as u8, offset % LINE as u8);
    (rank < 8 && column < 8).then(|| {
        Square::from_coords(
            shakmaty::File::new(u32::from(7 - column)),
            shakmaty::Rank::new(u32::from(rank)),
        )
    })
}

/// How much CHK's CPIR took off every score of a search: the count of bytes
/// it scanned from 0x433E to the opponent's king (0 if there is none).
fn king_shift(before: &ScreenBoard) -> i32 {
    (0..64)
        .map(|i| Square::new(i as u32))
        .find(|&sq| before[sq as usize] == Some((Role::King, false)))
        .map_or(0, |sq| i32::from(square_addr(sq) - KING_SCAN) + 1)
}

/// A score byte of SCORE as centipawns: the CPIR shift undone, then
/// `100 × (score − 67)`.
fn score_cp(raw: u8, shift: i32) -> i32 {
    100 * (((i32::from(raw) + shift) & 0xFF) - SCORE_BASE)
}

/// Loads the tape, checks that it is 1K ZX Chess, applies the variant's board
/// and runs `RAND USR X` until the program waits for the person's first key.
fn boot(
    tape: &[u8],
    variant: &OneKVersion,
    options: &EngineOptions,
    seed: u64,
) -> Result<Zx81, EngineError> {
    let mut zx = Zx81::load_p(tape, frames_mode(options), seed)?;
    zx.set_core(options.core);
    for (addr, bytes) in SIGNATURE {
        for (i, &want) in bytes.iter().enumerate() {
            let at = addr + i as u16;
            let got = zx.peek(at);
            if got != want {
                return Err(MachineError::BadTape(format!(
                    "not 1K ZX Chess: 0x{at:04X} holds 0x{got:02X}, expected 0x{want:02X}"
                ))
                .into());
            }
        }
    }
    for &(addr, value) in variant.board_patch {
        zx.poke(addr, value);
    }
    // Line 3 of the BASIC loader is RAND USR X.
    let x = zx.basic_number('X')?;
    if !(f64::from(zx81::RAM_START)..f64::from(0x4400u16)).contains(&x) || x.fract() != 0.0 {
        return Err(MachineError::BadTape(format!("USR address X = {x} is not in RAM")).into());
    }
    let sp = zx.sp();
    zx.jump(x as u16, sp);
    match zx.run(BOOT_BUDGET) {
        Stop::WaitingForKey => Ok(zx),
        other => Err(MachineError::BadTape(format!("program did not start: {other}")).into()),
    }
}

fn first_move(variant: &OneKVersion, root: &Chess) -> Move {
    variant
        .first_move
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(root).ok())
        .expect("a variant's first move is legal from the initial position")
}

/// The program's square for a real square: mirrored when it plays Black.
pub fn program_square(sq: Square, engine: Color) -> Square {
    match engine {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// Display-file address of a square in the program's coordinates.
pub fn square_addr(sq: Square) -> u16 {
    BOARD + LINE * sq.rank() as u16 + (7 - sq.file() as u16)
}

const ROLES: [(Role, u8); 6] = [
    (Role::Pawn, 0x35),
    (Role::Knight, 0x33),
    (Role::Bishop, 0x27),
    (Role::Rook, 0x37),
    (Role::Queen, 0x36),
    (Role::King, 0x30),
];

fn square_code(addr: u16, content: Option<(Role, bool)>) -> u8 {
    match content {
        None if addr & 1 == 1 => 0x00,
        None => 0x80,
        Some((role, own)) => {
            let code = ROLES
                .iter()
                .find(|(r, _)| *r == role)
                .map_or(0, |(_, c)| *c);
            if own { code } else { code | 0x80 }
        }
    }
}

/// The position as the program must see it, indexed by program square.
fn program_board(pos: &Chess, engine: Color) -> ScreenBoard {
    let mut board = [None; 64];
    for (sq, Piece { color, role }) in pos.board().clone() {
        board[program_square(sq, engine) as usize] = Some((role, color == engine));
    }
    board
}

/// Reads the 64 squares off the screen: line 4+r holds rank r, columns 2..9
/// files H..A.
fn read_screen_board(screen: &TextScreen) -> Result<ScreenBoard, EngineError> {
    let mut board = [None; 64];
    for (i, content) in board.iter_mut().enumerate() {
        let sq = Square::new(i as u32);
        let cell = screen.cell(5 + sq.rank() as usize, 2 + 7 - sq.file() as usize);
        *content = match cell.glyph {
            ' ' => None,
            g => {
                let role = Role::from_char(g.to_ascii_lowercase()).ok_or_else(|| {
                    EngineError::Unreadable(format!("{g:?} on square {sq} is not a piece"))
                })?;
                Some((role, !cell.inverse))
            }
        };
    }
    Ok(board)
}

/// The program's move from the board before and after it moved.
fn board_move(
    before: &ScreenBoard,
    after: &ScreenBoard,
    engine: Color,
) -> Result<UciMove, EngineError> {
    let changed: Vec<Square> = (0..64)
        .map(|i| Square::new(i as u32))
        .filter(|&sq| before[sq as usize] != after[sq as usize])
        .collect();
    let from = changed
        .iter()
        .find(|&&sq| after[sq as usize].is_none() && before[sq as usize].is_some_and(|p| p.1));
    let to = changed
        .iter()
        .find(|&&sq| after[sq as usize].is_some_and(|p| p.1));
    match (changed.len(), from, to) {
        (2, Some(&from), Some(&to)) => {
            let moved = before[from as usize].map(|p| p.0);
            let arrived = after[to as usize].map(|p| p.0);
            let promotion =
                (moved == Some(Role::Pawn) && arrived == Some(Role::Queen)).then_some(Role::Queen);
            if moved != arrived && promotion.is_none() {
                return Err(EngineError::Unreadable(format!(
                    "a {moved:?} left {from} but a {arrived:?} arrived on {to}"
                )));
            }
            Ok(UciMove::Normal {
                from: program_square(from, engine),
                to: program_square(to, engine),
                promotion,
            })
        }
        _ => Err(EngineError::Unreadable(format!(
            "the board changed on {} squares ({})",
            changed.len(),
            changed
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_addresses_follow_the_display_file() {
        // Seed 000: rank 1 is "1#RNBKQBNR" at 0x433D, files H..A.
        assert_eq!(square_addr(Square::H1), 0x433F);
        assert_eq!(square_addr(Square::A1), 0x4346);
        assert_eq!(square_addr(Square::D3), 0x4359);
        assert_eq!(square_addr(Square::A8), 0x4393);
        // Light squares sit at odd addresses, dark ones at even.
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(square_addr(sq) & 1 == 1, sq.is_light(), "{sq}");
        }
    }

    #[test]
    fn candidate_squares_invert_square_addresses() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(board_square(square_addr(sq) as u8), Some(sq), "{sq}");
        }
        // The rank digits, separators and NEWLINEs around the board.
        for lo in [0x3D, 0x3E, 0x47, 0x48, 0x49, 0x94, 0x00, 0xFF] {
            assert_eq!(board_square(lo), None, "0x{lo:02X}");
        }
    }

    #[test]
    fn scores_undo_the_cpir_shift() {
        // Opponent king on e8: the CPIR counted 82 bytes; 67 − 82 wraps to 241.
        assert_eq!(score_cp(241, 82), 0);
        assert_eq!(score_cp(240, 82), -100);
        // King on e7 (71 bytes): 76 leaves 5, 67 leaves 252.
        assert_eq!(score_cp(5, 71), 900);
        assert_eq!(score_cp(252, 71), 0);
    }

    #[test]
    fn mirroring_round_trips() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(
                program_square(program_square(sq, Color::Black), Color::Black),
                sq
            );
            assert_eq!(program_square(sq, Color::White), sq);
        }
    }

    #[test]
    fn board_move_rejects_nonsense() {
        let mut before: ScreenBoard = [None; 64];
        before[Square::E2 as usize] = Some((Role::Pawn, true));
        let mut after = before;
        after[Square::E2 as usize] = None;
        after[Square::E3 as usize] = Some((Role::Pawn, true));
        assert_eq!(
            board_move(&before, &after, Color::White).unwrap(),
            "e2e3".parse::<UciMove>().unwrap()
        );
        assert_eq!(
            board_move(&before, &after, Color::Black).unwrap(),
            "e7e6".parse::<UciMove>().unwrap()
        );
        assert!(board_move(&before, &before, Color::White).is_err());
        let mut odd = after;
        odd[Square::E3 as usize] = Some((Role::Knight, true));
        assert!(board_move(&before, &odd, Color::White).is_err());
    }
}
