//! ROM routines our core performs inside its runs (`Bus::routine`: the
//! Spectrum's `RST 16`) leave the machine exactly as the run loop leaves
//! it on the other cores, which end their runs at the ROM address: the
//! same stops at the same T-states (budgets and interrupts falling before,
//! within and after the prints), registers, RAM (the display file drawn),
//! printed text and time charged; and the programs' replies are the same.
//! And the prints no longer end our core's runs.

use retrochess::engines::EngineOptions;
use retrochess::machine::cpu::Bus;
use retrochess::machine::spectrum::Spectrum48;
use retrochess::machine::{Core, Stop, profile};
use retrochess::rules::chess::ChessRules;

use super::cores::play;

/// A program at 0x8000 that prints a message through `RST 16` over and
/// over (colour and position codes, text, a newline that scrolls the
/// screen in time), with interrupts on as the ROM leaves them.
fn printing(core: Core) -> Spectrum48 {
    const MSG: u16 = 0x8100;
    let msg: &[u8] = &[
        22, 21, 28, b'a', b'b', 16, 2, b'c', 17, 6, b'd', 19, 1, 20, 1, b'e', 13, b'x', b'y',
    ];
    #[rustfmt::skip]
    let code = [
        0x21, MSG as u8, (MSG >> 8) as u8, // ld hl,MSG
        0x06, msg.len() as u8,             // ld b,len
        0x7E,                              // loop: ld a,(hl)
        0xD7,                              // rst 16
        0x23,                              // inc hl
        0x10, 0xFB,                        // djnz loop
        0x18, 0xF4,                        // jr 0x8000
    ];
    let mut zx = Spectrum48::new();
    zx.set_core(core);
    zx.poke_bytes(0x8000, &code);
    zx.poke_bytes(MSG, msg);
    zx.jump(0x8000, 0xFF00);
    zx
}

/// Everything a run leaves that the program or the driver can see.
fn state(zx: &Spectrum48) -> String {
    format!(
        "{:?} T {} busy {} charged {} screen {:?} display {:?}",
        zx.regs(),
        zx.tstates(),
        zx.busy_tstates(),
        zx.estimated_tstates(),
        zx.screen(),
        zx.display(),
    )
}

/// Where two machines' RAM first differs, if it does.
fn ram_differs(a: &Spectrum48, b: &Spectrum48) -> Option<usize> {
    let (a, b) = (a.bus().ram(), b.bus().ram());
    (a.len() != b.len())
        .then_some(0)
        .or_else(|| a.iter().zip(b).position(|(x, y)| x != y))
}

#[test]
fn prints_inside_a_run_leave_the_machine_as_the_run_loop_does() {
    // Budgets that end the run between prints, within the T-states a
    // print is charged (where our core leaves it to the run loop), and
    // across the 50 Hz interrupts.
    for budget in (1..60)
        .map(|i| i * 1_237)
        .chain([69_888, 200_000, 1_000_000])
    {
        let (mut own, mut reference) = (printing(Core::Own), printing(Core::Z80emu));
        for round in 0..3 {
            let (a, b) = (own.run(budget), reference.run(budget));
            assert_eq!(a, b, "budget {budget}, round {round}");
            assert!(matches!(a, Stop::BudgetExhausted { .. }), "{a:?}");
            assert_eq!(
                state(&own),
                state(&reference),
                "budget {budget}, round {round}"
            );
            assert_eq!(ram_differs(&own, &reference), None, "budget {budget}");
        }
    }
    let mut zx = printing(Core::Own);
    zx.run(1_000_000);
    // It printed and scrolled: "xy" on several lines.
    let text = zx.screen();
    let lines = (0..24)
        .filter(|&r| {
            (0..31).any(|c| text.cell(r, c).glyph == 'x' && text.cell(r, c + 1).glyph == 'y')
        })
        .count();
    assert!(lines > 1, "{lines} lines with xy");
}

#[test]
fn prints_no_longer_end_our_cores_runs() {
    let runs = |core| {
        let mut zx = printing(core);
        profile::core_time(|| zx.run(1_000_000)).1.runs
    };
    let (own, reference) = (runs(Core::Own), runs(Core::Z80emu));
    // Some 10 characters a run of 1,000 T-states before: one run per print
    // on z80emu; ours runs from interrupt to interrupt (14 frames).
    assert!(reference > 1_000, "z80emu: {reference} runs");
    assert!(own * 20 < reference, "ours {own} runs, z80emu {reference}");
}

#[test]
fn chesskelet_replies_the_same_on_our_core_and_z80emu() {
    for id in ["chesskelet", "chesskelet-published"] {
        let replies = |core| {
            let options = EngineOptions {
                core,
                seed: 7,
                ..EngineOptions::default()
            };
            play(ChessRules, id, &options, 8)
        };
        let (own, reference) = (replies(Core::Own), replies(Core::Z80emu));
        assert!(own.iter().all(|r| r.tstates > 0), "{id}: {own:?}");
        assert_eq!(own, reference, "{id}");
    }
}
