//! Unit tests of the draughts rules: perft against the published counts,
//! verdicts with reasons, Draughts 1K's house rules, endings.

use super::*;
use crate::rules::Verdict;

fn pos(fen: &str) -> Position {
    parse_fen(fen).unwrap()
}

fn wires(rules: &Draughts, p: &Position) -> Vec<String> {
    let mut w: Vec<String> = rules
        .legal_moves(p)
        .iter()
        .map(|m| {
            let wire = rules.wire(p, m).to_string();
            assert_eq!(m.to_string(), wire);
            wire
        })
        .collect();
    w.sort();
    w
}

fn why(rules: &Draughts, fen: &str, mv: &str) -> String {
    let p = pos(fen);
    match rules.judge(&p, &mv.parse().unwrap()) {
        Verdict::Legal(m) => panic!("{mv} is legal in {fen}: {m:?}"),
        Verdict::Illegal(_, why) => why.to_string(),
    }
}

fn legal(rules: &Draughts, fen: &str, mv: &str) -> Position {
    let mut p = pos(fen);
    match rules.judge(&p, &mv.parse().unwrap()) {
        Verdict::Legal(m) => rules.play(&mut p, &m),
        Verdict::Illegal(_, why) => panic!("{mv} is illegal in {fen}: {why}"),
    }
    p
}

/// Published perft of English checkers from the initial position (the
/// figures the issue quotes; depth 11 is 85242128).
const PERFT: [u64; 10] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
];

fn check_perft(depths: std::ops::RangeInclusive<u32>) {
    let rules = Draughts::english();
    for depth in depths {
        let n = rules.perft(&Position::initial(), depth);
        assert_eq!(n, PERFT[depth as usize - 1], "depth {depth}");
    }
}

#[test]
fn perft_english_to_depth_8() {
    check_perft(1..=8);
}

/// About 2 s in a release build.
#[test]
fn perft_english_depths_9_and_10() {
    check_perft(9..=10);
}

#[test]
fn variants_by_name() {
    assert_eq!("english".parse::<Variant>(), Ok(Variant::English));
    assert_eq!("zx81-1k".parse::<Variant>(), Ok(Variant::Zx81));
    assert_eq!(Variant::Zx81.to_string(), "zx81-1k");
    assert_eq!(PdnMove::capture(vec![]), Err(WireError::OneSquare));
    assert_eq!(
        "checkers".parse::<Variant>().unwrap_err().to_string(),
        "unknown draughts rules 'checkers': english or zx81-1k"
    );
    assert_eq!(Draughts::zx81_1k().name(), "zx81-1k");
    assert_eq!(Draughts::english().first_side(), Color::Black);
}

/// A king at 10 and four white men round it: it takes them all clockwise
/// or anticlockwise and comes back to 10.
const RING: &str = "B:W14,15,22,23:BK10";

#[test]
fn english_reasons_are_precise() {
    let r = Draughts::english();
    let start = "B:W21-32:B1-12";
    let table: &[(&str, &str, &str)] = &[
        (start, "14-18", "no piece on 14"),
        (
            start,
            "22-18",
            "22 holds a white man, not a piece of the side to move",
        ),
        (start, "9-11", "not a diagonal step: 9 to 11"),
        (start, "9-18", "a man cannot move two squares"),
        (
            start,
            "9x18",
            "a jump must capture an opposing piece: 14 is empty",
        ),
        (start, "1-5", "square 5 is occupied"),
        (start, "9x27", "no capture leads from 9 to 27"),
        (
            "B:W30:B9,14",
            "9x18",
            "a jump must capture an opposing piece: 14 holds a black man",
        ),
        ("B:W30:B14", "14-9", "men move forward only"),
        ("B:W30:BK1", "1-19", "a king cannot move four squares"),
        ("B:W18:B1,14", "1-5", "a capture is available: 14x23"),
        ("B:W14,22:B10", "10x17", "the jump must continue: 17x26"),
        (
            "B:W14,22:B10",
            "10x17x21",
            "a capture goes on by jumps only: 17 to 21 is a step",
        ),
        (
            "B:W14:BK10",
            "10x17x10",
            "the piece on 14 cannot be jumped twice",
        ),
        (
            "B:W25,26:B23",
            "23x30x21",
            "promotion ends the move: the man was crowned on 30",
        ),
        (
            RING,
            "10x10",
            "ambiguous capture 10x10: 10x17x26x19x10 or 10x19x26x17x10",
        ),
        ("W:W22:B18", "22-17", "a capture is available: 22x15"),
    ];
    for (fen, mv, expected) in table {
        assert_eq!(&why(&r, fen, mv), expected, "{fen} {mv}");
    }
}

#[test]
fn english_legal_moves_and_short_forms() {
    let r = Draughts::english();
    assert_eq!(
        wires(&r, &Position::initial()),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    // A double jump, written in full or by its ends.
    let after = legal(&r, "B:W14,22:B10", "10x17x26");
    assert_eq!(fen(&after), "W:W:B26");
    assert_eq!(legal(&r, "B:W14,22:B10", "10x26"), after);
    // The ring: both ways round, same squares, two moves.
    assert_eq!(wires(&r, &pos(RING)), ["10x17x26x19x10", "10x19x26x17x10"]);
    assert_eq!(fen(&legal(&r, RING, "10x19x26x17x10")), "W:W:BK10");
    // A man crowned by a jump stops there.
    assert_eq!(wires(&r, &pos("B:W25,26:B23")), ["23x30"]);
    assert_eq!(fen(&legal(&r, "B:W25,26:B23", "23x30")), "W:W25:BK30");
    // Any capture may be chosen, not only the longest.
    assert_eq!(
        wires(&r, &pos("B:W14,22,15:B10,11")),
        ["10x17x26", "10x19", "11x18x25"]
    );
    // The separator is not checked: the squares decide.
    assert_eq!(legal(&r, "B:W18:B14", "14-23"), pos("W:W:B23"));
}

#[test]
fn zx81_house_rules() {
    let r = Draughts::zx81_1k();
    // Captures are optional.
    assert_eq!(
        wires(&r, &pos("B:W18:B1,14")),
        ["1-5", "1-6", "14-17", "14x23"]
    );
    // Single jumps only: the move ends after one jump, White to move.
    assert_eq!(fen(&legal(&r, "B:W14,22:B10", "10x17")), "W:W22:B17");
    assert_eq!(
        why(&r, "B:W14,22:B10", "10x17x26"),
        "this program's rules allow single jumps only"
    );
    // A king moves, and captures, backwards only: towards its own side.
    assert_eq!(wires(&r, &pos("B:W30:BK14")), ["14-10", "14-9"]);
    assert_eq!(
        why(&r, "B:W30:BK14", "14-18"),
        "kings of this program move only backwards"
    );
    assert_eq!(fen(&legal(&r, "B:W10:BK14", "14x7")), "W:W:BK7");
    assert_eq!(why(&r, "B:W10:B14", "14x7"), "men move forward only");
    // A man takes a king as readily as a man.
    assert_eq!(fen(&legal(&r, "B:WK18:B14", "14x23")), "W:W:B23");
    // Crowned on the far row, the piece turns round.
    let crowned = legal(&r, "B:W20:B27", "27-31");
    assert_eq!(fen(&crowned), "W:W20:BK31");
    let back = legal(&r, "W:W20:BK31", "20-16");
    assert_eq!(wires(&r, &back), ["31-26", "31-27"]);
    // A king home on its own first row is stuck: no moves at all.
    assert!(r.legal_moves(&pos("B:W30:BK2")).is_empty());
    assert_eq!(
        wires(&Draughts::english(), &pos("B:W30:BK2")),
        ["2-6", "2-7"]
    );
    // White's men go up the board, its kings down.
    assert_eq!(
        wires(&r, &pos("W:W22,K11:B1")),
        ["11-15", "11-16", "22-17", "22-18"]
    );
}

fn game(rules: Draughts, fen: &str) -> Game<Draughts> {
    Game::new(rules, pos(fen))
}

fn play(g: &mut Game<Draughts>, mv: &str) {
    let v = g.play_wire(&mv.parse().unwrap());
    assert!(matches!(v, Verdict::Legal(_)), "{mv}: {v:?}");
}

#[test]
fn endings() {
    let r = Draughts::english();
    let lost = game(r, "B:W18:B");
    assert_eq!(
        lost.ending(),
        Some(Ending {
            result: GameResult::Win(Color::White),
            reason: EndReason::NoLegalMove
        })
    );
    let blocked = game(r, "W:W32:B23,27,28");
    assert_eq!(
        blocked.ending().map(|e| (e.result, e.reason)),
        Some((GameResult::Win(Color::Black), EndReason::NoLegalMove))
    );
    let stuck = game(Draughts::zx81_1k(), "B:W30:BK2");
    assert_eq!(
        stuck.ending().map(|e| e.reason),
        Some(EndReason::NoLegalMove)
    );

    let mut g = game(r, "B:WK29:BK4");
    for _ in 0..2 {
        for mv in ["4-8", "29-25", "8-4", "25-29"] {
            assert_eq!(g.ending(), None);
            play(&mut g, mv);
        }
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.ending().map(|e| e.reason), Some(EndReason::Repetition));
}

#[test]
fn forty_moves_each_without_progress_draw() {
    // Black's king goes round six squares, White's round eight, never
    // near each other: a position comes back only every 48 plies.
    let black = ["12-8", "8-3", "3-7", "7-11", "11-16", "16-12"];
    let white = [
        "30-26", "26-23", "23-18", "18-14", "14-17", "17-21", "21-25", "25-30",
    ];
    let mut g = game(Draughts::english(), "B:WK30:BK12");
    for ply in 0..NO_PROGRESS_PLIES {
        assert_eq!(g.ending(), None, "ply {ply}");
        let mv = if ply % 2 == 0 {
            black[(ply / 2) % 6]
        } else {
            white[(ply / 2) % 8]
        };
        play(&mut g, mv);
    }
    assert!(g.repetitions() < 3);
    assert_eq!(
        g.ending().map(|e| (e.result, e.reason)),
        Some((GameResult::Draw, EndReason::NoProgress))
    );
    // A man's move resets the count.
    let mut g = game(Draughts::english(), "B:WK30,21:BK12");
    for ply in 0..NO_PROGRESS_PLIES - 1 {
        let mv = if ply % 2 == 0 {
            black[(ply / 2) % 6]
        } else {
            ["30-26", "26-30"][(ply / 2) % 2]
        };
        play(&mut g, mv);
    }
    play(&mut g, "21-17");
    assert_eq!(quiet_plies(g.moves()), 0);
    assert_eq!(g.ending(), None);
}

#[test]
fn hub_forms() {
    let r = Draughts::english();
    let p = pos("B:W14,22:B10");
    let m = r.legal_moves(&p)[0];
    assert_eq!(r.hub_move(&m).to_string(), "10x26x14x22");
    for text in ["10x26x14x22", "10x26x22x14", "10x26"] {
        let hub: HubMove = text.parse().unwrap();
        assert_eq!(r.wire_from_hub(&p, &hub).to_string(), "10x17x26", "{text}");
    }
    let ring = pos(RING);
    let hub: HubMove = "10x10x14x15x22x23".parse().unwrap();
    assert_eq!(r.wire_from_hub(&ring, &hub).to_string(), "10x17x26x19x10");
    let hub: HubMove = "10x10".parse().unwrap();
    let wire = r.wire_from_hub(&ring, &hub);
    assert!(matches!(
        r.judge(&ring, &wire),
        Verdict::Illegal(_, IllegalDraughtsMove::Ambiguous { .. })
    ));
    let start = Position::initial();
    let hub: HubMove = "11-15".parse().unwrap();
    let m = r
        .legal_moves(&start)
        .into_iter()
        .find(|m| m.from().number() == 11)
        .unwrap();
    assert_eq!(r.hub_move(&m).to_string(), "11-15");
    assert_eq!(r.wire_from_hub(&start, &hub).to_string(), "11-15");
    let hub: HubMove = "11-18".parse().unwrap();
    assert_eq!(
        why(
            &r,
            "B:W21-32:B1-12",
            &r.wire_from_hub(&start, &hub).to_string()
        ),
        "a man cannot move two squares"
    );
}

#[test]
fn repetition_keys_see_the_side_to_move() {
    let r = Draughts::english();
    let a = pos("B:W18:B14");
    let b = pos("W:W18:B14");
    let c = pos("B:WK18:B14");
    assert_ne!(r.repetition_key(&a), r.repetition_key(&b));
    assert_ne!(r.repetition_key(&a), r.repetition_key(&c));
    assert_eq!(r.repetition_key(&a), r.repetition_key(&pos("B:W18:B14")));
}

#[test]
fn positions_through_the_seam() {
    let r = Draughts::english();
    let p = r.parse_position("B:W18,24,K30:B9,14").unwrap();
    assert_eq!(r.position_text(&p), "B:W18,24,K30:B9,14");
    assert_eq!(
        r.parse_position("B:W33:B9"),
        Err(PositionError::Impossible(
            "square 33 is off the board".into()
        ))
    );
}

/// Positions of seeded random games under `rules`.
fn random_positions(rules: Draughts, games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut p = Position::initial();
        for _ in 0..120 {
            out.push(p);
            let legal = rules.legal_moves(&p);
            if legal.is_empty() {
                break;
            }
            rules.play(
                &mut p,
                &legal[rng.range(0, legal.len() as u64 - 1) as usize],
            );
        }
    }
    out
}

#[test]
fn every_illegal_move_gets_a_specific_reason() {
    for rules in [Draughts::english(), Draughts::zx81_1k()] {
        for p in random_positions(rules, 12) {
            let legal = rules.legal_moves(&p);
            let mut wires: Vec<PdnMove> = Vec::new();
            for a in Square::all() {
                for b in Square::all() {
                    wires.push(PdnMove::step(a, b));
                    wires.push(PdnMove::capture(vec![a, b]).unwrap());
                }
            }
            for m in legal.iter().filter(|m| m.is_capture()) {
                let path = rules.wire(&p, m).squares().to_vec();
                wires.extend(PdnMove::capture(path[..path.len() - 1].to_vec()));
                for extra in Square::all() {
                    wires.extend(PdnMove::capture([&path[..], &[extra]].concat()));
                }
            }
            for w in &wires {
                match rules.judge(&p, w) {
                    Verdict::Legal(m) => assert!(legal.contains(&m), "{w} in {}", fen(&p)),
                    Verdict::Illegal(_, why) => {
                        assert_ne!(why, IllegalDraughtsMove::NotLegal, "{} {w}", fen(&p))
                    }
                }
            }
        }
    }
}

#[test]
fn parsers_survive_garbage_and_round_trip() {
    let mut rng = crate::rng::SplitMix64::new(9);
    let alphabet: Vec<char> = "0123456789-xXK:BW,. ".chars().collect();
    for _ in 0..20_000 {
        let len = rng.range(0, 14) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[rng.range(0, alphabet.len() as u64 - 1) as usize])
            .collect();
        if let Ok(p) = parse_fen(&text) {
            assert_eq!(parse_fen(&fen(&p)), Ok(p), "{text:?}");
        }
        if let Ok(m) = text.parse::<PdnMove>() {
            assert_eq!(m.to_string().parse::<PdnMove>(), Ok(m), "{text:?}");
        }
        if let Ok(m) = text.parse::<HubMove>() {
            assert_eq!(m.to_string().parse::<HubMove>(), Ok(m), "{text:?}");
        }
        let _ = pdn::read_games(&text);
    }
}
