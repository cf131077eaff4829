//! Evidence for the person-facing subcommands of the binary (`src/cli/`):
//! play, explain, screen, bench, engines, tape files, and their errors, over
//! pipes.

#[path = "../common/mod.rs"]
mod common;

mod astray;
mod cli;
mod docs_links;
mod explain;
