//! How games end, as typed values: the result, the reason and the PGN/PDN
//! termination. Their words are for display; nothing matches on them.

use std::fmt;

use shakmaty::Color;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Color),
    Draw,
}

impl GameResult {
    /// The loss of `side`.
    pub fn loss(side: Color) -> GameResult {
        GameResult::Win(!side)
    }

    /// The result token PGN writes (`1-0`, `0-1`, `1/2-1/2`): White's score
    /// first.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a player's program did not come back with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HangKind {
    /// It was still thinking when its T-state budget ran out (the hang
    /// guard where no clock limits it).
    Budget,
    /// It was still thinking when its deadline on the host's clock came:
    /// the time its clock left it, less a small margin for the pipes.
    Deadline,
    /// It locked itself in a loop it can never leave.
    Stuck,
    /// It did something the emulation cannot follow faithfully.
    Fault,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    // By the rules.
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoves,
    Repetition,
    /// The side to move has no legal move (a loss in draughts).
    NoLegalMove,
    /// Too many moves without a capture or a man moving (draughts).
    NoProgress,
    // By the runner.
    MaxPlies,
    // A player's doing.
    IllegalMove,
    /// A program found no move and stopped, its own way of ending a game.
    DeadEnd,
    Hung(HangKind),
    Resignation,
    OutOfTime,
    Disconnected,
    Stalled,
    /// An external engine broke its protocol (a line past the bound).
    ProtocolFault,
    CouldNotStart,
}

impl EndReason {
    /// The PGN/PDN `Termination` tag for this reason.
    pub fn termination(self) -> Termination {
        use EndReason::*;
        match self {
            Checkmate | Stalemate | InsufficientMaterial | FiftyMoves | Repetition
            | NoLegalMove | NoProgress | Resignation => Termination::Normal,
            MaxPlies => Termination::Adjudication,
            IllegalMove | ProtocolFault => Termination::RulesInfraction,
            Hung(HangKind::Budget | HangKind::Deadline) | OutOfTime | Stalled => {
                Termination::TimeForfeit
            }
            Hung(_) | DeadEnd | Disconnected | CouldNotStart => Termination::Abandoned,
        }
    }

    /// Words for the end by the rules (`checkmate`, `threefold repetition`).
    pub fn words(self) -> &'static str {
        use EndReason::*;
        match self {
            Checkmate => "checkmate",
            Stalemate => "stalemate",
            InsufficientMaterial => "insufficient material",
            FiftyMoves => "fifty-move rule",
            Repetition => "threefold repetition",
            NoLegalMove => "no legal move",
            NoProgress => "no progress",
            MaxPlies => "maximum plies",
            IllegalMove => "illegal move",
            DeadEnd => "dead end",
            Hung(HangKind::Budget) => "budget exhausted",
            Hung(HangKind::Deadline) => "still running at the deadline",
            Hung(HangKind::Stuck) => "stuck",
            Hung(HangKind::Fault) => "emulation fault",
            Resignation => "resignation",
            OutOfTime => "out of time",
            Disconnected => "disconnected",
            Stalled => "stalled",
            ProtocolFault => "protocol fault",
            CouldNotStart => "could not start",
        }
    }
}

/// The PGN `Termination` tag's standard values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    RulesInfraction,
    Abandoned,
    Unterminated,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Unterminated => "unterminated",
        })
    }
}

/// A game's end by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: GameResult,
    pub reason: EndReason,
}
