//! One game of a person against a retro engine: the rules' game, the
//! engine's machine, and what the engine said about its last move. Used by
//! the web page (`super`) and by `retrochess screen --play`, which replays a
//! person's moves to show the screen they lead to.

use std::str::FromStr;

use shakmaty::uci::UciMove;

use crate::arbiter::Judgement;
use crate::engines::{Catalogue, Engine, EngineError, EngineOptions, Entry};
use crate::machine::Display;
use crate::protocol::judging::{Weighed, judge_thoughts};
use crate::rules::chess::ChessRules;
use crate::rules::draughts::wire::WireError;
use crate::rules::draughts::{Draughts, PdnMove};
use crate::rules::pgn;
use crate::rules::{Color, Game, GameResult, Verdict};

/// What the page and the record need from a game's rules beyond [`Rules`].
pub trait PageRules: Catalogue {
    /// `chess` or `draughts`.
    const KIND: &'static str;
    /// PGN or PDN.
    const RECORD: &'static str;

    /// The person's move as text (`e2e4`, `e7e8q`; `11-15`, `15x24`).
    ///
    /// # Errors
    /// The text is not a move in the game's notation.
    fn read(text: &str) -> Result<Self::Wire, MoveError>;

    /// The game's movetext (SAN for chess; PDN squares for draughts).
    fn movetext(game: &Game<Self>) -> Vec<String>;

    /// The game as a record: `tags` (the players among them), the moves,
    /// `why` it ended (or that it goes on) in a comment, and `result`
    /// (`None`: unfinished), written by the format's own convention.
    fn record(
        tags: &[(String, String)],
        game: &Game<Self>,
        why: &str,
        result: Option<GameResult>,
    ) -> String;
}

impl PageRules for ChessRules {
    const KIND: &'static str = "chess";
    const RECORD: &'static str = "pgn";

    fn read(text: &str) -> Result<UciMove, MoveError> {
        UciMove::from_ascii(text.as_bytes()).map_err(|_| MoveError::NotUci(text.to_string()))
    }

    fn movetext(game: &Game<Self>) -> Vec<String> {
        pgn::movetext(game.root(), game.moves().iter().map(|m| (m, None)))
    }

    /// PGN, by the writer `match` uses ([`crate::rules::pgn`]): `1-0` a win
    /// for White; the `Result` tag after the others.
    fn record(
        tags: &[(String, String)],
        game: &Game<Self>,
        why: &str,
        result: Option<GameResult>,
    ) -> String {
        let tags: Vec<(&str, &str)> = tags
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain([("Result", pgn::result_token(result))])
            .collect();
        pgn::write_game(
            &tags,
            game.root(),
            game.moves().iter().map(|m| (m, None)),
            why,
            result,
        )
    }
}

impl PageRules for Draughts {
    const KIND: &'static str = "draughts";
    const RECORD: &'static str = "pdn";

    fn read(text: &str) -> Result<PdnMove, MoveError> {
        PdnMove::from_str(text).map_err(|error| MoveError::NotPdn {
            text: text.to_string(),
            error,
        })
    }

    fn movetext(game: &Game<Self>) -> Vec<String> {
        let mut tokens = Vec::new();
        for i in 0..game.moves().len() {
            if i % 2 == 0 {
                tokens.push(format!("{}.", i / 2 + 1));
            }
            if let Some(w) = game.wire_at(i) {
                tokens.push(w.to_string());
            }
        }
        tokens
    }

    /// PDN, by the writer `match` uses (`rules::draughts::pdn`): `1-0` a win
    /// for Black, the side that moves first, as PDN 3.0 has it; `why` after
    /// the last move (or in a Termination tag before any move).
    fn record(
        tags: &[(String, String)],
        game: &Game<Self>,
        why: &str,
        result: Option<GameResult>,
    ) -> String {
        let mut moves: Vec<(PdnMove, Option<String>)> = (0..game.moves().len())
            .filter_map(|i| game.wire_at(i).map(|w| (w, None)))
            .collect();
        let mut tags = tags.to_vec();
        match moves.last_mut() {
            Some(last) => last.1 = Some(why.to_string()),
            None => tags.push(("Termination".to_string(), why.to_string())),
        }
        crate::rules::draughts::pdn::write_game(
            game.rules().variant(),
            &tags,
            Some(game.root()),
            &moves,
            result,
        )
    }
}

/// One move the program weighed, judged, for the page (the data `explain`
/// shows).
#[derive(Clone, Debug, PartialEq)]
pub struct Considered {
    pub rank: usize,
    pub seq: u32,
    pub wire: String,
    pub raw: i32,
    pub score: i32,
    pub chance: Option<i32>,
    /// `None`: legal; otherwise why the rules refuse it.
    pub illegal: Option<String>,
}

/// The engine's last turn.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineTurn {
    /// The move it made, as it wrote it; `None`: no move (dead end or hang).
    pub wire: Option<String>,
    /// `None`: legal (or no move); otherwise the arbiter's reason.
    pub illegal: Option<String>,
    /// What happened instead of a move, in words.
    pub no_move: Option<String>,
    pub score: Option<i32>,
    pub tstates: u64,
    pub authentic_ms: u64,
    pub path: String,
    pub candidates: Vec<Considered>,
    pub tie_break: Option<&'static str>,
}

/// What the engine does with an illegal move of its own (the front ends'
/// `IllegalMoves` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMoves {
    /// The move is passed on as played; our arbiter refuses it and the
    /// engine loses the game.
    Play,
    /// The engine resigns instead of playing it.
    Resign,
}

impl IllegalMoves {
    pub fn name(self) -> &'static str {
        match self {
            IllegalMoves::Play => "play",
            IllegalMoves::Resign => "resign",
        }
    }
}

/// An `IllegalMoves` value that is neither `play` nor `resign` (as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy(pub String);

impl std::fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IllegalMoves {:?}: expected play or resign", self.0)
    }
}

impl std::error::Error for UnknownPolicy {}

impl FromStr for IllegalMoves {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Self, UnknownPolicy> {
        match s {
            "play" => Ok(IllegalMoves::Play),
            "resign" => Ok(IllegalMoves::Resign),
            _ => Err(UnknownPolicy(s.to_string())),
        }
    }
}

/// Why a person's move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended.
    Over(String),
    /// It is the engine's turn.
    NotYourTurn,
    /// The text is not a move in UCI notation (chess).
    NotUci(String),
    /// The text is not a move in PDN numbering (draughts), for `error`.
    NotPdn { text: String, error: WireError },
    /// The rules refuse it: the kind (`illegal-move`-like) and the reason.
    Illegal { kind: &'static str, reason: String },
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Over(why) => write!(f, "the game is over: {why}"),
            MoveError::NotYourTurn => write!(f, "it is the engine's turn"),
            MoveError::NotUci(text) => write!(
                f,
                "{text:?} is not a move in UCI notation (like e2e4 or e7e8q)"
            ),
            MoveError::NotPdn { text, error } => write!(f, "{text:?}: {error}"),
            MoveError::Illegal { reason, .. } => write!(f, "illegal move: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A person against an engine.
pub struct Table<R: PageRules> {
    pub game: Game<R>,
    engine: Box<dyn Engine<R>>,
    pub engine_id: String,
    pub engine_name: &'static str,
    pub machine: &'static str,
    pub person: Color,
    pub seed: u64,
    budget: u64,
    pub illegal_moves: IllegalMoves,
    pub last: Option<EngineTurn>,
    /// How the game ended other than by the rules (an illegal move of the
    /// engine, no move, a resignation), with the winner.
    pub stopped: Option<(String, Option<Color>)>,
}

impl<R: PageRules> Table<R> {
    /// A new game of `rules` against the engine of `entry`, the person
    /// playing `person`.
    ///
    /// # Errors
    /// An engine of another game, or its tape cannot be loaded.
    pub fn new(
        rules: R,
        entry: &'static Entry,
        options: &EngineOptions,
        person: Color,
        illegal_moves: IllegalMoves,
    ) -> Result<Table<R>, EngineError> {
        let mut engine = R::create(entry, options)?;
        engine.collect_candidates(true);
        let info = engine.info();
        Ok(Table {
            game: Game::initial(rules),
            engine_id: entry.info.id.to_string(),
            engine_name: info.name,
            machine: info.machine,
            engine,
            person,
            seed: options.seed,
            budget: options.budget,
            illegal_moves,
            last: None,
            stopped: None,
        })
    }

    /// Why the game is over, with the winner (`None`: a draw); `None` while
    /// it goes on.
    pub fn over(&self) -> Option<(String, Option<Color>)> {
        if let Some(stopped) = &self.stopped {
            return Some(stopped.clone());
        }
        self.game.ending().map(|end| match end.result {
            GameResult::Win(side) => (
                format!(
                    "{} wins by {}",
                    self.game.rules().side_name(side),
                    end.reason.words()
                ),
                Some(side),
            ),
            GameResult::Draw => (format!("draw by {}", end.reason.words()), None),
        })
    }

    /// Is it the engine's turn in a game that goes on?
    pub fn engine_to_move(&self) -> bool {
        self.over().is_none() && self.game.turn() != self.person
    }

    /// Judges and plays the person's move.
    ///
    /// # Errors
    /// The game is over, it is not the person's turn, or the move cannot be
    /// read or is illegal (with the rules' reason).
    pub fn person_moves(&mut self, text: &str) -> Result<(), MoveError> {
        if let Some((why, _)) = self.over() {
            return Err(MoveError::Over(why));
        }
        if self.game.turn() != self.person {
            return Err(MoveError::NotYourTurn);
        }
        let wire = R::read(text.trim())?;
        match self.game.play_wire(&wire) {
            Verdict::Legal(_) => Ok(()),
            Verdict::Illegal(_, why) => Err(MoveError::Illegal {
                kind: self.game.rules().illegal_kind(&why),
                reason: why.to_string(),
            }),
        }
    }

    /// Lets the engine move, judges its move and keeps what it weighed.
    ///
    /// # Errors
    /// The engine failed (position not representable, move unreadable).
    pub fn engine_moves(&mut self) -> Result<&EngineTurn, EngineError> {
        let before = self.game.position().clone();
        let reply = self.engine.play(&self.game, self.budget)?;
        let (candidates, tie_break) = match &reply.thoughts {
            Some(thoughts) => {
                let judged: Vec<Weighed<R>> = judge_thoughts(self.game.rules(), &before, thoughts);
                let list = judged
                    .iter()
                    .map(|w| Considered {
                        rank: w.rank,
                        seq: w.candidate.seq,
                        wire: w.candidate.wire.to_string(),
                        raw: w.candidate.raw,
                        score: w.candidate.score,
                        chance: w.candidate.chance,
                        illegal: w.illegal().map(ToString::to_string),
                    })
                    .collect();
                (list, Some(thoughts.tie_break))
            }
            None => (Vec::new(), None),
        };
        let engine_side = self.game.turn();
        let name = self.engine_name;
        let mut turn = EngineTurn {
            wire: None,
            illegal: None,
            no_move: None,
            score: reply.score,
            tstates: reply.tstates,
            authentic_ms: u64::try_from(reply.authentic.as_millis()).unwrap_or(u64::MAX),
            path: reply.path.to_string(),
            candidates,
            tie_break,
        };
        match Judgement::of(self.game.rules(), &before, &reply.played) {
            Judgement::Legal(m, wire) => {
                turn.wire = Some(wire.to_string());
                self.game.push(m);
            }
            Judgement::Illegal(wire, why) => {
                turn.wire = Some(wire.to_string());
                let reason = why.to_string();
                let how = match self.illegal_moves {
                    IllegalMoves::Play => format!(
                        "{name} played {wire}, an illegal move ({reason}); IllegalMoves=play \
                         passes it on and the arbiter refuses it"
                    ),
                    IllegalMoves::Resign => format!(
                        "{name} chose {wire}, an illegal move ({reason}); IllegalMoves=resign: \
                         it resigns instead"
                    ),
                };
                turn.illegal = Some(reason);
                self.stopped = Some((how, Some(engine_side.other())));
            }
            Judgement::DeadEnd { legal } => {
                let why = format!("{name} found no move and stopped");
                turn.no_move = Some(why.clone());
                if legal > 0 {
                    self.stopped = Some((why, Some(engine_side.other())));
                }
            }
            Judgement::Hung(hang) => {
                let why = format!("{name} did not answer: {hang}");
                turn.no_move = Some(why.clone());
                self.stopped = Some((why, Some(engine_side.other())));
            }
        }
        Ok(self.last.insert(turn))
    }

    /// Takes back the person's last move (and the engine's answer): the
    /// game returns to the person's previous turn. Returns whether anything
    /// was taken back.
    pub fn take_back(&mut self) -> bool {
        let first = self.game.rules().turn(self.game.root());
        let mover = |ply: usize| {
            if ply.is_multiple_of(2) {
                first
            } else {
                first.other()
            }
        };
        let Some(last) = (0..self.game.moves().len())
            .rev()
            .find(|&ply| mover(ply) == self.person)
        else {
            return false;
        };
        while self.game.moves().len() > last {
            self.game.pop();
        }
        self.stopped = None;
        self.last = None;
        true
    }

    /// The emulated screen as text.
    pub fn screen(&mut self) -> Option<crate::machine::TextScreen> {
        self.engine.screen()
    }

    /// The emulated screen as text (plain style).
    pub fn screen_text(&mut self) -> Option<String> {
        self.screen()
            .map(|s| s.render(crate::machine::ScreenStyle::Plain))
    }

    /// The machine's display memory.
    pub fn display(&mut self) -> Option<Display> {
        self.engine.display()
    }

    /// The game as PGN (chess) or PDN (draughts).
    pub fn record(&self) -> String {
        let (white, black) = match self.person {
            Color::White => ("Person".to_string(), self.engine_name.to_string()),
            Color::Black => (self.engine_name.to_string(), "Person".to_string()),
        };
        let (why, result) = match self.over() {
            Some((why, Some(side))) => (why, Some(GameResult::Win(side))),
            Some((why, None)) => (why, Some(GameResult::Draw)),
            None => ("game in progress".to_string(), None),
        };
        let tags: Vec<(String, String)> = [
            ("Event", "retrochess serve"),
            ("Site", "retrochess"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", white.as_str()),
            ("Black", black.as_str()),
            ("Engine", self.engine_id.as_str()),
            ("EngineSeed", self.seed.to_string().as_str()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        R::record(&tags, &self.game, &why, result)
    }

    /// The legal moves of the side to move, as the rules write them.
    pub fn legal(&self) -> Vec<String> {
        let pos = self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|m| self.game.rules().wire(pos, m).to_string())
            .collect()
    }

    /// The moves played, as the rules write them.
    pub fn wires(&self) -> Vec<String> {
        (0..self.game.moves().len())
            .filter_map(|i| self.game.wire_at(i).map(|w| w.to_string()))
            .collect()
    }
}
