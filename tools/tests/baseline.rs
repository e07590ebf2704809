//! The baseline player (`tools/src/bin/baseline.rs`) driven as the match
//! runner drives it: over its protocol, in every game, each move checked by
//! the engine library's own rules; then through the match runner itself.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use yomi_engine::registry::{self, GAMES};
use yomi_engine::session::GameSession;

const BASELINE: &str = env!("CARGO_BIN_EXE_baseline");
const MATCH: &str = env!("CARGO_BIN_EXE_match");
/// Longer than any answer may take: a line not there by then is a failure.
const PATIENCE: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BASELINE)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the baseline");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `token`.
    fn until(&mut self, token: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no '{token}' in time; got {seen:?}"));
            let done = line.starts_with(token);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The lines that come before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// `go` and the move of its `bestmove`, with the time it took.
    fn go(&mut self, go: &str) -> (String, Duration) {
        let t0 = Instant::now();
        self.send(go);
        let lines = self.until("bestmove");
        let elapsed = t0.elapsed();
        let last = lines.last().unwrap();
        let mv = last.split_whitespace().nth(1).expect("a move").to_string();
        (mv, elapsed)
    }

    fn quit(mut self) {
        self.send("quit");
        let until = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < until, "the baseline did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The `go` the runner sends under a clock, for `seats` seats.
fn clock_go(seats: usize) -> String {
    if seats == 2 {
        "go btime 1000 wtime 1000 byoyomi 100".into()
    } else {
        "go time0 1000 time1 1000 time2 1000 time3 1000 inc0 10 inc1 10 inc2 10 inc3 10".into()
    }
}

/// Plays up to `plies` plies of `game` with the engine at every seat, each
/// move checked against the referee's legal moves (the dice rolled from
/// `dice`); returns the moves list as `position` got it, and whether the
/// game is over.
fn self_play(engine: &mut Engine, game: &str, plies: usize, dice: u64) -> (Vec<String>, bool) {
    let entry = registry::find(game).unwrap();
    let mut referee: Box<dyn GameSession> = (entry.new_session)();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(dice);
    let mut tokens: Vec<String> = Vec::new();
    engine.send(&format!("setoption name USI_Variant value {game}"));
    engine.send("usinewgame");
    let mut slowest = Duration::ZERO;
    for _ in 0..plies {
        let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
        referee.set_position(None, &refs).unwrap();
        if referee.state().awaits_chance {
            let (a, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
            tokens.push(format!("{}{}", a.max(b), a.min(b)));
            let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
            referee.set_position(None, &refs).unwrap();
        }
        if referee.state().outcome.is_some() {
            return (tokens, true);
        }
        let legal = referee.legal_moves();
        if tokens.is_empty() {
            engine.send("position startpos");
        } else {
            engine.send(&format!("position startpos moves {}", tokens.join(" ")));
        }
        let (mv, took) = engine.go(&clock_go(entry.seats));
        slowest = slowest.max(took);
        assert!(
            legal.contains(&mv),
            "{game}: '{mv}' is not legal after {tokens:?} (legal: {legal:?})"
        );
        tokens.push(mv);
    }
    assert!(
        slowest < Duration::from_millis(500),
        "{game}: a move took {slowest:?}"
    );
    (tokens, false)
}

#[test]
fn usi_names_the_mode_and_lists_the_options() {
    for mode in ["random", "greedy", "greedy:30"] {
        let mut engine = Engine::start(&[mode]);
        engine.send("usi");
        let lines = engine.until("usiok");
        assert_eq!(lines[0], format!("id name yomi-baseline {mode}"));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name USI_Variant type combo")));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name Seed type spin")));
        assert!(lines.iter().any(|l| l.starts_with("option name HasamiWin")));
        assert!(engine.sync().is_empty());
        engine.quit();
    }
}

#[test]
fn each_mode_plays_legal_moves_in_every_game_at_once() {
    for mode in ["random", "greedy"] {
        for game in GAMES {
            let mut engine = Engine::start(&[mode, "--seed", "3"]);
            let (moves, over) = self_play(&mut engine, game.name(), 60, 11);
            assert!(
                over || moves.len() >= 60,
                "{mode} {}: {moves:?}",
                game.name()
            );
            engine.quit();
        }
    }
}

/// The moves the referee says capture: `captured` is what a move must
/// change in the position after it (by the rules, not by the engine's gains).
fn capturing(game: &str, sfen: &str, captured: fn(&dyn GameSession) -> String) -> Vec<String> {
    let mut session = registry::new_session(game).unwrap();
    session.set_position(Some(sfen), &[]).unwrap();
    let before = captured(&*session);
    let legal = session.legal_moves();
    legal
        .into_iter()
        .filter(|mv| {
            let mut after = registry::new_session(game).unwrap();
            after.set_position(Some(sfen), &[mv.as_str()]).unwrap();
            captured(&*after) != before
        })
        .collect()
}

/// What greedy and random play in `sfen` over eight seeds.
fn choices(game: &str, sfen: &str, moves: &str) -> (Vec<String>, Vec<String>) {
    let mut picked = (Vec::new(), Vec::new());
    for seed in 0..8 {
        for (mode, into) in [("greedy", &mut picked.0), ("random", &mut picked.1)] {
            let mut engine = Engine::start(&[mode]);
            engine.send(&format!("setoption name USI_Variant value {game}"));
            engine.send(&format!("setoption name Seed value {seed}"));
            engine.send(&format!("position sfen {sfen}{moves}"));
            into.push(engine.go("go movetime 1000").0);
            engine.quit();
        }
    }
    picked
}

#[test]
fn greedy_takes_a_free_capture() {
    // Hasami: only 1d5d shuts the white stone on 5e in (between 5d and 5f).
    let hasami = "pppp5/9/9/8P/4p4/4P4/9/9/PPP6 b - 1";
    let stones = |s: &dyn GameSession| s.status_details();
    // Annan: the rook takes the gold on 5e, and nothing can take back.
    let annan = "4k4/9/9/9/4g4/9/9/4R4/K8 b - 1";
    let hand = |s: &dyn GameSession| s.sfen().split(' ').nth(2).unwrap_or("").to_string();
    type Captured = fn(&dyn GameSession) -> String;
    for (game, sfen, captured) in [
        ("hasami", hasami, stones as Captured),
        ("annan", annan, hand as Captured),
    ] {
        let captures = capturing(game, sfen, captured);
        assert_eq!(captures.len(), 1, "{game}: {captures:?}");
        let (greedy, random) = choices(game, sfen, "");
        assert!(
            greedy.iter().all(|mv| *mv == captures[0]),
            "{game}: {greedy:?}"
        );
        // Random does not see it (so the position tells the two apart).
        assert!(
            random.iter().any(|mv| *mv != captures[0]),
            "{game}: {random:?}"
        );
    }
}

#[test]
fn greedy_hits_a_blot_in_sugoroku() {
    // White left a blot on black's 11: 13/11 hits it (the roll 52).
    let history = ["31:8/5,6/5", "64:24/18,18/14", "52"];
    let mut referee = registry::new_session("sugoroku").unwrap();
    referee.set_position(None, &history).unwrap();
    let bar = |s: &dyn GameSession| {
        let details = s.status_details();
        let words: Vec<&str> = details.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "bar").unwrap();
        words[at + 1].to_string()
    };
    let before = bar(&*referee);
    for seed in 0..4 {
        let mut engine = Engine::start(&["greedy", "--seed", &seed.to_string()]);
        engine.send("setoption name USI_Variant value sugoroku");
        engine.send(&format!("position startpos moves {}", history.join(" ")));
        let (mv, _) = engine.go("go nodes 1000");
        engine.quit();
        let mut moves = history.to_vec();
        moves.push(&mv);
        referee.set_position(None, &moves).unwrap();
        assert_ne!(bar(&*referee), before, "{mv} hits nothing");
    }
}

#[test]
fn the_same_seed_replays_the_same_game() {
    for mode in ["random", "greedy"] {
        let game = |args: &[&str], option: Option<&str>| {
            let mut engine = Engine::start(args);
            if let Some(seed) = option {
                engine.send(&format!("setoption name Seed value {seed}"));
            }
            let (moves, _) = self_play(&mut engine, "hasami", 40, 0);
            engine.quit();
            moves
        };
        let first = game(&[mode, "--seed", "5"], None);
        assert_eq!(first, game(&[mode, "--seed", "5"], None), "{mode}");
        // The option sets the same seed as the command line.
        assert_eq!(first, game(&[mode], Some("5")), "{mode}");
        assert_ne!(first, game(&[mode, "--seed", "6"], None), "{mode}");
    }
}

#[test]
fn a_greedy_share_plays_between_random_and_greedy() {
    let game = |mode: &str| {
        let mut engine = Engine::start(&[mode, "--seed", "4"]);
        let (moves, _) = self_play(&mut engine, "annan", 60, 0);
        engine.quit();
        moves
    };
    let (random, greedy) = (game("random"), game("greedy"));
    assert_ne!(random, greedy);
    assert_eq!(
        game("greedy:0"),
        random,
        "0 %: random's moves, drawn the same way"
    );
    assert_eq!(game("greedy:100"), greedy);
    let half = game("greedy:50");
    assert!(half != random && half != greedy, "{half:?}");
}

#[test]
fn bad_input_gets_an_error_line_and_the_engine_plays_on() {
    let mut engine = Engine::start(&["random"]);
    let errors = [
        "hello",
        "position",
        "position sfen",
        "position nowhere",
        "position startpos moves 9z9z",
        "position sfen garbage moves 1a1b",
        "setoption",
        "setoption name",
        "setoption name USI_Variant value chess",
        "setoption name Seed value -1",
        "setoption name HasamiWin value seven",
        "setoption name NoSuchOption value 1",
    ];
    for line in errors {
        engine.send(line);
        let replies = engine.sync();
        assert!(
            replies.len() == 1 && replies[0].starts_with("info string error: "),
            "{line:?}: {replies:?}"
        );
    }
    // Bytes that are not UTF-8, a very long line, empty lines: no crash.
    engine.stdin.write_all(b"\xff\xfe\x00go\n\n   \n").unwrap();
    engine.send(&"x".repeat(100_000));
    for reply in engine.sync() {
        assert!(reply.starts_with("info string error: "), "{reply}");
        assert!(reply.len() < 200, "echoed input is cut short");
    }
    // The position survived every bad command: still the start.
    let (mv, _) = engine.go("go depth 1");
    let start = registry::new_session("hasami").unwrap().legal_moves();
    assert!(start.contains(&mv), "{mv}");
    // A decided game: resign.
    engine.send("position sfen pppp5/9/9/9/9/9/9/9/PPPPPPPPP w - 1");
    assert_eq!(engine.go("go nodes 10").0, "resign");
    // Sugoroku waiting for its dice: refused like the real engine, no bestmove.
    engine.send("setoption name USI_Variant value sugoroku");
    engine.send("position startpos");
    engine.send("go nodes 10");
    let replies = engine.sync();
    assert!(
        replies.iter().any(|l| l.starts_with("info string")),
        "{replies:?}"
    );
    assert!(
        replies.iter().any(|l| l.contains("error: go:")),
        "{replies:?}"
    );
    assert!(
        !replies.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
    engine.quit();
}

#[test]
fn infinite_and_ponder_wait_for_stop_and_ponderhit() {
    let mut engine = Engine::start(&["greedy"]);
    engine.send("position startpos");
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder btime 100 wtime 100", "ponderhit"),
    ] {
        engine.send(go);
        assert!(engine.sync().is_empty(), "{go}: nothing before {release}");
        let (mv, _) = engine.go(release);
        assert!(!mv.is_empty());
    }
    // gameover drops a held answer; stop then says nothing.
    engine.send("go infinite");
    engine.send("gameover lose");
    engine.send("stop");
    assert!(engine.sync().is_empty());
    engine.quit();
}

#[test]
fn bad_command_lines_are_refused_with_one_message() {
    let cases: [&[&str]; 8] = [
        &[],
        &["fast"],
        &["greedy:101"],
        &["greedy:x"],
        &["greedy:"],
        &["random", "--seed"],
        &["random", "--seed", "x"],
        &["random", "greedy"],
    ];
    for args in cases {
        let output = Command::new(BASELINE).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("baseline: "), "{args:?}: {stderr}");
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-baseline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn greedy_against_random_through_the_match_runner_in_every_game() {
    let dir = scratch("match");
    let faults = [
        "illegal-move",
        "resign",
        "timeout",
        "hang",
        "crash",
        "garbage",
        "error",
    ];
    for game in GAMES {
        let out = dir.join(format!("{}.jsonl", game.name()));
        let output = Command::new(MATCH)
            .args([
                "--game",
                game.name(),
                "--games",
                "2",
                "--nodes",
                "1000",
                "--max-plies",
                "300",
            ])
            .args(["--seed", "4", "--quiet", "--out"])
            .arg(&out)
            .args([
                "--engine",
                "name=greedy",
                &format!("cmd={BASELINE}"),
                "arg=greedy",
            ])
            .args([
                "--engine",
                "name=random",
                &format!("cmd={BASELINE}"),
                "arg=random",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{}: {stderr}", game.name());
        assert!(!stderr.contains("warning"), "{}: {stderr}", game.name());
        let text = std::fs::read_to_string(&out).unwrap();
        let games: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("\"type\":\"game\""))
            .collect();
        assert_eq!(games.len(), 2, "{}: {text}", game.name());
        for line in games {
            let reason = line
                .split("\"reason\":\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            assert!(!faults.contains(&reason), "{}: {line}", game.name());
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
