//! LEGAL moves the notes' way: FIND builds one bit set per direction (RF,
//! LF, LB, RB), jumps before ordinary moves, and SELECT takes the lowest set
//! bit of a MOVE byte (notes p. 6, "To find all moves on going forward along
//! the tree"; p. 10, SELECT: "extracts one bit (the rightmost one) from the
//! MOVE byte").
//!
//! The scan order is that of the first FIND, the one that uses the FINT
//! table: the J/N indicator outermost (jumps first), then the byte counter
//! from 3 down to 0 ("LIS 3, LR 4,A Used to count starting byte"), then the
//! direction counter from 3 down to 0 through FINT (RF, LF, LB, RB). Within a
//! MOVE byte the lowest bit comes first, which is the highest-numbered
//! square of that byte. So a side's moves are tried from the squares 25-32
//! byte first. When jumps exist no ordinary move is listed: "jumps must be
//! taken" (p. 4).
//!
//! Ours, not the notes': the notes make one jump per step and never say how
//! a multi-jump continues; here a jump is followed to its end inside the
//! move (English rules: it must be completed; a man crowned on the way
//! stops), the continuations tried in FINT order. A capture reached by two
//! paths is two moves. UPDATE is the board after the move with the sides
//! reversed (p. 7, FORW).

use std::fmt;

use super::board::{Dir, FINT_ORDER, Lanes, SearchBoard, Set, bit, lanes, set_of, square_of_lane};

/// The most jumps one move can make (every opposing piece).
const MAX_CAPTURES: usize = 12;

/// A move: the squares it visits and the pieces it takes, in PDN numbering.
/// Displays as PDN writes it: `11-15`, `15x24`, `15x24x31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamuelMove {
    path: [u8; MAX_CAPTURES + 1],
    path_len: u8,
    captured: [u8; MAX_CAPTURES],
    captured_len: u8,
}

impl SamuelMove {
    fn start(from: u8) -> SamuelMove {
        let mut path = [0; MAX_CAPTURES + 1];
        path[0] = from;
        SamuelMove {
            path,
            path_len: 1,
            captured: [0; MAX_CAPTURES],
            captured_len: 0,
        }
    }

    fn step_to(mut self, to: u8) -> SamuelMove {
        self.path[usize::from(self.path_len)] = to;
        self.path_len += 1;
        self
    }

    fn jump_to(mut self, over: u8, to: u8) -> SamuelMove {
        self.captured[usize::from(self.captured_len)] = over;
        self.captured_len += 1;
        self.step_to(to)
    }

    /// The square the piece starts from.
    pub fn from(&self) -> u8 {
        self.path[0]
    }

    /// The square the piece ends on.
    pub fn to(&self) -> u8 {
        self.path[usize::from(self.path_len) - 1]
    }

    /// The start square, then every landing square.
    pub fn path(&self) -> &[u8] {
        &self.path[..usize::from(self.path_len)]
    }

    /// The squares of the pieces taken, in the order they are jumped.
    pub fn captures(&self) -> &[u8] {
        &self.captured[..usize::from(self.captured_len)]
    }

    pub fn is_capture(&self) -> bool {
        self.captured_len > 0
    }

    fn captured_set(&self) -> Set {
        self.captures().iter().fold(0, |s, &sq| s | bit(sq))
    }
}

impl fmt::Display for SamuelMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        for (i, sq) in self.path().iter().enumerate() {
            if i > 0 {
                write!(f, "{sep}")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// The pieces of ACTIVE that may use `dir`: all of them forward for Black
/// and backward for White, the kings only otherwise (the notes' LBJ/RBJ
/// "AND it to Active": KINGS AND ACTIVE).
fn movers(board: &SearchBoard, dir: Dir) -> Lanes {
    if board.men_use(dir) {
        lanes(board.active)
    } else {
        lanes(board.active & board.kings)
    }
}

/// FIND's four jump sets: pieces with a PASSIVE neighbour and an empty
/// square behind it.
fn jump_sets(board: &SearchBoard) -> [Lanes; 4] {
    let passive = lanes(board.passive);
    let empty = board.empty();
    FINT_ORDER.map(|d| movers(board, d) & d.neighbour(passive) & d.landing(empty))
}

/// FIND's four ordinary-move sets: pieces with an empty neighbour.
pub(super) fn step_sets(board: &SearchBoard) -> [Lanes; 4] {
    let empty = board.empty();
    FINT_ORDER.map(|d| movers(board, d) & d.neighbour(empty))
}

/// Visits the set bits byte by byte from byte 3 to byte 0, the directions
/// in FINT order within a byte, SELECT's lowest bit first within a MOVE byte.
fn scan(sets: &[Lanes; 4], mut visit: impl FnMut(Lanes, Dir)) {
    for lane in 1..=4 {
        let byte = 0xFFu64 << (8 * lane);
        for (set, dir) in sets.iter().zip(FINT_ORDER) {
            let mut moves = set & byte;
            while moves != 0 {
                let one = moves & moves.wrapping_neg();
                moves ^= one;
                visit(one, dir);
            }
        }
    }
}

/// The legal moves of ACTIVE in the notes' order, into `out` (cleared).
pub(super) fn find(board: &SearchBoard, out: &mut Vec<SamuelMove>) {
    out.clear();
    let jumps = jump_sets(board);
    if jumps.iter().any(|&s| s != 0) {
        scan(&jumps, |from, dir| start_jump(board, from, dir, out));
        return;
    }
    scan(&step_sets(board), |from, dir| {
        let to = dir.step(from);
        out.push(SamuelMove::start(square_of_lane(from)).step_to(square_of_lane(to)));
    });
}

/// The state of a jump in progress.
#[derive(Clone, Copy)]
struct Jumping {
    king: bool,
    /// PASSIVE minus the pieces already jumped.
    passive: Lanes,
    /// EMPTY with the start square vacated.
    empty: Lanes,
}

fn start_jump(board: &SearchBoard, from: Lanes, dir: Dir, out: &mut Vec<SamuelMove>) {
    let state = Jumping {
        king: lanes(board.kings) & from != 0,
        passive: lanes(board.passive),
        empty: board.empty() | from,
    };
    let mv = SamuelMove::start(square_of_lane(from));
    jump(board, state, from, dir, mv, out);
}

/// Makes one jump and follows it while the piece can jump on.
fn jump(
    board: &SearchBoard,
    mut state: Jumping,
    at: Lanes,
    dir: Dir,
    mv: SamuelMove,
    out: &mut Vec<SamuelMove>,
) {
    let over = dir.step(at);
    let land = dir.step(over);
    let mv = mv.jump_to(square_of_lane(over), square_of_lane(land));
    state.passive &= !over;
    state.empty = (state.empty | at) & !land;
    if !state.king && set_of(land) & board.crown_row() != 0 {
        out.push(mv); // crowning ends the move
        return;
    }
    let mut went_on = false;
    for next in FINT_ORDER {
        if !(state.king || board.men_use(next)) {
            continue;
        }
        if next.neighbour(state.passive) & next.landing(state.empty) & land != 0 {
            went_on = true;
            jump(board, state, land, next, mv, out);
        }
    }
    if !went_on {
        out.push(mv);
    }
}

/// UPDATE and FORW: the board after `mv`, ACTIVE and PASSIVE exchanged.
pub(super) fn play(board: &SearchBoard, mv: &SamuelMove) -> SearchBoard {
    let from = bit(mv.from());
    let to = bit(mv.to());
    let taken = mv.captured_set();
    let king = board.kings & from != 0;
    let mut kings = board.kings & !taken & !from;
    if king || to & board.crown_row() != 0 {
        kings |= to;
    }
    SearchBoard {
        active: board.passive & !taken,
        passive: (board.active & !from) | to,
        kings,
        black_active: !board.black_active,
    }
}

/// Leaf count of the move tree `depth` plies deep, with one reusable move
/// list per ply in `lists`.
pub(super) fn perft(board: &SearchBoard, depth: u32, lists: &mut [Vec<SamuelMove>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, deeper) = lists.split_first_mut().expect("one move list per ply");
    find(board, list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|mv| perft(&play(board, mv), depth - 1, deeper))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::board::squares;
    use super::*;

    fn board(active: &[u8], passive: &[u8], kings: &[u8], black_active: bool) -> SearchBoard {
        SearchBoard {
            active: squares(active),
            passive: squares(passive),
            kings: squares(kings),
            black_active,
        }
    }

    fn initial() -> SearchBoard {
        super::super::position::Position::initial().board()
    }

    fn listed(b: &SearchBoard) -> Vec<String> {
        let mut out = Vec::new();
        find(b, &mut out);
        out.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn black_opens_in_the_notes_order_byte_by_byte_lowest_bit_first() {
        let b = initial();
        // Byte 1 (squares 9-16): RF set {12,11,10,9}, lowest bit first, then
        // LF {11,10,9}.
        assert_eq!(
            listed(&b),
            ["12-16", "11-15", "10-14", "9-13", "11-16", "10-15", "9-14"]
        );
    }

    #[test]
    fn white_men_move_backward_in_the_notes_names() {
        // LB (the opposite of RF) before RB.
        let b = board(&[22], &[1], &[], false);
        assert_eq!(listed(&b), ["22-18", "22-17"]);
    }

    #[test]
    fn a_jump_is_mandatory_and_is_completed() {
        // 4 could step to 8, but 9 must jump 14, then 23.
        let b = board(&[9, 4], &[14, 23], &[], true);
        assert_eq!(listed(&b), ["9x18x27"]);
    }

    #[test]
    fn a_man_crowned_during_a_jump_stops() {
        // 22x31 over 26 crowns; a king would go on over 27 to 24.
        let b = board(&[22], &[26, 27], &[], true);
        assert_eq!(listed(&b), ["22x31"]);
        let k = board(&[22], &[26, 27], &[22], true);
        assert_eq!(listed(&k), ["22x31x24"]);
    }

    #[test]
    fn two_paths_round_the_same_four_pieces_are_two_moves() {
        let b = board(&[6], &[9, 10, 17, 18], &[6], true);
        let mut got = listed(&b);
        got.sort();
        assert_eq!(got, ["6x13x22x15x6", "6x15x22x13x6"]);
        let mut out = Vec::new();
        find(&b, &mut out);
        let after = play(&b, &out[0]);
        assert_eq!(after.passive, bit(6));
        assert_eq!(after.kings, bit(6));
        assert_eq!(after.active, 0);
    }

    #[test]
    fn perft_from_the_initial_position_to_depth_six() {
        let b = initial();
        let mut lists = vec![Vec::new(); 6];
        let got: Vec<u64> = (1..=6).map(|d| perft(&b, d, &mut lists)).collect();
        assert_eq!(got, [7, 49, 302, 1469, 7361, 36768]);
    }
}
