//! What a built-in engine is before it is loaded: who wrote it and on what
//! machine ([`EngineInfo`]), and which game it plays ([`GameKind`]).

/// Who wrote a program, and how we present it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// The name used on the command line and in GUIs (`1k-zx-chess`).
    pub id: &'static str,
    /// The program's own name.
    pub name: &'static str,
    pub author: &'static str,
    pub year: u16,
    /// The machine it runs on.
    pub machine: &'static str,
    /// A paragraph for `UCI_EngineAbout` and `--help`.
    pub about: &'static str,
}

/// [`EngineInfo::machine`] of an engine with no emulated machine.
pub const NATIVE: &str = "none (native)";

/// Which game an engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Draughts,
}

impl GameKind {
    /// The side a person plays when none is chosen: the second to move,
    /// so that the program moves first, as on its machine (White moves
    /// first in chess, Black in draughts).
    pub fn person_side(self) -> crate::rules::Color {
        match self {
            GameKind::Chess => crate::rules::Color::Black,
            GameKind::Draughts => crate::rules::Color::White,
        }
    }
}
