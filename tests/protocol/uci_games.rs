//! UCI over pipes with the real emulated engine: whole games (against
//! itself, against seeded random legal moves, from start and from FENs), and
//! one reply from each of 22 varied positions. Every move received is
//! checked with shakmaty: legal, or flagged by an `info string illegal move`
//! before `bestmove`.

use crate::common::pipe;

use std::time::{Duration, Instant};

use pipe::Engine;
use retrochess::rng::SplitMix64;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn uci(args: &[&str]) -> Engine {
    let mut e = Engine::start(&[&["uci"], args].concat());
    e.send("uci");
    e.until_prefix("uciok");
    e.send("isready");
    e.until_prefix("readyok");
    e
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// What one `go` gave: the lines and the verdict on the move.
#[derive(Debug, PartialEq)]
enum Answer {
    Legal(shakmaty::Move),
    /// Illegal, and flagged as such before `bestmove`.
    FlaggedIllegal(String),
    /// `bestmove 0000`, with the reason given.
    Resigned(String),
}

/// Asks for a move and checks what comes back.
fn ask(e: &mut Engine, position: &str, current: &Chess, go: &str) -> Answer {
    e.send(position);
    e.send(go);
    let lines = e.until_prefix("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| {
            panic!("no info line before bestmove\n{}", e.transcript());
        });
    for field in ["depth", "score cp", "nodes", "nps", "time"] {
        assert!(
            info.contains(&format!(" {field} ")),
            "{field} missing from {info}"
        );
    }
    let score: &str = info
        .split("score cp ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(
        score.parse::<i32>().is_ok(),
        "score cp {score} is not an integer"
    );
    if best == "0000" {
        let why = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info string") && !l.contains("T-states"));
        let why = why.unwrap_or_else(|| panic!("0000 without a reason\n{}", e.transcript()));
        return Answer::Resigned(why.clone());
    }
    assert!(
        info.ends_with(&format!(" pv {best}")),
        "pv is only the move played: {info}"
    );
    let uci: UciMove = best.parse().unwrap();
    match uci.to_move(current) {
        Ok(m) => Answer::Legal(m),
        Err(_) => {
            let flag = format!("info string illegal move {best}: ");
            let flagged = lines.iter().find(|l| l.starts_with(&flag));
            let flagged =
                flagged.unwrap_or_else(|| panic!("illegal {best} not flagged\n{}", e.transcript()));
            Answer::FlaggedIllegal(flagged.clone())
        }
    }
}

/// How a game ended (the texts are for the log).
#[derive(Debug)]
#[allow(dead_code)]
enum End {
    Rules(String),
    Flagged(String),
    Resigned(String),
    MoveLimit,
}

/// Plays a game; `engines[c]` is the process for colour c (None: random).
fn play(
    root_fen: Option<&str>,
    engines: &mut [Option<&mut Engine>; 2],
    seed: u64,
    max_plies: usize,
) -> (End, Vec<String>) {
    let root = root_fen.map_or(Chess::default(), pos);
    let mut current = root.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: Vec<Zobrist64> = vec![current.zobrist_hash(EnPassantMode::Legal)];
    let mut rng = SplitMix64::new(seed);
    let head = match root_fen {
        None => "position startpos".to_string(),
        Some(f) => format!("position fen {f}"),
    };
    for ply in 0..max_plies {
        if current.is_game_over() {
            return (End::Rules(format!("{:?}", current.outcome())), moves);
        }
        if current.halfmoves() >= 100 {
            return (End::Rules("fifty moves".into()), moves);
        }
        let hash = current.zobrist_hash(EnPassantMode::Legal);
        if seen.iter().filter(|&&h| h == hash).count() >= 3 {
            return (End::Rules("threefold".into()), moves);
        }
        let side = current.turn() as usize;
        let m = match engines[side].as_deref_mut() {
            None => {
                let legal = current.legal_moves();
                legal[rng.range(0, legal.len() as u64 - 1) as usize]
            }
            Some(e) => {
                let position = if moves.is_empty() {
                    head.clone()
                } else {
                    format!("{head} moves {}", moves.join(" "))
                };
                // A 3-minute game with increment, clocks running down as the game goes on.
                let left = 180_000u64.saturating_sub(ply as u64 * 200);
                let go = format!("go wtime {left} btime {left} winc 1000 binc 1000");
                match ask(e, &position, &current, &go) {
                    Answer::Legal(m) => m,
                    Answer::FlaggedIllegal(why) => return (End::Flagged(why), moves),
                    Answer::Resigned(why) => return (End::Resigned(why), moves),
                }
            }
        };
        moves.push(UciMove::from_standard(m).to_string());
        current.play_unchecked(m);
        seen.push(current.zobrist_hash(EnPassantMode::Legal));
    }
    (End::MoveLimit, moves)
}

#[test]
fn a_game_against_itself() {
    let mut white = uci(&[]);
    let mut black = uci(&["--seed", "2"]);
    white.send("ucinewgame");
    black.send("ucinewgame");
    let (end, moves) = play(None, &mut [Some(&mut white), Some(&mut black)], 0, 300);
    eprintln!(
        "self-play: {end:?} after {} plies: {}",
        moves.len(),
        moves.join(" ")
    );
    assert!(moves.len() >= 4, "the game got going");
    assert_eq!(&moves[0], "d2d3", "the tape's stored first move");
}

#[test]
fn games_against_random_moves() {
    let mut e = uci(&[]);
    let starts = [
        (None, 0usize),
        (None, 1),
        (
            Some("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8"),
            0,
        ),
        (
            Some("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8"),
            1,
        ),
    ];
    for (i, (fen, engine_side)) in starts.into_iter().enumerate() {
        e.send("ucinewgame");
        let mut sides: [Option<&mut Engine>; 2] = [None, None];
        sides[engine_side] = Some(&mut e);
        let (end, moves) = play(fen, &mut sides, 7 + i as u64, 300);
        eprintln!("game {i} vs random: {end:?} after {} plies", moves.len());
        assert!(moves.len() >= 2 || matches!(end, End::Flagged(_) | End::Resigned(_)));
    }
}

/// 22 positions: castling rights, en passant, promoted pieces, both sides
/// to move, the engine in check, pins, promotions ahead.
const FENS: [&str; 22] = [
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 4 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/5N2/PPP1PPPP/RNBQKB1R b KQkq d3 0 3",
    "2Q1k3/8/8/8/8/8/8/1Q2K2Q b - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3",
    "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",
    "8/P6k/8/8/8/8/6K1/8 w - - 0 1",
    "8/6K1/8/8/8/8/p6k/8 b - - 0 1",
    "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
    "4k2r/8/8/8/8/8/8/4K2R b Kk - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
    "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",
    "8/8/8/4k3/8/8/1Q6/4K3 b - - 0 1",
    "rnbqkbnr/ppp2ppp/8/3pp3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq d6 0 3",
    "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "r3k2r/8/8/8/pP6/8/8/R3K2R b KQkq b3 0 1",
    "4k3/8/8/8/8/8/8/nn2K2q w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
];

#[test]
fn one_reply_from_each_of_22_positions() {
    let mut e = uci(&[]);
    let mut tally = [0usize; 3];
    for fen in FENS {
        let current = pos(fen);
        assert!(!current.is_game_over(), "{fen}");
        let answer = ask(
            &mut e,
            &format!("position fen {fen}"),
            &current,
            "go movetime 2000",
        );
        eprintln!("{fen}: {answer:?}");
        tally[match answer {
            Answer::Legal(_) => 0,
            Answer::FlaggedIllegal(_) => 1,
            Answer::Resigned(_) => 2,
        }] += 1;
    }
    eprintln!(
        "legal {}, flagged illegal {}, resigned {}",
        tally[0], tally[1], tally[2]
    );
    assert!(tally[0] >= 11, "most replies are legal moves");
}

#[test]
fn finished_games_need_no_engine() {
    let mut e = uci(&[]);
    for (position, reason) in [
        ("position startpos moves f2f3 e7e5 g2g4 d8h4", "checkmate"),
        ("position fen k7/8/8/8/8/8/5q2/7K w - - 0 1", "stalemate"),
    ] {
        e.send(position);
        e.send("go wtime 1000 btime 1000");
        let lines = e.until_prefix("bestmove");
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
        assert!(
            lines.contains(&format!("info string no legal move: {reason}")),
            "{lines:?}"
        );
    }
}

#[test]
fn replies_under_a_clock_are_moves_or_named_cuts() {
    let mut e = uci(&[]);
    // A long clock, a scramble (1 s left) and a fixed 300 ms a move. The
    // rule (src/protocol/clock.rs): the program is cut only if still
    // running at its deadline, all the time the clock leaves it, counted
    // from `go`. So each reply is a move, or a cut that says so; how fast
    // the reply comes is the host's (scripts/go-latency measures it).
    for go in [
        "go wtime 60000 btime 60000",
        "go wtime 1000 btime 1000",
        "go movetime 300",
    ] {
        e.send("position startpos moves e2e4");
        let t = Instant::now();
        e.send(go);
        let lines = e.until_prefix("bestmove");
        eprintln!("{go}: bestmove after {:?}", t.elapsed());
        assert!(
            lines.last().unwrap() != "bestmove 0000"
                || lines
                    .iter()
                    .any(|l| l.contains("still running at its deadline")),
            "{go}: no move and no cut named\n{}",
            lines.join("\n")
        );
    }
    // AuthenticTiming waits out the ZX81 (scaled): never less than 5 % of
    // its ~5–9 s. That the wait never goes beyond the clock is
    // `settings::tests::authentic_waits_are_capped`.
    e.send("setoption name AuthenticTiming value true");
    e.send("setoption name TimeScale value 5");
    e.send("position startpos moves e2e4");
    let t = Instant::now();
    e.send("go movetime 5000");
    e.until_prefix("bestmove");
    let waited = t.elapsed();
    assert!(waited > Duration::from_millis(150), "{waited:?}");
}
