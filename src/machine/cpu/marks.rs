//! The addresses where execution returns to the machine before running
//! the instruction there ([`Marks`]).

/// Addresses where execution returns to the machine before running the
/// instruction there, one byte of flags per address of the 64K space, and
/// a version that changes whenever they do.
///
/// They also keep the last few addresses *raised* (marked where none was),
/// so that a CPU which made something for one version (our core's blocks,
/// which run with no look at the marks) can tell whether what changed since
/// concerns it: only a raise can, a mark cleared cannot.
pub struct Marks {
    flags: Box<[u8; 0x10000]>,
    version: u64,
    /// Which marks these are: unique in the process, as versions are.
    id: u64,
    /// The last raises, a ring: (the version the raise made, address).
    raised: [(u64, u16); RAISES_KEPT],
    /// Where the next raise goes in the ring.
    next_raise: usize,
    /// The version of the newest raise no longer in the ring (0: none).
    forgotten: u64,
}

/// How many raises [`Marks`] keep.
const RAISES_KEPT: usize = 8;

/// Versions of marks, unique across every [`Marks`] of the process (a CPU
/// that ran with one set of marks and then another sees them differ).
static MARKS_VERSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_marks_version() -> u64 {
    MARKS_VERSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Marks {
    /// Outside executable RAM: a ROM routine (trapped or not) or a fault.
    pub const ROM: u8 = 1;
    /// A watched address (counted).
    pub const WATCH: u8 = 2;
    /// The breakpoint of the current run.
    pub const BREAK: u8 = 4;
    /// A trap supplied by a driver.
    pub const TRAP: u8 = 8;
    /// The return address of a call made from Rust.
    pub const RETURN: u8 = 16;
    /// A probe: the registers and chosen bytes are copied there.
    pub const PROBE: u8 = 32;

    /// No address marked.
    pub fn new() -> Marks {
        let version = new_marks_version();
        Marks {
            flags: Box::new([0; 0x10000]),
            version,
            id: version,
            raised: [(0, 0); RAISES_KEPT],
            next_raise: 0,
            forgotten: 0,
        }
    }

    /// The flags at `addr`.
    #[inline(always)]
    pub fn at(&self, addr: u16) -> u8 {
        self.flags[usize::from(addr)]
    }

    /// Which marks these are: a number that changes when any flag does.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Which marks these are (the same for every version of them).
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The addresses raised (marked where none was) after `version` of
    /// these marks, some perhaps cleared again since; `None` if the oldest
    /// of them is no longer kept.
    pub fn raised_since(&self, version: u64) -> Option<impl Iterator<Item = u16> + '_> {
        (self.forgotten <= version).then(|| {
            self.raised
                .iter()
                .filter(move |&&(v, _)| v > version)
                .map(|&(_, addr)| addr)
        })
    }

    fn update(&mut self, addr: usize, value: u8) {
        if self.flags[addr] != value {
            let raise = self.flags[addr] == 0;
            self.flags[addr] = value;
            self.version = new_marks_version();
            if raise {
                let slot = &mut self.raised[self.next_raise];
                self.forgotten = self.forgotten.max(slot.0);
                *slot = (self.version, addr as u16);
                self.next_raise = (self.next_raise + 1) % RAISES_KEPT;
            }
        }
    }

    /// Sets `flag` at `addr`.
    pub fn set(&mut self, addr: u16, flag: u8) {
        let a = usize::from(addr);
        self.update(a, self.flags[a] | flag);
    }

    /// Clears `flag` at `addr`.
    pub fn clear(&mut self, addr: u16, flag: u8) {
        let a = usize::from(addr);
        self.update(a, self.flags[a] & !flag);
    }

    /// Sets (`on`) or clears `flag` on the 256 addresses of `page`: one
    /// new version for them all, and raises too many to keep one by one.
    pub fn page(&mut self, page: u8, flag: u8, on: bool) {
        let start = usize::from(page) << 8;
        let (mut changed, mut raised) = (false, false);
        for old in &mut self.flags[start..start + 256] {
            let value = if on { *old | flag } else { *old & !flag };
            changed |= value != *old;
            raised |= *old == 0 && value != 0;
            *old = value;
        }
        if changed {
            self.version = new_marks_version();
        }
        if raised {
            self.forgotten = self.version;
        }
    }
}

impl Default for Marks {
    fn default() -> Self {
        Marks::new()
    }
}
