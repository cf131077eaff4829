//! The memory map and ports as the CPU sees them ([`Bus`]).

use super::host_writes::HostWrites;
use super::memory::Memory;
use crate::machine::stop::Fault;

/// The memory map and ports as the CPU sees them. (A copy of a bus is what
/// the lockstep core runs its second CPU on.)
pub trait Bus: Memory + Clone + 'static {
    /// A read by the CPU (opcode fetch or data). May record a fault or a
    /// poll, and raise the signal that ends the run after this instruction.
    fn read(&self, addr: u16) -> u8;
    /// A write by the CPU.
    fn write(&mut self, addr: u16, value: u8);
    /// `IN`: nothing is connected unless a machine says so.
    fn input(&mut self, _port: u16) -> u8 {
        0xFF
    }
    /// `OUT`: ignored unless a machine says so.
    fn output(&mut self, _port: u16, _value: u8) {}
    /// Did an instruction raise a signal (fault, poll) the machine must see
    /// before the next one runs?
    fn signalled(&self) -> bool;
    /// The bad access the last instructions made, if any, cleared (its PC
    /// is filled in by the run loop).
    fn take_fault(&mut self) -> Option<Fault>;
    /// Can the CPU run code at `addr`? Everything else (ROM, unmapped
    /// space) is where high-level routines are trapped or faults reported.
    fn executable(&self, addr: u16) -> bool;
    /// The RAM as the bus keeps it (for comparisons).
    fn ram(&self) -> &[u8];

    /// Can the CPU read `addr` as part of an instruction with no effect
    /// but the byte (no fault, no poll)? Our core pre-decodes only
    /// instructions whose bytes all are; the others it reads as it runs.
    fn plain(&self, addr: u16) -> bool {
        self.executable(addr)
    }

    /// The memory cell behind `addr`: addresses that mirror each other
    /// (the ZX81's 1K repeats through its RAM space) share one, so that a
    /// write through either reaches code decoded from the other.
    fn cell(&self, addr: u16) -> u16 {
        addr
    }

    /// The cells written by anyone but the CPU (loaders, traps, the
    /// machine's clock) since the last call, as a few spans, cleared. A bus
    /// that does not keep track answers "all of them", which is always
    /// right and only slower.
    fn take_host_writes(&mut self) -> HostWrites {
        HostWrites::ALL
    }

    /// Performs the ROM routine at `pc`, which the CPU has just reached by
    /// a call (its return address on the stack), if the bus can do it
    /// alone from A and its memory, exactly as the machine's run loop
    /// would there, leaving every register but PC and SP as it is, and if
    /// it takes fewer than `room` T-states: the T-states to charge for it.
    /// Our core then returns from it (`RET`) and runs on, instead of
    /// ending its run at the ROM address; `None` (the default) leaves the
    /// routine to the run loop.
    fn routine(&mut self, _pc: u16, _a: u8, _room: u64) -> Option<u64> {
        None
    }
}
