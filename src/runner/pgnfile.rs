//! The match's PGN file. Games are appended whole and in game order, so the
//! same seed and arguments give the same file byte for byte. A finished game
//! that waits behind a slower earlier one is kept meanwhile in a journal
//! beside the file (`FILE.journal`, regular files only), so a match killed
//! outright loses only its games in flight: the next match opening the same
//! file appends the journal's games first, in game order.
//!
//! Each record goes out in one write of a complete buffer; if that write
//! fails (a full disk), the file is cut back to the end of its last whole
//! record, so no reader ever sees a record cut mid-header.
//!
//! Journal entries are PGN too: each record follows a `% retrochess game N`
//! line, PGN's escape mechanism (a `%` line is skipped by readers).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const ENTRY: &str = "% retrochess game ";

/// Why the PGN file or its journal could not be used.
#[derive(Debug)]
pub enum PgnFileError {
    /// `path` could not be opened, read or removed.
    Access { path: PathBuf, error: io::Error },
    /// `path` could not be written (the PGN file is cut back to its last
    /// whole record).
    Write { path: PathBuf, error: io::Error },
}

impl PgnFileError {
    fn access(path: &Path) -> impl Fn(io::Error) -> PgnFileError + '_ {
        move |error| PgnFileError::Access {
            path: path.to_path_buf(),
            error,
        }
    }

    fn write(path: &Path) -> impl Fn(io::Error) -> PgnFileError + '_ {
        move |error| PgnFileError::Write {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for PgnFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnFileError::Access { path, error } => write!(f, "{}: {error}", path.display()),
            PgnFileError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for PgnFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PgnFileError::Access { error, .. } | PgnFileError::Write { error, .. } => Some(error),
        }
    }
}

/// A PGN file open for a match.
#[derive(Debug)]
pub struct PgnFile {
    file: File,
    path: PathBuf,
    /// `None` where the PGN is no regular file (a pipe, a device).
    journal: Option<PathBuf>,
    /// The file's length up to the end of its last whole record.
    whole: u64,
    /// Index (0-based) of the next game to write.
    next: usize,
    /// Finished games waiting for an earlier one, by index.
    waiting: BTreeMap<usize, String>,
    /// Records of this match written so far.
    written: usize,
}

impl PgnFile {
    /// Opens `path` for appending; games a killed match left in its journal
    /// are appended first. Returns the file and how many games it recovered.
    ///
    /// # Errors
    /// The file or its journal cannot be opened, read or written.
    pub fn open(path: &Path) -> Result<(PgnFile, usize), PgnFileError> {
        let fail = PgnFileError::access(path);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(&fail)?;
        let meta = file.metadata().map_err(&fail)?;
        let journal = meta.is_file().then(|| {
            let mut name = path.as_os_str().to_owned();
            name.push(".journal");
            PathBuf::from(name)
        });
        let mut out = PgnFile {
            file,
            path: path.to_path_buf(),
            journal,
            whole: meta.len(),
            next: 0,
            waiting: BTreeMap::new(),
            written: 0,
        };
        let recovered = out.recover()?;
        out.written = 0;
        Ok((out, recovered))
    }

    /// The game at `index` (0-based, in game order) finished as `text`:
    /// written now if every earlier game is, otherwise journaled.
    ///
    /// # Errors
    /// A write failed; the file ends with its last whole record.
    pub fn add(&mut self, index: usize, text: String) -> Result<(), PgnFileError> {
        if index != self.next {
            self.journal_append(index, &text)?;
            self.waiting.insert(index, text);
            return Ok(());
        }
        self.append(&text)?;
        self.next += 1;
        let drained = !self.waiting.is_empty();
        while let Some(text) = self.waiting.remove(&self.next) {
            if let Err(e) = self.append(&text) {
                self.waiting.insert(self.next, text);
                return Err(e);
            }
            self.next += 1;
        }
        if drained {
            self.journal_rewrite()?;
        }
        Ok(())
    }

    /// Writes every game still waiting, in game order, past the gaps of
    /// games that never finished (the match was stopped), and removes the
    /// journal. Returns how many it wrote.
    ///
    /// # Errors
    /// A write failed; the file ends with its last whole record.
    pub fn flush_waiting(&mut self) -> Result<usize, PgnFileError> {
        let mut written = 0;
        while let Some((&index, _)) = self.waiting.first_key_value() {
            let text = self.waiting.remove(&index).unwrap_or_default();
            if let Err(e) = self.append(&text) {
                self.waiting.insert(index, text);
                return Err(e);
            }
            self.next = index + 1;
            written += 1;
        }
        self.journal_rewrite()?;
        Ok(written)
    }

    /// How many games of this match are in the file.
    pub fn written(&self) -> usize {
        self.written
    }

    /// One whole record in one write; on failure, the file is cut back.
    fn append(&mut self, text: &str) -> Result<(), PgnFileError> {
        match self.file.write_all(text.as_bytes()) {
            Ok(()) => {
                self.whole += text.len() as u64;
                self.written += 1;
                Ok(())
            }
            Err(e) => {
                // A device (/dev/full) cannot be cut, and needs not be.
                let _ = self.file.set_len(self.whole);
                Err(PgnFileError::write(&self.path)(e))
            }
        }
    }

    fn journal_append(&self, index: usize, text: &str) -> Result<(), PgnFileError> {
        let Some(journal) = &self.journal else {
            return Ok(());
        };
        let fail = PgnFileError::write(journal);
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(journal)
            .map_err(&fail)?;
        f.write_all(entry(index, text).as_bytes()).map_err(&fail)
    }

    /// The journal anew from `waiting` (by a rename, so a kill leaves the
    /// old one or the new one), or gone if nothing waits.
    fn journal_rewrite(&self) -> Result<(), PgnFileError> {
        let Some(journal) = &self.journal else {
            return Ok(());
        };
        let fail = PgnFileError::write(journal);
        if self.waiting.is_empty() {
            return match std::fs::remove_file(journal) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(fail(e)),
                _ => Ok(()),
            };
        }
        let text: String = self.waiting.iter().map(|(&i, t)| entry(i, t)).collect();
        let mut tmp = journal.clone().into_os_string();
        tmp.push(".tmp");
        std::fs::write(&tmp, text).map_err(&fail)?;
        std::fs::rename(&tmp, journal).map_err(&fail)
    }

    /// Appends the games a killed match left in the journal, in game order,
    /// skipping any it had already written (a kill between the write and
    /// the journal's update), then removes the journal.
    fn recover(&mut self) -> Result<usize, PgnFileError> {
        let Some(journal) = self.journal.clone() else {
            return Ok(0);
        };
        let text = match std::fs::read_to_string(&journal) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(PgnFileError::access(&journal)(e)),
        };
        let tail = self.tail(text.len() as u64)?;
        let mut entries = entries(&text);
        entries.sort_by_key(|&(i, _)| i);
        let mut recovered = 0;
        for (_, record) in entries {
            if !tail.contains(record) {
                self.append(record)?;
                recovered += 1;
            }
        }
        std::fs::remove_file(&journal).map_err(PgnFileError::access(&journal))?;
        Ok(recovered)
    }

    /// The last `n` bytes of the file (fewer if it is shorter), as text.
    fn tail(&self, n: u64) -> Result<String, PgnFileError> {
        let fail = PgnFileError::access(&self.path);
        let mut f = File::open(&self.path).map_err(&fail)?;
        f.seek(SeekFrom::Start(self.whole.saturating_sub(n)))
            .map_err(&fail)?;
        let mut bytes = Vec::new();
        f.take(n).read_to_end(&mut bytes).map_err(&fail)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

fn entry(index: usize, text: &str) -> String {
    format!("{ENTRY}{}\n{text}", index + 1)
}

/// The journal's entries: game index and record.
fn entries(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(ENTRY) {
        let after = &rest[start + ENTRY.len()..];
        let Some((number, body)) = after.split_once('\n') else {
            break;
        };
        let end = body
            .find(&format!("\n{ENTRY}"))
            .map_or(body.len(), |e| e + 1);
        if let Ok(n) = number.trim().parse::<usize>()
            && n > 0
        {
            out.push((n - 1, &body[..end]));
        }
        rest = &body[end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(n: usize) -> String {
        format!("[Event \"game {n}\"]\n\n1. e4 *\n\n")
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("retrochess-pgnfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = std::fs::remove_file(&p);
        let _ = std::fs::remove_file(dir.join(format!("{name}.journal")));
        p
    }

    #[test]
    fn games_are_written_in_game_order_and_journaled_meanwhile() {
        let path = temp("order.pgn");
        let journal = path.with_extension("pgn.journal");
        let (mut f, recovered) = PgnFile::open(&path).unwrap();
        assert_eq!(recovered, 0);
        f.add(2, record(3)).unwrap();
        f.add(1, record(2)).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        let j = std::fs::read_to_string(&journal).unwrap();
        assert_eq!(
            entries(&j),
            [(2, record(3).as_str()), (1, record(2).as_str())]
        );
        f.add(0, record(1)).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            record(1) + &record(2) + &record(3)
        );
        assert!(!journal.exists(), "nothing waits: no journal");
    }

    #[test]
    fn a_stop_writes_the_finished_games_past_the_gaps() {
        let path = temp("stop.pgn");
        let (mut f, _) = PgnFile::open(&path).unwrap();
        f.add(3, record(4)).unwrap();
        f.add(1, record(2)).unwrap();
        assert_eq!(f.flush_waiting().unwrap(), 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            record(2) + &record(4)
        );
        assert!(!path.with_extension("pgn.journal").exists());
    }

    #[test]
    fn a_killed_match_leaves_a_journal_the_next_one_appends_once() {
        let path = temp("killed.pgn");
        let journal = path.with_extension("pgn.journal");
        std::fs::write(&path, record(1) + &record(2)).unwrap();
        // Game 2 was written before the kill, the journal not yet updated.
        std::fs::write(
            &journal,
            entry(3, &record(4)) + &entry(1, &record(2)) + &entry(2, &record(3)),
        )
        .unwrap();
        let (_, recovered) = PgnFile::open(&path).unwrap();
        assert_eq!(recovered, 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            record(1) + &record(2) + &record(3) + &record(4)
        );
        assert!(!journal.exists());
    }
}
