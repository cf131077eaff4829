//! Evidence that needs a busy machine: the protocols' clock rule with six
//! CPU-bound jobs beside the binary. A test binary of its own, so that the
//! load it starts meets no other test (Cargo runs test binaries one after
//! another).

#[path = "../common/mod.rs"]
mod common;

mod clock;
