//! `retrochess serve`: a local web page to play any built-in engine, chess
//! or draughts, beside the picture of its emulated screen.
//!
//! One process serves the page (embedded: `assets/`, no network needed at
//! run time) and a small JSON API, written by serde_json (so any name or
//! reason is escaped by a kept library). Each browser tab creates its own
//! game, with its own engine and machine ([`table::Table`]); the page keeps
//! the game's id in the tab's `sessionStorage`.
//!
//! # Limits
//! - At most [`Limits::max_games`] games at once (default 32); the next
//!   `POST /api/games` is answered `503` with the reason and a
//!   `Retry-After`.
//! - A game nobody has asked about for [`Limits::idle`] (default 15
//!   minutes) is dropped, engine and machine with it; its tab then gets
//!   `404 no such game` and starts a new one.
//! - Request bodies over [`MAX_BODY`] bytes are refused with `413` unread.
//!
//! # API
//! | method | path | answer |
//! |---|---|---|
//! | GET | `/` | the page |
//! | GET | `/api/engines` | the built-in engines and their game |
//! | POST | `/api/games` | form `engine`, `color` (`white`/`black`), `rules` (draughts), `illegal` (`play`/`resign`), `seed` (optional: what the machine leaves to chance; random if absent): a new game (the engine moves first if it has the first move) |
//! | GET | `/api/games/{id}` | the game's state |
//! | POST | `/api/games/{id}/move` | form `move`: the person's move, judged, then the engine's answer; `422` with the reason if illegal |
//! | POST | `/api/games/{id}/takeback` | back to the person's previous turn |
//! | GET | `/api/games/{id}/screen.png` | the emulated screen (`?scale=1..8`) |
//! | GET | `/api/games/{id}/record` | the game as PGN (chess) or PDN (draughts) |
//! | DELETE | `/api/games/{id}` | drops the game |
//!
//! Errors are JSON `{"error": "...", "status": N}` with a specific status:
//! 400 malformed request, 404 unknown path/game/engine, 405 wrong method,
//! 409 not the person's turn or game over, 413 body too large, 422 illegal
//! or unreadable move, 503 too many games.

pub mod table;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::engines::{self, EngineOptions, Entry, GameKind, RulesError};
use crate::picture::{MAX_SCALE, Picture};
use crate::rng::SplitMix64;
use crate::rules::Color;
use crate::rules::chess::ChessRules;
use crate::rules::draughts::Draughts;
use crate::with_rules;
use table::{IllegalMoves, MoveError, PageRules, Table, UnknownPolicy};

/// The largest request body read.
pub const MAX_BODY: usize = 4096;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// How many games, for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_games: usize,
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_games: 32,
            idle: Duration::from_secs(15 * 60),
        }
    }
}

/// An HTTP answer before it is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    fn json(status: u16, body: Value) -> Answer {
        Answer {
            status,
            content_type: "application/json; charset=utf-8",
            body: body.to_string().into_bytes(),
            headers: Vec::new(),
        }
    }

    fn error(status: u16, message: &str) -> Answer {
        Answer::json(status, json!({ "error": message, "status": status }))
    }

    fn text(content_type: &'static str, body: &str) -> Answer {
        Answer {
            status: 200,
            content_type,
            body: body.as_bytes().to_vec(),
            headers: Vec::new(),
        }
    }
}

/// A game of either kind.
enum AnyTable {
    Chess(Box<Table<ChessRules>>),
    Draughts(Box<Table<Draughts>>),
}

impl From<Table<ChessRules>> for AnyTable {
    fn from(table: Table<ChessRules>) -> AnyTable {
        AnyTable::Chess(Box::new(table))
    }
}

impl From<Table<Draughts>> for AnyTable {
    fn from(table: Table<Draughts>) -> AnyTable {
        AnyTable::Draughts(Box::new(table))
    }
}

/// Runs `$body` with `$t` bound to the table of either game.
macro_rules! with_table {
    ($any:expr, $t:ident => $body:expr) => {
        match $any {
            AnyTable::Chess($t) => $body,
            AnyTable::Draughts($t) => $body,
        }
    };
}

struct Slot {
    table: AnyTable,
    used: Instant,
}

/// Every game being played, and the limits.
pub struct Server {
    games: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    limits: Limits,
    options: EngineOptions,
    rng: Mutex<SplitMix64>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in one game's request must not take the others down.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A request as the router sees it.
pub struct Request<'a> {
    pub method: &'a str,
    /// Path and query.
    pub url: &'a str,
    pub body: &'a str,
}

impl Server {
    /// A server with no games; each game's engine gets `options` with a seed
    /// of its own.
    pub fn new(limits: Limits, options: EngineOptions) -> Server {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Server {
            games: Mutex::new(HashMap::new()),
            limits,
            options,
            rng: Mutex::new(SplitMix64::new(now ^ u64::from(std::process::id()))),
        }
    }

    /// Games being played now.
    pub fn games(&self) -> usize {
        lock(&self.games).len()
    }

    /// Drops the games idle longer than the limit; returns how many.
    pub fn drop_idle(&self) -> usize {
        let mut games = lock(&self.games);
        let before = games.len();
        let idle = self.limits.idle;
        games.retain(|_, slot| match slot.try_lock() {
            Ok(s) => s.used.elapsed() < idle,
            Err(_) => true, // in use right now
        });
        before - games.len()
    }

    /// Answers one request.
    pub fn handle(&self, req: &Request<'_>) -> Answer {
        let (path, query) = req.url.split_once('?').unwrap_or((req.url, ""));
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (req.method, parts.as_slice()) {
            ("GET", [""]) => Answer::text("text/html; charset=utf-8", INDEX_HTML),
            ("GET", ["assets", "app.js"]) => Answer::text("text/javascript; charset=utf-8", APP_JS),
            ("GET", ["assets", "style.css"]) => Answer::text("text/css; charset=utf-8", STYLE_CSS),
            ("GET", ["api", "engines"]) => self.engines(),
            ("POST", ["api", "games"]) => match parse_form(req.body) {
                Ok(form) => self.create(&form),
                Err(e) => Answer::error(400, &e.to_string()),
            },
            (_, ["api", "games", id, rest @ ..]) => self.game_request(req, id, rest, query),
            ("GET", _) => Answer::error(404, &format!("no such page: {path}")),
            (m, ["api", ..] | [""] | ["assets", ..]) => {
                Answer::error(405, &format!("method {m} not allowed on {path}"))
            }
            (_, _) => Answer::error(404, &format!("no such page: {path}")),
        }
    }

    fn engines(&self) -> Answer {
        let list = engines::catalogue().iter().map(|e| {
            json!({
                "id": e.info.id,
                "name": e.info.name,
                "author": e.info.author,
                "year": e.info.year,
                "machine": e.info.machine,
                "game": game_name(e.game),
            })
        });
        Answer::json(200, Value::Array(list.collect()))
    }

    fn create(&self, form: &HashMap<String, String>) -> Answer {
        match self.try_create(form) {
            Ok(a) | Err(a) => a,
        }
    }

    /// `create` with its refusals as `Err`, checked in this order: the
    /// engine, the colour, the illegal-move policy, room for a game, the
    /// seed, the rules.
    fn try_create(&self, form: &HashMap<String, String>) -> Result<Answer, Answer> {
        let Some(id) = form.get("engine") else {
            return Err(Answer::error(400, "missing form field: engine"));
        };
        let entry = engines::find(id).map_err(|e| Answer::error(404, &e.to_string()))?;
        let person = form_color(form, entry.game)?;
        let illegal = form_illegal(form)?;
        self.drop_idle();
        self.check_room()?;
        let seed = form_seed(form)?;
        let (game_id, seed) = {
            let mut rng = lock(&self.rng);
            let id = format!("{:016x}", rng.next_u64());
            (id, seed.unwrap_or_else(|| rng.next_u64() % 1_000_000))
        };
        let options = EngineOptions {
            seed,
            ..self.options.clone()
        };
        let mut table = new_table(form, entry, &options, person, illegal)?;
        with_table!(&mut table, t => engine_turn(t))?;
        let state = with_table!(&mut table, t => state(&game_id, t));
        let slot = Arc::new(Mutex::new(Slot {
            table,
            used: Instant::now(),
        }));
        lock(&self.games).insert(game_id, slot);
        Ok(Answer::json(201, state))
    }

    /// A 503 with `Retry-After` when `max_games` are being played.
    fn check_room(&self) -> Result<(), Answer> {
        let games = lock(&self.games);
        if games.len() >= self.limits.max_games {
            let mut a = Answer::error(
                503,
                &format!(
                    "too many games at once: {} are being played, the limit is {}; \
                     an idle game is dropped after {} minutes — try again later",
                    games.len(),
                    self.limits.max_games,
                    self.limits.idle.as_secs() / 60
                ),
            );
            a.headers.push(("Retry-After", "60".to_string()));
            return Err(a);
        }
        Ok(())
    }

    fn game_request(&self, req: &Request<'_>, id: &str, rest: &[&str], query: &str) -> Answer {
        let slot = lock(&self.games).get(id).cloned();
        let Some(slot) = slot else {
            return Answer::error(
                404,
                &format!(
                    "no such game: {id} (finished, dropped after {} idle minutes, or never started)",
                    self.limits.idle.as_secs() / 60
                ),
            );
        };
        if req.method == "DELETE" && rest.is_empty() {
            lock(&self.games).remove(id);
            return Answer::json(200, json!({ "deleted": id }));
        }
        let mut slot = lock(&slot);
        slot.used = Instant::now();
        let table = &mut slot.table;
        match (req.method, rest) {
            ("GET", []) => Answer::json(200, with_table!(table, t => state(id, t))),
            ("POST", ["move"]) => {
                let form = match parse_form(req.body) {
                    Ok(f) => f,
                    Err(e) => return Answer::error(400, &e.to_string()),
                };
                let Some(text) = form.get("move") else {
                    return Answer::error(400, "missing form field: move");
                };
                with_table!(table, t => person_move(id, t, text))
            }
            ("POST", ["takeback"]) => with_table!(table, t => {
                if t.take_back() {
                    Answer::json(200, state(id, t))
                } else {
                    Answer::error(409, "nothing to take back: you have not moved yet")
                }
            }),
            ("GET", ["screen.png"]) => {
                let scale = match query_value(query, "scale") {
                    None => 2,
                    Some(s) => match s.parse::<usize>() {
                        Ok(n) if (1..=MAX_SCALE).contains(&n) => n,
                        _ => {
                            return Answer::error(
                                400,
                                &format!("scale {s:?}: expected 1 to {MAX_SCALE}"),
                            );
                        }
                    },
                };
                let display = with_table!(table, t => t.display());
                let Some(display) = display else {
                    return Answer::error(404, "this engine runs natively: it has no screen");
                };
                match Picture::of(&display).png(scale) {
                    Ok(png) => Answer {
                        status: 200,
                        content_type: "image/png",
                        body: png,
                        headers: vec![("Cache-Control", "no-store".to_string())],
                    },
                    Err(e) => Answer::error(500, &e.to_string()),
                }
            }
            ("GET", ["record"]) => with_table!(table, t => record_answer(t)),
            (m, [] | ["move"] | ["takeback"] | ["screen.png"] | ["record"]) => {
                Answer::error(405, &format!("method {m} not allowed on {}", req.url))
            }
            _ => Answer::error(404, &format!("no such page: {}", req.url)),
        }
    }
}

fn record_answer<R: PageRules>(t: &Table<R>) -> Answer {
    let mut a = Answer::text(
        if R::RECORD == "pgn" {
            "application/x-chess-pgn; charset=utf-8"
        } else {
            "application/x-draughts-pdn; charset=utf-8"
        },
        &t.record(),
    );
    a.headers.push((
        "Content-Disposition",
        format!(
            "attachment; filename=\"retrochess-{}.{}\"",
            t.engine_id,
            R::RECORD
        ),
    ));
    a
}

fn game_name(g: GameKind) -> &'static str {
    match g {
        GameKind::Chess => "chess",
        GameKind::Draughts => "draughts",
    }
}

/// The person's colour from the `color` field.
fn form_color(form: &HashMap<String, String>, game: GameKind) -> Result<Color, Answer> {
    match form.get("color").map(String::as_str) {
        // As `retrochess play`: the program moves first (White in
        // chess, Black in draughts), as it did on its machine.
        None | Some("") => Ok(match game {
            GameKind::Chess => Color::Black,
            GameKind::Draughts => Color::White,
        }),
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(c) => Err(Answer::error(
            400,
            &format!("color {c:?}: expected white or black"),
        )),
    }
}

/// The policy for the engine's illegal moves from the `illegal` field.
fn form_illegal(form: &HashMap<String, String>) -> Result<IllegalMoves, Answer> {
    form.get("illegal")
        .map_or(Ok(IllegalMoves::Play), |s| {
            if s.is_empty() {
                Ok(IllegalMoves::Play)
            } else {
                s.parse()
            }
        })
        .map_err(|e: UnknownPolicy| Answer::error(400, &e.to_string()))
}

/// The `seed` field, if given.
fn form_seed(form: &HashMap<String, String>) -> Result<Option<u64>, Answer> {
    match form.get("seed").filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => match s.parse::<u64>() {
            Ok(n) => Ok(Some(n)),
            Err(_) => Err(Answer::error(
                400,
                &format!("seed {s:?}: expected a whole number"),
            )),
        },
    }
}

/// The table for the engine of `entry`, with the draughts rules from the
/// `rules` field (refused for chess).
fn new_table(
    form: &HashMap<String, String>,
    entry: &'static Entry,
    options: &EngineOptions,
    person: Color,
    illegal: IllegalMoves,
) -> Result<AnyTable, Answer> {
    let rules = form
        .get("rules")
        .map(String::as_str)
        .filter(|r| !r.is_empty());
    let rules = entry.rules(rules).map_err(|e| match e {
        RulesError::ForChess { id, .. } => Answer::error(400, &format!("rules: {id} plays chess")),
        RulesError::Unknown(e) => Answer::error(400, &format!("rules: {e}")),
    })?;
    let made = with_rules!(rules, |rules| Table::new(
        rules, entry, options, person, illegal
    )
    .map(AnyTable::from));
    made.map_err(|e| Answer::error(500, &format!("cannot start {}: {e}", entry.info.id)))
}

/// Lets the engine move if it is its turn; a driver error is a 500.
fn engine_turn<R: PageRules>(t: &mut Table<R>) -> Result<(), Answer> {
    if t.engine_to_move() {
        let name = t.engine_name;
        t.engine_moves()
            .map_err(|e| Answer::error(500, &format!("{name} failed: {e}")))?;
    }
    Ok(())
}

fn person_move<R: PageRules>(id: &str, t: &mut Table<R>, text: &str) -> Answer {
    match t.person_moves(text) {
        Ok(()) => {}
        Err(e) => {
            let status = match e {
                MoveError::Over(_) | MoveError::NotYourTurn => 409,
                MoveError::NotUci(_) | MoveError::NotPdn { .. } | MoveError::Illegal { .. } => 422,
            };
            let (kind, reason) = match &e {
                MoveError::Illegal { kind, reason } => (Some(*kind), Some(reason.as_str())),
                _ => (None, None),
            };
            return Answer::json(
                status,
                json!({
                    "error": e.to_string(),
                    "status": status,
                    "move": text,
                    "kind": kind,
                    "reason": reason,
                }),
            );
        }
    }
    if let Err(a) = engine_turn(t) {
        return a;
    }
    Answer::json(200, state(id, t))
}

/// The game's state as the page shows it.
fn state<R: PageRules>(id: &str, t: &mut Table<R>) -> Value {
    let over = t.over();
    let last = t.last.as_ref().map(|l| {
        let candidates = l.candidates.iter().map(|c| {
            json!({
                "rank": c.rank,
                "seq": c.seq,
                "move": c.wire,
                "raw": c.raw,
                "score": c.score,
                "chance": c.chance,
                "illegal": c.illegal,
            })
        });
        json!({
            "move": l.wire,
            "illegal": l.illegal,
            "no_move": l.no_move,
            "score": l.score,
            "tstates": l.tstates,
            "authentic_ms": l.authentic_ms,
            "path": l.path,
            "tie_break": l.tie_break,
            "candidates": candidates.collect::<Vec<Value>>(),
        })
    });
    let side = |c: Color| if c == Color::White { "white" } else { "black" };
    let screen = t.screen_text();
    let position = t.game.rules().position_text(t.game.position());
    json!({
        "id": id,
        "game": R::KIND,
        "rules": t.game.rules().name(),
        "engine": t.engine_id,
        "engine_name": t.engine_name,
        "machine": t.machine,
        "seed": t.seed,
        "person": side(t.person),
        "turn": side(t.game.turn()),
        "position": position,
        "moves": t.wires(),
        "legal": t.legal(),
        "over": over.as_ref().map(|o| o.0.as_str()),
        // The winner's side of a finished game (null: a draw, or not over).
        "winner": over.as_ref().and_then(|o| o.1).map(side),
        "illegal_moves": t.illegal_moves.name(),
        "last": last,
        "screen": screen,
        "record": R::RECORD,
    })
}

/// Why a request's form was refused (the text as sent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormError {
    /// A `%` not followed by two hexadecimal digits, in this part.
    BadEscape(String),
    /// This part decodes to bytes that are not UTF-8.
    NotUtf8(String),
    /// This field (decoded) given twice.
    Twice(String),
}

impl std::fmt::Display for FormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormError::BadEscape(s) => write!(f, "malformed form data: bad escape in {s:?}"),
            FormError::NotUtf8(s) => write!(f, "malformed form data: {s:?} is not UTF-8"),
            FormError::Twice(k) => write!(f, "form field {k:?} given twice"),
        }
    }
}

impl std::error::Error for FormError {}

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// The address cannot be bound (tiny_http's error).
    Listen {
        addr: String,
        error: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Listen { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// `application/x-www-form-urlencoded` into a map.
///
/// # Errors
/// A bad percent escape, text that is not UTF-8, or a repeated field.
pub fn parse_form(body: &str) -> Result<HashMap<String, String>, FormError> {
    let mut map = HashMap::new();
    for pair in body.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k)?, decode(v)?);
        if map.insert(k.clone(), v).is_some() {
            return Err(FormError::Twice(k));
        }
    }
    Ok(map)
}

fn query_value<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn decode(s: &str) -> Result<String, FormError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| FormError::BadEscape(s.to_string()))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| FormError::NotUtf8(s.to_string()))
}

/// Where to listen and what to allow.
pub struct Config {
    pub listen: String,
    pub limits: Limits,
    /// Threads answering requests (each answers one at a time; an engine
    /// thinking holds its thread).
    pub threads: usize,
}

/// Serves until the process is stopped.
///
/// # Errors
/// The address cannot be bound.
pub fn run(config: &Config, options: EngineOptions) -> Result<(), ServeError> {
    let server = tiny_http::Server::http(&config.listen).map_err(|error| ServeError::Listen {
        addr: config.listen.clone(),
        error,
    })?;
    let addr = server
        .server_addr()
        .to_ip()
        .map_or_else(|| config.listen.clone(), |a| a.to_string());
    // Only a greeting: with no one reading standard output, serving goes on.
    let _ = writeln!(
        std::io::stdout(),
        "retrochess serve: open http://{addr}/ in a browser (Ctrl-C stops)"
    );
    let http = Arc::new(server);
    let games = Arc::new(Server::new(config.limits, options));
    {
        let games = Arc::clone(&games);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(30));
                let n = games.drop_idle();
                if n > 0 {
                    log::info!("dropped {n} idle game(s)");
                }
            }
        });
    }
    let mut workers = Vec::new();
    for _ in 0..config.threads.max(1) {
        let http = Arc::clone(&http);
        let games = Arc::clone(&games);
        workers.push(std::thread::spawn(move || {
            while let Ok(request) = http.recv() {
                answer(&games, request);
            }
        }));
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// Reads one request (refusing large bodies unread) and sends the answer.
fn answer(games: &Server, mut request: tiny_http::Request) {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let answer = if request.body_length().is_some_and(|n| n > MAX_BODY) {
        Answer::error(
            413,
            &format!("request body too large: the limit is {MAX_BODY} bytes"),
        )
    } else {
        let mut body = Vec::new();
        match request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body)
        {
            Err(e) => Answer::error(400, &format!("cannot read the request body: {e}")),
            Ok(_) if body.len() > MAX_BODY => Answer::error(
                413,
                &format!("request body too large: the limit is {MAX_BODY} bytes"),
            ),
            Ok(_) => match String::from_utf8(body) {
                Err(_) => Answer::error(400, "malformed request: the body is not UTF-8"),
                Ok(body) => games.handle(&Request {
                    method: &method,
                    url: &url,
                    body: &body,
                }),
            },
        }
    };
    log::info!("{method} {url} -> {}", answer.status);
    let mut response = tiny_http::Response::from_data(answer.body)
        .with_status_code(answer.status)
        .with_header(header("Content-Type", answer.content_type));
    for (k, v) in &answer.headers {
        response.add_header(header(k, v));
    }
    if answer.status == 413 {
        // The body was not read: the connection cannot be reused.
        response.add_header(header("Connection", "close"));
    }
    let _ = request.respond(response);
}

fn header(k: &str, v: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes())
        .unwrap_or_else(|_| tiny_http::Header::from_bytes(&b"X-Bad"[..], &b"1"[..]).expect("ascii"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(server: &Server, url: &str, body: &str) -> Answer {
        server.handle(&Request {
            method: "POST",
            url,
            body,
        })
    }

    #[test]
    fn idle_games_are_dropped_and_the_limit_holds() {
        let limits = Limits {
            max_games: 1,
            idle: Duration::from_millis(50),
        };
        let server = Server::new(limits, EngineOptions::default());
        let a = post(&server, "/api/games", "engine=draughts-1k&seed=1");
        assert_eq!(a.status, 201);
        let b = post(&server, "/api/games", "engine=draughts-1k");
        assert_eq!(b.status, 503);
        assert!(String::from_utf8_lossy(&b.body).contains("limit is 1"));
        assert_eq!(server.games(), 1);
        std::thread::sleep(Duration::from_millis(80));
        // The next new game finds the idle one dropped.
        let c = post(&server, "/api/games", "engine=draughts-1k");
        assert_eq!(c.status, 201);
        assert_eq!(server.games(), 1);
        let id = String::from_utf8_lossy(&a.body)
            .split('"')
            .nth(3)
            .unwrap()
            .to_string();
        let gone = server.handle(&Request {
            method: "GET",
            url: &format!("/api/games/{id}"),
            body: "",
        });
        assert_eq!(gone.status, 404);
    }

    #[test]
    fn forms_are_decoded_and_bad_ones_refused() {
        let f = parse_form("engine=1k-zx-chess&move=e2e4&x=a+b%21").unwrap();
        assert_eq!(f["engine"], "1k-zx-chess");
        assert_eq!(f["x"], "a b!");
        assert_eq!(parse_form("a=%zz"), Err(FormError::BadEscape("%zz".into())));
        assert_eq!(parse_form("a=1&a=2"), Err(FormError::Twice("a".into())));
        assert_eq!(parse_form("a=%ff"), Err(FormError::NotUtf8("%ff".into())));
    }
}
