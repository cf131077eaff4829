//! Draughts in the runner: PDN as the record format (GameType 21, the
//! writer in `rules::draughts::pdn`), the built-in openings, and external
//! engines (Hub).
//!
//! The built-in openings are the 49 two-move ballots of English checkers:
//! each of Black's 7 first moves with each of White's 7 replies (every
//! pair is legal: no capture is possible that early). Match play has long
//! used balloted openings because the programs are deterministic; the
//! ACF's three-move ballots need a table we would have to copy, the two-move
//! ballots follow from the rules alone.

use super::external::{self, Launch, LaunchError};
use super::match_game::MatchGame;
use super::openings::Opening;
use super::record::GameRecord;
use super::turn::Player;
use crate::rules::draughts::{Draughts, pdn};
use crate::rules::{Game, Rules};

impl MatchGame for Draughts {
    fn record_text(&self, record: &GameRecord<Self>) -> String {
        let tags: Vec<(String, String)> = [
            ("Event", "retrochess match".to_string()),
            ("Site", "retrochess".to_string()),
            // No date: the same seed and arguments give the same file.
            ("Date", "????.??.??".to_string()),
            ("Round", record.round.to_string()),
            ("Black", record.black.clone()),
            ("White", record.white.clone()),
            ("Opening", record.opening.clone()),
            ("TimeControl", record.time_control.clone()),
            ("Termination", record.termination.to_string()),
            ("BlackSeed", record.black_seed.to_string()),
            ("WhiteSeed", record.white_seed.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .chain(
            record
                .retro_budget
                .map(|b| ("RetroBudget".to_string(), format!("{b} T-states per move"))),
        )
        .collect();
        let mut game = Game::new(*self, record.root);
        let mut moves = Vec::with_capacity(record.moves.len());
        for (m, comment) in &record.moves {
            moves.push((self.wire(game.position(), m), comment.clone()));
            game.push(*m);
        }
        // The reason the game ended goes with the last move (or stands alone
        // in the Termination tag when there is none).
        if let Some((_, comment)) = moves.last_mut()
            && !record.reason.is_empty()
        {
            let c = comment.get_or_insert_with(String::new);
            if !c.is_empty() {
                c.push_str("; ");
            }
            c.push_str(&record.reason);
        }
        let mut text = pdn::write_game(
            self.variant(),
            &tags,
            Some(&record.root),
            &moves,
            record.result,
        );
        if !text.ends_with("\n\n") {
            text.push('\n');
        }
        text
    }

    fn start_external(&self, launch: &Launch) -> Result<Box<dyn Player<Self>>, LaunchError> {
        external::start_draughts(launch, *self)
    }
}

/// The 49 two-move ballots of English checkers, in the order of the rules'
/// move lists.
pub fn two_move_ballots(rules: &Draughts) -> Vec<Opening<Draughts>> {
    let root = rules.initial();
    let mut out = Vec::new();
    for first in rules.legal_moves(&root) {
        let mut after = root;
        rules.play(&mut after, &first);
        for reply in rules.legal_moves(&after) {
            let name = format!(
                "{} {}",
                rules.wire(&root, &first),
                rules.wire(&after, &reply)
            );
            out.push(Opening {
                name,
                root,
                moves: vec![first, reply],
            });
        }
    }
    out
}
