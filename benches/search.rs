//! Search figures on each game's fixed bench positions, with the searcher the
//! game plays with (alpha-beta, the default multi-player search, Star2
//! expectimax): nodes per second with one thread, and time to a fixed depth with
//! one and two threads. Prints only; never asserts.
//! `cargo bench --bench search [-- [GAME] [EXTRA-DEPTH [REPEATS]]]` (defaults: every
//! game; its bench depth for speed, one more ply for time-to-depth; 3 repeats of
//! each time-to-depth run, the median reported).
//!
//! The wall-clock speed-up needs two idle cores; on a busy machine the line also
//! prints the speed-up the node counts imply (2 × nodes with 1 thread / nodes with
//! 2 threads), which assumes each thread searches as fast as a lone one and that
//! no thread idles, and (on Linux) the one the main search thread's CPU time
//! implies (its CPU time with 1 thread / with 2), which holds as long as the
//! threads get equal shares of the machine: the helper's share of the process's
//! CPU time is printed to check that (50% with two threads when they are equal).

use std::time::{Duration, Instant};
use yomi_engine::registry::{self, for_each_game, GameEntry, GameVisitor};
use yomi_engine::search::{Limits, SearchConfig, SearchControl, Searcher};
use yomi_engine::session::Playable;

fn positions<G: Playable>() -> Vec<G> {
    G::PROFILE
        .bench
        .iter()
        .map(|sfen| G::from_sfen(sfen, &Default::default()).expect("bench positions are valid"))
        .collect()
}

/// CPU time the calling thread has used (Linux: /proc, in clock ticks of 10 ms);
/// zero where unknown.
fn thread_cpu() -> Duration {
    cpu_of("/proc/thread-self/stat")
}

/// CPU time every thread of the process has used, as [`thread_cpu`].
fn process_cpu() -> Duration {
    cpu_of("/proc/self/stat")
}

fn cpu_of(stat_file: &str) -> Duration {
    let Ok(stat) = std::fs::read_to_string(stat_file) else {
        return Duration::ZERO;
    };
    // Fields after the command name (which ends with ')'): utime and stime are
    // the 12th and 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks: u64 = fields
        .get(11..13)
        .map_or(0, |f| f.iter().filter_map(|t| t.parse::<u64>().ok()).sum());
    Duration::from_millis(ticks * 10)
}

/// One search from fresh tables.
struct Run {
    nodes: u64,
    elapsed: Duration,
    /// CPU time of the calling thread, which runs the main search.
    main_cpu: Duration,
    /// CPU time of every thread.
    all_cpu: Duration,
}

fn run<G: Playable>(pos: &G, threads: usize, depth: u32) -> Run {
    let config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let mut searcher = <G::Searcher as Searcher<G>>::new(&config);
    // The table is allocated before the clock starts.
    Searcher::<G>::prepare(&mut searcher).expect("the bench hash table");
    let control = SearchControl::new(false);
    let started = Instant::now();
    let (main_cpu, all_cpu) = (thread_cpu(), process_cpu());
    let result = Searcher::<G>::search(
        &mut searcher,
        pos,
        &Limits::depth(depth),
        &control,
        &mut |_| {},
    );
    Run {
        nodes: result.nodes,
        elapsed: started.elapsed(),
        main_cpu: thread_cpu().saturating_sub(main_cpu),
        all_cpu: process_cpu().saturating_sub(all_cpu),
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Benches the games named on the command line (every game when none is).
struct SearchBench {
    wanted: Vec<String>,
    extra: u32,
    repeats: usize,
}

impl GameVisitor for SearchBench {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        if self.wanted.is_empty() || self.wanted.iter().any(|w| w == entry.name()) {
            bench::<G>(self.extra, self.repeats);
        }
    }
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = words.iter().filter_map(|a| a.parse().ok()).collect();
    for_each_game(&mut SearchBench {
        wanted: words
            .iter()
            .filter(|w| registry::find(w).is_ok())
            .cloned()
            .collect(),
        extra: numbers.first().copied().unwrap_or(1),
        repeats: numbers.get(1).copied().unwrap_or(3).max(1) as usize,
    });
}

fn bench<G: Playable>(extra: u32, repeats: usize) {
    let speed_depth = G::PROFILE.bench_depth;
    let ttd_depth = speed_depth + extra;
    let positions = positions::<G>();

    println!(
        "== {}: single-thread speed, depth {speed_depth} ==",
        G::PROFILE.name
    );
    let (mut nodes, mut time) = (0, Duration::ZERO);
    for (i, pos) in positions.iter().enumerate() {
        let Run {
            nodes: n,
            elapsed: t,
            ..
        } = run(pos, 1, speed_depth);
        println!(
            "position {i}: {n:>10} nodes {:>8.1} ms {:>6.2} Mnps",
            ms(t),
            n as f64 / t.as_secs_f64() / 1e6
        );
        nodes += n;
        time += t;
    }
    println!(
        "total     : {nodes:>10} nodes {:>8.1} ms {:>6.2} Mnps",
        ms(time),
        nodes as f64 / time.as_secs_f64() / 1e6
    );

    println!(
        "== {}: time to depth {ttd_depth} (median of {repeats}), 1 vs 2 threads ==",
        G::PROFILE.name
    );
    let (mut total1, mut total2) = (Duration::ZERO, Duration::ZERO);
    let (mut cpu1, mut cpu2) = (Duration::ZERO, Duration::ZERO);
    for (i, pos) in positions.iter().enumerate() {
        let mut figures = Vec::new();
        for threads in [1, 2] {
            let runs: Vec<Run> = (0..repeats).map(|_| run(pos, threads, ttd_depth)).collect();
            let t = median(runs.iter().map(|r| r.elapsed).collect());
            let n = runs.iter().map(|r| r.nodes).sum::<u64>() / repeats as u64;
            let cpu = median(runs.iter().map(|r| r.main_cpu).collect());
            let all = median(runs.iter().map(|r| r.all_cpu).collect());
            figures.push((t, n, cpu, all));
        }
        let ((t1, n1, c1, _), (t2, n2, c2, a2)) = (figures[0], figures[1]);
        println!(
            "position {i}: 1 thread {:>8.1} ms ({n1} nodes), 2 threads {:>8.1} ms ({n2} nodes), \
             speed-up {:.2}x (from nodes, if each thread had a core: {:.2}x; \
             from main-thread CPU {:.0} / {:.0} ms: {:.2}x; helper CPU share {:.0}%)",
            ms(t1),
            ms(t2),
            t1.as_secs_f64() / t2.as_secs_f64(),
            2.0 * n1 as f64 / n2 as f64,
            ms(c1),
            ms(c2),
            c1.as_secs_f64() / c2.as_secs_f64().max(1e-3),
            100.0 * a2.saturating_sub(c2).as_secs_f64() / a2.as_secs_f64().max(1e-3)
        );
        total1 += t1;
        total2 += t2;
        cpu1 += c1;
        cpu2 += c2;
    }
    println!(
        "total     : 1 thread {:>8.1} ms, 2 threads {:>8.1} ms, speed-up {:.2}x; \
         main-thread CPU {:.0} / {:.0} ms: {:.2}x",
        ms(total1),
        ms(total2),
        total1.as_secs_f64() / total2.as_secs_f64(),
        ms(cpu1),
        ms(cpu2),
        cpu1.as_secs_f64() / cpu2.as_secs_f64().max(1e-3)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
