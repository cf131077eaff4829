//! The protocols: UCI and CECP (xboard) for chess, Hub for draughts, as
//! state machines over lines.
//!
//! Each front end ([`uci::Uci`], [`xboard::Xboard`], [`hub::Hub`]) turns one [`Input`] (a
//! line from the GUI, a finished search, a timer) into [`Action`]s (lines
//! back, notes, jobs for the engine). What they share lives beside them,
//! by concern: [`FrontEnd`] (the trait they implement, in front_end.rs),
//! [`events`] (the inputs and actions of their state
//! machines, the worker's jobs and answers), [`worker`] (the engine on its
//! thread), [`settings`] (the options every front end offers), [`clock`]
//! (the deadline that cuts a program still running, the hang guard where no
//! clock limits), [`searches`] (the searches in flight and their held
//! answers), [`answer`] and [`judging`] (a reply judged once), [`prose`]
//! (the words about candidates and the retro detail). The threads and the line transport live
//! here, at the edge ([`serve_on`]; [`serve`] on stdin/stdout): this thread
//! reads each line, hands it to the front end and a job straight to the
//! thread that runs the emulated program, which hands its answer back to
//! the front end itself; `isready` and `ping` are answered while the
//! program thinks.

pub mod answer;
pub mod clock;
pub mod events;
mod front_end;
pub mod hub;
pub mod judging;
pub mod prose;
pub mod searches;
pub mod settings;
#[cfg(test)]
mod testing;
pub mod uci;
pub mod worker;
pub mod xboard;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;
use std::time::Instant;

use crate::engines::{Catalogue, EngineError, EngineOptions, Entry, GameKind};
use crate::rules::Rules;
use crate::rules::chess::ChessRules;
use crate::rules::draughts::Draughts;
use events::{Action, Input, Job};
use settings::Settings;
use worker::Worker;

pub use front_end::FrontEnd;

/// The three protocols, one enum for both sides of them: which one a front
/// end speaks (`retrochess uci|xboard|hub`) and which one an external
/// engine of the match runner speaks (`proto=uci|xboard|hub`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    /// CECP, the xboard/WinBoard protocol (version 2).
    Xboard,
    Hub,
}

impl Protocol {
    /// The protocol a GUI speaks, from its first line (`uci`, `xboard` or
    /// `hub`), as PolyGlot detects it.
    pub fn detect(first_line: &str) -> Option<Protocol> {
        match first_line.split_whitespace().next()? {
            "uci" => Some(Protocol::Uci),
            "xboard" => Some(Protocol::Xboard),
            "hub" => Some(Protocol::Hub),
            _ => None,
        }
    }

    /// The game the protocol is for.
    pub fn game(self) -> GameKind {
        match self {
            Protocol::Uci | Protocol::Xboard => GameKind::Chess,
            Protocol::Hub => GameKind::Draughts,
        }
    }

    /// Its name in prose (`UCI`, `CECP`, `Hub`).
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "UCI",
            Protocol::Xboard => "CECP",
            Protocol::Hub => "Hub",
        }
    }

    /// The name an external engine's `proto=` takes (`uci`, `xboard`,
    /// `hub`).
    pub fn spec_name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
            Protocol::Hub => "hub",
        }
    }
}

/// A `proto=` that names no protocol we speak (as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProtocol(pub String);

impl std::fmt::Display for UnknownProtocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown protocol {:?}: uci, xboard or hub", self.0)
    }
}

impl std::error::Error for UnknownProtocol {}

/// `proto=`: `uci`, `xboard` or `cecp`, `hub`.
impl std::str::FromStr for Protocol {
    type Err = UnknownProtocol;

    fn from_str(s: &str) -> Result<Protocol, UnknownProtocol> {
        match s {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" => Ok(Protocol::Xboard),
            "hub" => Ok(Protocol::Hub),
            other => Err(UnknownProtocol(other.to_string())),
        }
    }
}

/// Why serving stopped or could not start.
#[derive(Debug)]
pub enum ProtocolError {
    /// The engine cannot be created.
    Engine(EngineError),
    /// The engine plays another game than the protocol speaks of.
    WrongGame {
        protocol: &'static str,
        engine: &'static str,
    },
    /// The output (standard output) is gone.
    Stdout(io::Error),
    /// The engine's thread ended.
    WorkerGone,
    /// A front end's own option given on the command line
    /// (`--option IllegalMoves=maybe`) refused its value.
    Option(settings::PresetError),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Engine(e) => e.fmt(f),
            ProtocolError::WrongGame { protocol, engine } => {
                write!(f, "{engine} does not play the game {protocol} is for")
            }
            ProtocolError::Stdout(e) => write!(f, "stdout: {e}"),
            ProtocolError::WorkerGone => write!(f, "the engine thread is gone"),
            ProtocolError::Option(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<EngineError> for ProtocolError {
    fn from(e: EngineError) -> Self {
        ProtocolError::Engine(e)
    }
}

/// Serves `engine` over stdin/stdout until `quit` or end of input.
/// `first_line` is a line already read from stdin (protocol detection).
///
/// # Errors
/// The engine cannot be created or plays another game, or stdout is gone.
pub fn serve(
    protocol: Protocol,
    engine: &'static Entry,
    options: EngineOptions,
    first_line: Option<String>,
) -> Result<(), ProtocolError> {
    let input = io::BufReader::new(io::stdin());
    serve_on(protocol, engine, options, first_line, input, io::stdout())
}

/// Serves `engine` over any line transport: lines are read from `input`
/// (until `quit` or its end) and written, each with its `\n` and flushed,
/// to `output`. stdin/stdout is one transport ([`serve`]); a socket, or
/// the two ends of an HTTP exchange, are others.
///
/// # Errors
/// The engine cannot be created or plays another game, or `output` fails.
pub fn serve_on<I, O>(
    protocol: Protocol,
    engine: &'static Entry,
    options: EngineOptions,
    first_line: Option<String>,
    input: I,
    output: O,
) -> Result<(), ProtocolError>
where
    I: BufRead,
    O: Write + Send + 'static,
{
    if engine.game != protocol.game() {
        return Err(ProtocolError::WrongGame {
            protocol: protocol.name(),
            engine: engine.info.id,
        });
    }
    let settings = Settings::from_command_line(engine, options).map_err(ProtocolError::Option)?;
    let options = settings.engine.clone();
    let info = engine.info;
    let lines = Lines {
        first: first_line,
        input,
        output,
    };
    match protocol {
        Protocol::Uci => run(
            uci::Uci::new(info, settings),
            Worker::<ChessRules>::new(engine, &options)?,
            lines,
        ),
        Protocol::Xboard => run(
            xboard::Xboard::new(info, settings),
            Worker::<ChessRules>::new(engine, &options)?,
            lines,
        ),
        Protocol::Hub => run(
            hub::Hub::new(info, settings),
            Worker::<Draughts>::new(engine, &options)?,
            lines,
        ),
    }
}

/// A line transport: a line already read, where the rest come from, where
/// the answers go.
struct Lines<I, O> {
    first: Option<String>,
    input: I,
    output: O,
}

/// What the threads of a session share, one at a time: the front end, the
/// output, and the way to the engine's thread (gone after `quit`).
struct Shared<F, O, R: Rules> {
    front: F,
    output: O,
    jobs: Option<mpsc::Sender<(Job<R>, Instant)>>,
    /// The output failed (on whichever thread wrote).
    failed: Option<io::Error>,
}

/// Whether the session goes on after an input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Go,
    Quit,
}

/// The edge. The thread that reads a line hands it to the front end and
/// any job straight to the engine's thread: one hand-off from `go` to the
/// search. The engine's thread hands each finished job back to the front
/// end itself, and a timer its wake; the front end and the output are
/// shared under a lock, never held while the program thinks, so `isready`
/// and `ping` are answered meanwhile.
fn run<R, F, I, O>(front: F, mut worker: Worker<R>, lines: Lines<I, O>) -> Result<(), ProtocolError>
where
    R: Catalogue,
    F: FrontEnd<R> + Send + 'static,
    I: BufRead,
    O: Write + Send + 'static,
{
    let Lines {
        first,
        mut input,
        output,
    } = lines;
    let (jobs, job_rx) = mpsc::channel::<(Job<R>, Instant)>();
    let shared = Arc::new(Mutex::new(Shared {
        front,
        output,
        jobs: Some(jobs),
        failed: None,
    }));
    let engine_side = Arc::clone(&shared);
    thread::spawn(move || {
        for (job, arrived) in job_rx {
            // An output error is the reader's to report, at its next line.
            if let Some(input) = worker.run(job, arrived)
                && !matches!(feed(&engine_side, input), Ok(Next::Go))
            {
                break;
            }
        }
    });
    if let Some(first) = first {
        let line = first.trim_end_matches(['\r', '\n']).to_string();
        if feed(&shared, Input::Line(line))? == Next::Quit {
            return Ok(());
        }
    }
    while let Some(line) = read_line(&mut input) {
        if feed(&shared, Input::Line(line))? == Next::Quit {
            return Ok(());
        }
    }
    feed(&shared, Input::Eof).map(|_| ())
}

/// Hands one input to the front end and carries out its actions: notes,
/// jobs to the engine's thread (stamped now: a search's deadline counts
/// from its command's arrival), timers, then the lines out in one write.
/// After `quit` nothing more is done.
fn feed<R, F, O>(
    shared: &Arc<Mutex<Shared<F, O, R>>>,
    input: Input<R>,
) -> Result<Next, ProtocolError>
where
    R: Catalogue,
    F: FrontEnd<R> + Send + 'static,
    O: Write + Send + 'static,
{
    let arrived = Instant::now();
    let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
    let state = &mut *guard;
    if let Some(e) = state.failed.take() {
        return Err(ProtocolError::Stdout(e));
    }
    let Some(jobs) = state.jobs.clone() else {
        return Ok(Next::Quit);
    };
    if let Input::Line(line) = &input {
        log::debug!(">engine: {line}");
    }
    let searched = matches!(input, Input::Searched(_));
    // The lines one input gives go out in one write: each write wakes the
    // GUI, and a GUI woken by the first of an answer's lines may take the
    // CPU from this thread before the last, the move, is written
    // (docs/protocols.md, "From `go` to the search, and back").
    let mut lines = String::new();
    let mut next = Ok(Next::Go);
    for action in state.front.handle(input) {
        match action {
            Action::Send(line) => {
                log::debug!("<engine: {line}");
                lines.push_str(&line);
                lines.push('\n');
            }
            Action::Note(note) => eprintln!("retrochess: {note}"),
            Action::Debug(line) => log::debug!("{line}"),
            Action::Job(job) => {
                if jobs.send((job, arrived)).is_err() {
                    // The lines so far still go out.
                    next = Err(ProtocolError::WorkerGone);
                    break;
                }
            }
            Action::WakeAfter(delay, token) => {
                let timer = Arc::clone(shared);
                thread::spawn(move || {
                    thread::sleep(delay);
                    let _ = feed(&timer, Input::Wake(token));
                });
            }
            Action::Quit => {
                state.jobs = None;
                next = Ok(Next::Quit);
                break;
            }
        }
    }
    if searched {
        worker::answer_timing();
    }
    if !lines.is_empty()
        && let Err(e) = state
            .output
            .write_all(lines.as_bytes())
            .and_then(|()| state.output.flush())
    {
        // The session is over; the reader's thread learns why at its next
        // line.
        state.jobs = None;
        state.failed = Some(io::Error::new(e.kind(), e.to_string()));
        return Err(ProtocolError::Stdout(e));
    }
    next
}

/// The next line of `input`, without its line ending; `None` at its end
/// or on a read error. Bytes that are not UTF-8 are replaced, never fatal.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(
            String::from_utf8_lossy(&buf)
                .trim_end_matches(['\r', '\n'])
                .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output the test reads after the session's threads wrote to it.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(bytes)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The line transport is a parameter: a front end served over an
    /// in-memory reader and writer answers as over stdin/stdout.
    #[test]
    fn any_line_transport_serves() {
        let input = io::Cursor::new(b"isready\nquit\nisready\n".to_vec());
        let output = Buffer::default();
        let first = Some("uci".to_string());
        serve_on(
            Protocol::Uci,
            crate::engines::find("1k-zx-chess").unwrap(),
            EngineOptions::default(),
            first,
            input,
            output.clone(),
        )
        .unwrap();
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name 1K ZX Chess"), "{text}");
        assert_eq!(
            lines[lines.len() - 2..],
            ["uciok", "readyok"],
            "nothing after quit: {text}"
        );
        let err = serve_on(
            Protocol::Hub,
            crate::engines::find("1k-zx-chess").unwrap(),
            EngineOptions::default(),
            None,
            io::Cursor::new(Vec::new()),
            Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "1k-zx-chess does not play the game Hub is for"
        );
    }
}
