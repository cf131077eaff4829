//! ChesSkelet through the real binary: UCI and CECP sessions for its three
//! builds (`--engine chesskelet`, `chesskelet-lite`, and ours,
//! `chesskelet-published`), whole games
//! from the start position and from FENs with the engine on either side,
//! the dead end over both protocols, and python-chess's own clients
//! (`tests/peers/chesskelet_games.py`). Every move received is checked
//! with shakmaty: legal, or flagged by the front end before it arrives.

use crate::common::pipe;

use std::time::Duration;

use pipe::Engine;
use retrochess::rng::SplitMix64;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

const BUILDS: [&str; 3] = ["chesskelet", "chesskelet-lite", "chesskelet-published"];

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// How a game ended.
#[derive(Debug, PartialEq)]
enum End {
    /// Checkmate, stalemate, insufficient material, fifty moves, or the
    /// ply limit.
    Over,
    /// The engine's illegal move, flagged before it arrived.
    Flagged(String),
    /// The engine gave up (dead end or `IllegalMoves resign`), with a reason.
    Resigned(String),
    /// The front end ended the game (CECP result line).
    Result(String),
}

/// What the protocol gave for one engine turn.
enum Turn {
    Move(String, Vec<String>),
    Resigned(String),
    /// The front end declared the game over (CECP: `1/2-1/2 {Draw by
    /// repetition}` and the like).
    Result(String),
}

trait Protocol {
    /// Starts a game from `fen` (None: the start position).
    fn start(&mut self, fen: Option<&str>, engine_first: bool);
    /// The opponent's move; the engine replies if it is its turn.
    fn opponent(&mut self, history: &[String], fen: Option<&str>, m: &str) -> Option<Turn>;
    /// The engine's move when it starts the game.
    fn first(&mut self, fen: Option<&str>) -> Turn;
    fn engine(&mut self) -> &mut Engine;
}

struct Uci(Engine);

impl Uci {
    fn new(build: &str) -> Uci {
        let mut e = Engine::start(&["uci", "--engine", build]);
        e.send("uci");
        let lines = e.until_prefix("uciok");
        assert!(
            lines.iter().any(|l| l.starts_with("id name ChesSkelet")),
            "{}",
            e.transcript()
        );
        e.send("isready");
        e.until_prefix("readyok");
        Uci(e)
    }

    fn go(&mut self, fen: Option<&str>, history: &[String]) -> Turn {
        let head = match fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        if history.is_empty() {
            self.0.send(&head);
        } else {
            self.0.send(&format!("{head} moves {}", history.join(" ")));
        }
        self.0
            .send("go wtime 60000 btime 60000 winc 1000 binc 1000");
        let lines = self.0.until_prefix("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{}",
            self.0.transcript()
        );
        if best == "0000" {
            let why = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info string") && !l.contains("T-states"))
                .cloned()
                .unwrap_or_else(|| panic!("0000 without a reason\n{}", self.0.transcript()));
            return Turn::Resigned(why);
        }
        Turn::Move(best, lines)
    }
}

impl Protocol for Uci {
    fn start(&mut self, _fen: Option<&str>, _engine_first: bool) {
        self.0.send("ucinewgame");
        self.0.send("isready");
        self.0.until_prefix("readyok");
    }
    fn opponent(&mut self, history: &[String], fen: Option<&str>, _m: &str) -> Option<Turn> {
        Some(self.go(fen, history))
    }
    fn first(&mut self, fen: Option<&str>) -> Turn {
        self.go(fen, &[])
    }
    fn engine(&mut self) -> &mut Engine {
        &mut self.0
    }
}

/// A CECP result line: `1-0 {…}`, `0-1 {…}`, `1/2-1/2 {…}`.
fn is_result(l: &str) -> bool {
    ["1-0 {", "0-1 {", "1/2-1/2 {"]
        .iter()
        .any(|r| l.starts_with(r))
}

struct Cecp(Engine);

impl Cecp {
    fn new(build: &str) -> Cecp {
        let mut e = Engine::start(&["xboard", "--engine", build]);
        e.send("xboard");
        e.send("protover 2");
        let lines = e.until(Duration::from_secs(20), |l| l == "feature done=1");
        assert!(
            lines.iter().any(|l| l.contains("myname=\"ChesSkelet")),
            "{}",
            e.transcript()
        );
        Cecp(e)
    }

    /// Waits for `move X` (or `resign`), collecting comments.
    fn reply(&mut self) -> Turn {
        let lines = self.0.until(Duration::from_secs(60), |l| {
            l.starts_with("move ") || l == "resign" || is_result(l)
        });
        let last = lines.last().unwrap().clone();
        if is_result(&last) {
            return Turn::Result(last);
        }
        if last == "resign" {
            let why = lines
                .iter()
                .rev()
                .find(|l| {
                    (l.starts_with('#') && !l.contains("T-states"))
                        || l.starts_with("tellusererror")
                })
                .cloned()
                .unwrap_or_else(|| panic!("resign without a reason\n{}", self.0.transcript()));
            return Turn::Resigned(why);
        }
        Turn::Move(last[5..].trim().to_string(), lines)
    }
}

impl Protocol for Cecp {
    fn start(&mut self, fen: Option<&str>, _engine_first: bool) {
        // A result line the front end sent after the last game's final move.
        self.0.drain(Duration::from_millis(300));
        self.0.send("new");
        self.0.send("force");
        self.0.send("level 0 3 1");
        if let Some(f) = fen {
            self.0.send(&format!("setboard {f}"));
        }
    }
    fn opponent(&mut self, history: &[String], _fen: Option<&str>, m: &str) -> Option<Turn> {
        if history.len() == 1 {
            // First move of the game by the opponent: hand the engine the
            // other side (`force` was on).
            self.0.send(&format!("usermove {m}"));
            self.0.send("time 18000");
            self.0.send("otim 18000");
            self.0.send("go");
        } else {
            self.0.send("time 18000");
            self.0.send("otim 18000");
            self.0.send(&format!("usermove {m}"));
        }
        Some(self.reply())
    }
    fn first(&mut self, _fen: Option<&str>) -> Turn {
        self.0.send("time 18000");
        self.0.send("otim 18000");
        self.0.send("go");
        self.reply()
    }
    fn engine(&mut self) -> &mut Engine {
        &mut self.0
    }
}

/// Plays one game: the engine takes the side to move at `fen` if
/// `engine_first`, else the other; the opponent plays seeded random legal
/// moves. Returns the end and the number of engine moves received.
fn game(
    p: &mut dyn Protocol,
    fen: Option<&str>,
    engine_first: bool,
    seed: u64,
    max_plies: usize,
) -> (End, usize) {
    let root = fen.map_or(Chess::default(), pos);
    let engine_side = if engine_first {
        root.turn()
    } else {
        !root.turn()
    };
    let mut current = root.clone();
    let mut history: Vec<String> = Vec::new();
    let mut rng = SplitMix64::new(seed);
    let mut received = 0;
    p.start(fen, engine_first);
    let mut pending: Option<Turn> = None;
    for _ in 0..max_plies {
        if current.is_game_over() || current.halfmoves() >= 100 {
            return (End::Over, received);
        }
        let turn = if current.turn() == engine_side {
            match pending.take() {
                Some(t) => t,
                None => p.first(fen),
            }
        } else {
            let legal = current.legal_moves();
            let m = legal[rng.range(0, legal.len() as u64 - 1) as usize];
            let text = UciMove::from_standard(m).to_string();
            current.play_unchecked(m);
            history.push(text.clone());
            if current.is_game_over() || current.halfmoves() >= 100 {
                return (End::Over, received);
            }
            pending = p.opponent(&history, fen, &text);
            continue;
        };
        match turn {
            Turn::Resigned(why) => return (End::Resigned(why), received),
            Turn::Result(r) => return (End::Result(r), received),
            Turn::Move(best, lines) => {
                received += 1;
                let uci: UciMove = best.parse().unwrap_or_else(|_| {
                    panic!("unreadable move {best}\n{}", p.engine().transcript())
                });
                match uci.to_move(&current) {
                    Ok(m) => {
                        current.play_unchecked(m);
                        history.push(best);
                    }
                    Err(_) => {
                        let flagged = lines.iter().any(|l| {
                            l.starts_with(&format!("info string illegal move {best}"))
                                || l.starts_with(&format!("# illegal move {best}"))
                        });
                        assert!(
                            flagged,
                            "illegal {best} not flagged\n{}",
                            p.engine().transcript()
                        );
                        return (End::Flagged(best), received);
                    }
                }
            }
        }
    }
    (End::Over, received)
}

const FENS: [&str; 4] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1",
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8",
    "8/P5k1/8/8/8/8/5p2/K7 w - - 0 1",
];

fn sessions(p: &mut dyn Protocol, build: &str) {
    let mut total = 0;
    // From the start position, the engine as White and as Black.
    for (engine_first, seed) in [(true, 1), (false, 2), (false, 3)] {
        let (end, n) = game(p, None, engine_first, seed, 120);
        println!("{build} startpos engine_first={engine_first}: {end:?} after {n} engine moves");
        assert!(n >= 1, "{build}: {end:?}");
        total += n;
    }
    // From FENs, the engine to move and not to move.
    for (i, fen) in FENS.iter().enumerate() {
        for engine_first in [true, false] {
            let (end, n) = game(p, Some(fen), engine_first, 10 + i as u64, 60);
            println!("{build} {fen} engine_first={engine_first}: {end:?} after {n} engine moves");
            if let End::Resigned(why) = &end {
                assert!(!why.is_empty());
            }
            total += n;
        }
    }
    assert!(total >= 30, "{build}: only {total} engine moves");
    // The dead end: a lone king on the program's never-scanned square 0
    // (h1 for Black), legal moves left. The front end says why.
    p.start(Some("8/8/8/8/8/8/P7/4K2k b - - 0 1"), true);
    match p.first(Some("8/8/8/8/8/8/P7/4K2k b - - 0 1")) {
        Turn::Resigned(why) => assert!(why.contains("dead end"), "{why}"),
        Turn::Move(m, _) => panic!("{build}: dead end answered {m}"),
        Turn::Result(r) => panic!("{build}: dead end answered {r}"),
    }
}

#[test]
fn uci_sessions_both_builds() {
    for build in BUILDS {
        let mut p = Uci::new(build);
        sessions(&mut p, build);
        p.0.send("quit");
        p.0.close();
    }
}

#[test]
fn cecp_sessions_both_builds() {
    for build in BUILDS {
        let mut p = Cecp::new(build);
        sessions(&mut p, build);
        p.0.send("quit");
        p.0.close();
    }
}

/// python-chess's own clients, two complete games with clocks per build
/// and protocol (`tests/peers/chesskelet_games.py`).
#[test]
fn python_chess_plays_both_builds() {
    for protocol in ["uci", "xboard"] {
        for build in BUILDS {
            let stdout =
                pipe::python_chess_games("chesskelet_games.py", &[protocol, build, "2"], 2);
            assert!(stdout.contains("engine: ChesSkelet"), "{stdout}");
        }
    }
}
