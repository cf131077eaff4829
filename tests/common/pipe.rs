//! Drives the real `retrochess` binary over pipes, for the UCI and CECP
//! integration tests (`common::pipe`, in every test crate through
//! `common`).
//! Every line both ways is kept, and a failed expectation prints the
//! transcript with direction, as cutechess logs it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A UCI session with `engine`, past `uciok`.
pub fn uci(engine: &str) -> Engine {
    let mut e = Engine::start(&["uci", "--engine", engine]);
    e.send("uci");
    e.until_prefix("uciok");
    e
}

/// `N` of a cut's "cut N ms after the command" (src/protocol/searches.rs).
pub fn cut_after_ms(text: &str) -> Option<u128> {
    let (_, rest) = text.split_once("cut ")?;
    rest.split_once(" ms after the command")?.0.parse().ok()
}

/// A running `retrochess` with pipes on stdin and stdout.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
    stderr: Receiver<String>,
}

impl Engine {
    /// Starts `retrochess ARGS`.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_retrochess"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start retrochess");
        let stdout = child.stdout.take().expect("stdout");
        let errout = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(errout).lines() {
                let Ok(line) = line else { break };
                if etx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            stderr,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">engine: {line}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .expect("write to retrochess");
    }

    /// Sends raw bytes (garbage tests).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(">engine: {bytes:?}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .expect("write to retrochess");
    }

    /// Reads lines until one satisfies `done`; returns them all, that one
    /// last. Panics with the transcript after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("<engine: {line}"));
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out after {timeout:?}\n{}", self.transcript())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("retrochess closed stdout\n{}", self.transcript())
                }
            }
        }
    }

    /// Reads until a line starting with `prefix`; returns all lines read.
    pub fn until_prefix(&mut self, prefix: &str) -> Vec<String> {
        let p = prefix.to_string();
        self.until(Duration::from_secs(20), move |l| l.starts_with(&p))
    }

    /// Lines that arrive within `wait` (for "nothing is sent" checks).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.transcript.push(format!("<engine: {line}"));
            got.push(line);
        }
        got
    }

    /// What the engine wrote on stderr so far.
    pub fn stderr(&mut self) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(line) = self.stderr.recv_timeout(Duration::from_millis(50)) {
            got.push(line);
        }
        got
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.transcript.push(">engine: <EOF>".to_string());
        self.stdin = None;
    }

    /// Waits for the process to end; panics after `timeout`.
    pub fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "retrochess did not exit within {timeout:?}\n{}",
                    self.transcript()
                );
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs a python-chess interop script (`tests/peers/NAME`) against the
/// built binary: `PYTHON SCRIPT BINARY ARGS...` (see `common::python_chess`).
/// Fails the test if python or python-chess is missing (never skipped), if
/// the script fails, or if it did not report `games` finished games ("game
/// ..." lines). Returns stdout.
pub fn python_chess_games(script: &str, args: &[&str], games: usize) -> String {
    let path = format!("{}/tests/peers/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(crate::common::python_chess())
        .arg(&path)
        .arg(env!("CARGO_BIN_EXE_retrochess"))
        .args(args)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "{script} {args:?}: python-chess interop failed:\n{stdout}\n{stderr}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        games,
        "{stdout}"
    );
    stdout
}
