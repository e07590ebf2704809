//! Plays one game between engine processes, refereed by the engine library's
//! own rules (`GameSession`): every move is checked, the clocks are kept on the
//! runner's side, and a misbehaving engine loses the game and is killed (the
//! worker starts it again for its next game).

use crate::config::{MatchConfig, TimeControl};
use crate::engine::{clip, EngineProcess, Fault};
use crate::record::{engine_scores, seat_name, seat_of_name, GameRecord};
use crate::schedule::{referee, DiceStream, GameSpec};
use std::time::{Duration, Instant};

/// The engine processes a worker owns, by engine index (`None`: to be started).
pub type Engines = Vec<Option<EngineProcess>>;

/// A warning for the log (stderr), besides the record.
pub type Log<'a> = &'a mut dyn FnMut(String);

/// How a game ended, before it is scored.
enum End {
    /// The referee's final `status` line.
    Over(String),
    /// These seats forfeit (their engine failed or resigned): they share the
    /// last places; the others share the first, or at four seats are ranked
    /// from the referee's `status` of the position (see [`fault_places`]).
    Forfeit {
        seats: Vec<usize>,
        reason: String,
        detail: String,
        /// The referee's status when the fault happened (empty: none).
        status: String,
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

/// The value of word `key` in a status line (`reason second-checkmate`).
fn status_word<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1))
        .copied()
}

/// The places and points of a `status()` line that says `over …`: `winner b
/// points 2`, `draw`, or `places 1,3,2,4` (competition ranking).
fn parse_over(status: &str, seats: usize) -> Option<Result<Settled, String>> {
    let over = status.strip_prefix("over ")?;
    let words: Vec<&str> = over.split_whitespace().collect();
    let reason = status_word(&words, "reason").unwrap_or("over").to_string();
    let points: u32 = status_word(&words, "points")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1);
    let result = match words.first() {
        Some(&"winner") => match words.get(1).and_then(|s| seat_of_name(s)) {
            Some(winner) if winner < seats => Ok(Settled {
                places: (0..seats)
                    .map(|s| if s == winner { 1 } else { 2 })
                    .collect(),
                points,
                reason,
                detail: status.to_string(),
            }),
            _ => Err(format!("referee: winner of '{status}'")),
        },
        Some(&"draw") => Ok(Settled {
            places: vec![1; seats],
            points: 0,
            reason,
            detail: status.to_string(),
        }),
        Some(&"places") => {
            let places: Vec<u32> = words
                .get(1)
                .map(|p| p.split(',').filter_map(|x| x.parse().ok()).collect())
                .unwrap_or_default();
            let valid = places.len() == seats
                && places.iter().all(|&p| p >= 1 && p as usize <= seats)
                && places.contains(&1);
            if valid {
                Ok(Settled {
                    places,
                    points: 0,
                    reason,
                    detail: status.to_string(),
                })
            } else {
                Err(format!("referee: places of '{status}'"))
            }
        }
        _ => Err(format!("referee: cannot read '{status}'")),
    };
    Some(result)
}

/// Places at four seats when `faulty` forfeits in a position with this status:
/// the faulting seat 4th; the others as the rules rank an unfinished game (a
/// repetition end): survivors by (checkmates made, total pieces, later last
/// checkmate), eliminated seats below them, the later elimination higher.
/// `None` when the status lacks `out`, `mates` or `totals`.
fn fault_places(status: &str, faulty: usize) -> Option<Vec<u32>> {
    let words: Vec<&str> = status.split_whitespace().collect();
    let numbers = |key: &str| -> Option<Vec<f64>> {
        let values: Vec<f64> = status_word(&words, key)?
            .split(',')
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        (values.len() == 4).then_some(values)
    };
    let mates = numbers("mates")?;
    let totals = numbers("totals")?;
    // `out 2:1,0:3`: seat 2 mated by 1, then seat 0 by 3; `out -`: none.
    let mut out: Vec<(usize, usize)> = Vec::new();
    let list = status_word(&words, "out")?;
    if list != "-" {
        for item in list.split(',') {
            let (seat, by) = item.split_once(':')?;
            let (seat, by): (usize, usize) = (seat.parse().ok()?, by.parse().ok()?);
            if seat >= 4 || by >= 4 {
                return None;
            }
            out.push((seat, by));
        }
    }
    // One number per seat, higher is better; then the competition ranking.
    let key: Vec<f64> = (0..4)
        .map(|seat| {
            if seat == faulty {
                return -2000.0;
            }
            if let Some(order) = out.iter().position(|&(s, _)| s == seat) {
                return -1000.0 + order as f64;
            }
            let last_mate = out
                .iter()
                .rposition(|&(_, by)| by == seat)
                .map_or(0.0, |i| i as f64 + 1.0);
            // Mates, then totals (under 1000 pieces), then the later last mate.
            mates[seat] * 1e6 + totals[seat] * 10.0 + last_mate
        })
        .collect();
    Some(crate::record::competition_ranking(&key))
}

/// Scores an end. A forfeit puts the faulting seats last (sharing) and the
/// others first (sharing); with two players that is a win worth 1 point.
fn settle(end: End, seats: usize) -> Settled {
    match end {
        End::Over(status) => match parse_over(&status, seats) {
            Some(Ok(settled)) => settled,
            Some(Err(error)) => Settled {
                places: vec![1; seats],
                points: 0,
                reason: "error".into(),
                detail: error,
            },
            None => Settled {
                places: vec![1; seats],
                points: 0,
                reason: "error".into(),
                detail: format!("referee: the game is not over: {status}"),
            },
        },
        End::Forfeit {
            seats: faulty,
            reason,
            detail,
            status,
        } => {
            let last = (seats - faulty.len().min(seats) + 1) as u32;
            let shared = || -> Vec<u32> {
                (0..seats)
                    .map(|s| {
                        if faulty.contains(&s) && faulty.len() < seats {
                            last
                        } else {
                            1
                        }
                    })
                    .collect()
            };
            let places = match faulty[..] {
                [seat] if seats == 4 => fault_places(&status, seat).unwrap_or_else(shared),
                _ => shared(),
            };
            // Two players: a 1-point win; four seats have no points.
            let points = u32::from(seats == 2 && places.iter().any(|&p| p > 1));
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

/// Does the status say the side to move has not rolled yet (`dice -`)?
fn waits_for_roll(status: &str) -> bool {
    let words: Vec<&str> = status.split_whitespace().collect();
    status_word(&words, "dice") == Some("-")
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
        game: config.game.clone(),
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
    let forfeit = |seat: usize, reason: &str, detail: String, status: &str| End::Forfeit {
        seats: vec![seat],
        reason: reason.to_string(),
        detail,
        status: status.to_string(),
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
            status: String::new(),
        };
    }

    let mut session = match referee(config) {
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
        let tokens_of = |tokens: &[String]| -> Vec<String> {
            spec.opening.moves.iter().chain(tokens).cloned().collect()
        };
        let all = tokens_of(&played.tokens);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        if let Err(e) = session.set_position(spec.opening.sfen.as_deref(), &refs) {
            return error(format!("referee: {e}"));
        }
        let mut status = session.status();
        if status.starts_with("over") {
            return End::Over(status);
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
        if waits_for_roll(&status) {
            let token = dice.token();
            played.tokens.push(token.clone());
            let all = tokens_of(&played.tokens);
            let refs: Vec<&str> = all.iter().map(String::as_str).collect();
            if let Err(e) = session.set_position(spec.opening.sfen.as_deref(), &refs) {
                return error(format!("referee: the roll {token}: {e}"));
            }
            status = session.status();
            if status.starts_with("over") {
                return End::Over(status);
            }
            roll = Some(token);
        }
        let with_dice = |mv: &str| match &roll {
            Some(token) => format!("{token}:{mv}"),
            None => mv.to_string(),
        };
        let seat = match seat_of_name(session.side_to_move()) {
            Some(s) if s < seats => s,
            _ => return error(format!("referee: side {}", session.side_to_move())),
        };
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
                &status,
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
                return forfeit(seat, "timeout", detail, &status);
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
                    &status,
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
                return forfeit(seat, "timeout", detail, &status);
            }
            clocks[seat] = charge(&config.tc, clocks[seat], elapsed);
        }
        let mv = best.text;
        if mv == "resign" {
            return forfeit(
                seat,
                "resign",
                format!("{} resigned at ply {ply}", name(e)),
                &status,
            );
        }
        let mut next = tokens_of(&played.tokens);
        next.push(mv.clone());
        let refs: Vec<&str> = next.iter().map(String::as_str).collect();
        if let Err(error) = session.set_position(spec.opening.sfen.as_deref(), &refs) {
            let error = match error {
                yomi_engine::session::PositionError::Move { error, .. } => error.to_string(),
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
            return forfeit(seat, "illegal-move", detail, &status);
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

    fn over(status: &str, seats: usize) -> (Vec<u32>, u32, String) {
        let settled = parse_over(status, seats).unwrap().unwrap();
        assert_eq!(settled.detail, status);
        (settled.places, settled.points, settled.reason)
    }

    #[test]
    fn status_lines() {
        assert_eq!(
            over(
                "over winner b points 1 reason five-captured ply 83 captured b 5 w 2",
                2
            ),
            (vec![1, 2], 1, "five-captured".to_string())
        );
        assert_eq!(
            over(
                "over winner w points 1 reason checkmate ply 40 check yes",
                2
            ),
            (vec![2, 1], 1, "checkmate".to_string())
        );
        assert_eq!(
            over("over draw reason repetition ply 12 check no", 2),
            (vec![1, 1], 0, "repetition".to_string())
        );
        assert!(parse_over("ongoing turn b ply 2", 2).is_none());
        // Sugoroku: the points of the win.
        assert_eq!(
            over("over winner w points 3 reason all-home ply 80 dice -", 2),
            (vec![2, 1], 3, "all-home".to_string())
        );
        // Yonin: places by seat, shared places kept.
        assert_eq!(
            over("over places 1,3,2,4 reason second-checkmate ply 90", 4),
            (vec![1, 3, 2, 4], 0, "second-checkmate".to_string())
        );
        assert_eq!(
            over("over places 1,1,3,4 reason repetition ply 90", 4).0,
            vec![1, 1, 3, 4]
        );
        // Places that do not fit the table are a referee error, not a result.
        assert!(parse_over("over places 1,2,3 reason move-limit", 4)
            .unwrap()
            .is_err());
        assert!(parse_over("over places 2,2,3,4 reason move-limit", 4)
            .unwrap()
            .is_err());
        assert!(waits_for_roll("ongoing turn b ply 0 dice - off b 0 w 0"));
        assert!(!waits_for_roll("ongoing turn b ply 1 dice 52"));
        assert!(!waits_for_roll("ongoing turn b ply 2 captured b 0 w 0"));
    }

    #[test]
    fn forfeits_and_draws() {
        let forfeit = |seats: Vec<usize>, n: usize| {
            settle(
                End::Forfeit {
                    seats,
                    reason: "crash".into(),
                    detail: String::new(),
                    status: String::new(),
                },
                n,
            )
        };
        // Two players: the other seat wins, 1 point.
        let two = forfeit(vec![1], 2);
        assert_eq!((two.places, two.points), (vec![1, 2], 1));
        // Four seats: the faulting seat 4th, the others share 1st.
        let four = forfeit(vec![2], 4);
        assert_eq!((four.places, four.points), (vec![1, 1, 4, 1], 0));
        // An engine with two seats that cannot start: both share 3rd.
        assert_eq!(forfeit(vec![1, 3], 4).places, vec![1, 3, 1, 3]);
        // Everyone at fault: a draw.
        let all = forfeit(vec![0, 1], 2);
        assert_eq!((all.places, all.points), (vec![1, 1], 0));
        // At four seats the referee's standing ranks the others: seat 1 mated
        // seat 3 and leads; seat 0 has more pieces than seat 2; seat 3 is out.
        let ranked = settle(
            End::Forfeit {
                seats: vec![2],
                reason: "timeout".into(),
                detail: String::new(),
                status: "ongoing turn 2 ply 70 check - out 3:1 mates 0,1,0,0 totals 30,40,20,0"
                    .into(),
            },
            4,
        );
        assert_eq!(ranked.places, vec![2, 1, 4, 3]);
        let drawn = settle(
            End::Drawn {
                reason: "max-plies".into(),
                detail: String::new(),
            },
            4,
        );
        assert_eq!(drawn.places, vec![1, 1, 1, 1]);
        let bad = settle(End::Over("over places 9,9,9,9 reason x".into()), 4);
        assert_eq!(bad.reason, "error");
    }

    #[test]
    fn places_after_a_fault() {
        // No one out: by mates, then totals; equal on both share.
        let status = "ongoing turn 0 ply 9 check - out - mates 0,0,0,0 totals 20,21,20,19";
        assert_eq!(fault_places(status, 0), Some(vec![4, 1, 2, 3]));
        let status = "ongoing turn 3 ply 9 check - out - mates 0,0,0,0 totals 20,20,20,20";
        assert_eq!(fault_places(status, 3), Some(vec![1, 1, 1, 4]));
        // (Two seats out would have ended the game; this made-up status checks
        // the order only.) Equal mates and totals: the later last mate ranks
        // higher (seat 2 mated seat 3 after seat 0 mated seat 1); eliminated
        // seats below the survivors, the later one higher; the faulting seat last.
        let status = "ongoing turn 0 ply 90 check - out 1:0,3:2 mates 1,0,1,0 totals 40,0,40,0";
        assert_eq!(fault_places(status, 0), Some(vec![4, 3, 1, 2]));
        // A status without the fields: no ranking (the runner falls back to
        // the others sharing first).
        assert_eq!(fault_places("ongoing turn 0 ply 9", 0), None);
        assert_eq!(
            fault_places("ongoing out 7:1 mates 0,0,0,0 totals 1,1,1,1", 0),
            None
        );
        let fallback = settle(
            End::Forfeit {
                seats: vec![1],
                reason: "crash".into(),
                detail: String::new(),
                status: "ongoing turn 1 ply 3".into(),
            },
            4,
        );
        assert_eq!(fallback.places, vec![1, 4, 1, 1]);
    }

    #[test]
    fn gameover_words() {
        let spec = |seats: Vec<usize>| GameSpec {
            id: 0,
            pair: 0,
            seats,
            opening: crate::schedule::Opening {
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
