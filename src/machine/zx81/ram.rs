//! The ZX81's RAM as its programs see it: where it starts (0x4000), how
//! much there is (the internal 1K, echoed every 1K, or a 16K pack), and the
//! system variables at its bottom (ZX81 manual, chapter 28).

/// First byte of RAM.
pub const RAM_START: u16 = 0x4000;

/// System variables used here (ZX81 manual, chapter 28).
pub mod sysvar {
    pub const ERR_NR: u16 = 0x4000;
    pub const FLAGS: u16 = 0x4001;
    pub const ERR_SP: u16 = 0x4002;
    pub const RAMTOP: u16 = 0x4004;
    pub const D_FILE: u16 = 0x400C;
    pub const VARS: u16 = 0x4010;
    pub const E_LINE: u16 = 0x4014;
    pub const FRAMES: u16 = 0x4034;
    /// Start of the BASIC program, just after the system variables.
    pub const PROGRAM: u16 = 0x407D;
}

/// How much RAM the machine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ram {
    /// The internal 1K, echoed every 1K.
    #[default]
    K1,
    /// A 16K RAM pack.
    K16,
}

impl Ram {
    /// Bytes of RAM.
    pub fn bytes(self) -> usize {
        match self {
            Ram::K1 => 1024,
            Ram::K16 => 16384,
        }
    }

    /// "1K" or "16K".
    pub fn name(self) -> &'static str {
        match self {
            Ram::K1 => "1K",
            Ram::K16 => "16K",
        }
    }

    /// RAMTOP as the ROM sets it at power-on: the first byte past RAM.
    pub fn top(self) -> u16 {
        RAM_START + self.bytes() as u16
    }
}
