//! Evidence for the ratings (`src/rating/`, `retrochess rate`): the figures
//! agree with independent implementations (choix, and a Davidson
//! likelihood maximised by scipy), bad input is named and the rest rated.

#[path = "../common/mod.rs"]
mod common;

mod peers_read;
mod prior_edges;
mod rate_cli;
