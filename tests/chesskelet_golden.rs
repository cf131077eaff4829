//! The three games of seed 001, chapter 12, replayed against both builds of
//! the reconstruction: ChesSkelet played Black in all of them (44 replies).
//!
//! Two measurements per build, as tapes/CHESSKELET.md explains:
//! - reply by reply: White's move is typed, the program's choice is compared
//!   with the published reply, and then the published reply is imposed (the
//!   chooser's result replaced on its stack before `aftsid` makes the move),
//!   so every comparison starts from the published game;
//! - free running: nothing imposed; how many replies match before the first
//!   divergence.
//!
//! Source: seed 001, chapter 12 ("9.A3-A3" read as a2a3, a typo).

use retrochess::engines::chesskelet::{BUILDS, Build, NoChoice, Session, real_square, view_square};
use shakmaty::{Color, Square};

const GAMES: [(&str, &[&str], &[&str]); 3] = [
    (
        "1K ZX Chess (king opens) - ChesSkelet",
        &[
            "e2e3", "e3e4", "e4e5", "f2f3", "f3f4", "g1e2", "h1g1", "g1h1", "h1g1", "g1h1",
        ],
        &[
            "e7e6", "f8b4", "b4c5", "c5b4", "b4c5", "c5b4", "b4c5", "c5b4", "b4c5", "c5b4",
        ],
    ),
    (
        "1K ZX Chess (queen opens) - ChesSkelet",
        &[
            "d2d3", "d3d4", "c2c3", "h2h3", "c3c4", "b1c3", "b2c3", "a1b1", "a2a3", "c4b5", "b1b5",
            "b5h5", "c3d4", "d1a4", "c1g5",
        ],
        &[
            "e7e6", "f8b4", "b4d6", "c7c6", "d6b4", "b4c3", "d7d6", "b7b6", "b6b5", "c6b5", "b8c6",
            "c6d4", "d8b6", "e8e7", "e7d8",
        ],
    ),
    (
        "BootChess - ChesSkelet",
        &[
            "e2e4", "g1e2", "b1c3", "b2c3", "c1b2", "h2h3", "h1h2", "g2g3", "f1g2", "g2f3", "e2f4",
            "e1e2", "g3f4", "e2e3", "d1e2", "c3b4", "b2g7", "g7h8", "e2d3",
        ],
        &[
            "e7e6", "f8b4", "b4c3", "d7d6", "c7c6", "c6c5", "b7b6", "b6b5", "d8b6", "b6c6", "e6e5",
            "e5f4", "c6b6", "b6c6", "b5b4", "c5b4", "c6c2", "c2c5", "c5e3",
        ],
    ),
];

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// The program's replies in one game: `(published, played)` per move, until
/// the end or (free running) the first divergence.
fn replay(
    build: &'static Build,
    white: &[&str],
    black: &[&str],
    impose: bool,
) -> Vec<(String, String)> {
    let mut s = Session::boot(build, build.tape).unwrap();
    let mut out = Vec::new();
    for (w, b) in white.iter().zip(black.iter()) {
        s.type_keys(w).unwrap();
        let choice = match s.run_to_choice(50_000_000) {
            Ok(c) => c,
            Err(NoChoice::Rejected) => panic!("{}: White's {w} refused", build.info.id),
            Err(NoChoice::Stopped(stop)) => panic!("{}: {stop}", build.info.id),
        };
        let played = format!(
            "{}{}",
            real_square(choice.from, Color::Black).unwrap(),
            real_square(choice.to, Color::Black).unwrap()
        );
        let same = played == *b;
        out.push((b.to_string(), played));
        if !same {
            if !impose {
                break;
            }
            s.impose(
                view_square(sq(&b[..2]), Color::Black),
                view_square(sq(&b[2..]), Color::Black),
            );
        }
        assert_eq!(
            s.finish(50_000_000),
            retrochess::machine::Stop::WaitingForKey
        );
    }
    out
}

/// Per game: (replies matched with imposition, replies before the first
/// divergence running free).
fn measure(build: &'static Build) -> Vec<(usize, usize)> {
    GAMES
        .iter()
        .map(|(name, white, black)| {
            let imposed = replay(build, white, black, true);
            let free = replay(build, white, black, false);
            let matched = imposed.iter().filter(|(p, m)| p == m).count();
            let run = free.iter().take_while(|(p, m)| p == m).count();
            println!(
                "{} / {name}: {matched} of {} replies, free run {run}",
                build.info.id,
                black.len()
            );
            for (i, (p, m)) in imposed.iter().enumerate() {
                let mark = if p == m { "" } else { "   <-- differs" };
                println!("  {:2}. {} {p} played {m}{mark}", i + 1, white[i]);
            }
            (matched, run)
        })
        .collect()
}

#[test]
fn golden_games_full_build() {
    let m = measure(&BUILDS[0]);
    let total: usize = m.iter().map(|x| x.0).sum();
    // Measured (tapes/CHESSKELET.md): 4 + 2 + 6 replies; every game
    // diverges at once (1...e7e5, the two-square step the published games
    // never play).
    assert_eq!(total, 12);
    assert_eq!(m, vec![(4, 0), (2, 0), (6, 0)]);
}

#[test]
fn golden_games_lite_build() {
    let m = measure(&BUILDS[1]);
    let total: usize = m.iter().map(|x| x.0).sum();
    // Measured (tapes/CHESSKELET.md): 9 + 9 + 15 replies, free runs of 2,
    // 4 and 2 replies.
    assert_eq!(total, 33);
    assert_eq!(m, vec![(9, 2), (9, 4), (15, 2)]);
}

/// Game 2's 15...Ke7-d8, as published, steps into the g5 bishop's check:
/// the arbiter must say so.
#[test]
fn published_e7d8_moves_into_check() {
    use retrochess::arbiter::{Illegal, Verdict, judge};
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position};
    let (_, white, black) = GAMES[1];
    let mut pos = Chess::default();
    for i in 0..14 {
        for m in [white[i], black[i]] {
            let uci: UciMove = m.parse().unwrap();
            let mv = uci.to_move(&pos).unwrap();
            pos = pos.play(mv).unwrap();
        }
    }
    let uci: UciMove = white[14].parse().unwrap();
    let mv = uci.to_move(&pos).unwrap();
    pos = pos.play(mv).unwrap();
    match judge(&pos, &"e7d8".parse().unwrap()) {
        Verdict::Illegal(_, Illegal::IntoCheck { to, .. }) => assert_eq!(to, sq("d8")),
        other => panic!("e7d8 judged {other:?}"),
    }
}
