//! When a search must stop, in one place for every searcher: `stop` (or
//! `gameover`), the node limit and the clock, and the nodes all threads have
//! searched. Threads count nodes locally and settle with the shared total every
//! `every` nodes, so the hot path touches no shared memory.

use super::{Limits, Margin, SearchControl, TimeManager, TimeParams};
use crate::clock::Instant;
use crate::core::Seat;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Nodes between looks at the stop flags, the node limit and the clock (a
/// power of two keeps the count cheap): about a millisecond in every game.
pub const CHECK_EVERY: u64 = 1024;

/// What every thread of one search reads to know whether to go on.
pub struct Budget<'a> {
    pub control: &'a SearchControl,
    pub time: TimeManager,
    node_limit: Option<u64>,
    started: Instant,
    /// Set when out of time or nodes, or when the search is done: every thread unwinds.
    abort: AtomicBool,
    nodes: AtomicU64,
}

impl<'a> Budget<'a> {
    /// The budget of `limits` for `side` (whose clock counts), with the time
    /// margin of [`Margin::for_search`].
    pub fn new<M>(
        limits: &Limits<M>,
        control: &'a SearchControl,
        side: Seat,
        margin_ms: u64,
        params: &TimeParams,
    ) -> Self {
        let margin = Margin::for_search(margin_ms, control);
        let time = TimeManager::new(limits, side, margin, params);
        time.publish(control);
        Budget {
            control,
            time,
            node_limit: limits.nodes,
            started: Instant::now(),
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Every thread stops at its next look.
    pub fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }

    /// Whether the search is stopped or aborted.
    pub fn stopping(&self) -> bool {
        self.control.stopped() || self.abort.load(Ordering::Relaxed)
    }

    /// Whether the soft limit has passed: start no new iteration.
    pub fn soft_expired(&self) -> bool {
        self.time.soft_expired(self.control)
    }

    /// Nodes settled so far by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }
}

/// One thread's nodes, and its looks at the budget.
pub struct NodeCounter {
    nodes: u64,
    settled: u64,
    every: u64,
    /// Whether this thread ends the search when the node limit or the hard
    /// deadline is reached (otherwise it only follows the stop flags).
    enforces_limits: bool,
    /// An enforcing thread's last look at the clock: the gaps between looks
    /// measure how long the machine keeps the search from running.
    last_look: Instant,
}

impl NodeCounter {
    /// Looks at the budget every [`CHECK_EVERY`] nodes, or more often under a
    /// small node limit, so that one thread overshoots it by an eighth at most.
    pub fn new(budget: &Budget, enforces_limits: bool) -> Self {
        let every = budget.node_limit.map_or(CHECK_EVERY, |limit| {
            (limit / 16).max(1).next_power_of_two().min(CHECK_EVERY)
        });
        NodeCounter {
            nodes: 0,
            settled: 0,
            every,
            enforces_limits,
            last_look: Instant::now(),
        }
    }

    /// Counts a node; `true` when the search must stop.
    #[inline]
    // `is_multiple_of` is newer than the compiler of the WebAssembly build (docs/web.md).
    #[allow(clippy::manual_is_multiple_of)]
    pub fn count(&mut self, budget: &Budget) -> bool {
        self.nodes += 1;
        self.nodes % self.every == 0 && self.look(budget)
    }

    /// Adds the nodes not yet settled to the shared total; returns the total.
    pub fn settle(&mut self, budget: &Budget) -> u64 {
        let delta = self.nodes - self.settled;
        self.settled = self.nodes;
        budget.control.add_nodes(delta);
        budget.nodes.fetch_add(delta, Ordering::Relaxed) + delta
    }

    /// At the end of the search: settles, and an enforcing thread notes the gap
    /// since its last look, which delays the answer as much.
    pub fn finish(&mut self, budget: &Budget) {
        self.settle(budget);
        if self.enforces_limits {
            budget.control.note_gap(self.last_look.elapsed());
        }
    }

    /// Settles, then: stopped or aborted, or (enforcing) out of nodes or past
    /// the hard deadline, which aborts every thread.
    #[cold]
    fn look(&mut self, budget: &Budget) -> bool {
        let total = self.settle(budget);
        if budget.stopping() {
            return true;
        }
        if !self.enforces_limits {
            return false;
        }
        let now = Instant::now();
        let control = budget.control;
        control.note_gap(now - self.last_look);
        self.last_look = now;
        // Planned anew by a clock that `ponderhit` brought.
        let deadline = budget.time.publish(control);
        if budget.node_limit.is_some_and(|limit| total >= limit)
            || deadline.is_some_and(|deadline| now >= deadline)
        {
            budget.abort();
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Nodes counted until the counter says stop, under `limits`.
    fn counted_until_stop(limits: &Limits) -> u64 {
        let control = SearchControl::new(false);
        let budget = Budget::new(limits, &control, Seat::FIRST, 0, &TimeParams::default());
        let mut counter = NodeCounter::new(&budget, true);
        let mut nodes = 0;
        while !counter.count(&budget) {
            nodes += 1;
            assert!(nodes < 1 << 20, "never stopped");
        }
        nodes + 1
    }

    #[test]
    fn an_interrupt_stops_the_search_until_resumed_and_a_stop_stays() {
        let control = SearchControl::new(false);
        let budget = Budget::new(
            &Limits::<String>::default(),
            &control,
            Seat::FIRST,
            0,
            &TimeParams::default(),
        );
        control.interrupt();
        assert!(budget.stopping());
        assert!(control.resume());
        assert!(!budget.stopping() && !control.resume());
        control.stop();
        control.interrupt();
        assert!(control.resume());
        assert!(budget.stopping());
    }

    #[test]
    fn time_the_watcher_held_the_search_is_not_a_delay_of_the_machine() {
        let control = SearchControl::new(false);
        control.held_for(Duration::from_millis(40));
        control.note_gap(Duration::from_millis(50));
        assert_eq!(control.longest_gap(), Duration::from_millis(10));
        // Left out once: the next gap is the machine's again.
        control.note_gap(Duration::from_millis(30));
        assert_eq!(control.longest_gap(), Duration::from_millis(30));
    }

    #[test]
    fn a_node_limit_is_kept_within_an_eighth_and_large_ones_within_a_look() {
        for limit in [1, 7, 100, 1000, 5000, 100_000] {
            let nodes = counted_until_stop(&Limits::nodes(limit));
            assert!(nodes >= limit, "limit {limit}: stopped at {nodes}");
            assert!(
                nodes <= limit + (limit / 8).clamp(1, CHECK_EVERY),
                "limit {limit}: stopped at {nodes}"
            );
        }
    }
}
