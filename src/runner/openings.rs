//! Openings for matches: a small built-in balanced set, or a file of EPD
//! positions or PGN games (their moves are the opening).

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::rules::Rules;
use crate::rules::chess::ChessRules;

/// Where a game starts: a root position and moves played from it.
#[derive(Clone, Debug)]
pub struct Opening<R: Rules = ChessRules> {
    pub name: String,
    pub root: R::Position,
    pub moves: Vec<R::Move>,
}

impl<R: Rules> Opening<R> {
    /// The root in the rules' text form, if it is not the initial position.
    pub fn root_text(&self, rules: &R) -> Option<String> {
        (self.root != rules.initial()).then(|| rules.position_text(&self.root))
    }

    /// The game this opening sets up.
    pub fn game(&self, rules: &R) -> crate::rules::Game<R> {
        let mut game = crate::rules::Game::new(rules.clone(), self.root.clone());
        for m in &self.moves {
            game.push(m.clone());
        }
        game
    }
}

impl Opening<ChessRules> {
    /// The root as FEN, if it is not the initial position.
    pub fn root_fen(&self) -> Option<String> {
        self.root_text(&ChessRules)
    }
}

/// Ten common, roughly balanced openings, a few plies each.
const BUILT_IN: [(&str, &str); 10] = [
    ("Open Game", "e2e4 e7e5 g1f3 b8c6"),
    ("Sicilian Defence", "e2e4 c7c5 g1f3 d7d6"),
    ("French Defence", "e2e4 e7e6 d2d4 d7d5"),
    ("Caro-Kann Defence", "e2e4 c7c6 d2d4 d7d5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6"),
    ("Slav Defence", "d2d4 d7d5 c2c4 c7c6"),
    ("Indian Defence", "d2d4 g8f6 c2c4 e7e6"),
    ("English Opening", "c2c4 e7e5 b1c3 g8f6"),
    ("Reti Opening", "g1f3 d7d5 g2g3 g8f6"),
    ("Scandinavian Defence", "e2e4 d7d5 e4d5 d8d5"),
];

/// The built-in set.
pub fn built_in() -> Vec<Opening> {
    BUILT_IN
        .iter()
        .map(|(name, line)| {
            let mut pos = Chess::default();
            let moves = line
                .split_whitespace()
                .map(|u| {
                    let m = u.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok());
                    let m = m.expect("built-in openings are legal");
                    pos.play_unchecked(m);
                    m
                })
                .collect();
            Opening {
                name: (*name).to_string(),
                root: Chess::default(),
                moves,
            }
        })
        .collect()
}

/// Why an openings file (or a FEN in it) cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// Nothing but blank lines and comments.
    Empty,
    /// An EPD line with fewer than the 4 FEN fields.
    EpdFields { line: usize, found: usize },
    /// An EPD line whose position cannot be read.
    EpdLine {
        line: usize,
        error: Box<OpeningError>,
    },
    /// A PGN tag without a value.
    BadTag { line: usize, tag: String },
    /// A PGN game that cannot be read (`game` counts from 1, `line` is where
    /// it starts).
    Game {
        game: usize,
        line: usize,
        error: Box<OpeningError>,
    },
    /// A token in movetext that is not SAN.
    Unreadable(String),
    /// A SAN move that is not legal where it stands.
    Illegal { san: String, after: usize },
    /// Text that is not FEN (shakmaty's reason).
    BadFen { fen: String, reason: String },
    /// FEN of a position that cannot arise (shakmaty's reason).
    Impossible { fen: String, reason: String },
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningError::Empty => f.write_str("no openings in the file"),
            OpeningError::EpdFields { line, found } => {
                write!(f, "line {line}: an EPD needs 4 fields, found {found}")
            }
            OpeningError::EpdLine { line, error } => write!(f, "line {line}: {error}"),
            OpeningError::BadTag { line, tag } => write!(f, "line {line}: bad tag {tag}"),
            OpeningError::Game { game, line, error } => {
                write!(f, "game {game} (line {line}): {error}")
            }
            OpeningError::Unreadable(tok) => write!(f, "cannot read move {tok:?}"),
            OpeningError::Illegal { san, after } => {
                write!(f, "illegal move {san} after {after} moves")
            }
            OpeningError::BadFen { fen, reason } => write!(f, "bad FEN {fen:?}: {reason}"),
            OpeningError::Impossible { fen, reason } => {
                write!(f, "impossible position {fen:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for OpeningError {}

/// Reads openings from EPD (one position per line) or PGN text; the format
/// is told from the content (`[` or a move number starts PGN). A leading
/// byte-order mark (as Windows editors write) is skipped.
///
/// # Errors
/// The first line or game that cannot be read, with its line number.
pub fn parse(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'));
    let openings = match first {
        None => return Err(OpeningError::Empty),
        Some(l) if l.starts_with('[') || l.starts_with("1.") => parse_pgn(text)?,
        Some(_) => parse_epd(text)?,
    };
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

fn parse_epd(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(OpeningError::EpdFields {
                line: i + 1,
                found: fields.len(),
            });
        }
        // EPD: the first four FEN fields; the move counters may follow as
        // numbers, or operations (`id "..."; ...`).
        let counters: Vec<&str> = fields[4..]
            .iter()
            .take(2)
            .take_while(|f| f.parse::<u32>().is_ok())
            .copied()
            .collect();
        let fen = format!(
            "{} {}",
            fields[..4].join(" "),
            if counters.len() == 2 {
                counters.join(" ")
            } else {
                "0 1".to_string()
            }
        );
        let root = position(&fen).map_err(|e| OpeningError::EpdLine {
            line: i + 1,
            error: Box::new(e),
        })?;
        let name = line
            .split("id ")
            .nth(1)
            .and_then(|s| s.split('"').nth(1))
            .map_or_else(|| format!("EPD line {}", i + 1), str::to_string);
        out.push(Opening {
            name,
            root,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// Reads PGN games: tags (FEN/SetUp honoured) and SAN movetext; comments,
/// variations, NAGs and move numbers are skipped.
pub fn parse_pgn(text: &str) -> Result<Vec<Opening>, OpeningError> {
    Ok(read_pgn(text)?
        .into_iter()
        .map(|g| {
            let name = g
                .tag("Opening")
                .or_else(|| g.tag("Event"))
                .unwrap_or("PGN game")
                .to_string();
            Opening {
                name,
                root: g.root,
                moves: g.moves,
            }
        })
        .collect())
}

/// One game read from PGN.
#[derive(Clone, Debug)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub root: Chess,
    pub moves: Vec<Move>,
    /// The result token that ended the movetext, if any.
    pub result: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads PGN games strictly: every SAN move must be legal.
///
/// # Errors
/// The game and line of the first problem.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, OpeningError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut start_line = 1;
    let mut flush = |tags: &mut Vec<(String, String)>,
                     movetext: &mut String,
                     line: usize|
     -> Result<(), OpeningError> {
        if tags.is_empty() && movetext.trim().is_empty() {
            return Ok(());
        }
        let game = read_game(std::mem::take(tags), &std::mem::take(movetext)).map_err(|e| {
            OpeningError::Game {
                game: games.len() + 1,
                line,
                error: Box::new(e),
            }
        })?;
        games.push(game);
        Ok(())
    };
    let mut in_movetext = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            if in_movetext {
                flush(&mut tags, &mut movetext, start_line)?;
                in_movetext = false;
            }
            if tags.is_empty() {
                start_line = i + 1;
            }
            let inner = &t[1..t.len() - 1];
            let (key, rest) = inner.split_once(' ').ok_or_else(|| OpeningError::BadTag {
                line: i + 1,
                tag: t.to_string(),
            })?;
            let value = rest.trim().trim_matches('"').replace("\\\"", "\"");
            tags.push((key.to_string(), value));
        } else if !t.is_empty() && !t.starts_with('%') {
            in_movetext = true;
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    flush(&mut tags, &mut movetext, start_line)?;
    Ok(games)
}

fn read_game(tags: Vec<(String, String)>, movetext: &str) -> Result<PgnGame, OpeningError> {
    let fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map(|(_, v)| v.clone());
    let root = match &fen {
        Some(f) => position(f)?,
        None => Chess::default(),
    };
    let mut pos = root.clone();
    let mut moves = Vec::new();
    let mut result = None;
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    let mut token = String::new();
    let mut tokens = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {
                if depth == 0 && !token.is_empty() {
                    tokens.push(std::mem::take(&mut token));
                }
                token.clear();
            }
            c => {
                if depth == 0 {
                    token.push(c);
                }
            }
        }
    }
    if !token.is_empty() {
        tokens.push(token);
    }
    for tok in tokens {
        if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(tok);
            break;
        }
        let tok = tok
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('.');
        if tok.is_empty() || tok.starts_with('$') {
            continue;
        }
        let san: San = tok
            .trim_end_matches(['!', '?'])
            .parse()
            .map_err(|_| OpeningError::Unreadable(tok.to_string()))?;
        let m = san.to_move(&pos).map_err(|_| OpeningError::Illegal {
            san: tok.to_string(),
            after: moves.len(),
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(PgnGame {
        tags,
        root,
        moves,
        result,
    })
}

/// A position from FEN text, with a reason when it is not one.
///
/// # Errors
/// Unreadable FEN, or an impossible position (the reason names it).
pub fn position(fen: &str) -> Result<Chess, OpeningError> {
    let parsed = fen
        .trim()
        .parse::<Fen>()
        .map_err(|e| OpeningError::BadFen {
            fen: fen.to_string(),
            reason: e.to_string(),
        })?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| OpeningError::Impossible {
            fen: fen.to_string(),
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_set_is_ten_legal_lines() {
        let b = built_in();
        assert_eq!(b.len(), 10);
        assert!(
            b.iter()
                .all(|o| o.moves.len() == 4 && o.root_fen().is_none())
        );
    }

    #[test]
    fn epd_and_pgn_files() {
        let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"kp\";\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1\n";
        let o = parse(epd).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name, "kp");
        assert_eq!(o[1].root_fen().unwrap(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(
            parse("rnbqkbnr/pppppppp w")
                .unwrap_err()
                .to_string()
                .starts_with("line 1: an EPD needs 4 fields")
        );
        assert!(
            parse("8/8/8/8/8/8/8/8 w - -")
                .unwrap_err()
                .to_string()
                .contains("impossible position")
        );
        let pgn = "[Event \"Test\"]\n[Opening \"Italian\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bc4 $1 *\n\n[Event \"Two\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O Kd7 1/2-1/2\n";
        let o = parse(pgn).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!((o[0].name.as_str(), o[0].moves.len()), ("Italian", 5));
        assert_eq!(o[1].moves.len(), 2);
        let g = read_pgn(pgn).unwrap();
        assert_eq!(g[1].result.as_deref(), Some("1/2-1/2"));
        assert!(
            parse("1. e4 e5 2. Ke3 *")
                .unwrap_err()
                .to_string()
                .contains("illegal move Ke3")
        );
        assert!(parse("").is_err());
        let o = parse(&format!("\u{FEFF}{pgn}")).unwrap();
        assert_eq!(
            o[0].name, "Italian",
            "a byte-order mark does not make PGN into EPD"
        );
        let o = parse(&format!("\u{FEFF}{epd}")).unwrap();
        assert_eq!(o[0].name, "kp");
    }
}
