//! A game as the arbiter follows it: the root, the legal moves played, the
//! positions seen (for repetitions). Every layer that needs "the position
//! after these moves" holds a [`Game`] rather than replaying moves itself.

use super::{Ending, Rules, Verdict};

/// A game under the rules `R`.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    rules: R,
    root: R::Position,
    position: R::Position,
    moves: Vec<R::Move>,
    keys: Vec<u64>,
}

impl<R: Rules> Game<R> {
    /// A game from `root`.
    pub fn new(rules: R, root: R::Position) -> Game<R> {
        let key = rules.repetition_key(&root);
        Game {
            position: root.clone(),
            root,
            rules,
            moves: Vec::new(),
            keys: vec![key],
        }
    }

    /// A game from the rules' initial position.
    pub fn initial(rules: R) -> Game<R> {
        let root = rules.initial();
        Game::new(rules, root)
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }

    pub fn root(&self) -> &R::Position {
        &self.root
    }

    /// The position now.
    pub fn position(&self) -> &R::Position {
        &self.position
    }

    /// The legal moves played from the root.
    pub fn moves(&self) -> &[R::Move] {
        &self.moves
    }

    /// Repetition keys of the root and of the position after each move.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Judges `wire` in the position now and plays it if legal.
    pub fn play_wire(&mut self, wire: &R::Wire) -> Verdict<R> {
        let verdict = self.rules.judge(&self.position, wire);
        if let Verdict::Legal(m) = &verdict {
            self.push(m.clone());
        }
        verdict
    }

    /// Plays a move known to be legal.
    pub fn push(&mut self, m: R::Move) {
        self.rules.play(&mut self.position, &m);
        self.moves.push(m);
        self.keys.push(self.rules.repetition_key(&self.position));
    }

    /// Takes back the last move, if any.
    pub fn pop(&mut self) -> Option<R::Move> {
        let m = self.moves.pop()?;
        self.keys.pop();
        let mut pos = self.root.clone();
        for m in &self.moves {
            self.rules.play(&mut pos, m);
        }
        self.position = pos;
        Some(m)
    }

    /// The same game cut back to its first `plies` moves.
    pub fn truncated(&self, plies: usize) -> Game<R> {
        let mut g = Game::new(self.rules.clone(), self.root.clone());
        for m in self.moves.iter().take(plies) {
            g.push(m.clone());
        }
        g
    }

    /// How often the current position has occurred.
    pub fn repetitions(&self) -> usize {
        let now = self.keys.last().copied();
        self.keys.iter().filter(|&&k| Some(k) == now).count()
    }

    /// The side to move now.
    pub fn turn(&self) -> super::Color {
        self.rules.turn(&self.position)
    }

    /// The end of the game by the rules, if reached.
    pub fn ending(&self) -> Option<Ending> {
        self.rules.ending(self)
    }

    /// The position's legal moves.
    pub fn legal_moves(&self) -> Vec<R::Move> {
        self.rules.legal_moves(&self.position)
    }

    /// The wire form of the move played at ply `i` (from the root).
    pub fn wire_at(&self, i: usize) -> Option<R::Wire> {
        let m = self.moves.get(i)?;
        let mut pos = self.root.clone();
        for m in &self.moves[..i] {
            self.rules.play(&mut pos, m);
        }
        Some(self.rules.wire(&pos, m))
    }
}
