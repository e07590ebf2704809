//! What every searcher keeps between searches: its settings, the transposition
//! table (allocated at `isready` or the first search, so that creating a
//! searcher stays cheap) and a pool of `threads − 1` helper threads, so that
//! every helper really runs next to the calling thread.

use super::tt::TranspositionTable;
use super::SearchConfig;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Mutex;

/// Stack size for helper threads (search recursion is shallow; this is ample).
const HELPER_STACK: usize = 16 << 20;

pub struct SearchTables {
    config: SearchConfig,
    tt: Option<TranspositionTable>,
    /// The size `tt` was made for, or is to be made at if none is yet: what
    /// `hash_mb` goes back to when a new size cannot be allocated.
    table_mb: usize,
    pool: Option<rayon::ThreadPool>,
    scratch: Scratch,
    /// Names the helper threads (`yomi-<name>-1`, …).
    name: &'static str,
}

/// The memory the threads of a search work in (their stacks of moves,
/// killers, history and lines; the mate solver's table), given back when a
/// search ends and handed to the next one. Allocated afresh and freed by many
/// threads at every search, it stayed with the allocator's per-thread arenas
/// and the process grew search after search (hundreds of MiB a search at 256
/// threads); kept, a session's memory stays bounded: one set of stacks per
/// thread of the most threads set, whatever the thread count since, so that
/// nothing is freed and made again when it changes.
#[derive(Default)]
pub struct Scratch {
    kept: Mutex<HashMap<TypeId, Vec<Box<dyn Any + Send>>>>,
}

impl Scratch {
    /// A `T` given back earlier that `fits`, as it was given back (the caller
    /// resets it); `None` when there is none.
    pub fn take<T: Any + Send>(&self, fits: impl Fn(&T) -> bool) -> Option<T> {
        let found = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            kept.get_mut(&TypeId::of::<T>()).and_then(|items| {
                let at = items
                    .iter()
                    .position(|item| item.downcast_ref::<T>().is_some_and(&fits))?;
                Some(items.swap_remove(at))
            })
        };
        found
            .and_then(|item| item.downcast::<T>().ok())
            .map(|item| *item)
    }

    /// Keeps `item` for a later [`Scratch::take`].
    pub fn give<T: Any + Send>(&self, item: T) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.entry(TypeId::of::<T>())
            .or_default()
            .push(Box::new(item));
    }
}

impl SearchTables {
    pub fn new(config: &SearchConfig, name: &'static str) -> Self {
        SearchTables {
            config: config.clone(),
            tt: None,
            table_mb: config.hash_mb,
            pool: build_pool(config.threads, name),
            scratch: Scratch::default(),
            name,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// New settings: the table is made again at the next [`SearchTables::prepare`]
    /// when its size changes (the old one serves until then), the pool rebuilt
    /// when the thread count does.
    pub fn configure(&mut self, config: &SearchConfig) {
        if config.threads != self.config.threads {
            self.pool = build_pool(config.threads, self.name);
        }
        self.config = config.clone();
    }

    /// Makes the table of the configured size if it is not there yet. When that
    /// memory cannot be had, the previous table stays (or one of the previous
    /// size is made), `hash_mb` goes back to its size, and the error says so.
    pub fn prepare(&mut self) -> Result<(), String> {
        if self.tt.is_some() && self.table_mb == self.config.hash_mb {
            return Ok(());
        }
        let wanted = self.config.hash_mb;
        match TranspositionTable::try_new(wanted) {
            Ok(tt) => {
                self.tt = Some(tt);
                self.table_mb = wanted;
                Ok(())
            }
            Err(_) => {
                self.config.hash_mb = self.table_mb;
                if self.tt.is_none() {
                    self.tt = Some(TranspositionTable::new(self.table_mb));
                }
                Err(format!(
                    "cannot allocate a {wanted} MiB hash table; keeping {} MiB",
                    self.table_mb
                ))
            }
        }
    }

    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
    }

    /// The memory searches reuse (for the mate solver; the searches get it
    /// from [`SearchTables::for_search`]).
    pub fn scratch(&self) -> &Scratch {
        &self.scratch
    }

    /// The table, ready for a new search, the helper pool (`None` with one
    /// thread) and the memory the threads reuse.
    pub fn for_search(&mut self) -> (&TranspositionTable, Option<&rayon::ThreadPool>, &Scratch) {
        // A size that cannot be had leaves the previous table, and the session
        // has reported that at `isready` or `go`.
        let _ = self.prepare();
        let tt = self.tt.as_ref().expect("prepared above");
        tt.new_search();
        let pool = self.pool.as_ref().filter(|_| self.config.threads > 1);
        (tt, pool, &self.scratch)
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.as_ref().map_or(0, TranspositionTable::hashfull)
    }
}

fn build_pool(threads: usize, name: &'static str) -> Option<rayon::ThreadPool> {
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .stack_size(HELPER_STACK)
                .thread_name(move |i| format!("yomi-{name}-{}", i + 1))
                .build()
                .ok()
        })
        .flatten()
}
