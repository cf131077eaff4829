//! The built-in match runner: retro engines in-process, a random mover, and
//! external engines as subprocesses (UCI, CECP, Hub); adjudication by the
//! rules; the game's record (PGN, PDN) written game by game; a standings
//! table with joint ratings (`crate::rating`), intervals and LOS.
//!
//! Games run on `concurrency` worker threads. Each game gets fresh players
//! (a freshly loaded machine, or a freshly started process), seeded from the
//! match seed and the game number, so a match is reproducible whatever the
//! thread timing. Finished games are written to the PGN file in game order
//! as soon as every earlier game has been written, so the file is the same
//! byte for byte for the same seed and arguments (`pgnfile.rs` keeps the
//! waiting ones safe). A raised stop flag ends the match without waiting for
//! the games in flight.

mod config;
pub mod external;
mod match_game;
pub mod openings;
pub mod pdn;
pub mod pgn;
pub mod pgnfile;
pub mod player;
pub mod record;
mod referee;
pub mod shard;
pub mod time_control;
pub mod turn;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use crate::rating::Wdl;
use crate::rules::{Color, GameResult, Termination};
use config::Pairing;
pub use config::{DEFAULT_EXTERNAL_TC, IllegalRule, MatchConfig, player_names};
pub use match_game::MatchGame;
use pgnfile::PgnFile;
use record::GameRecord;

/// Why a match cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    TooFewPlayers,
    NoOpenings,
    /// More games than the standings can count.
    TooManyGames {
        players: usize,
        games: usize,
        rounds: usize,
    },
    /// Not one worker thread could be started.
    NoWorker(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::TooFewPlayers => write!(f, "a match needs at least two players"),
            MatchError::NoOpenings => write!(f, "no openings"),
            MatchError::TooManyGames {
                players,
                games,
                rounds,
            } => write!(
                f,
                "too many games: {players} players, {games} games, {rounds} rounds make more than {}",
                u32::MAX
            ),
            MatchError::NoWorker(e) => write!(f, "cannot start a worker thread: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// Per-player totals.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub name: String,
    pub wdl: Wdl,
    pub illegal: BTreeMap<&'static str, u32>,
    /// Authentic thinking times of its moves: how many took each whole
    /// number of milliseconds (bounded however long the match).
    pub authentic: BTreeMap<u64, u64>,
    pub losses_by: BTreeMap<Termination, u32>,
    /// Results against each opponent (by index), from this player's side.
    pub opponents: BTreeMap<usize, Wdl>,
}

/// The result of a match.
#[derive(Debug)]
pub struct MatchReport {
    /// Games finished (all tallied in `standings`).
    pub games: usize,
    pub standings: Vec<Standing>,
    /// Why it ended early, if it did.
    pub stopped: Option<Stopped>,
}

/// The schedule, computed a pairing at a time from its index: a long match
/// costs no memory up front. The order is rounds, then pairings (`a < b`,
/// in the order the players were given), then games (even games: `a` has
/// White; each opening twice in a row, colours reversed).
#[derive(Clone, Copy, Debug)]
struct Schedule {
    players: usize,
    games: usize,
    openings: usize,
    total: usize,
}

impl Schedule {
    /// The schedule of `games` games per pairing of `players` players,
    /// `rounds` times over.
    ///
    /// # Errors
    /// More games than a standings table can count (`u32`).
    fn new(
        players: usize,
        games: usize,
        rounds: usize,
        openings: usize,
    ) -> Result<Schedule, MatchError> {
        let total = (players * players.saturating_sub(1) / 2)
            .checked_mul(games)
            .and_then(|t| t.checked_mul(rounds))
            .filter(|&t| u32::try_from(t).is_ok())
            .ok_or(MatchError::TooManyGames {
                players,
                games,
                rounds,
            })?;
        Ok(Schedule {
            players,
            games,
            openings: openings.max(1),
            total,
        })
    }

    /// The `i`th game (0-based), if the schedule has one.
    fn pairing(&self, i: usize) -> Option<Pairing> {
        if i >= self.total {
            return None;
        }
        let per_round = self.players * (self.players - 1) / 2 * self.games;
        let (round, rest) = (i / per_round, i % per_round);
        let (mut k, g) = (rest / self.games, rest % self.games);
        let mut a = 0;
        while k >= self.players - 1 - a {
            k -= self.players - 1 - a;
            a += 1;
        }
        let b = a + 1 + k;
        let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
        Some(Pairing {
            number: i + 1,
            slot: i,
            round: round + 1,
            white,
            black,
            opening: (g / 2) % self.openings,
        })
    }
}

/// Why a match ended before its last game.
#[derive(Debug)]
pub enum Stopped {
    /// The caller's stop flag was raised (a signal): the games in flight
    /// are abandoned, every finished game is written.
    Interrupted,
    /// The PGN file could not be written: the match stops at once.
    Unwritable(pgnfile::PgnFileError),
}

/// One finished game, as a worker hands it over.
type Finished<R> = (Pairing, GameRecord<R>, [Vec<Duration>; 2]);

/// How often the collector looks at the stop flag while no game ends.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Runs the match, writing each game to `pgn` (if any) and reporting
/// progress through `progress(done, total, standings)`. Raising `stop` ends
/// the match early: games in flight are abandoned (their workers end at
/// their next move, in the background), finished ones are written.
///
/// # Errors
/// No players, no openings, too many games, or no worker thread.
pub fn run<R: MatchGame>(
    config: &MatchConfig<R>,
    mut pgn: Option<&mut PgnFile>,
    stop: &Arc<AtomicBool>,
    mut progress: impl FnMut(usize, usize, &[Standing]),
) -> Result<MatchReport, MatchError> {
    if config.players.len() < 2 {
        return Err(MatchError::TooFewPlayers);
    }
    if config.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let schedule = Schedule::new(
        config.players.len(),
        config.games,
        config.rounds,
        config.openings.len(),
    )?;
    let total = config.shard.games(schedule.total);
    let mut standings: Vec<Standing> = player_names(&config.players)
        .into_iter()
        .map(|name| Standing {
            name,
            ..Standing::default()
        })
        .collect();
    let rx = start_workers(config, schedule, stop)?;
    let mut games = 0;
    let mut stopped = None;
    progress(0, total, &standings);
    loop {
        let (p, record, times) = match rx.recv_timeout(STOP_POLL) {
            Ok(finished) => finished,
            // Raised: now, or while the last workers abandoned their games.
            Err(_) if stop.load(Ordering::SeqCst) => {
                stopped = Some(Stopped::Interrupted);
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        tally(&mut standings, &p, &record, times);
        games += 1;
        if let Some(out) = pgn.as_deref_mut()
            && let Err(e) = out.add(p.slot, config.rules.record_text(&record))
        {
            stopped = Some(Stopped::Unwritable(e));
            break;
        }
        progress(games, total, &standings);
    }
    if stopped.is_some() {
        // Workers still in a game end it at their next move.
        stop.store(true, Ordering::SeqCst);
    }
    if matches!(stopped, Some(Stopped::Interrupted))
        && let Some(out) = pgn
        && let Err(e) = out.flush_waiting()
    {
        stopped = Some(Stopped::Unwritable(e));
    }
    Ok(MatchReport {
        games,
        standings,
        stopped,
    })
}

/// Starts the workers, each playing the next unplayed game until none is
/// left or `stop` is raised. They own what they use, so a stopped match
/// returns without waiting for its games in flight.
///
/// # Errors
/// Not one worker thread could be started.
fn start_workers<R: MatchGame>(
    config: &MatchConfig<R>,
    schedule: Schedule,
    stop: &Arc<AtomicBool>,
) -> Result<mpsc::Receiver<Finished<R>>, MatchError> {
    let workers = config
        .concurrency
        .clamp(1, config.shard.games(schedule.total).max(1));
    // Bounded: workers wait for the writer rather than pile up records.
    let (tx, rx) = mpsc::sync_channel::<Finished<R>>(workers);
    let config = Arc::new(config.clone());
    let next = Arc::new(AtomicUsize::new(0));
    for started in 0..workers {
        let (tx, config, next, stop) = (tx.clone(), config.clone(), next.clone(), stop.clone());
        let worker = move || {
            while !stop.load(Ordering::SeqCst)
                && let slot = next.fetch_add(1, Ordering::SeqCst)
                && let Some(mut p) = schedule.pairing(config.shard.global(slot))
            {
                p.slot = slot;
                let Some((record, times)) = referee::play_game(&config, &p, &stop) else {
                    break;
                };
                if tx.send((p, record, times)).is_err() {
                    break;
                }
            }
        };
        // Fewer workers than asked for if the system has no more threads.
        match std::thread::Builder::new().spawn(worker) {
            Ok(_) => {}
            Err(_) if started > 0 => break,
            Err(e) => return Err(MatchError::NoWorker(e.to_string())),
        }
    }
    Ok(rx)
}

fn tally<R: MatchGame>(
    standings: &mut [Standing],
    p: &Pairing,
    record: &GameRecord<R>,
    times: [Vec<Duration>; 2],
) {
    let (w, b) = (p.white, p.black);
    let decisive = match record.result {
        Some(GameResult::Win(Color::White)) => Some((w, b)),
        Some(GameResult::Win(Color::Black)) => Some((b, w)),
        _ => None,
    };
    match decisive {
        Some((winner, loser)) => {
            standings[winner].wdl.wins += 1;
            standings[winner].opponents.entry(loser).or_default().wins += 1;
            standings[loser].opponents.entry(winner).or_default().losses += 1;
            standings[loser].wdl.losses += 1;
            *standings[loser]
                .losses_by
                .entry(record.termination)
                .or_default() += 1;
        }
        None => {
            standings[w].wdl.draws += 1;
            standings[b].wdl.draws += 1;
            standings[w].opponents.entry(b).or_default().draws += 1;
            standings[b].opponents.entry(w).or_default().draws += 1;
        }
    }
    for (side, _, kind) in &record.illegal {
        let who = if *side == Color::White { w } else { b };
        *standings[who].illegal.entry(kind).or_default() += 1;
    }
    for (who, times) in [w, b].into_iter().zip(times) {
        for t in times {
            let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
            *standings[who].authentic.entry(ms).or_default() += 1;
        }
    }
}

/// The median (the upper one of an even count) of a histogram of milliseconds.
fn median_ms(counts: &BTreeMap<u64, u64>) -> Option<u64> {
    let half = counts.values().sum::<u64>() / 2;
    let mut seen = 0;
    counts.iter().find_map(|(&ms, &n)| {
        seen += n;
        (seen > half).then_some(ms)
    })
}

/// The final table, one line per player (the names' column as wide as
/// the longest name, at least 28): wins, draws and losses; the
/// rating of every player jointly by `crate::rating` (Bradley–Terry with a
/// draw parameter, 2 virtual draws a pair so a clean sweep stays finite,
/// mean 0), its 95% interval (`lo..hi`, 1000 bootstrap resamples of the
/// games, seeded by `seed`); LOS, the likelihood that the player is
/// stronger than the one rated next below it.
pub fn table(standings: &[Standing], seed: u64) -> String {
    let ratings = rating_of(standings, seed);
    let mut s = String::new();
    let width = standings
        .iter()
        .map(|st| st.name.chars().count())
        .fold(28, usize::max);
    let _ = writeln!(
        s,
        "{:<width$} {:>5} {:>4} {:>4} {:>4} {:>6} {:>6} {:>11} {:>6}  {:>9}  illegal moves",
        "engine", "games", "W", "D", "L", "score", "Elo", "95% CI", "LOS", "auth. s"
    );
    for (i, st) in standings.iter().enumerate() {
        let w = &st.wdl;
        let score = w
            .score()
            .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
        let (elo, interval) = match ratings.elo[i] {
            e if e.is_finite() => (
                format!("{e:+.0}"),
                ratings.interval[i].map_or("-".into(), |(lo, hi)| format!("{lo:+.0}..{hi:+.0}")),
            ),
            _ => ("-".into(), "-".into()),
        };
        let below = ratings
            .order
            .iter()
            .position(|&p| p == i)
            .and_then(|k| ratings.order.get(k + 1));
        let los = below
            .and_then(|&b| ratings.los(i, b))
            .map_or("-".into(), |l| format!("{:.1}%", 100.0 * l));
        let auth = median_ms(&st.authentic).map_or("-".into(), |ms| {
            format!("{:.2}", Duration::from_millis(ms).as_secs_f64())
        });
        let illegal = if st.illegal.is_empty() {
            "0".to_string()
        } else {
            st.illegal
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "{:<width$} {:>5} {:>4} {:>4} {:>4} {:>6} {:>6} {:>11} {:>6}  {:>9}  {illegal}",
            st.name,
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            score,
            elo,
            interval,
            los,
            auth
        );
    }
    s
}

/// The standings' games rated jointly (colours aside, as the model has them).
pub fn rating_of(standings: &[Standing], seed: u64) -> crate::rating::Ratings {
    use crate::rating::{RateOptions, RatedGame, Score};
    let mut games = Vec::new();
    for (a, st) in standings.iter().enumerate() {
        for (&b, r) in st.opponents.range(a + 1..) {
            for (n, result) in [
                (r.wins, Score::WhiteWins),
                (r.draws, Score::Draw),
                (r.losses, Score::BlackWins),
            ] {
                games.extend((0..n).map(|_| RatedGame {
                    white: a,
                    black: b,
                    result,
                }));
            }
        }
    }
    let options = RateOptions {
        seed,
        ..RateOptions::default()
    };
    crate::rating::rate(standings.len(), &games, &options)
}

use std::fmt::Write as _;

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule as nested loops, as it was once built in full.
    fn listed(players: usize, games: usize, rounds: usize, openings: usize) -> Vec<Pairing> {
        let mut out = Vec::new();
        for round in 1..=rounds {
            for a in 0..players {
                for b in a + 1..players {
                    for g in 0..games {
                        let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                        out.push(Pairing {
                            number: out.len() + 1,
                            slot: out.len(),
                            round,
                            white,
                            black,
                            opening: (g / 2) % openings,
                        });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn pairings_computed_from_their_index_follow_the_nested_loops() {
        for (players, games, rounds, openings) in [(2, 20, 1, 10), (5, 3, 2, 2), (4, 1, 3, 1)] {
            let s = Schedule::new(players, games, rounds, openings).unwrap();
            let want = listed(players, games, rounds, openings);
            assert_eq!(s.total, want.len());
            for (i, w) in want.iter().enumerate() {
                let p = s.pairing(i).unwrap();
                assert_eq!(
                    (p.number, p.round, p.white, p.black, p.opening),
                    (w.number, w.round, w.white, w.black, w.opening),
                    "game {i} of {players} players"
                );
            }
            assert!(s.pairing(want.len()).is_none());
        }
        // The last of a hundred million games, without listing them.
        let s = Schedule::new(3, 100_000_000, 1, 10).unwrap();
        let p = s.pairing(s.total - 1).unwrap();
        assert_eq!((p.number, p.white, p.black), (300_000_000, 2, 1));
        let e = Schedule::new(2, usize::MAX, 2, 1).unwrap_err().to_string();
        assert!(e.starts_with("too many games"), "{e}");
        assert!(
            Schedule::new(3, 1 << 31, 1, 1).is_err(),
            "past u32 standings"
        );
    }

    #[test]
    fn median_of_a_histogram() {
        let h: BTreeMap<u64, u64> = [(5, 1), (7, 2), (9, 1)].into_iter().collect();
        assert_eq!(median_ms(&h), Some(7));
        let h: BTreeMap<u64, u64> = [(5, 1), (9, 1)].into_iter().collect();
        assert_eq!(median_ms(&h), Some(9), "the upper median of an even count");
        assert_eq!(median_ms(&BTreeMap::new()), None);
    }
}
