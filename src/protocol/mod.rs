//! The protocols: UCI and CECP (xboard) for chess, Hub for draughts, as
//! state machines over lines.
//!
//! Each front end ([`uci::Uci`], [`xboard::Xboard`], [`hub::Hub`]) turns one [`Input`] (a
//! line from the GUI, a finished search, a timer) into [`Action`]s (lines
//! back, notes, jobs for the engine). What they share, including the engine
//! worker, lives in [`session`]. The threads and the line transport live
//! here, at the edge ([`serve_on`]; [`serve`] on stdin/stdout): one thread
//! reads the input, one runs the emulated program, and this one feeds the
//! front end and writes the output, so `isready` and `ping` are answered
//! while the program thinks.

pub mod answer;
pub mod clock;
pub mod desk;
pub mod events;
pub mod hub;
pub mod judging;
pub mod prose;
pub mod session;
pub mod settings;
pub mod uci;
pub mod worker;
pub mod xboard;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

use crate::engines::{self, Catalogue, EngineError, EngineOptions, GameKind};
use crate::rules::chess::ChessRules;
use crate::rules::draughts::Draughts;
pub use session::{Action, Input, Job, Settings};

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
        engine: String,
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

/// A protocol front end: a state machine from inputs to actions.
pub trait FrontEnd<R: Catalogue> {
    fn handle(&mut self, input: Input<R>) -> Vec<Action<R>>;
}

impl FrontEnd<ChessRules> for uci::Uci {
    fn handle(&mut self, input: Input<ChessRules>) -> Vec<Action<ChessRules>> {
        uci::Uci::handle(self, input)
    }
}

impl FrontEnd<ChessRules> for xboard::Xboard {
    fn handle(&mut self, input: Input<ChessRules>) -> Vec<Action<ChessRules>> {
        xboard::Xboard::handle(self, input)
    }
}

impl FrontEnd<Draughts> for hub::Hub {
    fn handle(&mut self, input: Input<Draughts>) -> Vec<Action<Draughts>> {
        hub::Hub::handle(self, input)
    }
}

/// Serves `engine` over stdin/stdout until `quit` or end of input.
/// `first_line` is a line already read from stdin (protocol detection).
///
/// # Errors
/// The engine cannot be created or plays another game, or stdout is gone.
pub fn serve(
    protocol: Protocol,
    engine: &str,
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
    engine: &str,
    options: EngineOptions,
    first_line: Option<String>,
    input: I,
    output: O,
) -> Result<(), ProtocolError>
where
    I: BufRead + Send + 'static,
    O: Write,
{
    let entry = engines::entry(engine).ok_or_else(|| EngineError::Unknown(engine.to_string()))?;
    if entry.game != protocol.game() {
        return Err(ProtocolError::WrongGame {
            protocol: protocol.name(),
            engine: engine.to_string(),
        });
    }
    let settings = Settings::from_command_line(&entry, options).map_err(ProtocolError::Option)?;
    let options = settings.engine.clone();
    let info = entry.info;
    let lines = Lines {
        first: first_line,
        input,
        output,
    };
    match protocol {
        Protocol::Uci => run(
            uci::Uci::new(info, settings),
            session::Worker::<ChessRules>::new(engine, &options)?,
            lines,
        ),
        Protocol::Xboard => run(
            xboard::Xboard::new(info, settings),
            session::Worker::<ChessRules>::new(engine, &options)?,
            lines,
        ),
        Protocol::Hub => run(
            hub::Hub::new(info, settings),
            session::Worker::<Draughts>::new(engine, &options)?,
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

/// The edge: one thread reads the input, one runs the engine's jobs, this
/// one feeds the front end and writes the output.
fn run<R, F, I, O>(
    mut front: F,
    mut worker: session::Worker<R>,
    lines: Lines<I, O>,
) -> Result<(), ProtocolError>
where
    R: Catalogue,
    F: FrontEnd<R>,
    I: BufRead + Send + 'static,
    O: Write,
{
    let Lines {
        first: first_line,
        input,
        mut output,
    } = lines;
    let (inputs, rx) = mpsc::channel::<Input<R>>();
    let (jobs, job_rx) = mpsc::channel::<(Job<R>, Instant)>();
    let to_main = inputs.clone();
    thread::spawn(move || {
        for (job, arrived) in job_rx {
            if let Some(input) = worker.run(job, arrived)
                && to_main.send(input).is_err()
            {
                break;
            }
        }
    });
    if let Some(first) = first_line {
        let _ = inputs.send(Input::Line(
            first.trim_end_matches(['\r', '\n']).to_string(),
        ));
    }
    let from_gui = inputs.clone();
    thread::spawn(move || read_lines(input, &from_gui));

    let out = &mut output;
    while let Ok(input) = rx.recv() {
        // Where the deadline of a search this input starts counts from.
        let arrived = Instant::now();
        if let Input::Line(line) = &input {
            log::debug!(">engine: {line}");
        }
        for action in front.handle(input) {
            match action {
                Action::Send(line) => {
                    log::debug!("<engine: {line}");
                    writeln!(out, "{line}")
                        .and_then(|()| out.flush())
                        .map_err(ProtocolError::Stdout)?;
                }
                Action::Note(note) => eprintln!("retrochess: {note}"),
                Action::Job(job) => jobs
                    .send((job, arrived))
                    .map_err(|_| ProtocolError::WorkerGone)?,
                Action::WakeAfter(delay, token) => {
                    let timer = inputs.clone();
                    thread::spawn(move || {
                        thread::sleep(delay);
                        let _ = timer.send(Input::Wake(token));
                    });
                }
                Action::Quit => return Ok(()),
            }
        }
    }
    Ok(())
}

/// Sends every line of `input` to the main thread, then [`Input::Eof`].
/// Bytes that are not UTF-8 are replaced, never fatal.
fn read_lines<R: Catalogue>(mut input: impl BufRead, to_main: &mpsc::Sender<Input<R>>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\r', '\n'])
                    .to_string();
                if to_main.send(Input::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = to_main.send(Input::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line transport is a parameter: a front end served over an
    /// in-memory reader and writer answers as over stdin/stdout.
    #[test]
    fn any_line_transport_serves() {
        let input = io::Cursor::new(b"isready\nquit\nisready\n".to_vec());
        let mut output = Vec::new();
        let first = Some("uci".to_string());
        serve_on(
            Protocol::Uci,
            "1k-zx-chess",
            EngineOptions::default(),
            first,
            input,
            &mut output,
        )
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name 1K ZX Chess"), "{text}");
        assert_eq!(
            lines[lines.len() - 2..],
            ["uciok", "readyok"],
            "nothing after quit: {text}"
        );
        let err = serve_on(
            Protocol::Hub,
            "1k-zx-chess",
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
