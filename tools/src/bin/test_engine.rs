//! A small engine for testing the match runner: plays legal moves through the
//! engine library (`ok`), or misbehaves on purpose at its N-th move of a game.
//!
//! `test_engine MODE[:N]`, modes:
//!
//! | mode | what it does |
//! |---|---|
//! | `ok` | plays (searches `go nodes`, else the first legal move) |
//! | `illegal:N` | its N-th move of each game is `1e1e` (never legal) |
//! | `crash:N` | exits without a word when asked for its N-th move |
//! | `hang:N` | never answers its N-th `go` (nor `stop`) |
//! | `garbage:N` | prints a line that is not the protocol instead of its N-th move |
//! | `resign:N` | answers its N-th `go` with `bestmove resign` |
//! | `slow:MS` | waits MS ms before every `bestmove` |
//! | `slow-usiok:MS` | waits MS ms before `usiok` |
//! | `exit` | exits at once |
//! | `peak:V` | plays as `ok`, but the farther its spin option `Tune_Toy` from V, the more of its moves are random |
//!
//! N defaults to 1. Its input is read and parsed by the protocol crate's
//! reader and command parser; a line it cannot read it ignores.
//!
//! `peak:V` is the tuner's toy (`match tune` must find V): with
//! `d = |Tune_Toy − V|`, each move is a uniformly random legal move with
//! probability `min(1, d / PEAK_WIDTH)`, else the move `ok` plays; the draws
//! are a function of the position and `Tune_Toy` alone, so games replay. It
//! announces `Tune_Toy` and refuses any other `Tune_…` option or a value out
//! of range with an `info string error` line, as the engine does.

use std::io::Write;
use std::time::Duration;
use yomi_engine::core::options::{OptionSpec, OptionValue};
use yomi_engine::registry::new_session;
use yomi_engine::search::{Limits, SearchControl};
use yomi_engine::session::GameSession;
use yomi_protocol::reader::LineReader;
use yomi_protocol::{usi, Command};
use yomi_tools::runner::schedule::mix;

/// The toy's option: how far it is from the peak decides its strength.
const TOY: OptionSpec = OptionSpec::spin("Tune_Toy", 0, -1000, 1000);

/// `peak:V`: the distance from V at which every move is random.
const PEAK_WIDTH: f64 = 50.0;

/// Whether the toy plays a random move here, and which: a function of the
/// position (its key and ply) and the option's value alone.
fn toy_random_move(session: &dyn GameSession, toy: i64, peak: i64) -> Option<String> {
    let share = ((toy - peak).abs() as f64 / PEAK_WIDTH).min(1.0);
    let draw = mix(
        mix(session.key(), u64::from(session.state().ply)),
        toy as u64,
    );
    let uniform = (draw >> 11) as f64 / (1u64 << 53) as f64;
    let legal = session.legal_moves();
    (uniform < share && !legal.is_empty())
        .then(|| legal[(mix(draw, 1) % legal.len() as u64) as usize].clone())
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "ok".into());
    let (mode, n) = match arg.split_once(':') {
        Some((mode, n)) => (mode.to_string(), n.parse::<u64>().unwrap_or(1)),
        None => (arg.clone(), 1),
    };
    if mode == "exit" {
        std::process::exit(1);
    }
    let stdout = std::io::stdout();
    let say = |line: &str| {
        let mut out = stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let mut session: Box<dyn GameSession> = new_session("hasami").expect("hasami");
    let mut moves_made = 0u64;
    let mut hung = false;
    let peak = (mode == "peak").then(|| arg[5..].parse::<i64>().unwrap_or(0));
    let mut toy = 0i64;
    let mut input = LineReader::new(std::io::stdin().lock());
    while let Some(line) = input.next_text() {
        // What it cannot read it ignores.
        let Ok(Some(command)) = line.map(|line| Command::parse(&line).ok().flatten()) else {
            continue;
        };
        if hung {
            if command == Command::Quit {
                return;
            }
            continue;
        }
        match command {
            Command::Usi => {
                if mode == "slow-usiok" {
                    std::thread::sleep(Duration::from_millis(n));
                }
                say(&format!("id name test_engine {arg}"));
                say("id author the Yomi developers");
                if peak.is_some() {
                    say(&usi::option_line(&TOY));
                }
                say("usiok");
            }
            Command::IsReady => say("readyok"),
            Command::SetOption { name, value } => {
                let (name, value) = (name.as_str(), value.unwrap_or_default());
                if name.eq_ignore_ascii_case("USI_Variant") {
                    match new_session(&value) {
                        Ok(s) => session = s,
                        Err(e) => say(&format!("info string error: {e}")),
                    }
                } else if peak.is_some() && TOY.answers_to(name) {
                    match TOY.validate(&value) {
                        Ok(OptionValue::Int(value)) => toy = value,
                        Ok(_) => {}
                        Err(e) => say(&format!("info string error: setoption: {e}")),
                    }
                } else if peak.is_some() && name.starts_with("Tune_") {
                    say(&format!(
                        "info string error: setoption: unknown option '{name}'"
                    ));
                } else {
                    let _ = usi::set_option(&mut *session, name, &value);
                }
            }
            Command::UsiNewGame => {
                session.new_game();
                moves_made = 0;
            }
            Command::Position { sfen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = session.set_position(sfen.as_deref(), &moves) {
                    say(&format!("info string error: position: {e}"));
                }
            }
            Command::Go(go) => {
                moves_made += 1;
                let nodes = go.nodes;
                let misbehave = moves_made == n;
                match mode.as_str() {
                    "crash" if misbehave => std::process::exit(3),
                    "hang" if misbehave => {
                        hung = true;
                        continue;
                    }
                    "garbage" if misbehave => {
                        say("hello, this is not the protocol");
                        continue;
                    }
                    "illegal" if misbehave => {
                        say("bestmove 1e1e");
                        continue;
                    }
                    "resign" if misbehave => {
                        say("bestmove resign");
                        continue;
                    }
                    "slow" => std::thread::sleep(Duration::from_millis(n)),
                    _ => {}
                }
                let toy_move = peak.and_then(|peak| toy_random_move(session.as_ref(), toy, peak));
                let best = match nodes {
                    _ if toy_move.is_some() => toy_move,
                    Some(nodes) => {
                        let control = SearchControl::new(false);
                        session
                            .search(&Limits::nodes(nodes), &control, &mut |_| {})
                            .best
                    }
                    None => session.legal_moves().into_iter().next(),
                };
                say(&format!(
                    "bestmove {}",
                    best.unwrap_or_else(|| "resign".into())
                ));
            }
            Command::Quit => return,
            _ => {}
        }
    }
}
