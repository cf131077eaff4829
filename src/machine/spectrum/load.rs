//! A program for a fresh 48K Spectrum from a file's bytes, its format
//! (`.tap`, `.sna`, `.z80`) told by content and size, not by a file name.

use super::Spectrum48;
use super::snapshot;
use super::tap;
use crate::machine::MachineError;

impl Spectrum48 {
    /// Loads a tape or a snapshot, telling the format by content and size,
    /// not by a file name: a `.tap` whose blocks chain exactly to its end
    /// with good checksums, else a `.sna` (exactly 49,179 bytes), else a
    /// `.z80`.
    ///
    /// # Errors
    /// [`MachineError::BadTape`]: the loader's error for the format
    /// recognised, or, if none is, why it is none of the three.
    pub fn load(bytes: &[u8]) -> Result<Spectrum48, MachineError> {
        let tap = match tap::tap_blocks(bytes) {
            Ok(_) => return Spectrum48::load_tap(bytes),
            Err(MachineError::BadTape(why)) => why,
            Err(e) => return Err(e),
        };
        if bytes.len() == snapshot::SNA_LEN {
            return Spectrum48::load_sna(bytes);
        }
        Spectrum48::load_z80(bytes).map_err(|z80| {
            MachineError::BadTape(format!(
                "neither a .tap ({tap}), a .sna ({} bytes, not {}) nor a .z80 ({})",
                bytes.len(),
                snapshot::SNA_LEN,
                z80.to_string().trim_start_matches("bad tape: ")
            ))
        })
    }
}
