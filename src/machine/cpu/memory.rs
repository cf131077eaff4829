//! Memory as a program's host sees it ([`Memory`]): reads and writes with
//! no side effects.

/// Memory as a program's host sees it: reads and writes with no side
/// effects (no fault is recorded, no poll noticed). What drivers, traps
/// and loaders use.
pub trait Memory {
    /// Reads a byte (what the CPU would read; ROM without a table reads 0xFF).
    fn peek(&self, addr: u16) -> u8;
    /// Writes a byte where the hardware would (ROM writes are ignored).
    fn poke(&mut self, addr: u16, value: u8);

    /// Reads a little-endian word.
    fn peek16(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.peek(addr), self.peek(addr.wrapping_add(1))])
    }

    /// Writes a little-endian word.
    fn poke16(&mut self, addr: u16, value: u16) {
        let [lo, hi] = value.to_le_bytes();
        self.poke(addr, lo);
        self.poke(addr.wrapping_add(1), hi);
    }

    /// Writes `bytes` from `addr` on, as `poke` each (a bus may note them
    /// as one span of host writes rather than one a byte).
    fn poke_bytes(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.poke(addr.wrapping_add(i as u16), b);
        }
    }
}
