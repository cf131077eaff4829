//! Reading a tape or snapshot file, with a bound on its size
//! ([`read_tape`]).

use std::io::Read;
use std::path::Path;

use super::error::MachineError;

/// The largest tape or snapshot file read: 1 MiB, twenty times a 48K
/// snapshot (a file of the programs here is at most 49,179 bytes).
pub const MAX_TAPE_BYTES: u64 = 1 << 20;

/// Reads a tape or snapshot file, refusing one larger than
/// [`MAX_TAPE_BYTES`] (or endless, as `/dev/zero`) without reading it all.
///
/// # Errors
/// [`MachineError::Io`] if the file cannot be read, [`MachineError::BadTape`]
/// if it is too large to be a tape.
pub fn read_tape(path: &Path) -> Result<Vec<u8>, MachineError> {
    let io = |e: std::io::Error| MachineError::Io(format!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TAPE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_TAPE_BYTES {
        return Err(MachineError::BadTape(format!(
            "{}: more than {MAX_TAPE_BYTES} bytes, too large for a tape or snapshot",
            path.display()
        )));
    }
    Ok(bytes)
}
