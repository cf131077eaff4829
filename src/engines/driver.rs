//! The reply pipeline of every emulated program, written once.
//!
//! A driver file says only what is special about its program, as the
//! required methods of [`Program`] (its own steps: boot, the keys of a move,
//! taking a typed move in, the board check, injecting a position, running
//! to the reply, reading it, its thoughts). [`Driver`] is the one
//! [`Engine`] over any `Program`: it keeps the game the machine holds
//! ([`Track`]), decides between typing and injecting, counts the T-states
//! of a reply across a machine booted afresh ([`Spent`]), caps the budget
//! at the engine's own, and remembers the game after the reply. This is
//! shakmaty's `Position` shape: `play` is written once over a few required
//! methods.
//!
//! # The pipeline ([`Driver::play`] of [`Engine`])
//! 1. A move the program makes without thinking ([`Program::stored_reply`],
//!    the move on the tape) is the reply.
//! 2. Type a move: if the machine's game continues into the position by
//!    the opponent's move, the program gives its keys ([`Program::keys`]),
//!    the machine types them ([`Host::type_keys`]), the program takes the
//!    move in ([`Program::take_in`]) and its board must then show the real
//!    position ([`Program::board_check`]).
//! 3. Otherwise — no game on the machine, a move the program cannot type,
//!    refuses, or plays its own way — the position is injected
//!    ([`Program::inject`]), on a machine booted afresh where the program
//!    keeps state an injection cannot set ([`Program::INJECTS_FRESH`]).
//! 4. Run to the reply ([`Program::run_to_reply`]), collect the thoughts
//!    ([`Program::thoughts`]), read the reply ([`Program::read_reply`]).
//! 5. The machine's game goes on from the reply if the program moved and
//!    its board is intact; otherwise the next position is injected. A move
//!    whose board went astray ([`Played::Astray`]) continues it: the
//!    program keeps its own board, as the real machine would.

use std::ops::{Deref, DerefMut};

use log::info;

use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Hang, InputPath, Played, RateSample, Reply,
    Thoughts,
};
use crate::machine::{Cut, Host, Stop, TextScreen};
use crate::rules::{Color, Game, Rules, Verdict};

/// The game an emulated machine holds: played from `root` by `moves`, the
/// program's own last.
#[derive(Clone, Debug)]
pub struct Track<R: Rules> {
    pub root: R::Position,
    pub moves: Vec<R::Move>,
    /// The program's colour, once it has moved (`None`: it waits for the
    /// opponent's first move).
    pub engine: Option<Color>,
}

impl<R: Rules> Track<R> {
    /// Does `game` continue the machine's game by one move (the
    /// opponent's)?
    pub fn continued_by(&self, game: &Game<R>) -> bool {
        self.root == *game.root()
            && game.moves().len() == self.moves.len() + 1
            && game.moves().starts_with(&self.moves)
    }
}

/// Why a position is injected rather than typed as the program's keys
/// ([`Program::keys`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Untypable {
    /// The machine has no game (1K ZX Chess).
    NoGame,
    /// The game is not the machine's game and a move (1K ZX Chess).
    NotContinued,
    /// The position does not continue the machine's game (ChesSkelet).
    Diverged,
    /// A kind of move the program does not know (`castling`).
    UnknownMove(&'static str),
    /// The stack pointer is too low for another move cycle.
    StackLow(u16),
    /// The program's own reading of a move is not in the seed: what we do
    /// instead.
    NoReader(&'static str),
}

impl std::fmt::Display for Untypable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Untypable::NoGame => f.write_str("no game on the machine"),
            Untypable::NotContinued => f.write_str("not a continuation of the game on the machine"),
            Untypable::Diverged => f.write_str("the position does not continue the machine's game"),
            Untypable::UnknownMove(what) => write!(f, "{what} is unknown to the program"),
            Untypable::StackLow(sp) => write!(
                f,
                "the program's stack is down to 0x{sp:04X}: one more move would overwrite \
                 the ROM's channel area, which crashes a real Spectrum; reloaded"
            ),
            Untypable::NoReader(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Untypable {}

/// How taking a typed move in ended ([`Program::take_in`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakenIn {
    /// The program took the move in and went on to its search.
    Accepted,
    /// It did not; why, in words for the person. The position is injected.
    Refused(String),
    /// It did not come back: the reply is this hang.
    Hung(Stop),
}

/// What the board check found ([`Program::board_check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The program's board shows the real position.
    Shows,
    /// It does not (it played the typed move its own way): why, in words.
    Differs(String),
}

/// Why a position is injected ([`Program::inject`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injecting {
    /// Instead of typing: nothing was taken in (a person would have
    /// thought about the position meanwhile).
    Instead,
    /// Over a typed move the program took in but played its own way.
    OverTyped,
}

/// A reply as read off the machine ([`Program::read_reply`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Read<W> {
    pub played: Played<W>,
    pub score: Option<i32>,
    pub nodes: u64,
    /// False if the program's board is corrupted beyond its move: the game
    /// is not continued on this machine.
    pub intact: bool,
}

impl<W> Read<W> {
    /// A reply without a score, on an intact board.
    pub fn played(played: Played<W>, nodes: u64) -> Read<W> {
        Read {
            played,
            score: None,
            nodes,
            intact: true,
        }
    }
}

/// What is special about one program: the steps of [`Driver`]'s pipeline
/// that are its own. Required: the machine, boot, inject, run to the reply
/// and read it. Provided (a program that takes no typed moves, stores no
/// move, collects no thoughts): the rest.
pub trait Program: Send {
    /// The game it plays.
    type Rules: Rules;
    /// The machine it runs on.
    type Host: Host;

    /// Whether a reply's T-states count taking the position in (typing,
    /// reloading, injecting) as well as the search. False: they count from
    /// the start of [`Program::run_to_reply`].
    const COUNTS_INPUT: bool = false;
    /// Whether an injected position needs a machine booted afresh (the
    /// program keeps state between moves that injection cannot rebuild on
    /// a machine that has played).
    const INJECTS_FRESH: bool = false;

    fn info(&self) -> &'static EngineInfo;
    /// The machine.
    fn host(&self) -> &Self::Host;
    fn host_mut(&mut self) -> &mut Self::Host;

    /// Boots the program afresh: the machine as loaded, everything it
    /// leaves to chance drawn from `seed`.
    ///
    /// # Errors
    /// The tape cannot be loaded.
    fn boot(&mut self, seed: u64) -> Result<(), EngineError>;

    /// The game a freshly booted machine holds, if the program keeps one
    /// that typed moves can continue.
    fn booted_track(&self) -> Option<Track<Self::Rules>> {
        None
    }

    /// The reply the program makes to `game` without thinking (a move stored
    /// on its tape), if it makes one.
    ///
    /// # Errors
    /// As [`Program::boot`].
    fn stored_reply(
        &mut self,
        game: &Game<Self::Rules>,
    ) -> Result<Option<Reply<<Self::Rules as Rules>::Wire>>, EngineError> {
        let _ = game;
        Ok(None)
    }

    /// The keys that continue the machine's game (`track`) into `game`, or
    /// why the position must be injected instead.
    ///
    /// # Errors
    /// Why the move cannot be typed.
    fn keys(
        &mut self,
        track: Option<&Track<Self::Rules>>,
        game: &Game<Self::Rules>,
    ) -> Result<String, Untypable>;

    /// Runs after `keys` were typed until the program has taken the move in.
    fn take_in(&mut self, keys: &str, budget: u64) -> TakenIn {
        let _ = budget;
        TakenIn::Refused(format!("the program takes no keys ({keys})"))
    }

    /// After a typed move was taken in: does the program's board show
    /// `game`'s position?
    ///
    /// # Errors
    /// The board cannot be read.
    fn board_check(&mut self, keys: &str, game: &Game<Self::Rules>) -> Result<Check, EngineError> {
        let _ = (keys, game);
        Ok(Check::Shows)
    }

    /// Writes `game`'s position into the program's memory and sets it going
    /// as if the opponent's move had just been taken in.
    ///
    /// # Errors
    /// The position cannot be given to the program.
    fn inject(&mut self, game: &Game<Self::Rules>, why: Injecting) -> Result<(), EngineError>;

    /// Runs the program from the position taken in until it has replied or
    /// stopped, within `budget`.
    fn run_to_reply(&mut self, game: &Game<Self::Rules>, budget: u64) -> Stop;

    /// What the program weighed in this search, if collecting
    /// ([`Program::set_collect`]); `stop` is how the run to the reply ended.
    /// Taken before the reply is read.
    fn thoughts(
        &mut self,
        game: &Game<Self::Rules>,
        stop: Stop,
    ) -> Option<Thoughts<<Self::Rules as Rules>::Wire>> {
        let _ = (game, stop);
        None
    }

    /// The reply, read off the machine after the run ended with `stop`.
    ///
    /// # Errors
    /// The machine shows something that is not a move.
    fn read_reply(
        &mut self,
        game: &Game<Self::Rules>,
        stop: Stop,
    ) -> Result<Read<<Self::Rules as Rules>::Wire>, EngineError>;

    /// Collect thoughts from now on (or stop); false if the program cannot.
    fn set_collect(&mut self, on: bool) -> bool {
        let _ = on;
        false
    }

    /// For `bench` ([`Engine::raw_rate`]); the machine holds no game after.
    fn raw_rate(&mut self, pos: &<Self::Rules as Rules>::Position) -> Option<RateSample> {
        let _ = pos;
        None
    }
}

/// T-states spent on one reply, also across a machine replaced by a
/// fresh boot.
#[derive(Clone, Copy, Debug)]
pub struct Spent {
    t0: u64,
    carried: u64,
}

impl Spent {
    pub fn start(host: &impl Host) -> Spent {
        Spent {
            t0: host.busy_tstates(),
            carried: 0,
        }
    }

    pub fn now(&self, host: &impl Host) -> u64 {
        self.carried + host.busy_tstates().saturating_sub(self.t0)
    }

    /// The machine is about to be replaced: keep what it spent.
    pub fn before_reload(&mut self, host: &impl Host) {
        self.carried = self.now(host);
    }

    /// Counting goes on on the new machine.
    pub fn after_reload(&mut self, host: &impl Host) {
        self.t0 = host.busy_tstates();
    }
}

/// A program behind the one pipeline: the [`Engine`] of every emulated
/// program. Dereferences to the program, for its own tools and tests.
pub struct Driver<P: Program> {
    program: P,
    options: EngineOptions,
    track: Option<Track<P::Rules>>,
}

impl<P: Program> Driver<P> {
    /// The engine of a booted `program`.
    pub fn of(program: P, options: EngineOptions) -> Driver<P> {
        let track = program.booted_track();
        Driver {
            program,
            options,
            track,
        }
    }

    /// Forgets the game on the machine: the next position is injected.
    pub fn forget(&mut self) {
        self.track = None;
    }

    /// Brings the program to `game`'s position: typed if it can be, else
    /// injected. `Err`: it hung taking a typed move in.
    fn take_position(
        &mut self,
        game: &Game<P::Rules>,
        budget: u64,
        spent: &mut Spent,
    ) -> Result<Result<InputPath, (Stop, InputPath)>, EngineError> {
        let (why, injecting) = match self.program.keys(self.track.as_ref(), game) {
            Err(why) => (why.to_string(), Injecting::Instead),
            Ok(keys) => match self.type_in(&keys, game, budget)? {
                Ok(()) => return Ok(Ok(InputPath::Typed(keys))),
                Err(TypedOut::Hung(stop)) => return Ok(Err((stop, InputPath::Typed(keys)))),
                Err(TypedOut::Inject(why, injecting)) => (why, injecting),
            },
        };
        if P::INJECTS_FRESH {
            spent.before_reload(self.program.host());
            self.program.host_mut().set_cut(Cut::never());
            self.program.boot(self.options.seed)?;
            self.track = None;
            spent.after_reload(self.program.host());
        }
        self.program.inject(game, injecting)?;
        Ok(Ok(InputPath::Injected(why)))
    }

    /// Types `keys` and checks what the program made of them.
    fn type_in(
        &mut self,
        keys: &str,
        game: &Game<P::Rules>,
        budget: u64,
    ) -> Result<Result<(), TypedOut>, EngineError> {
        if let Err(c) = self.program.host_mut().type_keys(keys) {
            let why = format!("{c:?} is not a key of the {}", self.program.host().name());
            return Ok(Err(TypedOut::Inject(why, Injecting::Instead)));
        }
        Ok(match self.program.take_in(keys, budget) {
            TakenIn::Accepted => match self.program.board_check(keys, game)? {
                Check::Shows => Ok(()),
                Check::Differs(why) => Err(TypedOut::Inject(why, Injecting::OverTyped)),
            },
            TakenIn::Refused(why) => Err(TypedOut::Inject(why, Injecting::Instead)),
            TakenIn::Hung(stop) => Err(TypedOut::Hung(stop)),
        })
    }

    /// The machine's game after the reply `played` to `game`: the track
    /// it held, continued by the opponent's move and the reply (the usual
    /// case, by typing or injecting), or else `game`'s moves copied. A reply
    /// that left the program's board astray continues it too, with the
    /// chosen move where that is legal by itself (the game a GUI goes on
    /// with under `IllegalMoves play`): the program keeps its own board, as
    /// the real machine would, and the driver says how it takes the next
    /// move in on it ([`Program::board_check`]).
    fn follow(&mut self, game: &Game<P::Rules>, played: &Played<<P::Rules as Rules>::Wire>) {
        let held = self.track.take();
        let wire = match played {
            Played::Move(wire) => Some(wire),
            Played::Astray(astray) => Some(&astray.wire),
            _ => None,
        };
        self.track = match wire {
            Some(wire) => match game.rules().judge(game.position(), wire) {
                Verdict::Legal(m) => {
                    let mut track = match held {
                        Some(mut t) if t.continued_by(game) => {
                            t.moves.extend(game.moves().last().cloned());
                            t
                        }
                        _ => Track {
                            root: game.root().clone(),
                            moves: game.moves().to_vec(),
                            engine: None,
                        },
                    };
                    track.moves.push(m);
                    track.engine = Some(game.turn());
                    Some(track)
                }
                Verdict::Illegal(..) => None,
            },
            None => None,
        };
    }
}

/// Where typing a move ended, if not in the typed position.
enum TypedOut {
    Inject(String, Injecting),
    Hung(Stop),
}

impl<P: Program> Engine<P::Rules> for Driver<P> {
    fn info(&self) -> &'static EngineInfo {
        self.program.info()
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.program.boot(self.options.seed)?;
        self.track = self.program.booted_track();
        Ok(())
    }

    fn play(
        &mut self,
        game: &Game<P::Rules>,
        budget: u64,
    ) -> Result<Reply<<P::Rules as Rules>::Wire>, EngineError> {
        self.play_until(game, budget, &Cut::never())
    }

    /// The cut is set on the machine for this reply only (typing the move
    /// in and the search), and set again on a machine booted afresh for
    /// an injection; booting itself is never cut.
    fn play_until(
        &mut self,
        game: &Game<P::Rules>,
        budget: u64,
        cut: &Cut,
    ) -> Result<Reply<<P::Rules as Rules>::Wire>, EngineError> {
        self.program.host_mut().set_cut(cut.clone());
        let reply = self.reply(game, budget, cut);
        self.program.host_mut().set_cut(Cut::never());
        reply
    }

    fn collect_candidates(&mut self, on: bool) -> bool {
        self.program.set_collect(on)
    }

    fn screen(&mut self) -> Option<TextScreen> {
        Some(self.program.host().screen())
    }

    fn display(&mut self) -> Option<crate::machine::Display> {
        Some(self.program.host().display())
    }

    fn raw_rate(&mut self, pos: &<P::Rules as Rules>::Position) -> Option<RateSample> {
        let sample = self.program.raw_rate(pos);
        self.track = None;
        sample
    }
}

impl<P: Program> Driver<P> {
    /// [`Engine::play_until`] with the cut set on the machine.
    fn reply(
        &mut self,
        game: &Game<P::Rules>,
        budget: u64,
        cut: &Cut,
    ) -> Result<Reply<<P::Rules as Rules>::Wire>, EngineError> {
        let budget = budget.min(self.options.budget);
        if let Some(reply) = self.program.stored_reply(game)? {
            self.follow(game, &reply.played);
            return Ok(reply);
        }
        let mut spent = Spent::start(self.program.host());
        let path = match self.take_position(game, budget, &mut spent)? {
            Ok(path) => path,
            Err((stop, path)) => {
                self.track = None;
                let tstates = spent.now(self.program.host());
                return Ok(Reply {
                    played: Played::Hung(Hang::from_stop(stop)),
                    score: None,
                    thoughts: None,
                    nodes: 0,
                    tstates,
                    authentic: self.program.host().authentic_time(tstates),
                    path,
                });
            }
        };
        info!("{}: {path}", self.program.info().name);
        // An injection may have booted a fresh machine.
        self.program.host_mut().set_cut(cut.clone());
        if !P::COUNTS_INPUT {
            spent = Spent::start(self.program.host());
        }
        let stop = self.program.run_to_reply(game, budget);
        let thoughts = self.program.thoughts(game, stop);
        let read = self
            .program
            .read_reply(game, stop)
            .inspect_err(|_| self.track = None)?;
        let tstates = spent.now(self.program.host());
        if read.intact {
            self.follow(game, &read.played);
        } else {
            self.track = None;
        }
        Ok(Reply {
            played: read.played,
            score: read.score,
            thoughts,
            nodes: read.nodes,
            tstates,
            authentic: self.program.host().authentic_time(tstates),
            path,
        })
    }
}

impl<P: Program> Deref for Driver<P> {
    type Target = P;

    fn deref(&self) -> &P {
        &self.program
    }
}

impl<P: Program> DerefMut for Driver<P> {
    fn deref_mut(&mut self) -> &mut P {
        &mut self.program
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::onek::{OneKZxChess, VARIANTS};
    use crate::rules::chess::ChessRules;
    use shakmaty::uci::UciMove;

    fn game(moves: &[&str]) -> Game<ChessRules> {
        let mut g = Game::initial(ChessRules);
        for m in moves {
            let wire: UciMove = m.parse().unwrap();
            assert!(matches!(g.play_wire(&wire), Verdict::Legal(_)), "{m}");
        }
        g
    }

    #[test]
    fn a_track_is_continued_by_one_more_move_only() {
        let played = game(&["d2d3", "e7e5"]);
        let track: Track<ChessRules> = Track {
            root: played.root().clone(),
            moves: played.moves()[..1].to_vec(),
            engine: Some(Color::White),
        };
        assert!(track.continued_by(&played));
        assert!(!track.continued_by(&game(&["d2d3"])), "no new move");
        assert!(!track.continued_by(&game(&["d2d3", "e7e5", "g1f3"])));
        assert!(
            !track.continued_by(&game(&["e2e3", "e7e5"])),
            "other history"
        );
    }

    #[test]
    fn a_cut_ends_the_reply_as_a_deadline_and_one_never_due_changes_nothing() {
        use crate::rules::HangKind;
        let g = game(&["d2d3", "e7e5"]);
        let fresh = || {
            let mut e = OneKZxChess::new(&VARIANTS[0], EngineOptions::default()).unwrap();
            e.play(&game(&[]), u64::MAX).unwrap();
            e
        };
        let plain = fresh().play(&g, u64::MAX).unwrap();
        // A cut asked all along and never due: the same reply, T-state for
        // T-state.
        let never = fresh()
            .play_until(&g, u64::MAX, &Cut::when(|| false))
            .unwrap();
        assert_eq!(never, plain);
        // Due at once: the program still running at its deadline.
        let mut e = fresh();
        let cut = e.play_until(&g, u64::MAX, &Cut::when(|| true)).unwrap();
        let Played::Hung(hang) = &cut.played else {
            panic!("{:?}", cut.played)
        };
        assert_eq!(hang.kind, HangKind::Deadline);
        assert!(
            hang.detail.starts_with("still running at its deadline"),
            "{hang}"
        );
        assert!(cut.tstates < plain.tstates, "cut before its move");
        // The cut was for that reply only: the next runs to its move (on
        // the position injected, the machine's game being broken off).
        let again = e.play(&g, u64::MAX).unwrap();
        assert!(
            matches!(again.played, Played::Move(_)),
            "{:?}",
            again.played
        );
        assert!(
            matches!(again.path, InputPath::Injected(_)),
            "{:?}",
            again.path
        );
    }

    #[test]
    fn the_pipeline_types_what_continues_and_injects_the_rest() {
        let options = EngineOptions::default();
        let mut e = OneKZxChess::new(&VARIANTS[0], options).unwrap();
        // The tape's stored move, then the machine holds the game.
        let first = e.play(&game(&[]), u64::MAX).unwrap();
        assert_eq!(first.path, InputPath::Tape);
        assert_eq!(first.played, Played::Move("d2d3".parse().unwrap()));
        let reply = e.play(&game(&["d2d3", "e7e5"]), u64::MAX).unwrap();
        assert_eq!(reply.path, InputPath::Typed("7E5E".into()));
        let Played::Move(answer) = reply.played else {
            panic!("{:?}", reply.played)
        };
        assert!(reply.tstates > 0 && reply.nodes > 0);
        // The program's own reply is the machine's game now.
        let mut g = game(&["d2d3", "e7e5"]);
        assert!(matches!(g.play_wire(&answer), Verdict::Legal(_)));
        assert!(e.track.as_ref().is_some_and(|t| t.moves == g.moves()));
        // Typed again: the track goes on by the two moves.
        let mut next = g.clone();
        next.push(next.legal_moves()[0]);
        let reply = e.play(&next, u64::MAX).unwrap();
        let Played::Move(answer) = reply.played else {
            panic!("{:?}", reply.played)
        };
        assert!(matches!(next.play_wire(&answer), Verdict::Legal(_)));
        assert!(e.track.as_ref().is_some_and(|t| t.moves == next.moves()));
        // Another game is injected, with the reason, and is the track
        // after the reply.
        let other = game(&["e2e4", "e7e5", "g1f3"]);
        let reply = e.play(&other, u64::MAX).unwrap();
        assert_eq!(
            reply.path,
            InputPath::Injected("not a continuation of the game on the machine".into())
        );
        let track = e.track.as_ref().unwrap();
        assert_eq!(track.moves.len(), 4);
        assert!(track.moves.starts_with(other.moves()));
        // A budget too small: a hang, and the next position is injected.
        let reply = e.play(&game(&["e2e4"]), 1_000).unwrap();
        assert!(
            matches!(reply.played, Played::Hung(_)),
            "{:?}",
            reply.played
        );
        let reply = e.play(&game(&["e2e4"]), u64::MAX).unwrap();
        assert_eq!(
            reply.path,
            InputPath::Injected("no game on the machine".into())
        );
    }
}
