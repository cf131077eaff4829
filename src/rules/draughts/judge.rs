//! The verdict on a PDN move, with the reason when it is illegal.
//!
//! A move is matched against the legal moves by its squares (the piece's
//! square and every landing square, or only the first and last for a
//! capture when that names one legal capture); the separator is not
//! checked. When nothing matches, the move is walked leg by leg against the
//! position to find the first rule it breaks, so the reason names what a
//! player would be told across the board: "men move forward only", "a
//! capture is available: 22x15", "the jump must continue: 15x24".

use std::fmt;

use super::board::{Dir, Piece, Position, Square, crowning_row};
use super::movegen::DraughtsMove;
use super::variant::Variant;
use super::wire::PdnMove;

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalDraughtsMove {
    NoPiece {
        square: Square,
    },
    NotYourPiece {
        square: Square,
        piece: Piece,
    },
    NotDiagonal {
        from: Square,
        to: Square,
    },
    /// A step of more than one square (or a "jump" over nothing written as
    /// a simple move).
    TooFar {
        king: bool,
        distance: u8,
    },
    Occupied {
        square: Square,
    },
    BackwardMan,
    /// Draughts 1K: a king going the way its side's men go.
    ForwardKing,
    NothingToCapture {
        over: Square,
        holds: Option<Piece>,
    },
    CapturedTwice {
        square: Square,
    },
    /// A capture that goes on with a simple step.
    StepInCapture {
        from: Square,
        to: Square,
    },
    /// English: a simple move while a capture is available.
    MissedCapture {
        available: PdnMove,
    },
    /// English: a capture that stops while the piece can jump again.
    UnfinishedJump {
        next: PdnMove,
    },
    /// English: a man crowned by a jump that jumps on.
    CrowningEndsMove {
        at: Square,
    },
    /// Draughts 1K: more than one jump.
    SingleJumpsOnly,
    /// `fromxto` with no legal capture from `from` to `to`.
    NoSuchCapture {
        from: Square,
        to: Square,
    },
    /// `fromxto` naming several legal captures.
    Ambiguous {
        written: PdnMove,
        candidates: Vec<PdnMove>,
    },
    /// Not legal for a reason none of the above names (a safety net).
    NotLegal,
}

impl fmt::Display for IllegalDraughtsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalDraughtsMove::NoPiece { square } => write!(f, "no piece on {square}"),
            IllegalDraughtsMove::NotYourPiece { square, piece } => {
                write!(
                    f,
                    "{square} holds a {piece}, not a piece of the side to move"
                )
            }
            IllegalDraughtsMove::NotDiagonal { from, to } => {
                write!(f, "not a diagonal step: {from} to {to}")
            }
            IllegalDraughtsMove::TooFar { king, distance } => write!(
                f,
                "a {} cannot move {} squares",
                if *king { "king" } else { "man" },
                count_word(*distance)
            ),
            IllegalDraughtsMove::Occupied { square } => write!(f, "square {square} is occupied"),
            IllegalDraughtsMove::BackwardMan => write!(f, "men move forward only"),
            IllegalDraughtsMove::ForwardKing => {
                write!(f, "kings of this program move only backwards")
            }
            IllegalDraughtsMove::NothingToCapture { over, holds } => match holds {
                None => write!(f, "a jump must capture an opposing piece: {over} is empty"),
                Some(p) => write!(
                    f,
                    "a jump must capture an opposing piece: {over} holds a {p}"
                ),
            },
            IllegalDraughtsMove::CapturedTwice { square } => {
                write!(f, "the piece on {square} cannot be jumped twice")
            }
            IllegalDraughtsMove::StepInCapture { from, to } => {
                write!(
                    f,
                    "a capture goes on by jumps only: {from} to {to} is a step"
                )
            }
            IllegalDraughtsMove::MissedCapture { available } => {
                write!(f, "a capture is available: {available}")
            }
            IllegalDraughtsMove::UnfinishedJump { next } => {
                write!(f, "the jump must continue: {next}")
            }
            IllegalDraughtsMove::CrowningEndsMove { at } => {
                write!(f, "promotion ends the move: the man was crowned on {at}")
            }
            IllegalDraughtsMove::SingleJumpsOnly => {
                write!(f, "this program's rules allow single jumps only")
            }
            IllegalDraughtsMove::NoSuchCapture { from, to } => {
                write!(f, "no capture leads from {from} to {to}")
            }
            IllegalDraughtsMove::Ambiguous {
                written,
                candidates,
            } => {
                let list: Vec<String> = candidates.iter().map(ToString::to_string).collect();
                write!(f, "ambiguous capture {written}: {}", list.join(" or "))
            }
            IllegalDraughtsMove::NotLegal => write!(f, "not a legal move"),
        }
    }
}

impl IllegalDraughtsMove {
    /// A short name for the standings.
    pub fn kind(&self) -> &'static str {
        match self {
            IllegalDraughtsMove::NoPiece { .. } => "no piece",
            IllegalDraughtsMove::NotYourPiece { .. } => "not its piece",
            IllegalDraughtsMove::NotDiagonal { .. } => "not diagonal",
            IllegalDraughtsMove::TooFar { .. } => "too far",
            IllegalDraughtsMove::Occupied { .. } => "occupied square",
            IllegalDraughtsMove::BackwardMan => "backward man move",
            IllegalDraughtsMove::ForwardKing => "forward king move",
            IllegalDraughtsMove::NothingToCapture { .. } => "jump over nothing",
            IllegalDraughtsMove::CapturedTwice { .. } => "piece jumped twice",
            IllegalDraughtsMove::StepInCapture { .. } => "step in a capture",
            IllegalDraughtsMove::MissedCapture { .. } => "missed capture",
            IllegalDraughtsMove::UnfinishedJump { .. } => "unfinished jump",
            IllegalDraughtsMove::CrowningEndsMove { .. } => "jump after crowning",
            IllegalDraughtsMove::SingleJumpsOnly => "multiple jump",
            IllegalDraughtsMove::NoSuchCapture { .. } => "no such capture",
            IllegalDraughtsMove::Ambiguous { .. } => "ambiguous capture",
            IllegalDraughtsMove::NotLegal => "illegal move",
        }
    }
}

fn count_word(n: u8) -> String {
    let words = ["two", "three", "four", "five", "six", "seven"];
    match n {
        2..=7 => words[usize::from(n) - 2].to_string(),
        _ => n.to_string(),
    }
}

/// How PDN writes the legal move `m`: every landing square.
pub fn pdn_of(m: &DraughtsMove) -> PdnMove {
    let squares: Vec<Square> = std::iter::once(m.from()).chain(m.landings()).collect();
    if m.is_capture() {
        PdnMove::jumps(squares)
    } else {
        PdnMove::step(squares[0], squares[1])
    }
}

/// `wire` as one of the `legal` moves of `pos`, or why it is none.
pub fn judge(
    variant: Variant,
    pos: &Position,
    wire: &PdnMove,
    legal: &[DraughtsMove],
) -> Result<DraughtsMove, IllegalDraughtsMove> {
    let s = wire.squares();
    let full = |m: &&DraughtsMove| m.from() == s[0] && m.landings().eq(s[1..].iter().copied());
    if let Some(m) = legal.iter().find(full) {
        return Ok(*m);
    }
    if s.len() == 2 {
        let ends = |m: &&DraughtsMove| m.is_capture() && m.from() == s[0] && m.to() == s[1];
        let candidates: Vec<&DraughtsMove> = legal.iter().filter(ends).collect();
        match candidates[..] {
            [m] => return Ok(*m),
            [] => {}
            _ => {
                return Err(IllegalDraughtsMove::Ambiguous {
                    written: wire.clone(),
                    candidates: candidates.into_iter().map(pdn_of).collect(),
                });
            }
        }
    }
    Err(explain(variant, pos, wire, legal))
}

/// A jump in progress: where the piece stands, what it has taken.
struct Walk {
    piece: Piece,
    from: Square,
    at: Square,
    captured: u32,
    crowned: bool,
}

/// Why `wire` is not legal (it matched no legal move).
fn explain(
    variant: Variant,
    pos: &Position,
    wire: &PdnMove,
    legal: &[DraughtsMove],
) -> IllegalDraughtsMove {
    let s = wire.squares();
    let us = pos.turn();
    let Some(piece) = pos.piece_at(s[0]) else {
        return IllegalDraughtsMove::NoPiece { square: s[0] };
    };
    if piece.color != us {
        return IllegalDraughtsMove::NotYourPiece {
            square: s[0],
            piece,
        };
    }
    let mut walk = Walk {
        piece,
        from: s[0],
        at: s[0],
        captured: 0,
        crowned: false,
    };
    for (i, &to) in s[1..].iter().enumerate() {
        if i > 0 {
            if variant == Variant::Zx81 {
                return IllegalDraughtsMove::SingleJumpsOnly;
            }
            if walk.crowned {
                return IllegalDraughtsMove::CrowningEndsMove { at: walk.at };
            }
        }
        if let Err(why) = leg(variant, pos, wire, &mut walk, to, legal) {
            return why;
        }
    }
    if variant == Variant::English
        && !walk.crowned
        && let Some(next) = further_jump(pos, &walk)
    {
        return IllegalDraughtsMove::UnfinishedJump { next };
    }
    IllegalDraughtsMove::NotLegal
}

/// Checks one leg of `wire`, from `walk.at` to `to`, and moves `walk` on if
/// it is a good jump. A good simple step ends the walk with its verdict.
fn leg(
    variant: Variant,
    pos: &Position,
    wire: &PdnMove,
    walk: &mut Walk,
    to: Square,
    legal: &[DraughtsMove],
) -> Result<(), IllegalDraughtsMove> {
    let two_squares = wire.squares().len() == 2;
    let king = walk.piece.king;
    let Some((dir, distance)) = walk.at.diagonal_to(to) else {
        if wire.is_capture() && two_squares {
            return Err(IllegalDraughtsMove::NoSuchCapture { from: walk.at, to });
        }
        return Err(IllegalDraughtsMove::NotDiagonal { from: walk.at, to });
    };
    if distance > 2 {
        if wire.is_capture() && two_squares {
            return Err(IllegalDraughtsMove::NoSuchCapture { from: walk.at, to });
        }
        return Err(IllegalDraughtsMove::TooFar { king, distance });
    }
    if distance == 1 && !two_squares {
        return Err(IllegalDraughtsMove::StepInCapture { from: walk.at, to });
    }
    check_direction(variant, walk.piece, dir)?;
    if pos.occupied() & to.bit() != 0 && to != walk.from {
        return Err(IllegalDraughtsMove::Occupied { square: to });
    }
    if distance == 1 {
        return Err(match legal.first().filter(|m| m.is_capture()) {
            Some(c) if variant == Variant::English => IllegalDraughtsMove::MissedCapture {
                available: pdn_of(c),
            },
            _ => IllegalDraughtsMove::NotLegal,
        });
    }
    let over = walk.at.step(dir).unwrap_or(to);
    match pos.piece_at(over) {
        Some(p) if p.color != pos.turn() => {
            if walk.captured & over.bit() != 0 {
                return Err(IllegalDraughtsMove::CapturedTwice { square: over });
            }
        }
        None if !wire.is_capture() => return Err(IllegalDraughtsMove::TooFar { king, distance }),
        holds => return Err(IllegalDraughtsMove::NothingToCapture { over, holds }),
    }
    walk.captured |= over.bit();
    walk.at = to;
    walk.crowned = !king && to.row() == crowning_row(pos.turn());
    Ok(())
}

fn check_direction(variant: Variant, piece: Piece, dir: Dir) -> Result<(), IllegalDraughtsMove> {
    let forward = dir.is_forward(piece.color);
    match (piece.king, variant) {
        (false, _) if !forward => Err(IllegalDraughtsMove::BackwardMan),
        (true, Variant::Zx81) if forward => Err(IllegalDraughtsMove::ForwardKing),
        _ => Ok(()),
    }
}

/// A jump the English piece of `walk` could still make.
fn further_jump(pos: &Position, walk: &Walk) -> Option<PdnMove> {
    let them = pos.pieces(!walk.piece.color) & !walk.captured;
    let empty = !pos.occupied() | walk.from.bit();
    Dir::ALL
        .into_iter()
        .filter(|d| walk.piece.king || d.is_forward(walk.piece.color))
        .find_map(|d| {
            let over = walk.at.step(d)?;
            let land = walk.at.jump(d)?;
            (them & over.bit() != 0 && empty & land.bit() != 0)
                .then(|| PdnMove::jumps(vec![walk.at, land]))
        })
}
