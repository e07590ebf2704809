//! The transposition table: a lockless hash table shared by every search thread.
//!
//! # Layout
//! The table is an array of [`Bucket`]s, one cache line each, of four entries. An
//! entry is two `AtomicU64`s: `data` (the packed move, value, depth, bound and
//! generation) and `check = key ^ data`. A probe loads both words and accepts the
//! entry only when `check ^ data` equals the probed key.
//!
//! # What a racy read may return
//! Threads store and probe without locks, so a probe can load the two words of an
//! entry while another thread is half way through overwriting it. Then `check` and
//! `data` belong to different writes and `check ^ data` is (except with probability
//! about 2⁻⁶⁴) neither write's key, so the probe reports a miss. A probe therefore
//! returns either nothing or the complete data some thread stored for a position
//! with the same 64-bit key: possibly from an earlier search, another thread, or
//! (as with any hash table keyed by 64-bit hashes) a different position whose key
//! collides. The move is stored as an *index* into the position's generated move
//! list, so callers must check it against the list length; a colliding entry then
//! still names a legal move, just perhaps a poor one.

use super::{Value, INFINITE, MATE_BOUND};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET_ENTRIES: usize = 4;
/// A stored move index meaning "no move".
const NO_MOVE: u16 = u16::MAX;
/// Generations wrap at this (6 bits in the entry).
const GENERATION_MASK: u8 = 0x3F;
/// Entries sampled for `hashfull` (it is reported in permille).
const HASHFULL_SAMPLE: usize = 1000;
/// In replacement, one generation of age weighs as much as this many plies of depth.
const AGE_WEIGHT: i32 = 4;

/// Mate scores are stored relative to the node, not the root.
pub fn value_to_tt(value: Value, ply: usize) -> i16 {
    let value = if value >= MATE_BOUND {
        value + ply as Value
    } else if value <= -MATE_BOUND {
        value - ply as Value
    } else {
        value
    };
    value.clamp(-INFINITE, INFINITE) as i16
}

/// The inverse of [`value_to_tt`] at the probing node's `ply`.
pub fn value_from_tt(value: i16, ply: usize) -> Value {
    let value = value as Value;
    if value >= MATE_BOUND {
        value - ply as Value
    } else if value <= -MATE_BOUND {
        value + ply as Value
    } else {
        value
    }
}

/// What a stored value is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the stored one (the search failed low).
    Upper = 1,
    /// The true value is at least the stored one (the search failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a node's `best` value, searched with the window (`alpha`, `beta`),
    /// is known to be (fail-soft).
    #[inline]
    pub fn of(best: Value, alpha: Value, beta: Value) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `value` of this kind settles a node searched with the
    /// window (`alpha`, `beta`): exact, or a bound outside the window.
    #[inline]
    pub fn settles(self, value: Value, alpha: Value, beta: Value) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
}

/// One entry as probed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Index of the best move in the position's generated move list.
    pub move_index: Option<u16>,
    /// The value from the node's point of view (mate scores relative to the node).
    pub value: i16,
    pub depth: u8,
    pub bound: Bound,
}

impl TtEntry {
    /// A node's result: `value` at `ply` from the root, searched `depth`
    /// (clamped to a byte), and the index of its best move.
    #[inline]
    pub fn of_node(
        value: Value,
        ply: usize,
        depth: i32,
        bound: Bound,
        move_index: Option<usize>,
    ) -> TtEntry {
        TtEntry {
            move_index: move_index.map(|i| i as u16),
            value: value_to_tt(value, ply),
            depth: depth.clamp(0, 255) as u8,
            bound,
        }
    }

    /// Whether this entry, its value `value` at the probing node, settles a
    /// node searched `depth` or less with the window (`alpha`, `beta`).
    #[inline]
    pub fn settles(&self, value: Value, depth: i32, alpha: Value, beta: Value) -> bool {
        self.depth as i32 >= depth && self.bound.settles(value, alpha, beta)
    }
}

// The packed `data` word: bits 0–15 move index, 16–31 value, 32–39 depth,
// 40–41 bound (0 = empty), 42–47 generation.
fn pack(entry: &TtEntry, generation: u8) -> u64 {
    entry.move_index.unwrap_or(NO_MOVE) as u64
        | (entry.value as u16 as u64) << 16
        | (entry.depth as u64) << 32
        | (entry.bound as u64) << 40
        | ((generation & GENERATION_MASK) as u64) << 42
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let index = data as u16;
    Some(TtEntry {
        move_index: (index != NO_MOVE).then_some(index),
        value: (data >> 16) as u16 as i16,
        depth: (data >> 32) as u8,
        bound,
    })
}

#[inline]
fn generation_of(data: u64) -> u8 {
    ((data >> 42) as u8) & GENERATION_MASK
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; BUCKET_ENTRIES],
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of (at most) `mb` mebibytes, at least one bucket; panics when
    /// the memory cannot be had (see [`TranspositionTable::try_new`]).
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).expect("memory for the transposition table")
    }

    /// As [`TranspositionTable::new`], or an error when the memory cannot be
    /// had: a size a client asks for must never abort the engine.
    pub fn try_new(mb: usize) -> Result<Self, std::collections::TryReserveError> {
        let count = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in mebibytes as configured (rounded down to whole buckets).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Warms the cache line of `key`'s bucket (a hint; harmless on any key).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: a prefetch never faults and the pointer is inside the table.
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the same key's entry or the bucket's
    /// least valuable one (shallowest, oldest). A store without a move keeps the
    /// move already stored for the same key.
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.entries {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                if let Some(old) = unpack(data) {
                    // Keep a deeper result of this search unless the new one is exact.
                    if entry.bound != Bound::Exact
                        && generation_of(data) == generation
                        && old.depth as i32 > entry.depth as i32 + 2
                    {
                        return;
                    }
                    if entry.move_index.is_none() {
                        entry.move_index = old.move_index;
                    }
                }
                victim = slot;
                break;
            }
            let worth = match unpack(data) {
                None => i32::MIN,
                Some(old) => {
                    let age =
                        (generation.wrapping_sub(generation_of(data)) & GENERATION_MASK) as i32;
                    old.depth as i32 - AGE_WEIGHT * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(&entry, generation);
        victim.check.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let mut sampled = 0;
        let mut used = 0;
        'buckets: for bucket in &self.buckets {
            for entry in &bucket.entries {
                if sampled == HASHFULL_SAMPLE {
                    break 'buckets;
                }
                sampled += 1;
                let data = entry.data.load(Ordering::Relaxed);
                if unpack(data).is_some() && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / sampled.max(1)) as u32
    }
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} buckets)", self.buckets.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn entry(move_index: u16, value: i16, depth: u8, bound: Bound) -> TtEntry {
        TtEntry {
            move_index: Some(move_index),
            value,
            depth,
            bound,
        }
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        let stored = entry(7, -31_990, 12, Bound::Lower);
        tt.store(42, stored);
        assert_eq!(tt.probe(42), Some(stored));
        assert_eq!(tt.probe(43), None);
        // A store without a move keeps the old one.
        tt.store(
            42,
            TtEntry {
                move_index: None,
                value: 5,
                depth: 13,
                bound: Bound::Exact,
            },
        );
        assert_eq!(tt.probe(42), Some(entry(7, 5, 13, Bound::Exact)));
        // The key 0 with zeroed memory is not mistaken for an entry.
        assert_eq!(tt.probe(0), None);
    }

    #[test]
    fn a_size_that_cannot_be_had_is_refused_not_fatal() {
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        let tt = TranspositionTable::try_new(2).expect("two MiB");
        assert_eq!(tt.size_mb(), 2);
        assert_eq!((tt.probe(0), tt.probe(1), tt.hashfull()), (None, None, 0));
    }

    #[test]
    fn hashfull_counts_this_search() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..100_000 {
            tt.store(rng.gen(), entry(1, 1, 1, Bound::Exact));
        }
        assert!(tt.hashfull() > 500, "hashfull {}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(1), None);
    }

    /// Two threads hammer a tiny table with the same keys; every hit must carry the
    /// data written for that key (the value encodes the key).
    #[test]
    fn concurrent_use_returns_only_whole_entries() {
        let tt = TranspositionTable::new(0); // one bucket: maximal contention
        let value_of = |key: u64| (key % 30_000) as i16;
        std::thread::scope(|s| {
            for seed in 0..2 {
                let tt = &tt;
                s.spawn(move || {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                    for _ in 0..200_000 {
                        let key = rng.gen_range(1..64u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        if rng.gen_bool(0.5) {
                            tt.store(
                                key,
                                entry(
                                    (key % 500) as u16,
                                    value_of(key),
                                    (key % 60) as u8,
                                    Bound::Exact,
                                ),
                            );
                        } else if let Some(hit) = tt.probe(key) {
                            assert_eq!(hit.value, value_of(key));
                            assert_eq!(hit.move_index, Some((key % 500) as u16));
                        }
                    }
                });
            }
        });
    }
}
