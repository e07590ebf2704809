//! What every searcher keeps between searches: its settings, the transposition
//! table (allocated at `isready` or the first search, so that creating a
//! searcher stays cheap) and a pool of `threads − 1` helper threads, so that
//! every helper really runs next to the calling thread.

use super::tt::TranspositionTable;
use super::SearchConfig;

/// Stack size for helper threads (search recursion is shallow; this is ample).
const HELPER_STACK: usize = 16 << 20;

pub struct SearchTables {
    config: SearchConfig,
    tt: Option<TranspositionTable>,
    /// The size `tt` was made for, or is to be made at if none is yet: what
    /// `hash_mb` goes back to when a new size cannot be allocated.
    table_mb: usize,
    pool: Option<rayon::ThreadPool>,
    /// Names the helper threads (`yomi-<name>-1`, …).
    name: &'static str,
}

impl SearchTables {
    pub fn new(config: &SearchConfig, name: &'static str) -> Self {
        SearchTables {
            config: config.clone(),
            tt: None,
            table_mb: config.hash_mb,
            pool: build_pool(config.threads, name),
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

    /// The table, ready for a new search, and the helper pool (`None` with one
    /// thread).
    pub fn for_search(&mut self) -> (&TranspositionTable, Option<&rayon::ThreadPool>) {
        // A size that cannot be had leaves the previous table, and the session
        // has reported that at `isready` or `go`.
        let _ = self.prepare();
        let tt = self.tt.as_ref().expect("prepared above");
        tt.new_search();
        let pool = self.pool.as_ref().filter(|_| self.config.threads > 1);
        (tt, pool)
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
