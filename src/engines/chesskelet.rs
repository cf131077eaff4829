//! ChesSkelet (Alex Garcia, 2019) on an emulated 48K ZX Spectrum, rebuilt
//! from the author's dissection (seed 001) as `tapes/src/chesskelet.asm`.
//! Three builds ([`BUILDS`]): the full and the minimal build as printed,
//! and ours, the build behind the author's published games reconstructed
//! (the minimal build with `genlis` also run after each move;
//! tapes/CHESSKELET.md, "ChesSkelet as it played").
//!
//! # Memory map (seed 001, chapters 2–4, 10; final layout)
//! - `0x7D01..=0x7D04`: the four keys of the person's move (auxsth page).
//! - `0x7E00`: piece letters indexed by piece value (piearh page).
//! - `0x7F7F`: `gamsta`, the turn toggle (0 before the computer moves).
//! - `0x7F88..`: move types per piece value × 4; `0x7FE0..`: move vectors.
//! - `0x8000..=0x8077`: the board, 16×8, squares `0rrr0ccc` (row 0 at the
//!   top), pieces `00cppppp`: P=2 N=3 B=4 R=5 Q=7 K=22, bit 5 = the side to
//!   move ("white") in the board's current orientation.
//! - `0x8100`: squares attacked by the side that generated moves last;
//!   `0x8200`: that board copied rotated, read by the evaluation;
//!   `0x8300`: the candidate list (count in bytes, then origin/target pairs).
//!
//! # Flow
//! `befmov` generates the list of the side to move (`genlis`), `whomov`
//! toggles `gamsta`: the person's turn prints the board (CLS, 8×8 letters,
//! coordinates, `?`) and reads four keys from LAST_K; the computer's turn
//! (`blamov`) scores every candidate and keeps the best. Both end in
//! `aftsid`, which makes the move, and `revboa`, which rotates the board 180°
//! and swaps the colours, so the side to move is always "white" at the
//! bottom. The computer therefore plays the colour that did not move first;
//! the full build's `s` key hands the current move to the computer (it then
//! plays White).
//!
//! # What the driver does
//! - Continuing a game on the machine: types the opponent's move (four keys,
//!   in the person's orientation: rotated when the person plays Black), then
//!   checks at the end of the computer's choice that the program's board is
//!   the real position. The full build rejects moves missing from its list
//!   (en passant, castling as Black); the lite build accepts anything and
//!   plays castling, en passant and promotion its own way. Both cases, and
//!   positions that do not continue the machine's game, are injected.
//! - Injection writes the position into the board page in the computer's
//!   orientation and runs from `befmov` with `gamsta` set for the computer,
//!   exactly the state `revboa` leaves. ChesSkelet keeps one more piece of
//!   state between moves: the attack board of the previous move generation,
//!   which the evaluation reads (after rotating it) as "squares the opponent
//!   attacks" — made *before* the opponent's last move. When that move is
//!   known, the driver recreates it by running the program's own `genlis` on
//!   the position before it, from the opponent's side, as the real game
//!   would have. Without history (a bare FEN) it cannot be known and is left
//!   empty, as after the `s` key. The published games' build (ours,
//!   `chesskelet-published`) runs `genlis` again after each move is made, so
//!   its evaluation reads the opponent's attacks in the current position:
//!   the driver makes them from the position itself, history or not. Not
//!   reproduced: the stale tail of the candidate list (read only by the
//!   person-move check) and the stack depth.
//! - Playing White: the full build presses `s` at the start (the program's
//!   own side switch); otherwise the position is injected with the computer
//!   as "white" in its own orientation, which is what `s` produces.
//! - The stack: the program leaks 30 bytes of stack per move pair and after
//!   some 249 pairs overwrites the ROM's channel area, which crashes a real
//!   Spectrum (the machine reports it as a fault at `RST 16`). Before typing,
//!   the driver checks the stack pointer against [`STACK_FLOOR`] +
//!   [`CYCLE_STACK`] and, below it, reloads the program and injects the
//!   position instead (tapes/CHESSKELET.md, "Long games").
//! - Reading the move: the board printed after the reply is compared with
//!   the board before it (the board page when the program chose, turned
//!   round); the changed squares give the move (two pairs with a king:
//!   castling; a pawn turned queen: promotion). The board page at 0x8000
//!   must show the same board, and the move must be the one the program
//!   chose. Otherwise the program changed its board beyond the move — the
//!   full build's castling code fires for a queen stepping up-left, and
//!   leaves a stray byte on the rook's corner on the computer's side
//!   ([`Skeleton::quirk`]) — and the reply is the chosen move with the
//!   board page before and after ([`Played::Astray`]): the rules say what
//!   the program did, never "cannot read".
//!
//! # Its own board
//! After such a reply the machine's board is the program's own, not the
//! game's, and it stays so, as on the real machine (a person would type the
//! next move into it): where the game goes on with the chosen move (legal
//! by itself; `IllegalMoves play`), the opponent's next move is typed and
//! must be taken in as a plain move on the program's own board (board
//! check against its board before, the move made, turned round as `revboa`
//! does); its next reply is read from its own boards and judged against the
//! game. A move it refuses or takes its own way, a new game or position:
//! the game's position is injected on a machine booted afresh, as ever
//! (tapes/CHESSKELET.md, "How the arbiter reads these").
//!
//! # Score and nodes
//! The chooser's best evaluation (register C at its last `pop bc`) is
//! `4·(pieces + 32) + square weight`, pieces in units where a pawn is 2; the
//! driver reports `25·(C − 128)/2` centipawns (0 for a quiet move on a
//! weightless square). `nodes` is the number of candidates scored.
//!
//! # Candidates (what the program weighed)
//! With [`Engine::collect_candidates`] on, a probe (no breakpoint: the
//! search runs as without it) watches `evaexi`, the first instruction after
//! each candidate's evaluation, seed 001 chapter 8:
//!
//! ```text
//! evaexi  pop hl   ; recover canli
//!         pop bc   ; recover previous maximum value
//!         cp c     ; compare with current maximum
//!         jr c, chonoc ; if current eval (A) <= max eval (C), skip
//! ```
//!
//! There A holds the candidate's final evaluation (the full build's rank-6
//! rule also lands here, with A = the target's value) and DE the candidate
//! as `choloo` read it from the list at 0x8300 (D origin, E target). The
//! candidate becomes a UCI move as the played move does (the board rotated
//! back when the program plays Black; a pawn reaching the far row promotes
//! to a queen in the full build only, as its `aftsid` does), its raw value
//! is A, its score `25·(A − 128)/2` as for [`Reply::score`](super::Reply),
//! its `seq` the order of the list. The comparison is unsigned `cp c` and
//! `jr c` skips only when A < C: a later equal evaluation replaces the best
//! (the comment's "<=" notwithstanding, tapes/CHESSKELET.md gap 12), so the
//! ranking keeps the last of equals ([`Ties::KeepsLast`]). With no candidate
//! the driver reports a dead end and no thoughts: the program would score
//! 128 stale list entries (`dec b` wraps), not moves of this position.

use log::info;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, File, Position, Rank, Role, Square};

use super::driver::{Check, Driver, Injecting, Program, Read, TakenIn, Track, Untypable};
use super::{
    Candidate, EngineError, EngineInfo, EngineOptions, Entry, Hang, Played, Thoughts, Ties,
};
use crate::machine::spectrum::{self, Spectrum48};
use crate::machine::{Core, MachineError, Memory, Regs, Stop};
use crate::rules::chess::ChessRules;
use crate::rules::{Astray, Cell, Game, ProgramBoard, Quirk};

/// The full-featured build (feamod=1, gramod=1), see tapes/CHESSKELET.md.
pub const TAPE_FULL: &[u8] = include_bytes!("../../tapes/chesskelet.tap");
/// The minimal build (feamod=0, gramod=1).
pub const TAPE_LITE: &[u8] = include_bytes!("../../tapes/chesskelet-lite.tap");
/// Ours: the reconstruction of the build behind the published games — the
/// minimal build with `genlis` also run after each move is made
/// (feamod=0, gramod=1, genaft=1; tapes/CHESSKELET.md, "ChesSkelet as it
/// played").
pub const TAPE_PUBLISHED: &[u8] = include_bytes!("../../tapes/chesskelet-published.tap");

/// The board page.
pub const BOARD: u16 = 0x8000;
/// Attack board filled by `genlis`.
pub const ATTACKS: u16 = 0x8100;
/// The rotated copy the evaluation reads.
pub const OPPONENT_ATTACKS: u16 = 0x8200;
/// Candidate list: count in bytes at +0, moves from +2.
pub const CANDIDATES: u16 = 0x8300;
/// Turn toggle: 0x7F on the person's turn, 0 on the computer's.
pub const GAMSTA: u16 = 0x7F7F;

/// Code addresses of one build (from the assembler's listing).
#[derive(Debug)]
pub struct Hooks {
    /// `befmov: call genlis`, the top of the main loop.
    pub befmov: u16,
    /// `whomov`, where `genlis` returns.
    pub whomov: u16,
    /// The chooser's final `pop bc` (best move on the stack, best score in C).
    pub chosen: u16,
    /// `genlis`.
    pub genlis: u16,
    /// `blamov`, the chooser's entry (the candidate list is complete).
    pub blamov: u16,
    /// `aftdes`, where the piece lands on its target (`ld l,c / ld (hl),d`),
    /// then `dec h` — or, in the published games' build, `call genlis`.
    pub aftdes: u16,
    /// `evaexi`, where each candidate's evaluation is final (seed 001,
    /// chapter 8: `evaexi pop hl ; recover canli`, then `pop bc / cp c /
    /// jr c, chonoc` compares it with the best): A holds the evaluation, D
    /// and E the candidate (also reached directly by the full build's rank-6
    /// rule, `jr z, evaexi`). The candidates' probe watches it.
    pub evaexi: u16,
}

/// One build of the reconstruction.
#[derive(Debug)]
pub struct Build {
    pub info: EngineInfo,
    pub tape: &'static [u8],
    /// feamod=1: validity check, castling, two-square step, promotion, `s`.
    pub features: bool,
    /// genaft=1 (ours, the published games' build): `genlis` also runs at
    /// `aftdes`, after each move is made, so the evaluation reads the
    /// opponent's attacks in the current position, not in the position
    /// before the opponent's move.
    pub attacks_after_move: bool,
    pub hooks: Hooks,
}

const ABOUT: &str = "ChesSkelet by Alex Garcia (2019), a chess program of a few \
     hundred bytes for the 48K ZX Spectrum, reconstructed from the author's dissection \
     and run unmodified in an emulated Spectrum without ROM. It looks one move ahead, \
     scoring captures, threatened pieces and a fixed square weight.";

const ABOUT_PUBLISHED: &str = "ChesSkelet by Alex Garcia (2019) as it played the three \
     games its author published: our reconstruction of that build, the printed minimal \
     build with one documented change (its move generation also runs after each move, \
     so the program weighs the opponent's attacks in the current position). Run \
     unmodified in an emulated Spectrum without ROM.";

/// The three builds: the two the listing prints, and our reconstruction of
/// the build behind the published games.
pub static BUILDS: [Build; 3] = [
    Build {
        info: EngineInfo {
            id: "chesskelet",
            name: "ChesSkelet",
            author: "Alex Garcia",
            year: 2019,
            machine: "ZX Spectrum 48K",
            about: ABOUT,
        },
        tape: TAPE_FULL,
        features: true,
        attacks_after_move: false,
        hooks: Hooks {
            befmov: 0x7B05,
            whomov: 0x7B08,
            chosen: 0x7BDD,
            genlis: 0x7C21,
            blamov: 0x7B97,
            aftdes: 0x7C08,
            evaexi: 0x7BD2,
        },
    },
    Build {
        info: EngineInfo {
            id: "chesskelet-lite",
            name: "ChesSkelet (minimal build)",
            author: "Alex Garcia",
            year: 2019,
            machine: "ZX Spectrum 48K",
            about: ABOUT,
        },
        tape: TAPE_LITE,
        features: false,
        attacks_after_move: false,
        hooks: Hooks {
            befmov: 0x7B05,
            whomov: 0x7B08,
            chosen: 0x7BBB,
            genlis: 0x7BDB,
            blamov: 0x7B7E,
            aftdes: 0x7BC2,
            evaexi: 0x7BB0,
        },
    },
    Build {
        info: EngineInfo {
            id: "chesskelet-published",
            name: "ChesSkelet (published games' build, reconstructed)",
            author: "Alex Garcia",
            year: 2019,
            machine: "ZX Spectrum 48K",
            about: ABOUT_PUBLISHED,
        },
        tape: TAPE_PUBLISHED,
        features: false,
        attacks_after_move: true,
        hooks: Hooks {
            befmov: 0x7B05,
            whomov: 0x7B08,
            chosen: 0x7BBB,
            genlis: 0x7BDD,
            blamov: 0x7B7E,
            aftdes: 0x7BC2,
            evaexi: 0x7BB0,
        },
    },
];

/// How the chooser breaks ties ([`Thoughts::tie_break`]).
pub const TIE_BREAK: &str = "the later of equal evaluations: blamov's `cp c / jr c, chonoc` \
     (seed 001, chapter 8) skips a candidate only when its A is below the best C, so an \
     equal one replaces the best";

/// The centipawns of an evaluation byte (the chooser's C for the played
/// move, A for a candidate): 128 is a quiet move on a weightless square,
/// a pawn (2 units, ×4 by the two `rlca`) is 100.
pub fn centipawns(eval: u8) -> i32 {
    25 * (i32::from(eval) - 128) / 2
}

/// Bytes that identify the program at its hooks.
fn signature(build: &Build) -> [(u16, Vec<u8>); 5] {
    let g = build.hooks.genlis.to_le_bytes();
    // ld l,c; ld (hl),d; then dec h, or call genlis (the published games' build)
    let aftdes = if build.attacks_after_move {
        vec![0x69, 0x72, 0xCD, g[0], g[1]]
    } else {
        vec![0x69, 0x72, 0x25]
    };
    [
        (build.hooks.aftdes, aftdes),
        (
            build.hooks.befmov,
            vec![0xCD, g[0], g[1], 0x6C, 0x7E, 0xAC, 0x77],
        ),
        // pop bc; ld h,$80; ld l,b
        (build.hooks.chosen, vec![0xC1, 0x26, 0x80, 0x68]),
        // ld l,$FF; ld de,$8278
        (build.hooks.genlis, vec![0x2E, 0xFF, 0x11, 0x78, 0x82]),
        // evaexi: pop hl; pop bc; cp c
        (build.hooks.evaexi, vec![0xE1, 0xC1, 0xB9]),
    ]
}

/// The stack must stay above this: PROG, the first byte after the ROM's
/// channel area (0x5CB6..=0x5CCA), which `RST 16` reads on every print.
pub const STACK_FLOOR: u16 = spectrum::BASIC_START;
/// Stack one reply cycle may use below the waiting stack pointer: two
/// `revboa` passes push 128 words each (the second 14 bytes deeper, after
/// the leak of the first), plus calls and the interrupt. Measured: a cycle
/// starting 271 bytes above channel S's record overwrites it; 320 leaves a
/// margin.
pub const CYCLE_STACK: u16 = 320;

/// T-states allowed for start-up (first `genlis`, CLS, board print).
pub const BOOT_BUDGET: u64 = 10_000_000;

/// The board square (`0rrr0ccc`) of a real square, seen by `view` ("white"
/// at the bottom): Black's view is the board rotated 180°.
pub fn view_square(sq: Square, view: Color) -> u8 {
    let s = ((7 - sq.rank() as u8) << 4) | sq.file() as u8;
    match view {
        Color::White => s,
        Color::Black => 0x77 - s,
    }
}

/// The real square of a board square seen by `view` (`None` off the board).
pub fn real_square(s: u8, view: Color) -> Option<Square> {
    if s & 0x88 != 0 {
        return None;
    }
    let s = match view {
        Color::White => s,
        Color::Black => 0x77 - s,
    };
    let rank = Rank::new(u32::from(7 - (s >> 4)));
    let file = File::new(u32::from(s & 7));
    Some(Square::from_coords(file, rank))
}

/// The key names of a board square (`e2`).
pub fn square_keys(s: u8) -> String {
    format!("{}{}", (b'a' + (s & 7)) as char, (b'8' - (s >> 4)) as char)
}

/// A piece value without its colour bit.
pub fn piece_value(role: Role) -> u8 {
    match role {
        Role::Pawn => 2,
        Role::Knight => 3,
        Role::Bishop => 4,
        Role::Rook => 5,
        Role::Queen => 7,
        Role::King => 22,
    }
}

fn role_of(value: u8) -> Option<Role> {
    Some(match value & 0x1F {
        2 => Role::Pawn,
        3 => Role::Knight,
        4 => Role::Bishop,
        5 => Role::Rook,
        7 => Role::Queen,
        22 => Role::King,
        _ => return None,
    })
}

/// The board page (squares 0x00..=0x77, 0x08 apart per row) for `pos` seen
/// by `view`.
pub fn board_page(pos: &Chess, view: Color) -> [u8; 128] {
    let mut page = [0u8; 128];
    for (sq, piece) in pos.board().clone() {
        let colour = if piece.color == view { 0x20 } else { 0 };
        page[usize::from(view_square(sq, view))] = piece_value(piece.role) | colour;
    }
    page
}

/// What the program chose at the end of its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChosenMove {
    /// Origin and target, board squares in the computer's orientation.
    pub from: u8,
    pub to: u8,
    /// The best evaluation byte.
    pub score: u8,
    /// Candidates scored.
    pub candidates: u8,
}

/// One candidate as the chooser held it at `evaexi` ([`Hooks::evaexi`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Origin and target (D and E), board squares in the computer's
    /// orientation.
    pub from: u8,
    pub to: u8,
    /// The evaluation (A).
    pub eval: u8,
    /// The board byte on the origin square (`00cppppp`) when it was scored.
    pub piece: u8,
}

/// The probe at `evaexi`: the origin square's board byte (D is the origin);
/// A, D and E come with the sample's registers.
fn origin_piece(regs: &Regs, memory: &dyn Memory) -> Vec<u8> {
    vec![memory.peek(BOARD + (regs.de >> 8))]
}

/// Why a run to the computer's choice ended elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoChoice {
    /// The program asked for the person's move again (a typed move it
    /// rejected).
    Rejected,
    /// It stopped some other way.
    Stopped(Stop),
}

/// A ChesSkelet program on its machine, driven key by key: the layer the
/// engine and the golden-game measurement share.
pub struct Session {
    pub build: &'static Build,
    pub zx: Spectrum48,
    /// Stack pointer when the program first waited for a key.
    home_sp: u16,
}

impl Session {
    /// Loads a tape, checks that it is this build and runs it until it waits
    /// for the person's first key.
    ///
    /// # Errors
    /// The tape is malformed, not this build, or does not start.
    pub fn boot(build: &'static Build, tape: &[u8]) -> Result<Session, EngineError> {
        Session::boot_on(build, tape, Core::default())
    }

    /// [`Session::boot`] on the Z80 core `core`.
    ///
    /// # Errors
    /// As [`Session::boot`].
    pub fn boot_on(build: &'static Build, tape: &[u8], core: Core) -> Result<Session, EngineError> {
        let mut zx = Spectrum48::load(tape)?;
        zx.set_core(core);
        for (addr, bytes) in signature(build) {
            for (i, &want) in bytes.iter().enumerate() {
                let at = addr + i as u16;
                let got = zx.peek(at);
                if got != want {
                    return Err(MachineError::BadTape(format!(
                        "not {}: 0x{at:04X} holds 0x{got:02X}, expected 0x{want:02X}",
                        build.info.name
                    ))
                    .into());
                }
            }
        }
        match zx.run(BOOT_BUDGET) {
            Stop::WaitingForKey => {}
            other => {
                return Err(
                    MachineError::BadTape(format!("program did not start: {other}")).into(),
                );
            }
        }
        let home_sp = zx.sp();
        Ok(Session { build, zx, home_sp })
    }

    /// Types keys (a move is four: `e2e4`; `s` switches sides).
    ///
    /// # Errors
    /// A character that is not a Spectrum key.
    pub fn type_keys(&mut self, keys: &str) -> Result<(), EngineError> {
        self.zx
            .type_keys(keys)
            .map_err(|c| EngineError::Position(format!("{c:?} is not a key")))
    }

    /// Runs until the computer has chosen its move (before it is made).
    ///
    /// # Errors
    /// [`NoChoice::Rejected`] if the program waits for keys again first.
    pub fn run_to_choice(&mut self, budget: u64) -> Result<ChosenMove, NoChoice> {
        match self.zx.run_to(budget, Some(self.build.hooks.chosen)) {
            Stop::Breakpoint { .. } => {
                let best = self.zx.peek16(self.zx.sp());
                Ok(ChosenMove {
                    from: (best >> 8) as u8,
                    to: best as u8,
                    score: self.zx.regs().bc as u8,
                    candidates: self.zx.peek(CANDIDATES) / 2,
                })
            }
            Stop::WaitingForKey => Err(NoChoice::Rejected),
            other => Err(NoChoice::Stopped(other)),
        }
    }

    /// Starts (or stops) recording every candidate the chooser scores, by a
    /// probe at `evaexi`: the program runs exactly as without it.
    pub fn watch_evaluations(&mut self, on: bool) {
        if on {
            self.zx.probe(self.build.hooks.evaexi, origin_piece);
        } else {
            self.zx.unprobe();
        }
    }

    /// The candidates scored since the last call, in the chooser's order.
    pub fn evaluations(&mut self) -> Vec<Evaluation> {
        self.zx
            .take_samples()
            .iter()
            .map(|s| Evaluation {
                from: (s.regs.de >> 8) as u8,
                to: s.regs.de as u8,
                eval: s.regs.a(),
                piece: s.bytes.first().copied().unwrap_or(0),
            })
            .collect()
    }

    /// Replaces the move the program chose (at [`Session::run_to_choice`])
    /// by another, given in its orientation.
    pub fn impose(&mut self, from: u8, to: u8) {
        let sp = self.zx.sp();
        self.zx.poke16(sp, u16::from_be_bytes([from, to]));
    }

    /// Runs on until the program waits for the person again.
    pub fn finish(&mut self, budget: u64) -> Stop {
        self.zx.run(budget)
    }

    /// The board page, squares 0x00..=0x77.
    pub fn board(&self) -> [u8; 128] {
        let mut page = [0u8; 128];
        for (i, v) in page.iter_mut().enumerate() {
            *v = self.zx.peek(BOARD + i as u16);
        }
        page
    }

    /// The 8×8 board as printed (rows top to bottom), one letter or space
    /// per square.
    pub fn printed(&self) -> [[char; 8]; 8] {
        let screen = self.zx.screen();
        let mut b = [[' '; 8]; 8];
        for (r, row) in b.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = screen.cell(r, c).glyph;
            }
        }
        b
    }

    /// Sets the machine up for the computer to move in `pos`: its
    /// orientation, and the attack board its evaluation will read, made by
    /// the program's own `genlis` for the opponent: in the printed builds
    /// that of `before` (the position before the opponent's last move, if
    /// known); in the published games' build ([`Build::attacks_after_move`])
    /// that of `pos` itself, which its `aftdes` made after the opponent's
    /// move, so `before` is not needed.
    pub fn inject(&mut self, before: Option<&Chess>, pos: &Chess) {
        self.zx.clear_keys();
        let marked = if self.build.attacks_after_move {
            Some(board_page(pos, !pos.turn()))
        } else {
            before.map(|b| board_page(b, b.turn()))
        };
        if let Some(page) = marked {
            self.write_board(&page);
            self.call_befmov();
            let _ = self.zx.run_to(BOOT_BUDGET, Some(self.build.hooks.whomov));
        } else {
            for i in 0..0x80 {
                self.zx.poke(ATTACKS + i, 0);
            }
        }
        self.write_board(&board_page(pos, pos.turn()));
        self.zx.poke(GAMSTA, 0x7F);
        self.call_befmov();
    }

    fn write_board(&mut self, page: &[u8; 128]) {
        for (i, &v) in page.iter().enumerate() {
            self.zx.poke(BOARD + i as u16, v);
        }
    }

    /// Continues at `befmov` with H = 0x80, as `revboa` leaves it.
    fn call_befmov(&mut self) {
        let mut regs = self.zx.regs();
        regs.hl = 0x8080;
        regs.sp = self.home_sp;
        regs.pc = self.build.hooks.befmov;
        self.zx.set_regs(regs);
    }
}

/// The move the program made, from the printed board before and after, both
/// in the person's orientation `view`; the computer's letters are lower case.
///
/// # Errors
/// The squares that changed are not one move.
// String error: a leaf reading of two printed boards whose message is the whole reason.
pub fn move_from_boards(
    before: &[[char; 8]; 8],
    after: &[[char; 8]; 8],
    view: Color,
) -> Result<UciMove, String> {
    let mut from = Vec::new();
    let mut to = Vec::new();
    for r in 0..8u8 {
        for c in 0..8u8 {
            let (b, a) = (
                before[r as usize][c as usize],
                after[r as usize][c as usize],
            );
            if a == b {
                continue;
            }
            let sq = (r << 4) | c;
            if b.is_ascii_lowercase() && a == ' ' {
                from.push((sq, b));
            } else if a.is_ascii_lowercase() {
                to.push((sq, a));
            } else {
                return Err(format!(
                    "square {} changed from {b:?} to {a:?}",
                    square_keys(sq)
                ));
            }
        }
    }
    let pick = |list: &[(u8, char)]| {
        if list.len() == 2 {
            list.iter().find(|(_, p)| *p == 'k').copied()
        } else {
            list.first().copied()
        }
    };
    let ok = (from.len() == 1 && to.len() == 1) || (from.len() == 2 && to.len() == 2);
    let (Some(f), Some(t)) = (pick(&from), pick(&to)) else {
        return Err(format!(
            "{} squares emptied, {} filled",
            from.len(),
            to.len()
        ));
    };
    if !ok {
        return Err(format!(
            "{} squares emptied, {} filled",
            from.len(),
            to.len()
        ));
    }
    let promotion = (f.1 == 'p' && t.1 == 'q').then_some(Role::Queen);
    if f.1 != t.1 && promotion.is_none() {
        return Err(format!(
            "a {} left {} and a {} arrived on {}",
            f.1,
            square_keys(f.0),
            t.1,
            square_keys(t.0)
        ));
    }
    let (Some(from), Some(to)) = (real_square(f.0, view), real_square(t.0, view)) else {
        return Err("square off the board".into());
    };
    Ok(UciMove::Normal {
        from,
        to,
        promotion,
    })
}

/// The printed board `pos` would show to the person `view`.
pub fn printed_board(pos: &Chess, view: Color) -> [[char; 8]; 8] {
    let mut b = [[' '; 8]; 8];
    for (sq, piece) in pos.board().clone() {
        let s = view_square(sq, view);
        let ch = piece.role.char();
        b[usize::from(s >> 4)][usize::from(s & 7)] = if piece.color == view {
            ch.to_ascii_uppercase()
        } else {
            ch
        };
    }
    b
}

/// The board page decoded as printed letters.
fn page_letters(page: &[u8; 128]) -> [[char; 8]; 8] {
    let mut b = [[' '; 8]; 8];
    for r in 0..8 {
        for c in 0..8 {
            let v = page[r * 16 + c];
            b[r][c] = match role_of(v) {
                Some(_) if v & 0xC0 != 0 => '?',
                Some(role) if v & 0x20 != 0 => role.char().to_ascii_uppercase(),
                Some(role) => role.char(),
                None if v == 0 => ' ',
                None => '?',
            };
        }
    }
    b
}

/// A board page turned round as `revboa` does (seed 001, chapter 9):
/// square `s` goes to `0x77 − s`, every piece changes colour.
pub fn reversed(page: &[u8; 128]) -> [u8; 128] {
    let mut out = [0u8; 128];
    for s in 0..=0x77usize {
        let v = page[s];
        out[0x77 - s] = if v == 0 { 0 } else { v ^ 0x20 };
    }
    out
}

/// `page` with the byte on `from` moved to `to`, `from` emptied: a move
/// taken in plainly.
fn plain_move(page: &[u8; 128], from: u8, to: u8) -> [u8; 128] {
    let mut out = *page;
    out[usize::from(to)] = out[usize::from(from)];
    out[usize::from(from)] = 0;
    out
}

/// The board squares of four typed keys (`e2e4`), in the typist's view.
fn typed_squares(keys: &str) -> Option<(u8, u8)> {
    let k = keys.as_bytes();
    let square = |file: u8, rank: u8| {
        ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank))
            .then(|| ((b'8' - rank) << 4) | (file - b'a'))
    };
    (k.len() == 4).then_some(())?;
    Some((square(k[0], k[1])?, square(k[2], k[3])?))
}

/// A board byte as a program's board cell: a piece (bit 5: the side of
/// `view`, the page's orientation), empty, or a byte that is no piece.
fn page_cell(v: u8, view: Color) -> Cell {
    match role_of(v) {
        _ if v == 0 => Cell::Empty,
        Some(role) if v & 0xC0 == 0 => {
            let color = if v & 0x20 != 0 { view } else { !view };
            Cell::Piece(role.of(color).char())
        }
        _ => Cell::Stray(v),
    }
}

/// A board page seen by `view` as the program's board, in real squares.
pub fn program_board(page: &[u8; 128], view: Color) -> ProgramBoard {
    ProgramBoard(
        Square::ALL
            .iter()
            .map(|&sq| page_cell(page[usize::from(view_square(sq, view))], view))
            .collect(),
    )
}

/// The printed board with anything that is not a piece letter or a space
/// (a stray byte's character) as `?`, as [`page_letters`] shows it.
fn printed_letters(mut b: [[char; 8]; 8]) -> [[char; 8]; 8] {
    for c in b.iter_mut().flatten() {
        if !" pnbrqkPNBRQK".contains(*c) {
            *c = '?';
        }
    }
    b
}

/// The registry's entries: one per build.
pub static ENTRIES: [Entry; 3] = [
    Entry::chess(&BUILDS[0].info, Vec::new, |o| {
        Ok(Box::new(ChesSkelet::new(&BUILDS[0], o.clone())?))
    }),
    Entry::chess(&BUILDS[1].info, Vec::new, |o| {
        Ok(Box::new(ChesSkelet::new(&BUILDS[1], o.clone())?))
    }),
    Entry::chess(&BUILDS[2].info, Vec::new, |o| {
        Ok(Box::new(ChesSkelet::new(&BUILDS[2], o.clone())?))
    }),
];

/// The ChesSkelet engine: the program behind the one pipeline.
pub type ChesSkelet = Driver<Skeleton>;

impl Driver<Skeleton> {
    /// Loads the tape (built in, or `options.tape`) and boots the program.
    ///
    /// # Errors
    /// The tape cannot be read or is not this build.
    pub fn new(build: &'static Build, options: EngineOptions) -> Result<Self, EngineError> {
        Ok(Driver::of(Skeleton::new(build, options.clone())?, options))
    }
}

/// ChesSkelet on its machine: what is special about it.
pub struct Skeleton {
    build: &'static Build,
    options: EngineOptions,
    tape: Vec<u8>,
    session: Session,
    /// The choice a typed move ran to ([`Program::take_in`]), not yet used.
    typed_choice: Option<ChosenMove>,
    /// The choice of this reply, once reached.
    reached: Option<ChosenMove>,
    /// The candidates the chooser scored in this reply.
    weighed: Vec<Evaluation>,
    /// The board page when the program chose its move (its orientation).
    page_before: [u8; 128],
    /// That board as printed, in the person's orientation.
    shown_before: [[char; 8]; 8],
    /// The board page before the person's move was typed.
    typed_from: Option<[u8; 128]>,
    /// The machine's board is the program's own, not the game's: a reply
    /// left it astray ([`Played::Astray`]) and the program plays on from it,
    /// as the real machine would (module notes, "Its own board").
    own_board: bool,
    /// Collecting candidates ([`Engine::collect_candidates`]).
    collect: bool,
}

impl Skeleton {
    /// As [`ChesSkelet::new`].
    ///
    /// # Errors
    /// As [`ChesSkelet::new`].
    pub fn new(build: &'static Build, options: EngineOptions) -> Result<Skeleton, EngineError> {
        let tape = match &options.tape {
            Some(path) => crate::machine::read_tape(path)?,
            None => build.tape.to_vec(),
        };
        let session = Session::boot_on(build, &tape, options.core)?;
        Ok(Skeleton {
            build,
            options,
            tape,
            session,
            typed_choice: None,
            reached: None,
            weighed: Vec::new(),
            page_before: [0; 128],
            shown_before: [[' '; 8]; 8],
            typed_from: None,
            own_board: false,
            collect: false,
        })
    }

    /// The machine session, for tests and tools.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// A candidate as the move the program would make: its squares rotated
    /// back as [`Skeleton::read_move`] does, and the full build's
    /// promotion (`aftsid`: a white pawn, `$22`, reaching row 0 becomes a
    /// queen, `$27`); the minimal build has no promotion. `None` off the
    /// board (`genlis` lists no such square).
    fn candidate_move(&self, e: &Evaluation, engine: Color) -> Option<UciMove> {
        let promotes = self.build.features && e.piece == 0x22 && e.to & 0x70 == 0;
        Some(UciMove::Normal {
            from: real_square(e.from, engine)?,
            to: real_square(e.to, engine)?,
            promotion: promotes.then_some(Role::Queen),
        })
    }

    /// The move the program made, read off its printed board: the move it
    /// chose, when the board printed after it differs from the one before
    /// by exactly that move and the board page agrees. Otherwise its board
    /// is not a plain reading of the move (the full build's long-castling
    /// test also fires for a queen stepping up-left; tapes/CHESSKELET.md,
    /// "Quirks"): the chosen move with its board page before and after
    /// ([`Played::Astray`]), for the rules to say what it did.
    fn read_move(
        &mut self,
        choice: &ChosenMove,
        engine: Color,
    ) -> Result<Played<UciMove>, EngineError> {
        let person = !engine;
        let after_page = self.session.board();
        let after = printed_letters(self.session.printed());
        let page_agrees = page_letters(&after_page) == after;
        let (Some(from), Some(to)) = (
            real_square(choice.from, engine),
            real_square(choice.to, engine),
        ) else {
            return Err(EngineError::Unreadable(
                "the chosen squares are off the board".into(),
            ));
        };
        let clean = move_from_boards(&self.shown_before, &after, person)
            .ok()
            .filter(
                |u| matches!(*u, UciMove::Normal { from: f, to: t, .. } if (f, t) == (from, to)),
            );
        if let (Some(uci), true) = (clean, page_agrees) {
            return Ok(Played::Move(uci));
        }
        let was = self.page_before[usize::from(choice.from)];
        let now = after_page[usize::from(view_square(to, person))];
        let promotion = (role_of(was) == Some(Role::Pawn) && role_of(now) == Some(Role::Queen))
            .then_some(Role::Queen);
        let wire = UciMove::Normal {
            from,
            to,
            promotion,
        };
        let quirk = self.quirk(choice, from, to);
        info!(
            "{}: its board after {wire} is not a plain reading of the move{}",
            self.build.info.name,
            quirk
                .as_ref()
                .map_or(String::new(), |q| format!(" ({})", q.words))
        );
        Ok(Played::Astray(Box::new(Astray {
            wire,
            before: program_board(&self.page_before, engine),
            after: program_board(&after_page, person),
            quirk,
        })))
    }

    /// What the full build's castling code (`casroo`, seed 001 chapter 9)
    /// did, where it fired. Its long-castling test, piece + origin −
    /// target = `$38` (the king's `$36 + $74 − $72`), holds as well for a
    /// queen (`$27`) stepping one square up-left in the mover's view
    /// (origin − target = `$11`): `aftsid` then also erases a1 and writes a
    /// rook on d1 — and a queen that started on d1 is read back as that
    /// rook and lands on the target as one. And the rook's corner is
    /// "erased" with D, which the comment says is 0: on the person's side
    /// it is, on the computer's D still holds the origin of the last
    /// candidate its chooser weighed, so even a true castling leaves that
    /// byte on a1 or h1 (tapes/CHESSKELET.md, "Quirks").
    fn quirk(&self, choice: &ChosenMove, from: Square, to: Square) -> Option<Quirk> {
        let piece = self.page_before[usize::from(choice.from)];
        let test = piece.wrapping_add(choice.from).wrapping_sub(choice.to);
        if !self.build.features || (test != 0x38 && test != 0x34) {
            return None;
        }
        let letter = role_of(piece).map_or('?', |r| r.upper_char());
        if role_of(piece) == Some(Role::King) {
            return Some(Quirk {
                kind: "castling's stray byte",
                words: format!(
                    "its castling {letter}{from}-{to} erased the rook's corner with D, which is \
                     0 only on the person's side (on the computer's it holds the origin of the \
                     last candidate weighed)"
                ),
            });
        }
        (test == 0x38).then(|| Quirk {
            kind: "long-castling test",
            words: format!(
                "its long-castling test (piece + origin - target = $38) took \
                 {letter}{from}-{to} for castling"
            ),
        })
    }
}

impl Program for Skeleton {
    type Rules = ChessRules;
    type Host = Spectrum48;
    /// A typed move and the search are one run (to the choice), so a reply
    /// counts from the start, reload included.
    const COUNTS_INPUT: bool = true;
    /// The attack board of the previous move generation is state an
    /// injection rebuilds only on a machine that has not played.
    const INJECTS_FRESH: bool = true;

    fn info(&self) -> &'static EngineInfo {
        &self.build.info
    }

    fn host(&self) -> &Spectrum48 {
        &self.session.zx
    }

    fn host_mut(&mut self) -> &mut Spectrum48 {
        &mut self.session.zx
    }

    /// The Spectrum draws nothing from a seed (the programs' keys come as
    /// they are typed), so every boot is the same.
    fn boot(&mut self, _seed: u64) -> Result<(), EngineError> {
        self.session = Session::boot_on(self.build, &self.tape, self.options.core)?;
        self.session.watch_evaluations(self.collect);
        self.typed_choice = None;
        self.own_board = false;
        Ok(())
    }

    /// Waiting for the person's (White's) first move.
    fn booted_track(&self) -> Option<Track<ChessRules>> {
        Some(Track {
            root: Chess::default(),
            moves: Vec::new(),
            engine: None,
        })
    }

    /// Four keys in the person's orientation (rotated when the person plays
    /// Black); `s` to hand the first move to the computer (full build).
    /// Not when the stack has no room for another move cycle.
    fn keys(
        &mut self,
        track: Option<&Track<ChessRules>>,
        game: &Game<ChessRules>,
    ) -> Result<String, Untypable> {
        // What an unfinished reply left on this machine is not this search.
        drop(self.session.evaluations());
        self.reached = None;
        let sp = self.session.zx.sp();
        if sp < STACK_FLOOR + CYCLE_STACK {
            return Err(Untypable::StackLow(sp));
        }
        let not = || Untypable::Diverged;
        let (root, moves, engine) = (game.root(), game.moves(), game.turn());
        let track = track.ok_or_else(not)?;
        if track.root != *root || track.engine.is_some_and(|e| e != engine) {
            return Err(not());
        }
        if moves.is_empty() && track.moves.is_empty() && engine == Color::White {
            if !self.build.features || *root != Chess::default() {
                return Err(not());
            }
            return Ok("s".into());
        }
        if !track.continued_by(game)
            || track.engine.is_none() && (engine != Color::Black || *root != Chess::default())
        {
            return Err(not());
        }
        let m = moves.last().ok_or_else(not)?;
        let person = !engine;
        let from = view_square(m.from().ok_or_else(not)?, person);
        let to = view_square(m.to(), person);
        self.typed_from = Some(self.session.board());
        Ok(format!("{}{}", square_keys(from), square_keys(to)))
    }

    /// The full build checks the move against its list; then the computer
    /// searches: typing runs to its choice.
    fn take_in(&mut self, keys: &str, budget: u64) -> TakenIn {
        match self.session.run_to_choice(budget) {
            Ok(c) => {
                self.typed_choice = Some(c);
                TakenIn::Accepted
            }
            Err(NoChoice::Rejected) => TakenIn::Refused(format!("the program refused {keys}")),
            Err(NoChoice::Stopped(stop)) => TakenIn::Hung(stop),
        }
    }

    /// The program's board must show the game's position; on its own board
    /// (after a reply that left it astray), the typed move taken in as a
    /// plain move on that board (anything else, such as castling its own
    /// way, and the position is injected).
    fn board_check(&mut self, keys: &str, game: &Game<ChessRules>) -> Result<Check, EngineError> {
        let page = self.session.board();
        let expected = match (self.own_board, self.typed_from.take()) {
            (true, Some(from_page)) => {
                typed_squares(keys).map(|(f, t)| reversed(&plain_move(&from_page, f, t)))
            }
            _ => Some(board_page(game.position(), game.turn())),
        };
        Ok(if expected == Some(page) {
            Check::Shows
        } else if self.own_board {
            Check::Differs(format!(
                "the program played {keys} its own way on its own board, which is not the \
                 game's since a reply that went astray"
            ))
        } else {
            Check::Differs(format!("the program played {keys} its own way"))
        })
    }

    /// On the machine booted afresh, with the attack board of the position
    /// before the opponent's last move, when the game has one (the
    /// published games' build: of the position itself).
    fn inject(&mut self, game: &Game<ChessRules>, _: Injecting) -> Result<(), EngineError> {
        let moves = game.moves();
        let before = game.truncated(moves.len().saturating_sub(1));
        let before = (!moves.is_empty()).then(|| before.position().clone());
        self.session.inject(before.as_ref(), game.position());
        self.typed_choice = None;
        self.own_board = false;
        Ok(())
    }

    /// To the choice (unless typing ran there), then on until the program
    /// waits for the person again.
    fn run_to_reply(&mut self, game: &Game<ChessRules>, budget: u64) -> Stop {
        let choice = match self.typed_choice.take() {
            Some(c) => c,
            None => match self.session.run_to_choice(budget) {
                Ok(c) => c,
                Err(NoChoice::Stopped(stop)) => return stop,
                Err(NoChoice::Rejected) => return Stop::WaitingForKey,
            },
        };
        self.reached = Some(choice);
        if choice.candidates == 0 {
            return Stop::Breakpoint {
                pc: self.build.hooks.chosen,
            };
        }
        self.weighed = self.session.evaluations();
        // The board the program moves on, as it holds it: the game's
        // position, or its own board (module notes, "Its own board").
        self.page_before = self.session.board();
        self.shown_before = page_letters(&reversed(&self.page_before));
        let _ = game;
        self.session.finish(budget)
    }

    /// The candidates as the program weighed them, ranked by its chooser;
    /// none without a move (no candidate: the chooser would score stale
    /// list entries, which are no moves of this position).
    fn thoughts(&mut self, game: &Game<ChessRules>, stop: Stop) -> Option<Thoughts<UciMove>> {
        let moved = self.reached.is_some_and(|c| c.candidates > 0) && stop == Stop::WaitingForKey;
        if !(self.collect && moved) {
            return None;
        }
        let engine = game.turn();
        let list = self
            .weighed
            .iter()
            .zip(1..)
            .filter_map(|(e, seq)| {
                Some(Candidate {
                    seq,
                    wire: self.candidate_move(e, engine)?,
                    raw: i32::from(e.eval),
                    score: centipawns(e.eval),
                    chance: None,
                })
            })
            .collect();
        Some(Thoughts::rank(list, Ties::KeepsLast, TIE_BREAK))
    }

    /// No choice reached: a hang. No candidate: the program's own end of a
    /// game. Back at the key wait: the move off the printed board.
    fn read_reply(
        &mut self,
        game: &Game<ChessRules>,
        stop: Stop,
    ) -> Result<Read<UciMove>, EngineError> {
        let hung = |stop| Read::played(Played::Hung(Hang::from_stop(stop)), 0);
        let Some(choice) = self.reached else {
            return Ok(hung(stop));
        };
        if choice.candidates == 0 {
            return Ok(Read::played(Played::DeadEnd, 0));
        }
        if stop != Stop::WaitingForKey {
            return Ok(hung(stop));
        }
        let played = self.read_move(&choice, game.turn())?;
        if matches!(played, Played::Astray(_)) {
            self.own_board = true;
        }
        Ok(Read {
            played,
            score: Some(centipawns(choice.score)),
            nodes: u64::from(choice.candidates),
            intact: true,
        })
    }

    fn set_collect(&mut self, on: bool) -> bool {
        self.collect = on;
        self.session.watch_evaluations(on);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Move};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn game(moves: &[&str]) -> Game<ChessRules> {
        let mut g = Game::initial(ChessRules);
        for m in moves {
            let wire: UciMove = m.parse().unwrap();
            assert!(
                matches!(g.play_wire(&wire), crate::rules::Verdict::Legal(_)),
                "{m}"
            );
        }
        g
    }

    #[test]
    fn squares_turn_round_for_black_and_back() {
        assert_eq!(view_square(Square::A8, Color::White), 0x00);
        assert_eq!(view_square(Square::H1, Color::White), 0x77);
        assert_eq!(view_square(Square::E2, Color::White), 0x64);
        assert_eq!(view_square(Square::E2, Color::Black), 0x77 - 0x64);
        assert_eq!(square_keys(view_square(Square::E2, Color::White)), "e2");
        assert_eq!(square_keys(view_square(Square::E2, Color::Black)), "d7");
        for i in 0..64 {
            let sq = Square::new(i);
            for view in [Color::White, Color::Black] {
                assert_eq!(real_square(view_square(sq, view), view), Some(sq));
            }
        }
        // The 0x88 gaps of the 16-wide page are off the board.
        assert_eq!(real_square(0x08, Color::White), None);
        assert_eq!(real_square(0x80, Color::Black), None);
    }

    #[test]
    fn the_board_page_decodes_to_the_printed_board() {
        let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        for view in [Color::White, Color::Black] {
            let page = board_page(&p, view);
            assert_eq!(page_letters(&page), printed_board(&p, view));
        }
        let page = board_page(&Chess::default(), Color::White);
        assert_eq!(
            page[0x74],
            22 | 0x20,
            "White's king on e1, the side to move"
        );
        assert_eq!(page[0x04], 22, "Black's king on e8");
        assert_eq!(page[0x08], 0, "off the board");
    }

    #[test]
    fn moves_are_read_from_the_printed_boards() {
        // The computer (lower case) plays Black; the person sees White's view.
        let before = printed_board(&pos("r3k3/1p6/8/8/8/8/8/4K3 b q - 0 1"), Color::White);
        let after_move = printed_board(&pos("r3k3/8/1p6/8/8/8/8/4K3 w q - 0 2"), Color::White);
        assert_eq!(
            move_from_boards(&before, &after_move, Color::White),
            Ok("b7b6".parse().unwrap())
        );
        // Castling: two squares emptied, two filled; the king's pair is the move.
        let castled = printed_board(&pos("2kr4/1p6/8/8/8/8/8/4K3 w - - 1 2"), Color::White);
        assert_eq!(
            move_from_boards(&before, &castled, Color::White),
            Ok("e8c8".parse().unwrap())
        );
        // A pawn that arrives as a queen.
        let before = printed_board(&pos("4k3/8/8/8/8/8/p7/4K3 b - - 0 1"), Color::White);
        let after = printed_board(&pos("4k3/8/8/8/8/8/8/q3K3 w - - 0 2"), Color::White);
        assert_eq!(
            move_from_boards(&before, &after, Color::White),
            Ok("a2a1q".parse().unwrap())
        );
        assert!(move_from_boards(&before, &before, Color::White).is_err());
        let mut odd = after;
        odd[7][0] = 'r';
        assert!(
            move_from_boards(&before, &odd, Color::White).is_err(),
            "a pawn left, a rook arrived"
        );
    }

    #[test]
    fn evaluations_map_to_centipawns() {
        assert_eq!(centipawns(128), 0);
        assert_eq!(centipawns(136), 100, "a pawn: 2 units, times 4");
        assert_eq!(centipawns(120), -100);
    }

    #[test]
    fn the_keys_continue_the_machines_game_or_say_why_not() {
        let mut full = Skeleton::new(&BUILDS[0], EngineOptions::default()).unwrap();
        let fresh = full.booted_track();
        // The person (White) moved first: the program takes the move.
        assert_eq!(
            full.keys(fresh.as_ref(), &game(&["e2e4"])),
            Ok("e2e4".into())
        );
        // The program to move first: the full build's own side switch.
        assert_eq!(full.keys(fresh.as_ref(), &game(&[])), Ok("s".into()));
        let not = Err(Untypable::Diverged);
        assert_eq!(full.keys(None, &game(&["e2e4"])), not);
        assert_eq!(full.keys(fresh.as_ref(), &game(&["e2e4", "e7e5"])), not);
        // A program that played Black: the person's keys in the person's view.
        let track = Track {
            root: Chess::default(),
            moves: game(&["e2e4", "e7e5"]).moves().to_vec(),
            engine: Some(Color::Black),
        };
        assert_eq!(
            full.keys(Some(&track), &game(&["e2e4", "e7e5", "g1f3"])),
            Ok("g1f3".into())
        );
        let played: Vec<Move> = game(&["e2e4", "e7e5", "g1f3"]).moves().to_vec();
        let white = Track {
            root: Chess::default(),
            moves: played[..1].to_vec(),
            engine: Some(Color::White),
        };
        // The person plays Black: the keys are rotated into its view.
        assert_eq!(
            full.keys(Some(&white), &game(&["e2e4", "e7e5"])),
            Ok("d2d4".into())
        );
        let mut lite = Skeleton::new(&BUILDS[1], EngineOptions::default()).unwrap();
        let fresh = lite.booted_track();
        assert_eq!(lite.keys(fresh.as_ref(), &game(&[])), not, "no `s` key");
    }
}
