//! Games read for rating from PGN (chess) and PDN (draughts) files, as
//! retrochess, cutechess-cli, fastchess and pydraughts write them: the tags
//! and the moves of each game, each game checked on its own, so a bad one
//! is skipped with its file and line and the rest are read.
//!
//! - Names are normalised (spaces trimmed and runs of them made one; case
//!   ignored): "1K ZX Chess", " 1k  zx chess" are one player, shown as first
//!   written.
//! - A game is a duplicate of another if its tags (every one, in any order)
//!   and its moves (comments, variations and move numbers aside) are the
//!   same; it counts once, whichever file it is in.
//! - A game of another game or variant than the first game read (a chess
//!   `Variant` other than standard, a PDN `GameType` other than 21 or a
//!   `Variant` of other rules) is skipped, as is an unfinished one (`*`).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{RatedGame, Score};
use crate::rules::GameResult;
use crate::rules::draughts::pdn::parse_result;

/// The game a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// PGN.
    Chess,
    /// PDN.
    Draughts,
}

impl Kind {
    /// By the file's extension: `.pdn` is draughts, anything else chess.
    pub fn of_path(path: &std::path::Path) -> Kind {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("pdn") => Kind::Draughts,
            _ => Kind::Chess,
        }
    }
}

/// A game as scanned: its tags, its moves and where it starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scanned {
    /// The line of its first tag (or move), from 1.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The result marker ending its movetext, if any.
    pub marker: Option<String>,
    /// The first fault met in it: its line and what.
    pub fault: Option<(usize, String)>,
}

impl Scanned {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

const MARKERS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"];

/// Splits a PGN or PDN text into its games. Never fails: a game with a
/// fault carries it.
pub fn scan(text: &str) -> Vec<Scanned> {
    let mut s = Scanner {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        games: Vec::new(),
        cur: Scanned::default(),
        started: false,
    };
    let mut at_line_start = true;
    while s.i < s.chars.len() {
        let c = s.chars[s.i];
        if c == '\n' {
            s.line += 1;
            s.i += 1;
            at_line_start = true;
            continue;
        }
        if c.is_whitespace() || c == '\u{feff}' {
            s.i += 1;
            continue;
        }
        let line_start = at_line_start;
        at_line_start = false;
        match c {
            // An escape line.
            '%' if line_start => s.skip_line(),
            '[' => s.tag(),
            '{' => s.comment(),
            ';' => s.skip_line(),
            '(' => s.variation(),
            _ => s.token(),
        }
    }
    s.finish();
    s.games
}

/// The state of [`scan`]: the text, where it is, and the game being read.
struct Scanner {
    chars: Vec<char>,
    i: usize,
    line: usize,
    games: Vec<Scanned>,
    cur: Scanned,
    started: bool,
}

impl Scanner {
    fn finish(&mut self) {
        if self.started {
            self.games.push(std::mem::take(&mut self.cur));
        }
        self.started = false;
    }

    fn start_game(&mut self) {
        if !self.started {
            self.started = true;
            self.cur.line = self.line;
        }
    }

    /// Up to (not past) the end of the line.
    fn skip_line(&mut self) {
        while self.i < self.chars.len() && self.chars[self.i] != '\n' {
            self.i += 1;
        }
    }

    /// A tag pair; one after moves or a result starts the next game.
    fn tag(&mut self) {
        if !self.cur.moves.is_empty() || self.cur.marker.is_some() {
            self.finish();
        }
        self.start_game();
        let chars = &self.chars;
        let end = (self.i..chars.len())
            .find(|&k| chars[k] == '\n')
            .unwrap_or(chars.len());
        let text: String = chars[self.i..end].iter().collect();
        match parse_tag(&text) {
            Ok(tag) => self.cur.tags.push(tag),
            Err(e) => {
                self.cur.fault.get_or_insert((self.line, e));
            }
        }
        self.i = end;
    }

    /// A `{ }` comment, which may span lines.
    fn comment(&mut self) {
        let from = self.line;
        self.i += 1;
        while self.i < self.chars.len() && self.chars[self.i] != '}' {
            if self.chars[self.i] == '\n' {
                self.line += 1;
            }
            self.i += 1;
        }
        if self.i == self.chars.len() {
            self.start_game();
            self.cur
                .fault
                .get_or_insert((from, "a comment { with no }".to_string()));
        }
        self.i += 1;
    }

    /// A `( )` variation, nested or holding comments; skipped whole.
    fn variation(&mut self) {
        let (from, mut depth) = (self.line, 0);
        while self.i < self.chars.len() {
            match self.chars[self.i] {
                '(' => depth += 1,
                ')' => depth -= 1,
                '\n' => self.line += 1,
                '{' => {
                    while self.i < self.chars.len() && self.chars[self.i] != '}' {
                        if self.chars[self.i] == '\n' {
                            self.line += 1;
                        }
                        self.i += 1;
                    }
                }
                _ => {}
            }
            self.i += 1;
            if depth == 0 {
                break;
            }
        }
        if depth != 0 {
            self.start_game();
            self.cur
                .fault
                .get_or_insert((from, "a variation ( with no )".to_string()));
        }
    }

    /// A result marker, a NAG, a move number or a move.
    fn token(&mut self) {
        let chars = &self.chars;
        let end = (self.i..chars.len())
            .find(|&k| chars[k].is_whitespace() || "{}()[];".contains(chars[k]))
            .unwrap_or(chars.len())
            // A stray delimiter no other construct took (`)`, `}`, `]`) is
            // a token of its own, so the scan always moves on.
            .max(self.i + 1);
        let token: String = chars[self.i..end].iter().collect();
        self.i = end;
        self.start_game();
        let line = self.line;
        let cur = &mut self.cur;
        if MARKERS.contains(&token.as_str()) {
            cur.marker = Some(token);
            return;
        }
        if token.starts_with('$') || [")", "}", "]"].contains(&token.as_str()) {
            let nag = token.len() > 1 && token[1..].chars().all(|c| c.is_ascii_digit());
            if token.starts_with('$') && nag {
                return;
            }
            cur.fault
                .get_or_insert((line, format!("unexpected {token:?}")));
            return;
        }
        // Move numbers: `12.`, `12...`, and `1.e4` as one token.
        let digits = token.chars().take_while(char::is_ascii_digit).count();
        let dots = token[digits..].chars().take_while(|&c| c == '.').count();
        let mv = if digits > 0 && dots > 0 {
            &token[digits + dots..]
        } else {
            token.as_str()
        };
        if !mv.is_empty() {
            if cur.marker.is_some() {
                cur.fault
                    .get_or_insert((line, format!("move {mv:?} after the result")));
            }
            cur.moves.push(mv.to_string());
        }
    }
}

/// `[Name "value"]`, with `\"` and `\\` in the value.
// String error: a leaf parser whose message is the whole reason a game is skipped.
fn parse_tag(text: &str) -> Result<(String, String), String> {
    let bad = || format!("not a tag: {}", text.trim());
    let inner = text.trim().strip_prefix('[').ok_or_else(bad)?;
    let name_len = inner
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    let rest = inner[name_len..].trim_start();
    if name.is_empty() {
        return Err(bad());
    }
    let mut chars = rest.strip_prefix('"').ok_or_else(bad)?.chars();
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('\\') => match chars.next() {
                Some(c) => value.push(c),
                None => return Err(bad()),
            },
            Some('"') => break,
            Some(c) => value.push(c),
            None => return Err(bad()),
        }
    }
    if chars.as_str().trim() != "]" {
        return Err(bad());
    }
    Ok((name.to_string(), value))
}

/// A game skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub file: String,
    pub line: usize,
    pub why: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.file, self.why),
            line => write!(f, "{}:{line}: {}", self.file, self.why),
        }
    }
}

/// The games of many files, gathered for rating.
#[derive(Debug, Default)]
pub struct Collection {
    /// Player names, as first written.
    pub names: Vec<String>,
    /// Normalised name → index.
    index: HashMap<String, usize>,
    pub games: Vec<RatedGame>,
    /// Games left out, with where and why.
    pub skipped: Vec<Skipped>,
    /// Duplicates counted once.
    pub duplicates: usize,
    seen: HashSet<String>,
    /// The game and rules of the first game taken.
    rules: Option<(Kind, String)>,
}

/// `name` with its spaces trimmed and runs of them made one.
pub fn tidy(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Collection {
    /// The index of the player called `name` (normalised), if any.
    pub fn player(&self, name: &str) -> Option<usize> {
        self.index.get(&tidy(name).to_lowercase()).copied()
    }

    fn player_or_new(&mut self, name: &str) -> usize {
        let key = tidy(name).to_lowercase();
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.names.push(tidy(name));
        self.index.insert(key, self.names.len() - 1);
        self.names.len() - 1
    }

    /// Reads the games of one file's text.
    pub fn add_text(&mut self, file: &str, kind: Kind, text: &str) {
        let scanned = scan(text);
        if scanned.is_empty() {
            self.skipped.push(Skipped {
                file: file.to_string(),
                line: 1,
                why: "no games in it".to_string(),
            });
        }
        for game in scanned {
            if let Err((line, why)) = self.add(kind, &game) {
                self.skipped.push(Skipped {
                    file: file.to_string(),
                    line,
                    why,
                });
            }
        }
    }

    /// A file that could not be read at all (shown without a line).
    pub fn unreadable(&mut self, file: &str, why: &str) {
        self.skipped.push(Skipped {
            file: file.to_string(),
            line: 0,
            why: why.to_string(),
        });
    }

    fn add(&mut self, kind: Kind, game: &Scanned) -> Result<(), (usize, String)> {
        let at = game.line;
        if let Some(fault) = &game.fault {
            return Err(fault.clone());
        }
        let rules = rules_of(kind, game).map_err(|e| (at, e))?;
        match &self.rules {
            Some(first) if *first != rules => {
                return Err((
                    at,
                    format!(
                        "another variant: {} {}, the games rated are {} {}",
                        kind_name(rules.0),
                        rules.1,
                        kind_name(first.0),
                        first.1
                    ),
                ));
            }
            _ => {}
        }
        let name = |tag: &str| match game.tag(tag).map(tidy) {
            Some(n) if !n.is_empty() && n != "?" => Ok(n),
            _ => Err((at, format!("no {tag} tag"))),
        };
        let (white, black) = (name("White")?, name("Black")?);
        if white.to_lowercase() == black.to_lowercase() {
            return Err((at, format!("{white} plays itself")));
        }
        let result = score(kind, game)?;
        let key = dedup_key(game, &white, &black);
        if !self.seen.insert(key) {
            self.duplicates += 1;
            return Ok(());
        }
        self.rules.get_or_insert(rules);
        let (white, black) = (self.player_or_new(&white), self.player_or_new(&black));
        self.games.push(RatedGame {
            white,
            black,
            result,
        });
        Ok(())
    }
}

/// A record's result, from its `Result` tag or the marker ending its moves
/// (which must agree); an unfinished game (`*`) is refused.
fn score(kind: Kind, game: &Scanned) -> Result<Score, (usize, String)> {
    let at = game.line;
    let token = match (game.tag("Result"), &game.marker) {
        (Some(tag), Some(marker)) if tag != marker => {
            return Err((
                at,
                format!("Result tag {tag:?} but the moves end {marker:?}"),
            ));
        }
        (Some(tag), _) => tag.to_string(),
        (None, Some(marker)) => marker.clone(),
        (None, None) => return Err((at, "no result".to_string())),
    };
    let result = match kind {
        Kind::Chess => match token.as_str() {
            "1-0" => Some(Some(Score::WhiteWins)),
            "0-1" => Some(Some(Score::BlackWins)),
            "1/2-1/2" => Some(Some(Score::Draw)),
            "*" => Some(None),
            _ => None,
        },
        Kind::Draughts => parse_result(&token).map(|r| {
            r.map(|r| match r {
                GameResult::Win(c) if c.is_white() => Score::WhiteWins,
                GameResult::Win(_) => Score::BlackWins,
                GameResult::Draw => Score::Draw,
            })
        }),
    };
    match result {
        Some(Some(r)) => Ok(r),
        Some(None) => Err((at, "unfinished (*)".to_string())),
        None => Err((at, format!("unknown result {token:?}"))),
    }
}

/// What makes two records the same game: their tags and moves, the
/// players' names compared without case.
fn dedup_key(game: &Scanned, white: &str, black: &str) -> String {
    let mut key: BTreeMap<&str, &str> = BTreeMap::new();
    for (k, v) in &game.tags {
        key.insert(k, v);
    }
    // The same game under names written differently is the same game.
    let (w, b) = (white.to_lowercase(), black.to_lowercase());
    key.insert("White", &w);
    key.insert("Black", &b);
    format!("{key:?}{:?}", game.moves)
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Chess => "chess",
        Kind::Draughts => "draughts",
    }
}

/// The game and rules of a record: chess's `Variant` (standard when absent);
/// PDN's `GameType` (21 when absent) and `Variant`.
// String error: a leaf reading of two tags whose message is the whole reason a game is skipped.
fn rules_of(kind: Kind, game: &Scanned) -> Result<(Kind, String), String> {
    let variant = game.tag("Variant").map(|v| v.trim().to_lowercase());
    match kind {
        Kind::Chess => {
            if let Some(t) = game.tag("GameType") {
                return Err(format!("a draughts game (GameType {t:?}) in a chess file"));
            }
            match variant.as_deref() {
                None | Some("" | "standard" | "chess" | "normal" | "from position") => {
                    Ok((kind, "(standard)".to_string()))
                }
                Some(_) => Err(format!(
                    "another variant: Variant {:?}, not standard chess",
                    game.tag("Variant").unwrap_or_default()
                )),
            }
        }
        Kind::Draughts => {
            let game_type = game
                .tag("GameType")
                .map(|t| t.split(',').next().unwrap_or("").trim().to_string())
                .unwrap_or_else(|| "21".to_string());
            if game_type != "21" {
                return Err(format!(
                    "another variant: GameType {game_type}, not 21 (English draughts)"
                ));
            }
            Ok((
                kind,
                format!(
                    "(GameType 21{})",
                    variant.map_or(String::new(), |v| format!(", Variant {v}"))
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanning_tags_moves_comments_and_faults() {
        let text = "[Event \"a \\\"b\\\"\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n\n\
            1. e4 {a comment\nover two lines} e5 (1... c5 {x} 2. Nf3) 2.Nf3 $1 ; rest\n1-0\n\n\
            [White \"Z\"]\n[Black broken]\n\n1. d4 *\n";
        let games = scan(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        assert_eq!(games[0].moves, vec!["e4", "e5", "Nf3"]);
        assert_eq!(games[0].marker.as_deref(), Some("1-0"));
        assert_eq!(games[0].fault, None);
        assert_eq!(games[1].line, 10);
        assert_eq!(
            games[1].fault,
            Some((11, "not a tag: [Black broken]".to_string()))
        );
    }

    #[test]
    fn names_duplicates_variants_and_results() {
        let game = |w: &str, b: &str, r: &str, extra: &str| {
            format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n{extra}\n1. e4 e5 {r}\n\n")
        };
        let mut c = Collection::default();
        let a = game("1K ZX Chess", "Random mover", "1-0", "") + &game("A", "B", "*", "");
        c.add_text("a.pgn", Kind::Chess, &a);
        let b = game(" 1k  zx chess", "random mover", "1-0", "")
            + &game("random mover", "1K ZX Chess", "1/2-1/2", "")
            + &game("A", "B", "1-0", "[Variant \"Chess960\"]")
            + &game("A", "A", "1-0", "");
        c.add_text("b.pgn", Kind::Chess, &b);
        assert_eq!(c.names, vec!["1K ZX Chess", "Random mover"]);
        assert_eq!(c.games.len(), 2, "{:?}", c.games);
        assert_eq!(c.duplicates, 1);
        let why: Vec<String> = c.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            why,
            vec![
                "a.pgn:7: unfinished (*)",
                "b.pgn:13: another variant: Variant \"Chess960\", not standard chess",
                "b.pgn:19: A plays itself",
            ]
        );
        assert_eq!(c.player("1K ZX CHESS"), Some(0));
        let mut d = Collection::default();
        d.add_text("d.pdn", Kind::Draughts, "[White \"p\"]\n[Black \"q\"]\n[GameType \"20\"]\n1. 32-28 2-0\n\n[White \"p\"]\n[Black \"q\"]\n[Result \"2-0\"]\n[GameType \"21\"]\n1. 11-15 2-0\n");
        assert_eq!(d.games.len(), 1);
        assert_eq!(d.skipped[0].line, 1);
        assert!(d.skipped[0].why.contains("GameType 20"));
        let mut e = Collection::default();
        e.add_text("e.pgn", Kind::Chess, "");
        assert_eq!(e.skipped[0].to_string(), "e.pgn:1: no games in it");
    }
}
