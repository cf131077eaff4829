//! CECP over pipes with the real emulated engine: every command of the
//! protocol, `undo`/`remove` then play on, `setboard` mid-game, `edit`,
//! `ping` ordering while thinking, result claims, garbage and exits. Every
//! engine move received is checked with shakmaty.

use crate::common::pipe;

use std::time::{Duration, Instant};

use pipe::Engine;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

const SECOND: Duration = Duration::from_secs(1);

fn xboard(args: &[&str]) -> Engine {
    let mut e = Engine::start(&[&["xboard"], args].concat());
    e.send("xboard");
    e.send("protover 2");
    let features = e.until_prefix("feature done=1");
    assert!(features.iter().any(|l| l.contains("usermove=1")));
    for f in [
        "usermove", "ping", "setboard", "sigint", "sigterm", "reuse", "san", "colors", "analyze",
        "myname",
    ] {
        e.send(&format!("accepted {f}"));
    }
    e
}

/// The engine's next move (the line), checked legal in `pos`.
fn engine_move(e: &mut Engine, pos: &mut Chess) -> String {
    let lines = e.until(10 * SECOND, |l| l.starts_with("move ") || l == "resign");
    let last = lines.last().unwrap().clone();
    if let Some(m) = last.strip_prefix("move ") {
        let uci: UciMove = m.parse().unwrap();
        match uci.to_move(pos) {
            Ok(mv) => pos.play_unchecked(mv),
            Err(_) => assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("# illegal move {m}: "))),
                "unflagged illegal move {m}\n{}",
                e.transcript()
            ),
        }
    }
    last
}

fn play(pos: &mut Chess, m: &str) {
    let mv = m.parse::<UciMove>().unwrap().to_move(pos).unwrap();
    pos.play_unchecked(mv);
}

#[test]
fn a_game_with_takebacks_and_pings() {
    let t = Instant::now();
    let mut e = xboard(&[]);
    eprintln!("process start to feature done=1: {:?}", t.elapsed());
    let mut pos = Chess::default();
    for line in [
        "new",
        "random",
        "level 40 5 0",
        "post",
        "hard",
        "easy",
        "computer",
        "name Tester",
        "rating 1500 1600",
    ] {
        e.send(line);
    }
    e.send("time 30000");
    e.send("otim 30000");
    e.send("usermove e2e4");
    play(&mut pos, "e2e4");
    e.send("ping 1");
    let lines = e.until_prefix("pong 1");
    let at = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("the move comes before the pong");
    // The last thinking line before the move (candidates' lines and their
    // comments may come before it).
    let thinking = lines[..at]
        .iter()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .expect("a thinking line");
    let fields: Vec<&str> = thinking.split_whitespace().collect();
    assert_eq!(fields.len(), 5, "ply score time nodes pv: {thinking}");
    assert_eq!(fields[0], "1");
    assert!(fields[1].parse::<i32>().is_ok() && fields[3].parse::<u64>().is_ok());
    let reply = lines[at].strip_prefix("move ").unwrap().to_string();
    assert_eq!(fields[4], reply);
    play(&mut pos, &reply);
    // Illegal GUI moves change nothing.
    e.send("usermove e4e6");
    e.until_prefix("Illegal move (not a legal pawn move from e4 to e6");
    e.send("usermove e1e3");
    e.until_prefix("Illegal move (not a legal king move from e1 to e3");
    // Take back both moves, then play on differently.
    e.send("force");
    e.send("remove");
    pos = Chess::default();
    e.send("usermove d2d4");
    e.send("undo");
    e.send("playother");
    e.send("usermove d2d4");
    play(&mut pos, "d2d4");
    engine_move(&mut e, &mut pos);
    for _ in 0..5 {
        let m = pos.legal_moves()[0];
        let uci = UciMove::from_standard(m).to_string();
        e.send(&format!("usermove {uci}"));
        pos.play_unchecked(m);
        if engine_move(&mut e, &mut pos) == "resign" || pos.is_game_over() {
            break;
        }
    }
    e.send("ping 2");
    e.until_prefix("pong 2");
    e.send("result 1/2-1/2 {Tester offers a draw}");
    e.send("ping 3");
    assert_eq!(e.until_prefix("pong 3"), ["pong 3"]);
    e.send("quit");
    assert!(e.wait(5 * SECOND).success());
}

#[test]
fn setboard_mid_game_and_edit() {
    let mut e = xboard(&[]);
    e.send("new");
    e.send("usermove e2e4");
    let mut pos = Chess::default();
    play(&mut pos, "e2e4");
    engine_move(&mut e, &mut pos);
    // Mid-game: a new position, the engine on move for White.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    e.send("force");
    e.send(&format!("setboard {fen}"));
    e.send("go");
    let mut pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    engine_move(&mut e, &mut pos);
    // Broken boards are refused and change nothing.
    e.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    e.until_prefix("tellusererror Illegal position");
    // edit mode: a rook endgame with Black on move... by `black`.
    e.send("new");
    e.send("force");
    for line in ["edit", "#", "Ke1", "Ra1", "c", "Ke8", "Pe7", "."] {
        e.send(line);
    }
    e.send("black");
    e.send("go");
    let mut pos: Chess = "4k3/4p3/8/8/8/8/8/R3K3 b Q - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let m = engine_move(&mut e, &mut pos);
    assert!(m.starts_with("move "), "{m}");
    e.send("white");
    e.send("ping 1");
    e.until_prefix("pong 1");
}

#[test]
fn the_engine_claims_its_mates() {
    let mut e = xboard(&[]);
    // White mates on the back rank.
    e.send("new");
    e.send("force");
    e.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go");
    let lines = e.until(10 * SECOND, |l| {
        l.starts_with("1-0") || l == "resign" || l.starts_with("0-1")
    });
    let mut pos: Chess = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let m = lines.iter().find_map(|l| l.strip_prefix("move ")).unwrap();
    play(&mut pos, m);
    assert!(pos.is_checkmate(), "{m}");
    assert_eq!(lines.last().unwrap(), "1-0 {White mates}");
    // The fool's mate, the engine Black.
    e.send("new");
    for m in ["f2f3", "e7e5"] {
        e.send("force");
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove g2g4");
    let lines = e.until(10 * SECOND, |l| {
        l.starts_with("0-1") || l == "resign" || l.starts_with("move ")
    });
    if lines.last().unwrap() == "move d8h4" {
        assert_eq!(e.until_prefix("0-1"), ["0-1 {Black mates}"]);
    }
    // Mated before moving: claimed without thinking.
    e.send("new");
    e.send("force");
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    assert_eq!(e.until_prefix("0-1"), ["0-1 {Black mates}"]);
}

#[test]
fn options_time_controls_and_move_now() {
    let mut e = xboard(&["--seed", "3"]);
    e.send("option IllegalMoves=resign");
    e.send("option Opening=think");
    e.send("option ShowScreen=1");
    e.send("option Bogus=1");
    e.until_prefix("Error (unknown option \"Bogus\")");
    e.send("new");
    e.send("st 1");
    e.send("sd 3");
    e.send("nps 5000");
    e.send("go");
    // Opening=think: the program thinks its first move instead of the tape's.
    let lines = e.until(10 * SECOND, |l| l.starts_with("move "));
    assert!(
        lines.iter().any(|l| l.starts_with("# screen ")),
        "ShowScreen"
    );
    assert!(
        lines.iter().any(|l| l.contains("position injected")),
        "{lines:?}"
    );
    // AuthenticTiming holds the move (6-9 s of ZX81 time); `?` moves now and
    // the pong follows the move.
    e.send("option AuthenticTiming=1");
    e.send("nopost");
    e.send("level 0 5 0");
    e.send("time 30000");
    e.send("otim 30000");
    let m = lines
        .last()
        .unwrap()
        .strip_prefix("move ")
        .unwrap()
        .to_string();
    let mut pos = Chess::default();
    play(&mut pos, &m);
    let reply = pos.legal_moves()[0];
    e.send(&format!("usermove {}", UciMove::from_standard(reply)));
    e.send("ping 5");
    std::thread::sleep(Duration::from_millis(150));
    assert!(
        e.drain(Duration::from_millis(100))
            .iter()
            .all(|l| !l.starts_with("move ") && !l.starts_with("pong"))
    );
    // `?` sends the held move at once: before the answer to the ping sent
    // after it (the authentic wait would hold it for seconds).
    e.send("?");
    let lines = e.until_prefix("pong 5");
    assert!(lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
}

#[test]
fn garbage_eof_and_quit() {
    let mut e = xboard(&[]);
    for line in [
        "hello",
        "usermove",
        "usermove zz",
        "level",
        "st",
        "time",
        "protover",
        "variant crazyhouse",
        "e2e4 e7e5",
    ] {
        e.send(line);
    }
    e.send_bytes(b"\xff\xfe\x00\r\n");
    e.send("ping 1");
    let lines = e.until_prefix("pong 1");
    assert!(lines.iter().any(|l| l == "Error (unknown command): hello"));
    assert!(
        lines
            .iter()
            .any(|l| l == "Illegal move (not a coordinate move): zz")
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "Error (unsupported variant): crazyhouse")
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "Error (unknown command): e2e4 e7e5")
    );
    e.close();
    assert!(e.wait(5 * SECOND).success());
    // quit while thinking.
    let mut e = xboard(&[]);
    e.send("option AuthenticTiming=1");
    e.send("new");
    e.send("usermove e2e4");
    e.send("quit");
    assert!(e.wait(5 * SECOND).success());
    // The move was held for the ZX81's seconds: quit did not wait for it.
    let rest = e.drain(5 * SECOND);
    assert!(!rest.iter().any(|l| l.starts_with("move ")), "{rest:?}");
}

/// One answer of analyze mode (up to its retro detail comment), checked in
/// `pos`: every thinking line `1 score time nodes pv` with a legal pv, no
/// move twice, as many as the `# N candidates weighed, M legal` comment
/// counts legal, illegal candidates only in comments, never a `move`.
/// Returns the pvs, the program's choice last.
fn analysis(e: &mut Engine, pos: &Chess) -> Vec<String> {
    let lines = e.until(10 * SECOND, |l| {
        l.starts_with("# ") && l.contains("T-states")
    });
    let mut pvs = Vec::new();
    let mut legal = None;
    for line in &lines {
        assert!(!line.starts_with("move"), "{line}\n{}", e.transcript());
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 5, "ply score time nodes pv: {line}");
            assert_eq!(fields[0], "1", "{line}");
            assert!(fields[1].parse::<i32>().is_ok() && fields[3].parse::<u64>().is_ok());
            let uci: UciMove = fields[4].parse().unwrap();
            assert!(uci.to_move(pos).is_ok(), "illegal pv: {line}");
            assert!(!pvs.contains(&fields[4].to_string()), "twice: {line}");
            pvs.push(fields[4].to_string());
        }
        if let Some(rest) = line.strip_prefix("# candidate ") {
            let uci: UciMove = rest.split_whitespace().next().unwrap().parse().unwrap();
            assert!(
                uci.to_move(pos).is_err(),
                "a legal move called illegal: {line}"
            );
        }
        if let Some(count) = line.strip_suffix(" legal")
            && let Some((_, n)) = count.split_once(" candidates weighed, ")
        {
            legal = n.parse::<usize>().ok();
        }
    }
    assert_eq!(
        legal,
        Some(pvs.len()),
        "the program's candidates, each legal one a line:\n{}",
        e.transcript()
    );
    assert!(
        pvs.len() >= 2,
        "the program weighs several moves: {lines:?}"
    );
    pvs
}

/// Analyze mode with every chess engine's candidates: `analyze`, `.`, bad
/// input, moves, `undo`, `exit`, then `post` in a game.
#[test]
fn analyze_mode_shows_the_candidates_over_pipes() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let chess_engines = retrochess::engines::catalogue()
        .iter()
        .filter(|e| e.game == retrochess::engines::GameKind::Chess);
    for id in chess_engines.map(|e| e.info.id) {
        let mut e = xboard(&["--engine", id]);
        let start: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for line in ["new", "force", &format!("setboard {fen}"), "analyze"] {
            e.send(line);
        }
        let pvs = analysis(&mut e, &start);
        e.send(".");
        let stat = e.until_prefix("stat01:").pop().unwrap();
        let fields: Vec<&str> = stat.split_whitespace().collect();
        assert_eq!(fields.len(), 6, "{stat}");
        assert!(fields[2].parse::<u64>().unwrap() > 0, "nodes: {stat}");
        assert_eq!(
            &fields[3..],
            ["1", "0", "20"],
            "done, 20 legal moves: {stat}"
        );
        // Bad input: an error, and the engine goes on.
        e.send("usermove e7e4");
        e.until_prefix("Illegal move (not a legal pawn move");
        e.send("frobnicate");
        e.until_prefix("Error (unknown command): frobnicate");
        e.send(".");
        assert_eq!(e.until_prefix("stat01:").pop().unwrap(), stat);
        // The program's choice played: the analysis follows.
        let best = pvs.last().unwrap().clone();
        e.send(&format!("usermove {best}"));
        let mut pos = start.clone();
        play(&mut pos, &best);
        analysis(&mut e, &pos);
        e.send("undo");
        analysis(&mut e, &start);
        // exit: nothing more; then post in a game: the candidates, the
        // program's choice last, then the move.
        e.send("exit");
        e.send("ping 1");
        let lines = e.until_prefix("pong 1");
        assert_eq!(lines, ["pong 1"], "{}", e.transcript());
        e.send("post");
        e.send("go");
        let lines = e.until(10 * SECOND, |l| l.starts_with("move "));
        let thinking: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(thinking.len() >= 2, "{id}: {lines:?}");
        let moved = lines.last().unwrap().strip_prefix("move ").unwrap();
        assert!(
            thinking.last().unwrap().ends_with(&format!(" {moved}")),
            "{id}: the program's choice comes last: {lines:?}"
        );
        e.send("quit");
        assert!(e.wait(5 * SECOND).success());
    }
}
