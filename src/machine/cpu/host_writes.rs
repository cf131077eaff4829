//! The cells a bus has had written by its host since the CPU last asked
//! ([`HostWrites`]).

/// The cells a bus has had written by its host since the CPU last asked
/// (see [`Bus::take_host_writes`](super::Bus::take_host_writes)), as at
/// most [`HostWrites::SPANS`] spans that cover every cell written (and may
/// cover some that were not). A new bus starts with every cell written:
/// nothing the CPU decoded before can be trusted on it.
///
/// Several spans, not one: a driver's writes between two moves fall on
/// either side of the program (the board below it, a return address on
/// the stack above it), and one span over them would cover the program's
/// code too, which would then be decoded afresh for every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostWrites {
    /// The first `len` are the spans (`first..=last`).
    spans: [(u16, u16); HostWrites::SPANS + 1],
    len: u8,
}

impl Default for HostWrites {
    fn default() -> Self {
        HostWrites::ALL
    }
}

impl HostWrites {
    /// The most spans kept: when a write would make one more, the two
    /// nearest each other become one.
    pub const SPANS: usize = 8;

    /// Writes this far apart or closer (in cells) go into one span.
    const NEAR: u16 = 16;

    /// Every cell written.
    pub const ALL: HostWrites = HostWrites {
        spans: [(0, 0xFFFF); HostWrites::SPANS + 1],
        len: 1,
    };

    /// No cell written.
    pub const NONE: HostWrites = HostWrites {
        spans: [(0, 0); HostWrites::SPANS + 1],
        len: 0,
    };

    /// Notes that the host wrote `cell`.
    #[inline]
    pub fn note(&mut self, cell: u16) {
        self.span(cell, cell);
    }

    /// Notes that the host wrote the cells `first..=last`.
    pub fn span(&mut self, first: u16, last: u16) {
        let len = usize::from(self.len);
        // Most writes come in runs within a span already there (a program
        // loaded, a screen drawn): the one written last is looked at first
        // (kept at the end).
        if let Some(&(lo, hi)) = self.spans[..len].last()
            && lo <= first
            && last <= hi
        {
            return;
        }
        let near = |&(lo, hi): &(u16, u16)| {
            first <= hi.saturating_add(Self::NEAR) && lo <= last.saturating_add(Self::NEAR)
        };
        if let Some(k) = self.spans[..len].iter().position(near) {
            let s = &mut self.spans[k];
            *s = (s.0.min(first), s.1.max(last));
            self.spans.swap(k, len - 1);
            return;
        }
        self.spans[len] = (first, last);
        if len < Self::SPANS {
            self.len += 1;
            return;
        }
        // One too many: join the two nearest (in order of their starts,
        // the gap between one's end and the next one's start).
        let spans = &mut self.spans;
        spans.sort_unstable();
        let gap = |i: usize| spans[i + 1].0.saturating_sub(spans[i].1);
        let i = (0..Self::SPANS).min_by_key(|&i| gap(i)).unwrap_or(0);
        spans[i] = (spans[i].0, spans[i].1.max(spans[i + 1].1));
        spans.copy_within(i + 2.., i + 1);
    }

    /// The spans, in no particular order.
    pub fn spans(&self) -> &[(u16, u16)] {
        &self.spans[..usize::from(self.len)]
    }

    /// What was written since the last call; clears it.
    #[inline]
    pub fn take(&mut self) -> HostWrites {
        // Nothing written is the common case between two runs (and after
        // a print that only changed the print position or colours).
        if self.len == 0 {
            return HostWrites::NONE;
        }
        std::mem::replace(self, HostWrites::NONE)
    }
}
