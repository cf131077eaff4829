//! The 48K Spectrum's memory map as its programs see it: the ROM's entry
//! points they call (performed in Rust by [`super::rom`]) and what those
//! cost, the interrupt vector, the RAM, where BASIC goes, the system
//! variables. Facts from the ZX Spectrum manual (chapter 24, "The memory";
//! chapter 25, the system variables) and the ROM's disassembly.

/// ROM `RST 16` (PRINT-A).
pub const PRINT_A: u16 = 0x0010;
/// ROM CL-ALL, the routine BASIC's CLS calls (3503).
pub const CL_ALL: u16 = 0x0DAF;
/// ROM CHAN-OPEN.
pub const CHAN_OPEN: u16 = 0x1601;
/// ROM PRINT-OUT, the output routine of channels K, S and P: where `RST 16`
/// ends up through the current channel's record.
pub const PRINT_OUT: u16 = 0x09F4;

/// Estimates for the trapped routines, charged so that budgets and benches
/// see them; rounded, not counted.
pub(super) const PRINT_TSTATES: u64 = 400;
pub(super) const CLS_TSTATES: u64 = 100_000;
pub(super) const CHAN_OPEN_TSTATES: u64 = 300;

/// The IM 1 interrupt vector.
pub const IRQ_VECTOR: u16 = 0x0038;

/// First byte of RAM.
pub const RAM_START: u16 = 0x4000;
/// Size of the RAM.
pub const RAM_SIZE: usize = 0xC000;
/// Where the ROM puts a BASIC program (PROG on a machine without
/// microdrives).
pub const BASIC_START: u16 = 0x5CCB;

/// System variables used here (ZX Spectrum manual, chapter 25).
pub mod sysvar {
    pub const LAST_K: u16 = 23560;
    pub const FLAGS: u16 = 23611;
    pub const TV_FLAG: u16 = 23612;
    pub const ERR_SP: u16 = 23613;
    pub const FRAMES: u16 = 23672;
    pub const S_POSN: u16 = 23688;
    pub const DF_CC: u16 = 23684;
    pub const ATTR_P: u16 = 23693;
    pub const P_FLAG: u16 = 23697;
    pub const RAMTOP: u16 = 23730;
    pub const P_RAMT: u16 = 23732;
    /// Stream table: 7 offsets (streams −3..3) into the channel area.
    pub const STRMS: u16 = 23568;
    /// Start of the channel area (5 bytes per channel).
    pub const CHANS: u16 = 23631;
    /// The channel in use: `RST 16` jumps to its output address.
    pub const CURCHL: u16 = 23633;
    /// IY always points here while the ROM is in charge.
    pub const IY_BASE: u16 = 0x5C3A;
}
