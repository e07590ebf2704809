//! Ban-Sugoroku through the real binary: dice given in the moves list, a
//! takeover in the middle of a turn, equity in `info`, and whole games.

mod common;

use common::{assert_legal_search, assert_one_error, bestmove, Engine, PROMPT};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const START: &str = "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1";
/// `b` has played the 5 of a 52 (13/8); the 2 is still to play.
const TWO_LEFT: &str = "2w/0/0/0/0/5b/0/4b/0/0/0/5w/4b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b 2 1";

fn sugoroku() -> Engine {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask("setoption name USI_Variant value sugoroku"),
        ["info string variant sugoroku"]
    );
    engine
}

/// The equity `points` field of an info line, in thousandths.
fn points(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "points")?;
    let text = words[at + 1];
    let (sign, digits) = text.split_at(1);
    let milli = digits.replace('.', "").parse::<i32>().ok()?;
    Some(if sign == "-" { -milli } else { milli })
}

#[test]
fn the_roll_is_the_last_entry_and_the_search_reports_equity() {
    let mut engine = sugoroku();
    assert_eq!(engine.sfen(), START);
    assert!(engine.status().contains("dice -"));
    // No dice yet: nothing to search.
    let error = assert_one_error(&engine.ask("go depth 2"), "go before the roll");
    assert!(error.contains("not rolled"), "{error}");
    engine.ask("position startpos moves 31");
    let legal = engine.legal_moves();
    assert_eq!(legal.len(), 16, "rule 8: 31 gives 16 distinct results");
    let lines = engine.go("go depth 2", PROMPT);
    let best = assert_legal_search(&lines, &legal);
    for line in &lines[..lines.len() - 1] {
        let milli = points(line).unwrap_or_else(|| panic!("no equity: {line}"));
        assert!((-3000..=3000).contains(&milli), "{line}");
        assert!(line.contains(&format!("score cp {milli} ")), "{line}");
    }
    // The turn played, the other side waits for its roll.
    engine.ask(&format!("position startpos moves 31:{best}"));
    let status = engine.status();
    assert!(status.starts_with("ongoing turn w ply 1"), "{status}");
    assert!(status.contains("dice -"), "{status}");
    engine.quit_cleanly();
}

#[test]
fn a_cpu_seat_takes_over_with_one_die_left() {
    let mut engine = sugoroku();
    // A partial turn in the list leaves the 2 to play, as the SFEN says.
    engine.ask("position startpos moves 52:13/8");
    assert_eq!(engine.sfen(), TWO_LEFT);
    let legal = engine.legal_moves();
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|t| !t.contains(',')),
        "one die left: single steps only: {legal:?}"
    );
    let best = assert_legal_search(&engine.go("go depth 2", PROMPT), &legal);
    // The same from the position notation, and the rest of the turn played.
    engine.ask(&format!("position sfen {TWO_LEFT}"));
    assert_eq!(engine.legal_moves(), legal);
    engine.ask(&format!("position sfen {TWO_LEFT} moves 2:{best}"));
    assert!(engine.status().starts_with("ongoing turn w"));
    engine.ask(&format!("position startpos moves 52:13/8 {best}"));
    assert!(engine.status().starts_with("ongoing turn w"));
    engine.quit_cleanly();
}

#[test]
fn bad_sugoroku_input_is_refused_and_the_position_kept() {
    let mut engine = sugoroku();
    engine.ask("position startpos moves 31:8/5,6/5");
    let before = engine.sfen();
    for (line, what) in [
        ("position startpos moves 31:8/5,6/5 77", "77"),
        ("position startpos moves 31:8/5,6/5 52:24/1", "24/1"),
        ("position startpos moves 31:8/5,6/4", "6/4"),
        // The dice of an entry must be the dice still to play.
        ("position startpos moves 31 52:13/8", "52:13/8"),
        ("position sfen 2w/0/0 0/0 0/0 b - 1", "invalid position"),
        // A character of several bytes where the colour letter goes.
        (
            "position sfen 0\u{ff19}/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
            "invalid position",
        ),
        (
            "setoption name SugorokuFinish value never",
            "SugorokuFinish",
        ),
    ] {
        let error = assert_one_error(&engine.ask(line), line);
        assert!(error.contains(what), "{line}: {error}");
        assert_eq!(engine.sfen(), before, "{line}: position kept");
    }
    engine.quit_cleanly();
}

#[test]
fn perft_over_the_rolls_through_the_protocol() {
    let mut engine = sugoroku();
    engine.send("go perft 1");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("perft "));
    assert_eq!(lines.len(), 22, "21 rolls and the summary: {lines:?}");
    assert!(lines.contains(&"55: 3".to_string()), "{lines:?}");
    assert!(
        lines[21].starts_with("perft depth 1 nodes 246 "),
        "{lines:?}"
    );
    engine.quit_cleanly();
}

/// Plays whole games through the protocol, the test rolling the dice: every
/// turn is legal and every game ends with a winner and 1 to 3 points.
#[test]
fn whole_games_end_with_a_winner_and_points() {
    let mut engine = sugoroku();
    for (seed, closeout) in [(1, "multiplier"), (2, "instant")] {
        engine.ask(&format!("setoption name SugorokuCloseout value {closeout}"));
        engine.ask("usinewgame");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut record: Vec<String> = Vec::new();
        let status = loop {
            let (a, b): (u8, u8) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
            let roll = format!("{}{}", a.max(b), a.min(b));
            engine.ask(&format!(
                "position startpos moves {} {roll}",
                record.join(" ")
            ));
            let legal = engine.legal_moves();
            let lines = engine.go("go depth 1", PROMPT);
            assert_legal_search(&lines, &legal);
            record.push(format!("{roll}:{}", bestmove(&lines).0));
            let position = format!("position startpos moves {}", record.join(" "));
            assert_eq!(engine.ask(&position), Vec::<String>::new());
            let status = engine.status();
            if status.starts_with("over") {
                break status;
            }
            assert!(record.len() < 400, "a game ends: {status}");
        };
        assert!(status.starts_with("over winner "), "{status}");
        let words: Vec<&str> = status.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "points").unwrap();
        let points: u8 = words[at + 1].parse().unwrap();
        assert!((1..=3).contains(&points), "{status}");
        assert_eq!(engine.go("go depth 1", PROMPT), ["bestmove resign"]);
    }
    engine.quit_cleanly();
}

/// The `probs` field of an info line: win, win2, win3, lose2, lose3 (permille).
fn probs(line: &str) -> Option<[i32; 5]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "probs")?;
    let values: Vec<i32> = words[at + 1..at + 6]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect();
    values.try_into().ok()
}

#[test]
fn info_reports_the_result_probabilities_with_the_equity() {
    let mut engine = sugoroku();
    engine.ask("position startpos moves 31:8/5,6/5 64:24/18,18/14 52");
    let lines = engine.go("go depth 2", PROMPT);
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let [win, win2, win3, lose2, lose3] = probs(line).unwrap_or_else(|| panic!("{line}"));
        assert!(
            (0..=1000).contains(&win) && win3 <= win2 && win2 <= win,
            "{line}"
        );
        assert!(lose3 <= lose2 && lose2 <= 1000 - win, "{line}");
        assert!(points(line).is_some(), "{line}");
    }
    // Under the bear-off finish no result is worth more than 1.
    engine.ask("setoption name SugorokuFinish value bearoff");
    engine.ask("position startpos moves 31:8/5,6/5 64:24/18,18/14 52");
    let lines = engine.go("go depth 1", PROMPT);
    let [_, win2, win3, lose2, lose3] = probs(&lines[0]).expect("probs");
    assert_eq!([win2, win3, lose2, lose3], [0; 4], "{}", lines[0]);
    engine.quit_cleanly();
}

/// A race the tables hold once `b`'s last two stones reach point 12 or below
/// (every stone past every opposing one), `b` to play 43.
const RACE: &str = "0/0/0/1b/2b/6b/2b/0/0/2b/0/0/2b/0/1w/1w/4w/2w/6w/1w/0/0/0/0 0/0 0/0 b 43 23";

/// The `points` of a search's depth-1 line.
fn depth_one_points(lines: &[String]) -> i32 {
    let line = lines
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    points(line).unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn a_timed_search_does_not_wait_for_the_race_table_and_a_bounded_one_does() {
    let position = format!("position sfen {RACE}");
    // Bounded by depth, the search waits for the table: the exact value.
    let mut engine = sugoroku();
    engine.ask(&position);
    let exact = depth_one_points(&engine.go("go depth 1", PROMPT));
    engine.quit_cleanly();
    // A fresh engine began the table at `isready` (a second or more of work);
    // against the clock its first iteration, milliseconds later, values the
    // race by the network instead of stalling.
    let mut engine = sugoroku();
    engine.ask(&position);
    let lines = engine.go("go movetime 100", PROMPT);
    bestmove(&lines);
    assert_ne!(depth_one_points(&lines), exact, "{lines:?}");
    // Bounded again, the same exact value.
    assert_eq!(depth_one_points(&engine.go("go depth 1", PROMPT)), exact);
    engine.quit_cleanly();
}

#[test]
fn another_weights_file_is_read_and_a_bad_one_refused() {
    let mut engine = sugoroku();
    let embedded = format!("{}/engine/src/sugoroku/net.bin", env!("CARGO_MANIFEST_DIR"));
    engine.ask("position startpos moves 52");
    let before = engine.go("go depth 1", PROMPT);
    assert_eq!(
        engine.ask(&format!("setoption name SugorokuWeights value {embedded}")),
        Vec::<String>::new()
    );
    let same = engine.go("go depth 1", PROMPT);
    assert_eq!(
        bestmove(&before),
        bestmove(&same),
        "the same network, read from its file"
    );
    let dir = std::env::temp_dir().join(format!("yomi-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.bin");
    let bytes = std::fs::read(&embedded).unwrap();
    std::fs::write(&short, &bytes[..bytes.len() / 2]).unwrap();
    for (path, says) in [
        (short.display().to_string(), "cut short"),
        (
            dir.join("missing.bin").display().to_string(),
            "cannot read the file",
        ),
        (embedded.replace("net.bin", "net.rs"), "wrong magic"),
    ] {
        let error = assert_one_error(
            &engine.ask(&format!("setoption name SugorokuWeights value {path}")),
            &path,
        );
        assert!(
            error.contains("SugorokuWeights") && error.contains(says),
            "{error}"
        );
    }
    assert_eq!(
        engine.ask("setoption name SugorokuWeights value <empty>"),
        Vec::<String>::new()
    );
    assert_eq!(
        engine.ask("setoption name SugorokuEval value handmade"),
        Vec::<String>::new()
    );
    let handmade = engine.go("go depth 1", PROMPT);
    assert!(handmade.iter().any(|l| l.starts_with("bestmove ")));
    let _ = std::fs::remove_dir_all(&dir);
    engine.quit_cleanly();
}

#[test]
fn a_finish_that_would_change_the_position_set_is_refused_and_both_kept() {
    let mut engine = sugoroku();
    engine.ask("setoption name SugorokuFinish value bearoff");
    // b's last stone comes home with the 3 of a 31; the 1 is still to play.
    let position = "position sfen 5b/5b/4b/0/0/0/1b/0/0/0/0/15w/0/0/0/0/0/0/0/0/0/0/0/0 0/0 0/0 b - 5 moves 31:7/4";
    engine.ask(position);
    let (diagram, status) = (engine.ask("d"), engine.status());
    assert!(status.contains("dice 1 "), "{status}");
    // Under all-home the 3 would have won: another side, dice and result.
    let error = assert_one_error(
        &engine.ask("setoption name SugorokuFinish value allhome"),
        "allhome",
    );
    assert!(error.contains("SugorokuFinish"), "{error}");
    assert_eq!(engine.ask("d"), diagram, "the position kept");
    assert_eq!(engine.status(), status);
    // Bear-off stays: the position set again is the same.
    engine.ask(position);
    assert_eq!(engine.status(), status, "the rule kept");
    engine.quit_cleanly();
}
