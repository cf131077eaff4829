//! PGN, chess's record format: the one writer of a game, used by `match`
//! (its file, journal and shards) and by the page's download. Export
//! format: tags in the order given, SAN movetext from the game's root with
//! comments in braces, the result token, lines of at most 79 characters
//! and a blank line after the game.

use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use super::GameResult;

/// The widest movetext line: PGN's export format asks for fewer than 80.
const LINE: usize = 79;

/// The PGN result token of `result` (`None`: unfinished): `1-0`, `0-1`,
/// `1/2-1/2` or `*`, White's score first.
pub fn result_token(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::pgn)
}

/// One game as PGN text, ending with a blank line.
///
/// `tags` are written in the order given (the caller's `Result` tag with
/// [`result_token`]); then the moves from `root` in SAN, each with its
/// comment if it has one, `why` the game ended (or that it goes on) as a
/// comment, and the result token.
pub fn write_game<'a>(
    tags: &[(&str, &str)],
    root: &Chess,
    moves: impl IntoIterator<Item = (&'a Move, Option<&'a str>)>,
    why: &str,
    result: Option<GameResult>,
) -> String {
    let mut s = String::new();
    for (k, v) in tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    }
    s.push('\n');
    let mut tokens = movetext(root, moves);
    tokens.push(comment_token(why));
    tokens.push(result_token(result).to_string());
    push_movetext(&mut s, tokens);
    s
}

/// The moves from `root` as PGN tokens: move numbers (`N...` before a
/// first move by Black), SAN, and each move's comment after it.
pub fn movetext<'a>(
    root: &Chess,
    moves: impl IntoIterator<Item = (&'a Move, Option<&'a str>)>,
) -> Vec<String> {
    let mut pos = root.clone();
    let mut tokens = Vec::new();
    for (i, (m, comment)) in moves.into_iter().enumerate() {
        let number = pos.fullmoves().get();
        if pos.turn().is_white() {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
        if let Some(c) = comment {
            tokens.push(comment_token(c));
        }
    }
    tokens
}

/// Appends movetext tokens to `s` in lines of at most [`LINE`]
/// characters, then a blank line.
fn push_movetext(s: &mut String, tokens: impl IntoIterator<Item = String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE {
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
fn comment_token(text: &str) -> String {
    format!("{{{}}}", text.replace('{', "(").replace('}', ")"))
}
