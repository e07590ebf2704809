//! Plays one game between engine processes, refereed by the engine library's
//! own rules (`GameSession`): every move is checked, the clocks are kept on the
//! runner's side, and a misbehaving engine loses the game and is killed (the
//! worker starts it again for its next game).

use crate::config::{MatchConfig, TimeControl};
use crate::engine::{clip, EngineProcess, Fault};
use crate::record::{seat_name, seat_of_name, GameRecord};
use crate::schedule::{referee, GameSpec};
use std::time::{Duration, Instant};

/// The engine processes a worker owns, by engine index (`None`: to be started).
pub type Engines = Vec<Option<EngineProcess>>;

/// A warning for the log (stderr), besides the record.
pub type Log<'a> = &'a mut dyn FnMut(String);

enum End {
    /// Winning seat (`None`: draw), reason, detail.
    Result(Option<usize>, String, String),
}

/// The game result words of a `status()` line that says `over …`.
fn parse_over(status: &str) -> Option<(Option<usize>, String)> {
    let over = status.strip_prefix("over ")?;
    let words: Vec<&str> = over.split_whitespace().collect();
    let reason = words
        .iter()
        .position(|w| *w == "reason")
        .and_then(|i| words.get(i + 1))
        .unwrap_or(&"over")
        .to_string();
    match words.first() {
        Some(&"winner") => Some((words.get(1).and_then(|s| seat_of_name(s)), reason)),
        // Places (four players) are not scored yet: the first place wins.
        Some(&"places") => {
            let places: Vec<usize> = words
                .get(1)
                .map(|p| p.split(',').filter_map(|x| x.parse().ok()).collect())
                .unwrap_or_default();
            Some((places.iter().position(|&p| p == 1), reason))
        }
        _ => Some((None, reason)),
    }
}

/// The `go` line and the time this move may take (`None`: untimed).
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
                (format!("go byoyomi {byoyomi_ms}"), Some(byoyomi_ms))
            } else {
                let (b, w) = (clocks[0], clocks[1]);
                let mut line = format!("go btime {b} wtime {w}");
                if byoyomi_ms > 0 {
                    line.push_str(&format!(" byoyomi {byoyomi_ms}"));
                } else if inc_ms > 0 {
                    line.push_str(&format!(" binc {inc_ms} winc {inc_ms}"));
                }
                (line, Some(clocks[seat] + inc_ms + byoyomi_ms))
            }
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

fn position_line(spec: &GameSpec, moves: &[String]) -> String {
    let mut line = match &spec.opening.sfen {
        None => "position startpos".to_string(),
        Some(sfen) => format!("position sfen {sfen}"),
    };
    let all: Vec<&str> = spec
        .opening
        .moves
        .iter()
        .chain(moves)
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

/// Plays `spec` with the worker's engines; always returns a record (faults are
/// results).
pub fn play_game(
    config: &MatchConfig,
    spec: &GameSpec,
    engines: &mut Engines,
    log: Log,
) -> GameRecord {
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut moves: Vec<String> = Vec::new();
    let mut movers: Vec<usize> = Vec::new();
    let mut times: Vec<u64> = Vec::new();
    let end = play(
        config,
        spec,
        engines,
        &mut moves,
        &mut movers,
        &mut times,
        log,
    );
    let End::Result(winner, reason, detail) = end;
    let mut scores = vec![0.0; config.engines.len()];
    match winner {
        Some(seat) => scores[spec.seats[seat]] = 1.0,
        None => {
            for &e in &spec.seats {
                scores[e] = 0.5;
            }
        }
    }
    // Tell every engine still running how it went.
    for (seat, &e) in spec.seats.iter().enumerate() {
        if let Some(engine) = engines[e].as_mut() {
            let word = match winner {
                None => "draw",
                Some(w) if w == seat => "win",
                Some(_) => "lose",
            };
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
        moves,
        movers,
        times_ms: times,
        winner,
        reason,
        detail,
        scores,
    }
}

/// The seat that wins when `loser` forfeits (two players: the other one).
fn other_seat(seats: usize, loser: usize) -> Option<usize> {
    if seats == 2 {
        Some(1 - loser)
    } else {
        None
    }
}

fn play(
    config: &MatchConfig,
    spec: &GameSpec,
    engines: &mut Engines,
    moves: &mut Vec<String>,
    movers: &mut Vec<usize>,
    times: &mut Vec<u64>,
    log: Log,
) -> End {
    let seats = spec.seats.len();
    let name = |e: usize| config.engines[e].name.clone();
    let forfeit = |seat: usize, fault: &Fault, when: &str| {
        End::Result(
            other_seat(seats, seat),
            fault.reason().to_string(),
            format!(
                "{} {when}: {}",
                config.engines[spec.seats[seat]].name,
                fault.detail()
            ),
        )
    };
    // Start (or check) the engines and begin a new game.
    let mut failed: Vec<(usize, Fault)> = Vec::new();
    for (seat, &e) in spec.seats.iter().enumerate() {
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
                    failed.push((seat, fault));
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
            failed.push((seat, fault));
        }
    }
    match failed.len() {
        0 => {}
        1 => return forfeit(failed[0].0, &failed[0].1, "at the start"),
        _ => {
            let (seat, fault) = &failed[0];
            return End::Result(
                None,
                fault.reason().to_string(),
                format!(
                    "no engine could start; {}: {}",
                    name(spec.seats[*seat]),
                    fault.detail()
                ),
            );
        }
    }

    let mut session = match referee(config) {
        Ok(s) => s,
        Err(e) => return End::Result(None, "error".into(), e),
    };
    let margin = config.timeout_margin.as_millis() as u64;
    let initial = match config.tc {
        TimeControl::Clock { main_ms, .. } => main_ms,
        _ => 0,
    };
    let mut clocks = vec![initial; seats];
    loop {
        let all: Vec<&str> = spec
            .opening
            .moves
            .iter()
            .chain(moves.iter())
            .map(String::as_str)
            .collect();
        if let Err(e) = session.set_position(spec.opening.sfen.as_deref(), &all) {
            return End::Result(None, "error".into(), format!("referee: {e}"));
        }
        let status = session.status();
        if let Some((winner, reason)) = parse_over(&status) {
            return End::Result(winner, reason, status);
        }
        if config.max_plies > 0 && all.len() as u64 >= config.max_plies as u64 {
            return End::Result(
                None,
                "max-plies".into(),
                format!("{} plies played", all.len()),
            );
        }
        let seat = match seat_of_name(session.side_to_move()) {
            Some(s) if s < seats => s,
            _ => {
                return End::Result(
                    None,
                    "error".into(),
                    format!("referee: side {}", session.side_to_move()),
                )
            }
        };
        let e = spec.seats[seat];
        let (go, allowed) = go_command(&config.tc, &clocks, seat);
        let position = position_line(spec, moves);
        let engine = engines[e]
            .as_mut()
            .expect("engines are running during a game");
        let sent = engine.send(&position).and_then(|_| engine.send(&go));
        let t0 = Instant::now();
        if let Err(fault) = sent {
            drop_engine(engines, e);
            return forfeit(seat, &fault, &format!("at ply {}", all.len() + 1));
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
                times.push(waited);
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
                    "{} at ply {}: no bestmove within {} ms (allowed {} + margin {margin}){killed}",
                    name(e),
                    all.len() + 1,
                    waited,
                    allowed.unwrap_or(0)
                );
                log(format!("game {}: timeout: {detail}", spec.id));
                return End::Result(other_seat(seats, seat), "timeout".into(), detail);
            }
            Err(fault) => {
                times.push(t0.elapsed().as_millis() as u64);
                log(format!(
                    "game {}: {}: {} at ply {} (killed; restarted for the next game)",
                    spec.id,
                    name(e),
                    fault.detail(),
                    all.len() + 1
                ));
                drop_engine(engines, e);
                return forfeit(seat, &fault, &format!("at ply {}", all.len() + 1));
            }
        };
        let elapsed = best.at.saturating_duration_since(t0).as_millis() as u64;
        times.push(elapsed);
        if let Some(ms) = allowed {
            if elapsed > ms + margin {
                let detail = format!(
                    "{} at ply {}: bestmove after {elapsed} ms (allowed {ms} + margin {margin})",
                    name(e),
                    all.len() + 1
                );
                log(format!("game {}: timeout: {detail}", spec.id));
                return End::Result(other_seat(seats, seat), "timeout".into(), detail);
            }
            clocks[seat] = charge(&config.tc, clocks[seat], elapsed);
        }
        let mv = best.text;
        if mv == "resign" {
            return End::Result(
                other_seat(seats, seat),
                "resign".into(),
                format!("{} resigned at ply {}", name(e), all.len() + 1),
            );
        }
        let mut next = all.clone();
        next.push(&mv);
        if let Err(error) = session.set_position(spec.opening.sfen.as_deref(), &next) {
            let error = match error {
                yomi_engine::session::PositionError::Move { error, .. } => error.to_string(),
                other => other.to_string(),
            };
            let detail = format!(
                "{} ({}) played '{}' at ply {} in position {}: {error}",
                name(e),
                seat_name(seat),
                clip(&mv),
                all.len() + 1,
                position_line(spec, moves).trim_start_matches("position "),
            );
            log(format!("game {}: illegal move: {detail}", spec.id));
            return End::Result(other_seat(seats, seat), "illegal-move".into(), detail);
        }
        moves.push(mv);
        movers.push(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(
            parse_over("over winner b points 1 reason five-captured ply 83 captured b 5 w 2"),
            Some((Some(0), "five-captured".to_string()))
        );
        assert_eq!(
            parse_over("over winner w points 1 reason checkmate ply 40 check yes"),
            Some((Some(1), "checkmate".to_string()))
        );
        assert_eq!(
            parse_over("over draw reason repetition ply 12 check no"),
            Some((None, "repetition".to_string()))
        );
        assert_eq!(parse_over("ongoing turn b ply 2"), None);
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
}
