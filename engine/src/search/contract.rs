//! The driver's contract, one suite run against every searcher (each
//! searcher's tests call [`check`] with positions of their toy or real game):
//! `stop` from another thread ends a search at once, a search stopped before
//! it starts still answers a legal move, `go infinite` and pondering answer
//! only after `stop` / `ponderhit`, the node and time limits hold, and every
//! iteration is reported.

use super::budget::CHECK_EVERY;
use super::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The positions a searcher is checked on.
pub struct Case<G> {
    /// The searcher's settings (its algorithm, a small hash); the thread
    /// count is the suite's.
    pub config: SearchConfig,
    /// A position deep enough never to be solved within the suite's times.
    pub long: G,
    /// A position solved at once (a mate, a game about to end): searched
    /// with `go infinite` to one ply, it must still wait for `stop`.
    pub solved: G,
    /// A position with no move to search.
    pub no_move: G,
    /// Iterations asked of `long` for the reports.
    pub depth: u32,
    /// Whether every thread keeps the node limit (threads splitting the
    /// root), not the main thread alone (Lazy SMP helpers follow its stop).
    pub every_thread_counts: bool,
}

/// What the suite saw, for the searcher's own further checks.
pub struct Seen<M> {
    /// The answer of `go infinite` on [`Case::solved`], after `stop`.
    pub solved: SearchResult<M>,
    /// The reports of a search of [`Case::long`] to [`Case::depth`], and its answer.
    pub reports: Vec<SearchInfo<M>>,
    pub answer: SearchResult<M>,
    /// The table's use after that search (permille).
    pub hashfull: u32,
}

fn config<G>(case: &Case<G>, threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        ..case.config.clone()
    }
}

fn legal<G: Game>(pos: &G, mv: Option<G::Move>) -> bool {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    mv.is_some_and(|mv| moves.contains(&mv))
}

/// Searches `pos` with `limits` while `signal` runs on another thread after
/// `after`; returns the answer and whether it came after the signal.
fn with_signal<G: Game, S: Searcher<G>>(
    config: &SearchConfig,
    pos: &G,
    limits: &Limits<G::Move>,
    control: SearchControl,
    after: Duration,
    signal: fn(&SearchControl),
) -> (SearchResult<G::Move>, bool) {
    let control = Arc::new(control);
    let signalled = Arc::new(AtomicBool::new(false));
    let signaller = {
        let (control, signalled) = (Arc::clone(&control), Arc::clone(&signalled));
        std::thread::spawn(move || {
            std::thread::sleep(after);
            signalled.store(true, Ordering::SeqCst);
            signal(&control);
            crate::clock::Instant::now()
        })
    };
    let mut searcher = S::new(config);
    let result = searcher.search(pos, limits, &control, &mut |_| {});
    let answered = crate::clock::Instant::now();
    let after_signal = signalled.load(Ordering::SeqCst);
    let signalled_at = signaller.join().expect("the signal thread ends");
    // Generous: a loaded machine must not fail it, a search that ignores
    // the signal does.
    assert!(
        answered.duration_since(signalled_at) < Duration::from_secs(2),
        "answered long after the signal"
    );
    (result, after_signal)
}

/// Every check of the contract on `case`, with one thread and with two.
pub fn check<G: Game, S: Searcher<G>>(case: &Case<G>) -> Seen<G::Move> {
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut solved = None;
    for threads in [1, 2] {
        let config = config(case, threads);
        // `stop` ends a search that would not end by itself.
        let (result, after) = with_signal::<G, S>(
            &config,
            &case.long,
            &infinite,
            SearchControl::new(false),
            Duration::from_millis(50),
            SearchControl::stop,
        );
        assert!(after, "{threads} threads: answered before stop");
        assert!(legal(&case.long, result.best), "{threads} threads");
        // A search that ends at once still waits for `stop` in `go infinite`.
        let once = Limits {
            depth: Some(1),
            ..infinite.clone()
        };
        let (result, after) = with_signal::<G, S>(
            &config,
            &case.solved,
            &once,
            SearchControl::new(false),
            Duration::from_millis(100),
            SearchControl::stop,
        );
        assert!(after, "{threads} threads: go infinite answered before stop");
        assert!(legal(&case.solved, result.best), "{threads} threads");
        solved = Some(result);
        // A ponder search answers only after `ponderhit`.
        let ponder = Limits {
            movetime: Some(Duration::from_millis(30)),
            ..infinite.clone()
        };
        let (result, after) = with_signal::<G, S>(
            &SearchConfig {
                time_margin_ms: 0,
                ..config.clone()
            },
            &case.long,
            &ponder,
            SearchControl::new(true),
            Duration::from_millis(100),
            |control| control.ponderhit(None),
        );
        assert!(after, "{threads} threads: answered while pondering");
        assert!(legal(&case.long, result.best), "{threads} threads");
        stopped_before_starting::<G, S>(case, &config);
        node_limit::<G, S>(case, &config, threads as u64);
        movetime::<G, S>(case, &config);
    }
    let (reports, answer, hashfull) = reports::<G, S>(case);
    Seen {
        solved: solved.expect("searched"),
        reports,
        answer,
        hashfull,
    }
}

/// A search stopped before it starts still answers a legal move, at depth
/// 0; without a legal move there is nothing to play.
fn stopped_before_starting<G: Game, S: Searcher<G>>(case: &Case<G>, config: &SearchConfig) {
    let control = SearchControl::new(false);
    control.stop();
    let mut searcher = S::new(config);
    let result = searcher.search(&case.long, &Limits::default(), &control, &mut |_| {});
    assert!(legal(&case.long, result.best));
    assert_eq!(result.depth, 0);
    let result = searcher.search(
        &case.no_move,
        &Limits::depth(3),
        &SearchControl::new(false),
        &mut |_| {},
    );
    assert_eq!(result.best, None);
}

/// A node limit is kept to within the counting's granularity per thread
/// that keeps it.
fn node_limit<G: Game, S: Searcher<G>>(case: &Case<G>, config: &SearchConfig, threads: u64) {
    let counting = if case.every_thread_counts { threads } else { 1 };
    for limit in [3_000, 30_000] {
        let mut searcher = S::new(config);
        let result = searcher.search(
            &case.long,
            &Limits::nodes(limit),
            &SearchControl::new(false),
            &mut |_| {},
        );
        assert!(result.nodes >= limit, "{} for {limit}", result.nodes);
        if counting == threads {
            assert!(
                result.nodes < limit + 2 * CHECK_EVERY * threads,
                "{} for {limit}",
                result.nodes
            );
        }
        assert!(legal(&case.long, result.best));
    }
}

/// A move time ends the search by itself, with a move of a completed depth.
fn movetime<G: Game, S: Searcher<G>>(case: &Case<G>, config: &SearchConfig) {
    let config = SearchConfig {
        time_margin_ms: 20,
        ..config.clone()
    };
    let control = SearchControl::new(false);
    let mut searcher = S::new(&config);
    let limits = Limits::movetime(Duration::from_millis(150));
    let result = searcher.search(&case.long, &limits, &control, &mut |_| {});
    // The deadline itself is the time manager's (tested there without a
    // clock); generous: a loaded machine must not fail it, a search that
    // ignores its deadline does.
    assert!(control.started().elapsed() < Duration::from_secs(3));
    assert!(legal(&case.long, result.best) && result.depth >= 1);
}

/// What a search told: its reports, its answer and its table's fill.
type Told<M> = (Vec<SearchInfo<M>>, SearchResult<M>, u32);

/// Every iteration is reported, with a line and the nodes so far.
fn reports<G: Game, S: Searcher<G>>(case: &Case<G>) -> Told<G::Move> {
    let mut searcher = S::new(&config(case, 1));
    let mut reports = Vec::new();
    let result = searcher.search(
        &case.long,
        &Limits::depth(case.depth),
        &SearchControl::new(false),
        &mut |info| reports.push(info.clone()),
    );
    let depths: Vec<u32> = reports.iter().map(|info| info.depth).collect();
    assert_eq!(depths, (1..=case.depth).collect::<Vec<_>>());
    for info in &reports {
        assert!(!info.pv.is_empty() && info.nodes > 0, "{info:?}");
    }
    assert_eq!(result.depth, case.depth);
    (reports, result, searcher.hashfull())
}
