//! The seat pool end to end: requests over all four games through a few
//! processes, each answer compared with a fresh process's; a process killed
//! during a search; bad requests among good ones.
//!
//! The engine is the `yomi` binary of the root package next to `seat_pool`
//! (`cargo test --workspace` builds it; alone, `cargo build --bin yomi
//! --profile test` first).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use yomi_tools::pool::{bestmove_line, parse_request};
use yomi_tools::runner::engine::{EngineProcess, EngineSpec};

const SEAT_POOL: &str = env!("CARGO_BIN_EXE_seat_pool");

fn yomi() -> PathBuf {
    let yomi = Path::new(SEAT_POOL).with_file_name(format!("yomi{}", std::env::consts::EXE_SUFFIX));
    assert!(
        yomi.is_file(),
        "{} not built: run cargo test --workspace, or cargo build --bin yomi --profile test first",
        yomi.display()
    );
    yomi
}

/// The pool's settings: what `seat_pool` sets unless told otherwise.
fn recommended() -> Vec<(String, String)> {
    vec![
        ("USI_Hash".to_string(), "16".to_string()),
        ("Threads".to_string(), "1".to_string()),
    ]
}

/// The answer line a fresh process gives to `line`.
fn fresh_answer(line: &str) -> String {
    let request = parse_request(line).expect("a good request");
    let spec = EngineSpec {
        name: "fresh".into(),
        cmd: yomi().to_string_lossy().into_owned(),
        args: Vec::new(),
        dir: None,
        options: recommended(),
    };
    let mut setup = vec![("USI_Variant".to_string(), request.game.clone())];
    setup.extend(request.options.iter().cloned());
    let timeout = Duration::from_secs(60);
    let mut engine = EngineProcess::start(&spec, &setup, timeout).expect("start yomi");
    engine.send("usinewgame").unwrap();
    engine.send(&request.position).unwrap();
    engine.send(&request.go).unwrap();
    let best = engine
        .wait_bestmove(Instant::now() + timeout)
        .expect("bestmove");
    assert!(engine.errors.is_empty(), "{line}: {:?}", engine.errors);
    engine.quit(Duration::from_secs(2));
    bestmove_line(&request.id, &best.text)
}

/// A running `seat_pool --verbose`: its stdin, its stdout and stderr lines.
struct Pool {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
}

fn lines_of(reader: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Pool {
    fn start(processes: usize) -> Pool {
        let mut child = Command::new(SEAT_POOL)
            .args([
                "--processes",
                &processes.to_string(),
                "--verbose",
                "--engine",
            ])
            .arg(yomi())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start seat_pool");
        Pool {
            stdin: child.stdin.take(),
            stdout: lines_of(child.stdout.take().unwrap()),
            stderr: lines_of(child.stderr.take().unwrap()),
            child,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn answer(&self) -> String {
        self.stdout
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer")
    }

    /// Ends the input; every answer left, then the pool must exit cleanly.
    fn finish(mut self) -> Vec<String> {
        self.stdin = None;
        let answers: Vec<String> = self.stdout.iter().collect();
        assert!(self.child.wait().unwrap().success());
        answers
    }
}

/// The answers by id; each id answered exactly once.
fn by_id(answers: &[String]) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for answer in answers {
        let id = answer
            .split_whitespace()
            .next()
            .and_then(|w| w.strip_prefix("id="))
            .unwrap_or_else(|| panic!("answer without an id: {answer}"))
            .to_string();
        assert!(
            map.insert(id, answer.clone()).is_none(),
            "answered twice: {answer}"
        );
    }
    map
}

/// 64 requests, each game in turn (so that every process keeps switching
/// games), at mixed levels, strengths by Elo, Variety and house rules.
fn requests() -> Vec<String> {
    let positions = [
        ("hasami", "position startpos moves 9i9h 1a1b"),
        ("annan", "position startpos moves 7g7f 3c3d"),
        ("yonin", "position startpos"),
        (
            "sugoroku",
            "position startpos moves 31:8/5,6/5 64:24/18,18/14 52",
        ),
    ];
    let rules = [
        [
            "HasamiWin=five",
            "HasamiWin=lead3",
            "HasamiWin=all",
            "MoveLimit=200",
        ],
        [
            "AnnanDeadPiece=support",
            "AnnanDeadPiece=forbid",
            "",
            "MaxMovesToDraw=300",
        ],
        [
            "YoninPairs=true",
            "SearchAlgorithm=paranoid",
            "",
            "YoninFirstSeat=0",
        ],
        [
            "SugorokuCloseout=instant",
            "SugorokuFinish=bearoff",
            "",
            "SugorokuCloseout=off",
        ],
    ];
    (0..64)
        .map(|i| {
            let (game, position) = positions[i % 4];
            let strength = match (i / 4) % 4 {
                0 => format!("level={}", i % 7),
                1 => format!("skill={}", 5 + i % 15),
                // Within each game's announced USI_Elo range.
                2 => format!("elo={}", [1500, 1500, 300, 500][i % 4]),
                _ => "variety=40".to_string(),
            };
            let rule = rules[i % 4][(i / 16) % 4];
            format!(
                "id=r{i} game={game} {rule} {strength} seed={} {position} go nodes 5000",
                1000 + i
            )
        })
        .collect()
}

#[test]
fn every_answer_is_a_fresh_processs_and_bad_requests_get_one_error_each() {
    let good = requests();
    let bad = [
        (
            "b1",
            "id=b1 game=chess position startpos go nodes 5000",
            "unknown game",
        ),
        (
            "b2",
            "id=b2 game=hasami position startpos moves 9i9h 9i9h go nodes 5000",
            "move '9i9h'",
        ),
        (
            "b3",
            "id=b3 game=annan level=27 position startpos go nodes 5000",
            "Level",
        ),
        ("?", "this is not a request", "position"),
        (
            "b4",
            "id=b4 game=yonin level position startpos go nodes 5000",
            "key=value",
        ),
        (
            "b5",
            "id=b5 game=sugoroku Frobnicate=1 position startpos go nodes 5000",
            "unknown option",
        ),
    ];
    let mut pool = Pool::start(4);
    for (i, line) in good.iter().enumerate() {
        pool.send(line);
        if i % 11 == 3 {
            pool.send(bad[i / 11].1);
        }
    }
    let answers = pool.finish();
    assert_eq!(answers.len(), good.len() + bad.len(), "{answers:#?}");
    let answers = by_id(&answers);
    for (id, _, message) in bad {
        let answer = &answers[id];
        assert!(answer.starts_with(&format!("id={id} error ")), "{answer}");
        assert!(answer.contains(message), "{answer}");
    }
    let mut differ = Vec::new();
    for line in &good {
        let fresh = fresh_answer(line);
        let id = parse_request(line).unwrap().id;
        if answers[&id] != fresh {
            differ.push(format!(
                "{line}\n  pool:  {}\n  fresh: {fresh}",
                answers[&id]
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "answers unlike a fresh process's:\n{}",
        differ.join("\n")
    );
}

#[test]
fn a_process_killed_during_its_search_is_replaced_and_the_request_answered() {
    let long = "id=long game=hasami seed=5 position startpos moves 9i9h 1a1b go nodes 3000000";
    let mut pool = Pool::start(2);
    pool.send(long);
    let pid = loop {
        let line = pool
            .stderr
            .recv_timeout(Duration::from_secs(60))
            .expect("a log line");
        if let Some(rest) = line.strip_prefix("seat_pool: id=long on process ") {
            break rest
                .split("pid ")
                .nth(1)
                .unwrap()
                .trim_end_matches(')')
                .to_string();
        }
    };
    std::thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill").args(["-KILL", &pid]).status().unwrap();
    assert!(killed.success());
    let answer = pool.answer();
    let log: Vec<String> =
        std::iter::from_fn(|| pool.stderr.recv_timeout(Duration::from_millis(500)).ok()).collect();
    assert!(
        log.iter()
            .any(|l| l.contains(&format!("(pid {pid}) failed on id=long"))),
        "the search ended before the kill: {log:?}"
    );
    assert_eq!(answer, fresh_answer(long));
    // The pool goes on serving.
    let next = "id=next game=annan seed=1 level=3 position startpos go nodes 5000";
    pool.send(next);
    assert_eq!(pool.answer(), fresh_answer(next));
    assert_eq!(pool.finish(), Vec::<String>::new());
}
