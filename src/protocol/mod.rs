//! The chess protocols: UCI and CECP (xboard), as state machines over lines.
//!
//! Each front end ([`uci::Uci`], [`xboard::Xboard`]) turns one [`Input`] (a
//! line from the GUI, a finished search, a timer) into [`Action`]s (lines
//! back, notes, jobs for the engine). What they share, including the engine
//! worker, lives in [`session`]. The threads and stdin/stdout live here, at
//! the edge ([`serve`]): one thread reads stdin, one runs the emulated
//! program, and this one feeds the front end and writes stdout, so `isready`
//! and `ping` are answered while the program thinks.

pub mod session;
pub mod uci;
pub mod xboard;

use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;

use crate::engines::{self, EngineError, EngineOptions};
pub use session::{Action, Input, Job};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

impl Protocol {
    /// The protocol a GUI speaks, from its first line (`uci` or `xboard`), as
    /// PolyGlot detects it.
    pub fn detect(first_line: &str) -> Option<Protocol> {
        match first_line.split_whitespace().next()? {
            "uci" => Some(Protocol::Uci),
            "xboard" => Some(Protocol::Xboard),
            _ => None,
        }
    }
}

/// A protocol front end: a state machine from inputs to actions.
pub trait FrontEnd {
    fn handle(&mut self, input: Input) -> Vec<Action>;
}

impl FrontEnd for uci::Uci {
    fn handle(&mut self, input: Input) -> Vec<Action> {
        uci::Uci::handle(self, input)
    }
}

impl FrontEnd for xboard::Xboard {
    fn handle(&mut self, input: Input) -> Vec<Action> {
        xboard::Xboard::handle(self, input)
    }
}

/// Serves `engine` over stdin/stdout until `quit` or end of input.
/// `first_line` is a line already read from stdin (protocol detection).
///
/// # Errors
/// The engine cannot be created, or stdout is gone.
pub fn serve(
    protocol: Protocol,
    engine: &str,
    options: EngineOptions,
    first_line: Option<String>,
) -> Result<(), String> {
    let info = engines::info(engine)
        .ok_or_else(|| EngineError::Unknown(engine.to_string()).to_string())?;
    let mut worker = session::Worker::new(engine, &options)?;
    let mut front: Box<dyn FrontEnd> = match protocol {
        Protocol::Uci => Box::new(uci::Uci::new(info, options)),
        Protocol::Xboard => Box::new(xboard::Xboard::new(info, options)),
    };

    let (inputs, rx) = mpsc::channel::<Input>();
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let to_main = inputs.clone();
    thread::spawn(move || {
        for job in job_rx {
            if let Some(input) = worker.run(job)
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
    thread::spawn(move || read_lines(&from_gui));

    let stdout = io::stdout();
    let mut out = stdout.lock();
    while let Ok(input) = rx.recv() {
        if let Input::Line(line) = &input {
            log::debug!(">engine: {line}");
        }
        for action in front.handle(input) {
            match action {
                Action::Send(line) => {
                    log::debug!("<engine: {line}");
                    writeln!(out, "{line}")
                        .and_then(|()| out.flush())
                        .map_err(|e| format!("stdout: {e}"))?;
                }
                Action::Note(note) => eprintln!("retrochess: {note}"),
                Action::Job(job) => jobs
                    .send(job)
                    .map_err(|_| "the engine thread is gone".to_string())?,
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

/// Sends every stdin line to the main thread, then [`Input::Eof`]. Bytes
/// that are not UTF-8 are replaced, never fatal.
fn read_lines(to_main: &mpsc::Sender<Input>) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
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
