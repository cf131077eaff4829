//! The process transport every external-engine client shares: the
//! subprocess and its pipes, a reader thread with a bounded line length,
//! the transcript (debug log, `>NAME: line` to the engine, `<NAME: line`
//! from it, as cutechess writes it), waits with a timeout, and the end of
//! the process (`quit`, then a kill).
//!
//! The engine's output is read as bytes: text that is not UTF-8 is that
//! line's problem only (its bad bytes become U+FFFD, with a warning in the
//! log), so a stray Latin-1 `é` in an `id author` line costs nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use log::{debug, warn};

use super::launch::LaunchError;
use crate::runner::time_control::MatchClock;
use crate::runner::turn::Lost;

/// The longest line an engine may send, newline excluded. Protocol lines
/// are short (a long `info ... pv` is a few kilobytes); past this the
/// engine is at fault, and the runner's memory stays bounded.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the runner; past them the engine waits on its pipe.
const LINES_AHEAD: usize = 256;
/// How long an engine has to end after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);

/// What the reader thread heard from the engine.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Heard {
    Line(String),
    /// A protocol fault, in words; nothing more is read.
    Fault(String),
}

/// Why a wait ended without the line waited for.
pub(super) enum Wait {
    Closed,
    Timeout,
    Fault(String),
}

/// A running engine process.
pub struct Transport {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Heard>,
}

impl Transport {
    /// Starts `cmd` with `args`, its stdout read on a thread of its own.
    ///
    /// # Errors
    /// The process cannot start.
    pub fn spawn(name: &str, cmd: &str, args: &[String]) -> Result<Transport, LaunchError> {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| LaunchError::Spawn {
                name: name.to_string(),
                cmd: cmd.to_string(),
                error,
            })?;
        let stdin = child.stdin.take().ok_or(LaunchError::NoPipe("stdin"))?;
        let stdout = child.stdout.take().ok_or(LaunchError::NoPipe("stdout"))?;
        let (tx, rx) = mpsc::sync_channel(LINES_AHEAD);
        let tag = name.to_string();
        std::thread::spawn(move || read_lines(stdout, &tx, &tag));
        Ok(Transport {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
        })
    }

    /// The engine's name, as the match shows it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line; `false` if the engine's stdin is gone.
    pub fn send(&mut self, line: &str) -> bool {
        debug!(">{}: {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_ok()
    }

    /// The first line (trimmed), within `timeout`, for which `pick` gives a
    /// value.
    pub(super) fn wait_for<T>(
        &mut self,
        timeout: Duration,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Wait> {
        // A timeout past what an Instant can hold is no timeout.
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let line = match deadline {
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match line {
                Ok(Heard::Line(line)) => {
                    if let Some(v) = pick(line.trim()) {
                        return Ok(v);
                    }
                }
                Ok(Heard::Fault(why)) => return Err(Wait::Fault(why)),
                Err(RecvTimeoutError::Timeout) => return Err(Wait::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Wait::Closed),
            }
        }
    }

    /// Why the handshake step `step` failed.
    pub(super) fn failed(&self, step: &'static str, w: Wait, startup: Duration) -> LaunchError {
        let name = self.name.clone();
        match w {
            Wait::Closed => LaunchError::Exited { name, step },
            Wait::Timeout => LaunchError::Silent {
                name,
                step,
                startup,
            },
            Wait::Fault(why) => LaunchError::Broke(why),
        }
    }

    /// What a failed wait for a move says of the process: it disconnected,
    /// broke the protocol, or stalled past its clock.
    pub(super) fn lost(&self, w: Wait, clock: &MatchClock) -> Lost {
        match w {
            Wait::Closed => self.disconnected(),
            Wait::Fault(why) => Lost::Fault(why),
            Wait::Timeout => Lost::Stalled(match clock.left {
                Some(left) => format!(
                    "{} stalls: no move within its {:.2} s left",
                    self.name,
                    left.as_secs_f64()
                ),
                None => format!("{} stalls", self.name),
            }),
        }
    }

    /// An engine whose stdin is gone.
    pub(super) fn disconnected(&self) -> Lost {
        Lost::Disconnected(format!("{} disconnects", self.name))
    }

    /// Sends `quit`, and kills the process if it has not ended soon after.
    pub fn finish(&mut self) {
        self.send("quit");
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Transport {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Hands the engine's lines to `tx` until its output ends, a line is too
/// long, or nobody listens.
fn read_lines(stdout: impl Read, tx: &SyncSender<Heard>, name: &str) {
    let mut reader = BufReader::new(stdout);
    while let Some(heard) = read_line(&mut reader, name) {
        let fault = matches!(heard, Heard::Fault(_));
        if tx.send(heard).is_err() || fault {
            break;
        }
    }
}

/// The next line (without its `\n` or `\r\n`), or a fault once [`MAX_LINE`]
/// bytes pass without a newline; `None` at the end of the output.
fn read_line(reader: &mut impl BufRead, name: &str) -> Option<Heard> {
    let mut bytes = Vec::new();
    match reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)
    {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > MAX_LINE {
        return Some(Heard::Fault(format!(
            "{name} breaks the protocol: a line longer than {MAX_LINE} bytes"
        )));
    }
    let line = match String::from_utf8(bytes) {
        Ok(line) => line,
        Err(e) => {
            let line = String::from_utf8_lossy(e.as_bytes()).into_owned();
            warn!("{name} sent a line that is not UTF-8 text, read as {line:?}");
            line
        }
    };
    debug!("<{name}: {line}");
    Some(Heard::Line(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_bad_text_is_only_that_lines_problem() {
        let mut input = b"id name Caf\xe9\r\nuciok\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE]);
        input.extend(b"\n");
        input.extend(vec![b'y'; MAX_LINE + 1]);
        input.extend(b"\nnever read\n");
        let mut r = std::io::Cursor::new(input);
        let line = |s: &str| Some(Heard::Line(s.to_string()));
        assert_eq!(read_line(&mut r, "E"), line("id name Caf\u{FFFD}"));
        assert_eq!(read_line(&mut r, "E"), line("uciok"));
        assert_eq!(read_line(&mut r, "E"), line(&"x".repeat(MAX_LINE)));
        assert_eq!(
            read_line(&mut r, "E"),
            Some(Heard::Fault(
                "E breaks the protocol: a line longer than 65536 bytes".into()
            ))
        );
        let mut r = std::io::Cursor::new(b"bestmove e2e4".to_vec());
        assert_eq!(
            read_line(&mut r, "E"),
            line("bestmove e2e4"),
            "no newline at the end"
        );
        assert_eq!(read_line(&mut r, "E"), None);
    }
}
