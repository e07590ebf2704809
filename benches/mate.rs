//! Annan tsume: the df-pn solver behind `go mate` on the problems of
//! `benches/mate_problems.txt`, and for comparison the time the normal
//! alpha-beta search takes to report the mate score. Prints figures only;
//! never asserts (the solver's answers are pinned in the tests).
//!
//! The two do not count the same mates: a tsume is checks only, while
//! alpha-beta plays any move, so it may report a shorter mate that begins
//! with a quiet move (or none, if its horizon stops short).
//!
//! `cargo bench --bench mate [-- [BUDGET-MS]]` (default: 10 000 ms per search).
//!
//! `cargo bench --bench mate -- threats [NODES|MSms [GUARD-NODES]] [NAME=VALUE…]` instead
//! plays each position of `benches/mate_threats.txt` (a move there lets the
//! opponent mate, another does not) as in a game at `NODES` a move (default
//! 20 000) or `MS` milliseconds (`100ms`: on a core of its own), with the
//! threat guard off and on (`Tune_MateThreatNodes`, by
//! default its default), the engine options `NAME=VALUE` set, and prints the share of positions where the move played
//! lets the opponent mate (the solver within 200 000 nodes finds it).

use std::time::{Duration, Instant};
use yomi_engine::annan::Annan;
use yomi_engine::core::Notation;
use yomi_engine::registry::new_session;
use yomi_engine::search::tables::Scratch;
use yomi_engine::search::{Limits, Score, SearchConfig, SearchControl, Searcher};
use yomi_engine::session::{MateAnswer, MateGoal, MateParams, Playable};

const PROBLEMS: &str = include_str!("mate_problems.txt");

/// `sfen | plies | note` per line; `#` starts a comment.
fn problems() -> Vec<(Annan, u32, &'static str)> {
    PROBLEMS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let pos = Annan::from_sfen(fields[0], &Default::default()).expect("a valid problem");
            let plies = fields[1].parse().expect("the mate length");
            (pos, plies, fields.get(2).copied().unwrap_or(""))
        })
        .collect()
}

/// df-pn: (mate length or what it answered, nodes, elapsed).
fn dfpn(pos: &Annan, budget: Duration) -> (String, u64, Duration) {
    let control = SearchControl::new(false);
    let started = Instant::now();
    let answer = pos.mate(
        &Limits::movetime(budget),
        &control,
        &Scratch::default(),
        MateGoal::Shortest,
    );
    let elapsed = started.elapsed();
    let found = match answer {
        MateAnswer::Mate(line) => format!("mate {}", line.len()),
        other => format!("{other:?}").to_lowercase(),
    };
    (found, control.nodes(), elapsed)
}

/// Alpha-beta from fresh tables until its first mate score for the side to
/// move: (plies, depth, nodes, elapsed) then, or `None` within `budget`.
fn alphabeta<G: Playable>(pos: &G, budget: Duration) -> Option<(i32, u32, u64, Duration)> {
    let config = SearchConfig {
        time_margin_ms: 0,
        ..SearchConfig::default()
    };
    let mut searcher = <G::Searcher as Searcher<G>>::new(&config);
    Searcher::<G>::prepare(&mut searcher).expect("the bench hash table");
    let control = SearchControl::new(false);
    let started = Instant::now();
    let mut found = None;
    Searcher::<G>::search(
        &mut searcher,
        pos,
        &Limits::movetime(budget),
        &control,
        &mut |info| {
            if let (None, Score::Mate(plies)) = (found, info.score) {
                if plies > 0 {
                    found = Some((plies, info.depth, info.nodes, started.elapsed()));
                    control.stop();
                }
            }
        },
    );
    found
}

const THREATS: &str = include_str!("mate_threats.txt");
/// The solver's nodes for judging a move played.
const VERIFY_NODES: u64 = 200_000;

/// `sfen | losing move | plies | safe move | note` per line.
fn threats() -> Vec<&'static str> {
    THREATS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split('|').next().expect("an sfen").trim())
        .collect()
}

/// The share of the threat positions where the engine, under `limits` with
/// the guard at `guard_nodes` and the `options` given, plays a move the
/// opponent then mates after.
fn threat_blunders(limits: &Limits, guard_nodes: &str, options: &[(&str, &str)]) {
    let mut session = new_session("annan").expect("annan");
    session
        .set_option("Tune_MateThreatNodes", guard_nodes)
        .expect("the guard's option");
    for (name, value) in options {
        session.set_option(name, value).expect("an option");
    }
    let positions = threats();
    let mut lost = Vec::new();
    let started = Instant::now();
    for sfen in &positions {
        session.new_game();
        session
            .set_position(Some(sfen), &[])
            .expect("a valid position");
        let control = SearchControl::new(false);
        let played = session
            .search(limits, &control, &mut |_| {})
            .best
            .expect("a move");
        session
            .set_position(Some(sfen), &[played.as_str()])
            .expect("legal");
        let verdict = session.mate(&Limits::nodes(VERIFY_NODES), &SearchControl::new(false));
        if let MateAnswer::Mate(line) = verdict {
            lost.push(format!("{played} (mate in {})", line.len()));
        }
    }
    println!(
        "guard {guard_nodes:>5} nodes: {} of {} positions lost to a mate ({:.0} %) at {} a move, {:.1} s: {}",
        lost.len(),
        positions.len(),
        100.0 * lost.len() as f64 / positions.len().max(1) as f64,
        match (limits.nodes, limits.movetime) {
            (Some(nodes), _) => format!("{nodes} nodes"),
            (_, Some(time)) => format!("{} ms", time.as_millis()),
            _ => "no limit".into(),
        },
        started.elapsed().as_secs_f64(),
        lost.join(", ")
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|arg| arg == "threats") {
        let (options, rest): (Vec<&String>, Vec<&String>) =
            args[at + 1..].iter().partition(|arg| arg.contains('='));
        let options: Vec<(&str, &str)> = options
            .iter()
            .filter_map(|option| option.split_once('='))
            .collect();
        let limits = match rest.first() {
            Some(ms) if ms.ends_with("ms") => Limits::movetime(Duration::from_millis(
                ms.trim_end_matches("ms").parse().expect("MSms"),
            )),
            Some(nodes) => Limits::nodes(nodes.parse().expect("NODES")),
            None => Limits::nodes(20_000),
        };
        let guard = rest
            .get(1)
            .map_or(MateParams::default().threat_nodes.to_string(), |guard| {
                guard.to_string()
            });
        for guard in ["0", guard.as_str()] {
            threat_blunders(&limits, guard, &options);
        }
        return;
    }
    let budget = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .map_or(Duration::from_secs(10), Duration::from_millis);
    println!("budget {} ms per search", budget.as_millis());
    let (mut total_nodes, mut total_time) = (0, Duration::ZERO);
    for (pos, plies, note) in problems() {
        let (found, nodes, elapsed) = dfpn(&pos, budget);
        total_nodes += nodes;
        total_time += elapsed;
        let secs = elapsed.as_secs_f64().max(1e-9);
        let ab = match alphabeta(&pos, budget) {
            Some((plies, depth, nodes, elapsed)) => format!(
                "mate {plies} at depth {depth}, {nodes} nodes, {:.1} ms",
                elapsed.as_secs_f64() * 1e3
            ),
            None => "no mate score".to_string(),
        };
        println!(
            "{:<60} {plies:>2} plies: df-pn {found:<8} {:>9.1} ms {nodes:>9} nodes {:>6.0} k nodes/s | alpha-beta {ab}  {note}",
            pos.sfen(),
            elapsed.as_secs_f64() * 1e3,
            nodes as f64 / secs / 1e3
        );
    }
    println!(
        "df-pn total: {total_nodes} nodes in {:.1} ms, {:.0} k nodes/s",
        total_time.as_secs_f64() * 1e3,
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9) / 1e3
    );
}
