//! `go mate` for Annan through the real binary: the df-pn solver's answers,
//! and its mating lines replayed by the engine's own rules.

mod common;

use common::{Engine, PROMPT};

fn annan_at(sfen: &str) -> Engine {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask("setoption name USI_Variant value annan"),
        ["info string variant annan"]
    );
    assert_eq!(
        engine.ask(&format!("position sfen {sfen}")),
        Vec::<String>::new()
    );
    engine
}

/// `go mate …` and its one answer.
fn mate(engine: &mut Engine, go: &str) -> String {
    engine.send(go);
    let lines = engine.read_until(PROMPT, |l| l.starts_with("checkmate"));
    assert_eq!(lines.len(), 1, "{go}: {lines:?}");
    lines[0].clone()
}

#[test]
fn mating_lines_replay_to_checkmate() {
    for (sfen, plies) in [
        ("8k/9/7S1/9/9/9/9/9/K8 b G 1", 1),
        // The lance dropped on 1c lends its movement to the bishop on 1b.
        ("7lk/7pB/9/9/9/9/9/9/4K4 b L 1", 1),
        ("9/2Sk5/1N7/5s3/9/9/9/9/K8 b GG 1", 3),
        ("Sk1r5/2P6/3B5/4N4/9/9/9/9/K8 b R 1", 5),
        ("1L+p6/2kp5/4l4/9/4+R4/9/9/9/K8 b GS 1", 7),
        ("2+pg5/1G2k2+P1/9/6l2/2N2+R3/9/9/9/K8 b 2P 1", 9),
    ] {
        let mut engine = annan_at(sfen);
        let answer = mate(&mut engine, "go mate 20000");
        let line = answer.strip_prefix("checkmate ").expect("a checkmate line");
        let moves: Vec<&str> = line.split(' ').collect();
        assert_eq!(moves.len(), plies, "{sfen}: {answer}");
        // Every move is legal (the engine refuses the whole line otherwise).
        assert_eq!(
            engine.ask(&format!("position sfen {sfen} moves {line}")),
            Vec::<String>::new(),
            "{sfen}: {line}"
        );
        let status = engine.status();
        assert!(
            status.starts_with("over winner b points") && status.contains("reason checkmate"),
            "{sfen} {line}: {status}"
        );
        engine.quit_cleanly();
    }
}

#[test]
fn no_mate_and_the_drop_pawn_mate() {
    // P*1c would mate, which rule 7 forbids; nothing else mates.
    let mut engine = annan_at("7lk/7pB/9/9/9/9/9/9/4K4 b P 1");
    assert_eq!(mate(&mut engine, "go mate 5000"), "checkmate nomate");
    assert_eq!(mate(&mut engine, "go mate nodes 5000"), "checkmate nomate");
    engine.quit_cleanly();
    // The rook checks for ever, which is no mate.
    let mut engine = annan_at("4k4/9/9/9/9/9/9/9/R3K4 b - 1");
    assert_eq!(mate(&mut engine, "go mate infinite"), "checkmate nomate");
    engine.quit_cleanly();
}

#[test]
fn a_move_limit_is_respected() {
    // Mate in 3 from ply 20; a limit of 22 plies leaves only 2.
    let mut engine = annan_at("9/2Sk5/1N7/5s3/9/9/9/9/K8 b GG 21");
    assert_eq!(
        engine.ask("setoption name MoveLimit value 22"),
        Vec::<String>::new()
    );
    assert_eq!(mate(&mut engine, "go mate 5000"), "checkmate nomate");
    assert_eq!(
        engine.ask("setoption name MoveLimit value 23"),
        Vec::<String>::new()
    );
    assert!(mate(&mut engine, "go mate 5000").split(' ').count() == 4);
    engine.quit_cleanly();
}

#[test]
fn in_play_the_mate_probe_plays_a_mate_the_search_is_too_shallow_to_see() {
    let sfen = "2+pg5/1G2k2+P1/9/6l2/2N2+R3/9/9/9/K8 b 2P 1";
    let mut engine = annan_at(sfen);
    let line = mate(&mut engine, "go mate 10000");
    let first = line.split_whitespace().nth(1).unwrap().to_string();
    engine.send("setoption name Tune_MateProbeNodes value 200000");
    engine.send("go depth 1");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bestmove"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(info.contains(" score mate 9 "), "{info}");
    assert!(info.contains(&format!(" pv {first}")), "{info}");
    assert_eq!(lines.last().unwrap(), &format!("bestmove {first}"));
    // Off, a one-ply search reports no mate.
    engine.send("setoption name Tune_MateProbeNodes value 0");
    engine.send("go depth 1");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains("score mate")), "{lines:?}");
    engine.quit_cleanly();
}

/// Issue 41's game: after `5h6i` the search's choice `S*3i` lets White mate
/// by checks in 9 plies.
const THREATENED: &str =
    "position startpos moves 4i5h 5a6b 3i3h 7a7b 2g2c+ 8c8g+ 2c2b 8g8h 2b3a 8h7i 3a4a 7i6i 5h6i";

/// The move `go` plays from `THREATENED`, and every line said.
fn play(engine: &mut Engine, go: &str) -> (String, Vec<String>) {
    assert_eq!(engine.ask(THREATENED), Vec::<String>::new());
    engine.send(go);
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bestmove"));
    let played = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    (played, lines)
}

/// `go mate` for the opponent after `played`: a mating line, or `None`.
fn mate_after(engine: &mut Engine, played: &str) -> Option<String> {
    assert_eq!(
        engine.ask(&format!("{THREATENED} {played}")),
        Vec::<String>::new()
    );
    let answer = mate(engine, "go mate nodes 1000000");
    (!["checkmate nomate", "checkmate timeout"].contains(&answer.as_str())).then_some(answer)
}

#[test]
fn in_play_the_threat_guard_avoids_a_mate_the_solver_sees() {
    // Timed, what the guard finds depends on the machine's load (and a
    // stand-in may answer for a search held up): `cargo bench --bench mate
    // -- threats 100ms` measures it instead.
    for go in ["go nodes 20000", "go depth 4"] {
        threat_guard_avoids_the_mate(go);
    }
}

fn threat_guard_avoids_the_mate(go: &str) {
    let mut engine = Engine::start();
    engine.ask("setoption name USI_Variant value annan");
    // Without the guard the search walks into the mate.
    engine.send("setoption name Tune_MateThreatNodes value 0");
    let (unguarded, lines) = play(&mut engine, go);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let refutation = mate_after(&mut engine, &unguarded).expect("the search's move is mated");
    // With it (the default), another move, after which no mate is found.
    engine.send("setoption name Tune_MateThreatNodes value 20000");
    let (guarded, lines) = play(&mut engine, go);
    assert_ne!(guarded, unguarded);
    let notes = threat_notes(&lines);
    let said = notes
        .iter()
        .find(|(lost, _, _)| *lost == unguarded)
        .unwrap_or_else(|| panic!("{lines:?}"));
    // The mate it names is the solver's, or a longer one (the guard asks
    // for any).
    let shortest = refutation.split(' ').count() - 1;
    assert!(
        said.1 >= shortest && said.1 % 2 == 1,
        "{said:?} / {refutation}"
    );
    let last = notes.last().unwrap();
    assert!(
        last.2.ends_with(&format!("; playing {guarded}")),
        "{last:?}"
    );
    // The move played is the last info line's.
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last_info.ends_with(&format!(" pv {guarded}")),
        "{last_info}"
    );
    assert_eq!(mate_after(&mut engine, &guarded), None, "{guarded}");
    // Limited by nodes or depth, the guard's choice is reproducible.
    assert_eq!(play(&mut engine, go).0, guarded);
    engine.quit_cleanly();
}

/// The guard's notes: (the move it names as lost, the plies of the mate
/// after it, what follows the line).
fn threat_notes(lines: &[String]) -> Vec<(String, usize, String)> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string mate threat: "))
        .map(|note| {
            let (lost, rest) = note.split_once(" loses to mate in ").expect(note);
            let (plies, rest) = rest.split_once(' ').expect(note);
            let after = &rest[rest.find(')').expect(note) + 1..];
            (
                lost.to_string(),
                plies.parse().expect(note),
                after.to_string(),
            )
        })
        .collect()
}

#[test]
fn moves_proven_lost_during_the_search_are_searched_no_more() {
    for go in ["go nodes 20000", "go depth 4"] {
        let mut engine = Engine::start();
        engine.ask("setoption name USI_Variant value annan");
        let (played, lines) = play(&mut engine, go);
        let notes = threat_notes(&lines);
        let dropped: Vec<&String> = notes
            .iter()
            .filter(|(_, _, after)| after == "; searching the others")
            .map(|(lost, _, _)| lost)
            .collect();
        // The search met several lost first moves, each dropped once.
        assert!(dropped.len() >= 2, "{lines:?}");
        let mut unique = dropped.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), dropped.len(), "{lines:?}");
        assert!(!dropped.contains(&&played), "{lines:?}");
        for lost in [dropped[0], dropped[dropped.len() - 1]] {
            assert!(mate_after(&mut engine, lost).is_some(), "{lost}");
        }
        assert_eq!(mate_after(&mut engine, &played), None, "{played}");
        // Checked only after the search (Tune_MateThreatCheckDepth 0), a
        // move proven lost is replaced without searching again.
        engine.send("setoption name Tune_MateThreatCheckDepth value 0");
        let (_, lines) = play(&mut engine, go);
        let notes = threat_notes(&lines);
        assert_eq!(notes.len(), 1, "{lines:?}");
        assert!(notes[0].2.contains("; playing "), "{lines:?}");
        engine.quit_cleanly();
    }
}

#[test]
fn a_two_ply_search_sees_a_mate_in_three_ending_at_its_horizon() {
    let mut engine = annan_at("9/2Sk5/1N7/5s3/9/9/9/9/K8 b GG 1");
    // Not the probe's mate: the search's own.
    engine.send("setoption name Tune_MateProbeNodes value 0");
    engine.send("go depth 2");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 2 "))
        .unwrap();
    // The third ply, a drop, is no tactical move: only the horizon's mate in
    // one finds it.
    assert!(last.contains(" score mate 3 "), "{lines:?}");
    let first = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(lines.last().unwrap(), &format!("bestmove {first}"));
    engine.quit_cleanly();
}
