//! PDN game records: writing the runner's games, reading them back.
//!
//! The format is PDN 3.0 (pdn.fmjd.org, after PGN): tag pairs
//! `[Name "value"]`, a blank line, movetext with move numbers, comments in
//! braces, and the result. Facts this module rests on:
//! - English checkers is `[GameType "21"]`; Black moves first, so each move
//!   number is followed by Black's move, then White's (`1. 11-15 23-19`);
//!   from a position with White to move the first is `1... 22-17`.
//! - A root other than the initial position is given by `[SetUp "1"]` and
//!   `[FEN "B:W18,24,K30:B9,14"]`.
//! - Results: PDN 3.0 gives result codes "from the perspective of the 1st
//!   side to move", which in English checkers is Black: `1-0` is a win for
//!   Black, `0-1` for White, `1/2-1/2` a draw, `*` unknown. We write that.
//!   Careful with other tools: pydraughts 0.6.7 writes whatever result it
//!   is handed, and its tournament runner hands it `2-0` when White wins
//!   (White's score first, international style) in every variant,
//!   English included.
//! - pydraughts 0.6.7's `PDNReader` pairs the moves after each number only
//!   when there is no FEN tag or the FEN starts with `W`; for a FEN with
//!   Black to move it repeats the first move and drops the second (its own
//!   `PDNWriter` output for English does not read back either). To replay
//!   our records with pydraughts, take the moves from the movetext and push
//!   them on `Board(variant='english', fen=FEN)` one by one.
//! - Draughts 1K's house rules have no GameType of their own: their games
//!   are written as GameType 21 (the board, the numbering and who starts
//!   are English checkers') with `[Variant "zx81-1k"]` saying the rules
//!   differ. Our reader honours that tag.
//!
//! - A move after a comment carries no continuation number (`{+5} 23-19`,
//!   not `{+5} 1... 23-19`, which pydraughts 0.6.7's `PDNReader` cannot
//!   read; see `movetext`). Every PDN we write (`match`, its journals and
//!   shards, the web page's download) goes through [`write_game`].
//!
//! Moves are written with every landing square (`15x24x31`), which
//! pydraughts and other readers accept; the reader also takes the short
//! form (`15x31`).

use std::fmt;

use super::{
    Draughts, FenError, IllegalDraughtsMove, PdnMove, Position, UnknownVariant, Variant, WireError,
};
use crate::rules::{Color, Game, GameResult, Verdict};

/// Tags the writer owns: any the caller passes are left out.
const OWN_TAGS: [&str; 6] = ["Result", "GameType", "SetUp", "FEN", "PlyCount", "Variant"];

/// The widest movetext line, as PGN export format asks.
const LINE: usize = 79;

/// The PDN result token of `result` (`None` = unfinished): the first side
/// to move's score first, so `1-0` is a win for Black.
pub fn result_token(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::Win(Color::Black)) => "1-0",
        Some(GameResult::Win(Color::White)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The result a PDN token stands for: `Some(None)` for `*` and `0-0`
/// (no winner recorded), `None` if it is not a result token. The
/// international scores `2-0`, `0-2`, `1-1` are read the same way round.
pub fn parse_result(token: &str) -> Option<Option<GameResult>> {
    Some(match token {
        "1-0" | "2-0" => Some(GameResult::Win(Color::Black)),
        "0-1" | "0-2" => Some(GameResult::Win(Color::White)),
        "1/2-1/2" | "1-1" => Some(GameResult::Draw),
        "*" | "0-0" => None,
        _ => return None,
    })
}

/// One game as PDN text.
///
/// `tags` are written in the order given (Event, Site, Date, Round, Black,
/// White, Termination, ...), except those the writer owns: Result,
/// GameType, SetUp and FEN (only when `root` is given and is not the
/// initial position), PlyCount, and Variant (for Draughts 1K's rules).
/// Each move may carry a comment, written after it in braces (braces in
/// the comment become parentheses).
pub fn write_game(
    variant: Variant,
    tags: &[(String, String)],
    root: Option<&Position>,
    moves: &[(PdnMove, Option<String>)],
    result: Option<GameResult>,
) -> String {
    let root = root.filter(|p| **p != Position::initial());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    for (name, value) in tags {
        if !OWN_TAGS.contains(&name.as_str()) {
            tag(name, value);
        }
    }
    tag("Result", result_token(result));
    tag("GameType", "21");
    if variant != Variant::English {
        tag("Variant", variant.name());
    }
    if let Some(pos) = root {
        tag("SetUp", "1");
        tag("FEN", &super::fen(pos));
    }
    tag("PlyCount", &moves.len().to_string());
    out.push('\n');
    let first = root.map_or(Color::Black, Position::turn);
    let mut tokens = movetext(first, moves);
    tokens.push(result_token(result).to_string());
    out.push_str(&wrap(&tokens));
    out.push_str("\n\n");
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Move numbers, moves and comment words, in order.
///
/// A move after a comment carries no continuation number (`12...`): PGN's
/// import format reads the moves without it, and pydraughts 0.6.7's
/// `PDNReader` cannot read a number written twice (its de-duplication
/// replaces `2.` inside `12.` too, then fails with "substring not found").
/// The one `N...` left is the first move's, for a game from a position with
/// White to move.
fn movetext(first: Color, moves: &[(PdnMove, Option<String>)]) -> Vec<String> {
    let offset = usize::from(first == Color::White);
    let mut tokens = Vec::new();
    for (i, (m, comment)) in moves.iter().enumerate() {
        let number = (i + offset) / 2 + 1;
        if (i + offset) % 2 == 0 {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.to_string());
        if let Some(text) = comment {
            tokens.extend(comment_words(text));
        }
    }
    tokens
}

fn comment_words(text: &str) -> Vec<String> {
    let clean = text.replace('{', "(").replace('}', ")");
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        words.push(String::new());
    }
    words[0].insert(0, '{');
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for t in tokens {
        if width > 0 && width + 1 + t.len() > LINE {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(t);
        width += t.len();
    }
    out
}

/// Tag pairs in order.
pub type Tags = Vec<(String, String)>;

/// A game read from PDN.
#[derive(Clone, Debug, PartialEq)]
pub struct PdnGame {
    /// Every tag, in order.
    pub tags: Tags,
    /// The FEN tag's position, if there is one.
    pub root: Option<Position>,
    /// The moves of the main line, each with the comment after it.
    pub moves: Vec<(PdnMove, Option<String>)>,
    /// The result token's result (`None` for `*`).
    pub result: Option<GameResult>,
}

/// What is wrong with a PDN text.
#[derive(Clone, Debug, PartialEq)]
pub enum PdnError {
    BadTag(String),
    UnclosedComment,
    UnclosedVariation,
    BadMove {
        token: String,
        why: WireError,
    },
    MissingResult,
    Fen(FenError),
    Variant(UnknownVariant),
    Illegal {
        ply: usize,
        wire: PdnMove,
        why: IllegalDraughtsMove,
    },
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::BadTag(line) => write!(f, "not a tag pair: {line}"),
            PdnError::UnclosedComment => write!(f, "a comment is not closed with '}}'"),
            PdnError::UnclosedVariation => write!(f, "a variation is not closed with ')'"),
            PdnError::BadMove { token, why } => write!(f, "bad move '{token}': {why}"),
            PdnError::MissingResult => write!(f, "the movetext ends without a result"),
            PdnError::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PdnError::Variant(e) => write!(f, "bad Variant tag: {e}"),
            PdnError::Illegal { ply, wire, why } => {
                write!(f, "ply {ply}: {wire} is illegal: {why}")
            }
        }
    }
}

impl std::error::Error for PdnError {}

impl PdnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The rules the game was played under: the Variant tag, else English.
    ///
    /// # Errors
    /// A Variant tag naming no rule set of ours.
    pub fn rules(&self) -> Result<Draughts, PdnError> {
        match self.tag("Variant") {
            None => Ok(Draughts::english()),
            Some(v) => v.parse().map(Draughts::new).map_err(PdnError::Variant),
        }
    }

    /// The game replayed under its rules, every move judged.
    ///
    /// # Errors
    /// An unknown Variant tag, or the first illegal move with its reason.
    pub fn replay(&self) -> Result<Game<Draughts>, PdnError> {
        let rules = self.rules()?;
        let root = self.root.unwrap_or_else(Position::initial);
        let mut game = Game::new(rules, root);
        for (i, (wire, _)) in self.moves.iter().enumerate() {
            if let Verdict::Illegal(wire, why) = game.play_wire(wire) {
                return Err(PdnError::Illegal {
                    ply: i + 1,
                    wire,
                    why,
                });
            }
        }
        Ok(game)
    }
}

/// Every game in `text`.
///
/// # Errors
/// The first malformed tag, comment, variation, move or FEN, or a game
/// without a result token.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (game, after) = read_game(rest)?;
        games.push(game);
        rest = after.trim_start();
    }
    Ok(games)
}

/// One game from the start of `text`, and the text after it.
fn read_game(text: &str) -> Result<(PdnGame, &str), PdnError> {
    let (tags, mut rest) = read_tags(text)?;
    let root = tags
        .iter()
        .find(|(n, _)| n == "FEN")
        .map(|(_, v)| super::parse_fen(v).map_err(PdnError::Fen))
        .transpose()?;
    let mut moves: Vec<(PdnMove, Option<String>)> = Vec::new();
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Err(PdnError::MissingResult);
        };
        match c {
            '{' => {
                let end = rest.find('}').ok_or(PdnError::UnclosedComment)?;
                let comment = rest[1..end]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                if let Some(last) = moves.last_mut() {
                    last.1 = Some(comment);
                }
                rest = &rest[end + 1..];
            }
            ';' => rest = rest.split_once('\n').map_or("", |(_, r)| r),
            '(' => rest = skip_variation(rest)?,
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || "{(;".contains(c));
                let (token, after) = rest.split_at(end.unwrap_or(rest.len()));
                rest = after;
                if let Some(result) = parse_result(token) {
                    let game = PdnGame {
                        tags,
                        root,
                        moves,
                        result,
                    };
                    return Ok((game, rest));
                }
                if let Some(m) = move_of(token)? {
                    moves.push((m, None));
                }
            }
        }
    }
}

/// The move in a movetext token, `None` for a move number or a NAG.
fn move_of(token: &str) -> Result<Option<PdnMove>, PdnError> {
    if token.starts_with('$') {
        return Ok(None);
    }
    let after_number = match token.find('.') {
        Some(i) if token[..i].bytes().all(|b| b.is_ascii_digit()) => {
            token[i..].trim_start_matches('.')
        }
        _ => token,
    };
    let bare = after_number.trim_end_matches(['!', '?']);
    if bare.is_empty() {
        return Ok(None);
    }
    bare.parse().map(Some).map_err(|why| PdnError::BadMove {
        token: token.to_string(),
        why,
    })
}

fn skip_variation(text: &str) -> Result<&str, PdnError> {
    let mut depth = 0;
    let mut in_comment = false;
    for (i, c) in text.char_indices() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            '(' if !in_comment => depth += 1,
            ')' if !in_comment => {
                depth -= 1;
                if depth == 0 {
                    return Ok(&text[i + 1..]);
                }
            }
            _ => {}
        }
    }
    Err(PdnError::UnclosedVariation)
}

/// The tag pairs at the start of `text`, and the text after them.
fn read_tags(text: &str) -> Result<(Tags, &str), PdnError> {
    let mut tags = Vec::new();
    let mut rest = text;
    while rest.starts_with('[') {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        tags.push(tag_pair(line.trim_end())?);
        rest = after.trim_start();
    }
    Ok((tags, rest))
}

fn tag_pair(line: &str) -> Result<(String, String), PdnError> {
    let bad = || PdnError::BadTag(line.to_string());
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, quoted) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let quoted = quoted.trim();
    let value = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn mv(s: &str) -> PdnMove {
        s.parse().unwrap()
    }

    #[test]
    fn writes_a_game_from_the_start() {
        let moves = vec![
            (mv("11-15"), None),
            (mv("23-19"), Some("a {brace} here".to_string())),
            (mv("8-11"), None),
        ];
        let text = write_game(
            Variant::English,
            &tags(&[("Event", "t"), ("Black", "a \"b\""), ("Result", "ignored")]),
            Some(&Position::initial()),
            &moves,
            Some(GameResult::Win(Color::Black)),
        );
        let expected = "[Event \"t\"]\n[Black \"a \\\"b\\\"\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\
                        [PlyCount \"3\"]\n\n1. 11-15 23-19 {a (brace) here} 2. 8-11 1-0\n\n";
        assert_eq!(text, expected);
        let back = read_games(&text).unwrap();
        assert_eq!(back.len(), 1);
        let comment = Some("a (brace) here".to_string());
        let expected = vec![
            (mv("11-15"), None),
            (mv("23-19"), comment),
            (mv("8-11"), None),
        ];
        assert_eq!(back[0].moves, expected);
        assert_eq!(back[0].tag("Black"), Some("a \"b\""));
        assert_eq!(back[0].result, Some(GameResult::Win(Color::Black)));
        assert_eq!(back[0].replay().unwrap().moves().len(), 3);
    }

    #[test]
    fn writes_a_game_from_a_position_with_white_to_move() {
        let root = super::super::parse_fen("W:W18,K30:B2,14").unwrap();
        let moves = [(mv("18x9"), None)];
        let text = write_game(Variant::Zx81, &[], Some(&root), &moves, None);
        let setup = "[Variant \"zx81-1k\"]\n[SetUp \"1\"]\n[FEN \"W:W18,K30:B2,14\"]\n";
        assert!(text.contains(setup), "{text}");
        assert!(text.ends_with("\n1... 18x9 *\n\n"), "{text}");
        let back = &read_games(&text).unwrap()[0];
        assert_eq!(back.root, Some(root));
        assert_eq!(back.rules().unwrap(), Draughts::zx81_1k());
        assert_eq!(back.result, None);
        let end = back.replay().unwrap();
        assert_eq!(super::super::fen(end.position()), "B:W9,K30:B2");
    }

    #[test]
    fn long_games_wrap_and_read_back() {
        let rules = Draughts::english();
        let mut game = Game::initial(rules);
        let mut moves = Vec::new();
        while game.ending().is_none() && moves.len() < 60 {
            let m = game.legal_moves()[moves.len() % game.legal_moves().len()];
            moves.push((rules.wire(game.position(), &m), None));
            game.push(m);
        }
        let text = write_game(Variant::English, &[], None, &moves, Some(GameResult::Draw));
        assert!(text.lines().all(|l| l.len() <= LINE));
        let back = &read_games(&format!("{text}{text}")).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[1].replay().unwrap().position(), game.position());
    }

    #[test]
    fn reads_what_other_tools_write() {
        let text = "[Event \"x\"]\n[GameType \"21,B,8,8,N1,0\"]\n\n1.11-15 23-19 {c} 2. 8-11! (2. 9-13 22-18) \
                    22-17 $1 3... 11x18 ; rest of line\n 2-0";
        let games = read_games(text);
        // 3... 11x18 is not legal here; the error says which ply and why.
        assert_eq!(
            games.unwrap()[0].replay().unwrap_err().to_string(),
            "ply 5: 11x18 is illegal: a jump must capture an opposing piece: 15 holds a black man"
        );
        let errors = [
            ("[Event x]\n1. 11-15 *", "not a tag pair: [Event x]"),
            ("1. 11-15 {open *", "a comment is not closed with '}'"),
            ("1. 11-15 (2. 9-13 *", "a variation is not closed with ')'"),
            ("1. 11-35 *", "bad move '11-35': square 35 is off the board"),
            ("1. 11-15", "the movetext ends without a result"),
            (
                "[FEN \"B:W33:B1\"]\n*",
                "bad FEN tag: square 33 is off the board",
            ),
        ];
        for (text, why) in errors {
            assert_eq!(read_games(text).unwrap_err().to_string(), why, "{text}");
        }
        let unknown = &read_games("[Variant \"x\"]\n*").unwrap()[0];
        assert_eq!(
            unknown.rules().unwrap_err().to_string(),
            "bad Variant tag: unknown draughts rules 'x': english or zx81-1k"
        );
    }
}
