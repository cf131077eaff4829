//! One game of a match, refereed: the players are started, asked for moves
//! in turn, their clocks charged, every move judged by the rules, and the
//! game ended by the rules, by adjudication, or by a player's fault.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::config::{
    DEFAULT_EXTERNAL_TC, IllegalRule, MatchConfig, Pairing, player_names, seed_for,
};
use super::match_game::MatchGame;
use super::record::GameRecord;
use super::time_control::{MatchClock, TimeControl};
use super::turn::{Player, Turn};
use crate::arbiter::Judgement;
use crate::engines::Played;
use crate::rules::{Color, EndReason, Game, GameResult, Termination};

/// Illegal moves in a row after which `--illegal continue` forfeits.
const STRIKES: usize = 3;

/// A game being played.
struct GameInPlay<'a, R: MatchGame> {
    config: &'a MatchConfig<R>,
    game: Game<R>,
    record: GameRecord<R>,
    clocks: [MatchClock; 2],
    /// Each side's authentic thinking times.
    times: [Vec<Duration>; 2],
    retro: [bool; 2],
    strikes: usize,
}

/// Plays game `p`; returns its record and each side's authentic thinking
/// times (White's first), or `None` if `stop` was raised before it ended.
pub(super) fn play_game<R: MatchGame>(
    config: &MatchConfig<R>,
    p: &Pairing,
    stop: &AtomicBool,
) -> Option<(GameRecord<R>, [Vec<Duration>; 2])> {
    let mut in_play = GameInPlay::new(config, p);
    let seeds = [in_play.record.white_seed, in_play.record.black_seed];
    let specs = [&config.players[p.white], &config.players[p.black]];
    let mut players: Vec<Box<dyn Player<R>>> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        match spec.start(
            &config.rules,
            seeds[i],
            &config.engine_options,
            config.startup,
        ) {
            Ok(player) => players.push(player),
            Err(e) => {
                let name = in_play.name(side_of(i));
                in_play.end(
                    side_of(i),
                    EndReason::CouldNotStart,
                    format!("{name} could not start: {e}"),
                );
                return Some((in_play.record, in_play.times));
            }
        }
    }
    while !in_play.end_if_over() {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let i = index_of(in_play.game.turn());
        let turn = in_play.ask(players[i].as_mut());
        in_play.take(turn);
    }
    for player in players.iter_mut() {
        player.finish();
    }
    Some((in_play.record, in_play.times))
}

fn side_of(i: usize) -> Color {
    if i == 0 { Color::White } else { Color::Black }
}

fn index_of(side: Color) -> usize {
    if side.is_white() { 0 } else { 1 }
}

impl<'a, R: MatchGame> GameInPlay<'a, R> {
    /// The game set up from its opening, clocks from the time control.
    fn new(config: &'a MatchConfig<R>, p: &Pairing) -> GameInPlay<'a, R> {
        let opening = &config.openings[p.opening];
        let specs = [&config.players[p.white], &config.players[p.black]];
        let retro = [specs[0].is_retro(), specs[1].is_retro()];
        let tcs = retro.map(|retro| match config.tc {
            _ if retro && !config.authentic_clock => TimeControl::Infinite,
            Some(tc) => tc,
            None if retro => TimeControl::Infinite,
            None => DEFAULT_EXTERNAL_TC,
        });
        let names = player_names(&config.players);
        let game = opening.game(&config.rules);
        let record = GameRecord {
            number: p.number,
            round: p.round,
            white: names[p.white].clone(),
            black: names[p.black].clone(),
            white_seed: seed_for(config.seed, p.number, 1),
            black_seed: seed_for(config.seed, p.number, 2),
            opening: opening.name.clone(),
            root: opening.root.clone(),
            root_text: opening.root_text(&config.rules),
            moves: opening.moves.iter().map(|m| (m.clone(), None)).collect(),
            result: None,
            end: None,
            termination: Termination::Unterminated,
            reason: String::new(),
            illegal: Vec::new(),
            time_control: tcs
                .iter()
                .find(|tc| **tc != TimeControl::Infinite)
                .map_or("-".to_string(), |tc| tc.to_string()),
            retro_budget: retro
                .iter()
                .any(|&r| r)
                .then_some(config.engine_options.budget),
        };
        GameInPlay {
            config,
            game,
            record,
            clocks: tcs.map(MatchClock::new),
            times: [Vec::new(), Vec::new()],
            retro,
            strikes: 0,
        }
    }

    fn name(&self, side: Color) -> &str {
        if side.is_white() {
            &self.record.white
        } else {
            &self.record.black
        }
    }

    /// Whether the game has ended; ends it by the rules or by adjudication
    /// if it should.
    fn end_if_over(&mut self) -> bool {
        if self.record.result.is_some() {
            return true;
        }
        if let Some(ending) = self.game.ending() {
            self.record.result = Some(ending.result);
            self.record.end = Some(ending.reason);
            self.record.termination = Termination::Normal;
            self.record.reason = self.ending_words(ending.reason, ending.result);
            return true;
        }
        if self.game.moves().len() >= self.config.max_plies {
            self.record.result = Some(GameResult::Draw);
            self.record.end = Some(EndReason::MaxPlies);
            self.record.termination = Termination::Adjudication;
            self.record.reason = format!("draw: maximum of {} plies", self.config.max_plies);
            return true;
        }
        false
    }

    fn ending_words(&self, reason: EndReason, result: GameResult) -> String {
        let rules = self.game.rules();
        match (reason, result) {
            (EndReason::Checkmate, GameResult::Win(side)) => {
                format!("{} mates", rules.side_name(side))
            }
            (EndReason::NoLegalMove, GameResult::Win(side)) => format!(
                "{} wins: {} has no legal move",
                rules.side_name(side),
                rules.side_name(!side)
            ),
            (other, _) => format!("draw by {}", other.words()),
        }
    }

    /// Asks the player on move; charges what it used to its clock.
    fn ask(&mut self, player: &mut dyn Player<R>) -> Turn<R::Wire> {
        let i = index_of(self.game.turn());
        let (mine, theirs) = (self.clocks[i], self.clocks[1 - i]);
        let started = Instant::now();
        let turn = player.go(&self.game, &mine, &theirs);
        let wall = started.elapsed();
        let used = match &turn {
            Turn::Move {
                authentic: Some(a), ..
            }
            | Turn::Astray {
                authentic: Some(a), ..
            } => {
                self.times[i].push(*a);
                *a
            }
            _ if self.retro[i] => Duration::ZERO,
            _ => wall,
        };
        // The flag before the reply, as a GUI's clock runs: a move or a
        // resignation that comes after the clock ran out loses on time (an
        // engine's `bestmove 0000` after its flag fell is not its giving
        // up but its clock).
        let flagged = match &turn {
            Turn::Move { .. } | Turn::Astray { .. } => !self.clocks[i].charge(used),
            Turn::Resign(_) => self.clocks[i].left.is_some_and(|left| used > left),
            _ => false,
        };
        if flagged {
            let side = self.game.turn();
            let text = match &turn {
                Turn::Resign(why) => format!(
                    "{} loses on time (after its flag fell: {why})",
                    self.name(side)
                ),
                _ => format!("{} loses on time", self.name(side)),
            };
            self.end(side, EndReason::OutOfTime, text);
        }
        turn
    }

    /// Plays, flags or ends the game on the player's turn.
    fn take(&mut self, turn: Turn<R::Wire>) {
        if self.record.result.is_some() {
            return;
        }
        let side = self.game.turn();
        let (reason, text) = match turn {
            Turn::Move { wire, comment, .. } => {
                let comment = comment.filter(|_| self.config.comments);
                return self.judge(side, Played::Move(wire), comment.map(|c| c.to_string()));
            }
            Turn::Astray {
                astray, comment, ..
            } => {
                let comment = comment.filter(|_| self.config.comments);
                return self.judge(side, Played::Astray(astray), comment.map(|c| c.to_string()));
            }
            Turn::Resign(why) => (
                EndReason::Resignation,
                format!("{} resigns: {why}", self.name(side)),
            ),
            Turn::DeadEnd(why) => (
                EndReason::DeadEnd,
                format!("{why} (a dead end of the program)"),
            ),
            Turn::Hung(kind, why) => (EndReason::Hung(kind), why),
            Turn::Disconnected(why) => (EndReason::Disconnected, why),
            Turn::Stalled(why) => (EndReason::Stalled, why),
            Turn::ProtocolFault(why) => (EndReason::ProtocolFault, why),
        };
        self.end(side, reason, text);
    }

    /// Plays a legal move; flags an illegal one, which forfeits the game or,
    /// under `--illegal continue`, is not played and asked again.
    /// A move read with the program's board that is not a plain reading of
    /// it ([`Played::Astray`]) is judged with that board: what the program
    /// did to it, if it is no legal move, is the reason.
    fn judge(&mut self, side: Color, played: Played<R::Wire>, comment: Option<String>) {
        let (wire, why) = match Judgement::of(self.game.rules(), self.game.position(), &played) {
            Judgement::Legal(m, _) => {
                self.strikes = 0;
                self.game.push(m.clone());
                self.record.moves.push((m, comment));
                return;
            }
            Judgement::Illegal(wire, why) => (wire, why),
            // A move is judged legal or illegal, nothing else.
            Judgement::DeadEnd { .. } | Judgement::Hung(_) => return,
        };
        let kind = self.game.rules().illegal_kind(&why);
        self.record.illegal.push((side, wire.to_string(), kind));
        let text = format!("{} plays the illegal move {wire}: {why}", self.name(side));
        self.strikes += 1;
        if self.config.illegal == IllegalRule::Forfeit || self.strikes >= STRIKES {
            self.end(side, EndReason::IllegalMove, text);
            return;
        }
        // Continue: flag it on the previous move (or the reason, if none).
        let flag = format!("{text}; not played, asked again");
        match self.record.moves.last_mut() {
            Some((_, c)) => {
                let c = c.get_or_insert_with(String::new);
                if !c.is_empty() {
                    c.push_str("; ");
                }
                c.push_str(&flag);
            }
            None => self.record.reason.push_str(&format!("{flag}. ")),
        }
    }

    /// Ends the game as a loss of `loser`.
    fn end(&mut self, loser: Color, reason: EndReason, text: String) {
        self.record.result = Some(GameResult::loss(loser));
        self.record.end = Some(reason);
        self.record.termination = reason.termination();
        self.record.reason = format!("{}{text}", self.record.reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{EngineOptions, InputPath};
    use crate::rules::Rules;
    use crate::rules::chess::ChessRules;
    use crate::runner::openings;
    use crate::runner::player::PlayerSpec;
    use crate::runner::record::MoveNote;
    use shakmaty::uci::UciMove;

    fn config(illegal: IllegalRule, comments: bool) -> MatchConfig<ChessRules> {
        MatchConfig {
            rules: ChessRules,
            players: vec![PlayerSpec::Random, PlayerSpec::Random],
            games: 2,
            rounds: 1,
            concurrency: 1,
            openings: openings::built_in(),
            tc: None,
            authentic_clock: false,
            seed: 1,
            illegal,
            max_plies: 300,
            engine_options: EngineOptions::default(),
            startup: Duration::from_secs(1),
            comments,
            shard: Default::default(),
        }
    }

    const PAIRING: Pairing = Pairing {
        number: 1,
        round: 1,
        white: 0,
        black: 1,
        opening: 0,
        slot: 0,
    };

    fn turn(wire: &str) -> Turn<UciMove> {
        Turn::Move {
            wire: wire.parse().unwrap(),
            authentic: None,
            comment: Some(MoveNote {
                score: Some(-25),
                authentic: Duration::from_millis(6_300),
                nodes: 27,
                path: InputPath::Tape,
            }),
        }
    }

    /// A legal move of the side on move in the opening's position.
    fn legal(t: &GameInPlay<ChessRules>) -> String {
        let m = &t.game.legal_moves()[0];
        t.game.rules().wire(t.game.position(), m).to_string()
    }

    #[test]
    fn a_legal_move_is_played_with_its_note_and_an_illegal_one_forfeits() {
        let c = config(IllegalRule::Forfeit, true);
        let mut t = GameInPlay::new(&c, &PAIRING);
        let opening = t.record.moves.len();
        let side = t.game.turn();
        t.take(turn(&legal(&t)));
        assert_eq!(t.record.moves.len(), opening + 1);
        assert_eq!(
            t.record.moves.last().unwrap().1.as_deref(),
            Some("-0.25 6.3s, 27 nodes, tape")
        );
        assert!(t.record.result.is_none() && t.game.turn() != side);
        t.take(turn("a1a8"));
        assert_eq!(t.record.end, Some(EndReason::IllegalMove));
        assert_eq!(t.record.result, Some(GameResult::loss(!side)));
        assert_eq!(t.record.illegal.len(), 1);
        assert!(
            t.record.reason.contains("plays the illegal move a1a8"),
            "{}",
            t.record.reason
        );
        assert!(t.end_if_over());
    }

    #[test]
    fn under_continue_an_illegal_move_is_flagged_and_three_in_a_row_forfeit() {
        let c = config(IllegalRule::Continue, false);
        let mut t = GameInPlay::new(&c, &PAIRING);
        t.take(turn(&legal(&t)));
        assert_eq!(t.record.moves.last().unwrap().1, None, "--no-comments");
        for strike in 1..STRIKES {
            t.take(turn("a1a8"));
            let flagged = t.record.moves.last().unwrap().1.clone().unwrap();
            assert_eq!(flagged.matches("not played, asked again").count(), strike);
            assert!(t.record.result.is_none(), "strike {strike}");
        }
        t.take(turn("a1a8"));
        assert_eq!(t.record.end, Some(EndReason::IllegalMove));
    }

    #[test]
    fn what_a_player_gives_up_ends_the_game_with_its_reason() {
        let c = config(IllegalRule::Forfeit, true);
        for (turn, reason) in [
            (Turn::Resign("no move".into()), EndReason::Resignation),
            (Turn::DeadEnd("x found no move".into()), EndReason::DeadEnd),
            (Turn::Stalled("x stalls".into()), EndReason::Stalled),
            (
                Turn::Disconnected("x disconnects".into()),
                EndReason::Disconnected,
            ),
            (
                Turn::ProtocolFault("x breaks".into()),
                EndReason::ProtocolFault,
            ),
        ] {
            let mut t = GameInPlay::new(&c, &PAIRING);
            let side = t.game.turn();
            t.take(turn);
            assert_eq!(t.record.end, Some(reason));
            assert_eq!(t.record.result, Some(GameResult::loss(side)));
        }
    }

    /// Gives up at once, as an engine sending `bestmove 0000`.
    struct GivesUp;

    impl Player<ChessRules> for GivesUp {
        fn go(&mut self, _: &Game<ChessRules>, _: &MatchClock, _: &MatchClock) -> Turn<UciMove> {
            Turn::Resign("x has no move (0000)".into())
        }
    }

    #[test]
    fn a_reply_after_the_flag_fell_loses_on_time_whatever_it_says() {
        let mut c = config(IllegalRule::Forfeit, true);
        c.tc = Some("10+0".parse().unwrap());
        // With time left, giving up is giving up.
        let mut t = GameInPlay::new(&c, &PAIRING);
        let turn = t.ask(&mut GivesUp);
        t.take(turn);
        assert_eq!(t.record.end, Some(EndReason::Resignation));
        // With none, the flag has fallen first.
        let mut t = GameInPlay::new(&c, &PAIRING);
        let side = t.game.turn();
        t.clocks[index_of(side)].left = Some(Duration::ZERO);
        let turn = t.ask(&mut GivesUp);
        t.take(turn);
        assert_eq!(t.record.end, Some(EndReason::OutOfTime));
        assert_eq!(t.record.result, Some(GameResult::loss(side)));
        assert!(
            t.record
                .reason
                .contains("after its flag fell: x has no move (0000)"),
            "{}",
            t.record.reason
        );
    }

    #[test]
    fn a_whole_game_of_random_movers_ends_by_the_rules_or_adjudication() {
        let c = config(IllegalRule::Forfeit, true);
        let stop = AtomicBool::new(false);
        let (record, times) = play_game(&c, &PAIRING, &stop).unwrap();
        assert!(record.result.is_some(), "{}", record.reason);
        assert!(matches!(
            record.termination,
            Termination::Normal | Termination::Adjudication
        ));
        assert!(
            record.moves.iter().all(|(_, c)| c.is_none()),
            "random moves carry no note"
        );
        assert!(times.iter().all(Vec::is_empty), "no authentic times");
        stop.store(true, Ordering::SeqCst);
        assert!(
            play_game(&c, &PAIRING, &stop).is_none(),
            "stopped before it ended"
        );
    }
}
