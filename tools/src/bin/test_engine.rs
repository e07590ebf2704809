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
//!
//! N defaults to 1.

use std::io::{BufRead, Write};
use std::time::Duration;
use yomi_engine::registry::new_session;
use yomi_engine::search::{Limits, SearchControl};
use yomi_engine::session::GameSession;

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
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        if hung {
            if words.first() == Some(&"quit") {
                return;
            }
            continue;
        }
        match words.first().copied() {
            Some("usi") => {
                if mode == "slow-usiok" {
                    std::thread::sleep(Duration::from_millis(n));
                }
                say(&format!("id name test_engine {arg}"));
                say("id author the Yomi developers");
                say("usiok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                let name = words.get(2).copied().unwrap_or("");
                let value = words.get(4..).map(|v| v.join(" ")).unwrap_or_default();
                if name.eq_ignore_ascii_case("USI_Variant") {
                    match new_session(&value) {
                        Ok(s) => session = s,
                        Err(e) => say(&format!("info string error: {e}")),
                    }
                } else {
                    let _ = session.set_option(name, &value);
                }
            }
            Some("usinewgame") => {
                session.new_game();
                moves_made = 0;
            }
            Some("position") => {
                let rest: Vec<&str> = words[1..].to_vec();
                let at = rest.iter().position(|w| *w == "moves");
                let (setup, moves) = match at {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (&rest[..], &[][..]),
                };
                let sfen = if setup.first() == Some(&"sfen") {
                    Some(setup[1..].join(" "))
                } else {
                    None
                };
                if let Err(e) = session.set_position(sfen.as_deref(), moves) {
                    say(&format!("info string error: position: {e}"));
                }
            }
            Some("go") => {
                moves_made += 1;
                let nodes = words
                    .iter()
                    .position(|w| *w == "nodes")
                    .and_then(|i| words.get(i + 1))
                    .and_then(|n| n.parse::<u64>().ok());
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
                let best = match nodes {
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
            Some("quit") => return,
            _ => {}
        }
    }
}
