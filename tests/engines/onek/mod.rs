//! 1K ZX Chess (`src/engines/onek.rs`, `tapes/1k-zx-chess.p`).

mod engine;
mod tape;
mod thoughts;
