//! Chess under the rules seam: shakmaty's verdict on every move a retro
//! program makes, with the precise reason when it is illegal, and the end of
//! a game.
//!
//! The programs here are small and skip rules, so their moves are never
//! trusted: each one is judged against the real position. An illegal move is
//! always reported with why (`king moves into check from g5 bishop`); what
//! happens next is the front end's policy. Positions are shakmaty's `Chess`,
//! wire moves UCI's `e2e4`, repetition keys the Zobrist hash with en passant
//! counted only when legal.

use std::fmt;

use super::{
    Astray, Cell, EndReason, Ending, Game, GameResult, PositionError, ProgramBoard, Quirk, Rules,
};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role,
    Square, attacks,
};

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalChessMove {
    /// `0000` offered as a move.
    NullMove,
    NoPiece {
        from: Square,
    },
    NotYourPiece {
        from: Square,
        piece: Piece,
    },
    /// The piece cannot get there (wrong pattern, blocked, own piece there).
    NotAPieceMove {
        role: Role,
        from: Square,
        to: Square,
        detail: String,
    },
    /// A pawn reaching the last rank without saying what it becomes.
    PromotionMissing,
    /// A promotion that is not allowed (wrong piece, or not on the last rank).
    BadPromotion {
        detail: String,
    },
    /// The king steps onto an attacked square.
    IntoCheck {
        to: Square,
        by: Vec<(Square, Role)>,
    },
    /// The king was in check and still is after the move.
    LeavesKingInCheck {
        by: Vec<(Square, Role)>,
    },
    /// A pinned piece moves and uncovers its king.
    ExposesKing {
        by: Vec<(Square, Role)>,
    },
    /// Castling that the rules forbid (rights, check, path).
    BadCastling {
        detail: String,
    },
    /// The program's board after its move is not the position after any
    /// one legal move: what it did to its board ([`describe_change`]), the
    /// cause where its driver knows it, and why the move it chose is
    /// illegal by itself, if it is.
    Astray {
        quirk: Option<Quirk>,
        change: String,
        chosen: Option<Box<IllegalChessMove>>,
    },
}

impl fmt::Display for IllegalChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalChessMove::NullMove => write!(f, "null move"),
            IllegalChessMove::NoPiece { from } => write!(f, "no piece on {from}"),
            IllegalChessMove::NotYourPiece { from, piece } => {
                write!(
                    f,
                    "{from} holds a {} {}, not a piece of the side to move",
                    color_name(piece.color),
                    role_name(piece.role)
                )
            }
            IllegalChessMove::NotAPieceMove {
                role,
                from,
                to,
                detail,
            } => {
                write!(
                    f,
                    "not a legal {} move from {from} to {to}: {detail}",
                    role_name(*role)
                )
            }
            IllegalChessMove::PromotionMissing => {
                write!(f, "pawn reaches the last rank without promoting")
            }
            IllegalChessMove::BadPromotion { detail } => write!(f, "bad promotion: {detail}"),
            IllegalChessMove::IntoCheck { by, .. } => {
                write!(f, "king moves into check from {}", attackers(by))
            }
            IllegalChessMove::LeavesKingInCheck { by } => {
                write!(f, "leaves the king in check from {}", attackers(by))
            }
            IllegalChessMove::ExposesKing { by } => {
                write!(
                    f,
                    "exposes the king to check from {} (pinned piece)",
                    attackers(by)
                )
            }
            IllegalChessMove::BadCastling { detail } => write!(f, "castling not allowed: {detail}"),
            IllegalChessMove::Astray {
                quirk,
                change,
                chosen,
            } => {
                match chosen {
                    Some(why) => write!(f, "{why}; and its board: ")?,
                    None if quirk.is_none() => {
                        write!(f, "its board is not the position after any legal move: ")?;
                    }
                    None => {}
                }
                match quirk {
                    Some(q) => write!(f, "{}: {change}", q.words),
                    None => f.write_str(change),
                }
            }
        }
    }
}

fn attackers(by: &[(Square, Role)]) -> String {
    by.iter()
        .map(|(sq, role)| format!("{sq} {}", role_name(*role)))
        .collect::<Vec<_>>()
        .join(" and ")
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The verdict on one chess move.
pub type ChessVerdict = super::Verdict<ChessRules>;

/// What a square of `pos` holds, as a program's board would.
pub fn cell(pos: &Chess, sq: Square) -> Cell {
    pos.board()
        .piece_at(sq)
        .map_or(Cell::Empty, |p| Cell::Piece(p.char()))
}

/// `pos`'s board as a program's board ([`ProgramBoard`]).
pub fn program_board(pos: &Chess) -> ProgramBoard {
    ProgramBoard(Square::ALL.iter().map(|&sq| cell(pos, sq)).collect())
}

/// The squares a board change touches, with what each holds after it.
fn changes(before: &[Cell], after: &[Cell]) -> Vec<(usize, Cell)> {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|(_, (b, a))| b != a)
        .map(|(i, (_, a))| (i, *a))
        .collect()
}

/// Judges a program's board that is not a plain reading of its move: the
/// legal move (the chosen one first) that changes the game's board as the
/// program changed its own, else the chosen move refused with what the
/// program did ([`IllegalChessMove::Astray`]). Comparing changes, not boards, keeps
/// the verdict about this reply on a program whose board already differed
/// from the game's before it.
pub fn judge_astray(pos: &Chess, astray: &Astray<UciMove>) -> ChessVerdict {
    let (before, after) = (&astray.before.0, &astray.after.0);
    let theirs = changes(before, after);
    let same = |m: &Move| {
        let mut next = pos.clone();
        next.play_unchecked(*m);
        let ours = changes(&program_board(pos).0, &program_board(&next).0);
        ours == theirs
    };
    let chosen = astray.wire.to_move(pos).ok();
    let legal = pos.legal_moves();
    if let Some(m) = chosen.iter().chain(legal.iter()).find(|m| same(m)) {
        return ChessVerdict::Legal(*m);
    }
    ChessVerdict::Illegal(
        astray.wire,
        IllegalChessMove::Astray {
            quirk: astray.quirk.clone(),
            change: describe_change(&astray.before, &astray.after),
            chosen: chosen
                .is_none()
                .then(|| Box::new(explain(pos, &astray.wire))),
        },
    )
}

/// A cell in words: `the white rook` (`a white rook` with `article` "a"),
/// `0x72, a byte that is no piece`.
fn cell_words_with(c: Cell, article: &str) -> String {
    match c {
        Cell::Empty => "nothing".to_string(),
        Cell::Piece(ch) => match Piece::from_char(ch) {
            Some(p) => format!("{article} {} {}", color_name(p.color), role_name(p.role)),
            None => format!("{ch:?}"),
        },
        Cell::Stray(b) => format!("0x{b:02X}, a byte that is no piece"),
    }
}

fn cell_words(c: Cell) -> String {
    cell_words_with(c, "the")
}

/// What a program did to its board, from `before` to `after`, in words: a
/// piece that left one square empty and is on one other square now went
/// there; the rest appeared, vanished or gave way to something else.
/// Generic: it reads any two boards, whatever the program meant.
pub fn describe_change(before: &ProgramBoard, after: &ProgramBoard) -> String {
    let (b, a) = (&before.0, &after.0);
    let sq = |i: usize| Square::new(i as u32);
    let changed: Vec<usize> = (0..b.len().min(a.len()))
        .filter(|&i| b[i] != a[i])
        .collect();
    let mut told = vec![false; b.len()];
    let mut phrases = Vec::new();
    // Moves: the only square a piece left (now empty), the only one it reached.
    for &from in &changed {
        let Cell::Piece(p) = b[from] else { continue };
        let left: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| b[i] == Cell::Piece(p))
            .collect();
        let reached: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| a[i] == Cell::Piece(p))
            .collect();
        if a[from] != Cell::Empty || left.len() != 1 || reached.len() != 1 {
            continue;
        }
        let to = reached[0];
        let taking = match b[to] {
            Cell::Empty => String::new(),
            other => format!(", taking {}", cell_words(other)),
        };
        phrases.push(format!(
            "{} went from {} to {}{taking}",
            cell_words(b[from]),
            sq(from),
            sq(to)
        ));
        told[from] = true;
        told[to] = true;
    }
    // Then what left, what appeared, what gave way to something else.
    let rest: Vec<usize> = changed.iter().copied().filter(|&i| !told[i]).collect();
    for i in rest.iter().copied().filter(|&i| a[i] == Cell::Empty) {
        phrases.push(format!("{} left {}", cell_words(b[i]), sq(i)));
    }
    for i in rest.iter().copied().filter(|&i| b[i] == Cell::Empty) {
        phrases.push(format!(
            "{} appeared on {}",
            cell_words_with(a[i], "a"),
            sq(i)
        ));
    }
    for i in rest
        .iter()
        .copied()
        .filter(|&i| a[i] != Cell::Empty && b[i] != Cell::Empty)
    {
        phrases.push(format!(
            "{} on {} gave way to {}",
            cell_words(b[i]),
            sq(i),
            cell_words(a[i])
        ));
    }
    if phrases.is_empty() {
        return "its board did not change".to_string();
    }
    phrases.join("; ")
}

/// Judges `uci` in `pos`.
pub fn judge(pos: &Chess, uci: &UciMove) -> ChessVerdict {
    match uci.to_move(pos) {
        Ok(m) => ChessVerdict::Legal(m),
        Err(_) => ChessVerdict::Illegal(*uci, explain(pos, uci)),
    }
}

/// Why `uci` is not legal in `pos` (assumes it is not).
pub fn explain(pos: &Chess, uci: &UciMove) -> IllegalChessMove {
    let (from, to, promotion) = match *uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from, to, promotion),
        UciMove::Put { to, .. } => (to, to, None),
        UciMove::Null => return IllegalChessMove::NullMove,
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return IllegalChessMove::NoPiece { from };
    };
    if piece.color != us {
        return IllegalChessMove::NotYourPiece { from, piece };
    }
    let not_move = |detail: String| IllegalChessMove::NotAPieceMove {
        role: piece.role,
        from,
        to,
        detail,
    };
    // Castling, written as the king's two-square step or king takes own rook.
    let own_rook = board.piece_at(to)
        == Some(Piece {
            color: us,
            role: Role::Rook,
        });
    if piece.role == Role::King
        && (own_rook || (from.distance(to) == 2 && from.rank() == to.rank()))
    {
        return explain_castling(pos, from, to);
    }
    if let Some(target) = board.piece_at(to).filter(|t| t.color == us) {
        return not_move(format!(
            "{to} is occupied by its own {}",
            role_name(target.role)
        ));
    }
    // Pseudo-legal reach of the piece.
    let occupied = board.occupied();
    let reach = match piece.role {
        Role::Pawn => pawn_reach(pos, from),
        role => attacks::attacks(from, Piece { color: us, role }, occupied),
    };
    if !reach.contains(to) {
        return not_move(unreachable_detail(pos, piece, from, to));
    }
    if let Some(fault) = promotion_fault(piece.role, promotion, to, us) {
        return fault;
    }
    exposed_king(pos, piece, from, to, promotion)
}

/// Why `piece` on `from` cannot reach `to` (which it does not reach).
fn unreachable_detail(pos: &Chess, piece: Piece, from: Square, to: Square) -> String {
    let empty_reach = match piece.role {
        Role::Pawn => Bitboard::EMPTY,
        role => attacks::attacks(
            from,
            Piece {
                color: piece.color,
                role,
            },
            Bitboard::EMPTY,
        ),
    };
    if empty_reach.contains(to) {
        let between = attacks::between(from, to) & pos.board().occupied();
        match between.first() {
            Some(sq) => format!("the way is blocked on {sq}"),
            None => "the way is blocked".to_string(),
        }
    } else if piece.role == Role::Pawn {
        pawn_detail(pos, from, to)
    } else {
        format!("a {} does not move like that", role_name(piece.role))
    }
}

/// A promotion missing, to a role a pawn cannot become, or asked of a move
/// that does not promote.
fn promotion_fault(
    role: Role,
    promotion: Option<Role>,
    to: Square,
    us: Color,
) -> Option<IllegalChessMove> {
    let last_rank = to.rank() == us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First);
    match (role, promotion) {
        (Role::Pawn, None) if last_rank => Some(IllegalChessMove::PromotionMissing),
        (Role::Pawn, Some(r)) if last_rank && matches!(r, Role::Pawn | Role::King) => {
            Some(IllegalChessMove::BadPromotion {
                detail: format!("a pawn cannot become a {}", role_name(r)),
            })
        }
        (_, Some(_)) if role != Role::Pawn || !last_rank => Some(IllegalChessMove::BadPromotion {
            detail: "only a pawn reaching the last rank promotes".to_string(),
        }),
        _ => None,
    }
}

/// A pseudo-legal move that is illegal all the same: play it and see who
/// attacks our king.
fn exposed_king(
    pos: &Chess,
    piece: Piece,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> IllegalChessMove {
    let (board, us) = (pos.board(), pos.turn());
    let mut after = pos.clone();
    let capture = board.role_at(to);
    let m = if piece.role == Role::Pawn && Some(to) == pos.maybe_ep_square() && capture.is_none() {
        Move::EnPassant { from, to }
    } else {
        Move::Normal {
            role: piece.role,
            from,
            capture,
            to,
            promotion,
        }
    };
    after.play_unchecked(m);
    let king = after.board().king_of(us).unwrap_or(to);
    let checkers = attackers_of(after.board(), king, !us);
    if piece.role == Role::King {
        IllegalChessMove::IntoCheck { to, by: checkers }
    } else if pos.is_check() {
        IllegalChessMove::LeavesKingInCheck { by: checkers }
    } else {
        IllegalChessMove::ExposesKing { by: checkers }
    }
}

fn attackers_of(board: &shakmaty::Board, sq: Square, color: Color) -> Vec<(Square, Role)> {
    board
        .attacks_to(sq, color, board.occupied())
        .into_iter()
        .filter_map(|s| board.role_at(s).map(|r| (s, r)))
        .collect()
}

fn pawn_reach(pos: &Chess, from: Square) -> Bitboard {
    let us = pos.turn();
    let board = pos.board();
    let mut reach = attacks::pawn_attacks(us, from) & (board.by_color(!us) | ep_bitboard(pos));
    let ahead = |sq: Square| {
        sq.offset(us.fold_wb(8, -8))
            .filter(|s| !board.occupied().contains(*s))
    };
    if let Some(one) = ahead(from) {
        reach.add(one);
        let start = from.rank() == us.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
        if let Some(two) = ahead(one).filter(|_| start) {
            reach.add(two);
        }
    }
    reach
}

fn ep_bitboard(pos: &Chess) -> Bitboard {
    pos.maybe_ep_square()
        .map_or(Bitboard::EMPTY, Bitboard::from_square)
}

fn pawn_detail(pos: &Chess, from: Square, to: Square) -> String {
    let us = pos.turn();
    if attacks::pawn_attacks(us, from).contains(to) {
        "a pawn captures diagonally only when there is something to take".to_string()
    } else if from.file() == to.file() && pos.board().occupied().contains(to) {
        format!("{to} is occupied; a pawn cannot capture straight ahead")
    } else if from.file() == to.file() {
        "the pawn cannot advance that far".to_string()
    } else {
        "a pawn does not move like that".to_string()
    }
}

fn explain_castling(pos: &Chess, from: Square, to: Square) -> IllegalChessMove {
    let us = pos.turn();
    let side = if to.file() > from.file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    let bad = |detail: String| IllegalChessMove::BadCastling { detail };
    let side_name = match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    };
    let Some(rook) = pos.castles().rook(us, side) else {
        return bad(format!("no {side_name} castling right"));
    };
    if pos.is_check() {
        return bad("the king is in check".to_string());
    }
    let board = pos.board();
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let path = (attacks::between(from, rook)
        | Bitboard::from_square(king_to)
        | Bitboard::from_square(rook_to))
        & !Bitboard::from_square(from)
        & !Bitboard::from_square(rook);
    if let Some(sq) = (path & board.occupied()).first() {
        return bad(format!("{sq} is occupied"));
    }
    let king_path = attacks::between(from, king_to) | Bitboard::from_square(king_to);
    for sq in king_path {
        let by = attackers_of(board, sq, !us);
        if !by.is_empty() {
            return bad(format!(
                "the king passes through or lands on {sq}, attacked by {}",
                attackers(&by)
            ));
        }
    }
    bad("not allowed in this position".to_string())
}

/// Chess, as shakmaty plays it (standard castling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChessRules;

impl Rules for ChessRules {
    type Position = Chess;
    type Move = Move;
    type Wire = UciMove;
    type Illegal = IllegalChessMove;

    fn name(&self) -> &'static str {
        "chess"
    }

    fn initial(&self) -> Chess {
        Chess::default()
    }

    fn turn(&self, pos: &Chess) -> Color {
        pos.turn()
    }

    fn first_side(&self) -> Color {
        Color::White
    }

    fn legal_moves(&self, pos: &Chess) -> Vec<Move> {
        pos.legal_moves().into_iter().collect()
    }

    fn judge(&self, pos: &Chess, wire: &UciMove) -> ChessVerdict {
        judge(pos, wire)
    }

    fn judge_astray(&self, pos: &Chess, astray: &Astray<UciMove>) -> ChessVerdict {
        judge_astray(pos, astray)
    }

    fn wire(&self, _pos: &Chess, m: &Move) -> UciMove {
        UciMove::from_standard(*m)
    }

    fn play(&self, pos: &mut Chess, m: &Move) {
        pos.play_unchecked(*m);
    }

    fn repetition_key(&self, pos: &Chess) -> u64 {
        pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
    }

    /// Checkmate, stalemate, insufficient material, the fifty-move rule,
    /// threefold repetition, in that order.
    fn ending(&self, game: &Game<ChessRules>) -> Option<Ending> {
        let pos = game.position();
        let draw = |reason| {
            Some(Ending {
                result: GameResult::Draw,
                reason,
            })
        };
        if pos.is_checkmate() {
            return Some(Ending {
                result: GameResult::Win(!pos.turn()),
                reason: EndReason::Checkmate,
            });
        }
        if pos.is_stalemate() {
            return draw(EndReason::Stalemate);
        }
        if pos.is_insufficient_material() {
            return draw(EndReason::InsufficientMaterial);
        }
        if pos.halfmoves() >= 100 {
            return draw(EndReason::FiftyMoves);
        }
        if game.repetitions() >= 3 {
            return draw(EndReason::Repetition);
        }
        None
    }

    fn parse_position(&self, text: &str) -> Result<Chess, PositionError> {
        let parsed: Fen = text
            .trim()
            .parse()
            .map_err(|e: shakmaty::fen::ParseFenError| PositionError::Unreadable(e.to_string()))?;
        parsed
            .into_position(CastlingMode::Standard)
            .map_err(|e| PositionError::Impossible(e.to_string()))
    }

    fn position_text(&self, pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    fn illegal_kind(&self, why: &IllegalChessMove) -> &'static str {
        match why {
            IllegalChessMove::NullMove => "null move",
            IllegalChessMove::NoPiece { .. } => "no piece",
            IllegalChessMove::NotYourPiece { .. } => "not its piece",
            IllegalChessMove::NotAPieceMove { .. } => "impossible piece move",
            IllegalChessMove::PromotionMissing | IllegalChessMove::BadPromotion { .. } => {
                "bad promotion"
            }
            IllegalChessMove::IntoCheck { .. } => "into check",
            IllegalChessMove::LeavesKingInCheck { .. } => "leaves king in check",
            IllegalChessMove::ExposesKing { .. } => "exposes king",
            IllegalChessMove::BadCastling { .. } => "bad castling",
            // The chosen move's own fault first: it is illegal whatever its
            // board shows.
            IllegalChessMove::Astray {
                chosen: Some(why), ..
            } => self.illegal_kind(why),
            IllegalChessMove::Astray { quirk: Some(q), .. } => q.kind,
            IllegalChessMove::Astray { quirk: None, .. } => "board not a move",
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn why(fen: &str, uci: &str) -> String {
        match judge(&pos(fen), &uci.parse().unwrap()) {
            ChessVerdict::Legal(m) => panic!("{uci} is legal: {m}"),
            ChessVerdict::Illegal(_, reason) => reason.to_string(),
        }
    }

    #[test]
    fn reasons_are_precise() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let table: &[(&str, &str, &str)] = &[
            (start, "e3e4", "no piece on e3"),
            (
                start,
                "e7e5",
                "e7 holds a black pawn, not a piece of the side to move",
            ),
            (
                start,
                "e2e5",
                "not a legal pawn move from e2 to e5: the pawn cannot advance that far",
            ),
            (
                start,
                "f1c4",
                "not a legal bishop move from f1 to c4: the way is blocked on e2",
            ),
            (
                start,
                "g1g3",
                "not a legal knight move from g1 to g3: a knight does not move like that",
            ),
            (
                start,
                "d1d2",
                "not a legal queen move from d1 to d2: d2 is occupied by its own pawn",
            ),
            (start, "e1g1", "castling not allowed: f1 is occupied"),
            (start, "0000", "null move"),
            // Seed 001's 15...e7d8 kind of error: the king steps next to a bishop's diagonal.
            (
                "4k3/8/8/6B1/8/8/8/4K3 b - - 0 1",
                "e8d8",
                "king moves into check from g5 bishop",
            ),
            (
                "4k3/4r3/8/8/8/8/4r3/4K3 w - - 0 1",
                "e1e2",
                "king moves into check from e7 rook",
            ),
            (
                "4k3/4r3/8/8/8/8/3P4/4K3 w - - 0 1",
                "d2d3",
                "leaves the king in check from e7 rook",
            ),
            (
                "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
                "e2d3",
                "exposes the king to check from e7 rook (pinned piece)",
            ),
            (
                "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                "b7b8",
                "pawn reaches the last rank without promoting",
            ),
            (
                "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                "b7b8k",
                "bad promotion: a pawn cannot become a king",
            ),
            (
                "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1",
                "b2b3q",
                "bad promotion: only a pawn reaching the last rank promotes",
            ),
            (
                "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1",
                "e1g1",
                "castling not allowed: the king passes through or lands on f1, attacked by c4 bishop",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1",
                "e1g1",
                "castling not allowed: no kingside castling right",
            ),
            (
                "4k3/8/8/8/8/8/4q3/R3K2R w KQ - 0 1",
                "e1c1",
                "castling not allowed: the king is in check",
            ),
            (
                "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1",
                "e1e1",
                "not a legal king move from e1 to e1: e1 is occupied by its own king",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2r w - - 0 1",
                "e1f1",
                "king moves into check from h1 rook",
            ),
            (
                "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
                "e1e3",
                "not a legal king move from e1 to e3: a king does not move like that",
            ),
        ];
        for (fen, uci, expected) in table {
            let got = why(fen, uci);
            assert_eq!(&got, expected, "{fen} {uci}");
        }
    }

    #[test]
    fn legal_moves_pass() {
        let p = Chess::default();
        assert!(matches!(
            judge(&p, &"e2e4".parse().unwrap()),
            ChessVerdict::Legal(_)
        ));
        let castle = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(matches!(
            judge(&castle, &"e1g1".parse().unwrap()),
            ChessVerdict::Legal(_)
        ));
    }

    fn game(root: Chess) -> Game<ChessRules> {
        Game::new(ChessRules, root)
    }

    fn reason(g: &Game<ChessRules>) -> Option<EndReason> {
        g.ending().map(|e| e.reason)
    }

    #[test]
    fn game_endings() {
        let mut g = game(Chess::default());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            assert!(matches!(
                g.play_wire(&m.parse().unwrap()),
                ChessVerdict::Legal(_)
            ));
        }
        let end = g.ending().unwrap();
        assert_eq!(
            (end.result.pgn(), end.reason),
            ("0-1", EndReason::Checkmate)
        );

        let mut g = game(Chess::default());
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.play_wire(&m.parse().unwrap());
            }
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(reason(&g), Some(EndReason::Repetition));
        g.pop();
        assert_eq!(g.ending(), None);
        assert_eq!(g.moves().len(), 7);

        let stale = game(pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
        assert_eq!(reason(&stale), Some(EndReason::Stalemate));
        let bare = game(pos("7k/8/6K1/8/8/8/8/8 b - - 0 1"));
        assert_eq!(reason(&bare), Some(EndReason::InsufficientMaterial));
        let fifty = game(pos("7k/8/6K1/8/8/8/8/R7 b - - 100 80"));
        assert_eq!(reason(&fifty), Some(EndReason::FiftyMoves));
    }

    /// The issue-33 position after 17...Nb6: White's queen on d1, rook on a1.
    const QUIRK: &str = "r1b2k2/3nqpp1/1np5/1pbpp2n/p6r/2PP1P2/PP1NPN1P/R1BQKB1R w KQ - 5 18";

    fn astray(fen: &str, uci: &str, edit: &[(Square, Cell)], quirk: bool) -> Astray<UciMove> {
        let p = pos(fen);
        let wire: UciMove = uci.parse().unwrap();
        let mut after = p.clone();
        if let Ok(m) = wire.to_move(&p) {
            after.play_unchecked(m);
        }
        let mut after = program_board(&after);
        for &(sq, c) in edit {
            after.0[sq as usize] = c;
        }
        Astray {
            wire,
            before: program_board(&p),
            after,
            quirk: quirk.then(|| Quirk {
                kind: "long-castling test",
                words: "its long-castling test took Qd1-c2 for castling".into(),
            }),
        }
    }

    #[test]
    fn a_board_gone_astray_is_read_and_named() {
        // What ChesSkelet's board shows after Qd1-c2: the queen gone, a rook
        // on c2, a stray byte on a1.
        let rook = Cell::Piece('R');
        let a = astray(
            QUIRK,
            "d1c2",
            &[(Square::C2, rook), (Square::A1, Cell::Stray(0x72))],
            true,
        );
        let ChessVerdict::Illegal(wire, why) = judge_astray(&pos(QUIRK), &a) else {
            panic!("legal")
        };
        assert_eq!(wire.to_string(), "d1c2");
        assert_eq!(
            why.to_string(),
            "its long-castling test took Qd1-c2 for castling: the white queen left d1; a white \
             rook appeared on c2; the white rook on a1 gave way to 0x72, a byte that is no piece"
        );
        assert_eq!(ChessRules.illegal_kind(&why), "long-castling test");
        // No cause named: the generic words and kind.
        let b = Astray { quirk: None, ..a };
        let ChessVerdict::Illegal(_, why) = judge_astray(&pos(QUIRK), &b) else {
            panic!("legal")
        };
        assert!(
            why.to_string().starts_with(
                "its board is not the position after any legal move: the white queen left d1"
            ),
            "{why}"
        );
        assert_eq!(ChessRules.illegal_kind(&why), "board not a move");
    }

    #[test]
    fn a_board_that_is_a_legal_moves_position_is_that_move() {
        // The board the move makes: legal, whatever the driver thought.
        let plain = astray(QUIRK, "d1c2", &[], false);
        assert!(
            matches!(judge_astray(&pos(QUIRK), &plain), ChessVerdict::Legal(m) if m.to() == Square::C2)
        );
        // The program chose d1c2 but its board shows d1b3: that move is what
        // it did.
        let mut other = astray(QUIRK, "d1b3", &[], false);
        other.wire = "d1c2".parse().unwrap();
        assert!(
            matches!(judge_astray(&pos(QUIRK), &other), ChessVerdict::Legal(m) if m.to() == Square::B3)
        );
    }

    #[test]
    fn a_chosen_move_illegal_by_itself_keeps_its_own_reason_first() {
        // Castling through its own bishop, and a stray byte on a1.
        let fen = "4k3/8/8/8/8/8/8/RB2K3 w Q - 0 1";
        let p = pos(fen);
        let mut after = program_board(&p);
        after.0[Square::E1 as usize] = Cell::Empty;
        after.0[Square::C1 as usize] = Cell::Piece('K');
        after.0[Square::D1 as usize] = Cell::Piece('R');
        after.0[Square::A1 as usize] = Cell::Stray(0x03);
        let a = Astray {
            wire: "e1c1".parse().unwrap(),
            before: program_board(&p),
            after,
            quirk: None,
        };
        let ChessVerdict::Illegal(_, why) = judge_astray(&p, &a) else {
            panic!("legal")
        };
        assert_eq!(ChessRules.illegal_kind(&why), "bad castling");
        assert_eq!(
            why.to_string(),
            "castling not allowed: b1 is occupied; and its board: the white king went from e1 \
             to c1; a white rook appeared on d1; the white rook on a1 gave way to 0x03, a byte \
             that is no piece"
        );
    }

    #[test]
    fn board_changes_are_told_as_moves_arrivals_and_departures() {
        let p = pos("4k3/8/8/8/8/8/3n4/R3K3 w Q - 0 1");
        let mut q = p.clone();
        q.play_unchecked(Move::Normal {
            role: Role::King,
            from: Square::E1,
            capture: Some(Role::Knight),
            to: Square::D2,
            promotion: None,
        });
        assert_eq!(
            describe_change(&program_board(&p), &program_board(&q)),
            "the white king went from e1 to d2, taking the black knight"
        );
        assert_eq!(
            describe_change(&program_board(&p), &program_board(&p)),
            "its board did not change"
        );
    }

    #[test]
    fn positions_round_trip_and_refuse() {
        let r = ChessRules;
        let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 3 9";
        assert_eq!(r.position_text(&r.parse_position(fen).unwrap()), fen);
        assert!(matches!(
            r.parse_position("8/8 w"),
            Err(PositionError::Unreadable(_))
        ));
        assert!(matches!(
            r.parse_position("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(PositionError::Impossible(_))
        ));
    }
}
