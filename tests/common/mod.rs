//! Helpers shared by the integration tests: every test crate
//! (`tests/LAYER/main.rs`) declares `#[path = "../common/mod.rs"] mod common;`.
#![allow(dead_code)]

pub mod pipe;

use std::path::PathBuf;

use retrochess::rng::SplitMix64;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// A minimal `.p` image for a 1K ZX81: system variables, `code` as the
/// BASIC program area (at 0x407D), a collapsed display file (25 NEWLINEs)
/// and an empty variables area. Code runs from 0x407D.
pub fn p_image(code: &[u8]) -> Vec<u8> {
    let program = 0x407Du16;
    let d_file = program + code.len() as u16;
    let vars = d_file + 25;
    let e_line = vars + 1;
    let mut img = vec![0u8; (program - 0x4009) as usize];
    let mut word = |addr: u16, v: u16| {
        let i = (addr - 0x4009) as usize;
        img[i..i + 2].copy_from_slice(&v.to_le_bytes());
    };
    word(0x400C, d_file);
    word(0x4010, vars);
    word(0x4014, e_line);
    word(0x4034, 0x8400); // FRAMES
    img.extend_from_slice(code);
    img.extend(std::iter::repeat_n(0x76, 25));
    img.push(0x80);
    img
}

pub fn fen(s: &str) -> Chess {
    s.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// A seeded random legal move.
pub fn random_move(pos: &Chess, rng: &mut SplitMix64) -> Move {
    let legal = pos.legal_moves();
    legal[rng.range(0, legal.len() as u64 - 1) as usize]
}

/// CPU-bound jobs beside a test (`sh -c 'while :; do :; done'`, the
/// brief's load), ended by their ids when dropped.
pub struct Load(Vec<std::process::Child>);

impl Load {
    pub fn start(jobs: usize) -> Load {
        Load(
            (0..jobs)
                .map(|_| {
                    std::process::Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .expect("sh starts")
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

pub fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrochess-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs `cmd` with `stdin` written to it (then closed), capturing its output.
pub fn output_with_stdin(cmd: &mut std::process::Command, stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the `retrochess` binary with `args` and `stdin`: (success, stdout,
/// stderr).
pub fn retrochess(args: &[&str], stdin: &str) -> (bool, String, String) {
    let out = output_with_stdin(
        std::process::Command::new(env!("CARGO_BIN_EXE_retrochess")).args(args),
        stdin,
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Asking a chess engine for its move after `moves` from `root`, as the
/// tests were written before engines took a [`Game`](retrochess::rules::Game).
pub trait PlayMoves {
    fn play_moves(
        &mut self,
        root: &Chess,
        moves: &[Move],
        budget: u64,
    ) -> Result<retrochess::engines::Reply<shakmaty::uci::UciMove>, retrochess::engines::EngineError>;
}

impl<E: retrochess::engines::Engine<retrochess::rules::chess::ChessRules> + ?Sized> PlayMoves
    for E
{
    fn play_moves(
        &mut self,
        root: &Chess,
        moves: &[Move],
        budget: u64,
    ) -> Result<retrochess::engines::Reply<shakmaty::uci::UciMove>, retrochess::engines::EngineError>
    {
        let mut game =
            retrochess::rules::Game::new(retrochess::rules::chess::ChessRules, root.clone());
        for m in moves {
            game.push(*m);
        }
        self.play(&game, budget)
    }
}

/// The chess engine called `id`.
pub fn chess_engine(
    id: &str,
    options: &retrochess::engines::EngineOptions,
) -> Result<
    Box<dyn retrochess::engines::Engine<retrochess::rules::chess::ChessRules>>,
    retrochess::engines::EngineError,
> {
    <retrochess::rules::chess::ChessRules as retrochess::engines::Catalogue>::create(
        retrochess::engines::find(id)?,
        options,
    )
}

/// Reads `tests/fixtures/NAME` (see tests/fixtures/README.md).
pub fn fixture(name: &str) -> String {
    let path = repo(&format!("tests/fixtures/{name}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One of the games published in seed 001, chapter 12, in coordinates.
pub struct PublishedGame {
    pub title: String,
    pub white: Vec<String>,
    pub black: Vec<String>,
}

/// The three games ChesSkelet played as Black (fixture
/// `chesskelet-games.txt`): 10, 15 and 19 moves.
pub fn chesskelet_games() -> Vec<PublishedGame> {
    let mut games: Vec<PublishedGame> = Vec::new();
    for line in fixture("chesskelet-games.txt").lines() {
        if let Some(title) = line.strip_prefix("game ") {
            games.push(PublishedGame {
                title: title.to_string(),
                white: Vec::new(),
                black: Vec::new(),
            });
            continue;
        }
        let game = games.last_mut().expect("a game title first");
        let (w, b) = line.split_once(' ').expect("WHITE BLACK");
        game.white.push(w.to_string());
        game.black.push(b.to_string());
    }
    let lengths: Vec<usize> = games.iter().map(|g| g.black.len()).collect();
    assert_eq!(lengths, [10, 15, 19], "chesskelet-games.txt");
    games
}

/// The Python interpreter for the interop scripts: `$RETROCHESS_PYTHON`
/// (scripts/test points it at the venv it fills, target/python), else
/// `python3`. Fails the test, saying how to get it, if it does not run.
pub fn python() -> String {
    let python = std::env::var("RETROCHESS_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let runs = std::process::Command::new(&python)
        .args(["-c", ""])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        runs,
        "{python} does not run: install python3 (`sudo apt-get install python3`) and run \
         scripts/test, or point RETROCHESS_PYTHON at a python"
    );
    python
}

/// [`python`], checked to have python-chess (module `chess`). Fails the
/// test, saying how to get it, if it has not.
pub fn python_chess() -> String {
    let python = python();
    let has = std::process::Command::new(&python)
        .args(["-c", "import chess, chess.engine, chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has,
        "python-chess is missing ({python} cannot import chess): run scripts/test, which \
         installs chess==1.11.2 into target/python, or `{python} -m pip install chess==1.11.2`"
    );
    python
}

/// [`python`], checked to have pydraughts 0.6.7 (module `draughts`; the
/// tests rely on that version's Hub and PDN forms). Fails the test, saying
/// how to get it, if it has not.
pub fn python_draughts() -> String {
    let python = python();
    let check = "from importlib.metadata import version\n\
                 import draughts\n\
                 assert version('pydraughts') == '0.6.7', version('pydraughts')";
    let has = std::process::Command::new(&python)
        .args(["-c", check])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has,
        "pydraughts 0.6.7 is missing ({python} cannot import draughts at that version): run \
         scripts/test, which installs pydraughts==0.6.7 into target/python, or \
         `{python} -m pip install pydraughts==0.6.7`"
    );
    python
}

/// A program the tests need from outside the repository, found in
/// /usr/games (where Debian puts engines and GUIs) or on PATH. Fails the
/// test, saying how to get it, if it is missing.
pub fn peer(name: &str) -> PathBuf {
    const PACKAGES: [(&str, &str); 7] = [
        ("parallel", "parallel"),
        ("fairymax", "fairymax"),
        ("stockfish", "stockfish"),
        ("polyglot", "polyglot"),
        ("xboard", "xboard"),
        ("xvfb-run", "xvfb"),
        ("pasmo", "pasmo"),
    ];
    let package = PACKAGES
        .iter()
        .find(|(program, _)| *program == name)
        .map_or(name, |(_, package)| package);
    let path = std::env::var("PATH").unwrap_or_default();
    std::iter::once(PathBuf::from("/usr/games"))
        .chain(std::env::split_paths(&path))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{name} is missing: run scripts/test, which installs Debian's {package} when \
                 run as root, or `sudo apt-get install {package}`"
            )
        })
}

/// The row of `name` in a match's final table (`retrochess match`'s
/// standings): its games, wins, draws and losses. The row whose name is
/// `name` exactly: "Random mover" is not "Random mover (2)".
pub fn standings_row(table: &str, name: &str) -> (u32, u32, u32, u32) {
    let nums: Vec<u32> = table
        .lines()
        .filter_map(|l| l.strip_prefix(name))
        .map(|rest| {
            rest.split_whitespace()
                .take(4)
                .map_while(|x| x.parse().ok())
                .collect::<Vec<u32>>()
        })
        .find(|nums| nums.len() == 4)
        .unwrap_or_else(|| panic!("{name} not in\n{table}"));
    (nums[0], nums[1], nums[2], nums[3])
}

/// The draughts engines the Hub tests serve with `retrochess hub`
/// (`protocol::hub_session`, `runner::hub_match`, `interop::hub_interop`):
/// every draughts engine of the registry, so a new driver is tested
/// without a line here.
pub fn hub_engines() -> Vec<&'static str> {
    ids_of(retrochess::engines::GameKind::Draughts)
}

/// The ids of the registry's engines of `game`, in registry order.
pub fn ids_of(game: retrochess::engines::GameKind) -> Vec<&'static str> {
    retrochess::engines::catalogue()
        .iter()
        .filter(|e| e.game == game)
        .map(|e| e.info.id)
        .collect()
}

/// The `--engine` spec of `retrochess hub --engine ID` as an external
/// engine of the match runner, named `hub-ID`.
pub fn over_hub(id: &str) -> String {
    format!(
        "cmd={},arg=hub,arg=--engine,arg={id},proto=hub,name=hub-{id}",
        env!("CARGO_BIN_EXE_retrochess")
    )
}

/// Runs the peer `tests/peers/NAME` with [`python`], `args` and `stdin`:
/// (success, stdout, stderr). The draughts peers exit with status 2 and
/// `pip install pydraughts==0.6.7` on stderr when pydraughts is missing.
pub fn peer_script(name: &str, args: &[&str], stdin: &str) -> (bool, String, String) {
    let out = output_with_stdin(
        std::process::Command::new(python())
            .arg(repo(&format!("tests/peers/{name}")))
            .args(args),
        stdin,
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Where ChesSkelet's long-castling test takes a queen's step for castling
/// (issue 33, found in a fastchess soak): a FEN and the moves played from
/// it, after which the full build (White) chooses Qd1-c2 — and its board
/// shows the queen gone, a rook on c2 and a stray byte on a1.
pub const LONG_CASTLING: [(&str, &str); 2] = [
    (
        "r1b2k2/3nqpp1/2p5/1pbpp2n/p6r/2PP1P2/PP1NPN1P/R1BQKB1R b KQ - 4 17",
        "d7b6",
    ),
    (
        "rnbqkb1r/pp2pppp/2p2n2/3p4/8/5NP1/PPPPPPBP/RNBQK2R w KQkq - 0 1",
        "f3e5 b7b6 e5d3 b8d7 d3f4 g7g5 f4d3 e7e5 f2f3 d8c7 d3f2 b6b5 d2d3 f8h6 c1g5 h6g5 \
         c2c3 h7h5 g2f1 h8h6",
    ),
];

/// The same quirk from the start position, every move typed: Black's
/// moves, to which the full build (White, its `s` key first) replies
/// d2d4 f2f4 f4f5 c1f4 f5e6 e6f7 d1d3 d3f3 f3b7 and then Qb7xa8, which its
/// long-castling test takes for castling (found by the sweep's
/// `find_a_long_castling_game`, seed 14 of the random mover;
/// `scripts/long-castling-game` runs it again).
pub const LONG_CASTLING_FROM_START: [&str; 9] = [
    "g8f6", "a7a6", "d7d6", "e7e6", "g7g6", "e8e7", "c8g4", "g4h3", "f8g7",
];

/// `retrochess serve ARGS` on a loopback port the system chooses, stopped
/// when dropped; `addr` is `127.0.0.1:PORT`, read from its first line.
pub struct Served {
    pub child: std::process::Child,
    pub addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts [`Served`].
pub fn serve(args: &[&str]) -> Served {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_retrochess"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("retrochess runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "retrochess serve: open http://127.0.0.1:PORT/ in a browser ..."
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Served { child, addr }
}
