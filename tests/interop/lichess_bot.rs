//! The lichess-bot configurations (`adapters/lichess-bot/*.yml`), as
//! lichess-bot's engine wrapper uses them: python-chess, the client
//! lichess-bot drives engines with, starts each engine with the command line
//! lichess-bot builds from the file and sets the file's options
//! (`tests/peers/lichess_bot_wrapper.py`). Whole games through lichess-bot
//! itself need its source and run outside the suite
//! (`scripts/lichess-bot-harness.sh`).

use crate::common::{self, python_chess, repo};

/// Every configuration in the folder, checked by the peer script: its
/// options accepted, `Seed` `random` from the command line (python-chess
/// refuses it as an option value), a legal move at a lichess clock, and
/// the replies that are not legal moves as lichess-bot needs them.
#[test]
fn python_chess_drives_each_lichess_bot_configuration_as_lichess_bot_does() {
    python_chess();
    let dir = repo("adapters/lichess-bot");
    let mut configs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .map(|p| p.display().to_string())
        .collect();
    configs.sort();
    // One per chess engine of the registry, and one over CECP.
    let ids = common::ids_of(retrochess::engines::GameKind::Chess);
    for id in &ids {
        assert!(
            configs.iter().any(|c| c.ends_with(&format!("/{id}.yml"))),
            "{id} has no configuration: {configs:?}"
        );
    }
    assert_eq!(configs.len(), ids.len() + 1, "{configs:?}");
    let mut args = vec![env!("CARGO_BIN_EXE_retrochess")];
    args.extend(configs.iter().map(String::as_str));
    let (ok, out, err) = common::peer_script("lichess_bot_wrapper.py", &args, "");
    eprintln!("{out}");
    assert!(ok, "{out}\n{err}");
    // Over UCI, the configured `play` hands lichess-bot python-chess's
    // IllegalMoveError (it resigns at once); `resign` would be a null move
    // it posts (lichess refuses it). Over CECP, `resign` is a resignation.
    assert!(
        out.contains(
            "1k-zx-chess.yml chesskelet illegal-play: EngineError args=['IllegalMoveError']"
        ),
        "{out}"
    );
    assert!(
        out.contains("1k-zx-chess.yml chesskelet illegal-resign: move=0000 resigned=False"),
        "{out}"
    );
    assert!(
        out.contains("1k-zx-chess-cecp.yml chesskelet illegal-resign: move=None resigned=True"),
        "{out}"
    );
    assert!(
        out.contains("1k-zx-chess.yml 1k-zx-chess dead-end: move=0000"),
        "{out}"
    );
    assert!(
        out.contains("1k-zx-chess-cecp.yml 1k-zx-chess dead-end: move=None resigned=True"),
        "{out}"
    );
}
