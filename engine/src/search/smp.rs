//! What Lazy SMP threads share besides the transposition table: the moves some
//! thread is searching right now, so that threads searching the same iteration
//! spread out (ABDADA-style: a node puts off a move, other than its first, that
//! another thread is on, and comes back to it after the rest); the depth a
//! helper thread searches next; and how helpers run beside the main thread.

use super::budget::Budget;
use super::tables::Scratch;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table of (position, move) pairs being searched.
pub const BUSY_SLOTS: usize = 1 << 15;
/// Spreads a move's hash over the key bits used to pick a busy slot.
const BUSY_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The (position, move) pairs some thread is searching, by hashed slot; a lossy
/// hint (a slot may be overwritten or cleared by another thread), never a lock.
/// Empty with one thread: then nothing is ever busy.
pub struct BusyMoves {
    slots: Vec<AtomicU64>,
}

impl BusyMoves {
    /// The table for `threads` threads, its slots taken from `scratch` (see
    /// [`BusyMoves::give_back`]).
    pub fn new(threads: usize, scratch: &Scratch) -> Self {
        if threads <= 1 {
            return BusyMoves { slots: Vec::new() };
        }
        let slots = match scratch.take(|slots: &Vec<AtomicU64>| slots.len() == BUSY_SLOTS) {
            Some(slots) => {
                slots
                    .iter()
                    .for_each(|slot| slot.store(0, Ordering::Relaxed));
                slots
            }
            None => (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        };
        BusyMoves { slots }
    }

    /// Gives the slots back to `scratch` for the next search.
    pub fn give_back(&mut self, scratch: &Scratch) {
        if self.enabled() {
            scratch.give(std::mem::take(&mut self.slots));
        }
    }

    pub fn enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    #[inline]
    fn slot(&self, key: u64) -> Option<&AtomicU64> {
        self.slots
            .get(key as usize & self.slots.len().wrapping_sub(1))
    }

    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key)
            .is_some_and(|slot| slot.load(Ordering::Relaxed) == key)
    }

    /// Marks `key` busy for this thread and says true; but false, marking
    /// nothing, when the move `may_wait` and another thread is on it: the
    /// caller then puts it off ([`Deferred`]).
    #[inline]
    pub fn claim(&self, key: u64, may_wait: bool) -> bool {
        if may_wait && self.is_busy(key) {
            return false;
        }
        self.enter(key);
        true
    }

    #[inline]
    fn enter(&self, key: u64) {
        if let Some(slot) = self.slot(key) {
            slot.store(key, Ordering::Relaxed);
        }
    }

    #[inline]
    pub fn leave(&self, key: u64) {
        if let Some(slot) = self.slot(key) {
            let _ = slot.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

/// The busy-table key of `mv` searched from the position keyed `key`.
#[inline]
pub fn busy_key<M: std::hash::Hash>(key: u64, mv: &M) -> u64 {
    key ^ fxhash::hash64(mv).wrapping_mul(BUSY_MIX)
}

/// Runs `main` on the calling thread and `helper(id)` for ids `1..threads` on
/// the pool beside it; when `main` returns, the budget is aborted so that the
/// helpers stop too. Without a pool, `main` alone.
pub fn beside_helpers(
    pool: Option<&rayon::ThreadPool>,
    threads: usize,
    budget: &Budget,
    helper: impl Fn(usize) + Sync,
    main: impl FnOnce(),
) {
    match pool {
        Some(pool) => pool.in_place_scope(|scope| {
            let helper = &helper;
            for id in 1..threads {
                scope.spawn(move |_| helper(id));
            }
            main();
            budget.abort();
        }),
        None => main(),
    }
}

/// The threads a search runs when `asked` for: at most as many as the machine
/// runs at once. More only take turns with the main thread, so that it looks
/// at the clock late, and each holds tables of its own (256 threads on one
/// core answered a first `go movetime 100` after 1.4 s).
pub fn threads_to_run(asked: usize) -> usize {
    let hardware = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    asked.clamp(1, hardware)
}

/// How far ahead of the main thread helper `id` (≥ 1) searches: odd helpers
/// (so the only helper of two threads) level with it, even ones one depth
/// ahead. Level helpers measured faster to depth with two threads than one
/// ahead, once both defer busy moves.
pub fn helper_lead(id: usize) -> i32 {
    ((id + 1) % 2) as i32
}

/// The moves a node put off because another thread was on them, by index into
/// the node's own move list, to be searched after the others in the order put off.
pub struct Deferred<const N: usize> {
    indices: [u16; N],
    len: usize,
    replayed: usize,
}

impl<const N: usize> Deferred<N> {
    pub fn new() -> Self {
        Deferred {
            indices: [0; N],
            len: 0,
            replayed: 0,
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.replayed = 0;
    }

    /// Puts off move `index` (each move of a node at most once, so `N` moves fit).
    #[inline]
    pub fn push(&mut self, index: usize) {
        self.indices[self.len] = index as u16;
        self.len += 1;
    }

    /// The next move put off, once every other move of the node has been searched.
    #[inline]
    pub fn replay(&mut self) -> Option<usize> {
        (self.replayed < self.len).then(|| {
            self.replayed += 1;
            self.indices[self.replayed - 1] as usize
        })
    }
}

impl<const N: usize> Default for Deferred<N> {
    fn default() -> Self {
        Self::new()
    }
}
