//! Counters of how often execution reaches chosen addresses ([`Watches`]).

/// Counters of how often execution reaches chosen addresses (how drivers
/// count the moves a program evaluates).
#[derive(Clone, Debug, Default)]
pub struct Watches(Vec<(u16, u64)>);

impl Watches {
    /// Watches `addrs`, with counts from zero.
    pub fn new(addrs: &[u16]) -> Watches {
        Watches(addrs.iter().map(|&a| (a, 0)).collect())
    }

    /// Counts a visit to `pc` if it is watched.
    #[inline]
    pub fn visit(&mut self, pc: u16) {
        for w in self.0.iter_mut().filter(|w| w.0 == pc) {
            w.1 += 1;
        }
    }

    /// How often the `i`-th watched address was reached.
    pub fn hits(&self, i: usize) -> u64 {
        self.0.get(i).map_or(0, |w| w.1)
    }

    /// The watched addresses.
    pub fn addrs(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().map(|w| w.0)
    }
}
