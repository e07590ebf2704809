//! Plays one game between engine processes, refereed by the engine library's
//! own rules (`GameSession`): every move is checked, the clocks are kept on the
//! runner's side, and a misbehaving engine loses the game and is killed (the
//! worker starts it again for its next game).

use crate::runner::config::{MatchConfig, TimeControl};
use crate::runner::engine::{clip, EngineProcess, Fault};
use crate::runner::record::{engine_scores, seat_name, GameRecord};
use crate::runner::schedule::{referee, DiceStream, GameSpec, Opening};
use std::time::{Duration, Instant};
use yomi_engine::core::game::GameResult;
use yomi_engine::core::{Outcome, Seat};
use yomi_engine::session::{GameSession, PositionError};

/// The engine processes a worker owns, by engine index (`None`: to be started).
pub type Engines = Vec<Option<EngineProcess>>;

/// A warning for the log (stderr), besides the record.
pub type Log<'a> = &'a mut dyn FnMut(String);

/// How a game ended, before it is scored.
enum End {
    /// On the board, as the referee rules; `detail` is where (`ply 83
    /// captured b 5 w 2`).
    Over { outcome: Outcome, detail: String },
    /// These seats forfeit (their engine failed or resigned). One seat: the
    /// referee's `ruling` for its forfeit at that position ranks everyone;
    /// several (an engine that could not start): they share the last places
    /// and the others the first.
    Forfeit {
        seats: Vec<usize>,
        reason: String,
        detail: String,
        ruling: Option<GameResult>,
    },
    /// No result from the board (max plies, a referee error): every seat shares
    /// the first place.
    Drawn { reason: String, detail: String },
}

/// A scored end: place per seat, the game's points, reason, detail.
#[derive(Clone, Debug, PartialEq)]
struct Settled {
    places: Vec<u32>,
    points: u32,
    reason: String,
    detail: String,
}

/// Places per seat and the points of a result.
fn places_of(result: GameResult, seats: usize) -> (Vec<u32>, u32) {
    match result {
        GameResult::Win { winner, points } => (
            Seat::all(seats)
                .map(|s| if s == winner { 1 } else { 2 })
                .collect(),
            points as u32,
        ),
        GameResult::Draw => (vec![1; seats], 0),
        GameResult::Places(places) => (places.iter().take(seats).map(|&p| p as u32).collect(), 0),
    }
}

/// Scores an end. A forfeit puts the faulting seats last (sharing) and the
/// others first (sharing); with two players that is a win worth 1 point.
fn settle(end: End, seats: usize) -> Settled {
    match end {
        End::Over { outcome, detail } => {
            let (places, points) = places_of(outcome.result, seats);
            Settled {
                places,
                points,
                reason: outcome.reason.to_string(),
                detail,
            }
        }
        End::Forfeit {
            seats: faulty,
            reason,
            detail,
            ruling,
        } => {
            let (places, points) = match (&faulty[..], ruling) {
                ([_], Some(result)) => places_of(result, seats),
                _ => {
                    let last = (seats - faulty.len().min(seats) + 1) as u32;
                    let places: Vec<u32> = (0..seats)
                        .map(|s| {
                            if faulty.contains(&s) && faulty.len() < seats {
                                last
                            } else {
                                1
                            }
                        })
                        .collect();
                    // Two players: a 1-point win; four seats have no points.
                    let points = u32::from(seats == 2 && places.iter().any(|&p| p > 1));
                    (places, points)
                }
            };
            Settled {
                places,
                points,
                reason,
                detail,
            }
        }
        End::Drawn { reason, detail } => Settled {
            places: vec![1; seats],
            points: 0,
            reason,
            detail,
        },
    }
}

/// The `go` line and the time this move may take (`None`: untimed). Two seats
/// use USI's `btime`/`wtime`; four seats `time0` … `time3` (and `inc0` … `inc3`).
fn go_command(tc: &TimeControl, clocks: &[u64], seat: usize) -> (String, Option<u64>) {
    match *tc {
        TimeControl::Nodes(n) => (format!("go nodes {n}"), None),
        TimeControl::Depth(d) => (format!("go depth {d}"), None),
        TimeControl::MoveTime(ms) => (format!("go movetime {ms}"), Some(ms)),
        TimeControl::Clock {
            main_ms,
            inc_ms,
            byoyomi_ms,
        } => {
            if main_ms == 0 && inc_ms == 0 {
                return (format!("go byoyomi {byoyomi_ms}"), Some(byoyomi_ms));
            }
            let mut line = String::from("go");
            if clocks.len() == 2 {
                line.push_str(&format!(" btime {} wtime {}", clocks[0], clocks[1]));
            } else {
                for (s, ms) in clocks.iter().enumerate() {
                    line.push_str(&format!(" time{s} {ms}"));
                }
            }
            if byoyomi_ms > 0 {
                line.push_str(&format!(" byoyomi {byoyomi_ms}"));
            } else if inc_ms > 0 {
                if clocks.len() == 2 {
                    line.push_str(&format!(" binc {inc_ms} winc {inc_ms}"));
                } else {
                    for s in 0..clocks.len() {
                        line.push_str(&format!(" inc{s} {inc_ms}"));
                    }
                }
            }
            (line, Some(clocks[seat] + inc_ms + byoyomi_ms))
        }
    }
}

/// The clock after a move that took `elapsed` ms.
fn charge(tc: &TimeControl, clock: u64, elapsed: u64) -> u64 {
    match *tc {
        TimeControl::Clock { inc_ms, .. } => (clock + inc_ms).saturating_sub(elapsed),
        _ => clock,
    }
}

/// `position …` with the opening's moves, then `tokens` (the moves played, and
/// for Sugoroku the rolls before them: `52 13/8,13/11`).
fn position_line(spec: &GameSpec, tokens: &[String]) -> String {
    let mut line = match &spec.opening.sfen {
        None => "position startpos".to_string(),
        Some(sfen) => format!("position sfen {sfen}"),
    };
    let all: Vec<&str> = spec
        .opening
        .moves
        .iter()
        .chain(tokens)
        .map(String::as_str)
        .collect();
    if !all.is_empty() {
        line.push_str(" moves ");
        line.push_str(&all.join(" "));
    }
    line
}

/// Gives up on an engine: kills it so that it is started again next game.
fn drop_engine(engines: &mut Engines, index: usize) {
    if let Some(mut engine) = engines[index].take() {
        engine.kill();
    }
}

/// The `gameover` word for an engine. Two engines: by its score (win above ½,
/// draw at ½). Four: `win` for a first place, `draw` for second, `lose` for
/// third and fourth; everyone sharing first is a draw.
fn gameover_word(spec: &GameSpec, places: &[u32], scores: &[f64], engine: usize) -> &'static str {
    let mut playing: Vec<usize> = spec.seats.clone();
    playing.sort();
    playing.dedup();
    if playing.len() == 2 {
        let score = scores[engine];
        return if score > 0.5 + 1e-9 {
            "win"
        } else if score < 0.5 - 1e-9 {
            "lose"
        } else {
            "draw"
        };
    }
    if places.iter().all(|&p| p == 1) {
        return "draw";
    }
    let best = spec
        .seats
        .iter()
        .zip(places)
        .filter(|(&e, _)| e == engine)
        .map(|(_, &p)| p)
        .min()
        .unwrap_or(places.len() as u32);
    match best {
        1 => "win",
        2 => "draw",
        _ => "lose",
    }
}

/// Plays `spec` with the worker's engines; always returns a record (faults are
/// results).
pub fn play_game(
    config: &MatchConfig,
    spec: &GameSpec,
    engines: &mut Engines,
    log: Log,
) -> GameRecord {
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut played = Played::default();
    let end = play(config, spec, engines, &mut played, log);
    let seats = spec.seats.len();
    let Settled {
        places,
        points,
        reason,
        detail,
    } = settle(end, seats);
    let scores = engine_scores(&spec.seats, &places, config.engines.len());
    let firsts: Vec<usize> = (0..seats).filter(|&s| places[s] == 1).collect();
    let winner = (firsts.len() == 1).then(|| firsts[0]);
    // Tell every engine still running how it went (once, also when it has two seats).
    let mut told = Vec::new();
    for &e in &spec.seats {
        if told.contains(&e) {
            continue;
        }
        told.push(e);
        if let Some(engine) = engines[e].as_mut() {
            let word = gameover_word(spec, &places, &scores, e);
            if engine.send(&format!("gameover {word}")).is_err() {
                drop_engine(engines, e);
            }
        }
    }
    GameRecord {
        id: spec.id,
        pair: spec.pair,
        seed: config.seed,
        dice_seed: spec.dice_seed,
        game: config.game.name().to_string(),
        engines: names,
        seats: spec.seats.clone(),
        opening: spec.opening.clone(),
        tc: config.tc.describe(),
        moves: played.moves,
        movers: played.movers,
        mover_seats: played.mover_seats,
        times_ms: played.times,
        winner,
        places,
        points: if winner.is_some() { points } else { 0 },
        reason,
        detail,
        scores,
    }
}

/// The rules at a game's current position: set up once with the opening, then
/// each entry (a move, a roll) played on it, so that a game costs the referee
/// one move's work a ply, not the whole game again.
struct Referee {
    session: Box<dyn GameSession>,
    /// The entries the session has been given: the opening's and one a ply.
    entries: usize,
}

impl Referee {
    fn start(mut session: Box<dyn GameSession>, opening: &Opening) -> Result<Referee, String> {
        let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
        session
            .set_position(opening.sfen.as_deref(), &moves)
            .map_err(|e| format!("referee: {e}"))?;
        Ok(Referee {
            session,
            entries: moves.len(),
        })
    }

    /// Plays one entry; on an error the position stays.
    fn play(&mut self, entry: &str) -> Result<(), PositionError> {
        self.session.play(entry)?;
        self.entries += 1;
        Ok(())
    }
}

impl std::ops::Deref for Referee {
    type Target = dyn GameSession;
    fn deref(&self) -> &Self::Target {
        &*self.session
    }
}

/// What has been played so far.
#[derive(Default)]
struct Played {
    /// Record entries: moves, with their dice in Sugoroku (`52:13/8,13/11`).
    moves: Vec<String>,
    movers: Vec<usize>,
    mover_seats: Vec<usize>,
    times: Vec<u64>,
    /// The `position … moves` tokens after the opening: in Sugoroku a roll
    /// (`52`) and the move (`13/8,13/11`) are separate tokens.
    tokens: Vec<String>,
}

/// Starts (or checks) the engines of a game and begins a new game in each: the
/// seats whose engine failed, with the first fault.
fn start_engines(
    config: &MatchConfig,
    spec: &GameSpec,
    engines: &mut Engines,
    log: Log,
) -> Option<(Vec<usize>, Fault, usize)> {
    let name = |e: usize| config.engines[e].name.clone();
    let mut failed: Vec<(usize, Fault)> = Vec::new();
    let mut distinct: Vec<usize> = Vec::new();
    for &e in &spec.seats {
        if !distinct.contains(&e) {
            distinct.push(e);
        }
    }
    for e in distinct {
        if engines[e].is_none() {
            match EngineProcess::start(
                &config.engines[e],
                &config.engine_setup(),
                config.handshake_timeout,
            ) {
                Ok(engine) => {
                    for error in &engine.errors {
                        log(format!("{}: {}", name(e), clip(error)));
                    }
                    engines[e] = Some(engine);
                }
                Err(fault) => {
                    log(format!(
                        "game {}: {} failed to start: {}",
                        spec.id,
                        name(e),
                        fault.detail()
                    ));
                    failed.push((e, fault));
                    continue;
                }
            }
        }
        let engine = engines[e].as_mut().expect("started");
        let ready = engine
            .sync(config.handshake_timeout)
            .and_then(|_| engine.send("usinewgame"));
        if let Err(fault) = ready {
            log(format!(
                "game {}: {} before the game: {}",
                spec.id,
                name(e),
                fault.detail()
            ));
            drop_engine(engines, e);
            failed.push((e, fault));
        }
    }
    let (first_engine, first_fault) = failed.first().cloned()?;
    let seats: Vec<usize> = (0..spec.seats.len())
        .filter(|&s| failed.iter().any(|(e, _)| *e == spec.seats[s]))
        .collect();
    Some((seats, first_fault, first_engine))
}

fn play(
    config: &MatchConfig,
    spec: &GameSpec,
    engines: &mut Engines,
    played: &mut Played,
    log: Log,
) -> End {
    let seats = spec.seats.len();
    let name = |e: usize| config.engines[e].name.clone();
    let forfeit =
        |seat: usize, reason: &str, detail: String, session: &dyn GameSession| End::Forfeit {
            seats: vec![seat],
            reason: reason.to_string(),
            detail,
            ruling: Some(session.forfeit(Seat::new(seat))),
        };
    let over = |outcome: Outcome, session: &dyn GameSession| End::Over {
        outcome,
        detail: format!("ply {} {}", session.state().ply, session.status_details()),
    };
    let error = |detail: String| End::Drawn {
        reason: "error".into(),
        detail,
    };
    if let Some((faulty, fault, engine)) = start_engines(config, spec, engines, log) {
        let detail = if faulty.len() == seats {
            format!(
                "no engine could start; {}: {}",
                name(engine),
                fault.detail()
            )
        } else {
            format!("{} at the start: {}", name(engine), fault.detail())
        };
        return End::Forfeit {
            seats: faulty,
            reason: fault.reason().to_string(),
            detail,
            ruling: None,
        };
    }

    let mut session = match referee(config).and_then(|rules| Referee::start(rules, &spec.opening)) {
        Ok(s) => s,
        Err(e) => return error(e),
    };
    let margin = config.timeout_margin.as_millis() as u64;
    let initial = match config.tc {
        TimeControl::Clock { main_ms, .. } => main_ms,
        _ => 0,
    };
    let mut clocks = vec![initial; seats];
    let mut dice = DiceStream::new(spec.dice_seed);
    loop {
        if let Some(outcome) = session.state().outcome {
            return over(outcome, &*session);
        }
        let ply = spec.opening.moves.len() + played.moves.len();
        if config.max_plies > 0 && ply as u64 >= config.max_plies as u64 {
            return End::Drawn {
                reason: "max-plies".into(),
                detail: format!("{ply} plies played"),
            };
        }
        // Sugoroku: the runner rolls for the side to move from the pairing's stream.
        let mut roll: Option<String> = None;
        if session.state().awaits_chance {
            let token = dice.token();
            played.tokens.push(token.clone());
            if let Err(e) = session.play(&token) {
                return error(format!("referee: the roll {token}: {e}"));
            }
            if let Some(outcome) = session.state().outcome {
                return over(outcome, &*session);
            }
            roll = Some(token);
        }
        let with_dice = |mv: &str| match &roll {
            Some(token) => format!("{token}:{mv}"),
            None => mv.to_string(),
        };
        let seat = session.state().to_move.index();
        if seat >= seats {
            return error(format!(
                "referee: seat {seat} to move at a table of {seats}"
            ));
        }
        let e = spec.seats[seat];
        let ply = ply + 1;
        let (go, allowed) = go_command(&config.tc, &clocks, seat);
        let position = position_line(spec, &played.tokens);
        let engine = engines[e]
            .as_mut()
            .expect("engines are running during a game");
        let sent = engine.send(&position).and_then(|_| engine.send(&go));
        let t0 = Instant::now();
        if let Err(fault) = sent {
            drop_engine(engines, e);
            return forfeit(
                seat,
                fault.reason(),
                format!("{} at ply {ply}: {}", name(e), fault.detail()),
                &*session,
            );
        }
        let deadline = match allowed {
            Some(ms) => t0 + Duration::from_millis(ms + margin),
            None => t0 + config.hang_timeout,
        };
        let answer = engine.wait_bestmove(deadline);
        let best = match answer {
            Ok(best) => best,
            Err(Fault::Hang(_)) if allowed.is_some() => {
                let waited = t0.elapsed().as_millis() as u64;
                played.times.push(waited);
                // Out of time: ask for the move anyway; an engine that does not
                // answer `stop` promptly is killed.
                let grace = Instant::now() + config.hang_timeout.min(Duration::from_secs(1));
                let stopped = engine
                    .send("stop")
                    .and_then(|_| engine.wait_bestmove(grace));
                let killed = if stopped.is_err() {
                    drop_engine(engines, e);
                    "; no bestmove after stop, killed"
                } else {
                    ""
                };
                let detail = format!(
                    "{} at ply {ply}: no bestmove within {} ms (allowed {} + margin {margin}){killed}",
                    name(e),
                    waited,
                    allowed.unwrap_or(0)
                );
                log(format!("game {}: timeout: {detail}", spec.id));
                return forfeit(seat, "timeout", detail, &*session);
            }
            Err(fault) => {
                played.times.push(t0.elapsed().as_millis() as u64);
                log(format!(
                    "game {}: {}: {} at ply {ply} (killed; restarted for the next game)",
                    spec.id,
                    name(e),
                    fault.detail(),
                ));
                drop_engine(engines, e);
                return forfeit(
                    seat,
                    fault.reason(),
                    format!("{} at ply {ply}: {}", name(e), fault.detail()),
                    &*session,
                );
            }
        };
        let elapsed = best.at.saturating_duration_since(t0).as_millis() as u64;
        played.times.push(elapsed);
        if let Some(ms) = allowed {
            if elapsed > ms + margin {
                let detail = format!(
                    "{} at ply {ply}: bestmove after {elapsed} ms (allowed {ms} + margin {margin})",
                    name(e),
                );
                log(format!("game {}: timeout: {detail}", spec.id));
                return forfeit(seat, "timeout", detail, &*session);
            }
            clocks[seat] = charge(&config.tc, clocks[seat], elapsed);
        }
        let mv = best.text;
        if mv == "resign" {
            return forfeit(
                seat,
                "resign",
                format!("{} resigned at ply {ply}", name(e)),
                &*session,
            );
        }
        if let Err(error) = session.play(&mv) {
            let error = match error {
                PositionError::Move { error, .. } => error.to_string(),
                other => other.to_string(),
            };
            let detail = format!(
                "{} ({}) played '{}' at ply {ply} in position {}: {error}",
                name(e),
                seat_name(seat, seats),
                clip(&mv),
                position.trim_start_matches("position "),
            );
            log(format!("game {}: illegal move: {detail}", spec.id));
            return forfeit(seat, "illegal-move", detail, &*session);
        }
        played.moves.push(with_dice(&mv));
        played.tokens.push(mv);
        played.movers.push(e);
        played.mover_seats.push(seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_scored_by_seat() {
        let over = |result: GameResult, seats: usize| {
            settle(
                End::Over {
                    outcome: Outcome {
                        result,
                        reason: "why",
                    },
                    detail: "ply 9".into(),
                },
                seats,
            )
        };
        let win = over(
            GameResult::Win {
                winner: Seat::new(1),
                points: 3,
            },
            2,
        );
        assert_eq!((win.places, win.points), (vec![2, 1], 3));
        assert_eq!((win.reason.as_str(), win.detail.as_str()), ("why", "ply 9"));
        let draw = over(GameResult::Draw, 2);
        assert_eq!((draw.places, draw.points), (vec![1, 1], 0));
        // Four seats: places by seat, shared places kept.
        let places = over(GameResult::Places([1, 1, 3, 4].into()), 4);
        assert_eq!((places.places, places.points), (vec![1, 1, 3, 4], 0));
    }

    #[test]
    fn forfeits_and_draws() {
        let forfeit = |seats: Vec<usize>, n: usize, ruling: Option<GameResult>| {
            settle(
                End::Forfeit {
                    seats,
                    reason: "crash".into(),
                    detail: String::new(),
                    ruling,
                },
                n,
            )
        };
        // One seat: the referee's ruling.
        let two = forfeit(
            vec![1],
            2,
            Some(GameResult::Win {
                winner: Seat::new(0),
                points: 1,
            }),
        );
        assert_eq!((two.places, two.points), (vec![1, 2], 1));
        let ranked = forfeit(vec![2], 4, Some(GameResult::Places([2, 1, 4, 3].into())));
        assert_eq!((ranked.places, ranked.points), (vec![2, 1, 4, 3], 0));
        // Without one (at the start): the faulting seat 4th, the others share 1st.
        assert_eq!(forfeit(vec![2], 4, None).places, vec![1, 1, 4, 1]);
        let two = forfeit(vec![0], 2, None);
        assert_eq!((two.places, two.points), (vec![2, 1], 1));
        // An engine with two seats that cannot start: both share 3rd.
        assert_eq!(forfeit(vec![1, 3], 4, None).places, vec![1, 3, 1, 3]);
        // Everyone at fault: a draw.
        let all = forfeit(vec![0, 1], 2, None);
        assert_eq!((all.places, all.points), (vec![1, 1], 0));
        let drawn = settle(
            End::Drawn {
                reason: "max-plies".into(),
                detail: String::new(),
            },
            4,
        );
        assert_eq!(drawn.places, vec![1, 1, 1, 1]);
    }

    #[test]
    fn a_forfeit_is_ruled_by_the_referee_of_the_game() {
        let mut referee = yomi_engine::registry::new_session("yonin").unwrap();
        referee.set_position(None, &[]).unwrap();
        let places = match referee.forfeit(Seat::new(1)) {
            GameResult::Places(places) => places,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            places.into_array(),
            [1, 4, 1, 1],
            "equal standing: the others share first"
        );
        let referee = yomi_engine::registry::new_session("annan").unwrap();
        assert_eq!(
            referee.forfeit(Seat::new(0)),
            GameResult::Win {
                winner: Seat::new(1),
                points: 1
            }
        );
    }

    #[test]
    fn the_referee_plays_one_entry_a_ply_and_stands_where_the_whole_list_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let new_session = yomi_engine::registry::new_session;
        for game in yomi_engine::registry::NAMES {
            let opening = Opening {
                sfen: None,
                moves: Vec::new(),
            };
            let mut referee = Referee::start(new_session(game).unwrap(), &opening).unwrap();
            let mut whole = new_session(game).unwrap();
            let mut entries: Vec<String> = Vec::new();
            while referee.state().outcome.is_none() && entries.len() < 600 {
                let entry = if referee.state().awaits_chance {
                    DiceStream::new(rng.gen()).token()
                } else {
                    let legal = referee.legal_moves();
                    legal[rng.gen_range(0..legal.len())].clone()
                };
                referee.play(&entry).unwrap();
                entries.push(entry);
                // One entry more for the session, whatever the game's length.
                assert_eq!(referee.entries, entries.len(), "{game}");
                let list: Vec<&str> = entries.iter().map(String::as_str).collect();
                whole.set_position(None, &list).unwrap();
                assert_eq!(referee.sfen(), whole.sfen(), "{game} {list:?}");
                assert_eq!(referee.state(), whole.state(), "{game} {list:?}");
                assert_eq!(referee.status_details(), whole.status_details());
            }
        }
    }

    #[test]
    fn gameover_words() {
        let spec = |seats: Vec<usize>| GameSpec {
            id: 0,
            pair: 0,
            seats,
            opening: crate::runner::schedule::Opening {
                sfen: None,
                moves: Vec::new(),
            },
            dice_seed: 0,
        };
        let four = spec(vec![0, 1, 2, 3]);
        let places = [2, 1, 4, 3];
        let scores = engine_scores(&four.seats, &places, 4);
        let words: Vec<&str> = (0..4)
            .map(|e| gameover_word(&four, &places, &scores, e))
            .collect();
        assert_eq!(words, vec!["draw", "win", "lose", "lose"]);
        let all = [1, 1, 1, 1];
        assert_eq!(gameover_word(&four, &all, &[0.5; 4], 0), "draw");
        // Partners: by the engine's mean score.
        let pairs = spec(vec![0, 1, 0, 1]);
        let places = [1, 3, 2, 4];
        let scores = engine_scores(&pairs.seats, &places, 2);
        assert_eq!(gameover_word(&pairs, &places, &scores, 0), "win");
        assert_eq!(gameover_word(&pairs, &places, &scores, 1), "lose");
        let places = [1, 2, 4, 3];
        let scores = engine_scores(&pairs.seats, &places, 2);
        assert_eq!(gameover_word(&pairs, &places, &scores, 1), "draw");
    }

    #[test]
    fn clocks() {
        let tc = TimeControl::Clock {
            main_ms: 1000,
            inc_ms: 100,
            byoyomi_ms: 0,
        };
        let (go, allowed) = go_command(&tc, &[1000, 800], 1);
        assert_eq!(go, "go btime 1000 wtime 800 binc 100 winc 100");
        assert_eq!(allowed, Some(900));
        assert_eq!(charge(&tc, 800, 300), 600);
        assert_eq!(charge(&tc, 800, 1000), 0);
        let tc = TimeControl::Clock {
            main_ms: 0,
            inc_ms: 0,
            byoyomi_ms: 30_000,
        };
        assert_eq!(
            go_command(&tc, &[0, 0], 0),
            ("go byoyomi 30000".to_string(), Some(30_000))
        );
        assert_eq!(
            go_command(&tc, &[0, 0, 0, 0], 3),
            ("go byoyomi 30000".to_string(), Some(30_000))
        );
        let tc = TimeControl::Clock {
            main_ms: 5000,
            inc_ms: 0,
            byoyomi_ms: 1000,
        };
        assert_eq!(
            go_command(&tc, &[5000, 4000], 0),
            (
                "go btime 5000 wtime 4000 byoyomi 1000".to_string(),
                Some(6000)
            )
        );
        assert_eq!(charge(&tc, 300, 900), 0);
        assert_eq!(go_command(&TimeControl::Nodes(5), &[0, 0], 0).1, None);
    }

    #[test]
    fn four_clocks() {
        let tc = TimeControl::Clock {
            main_ms: 1000,
            inc_ms: 50,
            byoyomi_ms: 0,
        };
        let (go, allowed) = go_command(&tc, &[1000, 900, 800, 700], 2);
        assert_eq!(
            go,
            "go time0 1000 time1 900 time2 800 time3 700 inc0 50 inc1 50 inc2 50 inc3 50"
        );
        assert_eq!(allowed, Some(850));
        let tc = TimeControl::Clock {
            main_ms: 1000,
            inc_ms: 0,
            byoyomi_ms: 200,
        };
        let (go, allowed) = go_command(&tc, &[1000, 900, 0, 700], 2);
        assert_eq!(go, "go time0 1000 time1 900 time2 0 time3 700 byoyomi 200");
        assert_eq!(allowed, Some(200));
        let (go, _) = go_command(&TimeControl::Depth(1), &[0; 4], 3);
        assert_eq!(go, "go depth 1");
    }
}
