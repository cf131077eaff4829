//! The built-in engines, every driver's entries in one list, and the
//! lookups by name: [`catalogue`], [`find`], [`default_for`].

use std::sync::LazyLock;

use super::{EngineError, EngineInfo, Entry, GameKind};
use super::{baker, chesskelet, draughts_1k, onek, samuel_f8};

/// The one registry: every driver's entries, chess first. A new program is
/// its driver file and one line here.
pub static REGISTRY: [&[Entry]; 5] = [
    &onek::ENTRIES,
    &chesskelet::ENTRIES,
    &draughts_1k::ENTRIES,
    &samuel_f8::engine::ENTRIES,
    &baker::ENTRIES,
];

/// Every built-in engine, chess first: [`REGISTRY`] gathered once.
static CATALOGUE: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    REGISTRY
        .iter()
        .flat_map(|entries| entries.iter().copied())
        .collect()
});

/// Every built-in engine, chess first.
pub fn catalogue() -> &'static [Entry] {
    &CATALOGUE
}

/// The built-in engines' ids.
pub fn engine_ids() -> Vec<&'static str> {
    catalogue().iter().map(|e| e.info.id).collect()
}

/// The built-in engine called `id`, without loading it.
pub fn entry(id: &str) -> Option<&'static Entry> {
    catalogue().iter().find(|e| e.info.id == id)
}

/// The built-in engine called `id`: the one lookup by name, made where a
/// name comes in (the command line, a protocol's option, a player spec,
/// the page's form); below, the entry is passed.
///
/// # Errors
/// No engine of that name (the error lists the names).
pub fn find(id: &str) -> Result<&'static Entry, EngineError> {
    entry(id).ok_or_else(|| EngineError::Unknown {
        id: id.to_string(),
        known: engine_ids(),
    })
}

/// The engine run when none is named: 1K ZX Chess for chess, Samuel F8
/// for draughts.
pub fn default_for(game: GameKind) -> &'static Entry {
    match game {
        GameKind::Chess => &onek::ONE_K_ZX_CHESS,
        GameKind::Draughts => &samuel_f8::engine::SAMUEL_F8,
    }
}

/// The info of the engine called `id`, without loading it.
pub fn info(id: &str) -> Option<&'static EngineInfo> {
    entry(id).map(|e| e.info)
}
