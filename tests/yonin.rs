//! Yonin Shogi through the real binary: four seats, check priority, takeover
//! of any seat from the position notation, four clocks and the per-seat scores.

mod common;

use common::{assert_legal_search, assert_one_error, Engine, PROMPT};
use std::time::{Duration, Instant};

/// Seat 0 has mated seat 2 and holds its pawns; seat 3 is due.
const AFTER_A_MATE: &str = "8k2/8G0/7S01/9/K17K3/6P0@22/9/9/4K04 2P/-/-/- 3 2:0 0 2";
/// Two seats are out: the game is over.
const OVER: &str = "4k24/9/9/9/K17k3/9/9/9/4K04 -/-/-/- 0 2:0,3:1 10 9";

fn yonin() -> Engine {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask("setoption name USI_Variant value yonin"),
        ["info string variant yonin"]
    );
    engine
}

#[test]
fn a_yonin_session_announces_its_options_and_plays_for_the_seat_due() {
    let mut engine = yonin();
    let usi = engine.ask("usi");
    for option in [
        "YoninPairs",
        "YoninFirstSeat",
        "MaxMovesToDraw",
        "SearchAlgorithm",
    ] {
        assert!(
            usi.iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option}: {usi:?}"
        );
    }
    assert_eq!(engine.legal_moves().len(), 9);
    engine.ask("position startpos moves 5g5f 7e6e 5c5d");
    let status = engine.status();
    assert!(
        status.starts_with("ongoing turn 3 ply 3 check - out -"),
        "{status}"
    );
    let legal = engine.legal_moves();
    assert!(legal.iter().all(|m| m.len() >= 4), "{legal:?}");
    let lines = engine.go("go depth 3", PROMPT);
    assert_legal_search(&lines, &legal);
    assert!(lines.iter().any(|l| l.contains(" score cp ")), "{lines:?}");
    engine.quit_cleanly();
}

#[test]
fn four_clocks_are_read_and_the_seat_due_keeps_its_own_time() {
    let mut engine = yonin();
    engine.ask("position startpos moves 5g5f");
    let legal = engine.legal_moves();
    // Seat 1 is due and has 400 ms; the others have ten minutes, which would
    // plan some twenty seconds for the move.
    let started = Instant::now();
    let lines = engine.go(
        "go time0 600000 time1 400 time2 600000 time3 600000 inc1 0",
        Duration::from_secs(10),
    );
    assert!(started.elapsed() < Duration::from_secs(4), "{lines:?}");
    assert_legal_search(&lines, &legal);
    // The site's per-turn limit.
    let lines = engine.go("go byoyomi 500", Duration::from_secs(5));
    assert_legal_search(&lines, &legal);
    engine.quit_cleanly();
}

#[test]
fn max_n_reports_the_score_of_every_seat() {
    let mut engine = yonin();
    engine.ask("setoption name SearchAlgorithm value maxn");
    engine.ask("position startpos moves 5g5f");
    let lines = engine.go("go depth 2", PROMPT);
    let scores: Vec<&String> = lines.iter().filter(|l| l.contains(" scores ")).collect();
    assert!(!scores.is_empty(), "{lines:?}");
    for line in scores {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "scores").unwrap();
        let vector: Vec<i32> = words[at + 1..at + 5]
            .iter()
            .map(|w| w.parse().expect("four numbers"))
            .collect();
        let cp: i32 = words[words.iter().position(|w| *w == "cp").unwrap() + 1]
            .parse()
            .unwrap();
        assert_eq!(vector[1], cp, "score is seat 1's own value: {line}");
    }
    for algorithm in ["paranoid", "brs", "brsplus"] {
        engine.ask(&format!("setoption name SearchAlgorithm value {algorithm}"));
        let legal = engine.legal_moves();
        assert_legal_search(&engine.go("go depth 2", PROMPT), &legal);
    }
    let error = assert_one_error(
        &engine.ask("setoption name SearchAlgorithm value minimax"),
        "unknown algorithm",
    );
    assert!(error.contains("expected one of paranoid"), "{error}");
    engine.quit_cleanly();
}

#[test]
fn a_cpu_seat_takes_over_after_an_elimination() {
    let mut engine = yonin();
    engine.ask(&format!("position sfen {AFTER_A_MATE}"));
    assert_eq!(engine.sfen(), AFTER_A_MATE);
    let status = engine.status();
    assert!(
        status.starts_with("ongoing turn 3 ply 1 check - out 2:0 mates 1,0,0,0"),
        "{status}"
    );
    let legal = engine.legal_moves();
    assert!(!legal.is_empty());
    let lines = engine.go("go depth 3", PROMPT);
    assert_legal_search(&lines, &legal);
    // The game over: places, and no move to offer.
    engine.ask(&format!("position sfen {OVER}"));
    let status = engine.status();
    assert!(
        status.starts_with("over places 2,1,4,3 reason second-checkmate"),
        "the later last mate ranks higher: {status}"
    );
    assert_eq!(engine.legal_moves(), Vec::<String>::new());
    assert_eq!(engine.go("go depth 2", PROMPT), ["bestmove resign"]);
    engine.quit_cleanly();
}

#[test]
fn bad_yonin_input_is_refused_and_the_position_kept() {
    let mut engine = yonin();
    engine.ask("position startpos moves 5g5f");
    let before = engine.sfen();
    for (line, what) in [
        // Seat 1 is due, not seat 0.
        ("position startpos moves 5g5f 5f5e", "5f5e"),
        ("position startpos moves 5g5f 7e6e 5c5d 3e4e 9x9y", "9x9y"),
        ("position startpos moves 5g5f G*5e", "G*5e"),
        ("position sfen 9/9/9 -/-/-/- 0 - - 1", "invalid position"),
        (
            "position sfen 2S2G2K2G2S22/3P2R2P23/S13P23S3/G1P15P3G3/K1R1P13P3R3K3/G1P15P3G3/S13P03S3/3P0R0P03/2S0G0K0G0S02 -/-/-/- 7 - - 1",
            "invalid position",
        ),
        ("go time4 100", "time4"),
        ("setoption name YoninFirstSeat value 4", "YoninFirstSeat"),
    ] {
        let error = assert_one_error(&engine.ask(line), line);
        assert!(error.contains(what), "{line}: {error}");
        assert_eq!(engine.sfen(), before, "{line}: position kept");
    }
    engine.quit_cleanly();
}

#[test]
fn the_move_limit_ends_the_game_with_places_judged() {
    let mut engine = yonin();
    // shogiarena's name for the limit sets Yonin's MoveLimit.
    engine.ask("setoption name MaxMovesToDraw value 2");
    engine.ask("position startpos moves 5g5f");
    assert!(engine.status().starts_with("ongoing"));
    engine.ask("position startpos moves 5g5f 7e6e");
    let status = engine.status();
    assert!(
        status.starts_with("over places 1,1,1,1 reason move-limit ply 2"),
        "nobody mated and equal totals: all share first: {status}"
    );
    engine.quit_cleanly();
}

#[test]
fn perft_from_the_start_through_the_protocol() {
    let mut engine = yonin();
    engine.send("go perft 3");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("perft "));
    assert_eq!(lines.len(), 10, "nine moves and the summary: {lines:?}");
    assert!(
        lines[9].starts_with("perft depth 3 nodes 729 "),
        "{lines:?}"
    );
    engine.quit_cleanly();
}

#[test]
fn pairs_are_refused_on_a_position_they_do_not_allow_and_both_kept() {
    let mut engine = yonin();
    engine.ask(&format!("position sfen {OVER}"));
    let (diagram, status) = (engine.ask("d"), engine.status());
    let error = assert_one_error(&engine.ask("setoption name YoninPairs value true"), "pairs");
    assert!(error.contains("YoninPairs"), "{error}");
    assert_eq!(engine.ask("d"), diagram, "the position kept");
    assert_eq!(engine.status(), status);
    // Pairs stay off: the first mate does not end the game.
    engine.ask(&format!("position sfen {AFTER_A_MATE}"));
    assert!(
        engine.status().starts_with("ongoing"),
        "{}",
        engine.status()
    );
    // On a position they allow, they apply at once.
    assert_eq!(
        engine.ask("setoption name YoninPairs value true"),
        Vec::<String>::new()
    );
    assert!(
        engine.status().contains("reason pairs-checkmate"),
        "{}",
        engine.status()
    );
    engine.quit_cleanly();
}

#[test]
fn the_bench_under_max_n_is_bounded() {
    let mut engine = yonin();
    engine.ask("setoption name SearchAlgorithm value maxn");
    engine.send("bench");
    // Unbounded, max-n takes minutes to reach the bench depth.
    let lines = engine.read_until(Duration::from_secs(120), |l| l.starts_with("bench total"));
    let words: Vec<&str> = lines[0].split_whitespace().collect();
    let field = |name: &str| -> u64 {
        let at = words.iter().position(|w| *w == name).unwrap();
        words[at + 1].parse().unwrap()
    };
    let (positions, nodes) = (field("positions"), field("nodes"));
    assert!(
        nodes <= positions * 1_001_024,
        "at most a million nodes a position (and the last check's slack): {lines:?}"
    );
    engine.quit_cleanly();
}

/// Quiescence at its announced deepest, with every line asked for, still
/// completes a depth-3 search of a middlegame (found by the fuzzer: at 16
/// plies no iteration ended in 150 s).
#[test]
fn quiescence_at_its_deepest_still_reaches_depth_three() {
    let mut engine = yonin();
    engine.send("setoption name ShowTunables value true");
    let options = engine.ask("usi");
    let deepest = options
        .iter()
        .find_map(|l| l.strip_prefix("option name Tune_QsMaxPlies type spin "))
        .and_then(|rest| rest.split_whitespace().skip_while(|w| *w != "max").nth(1))
        .expect("Tune_QsMaxPlies is announced")
        .to_string();
    assert!(engine
        .ask(&format!("setoption name Tune_QsMaxPlies value {deepest}"))
        .is_empty());
    assert!(engine.ask("setoption name MultiPV value 64").is_empty());
    assert!(engine.ask("position startpos moves 3i2h 9c8c 4a3b 1c2c 5g5f 7e6e 3b4c 1f2g 2h2g 9d9c 3a2b 2c3d G*8b 8c9d 2b3c 3d4c 5f5e 9g8h 7a7b G*6c 7i8h 9f9g 3c3d 2f3f S*7d 9c9b 4b4c 6c7d 8h9i 9g9f S*3i S*4g 9i9h 9b8a 3i4h+ 5h4h 8a8b P*1a 4g3h 5i5h G*9i 7b8c 7d8c S*3b 9i8h 6a7a S*3i 3b4a 8h7h 3d3e 1d2c 2g3h 8b9b P*9a 2c3d 4h4g 9f9g").is_empty());
    let lines = engine.go("go depth 3", Duration::from_secs(60));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "max {deepest}: {:?}",
        lines.last()
    );
}
