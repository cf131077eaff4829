//! Every engine of the registry (`src/engines/registry.rs`, each driver's
//! `ENTRIES`) through the one pipeline (`src/engines/driver.rs`): created
//! by id, it replies to its game's initial position and to a position two
//! moves on with a legal move, and a new game with the same seed replies
//! the same. A new driver is tested here without a line added.

use retrochess::engines::{Catalogue, Create, EngineOptions, Played, catalogue};
use retrochess::rules::chess::ChessRules;
use retrochess::rules::draughts::{Draughts, Variant};
use retrochess::rules::{Game, Rules, Verdict};

/// The engine's replies to the initial position and to the game after
/// the first two legal moves (in the rules' order), twice over with a new
/// game in between; each reply must be a legal move (or the program's
/// dead end), the same both times.
fn replies_twice<R: Rules + Catalogue>(rules: R, id: &str) {
    let options = EngineOptions::default().with("Opening", "think");
    let mut engine = R::create(retrochess::engines::find(id).unwrap(), &options)
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut later = Game::initial(rules.clone());
    for _ in 0..2 {
        let m = later.legal_moves()[0].clone();
        later.push(m);
    }
    let mut seen = Vec::new();
    for round in 0..2 {
        engine.new_game().unwrap();
        for game in [Game::initial(rules.clone()), later.clone()] {
            let reply = engine.play(&game, 5_000_000_000).unwrap();
            match &reply.played {
                Played::Move(wire) => assert!(
                    matches!(rules.judge(game.position(), wire), Verdict::Legal(_)),
                    "{id}: {wire} is not legal in {:?}",
                    game.position()
                ),
                Played::Astray(a) => panic!("{id}: its board went astray: {a:?}"),
                Played::DeadEnd => {}
                Played::Hung(h) => panic!("{id} hung: {h}"),
            }
            assert!(engine.screen().is_some() || reply.tstates == 0, "{id}");
            if round == 0 {
                seen.push(reply.played.clone());
            } else {
                assert_eq!(seen.remove(0), reply.played, "{id}: same seed, same reply");
            }
        }
    }
}

#[test]
fn every_registered_engine_replies_legally_and_reproducibly() {
    let all = catalogue();
    assert!(all.len() >= 7, "the registry lists the built-in engines");
    for entry in all {
        let id = entry.info.id;
        match entry.create {
            Create::Chess(_) => replies_twice(ChessRules, id),
            Create::Draughts(_) => replies_twice(Draughts::new(Variant::English), id),
        }
        assert_eq!(
            entry.has_screen,
            entry.info.machine != retrochess::engines::NATIVE,
            "{id}"
        );
    }
}
