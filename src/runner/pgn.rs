//! PGN output for the match runner: the Seven Tag Roster plus `TimeControl`,
//! `Termination`, the engines' seeds and the opening; SAN movetext with
//! comments on flagged moves and on how the game ended.

use std::fmt::Write;

use shakmaty::Position;
use shakmaty::san::SanPlus;

use super::record::GameRecord;
use crate::rules::chess::ChessRules;

impl GameRecord<ChessRules> {
    /// The game in PGN, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        let tag = |s: &mut String, k: &str, v: &str| {
            let _ = writeln!(
                s,
                "[{k} \"{}\"]",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            );
        };
        tag(&mut s, "Event", "retrochess match");
        tag(&mut s, "Site", "retrochess");
        // No date: the same seed and arguments give the same file, any day.
        tag(&mut s, "Date", "????.??.??");
        tag(&mut s, "Round", &self.round.to_string());
        tag(&mut s, "White", &self.white);
        tag(&mut s, "Black", &self.black);
        tag(&mut s, "Result", self.result_token());
        if let Some(fen) = &self.root_text {
            tag(&mut s, "SetUp", "1");
            tag(&mut s, "FEN", fen);
        }
        tag(&mut s, "Opening", &self.opening);
        tag(&mut s, "TimeControl", &self.time_control);
        tag(&mut s, "Termination", &self.termination.to_string());
        if let Some(budget) = self.retro_budget {
            tag(
                &mut s,
                "RetroBudget",
                &format!("{budget} T-states per move"),
            );
        }
        tag(&mut s, "WhiteSeed", &self.white_seed.to_string());
        tag(&mut s, "BlackSeed", &self.black_seed.to_string());
        tag(&mut s, "PlyCount", &self.moves.len().to_string());
        s.push('\n');
        let mut tokens = Vec::new();
        let mut pos = self.root.clone();
        let mut first = true;
        for (m, comment) in &self.moves {
            let number = pos.fullmoves().get();
            if pos.turn().is_white() {
                tokens.push(format!("{number}."));
            } else if first {
                tokens.push(format!("{number}..."));
            }
            first = false;
            tokens.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
            if let Some(c) = comment {
                tokens.push(comment_token(c));
            }
        }
        tokens.push(comment_token(&self.reason));
        tokens.push(self.result_token().to_string());
        push_movetext(&mut s, tokens);
        s
    }
}

/// Appends movetext tokens to `s` in lines of at most 79 characters (PGN's
/// export format asks for fewer than 80), then a blank line.
pub fn push_movetext(s: &mut String, tokens: impl IntoIterator<Item = String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
}

/// A PGN comment; braces inside become parentheses so the comment ends
/// where it should.
pub fn comment_token(text: &str) -> String {
    format!("{{{}}}", text.replace('{', "(").replace('}', ")"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, EndReason, GameResult, Termination};
    use shakmaty::Chess;
    use shakmaty::uci::UciMove;

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
