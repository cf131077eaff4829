//! The Z80 cores a machine can run on, by name ([`Core`]).

use std::fmt;

/// The Z80 core a machine runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Core {
    /// `z80emu` 0.11.0: the T-states of the Z80 manual, driven in long
    /// runs; the default before our own core.
    Z80emu,
    /// Our own core ([`super::own`]), the default: the T-states of the Z80
    /// manual, and everything `z80emu` computes (the same registers,
    /// memory, timing and stops, compared after every instruction), 2–3×
    /// as fast.
    #[default]
    Own,
    /// `iz80` 0.5.1, the reference: reproduces games recorded before
    /// `z80emu` became the default. Known timing differences: a `JR cc` not
    /// taken counts 8 T-states (the manual: 7), a `JP cc` not taken 7 (the
    /// manual: 10); see [`super::lockstep::KNOWN_TSTATE_DIFFERENCES`].
    Iz80,
    /// `z80emu` and `iz80`, compared after every instruction (`z80emu`
    /// leads); slow, for tests ([`super::lockstep`]).
    Lockstep,
    /// `z80emu` and our own core, compared exactly after every
    /// instruction (`z80emu` leads); slow, for tests.
    LockstepOwn,
}

impl Core {
    /// Every core, by name.
    pub const ALL: [Core; 5] = [
        Core::Own,
        Core::Z80emu,
        Core::Iz80,
        Core::Lockstep,
        Core::LockstepOwn,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Core::Own => "own",
            Core::Z80emu => "z80emu",
            Core::Iz80 => "iz80",
            Core::Lockstep => "lockstep",
            Core::LockstepOwn => "lockstep-own",
        }
    }
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
