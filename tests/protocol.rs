//! The protocol through the real binary (see docs/protocol.md).

mod common;

use common::{assert_legal_search, assert_one_error, bestmove, Engine, PROMPT, START_SFEN};
use std::time::{Duration, Instant};

/// How long a search waiting for `stop` must stay silent in these tests.
const QUIET: Duration = Duration::from_millis(400);
/// `stop` is answered within this.
const PROMPTLY: Duration = Duration::from_secs(3);
/// Position after `9i9h 1a1b`.
const AFTER_TWO: &str = "pppppppp1/8p/9/9/9/9/9/P8/1PPPPPPPP b - 3";
/// White to move has 4 stones left: black has captured 5 and won.
const WON_BY_BLACK: &str = "pppp5/9/9/9/9/9/9/9/PPPPPPPPP w - 1";

#[test]
fn handshake_announces_options_and_answers_isready() {
    let mut engine = Engine::start();
    let started = Instant::now();
    engine.send("usi");
    let lines = engine.read_until(PROMPT, |l| l == "usiok");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "usi must be answered at once"
    );
    assert!(lines[0].starts_with("id name Yomi "), "{lines:?}");
    assert!(lines[0].is_ascii());
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .collect();
    assert_eq!(
        options.len(),
        lines.len() - 3,
        "only id, option and usiok lines: {lines:#?}"
    );
    let has = |prefix: &str| options.iter().any(|l| l.starts_with(prefix));
    assert!(has("option name USI_Variant type combo default hasami var hasami var annan var yonin var sugoroku"));
    for name in [
        "HasamiWin",
        "MoveLimit",
        "MaxMovesToDraw",
        "Threads",
        "USI_Hash",
        "MultiPV",
        "USI_Ponder",
    ] {
        assert!(
            has(&format!("option name {name} type ")),
            "{name} missing: {options:#?}"
        );
    }
    assert!(has("option name MaxMovesToDraw type spin default 0 min 0"));
    assert!(has("option name USI_Ponder type check default false"));
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.quit_cleanly();
}

#[test]
fn position_with_moves_then_d_moves_and_status() {
    let mut engine = Engine::start();
    assert_eq!(engine.ask("usinewgame"), Vec::<String>::new());
    assert_eq!(
        engine.ask("position startpos moves 9i9h 1a1b"),
        Vec::<String>::new()
    );
    let diagram = engine.ask("d");
    assert!(
        diagram.contains(&format!("sfen {AFTER_TWO}")),
        "{diagram:#?}"
    );
    assert!(diagram.contains(&"side b".to_string()), "{diagram:#?}");
    assert!(
        diagram.iter().any(|l| l.starts_with("key ")),
        "{diagram:#?}"
    );
    assert_eq!(engine.status(), "ongoing turn b ply 2 captured b 0 w 0");
    let moves = engine.legal_moves();
    assert!(
        moves.contains(&"9h9b".to_string()) && moves.contains(&"1i1c".to_string()),
        "{moves:?}"
    );
    assert!(!moves.contains(&"9i9h".to_string()));
    assert!(moves.iter().all(|m| m.len() == 4), "{moves:?}");
    // The same position given as an SFEN.
    engine.ask(&format!("position sfen {AFTER_TWO}"));
    assert_eq!(engine.sfen(), AFTER_TWO);
    assert_eq!(engine.legal_moves(), moves);
    // usinewgame goes back to the start.
    engine.ask("usinewgame");
    assert_eq!(engine.sfen(), START_SFEN);
    assert_eq!(engine.legal_moves().len(), 63);
    engine.quit_cleanly();
}

#[test]
fn go_with_each_limit_ends_with_a_legal_bestmove() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves 9i9h 1a1b");
    let legal = engine.legal_moves();
    for (go, timeout) in [
        ("go depth 3", PROMPT),
        ("go nodes 5000", PROMPT),
        ("go movetime 300", Duration::from_secs(3)),
        ("go btime 0 wtime 0 byoyomi 300", Duration::from_secs(3)),
        (
            "go btime 2000 wtime 2000 binc 100 winc 100",
            Duration::from_secs(4),
        ),
    ] {
        let lines = engine.go(go, timeout);
        assert_legal_search(&lines, &legal);
        assert_eq!(
            engine.sync(),
            Vec::<String>::new(),
            "nothing after bestmove ({go})"
        );
        assert_eq!(
            engine.sfen(),
            AFTER_TWO,
            "the search does not move the position"
        );
    }
    engine.quit_cleanly();
}

#[test]
fn go_before_any_position_searches_the_start() {
    let mut engine = Engine::start();
    let lines = engine.go("go depth 1", PROMPT);
    let legal = engine.legal_moves();
    assert_eq!(legal.len(), 63);
    assert_legal_search(&lines, &legal);
    engine.quit_cleanly();
}

#[test]
fn go_infinite_answers_only_after_stop() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    let legal = engine.legal_moves();
    engine.send("go infinite");
    let early = engine.lines_within(QUIET);
    assert!(
        early.iter().all(|l| l.starts_with("info ")),
        "no bestmove before stop: {early:?}"
    );
    let stopped = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    assert!(stopped.elapsed() < PROMPTLY);
    assert_legal_search(&lines, &legal);
    // A stray stop afterwards is ignored.
    assert_eq!(engine.ask("stop"), Vec::<String>::new());
    engine.quit_cleanly();
}

#[test]
fn isready_during_a_search_is_answered_at_once() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    let asked = Instant::now();
    let lines = engine.sync();
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info ") && !l.contains("error")),
        "{lines:?}"
    );
    engine.send("stop");
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    bestmove(&lines);
    engine.quit_cleanly();
}

#[test]
fn ponder_then_ponderhit_answers_after_ponderhit() {
    let mut engine = Engine::start();
    engine.ask("setoption name USI_Ponder value true");
    engine.ask("position startpos moves 9i9h");
    let legal = engine.legal_moves();
    engine.send("go ponder btime 0 wtime 0 byoyomi 300");
    let early = engine.lines_within(QUIET);
    assert!(
        early.iter().all(|l| l.starts_with("info ")),
        "no bestmove while pondering: {early:?}"
    );
    engine.send("ponderhit");
    let lines = engine.read_until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    let mv = assert_legal_search(&lines, &legal);
    if let (_, Some(reply)) = bestmove(&lines) {
        engine.ask(&format!("position startpos moves 9i9h {mv}"));
        assert!(
            engine.legal_moves().contains(&reply),
            "ponder move {reply} is not legal after {mv}"
        );
    }
    engine.quit_cleanly();
}

#[test]
fn ponder_then_stop_answers_the_stop() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    let legal = engine.legal_moves();
    engine.send("go ponder btime 10000 wtime 10000 byoyomi 1000");
    assert!(engine
        .lines_within(QUIET)
        .iter()
        .all(|l| l.starts_with("info ")));
    engine.send("stop");
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    assert_legal_search(&lines, &legal);
    engine.quit_cleanly();
}

#[test]
fn gameover_during_a_search_stops_it_without_bestmove() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves 9i9h 1a1b");
    engine.send("go infinite");
    engine.lines_within(Duration::from_millis(100));
    engine.send("gameover lose");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info ") && !l.contains("error")),
        "no bestmove after gameover: {lines:?}"
    );
    assert_eq!(engine.sfen(), AFTER_TWO);
    // The engine plays on.
    engine.ask("usinewgame");
    let lines = engine.go("go depth 1", PROMPT);
    bestmove(&lines);
    // gameover with nothing running does nothing.
    assert_eq!(engine.ask("gameover win"), Vec::<String>::new());
    engine.quit_cleanly();
}

#[test]
fn quit_during_a_search_answers_and_exits() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.lines_within(Duration::from_millis(100));
    engine.send("quit");
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    bestmove(&lines);
    let (status, stderr) = engine.wait_exit(PROMPTLY);
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn end_of_input_during_a_search_answers_and_exits() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.lines_within(Duration::from_millis(100));
    engine.close_stdin();
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    bestmove(&lines);
    let (status, stderr) = engine.wait_exit(PROMPTLY);
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn commands_that_change_state_are_refused_while_searching() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves 9i9h 1a1b");
    engine.send("go infinite");
    for command in [
        "position startpos",
        "setoption name MultiPV value 2",
        "usinewgame",
        "go depth 1",
        "go perft 1",
        "bench 1",
        "setoption name USI_Variant value hasami",
    ] {
        let lines = engine.ask_quiet(command);
        let error = assert_one_error(&lines, command);
        assert!(error.contains("search in progress"), "{error}");
    }
    // Read-only commands answer from the searched position.
    assert_eq!(engine.status(), "ongoing turn b ply 2 captured b 0 w 0");
    let usi = engine.ask_quiet("usi");
    assert_eq!(usi.last().map(String::as_str), Some("usiok"));
    engine.send("stop");
    bestmove(&engine.read_until(PROMPTLY, |l| l.starts_with("bestmove")));
    assert_eq!(engine.sfen(), AFTER_TWO);
    engine.quit_cleanly();
}

#[test]
fn commands_after_a_bounded_search_wait_for_it() {
    let mut engine = Engine::start();
    // Sent together, as a script would: the position waits for the bestmove.
    engine.send("go depth 2\nposition startpos moves 9i9h 1a1b\nstatus");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("status"));
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .expect("a bestmove");
    assert_eq!(best, lines.len() - 2, "{lines:?}");
    assert_eq!(
        lines.last().unwrap(),
        "status ongoing turn b ply 2 captured b 0 w 0"
    );
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.quit_cleanly();
}

#[test]
fn a_decided_position_answers_resign() {
    let mut engine = Engine::start();
    engine.ask(&format!("position sfen {WON_BY_BLACK}"));
    assert!(engine
        .status()
        .starts_with("over winner b points 1 reason five-captured"));
    assert_eq!(engine.legal_moves(), Vec::<String>::new());
    let lines = engine.go("go depth 3", PROMPT);
    assert_eq!(lines.last().unwrap(), "bestmove resign");
    // Also when the answer waits for stop.
    engine.send("go infinite");
    assert!(engine
        .lines_within(QUIET)
        .iter()
        .all(|l| l.starts_with("info ")));
    engine.send("stop");
    let lines = engine.read_until(PROMPTLY, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove resign");
    engine.quit_cleanly();
}

#[test]
fn variants_switch_and_unimplemented_ones_are_refused() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves 9i9h 1a1b");
    // Games land one by one: each is either switched to or refused, never half.
    for game in ["annan", "yonin", "sugoroku"] {
        let reply = engine.ask(&format!("setoption name USI_Variant value {game}"));
        if reply == [format!("info string variant {game}")] {
            // A new game from its start position; the announced options follow it.
            let usi = engine.ask("usi");
            assert_eq!(usi.last().map(String::as_str), Some("usiok"));
            assert!(usi
                .iter()
                .any(|l| l.starts_with("option name USI_Variant ")));
            assert!(engine.status().starts_with("ongoing"));
            let legal = engine.legal_moves();
            if legal.is_empty() {
                // Sugoroku's start waits for the first roll: nothing to search yet.
                let error = assert_one_error(&engine.ask("go depth 1"), game);
                assert!(error.contains("not rolled"), "{error}");
            } else {
                assert_legal_search(&engine.go("go depth 1", PROMPT), &legal);
            }
            let reply = engine.ask("setoption name USI_Variant value hasami");
            assert_eq!(reply, ["info string variant hasami"]);
            assert_eq!(engine.sfen(), START_SFEN, "back to hasami at its start");
            engine.ask("position startpos moves 9i9h 1a1b");
        } else {
            let error = assert_one_error(&reply, game);
            assert!(error.contains("not implemented"), "{error}");
            assert_eq!(engine.sfen(), AFTER_TWO, "state kept after refusing {game}");
        }
    }
    let error = assert_one_error(
        &engine.ask("setoption name USI_Variant value chess"),
        "chess",
    );
    assert!(error.contains("unknown game"), "{error}");
    // Choosing the current game again keeps the position.
    assert_eq!(
        engine.ask("setoption name USI_Variant value hasami"),
        ["info string variant hasami"]
    );
    assert_eq!(
        engine.ask("setoption name UCI_Variant value HASAMI"),
        ["info string variant hasami"]
    );
    assert_eq!(engine.sfen(), AFTER_TWO);
    engine.quit_cleanly();
}

#[test]
fn house_rules_and_the_move_limit_alias() {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask("setoption name MaxMovesToDraw value 2"),
        Vec::<String>::new()
    );
    engine.ask("position startpos moves 9i9h 1a1b");
    assert!(
        engine
            .status()
            .starts_with("over draw reason move-limit ply 2"),
        "{}",
        engine.status()
    );
    assert_eq!(
        engine.ask("setoption name MoveLimit value 0"),
        Vec::<String>::new()
    );
    engine.ask("position startpos moves 9i9h 1a1b");
    assert!(engine.status().starts_with("ongoing"));
    assert_eq!(
        engine.ask("setoption name HasamiWin value lead3"),
        Vec::<String>::new()
    );
    for option in [
        "setoption name USI_Hash value 16",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "setoption name TimeMargin value 50",
        "setoption name Seed value 7",
        "setoption name usi_ponder value false",
    ] {
        assert_eq!(engine.ask(option), Vec::<String>::new(), "{option}");
    }
    engine.quit_cleanly();
}

#[test]
fn bad_input_gets_one_error_line_and_keeps_the_state() {
    let mut engine = Engine::start();
    engine.ask("setoption name MultiPV value 1");
    engine.ask("position startpos moves 9i9h 1a1b");
    let diagram = engine.ask("d");
    let status = engine.status();
    let long_garbage = "x".repeat(1_000_000);
    let mut long_moves = String::from("position startpos moves");
    while long_moves.len() < 1_000_000 {
        long_moves.push_str(" 9i9h 1a1b 9h9i 1b1a");
    }
    long_moves.push_str(" 5i5a");
    let too_long = "y".repeat(3 << 20);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("unknown command", b"frobnicate 1 2".to_vec()),
        ("upper case", b"USI".to_vec()),
        ("truncated position", b"position".to_vec()),
        ("truncated sfen", b"position sfen".to_vec()),
        ("truncated setoption", b"setoption name".to_vec()),
        ("truncated go", b"go depth".to_vec()),
        ("go depth abc", b"go depth abc".to_vec()),
        ("go nodes -5", b"go nodes -5".to_vec()),
        ("go mate with two limits", b"go mate 3 4".to_vec()),
        ("go perft x", b"go perft x".to_vec()),
        ("gameover maybe", b"gameover maybe".to_vec()),
        (
            "short row",
            b"position sfen pppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1".to_vec(),
        ),
        (
            "long row",
            b"position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPPP b - 1".to_vec(),
        ),
        (
            "ten pieces",
            b"position sfen ppppppppp/9/9/9/9/9/9/P8/PPPPPPPPP b - 1".to_vec(),
        ),
        (
            "eight rows",
            b"position sfen ppppppppp/9/9/9/9/9/9/PPPPPPPPP b - 1".to_vec(),
        ),
        (
            "bad side",
            b"position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP x - 1".to_vec(),
        ),
        (
            "bad hand",
            b"position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b P 1".to_vec(),
        ),
        (
            "bad piece",
            b"position sfen ppppppppp/9/9/9/9/9/9/9/PPPPKPPPP b - 1".to_vec(),
        ),
        (
            "illegal move",
            b"position startpos moves 9i9h 9i9h".to_vec(),
        ),
        ("garbled move", b"position startpos moves zz".to_vec()),
        ("blocked move", b"position startpos moves 5i5a".to_vec()),
        (
            "move of the wrong side",
            b"position startpos moves 1a1b".to_vec(),
        ),
        (
            "moves without moves word",
            b"position startpos 9i9h".to_vec(),
        ),
        (
            "option out of range",
            b"setoption name Threads value 0".to_vec(),
        ),
        (
            "option not a number",
            b"setoption name USI_Hash value lots".to_vec(),
        ),
        (
            "option too big",
            b"setoption name USI_Hash value 99999999999999999999".to_vec(),
        ),
        (
            "bad check",
            b"setoption name USI_Ponder value maybe".to_vec(),
        ),
        ("bad combo", b"setoption name HasamiWin value six".to_vec()),
        (
            "unknown option",
            b"setoption name NoSuchOption value 1".to_vec(),
        ),
        (
            "variant without value",
            b"setoption name USI_Variant".to_vec(),
        ),
        (
            "unknown variant",
            b"setoption name USI_Variant value chess".to_vec(),
        ),
        (
            "variant of no game",
            b"setoption name UCI_Variant value go".to_vec(),
        ),
        ("1 MB of garbage", long_garbage.into_bytes()),
        (
            "1 MB of moves with an illegal last",
            long_moves.into_bytes(),
        ),
        ("3 MiB line", too_long.into_bytes()),
        ("invalid UTF-8", b"position \xff\xfe startpos".to_vec()),
        ("control characters", b"\x01\x02\x1b[2J".to_vec()),
    ];
    for (what, bytes) in cases {
        let mut line = bytes;
        line.push(b'\n');
        engine.send_bytes(&line);
        let lines = engine.sync();
        let error = assert_one_error(&lines, what);
        assert!(
            error.len() < 300,
            "{what}: the error line echoes too much: {} bytes",
            error.len()
        );
        assert_eq!(engine.ask("d"), diagram, "{what}: the position changed");
        assert_eq!(engine.status(), status, "{what}: the status changed");
    }
    // And it still plays.
    let legal = engine.legal_moves();
    let lines = engine.go("go depth 1", PROMPT);
    assert_legal_search(&lines, &legal);
    engine.quit_cleanly();
}

#[test]
fn a_long_valid_move_list_is_accepted() {
    let mut engine = Engine::start();
    let mut line = String::from("position startpos moves");
    let mut plies = 0;
    while line.len() < 900_000 {
        line.push_str(" 9i9h 1a1b 9h9i 1b1a");
        plies += 4;
    }
    assert_eq!(engine.ask(&line), Vec::<String>::new());
    let status = engine.status();
    assert!(status.contains(&format!("ply {plies}")), "{status}");
    engine.quit_cleanly();
}

#[test]
fn perft_and_bench_extensions() {
    let mut engine = Engine::start();
    engine.send("go perft 2");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("perft "));
    assert_eq!(lines.len(), 64, "{lines:?}");
    let sum: u64 = lines[..63]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 3717);
    assert!(
        lines[63].starts_with("perft depth 2 nodes 3717 time "),
        "{}",
        lines[63]
    );
    engine.send("bench 1");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bench total"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("bench hasami positions "), "{lines:?}");
    assert!(lines[1].contains(" nps "), "{lines:?}");
    engine.quit_cleanly();
}

/// The bench node count of the game (one line of `bench`).
fn bench_nodes(engine: &mut Engine) -> u64 {
    engine.send("bench 3");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bench total"));
    let words: Vec<&str> = lines[0].split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn tunables_are_listed_on_request_and_move_the_search_by_name() {
    for (game, tunable) in [
        ("hasami", "Tune_HasamiHanging"),
        ("annan", "Tune_AnnanKingDanger"),
        ("yonin", "Tune_YoninKingPressure"),
        ("sugoroku", "Tune_RootMargin"),
    ] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name USI_Variant value {game}"));
        engine.send("usi");
        let listing = engine.read_until(PROMPT, |l| l == "usiok");
        assert!(
            !listing.iter().any(|l| l.contains("Tune_")),
            "{game}: hidden"
        );
        engine.send("setoption name ShowTunables value true");
        engine.send("usi");
        let listing = engine.read_until(PROMPT, |l| l == "usiok");
        let line = listing
            .iter()
            .find(|l| l.starts_with(&format!("option name {tunable} type spin default ")))
            .unwrap_or_else(|| panic!("{game}: {tunable} listed: {listing:?}"));
        let default: i64 = line.split_whitespace().nth(6).unwrap().parse().unwrap();
        let before = bench_nodes(&mut engine);
        engine.send(&format!("setoption name {tunable} value 99999999"));
        let error = engine.read_until(PROMPT, |l| l.contains("error"));
        assert!(
            error[0].starts_with("info string error: setoption"),
            "{error:?}"
        );
        assert_eq!(
            bench_nodes(&mut engine),
            before,
            "{game}: a refused value changes nothing"
        );
        let changed = if default == 0 { 150 } else { default * 4 };
        engine.send(&format!(
            "setoption name {} value {changed}",
            tunable.to_lowercase()
        ));
        assert_ne!(
            bench_nodes(&mut engine),
            before,
            "{game}: {tunable} {changed} moves the search"
        );
        engine.send(&format!("setoption name {tunable} value {default}"));
        assert_eq!(
            bench_nodes(&mut engine),
            before,
            "{game}: the default restores it"
        );
        engine.quit_cleanly();
    }
}

#[test]
fn a_game_switched_back_to_starts_from_its_default_tunables() {
    let mut engine = Engine::start();
    engine.send("setoption name USI_Variant value yonin");
    engine.read_until(PROMPT, |l| l == "info string variant yonin");
    let default = bench_nodes(&mut engine);
    engine.send("setoption name Tune_YoninKingPressure value 112");
    let tuned = bench_nodes(&mut engine);
    assert_ne!(tuned, default, "the tunable moves the search");
    // Hasami has no such option, so the value is dropped with the switch.
    engine.send("setoption name USI_Variant value hasami");
    engine.send("setoption name USI_Variant value yonin");
    engine.read_until(PROMPT, |l| l == "info string variant yonin");
    assert_eq!(bench_nodes(&mut engine), default);
    engine.quit_cleanly();
}

#[test]
fn end_of_input_lets_perft_finish() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 9i9h");
    engine.send("go perft 3");
    engine.close_stdin();
    let lines = engine.read_until(PROMPT, |l| l.starts_with("perft "));
    let total: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(lines
        .last()
        .unwrap()
        .starts_with(&format!("perft depth 3 nodes {total} ")));
    let (status, stderr) = engine.wait_exit(PROMPT);
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn annan_session_plays_reports_mate_and_refuses_bad_moves() {
    let mut engine = Engine::start();
    engine.ask("setoption name USI_Variant value annan");
    engine.ask("position startpos");
    let legal = engine.legal_moves();
    assert_eq!(legal.len(), 32, "the rules file's first-move count");
    assert!(legal.contains(&"8g4c+".to_string()) && !legal.contains(&"8g8f".to_string()));
    let lines = engine.go("go depth 3", PROMPT);
    assert_legal_search(&lines, &legal);

    // Black mates at once with a gold drop; the search says so, the status too.
    engine.ask("position sfen 8k/9/7S1/9/9/9/9/9/K8 b G 1");
    let lines = engine.go("go depth 3", PROMPT);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    let (mv, _) = bestmove(&lines);
    engine.ask(&format!(
        "position sfen 8k/9/7S1/9/9/9/9/9/K8 b G 1 moves {mv}"
    ));
    assert!(
        engine
            .status()
            .starts_with("over winner b points 1 reason checkmate"),
        "{}",
        engine.status()
    );
    assert_eq!(
        engine.go("go depth 2", PROMPT).last().unwrap(),
        "bestmove resign"
    );

    // Checking with every move into a fourth repetition loses.
    let cycle = "2c1c 1a2a 1c2c 2a1a ".repeat(3);
    engine.ask(&format!(
        "position sfen 8k/9/7R1/9/9/9/9/9/K8 b - 1 moves {cycle}"
    ));
    assert!(
        engine
            .status()
            .starts_with("over winner w points 1 reason perpetual-check"),
        "{}",
        engine.status()
    );

    // Illegal and garbled moves keep the position.
    engine.ask("position startpos moves 7g7f");
    let before = engine.sfen();
    for bad in [
        "position startpos moves 7g7f 8g8f",
        "position startpos moves 7g7f K*5e",
        "position startpos moves 7g7f 3c3d+",
    ] {
        assert_one_error(&engine.ask(bad), "move");
        assert_eq!(engine.sfen(), before);
    }
    engine.quit_cleanly();
}

/// A searchable position of every game, as the command that sets it.
const EVERY_GAME: [(&str, &str); 4] = [
    ("hasami", "position startpos"),
    ("annan", "position startpos"),
    ("yonin", "position startpos"),
    ("sugoroku", "position startpos moves 52"),
];

fn engine_at(game: &str, position: &str) -> Engine {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask(&format!("setoption name USI_Variant value {game}")),
        [format!("info string variant {game}")]
    );
    assert_eq!(engine.ask(position), Vec::<String>::new(), "{game}");
    engine
}

/// The words after `name` in an `info` line, as a number.
fn info_field(line: &str, name: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == name)?;
    words.next()?.parse().ok()
}

/// The first move of the `pv` of an `info` line.
fn pv_first(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == "pv")?;
    words.next()
}

#[test]
fn a_hash_table_that_cannot_be_had_is_refused_and_the_old_one_kept() {
    let mut engine = Engine::start();
    engine.send("usi");
    let lines = engine.read_until(PROMPT, |l| l == "usiok");
    assert!(
        lines.contains(&"option name USI_Hash type spin default 64 min 1 max 32768".to_string()),
        "{lines:#?}"
    );
    assert_eq!(
        engine.ask("setoption name USI_Hash value 8"),
        Vec::<String>::new()
    );
    // 32 GiB on a 24 GiB machine: the allocation fails, and must not abort.
    engine.send("setoption name USI_Hash value 32768");
    let error = assert_one_error(&engine.sync(), "isready after an impossible USI_Hash");
    assert!(
        error.contains("cannot allocate a 32768 MiB hash table; keeping 8 MiB"),
        "{error}"
    );
    // A `go` without `isready` reports it once more and searches with the old table.
    let legal = engine.legal_moves();
    engine.send("setoption name USI_Hash value 32768");
    let lines = engine.go("go depth 3", PROMPT);
    assert!(
        lines[0].starts_with("info string error: go: cannot allocate"),
        "{lines:#?}"
    );
    assert_legal_search(&lines[1..], &legal);
    assert_eq!(
        engine.ask("setoption name USI_Hash value 16"),
        Vec::<String>::new()
    );
    assert_legal_search(&engine.go("go depth 3", PROMPT), &legal);
    engine.quit_cleanly();
}

#[test]
fn early_ponder_searches_with_the_clock_ponderhit_brings() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        engine.ask("setoption name USI_Ponder value true");
        let legal = engine.legal_moves();
        // No clock at all with `go ponder`: shogiarena's early ponder.
        engine.send("go ponder");
        let early = engine.lines_within(QUIET);
        assert!(
            early.iter().all(|l| l.starts_with("info ")),
            "{game}: no bestmove while pondering: {early:?}"
        );
        let hit = Instant::now();
        engine.send("ponderhit btime 1000 wtime 1000 byoyomi 500");
        let lines = engine.read_until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        assert_legal_search(&lines, &legal);
        // 500 ms of byoyomi plus a share of the main time; generous for a busy machine.
        assert!(
            hit.elapsed() < Duration::from_secs(3),
            "{game}: {:?}",
            hit.elapsed()
        );
        engine.quit_cleanly();
    }
}

#[test]
fn searchmoves_restricts_the_root_in_every_game() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let legal = engine.legal_moves();
        assert!(legal.len() > 3, "{game}: {legal:?}");
        let chosen = [
            legal[legal.len() - 1].clone(),
            legal[legal.len() - 2].clone(),
        ];
        let lines = engine.go(
            &format!("go depth 2 searchmoves {} {}", chosen[0], chosen[1]),
            PROMPT,
        );
        let mv = assert_legal_search(&lines, &legal);
        assert!(chosen.contains(&mv), "{game}: {mv} not in {chosen:?}");
        for line in &lines[..lines.len() - 1] {
            if let Some(first) = pv_first(line) {
                assert!(chosen.iter().any(|c| c == first), "{game}: {line}");
            }
        }
        let only = &legal[legal.len() / 2];
        let lines = engine.go(&format!("go nodes 3000 searchmoves {only}"), PROMPT);
        assert_eq!(&assert_legal_search(&lines, &legal), only, "{game}");
        // A move that is not legal here is refused: one error line, no search.
        let status = engine.status();
        let lines = engine.ask(&format!("go depth 2 searchmoves {only} 1a1a"));
        let error = assert_one_error(&lines, game);
        assert!(
            error.contains("go: searchmoves: move '1a1a'"),
            "{game}: {error}"
        );
        assert!(engine.lines_within(QUIET).is_empty(), "{game}: no search");
        assert_eq!(engine.status(), status, "{game}");
        engine.quit_cleanly();
    }
}

#[test]
fn go_mate_is_always_answered_with_a_checkmate_line() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        // Annan has a solver: from the start no move gives check, so there is
        // provably no mate, whatever the limit.
        let expected = if game == "annan" {
            "checkmate nomate"
        } else {
            "checkmate notimplemented"
        };
        for go in [
            "go mate 1000",
            "go mate infinite",
            "go mate",
            "go mate nodes 5000",
        ] {
            engine.send(go);
            let lines = engine.read_until(PROMPT, |l| l.starts_with("checkmate"));
            assert_eq!(lines, [expected], "{game}: {go}");
            assert_eq!(
                engine.lines_within(Duration::from_millis(50)),
                Vec::<String>::new()
            );
        }
        let legal = engine.legal_moves();
        assert_legal_search(&engine.go("go depth 1", PROMPT), &legal);
        engine.quit_cleanly();
    }
}

#[test]
fn an_annan_mate_search_without_a_verdict_times_out_or_stops() {
    // A rook and a bishop in hand against a lone king: checks without end, no
    // verdict within seconds.
    let mut engine = engine_at("annan", "position sfen 4k4/9/9/9/9/9/9/9/4K4 b RB 1");
    for go in ["go mate 300", "go mate nodes 20000"] {
        let started = Instant::now();
        engine.send(go);
        let lines = engine.read_until(PROMPT, |l| l.starts_with("checkmate"));
        assert_eq!(lines, ["checkmate timeout"], "{go}");
        assert!(
            started.elapsed() < PROMPTLY,
            "{go}: {:?}",
            started.elapsed()
        );
    }
    for go in ["go mate infinite", "go mate"] {
        engine.send(go);
        assert_eq!(engine.lines_within(QUIET), Vec::<String>::new(), "{go}");
        let stopped = Instant::now();
        engine.send("stop");
        let lines = engine.read_until(PROMPTLY, |l| l.starts_with("checkmate"));
        assert_eq!(lines, ["checkmate timeout"], "{go}");
        assert!(
            stopped.elapsed() < Duration::from_secs(1),
            "{go}: {:?}",
            stopped.elapsed()
        );
        assert_eq!(
            engine.lines_within(Duration::from_millis(50)),
            Vec::<String>::new()
        );
    }
    engine.quit_cleanly();
}

#[test]
fn replies_are_ascii_whatever_the_input_quotes() {
    let mut engine = Engine::start();
    let before = engine.status();
    for (bad, quoted) in [
        ("position sfen ９ｉ歩 b - 1", "\\u{ff19}\\u{ff49}\\u{6b69}"),
        ("position startpos moves ９ｉ９ｈ", "\\u{ff19}"),
        ("setoption name 持ち時間 value 1", "\\u{6301}"),
        ("ｕｓｉ", "\\u{ff55}"),
        ("go depth 深い", "\\u{6df1}"),
    ] {
        let error = assert_one_error(&engine.ask(bad), bad);
        assert!(error.is_ascii(), "{bad}: {error}");
        assert!(error.contains(quoted), "{bad}: {error}");
    }
    let long = format!("position startpos moves {}", "歩".repeat(500));
    let error = assert_one_error(&engine.ask(&long), "a long quote");
    assert!(
        error.is_ascii() && error.contains("...") && error.len() < 400,
        "{error}"
    );
    assert_eq!(engine.status(), before);
    engine.quit_cleanly();
}

/// Every `info` line: `nps` follows from `nodes` and `time`, neither goes
/// back, `time` is no more than the time since `go`; the last line with a
/// `pv` starts with the move played.
fn assert_consistent_infos(lines: &[String], since_go: Duration, what: &str) {
    let (mut nodes_before, mut time_before) = (0, 0);
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let nodes = info_field(line, "nodes").expect("nodes");
        let time = info_field(line, "time").expect("time");
        let nps = info_field(line, "nps").expect("nps");
        assert_eq!(nps, nodes * 1000 / time.max(1), "{what}: {line}");
        assert!(
            nodes >= nodes_before && time >= time_before,
            "{what}: {line}"
        );
        assert!(
            time <= since_go.as_millis() as u64,
            "{what}: {line} after {since_go:?}"
        );
        (nodes_before, time_before) = (nodes, time);
    }
    let (best, _) = bestmove(lines);
    let last_pv = lines.iter().rev().find_map(|l| {
        (l.starts_with("info depth") && info_field(l, "multipv") == Some(1))
            .then(|| pv_first(l))
            .flatten()
    });
    assert_eq!(last_pv, Some(best.as_str()), "{what}: {lines:#?}");
}

#[test]
fn info_lines_agree_with_each_other_and_with_the_move_played() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        // Stopped at different moments, inside an iteration or between two.
        for wait in [0, 30, 120, 400] {
            let sent = Instant::now();
            engine.send("go infinite");
            std::thread::sleep(Duration::from_millis(wait));
            engine.send("stop");
            let lines = engine.read_until(PROMPT, |l| l.starts_with("bestmove"));
            assert_consistent_infos(
                &lines,
                sent.elapsed(),
                &format!("{game} stopped after {wait} ms"),
            );
        }
        // A weak level plays one of several lines it considered.
        engine.ask("setoption name Skill value 3");
        for seed in 0..4 {
            engine.ask(&format!("setoption name Seed value {seed}"));
            let sent = Instant::now();
            let lines = engine.go("go nodes 20000", PROMPT);
            assert_consistent_infos(&lines, sent.elapsed(), &format!("{game} at skill 3"));
        }
        engine.quit_cleanly();
    }
}

/// A search stopped before its first iteration ends has searched no line:
/// its one `info` line says depth 0 and scores the move by its static value
/// (the rating that listed it first), never by a depth it did not reach.
#[test]
fn a_search_stopped_before_any_iteration_reports_depth_0() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        // The first node counted ends the search.
        let lines = engine.go("go nodes 1", PROMPT);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(infos.len(), 1, "{game}: {lines:?}");
        assert_eq!(info_field(infos[0], "depth"), Some(0), "{game}: {lines:?}");
        assert_eq!(
            info_field(infos[0], "seldepth"),
            Some(0),
            "{game}: {lines:?}"
        );
        let (best, _) = bestmove(&lines);
        assert_eq!(pv_first(infos[0]), Some(best.as_str()), "{game}: {lines:?}");
        if game == "sugoroku" {
            // Depth 1 judges the moves by that same static value.
            let rated = engine.go("go depth 1", PROMPT);
            let score = |line: &str| line.split(" nodes ").next().map(str::to_string);
            let depth1 = rated
                .iter()
                .find(|l| l.starts_with("info depth 1 "))
                .unwrap();
            assert_eq!(pv_first(depth1), Some(best.as_str()), "{rated:?}");
            assert_eq!(
                score(depth1).map(|s| s.replace("depth 1 seldepth 1", "depth 0 seldepth 0")),
                score(infos[0])
            );
        }
        engine.quit_cleanly();
    }
}

#[test]
fn main_time_with_byoyomi_is_spent_a_bounded_share_at_a_time() {
    let mut engine = Engine::start();
    engine.ask("position startpos");
    let sent = Instant::now();
    let lines = engine.go(
        "go btime 10000 wtime 10000 byoyomi 100",
        Duration::from_secs(10),
    );
    bestmove(&lines);
    // At most a tenth of the main time plus the byoyomi, less the margin
    // (800 ms), with room for a loaded machine; it once took a fifth of the clock.
    assert!(
        sent.elapsed() < Duration::from_millis(2_000),
        "{:?}",
        sent.elapsed()
    );
    engine.quit_cleanly();
}

/// The most nodes any `info` line of a `go nodes N` reports.
fn nodes_searched(engine: &mut Engine) -> u64 {
    let lines = engine.go("go nodes 150000", PROMPT);
    lines
        .iter()
        .filter_map(|l| info_field(l, "nodes"))
        .max()
        .unwrap_or(0)
}

#[test]
fn each_game_announces_its_levels_and_skill_names_the_same_share() {
    let mut engine = Engine::start();
    for (game, levels) in [
        ("hasami", 36),
        ("annan", 26),
        ("yonin", 20),
        ("sugoroku", 20),
    ] {
        engine.ask(&format!("setoption name USI_Variant value {game}"));
        engine.send("usi");
        let options = engine.read_until(PROMPT, |l| l == "usiok");
        let level = format!("option name Level type spin default {levels} min 0 max {levels}");
        assert!(options.contains(&level), "{game}: {options:?}");
        let out_of_range = format!("setoption name Level value {}", levels + 1);
        assert_one_error(&engine.ask(&out_of_range), "out of range");
    }
    engine.ask("setoption name USI_Variant value hasami");
    engine.ask("position startpos");
    // Level 0 reads a handful of nodes; Skill 10 is Hasami's level 18 of 36
    // (about 4 100 nodes), which reads several times more than its level 8
    // (about 570; each budget varies by up to √2 either way); the last one
    // set holds.
    engine.ask("setoption name Level value 0");
    assert!(nodes_searched(&mut engine) <= 32);
    engine.ask("setoption name Skill value 10");
    let skill_ten = nodes_searched(&mut engine);
    engine.ask("setoption name Level value 8");
    let level_eight = nodes_searched(&mut engine);
    assert!(
        level_eight * 3 < skill_ten && skill_ten < 8000,
        "Skill 10: {skill_ten} nodes, Level 8: {level_eight}"
    );
    engine.ask("setoption name Skill value 20");
    assert!(nodes_searched(&mut engine) > 20_000, "full strength");
    engine.quit_cleanly();
}

/// The `Tune_…` options `usi` announces, with their ranges: (name, min, max).
fn announced_tunables(engine: &mut Engine) -> Vec<(String, i64, i64)> {
    engine.ask("setoption name ShowTunables value true");
    engine.send("usi");
    let listing = engine.read_until(PROMPT, |l| l == "usiok");
    listing
        .iter()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["option", "name", name, "type", "spin", "default", _, "min", min, "max", max]
                    if name.starts_with("Tune_") =>
                {
                    Some((name.to_string(), min.parse().ok()?, max.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn every_tunable_searches_at_both_ends_of_its_range() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let tunables = announced_tunables(&mut engine);
        assert!(tunables.len() > 5, "{game}: {tunables:?}");
        let legal = engine.legal_moves();
        for end in ["min", "max"] {
            for (name, min, max) in &tunables {
                let value = if end == "min" { min } else { max };
                let lines = engine.ask(&format!("setoption name {name} value {value}"));
                assert_eq!(lines, Vec::<String>::new(), "{game}: {name} {value}");
            }
            // Capped by nodes too: at the ends of their ranges the filters can
            // make a depth far larger than usual, and this asks for legal
            // answers, not for how fast they come.
            for depth in 1..=3 {
                let lines = engine.go(&format!("go depth {depth} nodes 50000"), PROMPT);
                assert_legal_search(&lines, &legal);
            }
        }
        engine.quit_cleanly();
    }
}

#[test]
fn the_weakest_level_chooses_among_the_searchmoves() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let legal = engine.legal_moves();
        engine.ask("setoption name Level value 0");
        for seed in 0..10 {
            engine.ask(&format!("setoption name Seed value {seed}"));
            for chosen in [&legal[..1], &legal[legal.len() - 2..]] {
                let lines = engine.go(
                    &format!("go depth 1 searchmoves {}", chosen.join(" ")),
                    PROMPT,
                );
                let mv = assert_legal_search(&lines, &legal);
                assert!(
                    chosen.contains(&mv),
                    "{game} seed {seed}: {mv} not in {chosen:?}"
                );
            }
        }
        engine.quit_cleanly();
    }
}

/// Every game's start position, with `{}` for its move (Sugoroku: turn) number.
const START_AT_MOVE: [(&str, &str); 4] = [
    ("hasami", "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - {}"),
    ("annan", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - {}"),
    ("yonin", "2S2G2K2G2S22/3P2R2P23/S13P23S3/G1P15P3G3/K1R1P13P3R3K3/G1P15P3G3/S13P03S3/3P0R0P03/2S0G0K0G0S02 -/-/-/- 0 - - {}"),
    ("sugoroku", "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b 31 {}"),
];

#[test]
fn the_position_d_prints_reads_back_at_the_last_move_number() {
    for (game, start) in START_AT_MOVE {
        let mut engine = engine_at(game, "position startpos");
        let at = |number: u32| start.replace("{}", &number.to_string());
        engine.ask(&format!("position sfen {}", at(999_999)));
        let first = engine.legal_moves()[0].clone();
        let lines = engine.ask(&format!("position sfen {} moves {first}", at(999_999)));
        assert_eq!(lines, Vec::<String>::new(), "{game}");
        let printed = engine.sfen();
        let lines = engine.ask(&format!("position sfen {printed}"));
        assert_eq!(lines, Vec::<String>::new(), "{game}: {printed} reads back");
        assert_eq!(engine.sfen(), printed, "{game}");
        // One move more would print a number that does not read back.
        let lines = engine.ask(&format!("position sfen {} moves {first}", at(1_000_000)));
        let error = assert_one_error(&lines, game);
        assert!(error.contains("move number"), "{game}: {error}");
        assert_eq!(engine.sfen(), printed, "{game}: the position kept");
        engine.quit_cleanly();
    }
}

#[test]
fn errors_about_a_long_position_field_quote_it_cut() {
    let long = |unit: &str| unit.repeat(100_000);
    let cases = [
        (
            "hasami",
            format!("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP {} - 1", long("b")),
        ),
        (
            "hasami",
            format!("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b {} 1", long("P")),
        ),
        (
            "hasami",
            format!("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - {}", long("1")),
        ),
        ("annan", format!("4k4/9/9/9/9/9/9/9/4K4 b P{} 1", long("1"))),
        ("annan", format!("4k4/9/9/9/9/9/9/9/4K4 b {}1 1", long("P"))),
        ("annan", format!("4k4/9/9/9/9/9/9/9/4K4 b - {}", long("1"))),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 {}/-/-/- 0 - - 1", long("0")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 {}/-/-/- 0 - - 1", long("R")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- {} - - 1", long("0")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- 0 {} - 1", long("0:1,")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- 0 - 01{} 1", long("x")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- 0 - 0{} 1", long("0")),
        ),
        (
            "yonin",
            format!("4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- 0 - - {}", long("1")),
        ),
    ];
    let sugoroku_cases = [
        format!(
            "{}b/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
            long("1")
        ),
        format!(
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/{} 0/0 b - 1",
            long("1")
        ),
        format!(
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 {}/0 b - 1",
            long("1")
        ),
        format!(
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 {} - 1",
            long("b")
        ),
        format!(
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b {} 1",
            long("5")
        ),
        format!(
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - {}",
            long("1")
        ),
    ];
    let sugoroku_entries = [
        format!("52:{}", long("1")),
        format!("52:13/8({})", long("1")),
        format!("52:13/{}", long("1")),
        format!("{}:13/8", long("5")),
    ];
    let lines = cases
        .iter()
        .map(|(game, sfen)| (*game, format!("position sfen {sfen}")))
        .chain(
            sugoroku_cases
                .iter()
                .map(|sfen| ("sugoroku", format!("position sfen {sfen}"))),
        )
        .chain(
            sugoroku_entries
                .iter()
                .map(|entry| ("sugoroku", format!("position startpos moves {entry}"))),
        );
    for (game, line) in lines {
        let mut engine = engine_at(game, "position startpos");
        let start = engine.sfen();
        let error = assert_one_error(&engine.ask(&line), game);
        assert!(
            error.len() < 300,
            "{game}: the error line echoes too much: {}...",
            &error[..400.min(error.len())]
        );
        assert_eq!(engine.sfen(), start, "{game}");
        engine.quit_cleanly();
    }
}

#[test]
fn a_refused_hash_size_does_not_come_back_with_another_game() {
    let mut engine = Engine::start();
    engine.ask("setoption name Hash value 8");
    engine.send("setoption name USI_Hash value 32768");
    let error = assert_one_error(&engine.sync(), "the impossible size");
    assert!(error.contains("keeping 8 MiB"), "{error}");
    for game in ["annan", "yonin", "hasami"] {
        assert_eq!(
            engine.ask(&format!("setoption name USI_Variant value {game}")),
            [format!("info string variant {game}")],
            "no error again"
        );
        assert_eq!(engine.sync(), Vec::<String>::new(), "{game}");
    }
    // The size kept is the one that carried over.
    engine.send("setoption name USI_Hash value 32768");
    let error = assert_one_error(&engine.sync(), "the impossible size again");
    assert!(error.contains("keeping 8 MiB"), "{error}");
    engine.quit_cleanly();
}

#[test]
fn a_game_drawn_by_repetition_or_the_move_limit_has_no_move_to_play() {
    let cycle = "9i9h 9a9b 9h9i 9b9a";
    for (game, limit, position) in [
        (
            "hasami",
            0,
            format!("position startpos moves {cycle} {cycle} {cycle}"),
        ),
        ("hasami", 2, "position startpos moves 9i9h 9a9b".to_string()),
        ("annan", 2, "position startpos moves 7g7f 3c3d".to_string()),
        (
            "yonin",
            3,
            "position startpos moves 5g5f 7e6e 5c5d".to_string(),
        ),
    ] {
        let mut engine = engine_at(game, "position startpos");
        engine.ask(&format!("setoption name MoveLimit value {limit}"));
        assert_eq!(engine.ask(&position), Vec::<String>::new(), "{game}");
        let status = engine.status();
        assert!(status.starts_with("over "), "{game}: {status}");
        assert_eq!(
            engine.legal_moves(),
            Vec::<String>::new(),
            "{game}: {status}"
        );
        assert_eq!(
            engine.go("go depth 2", PROMPT),
            ["bestmove resign"],
            "{game}: {status}"
        );
        engine.quit_cleanly();
    }
}

#[test]
fn info_shows_only_the_lines_multipv_asks_for() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let legal = engine.legal_moves();
        for (options, shown) in [
            (["Variety value 100", "MultiPV value 1"], 1),
            (["Level value 0", "Variety value 0"], 1),
            (["Level value 3", "MultiPV value 2"], 2),
        ] {
            for option in options {
                engine.ask(&format!("setoption name {option}"));
            }
            for seed in 0..4 {
                engine.ask(&format!("setoption name Seed value {seed}"));
                // The node cap keeps Sugoroku's full-strength depth 3 (which
                // a test build on a slow processor takes seconds over) short.
                let lines = engine.go("go depth 3 nodes 50000", PROMPT);
                assert_legal_search(&lines, &legal);
                for line in &lines[..lines.len() - 1] {
                    let multipv = info_field(line, "multipv").unwrap_or(1);
                    assert!(multipv <= shown, "{game} {options:?}: {line}");
                }
            }
        }
        engine.quit_cleanly();
    }
}

/// The memory a session may hold beyond its first: the tables and, per
/// search thread, its stacks (a Yonin worker's are the largest, under 3 MiB).
fn memory_bound_mib(base: u64, threads: u64) -> u64 {
    base + 64 + 3 * threads
}

/// More search threads than the machine runs at once are not started: they
/// only take turns with the main thread, which then looks at its clock late.
/// (The process's threads: the reader, the search's main thread, its helpers.)
#[test]
fn threads_beyond_the_machines_are_not_started() {
    let hardware = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let before = engine.os_threads();
        let legal = engine.legal_moves();
        engine.ask("setoption name Threads value 256");
        assert_legal_search(&engine.go("go nodes 2000", PROMPT), &legal);
        let threads = engine.os_threads();
        assert!(
            threads <= before + hardware,
            "{game}: {threads} threads (from {before}) on a machine that runs {hardware}"
        );
        engine.quit_cleanly();
    }
}

#[test]
fn a_long_session_keeps_its_memory_bounded() {
    for (game, position) in EVERY_GAME {
        let mut engine = engine_at(game, position);
        let base = engine.resident_mib();
        let legal = engine.legal_moves();
        for threads in [1, 2, 64] {
            engine.ask(&format!("setoption name Threads value {threads}"));
            for _ in 0..20 {
                assert_legal_search(&engine.go("go nodes 2000", PROMPT), &legal);
            }
            let resident = engine.resident_mib();
            assert!(
                resident <= memory_bound_mib(base, threads),
                "{game}: {resident} MiB after searches at {threads} threads (from {base} MiB)"
            );
        }
        engine.quit_cleanly();
    }
    // The mate solver's table after a change of threads.
    let mut engine = engine_at("annan", "position sfen 4k4/9/9/9/9/9/9/9/4K4 b RB 1");
    let base = engine.resident_mib();
    for round in 0..12 {
        engine.ask(&format!("setoption name Threads value {}", 1 + round % 3));
        engine.send("go mate 30");
        engine.read_until(PROMPT, |l| l.starts_with("checkmate"));
        engine.go("go nodes 2000", PROMPT);
    }
    let resident = engine.resident_mib();
    assert!(
        resident <= memory_bound_mib(base, 3),
        "annan: {resident} MiB after mate searches (from {base} MiB)"
    );
    engine.quit_cleanly();
}
