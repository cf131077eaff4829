//! PGN output for the match runner: the Seven Tag Roster plus `TimeControl`,
//! `Termination`, the engines' seeds and the opening; SAN movetext with
//! comments on flagged moves and on how the game ended, written by the one
//! PGN writer ([`crate::rules::pgn`]).

use super::record::GameRecord;
use crate::rules::chess::ChessRules;
use crate::rules::pgn;

impl GameRecord<ChessRules> {
    /// The game in PGN, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        let mut tags: Vec<(&str, String)> = vec![
            ("Event", "retrochess match".into()),
            ("Site", "retrochess".into()),
            // No date: the same seed and arguments give the same file, any day.
            ("Date", "????.??.??".into()),
            ("Round", self.round.to_string()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", pgn::result_token(self.result).into()),
        ];
        if let Some(fen) = &self.root_text {
            tags.push(("SetUp", "1".into()));
            tags.push(("FEN", fen.clone()));
        }
        tags.push(("Opening", self.opening.clone()));
        tags.push(("TimeControl", self.time_control.clone()));
        tags.push(("Termination", self.termination.to_string()));
        if let Some(budget) = self.retro_budget {
            tags.push(("RetroBudget", format!("{budget} T-states per move")));
        }
        tags.push(("WhiteSeed", self.white_seed.to_string()));
        tags.push(("BlackSeed", self.black_seed.to_string()));
        tags.push(("PlyCount", self.moves.len().to_string()));
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
        pgn::write_game(
            &tags,
            &self.root,
            self.moves.iter().map(|(m, c)| (m, c.as_deref())),
            &self.reason,
            self.result,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, EndReason, GameResult, Termination};
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position};

    #[test]
    fn pgn_has_the_roster_and_round_trips() {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for u in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            moves.push((m, None));
        }
        moves[1].1 = Some("a {comment}".into());
        let rec = GameRecord {
            number: 1,
            round: 1,
            white: "A \"quoted\"".into(),
            black: "B".into(),
            white_seed: 1,
            black_seed: 2,
            opening: "Fool's".into(),
            root: Chess::default(),
            root_text: None,
            moves,
            result: Some(GameResult::Win(Color::Black)),
            end: Some(EndReason::Checkmate),
            termination: Termination::Normal,
            reason: "Black mates".into(),
            illegal: vec![],
            time_control: "-".into(),
            retro_budget: None,
        };
        let pgn = rec.to_pgn();
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "TimeControl",
            "Termination",
            "WhiteSeed",
            "BlackSeed",
        ] {
            assert!(pgn.contains(&format!("[{tag} ")), "{tag}");
        }
        assert!(pgn.contains("[White \"A \\\"quoted\\\"\"]"));
        assert!(
            pgn.contains("1. f3 e5 {a (comment)} 2. g4 Qh4# {Black mates} 0-1"),
            "{pgn}"
        );
        let games = crate::runner::openings::read_pgn(&pgn).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].result.as_deref(), Some("0-1"));
    }
}
