//! Draughts under the rules seam: English checkers, and the house rules of
//! Draughts 1K (seed 002), on the 8×8 board in PDN numbering.
//!
//! No crate arbitrates checkers, so this is our own code: [`board`]
//! (squares, [`Position`]), [`movegen`] (legal moves of both rule sets and
//! where their facts come from), [`wire`] (PDN and Hub move text),
//! [`judge`](mod@judge) (reasons for illegal moves), `fen` (PDN FEN),
//! [`hub`] (positions as pydraughts's Hub client sends them) and [`pdn`]
//! (game records).
//!
//! How a game ends:
//! - English: the side to move with no legal move loses (ACF/EDA laws);
//!   the third occurrence of a position (same pieces, same side to move)
//!   is a draw; and so is the [`NO_PROGRESS_PLIES`] rule: 40 moves by each
//!   side (80 plies) with no capture and no man moved. That is the English
//!   Draughts Association / WCDF "40-move rule" (a draw when neither player
//!   has advanced an uncrowned man and no piece has been removed during
//!   their own previous 40 moves), and the same count pydraughts 0.6.7 uses
//!   for `english` (`is_draw`: 80 consecutive non-capture king moves). Over
//!   the board the rule needs a claim and a referee's count; a match
//!   runner applies it at once.
//! - Draughts 1K: seed 002 says nothing of how a game ends (the book's
//!   BASIC, which ran the game, is not in the seed). OURS: the side to move
//!   with no legal move loses, as in every draughts game. No other rule is
//!   needed: under these rules every move is irreversible (a man only goes
//!   forward, a king only back towards its own side, a piece that has come
//!   home as a king never moves again), so no position repeats and a game
//!   lasts at most 12 × 14 moves a side.

pub mod board;
mod fen;
pub mod hub;
pub mod hub_line;
pub mod judge;
pub mod movegen;
pub mod pdn;
mod variant;
pub mod wire;

pub use board::{Piece, Position, Square};
pub use fen::FenError;
pub use judge::IllegalDraughtsMove;
pub use movegen::DraughtsMove;
pub use variant::{UnknownVariant, Variant};
pub use wire::{HubMove, PdnMove, WireError};

use super::{Color, EndReason, Ending, Game, GameResult, PositionError, Rules};

/// Plies without a capture or a man moving after which English checkers is
/// drawn: 40 moves each (see the module notes for the source).
pub const NO_PROGRESS_PLIES: usize = 80;

/// Draughts under one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Draughts {
    variant: Variant,
}

impl Draughts {
    pub fn new(variant: Variant) -> Draughts {
        Draughts { variant }
    }

    /// English checkers.
    pub fn english() -> Draughts {
        Draughts::new(Variant::English)
    }

    /// Draughts 1K's house rules.
    pub fn zx81_1k() -> Draughts {
        Draughts::new(Variant::Zx81)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The legal moves of `pos` into `out` (cleared first), in a fixed
    /// order: captures first, by square, then steps.
    pub fn legal_moves_into(&self, pos: &Position, out: &mut Vec<DraughtsMove>) {
        match self.variant {
            Variant::English => movegen::english(pos, out),
            Variant::Zx81 => movegen::zx81(pos, out),
        }
    }

    /// The number of distinct move sequences of `depth` plies from `pos`.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        let mut buffers = vec![Vec::with_capacity(32); depth as usize + 1];
        self.perft_with(pos, depth, &mut buffers)
    }

    fn perft_with(&self, pos: &Position, depth: u32, buffers: &mut [Vec<DraughtsMove>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (moves, rest) = buffers.split_first_mut().expect("one buffer a ply");
        self.legal_moves_into(pos, moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in moves.iter() {
            let mut next = *pos;
            m.apply(&mut next);
            total += self.perft_with(&next, depth - 1, rest);
        }
        total
    }

    /// How pydraughts's Hub client writes the legal move `m` (see [`wire`]).
    pub fn hub_move(&self, m: &DraughtsMove) -> HubMove {
        if m.is_capture() {
            HubMove::capture(m.from(), m.to(), Square::of(m.captured()).collect())
        } else {
            HubMove::step(m.from(), m.to())
        }
    }

    /// The PDN move a Hub move stands for in `pos`: the legal move with the
    /// same first and last squares and the same captured pieces (all of
    /// them, or none given and only one such capture), written in full.
    /// When none matches, the Hub move's first and last squares, for
    /// [`Rules::judge`] to explain. A king taking a ring of pieces either
    /// way round gives two moves with one Hub form; both end in the same
    /// position, and the first in legal order is taken.
    pub fn wire_from_hub(&self, pos: &Position, hub: &HubMove) -> PdnMove {
        let legal = self.legal_moves(pos);
        let same_ends = |m: &&DraughtsMove| m.from() == hub.from() && m.to() == hub.to();
        let matches: Vec<&DraughtsMove> = legal
            .iter()
            .filter(same_ends)
            .filter(|m| m.is_capture() == hub.is_capture())
            .filter(|m| hub.captured().is_empty() || m.captured() == hub.captured_mask())
            .collect();
        match matches[..] {
            [m, ..] if !hub.captured().is_empty() || matches.len() == 1 => judge::pdn_of(m),
            _ if hub.is_capture() => PdnMove::jumps(vec![hub.from(), hub.to()]),
            _ => PdnMove::step(hub.from(), hub.to()),
        }
    }
}

impl Rules for Draughts {
    type Position = Position;
    type Move = DraughtsMove;
    type Wire = PdnMove;
    type Illegal = IllegalDraughtsMove;

    fn name(&self) -> &'static str {
        self.variant.name()
    }

    fn initial(&self) -> Position {
        Position::initial()
    }

    fn turn(&self, pos: &Position) -> Color {
        pos.turn()
    }

    fn first_side(&self) -> Color {
        Color::Black
    }

    fn legal_moves(&self, pos: &Position) -> Vec<DraughtsMove> {
        let mut out = Vec::with_capacity(16);
        self.legal_moves_into(pos, &mut out);
        out
    }

    fn judge(&self, pos: &Position, wire: &PdnMove) -> super::Verdict<Draughts> {
        let legal = self.legal_moves(pos);
        match judge::judge(self.variant, pos, wire, &legal) {
            Ok(m) => super::Verdict::Legal(m),
            Err(why) => super::Verdict::Illegal(wire.clone(), why),
        }
    }

    fn wire(&self, _pos: &Position, m: &DraughtsMove) -> PdnMove {
        judge::pdn_of(m)
    }

    fn play(&self, pos: &mut Position, m: &DraughtsMove) {
        m.apply(pos);
    }

    /// A 64-bit mix (SplitMix64's finaliser) of the three masks and the
    /// side to move.
    fn repetition_key(&self, pos: &Position) -> u64 {
        let men = u64::from(pos.black()) | u64::from(pos.white()) << 32;
        let rest = u64::from(pos.kings()) | u64::from(pos.turn() == Color::White) << 32;
        mix(men ^ mix(rest))
    }

    /// No legal move (a loss), then threefold repetition and the
    /// no-progress rule (English only; see the module notes).
    fn ending(&self, game: &Game<Draughts>) -> Option<Ending> {
        let pos = game.position();
        if self.legal_moves(pos).is_empty() {
            return Some(Ending {
                result: GameResult::loss(pos.turn()),
                reason: EndReason::NoLegalMove,
            });
        }
        let draw = |reason| {
            Some(Ending {
                result: GameResult::Draw,
                reason,
            })
        };
        if game.repetitions() >= 3 {
            return draw(EndReason::Repetition);
        }
        if self.variant == Variant::English && quiet_plies(game.moves()) >= NO_PROGRESS_PLIES {
            return draw(EndReason::NoProgress);
        }
        None
    }

    fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        fen::parse(text).map_err(PositionError::from)
    }

    fn position_text(&self, pos: &Position) -> String {
        fen::write(pos)
    }

    fn illegal_kind(&self, why: &IllegalDraughtsMove) -> &'static str {
        why.kind()
    }
}

/// Reads a PDN FEN (as [`Rules::parse_position`], with the typed error).
///
/// # Errors
/// See [`FenError`].
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    fen::parse(text)
}

/// The canonical PDN FEN of `pos`.
pub fn fen(pos: &Position) -> String {
    fen::write(pos)
}

/// Plies at the end of `moves` with no capture and no man moved.
fn quiet_plies(moves: &[DraughtsMove]) -> usize {
    moves
        .iter()
        .rev()
        .take_while(|m| m.is_king_move() && !m.is_capture())
        .count()
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests;
