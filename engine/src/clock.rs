//! The engine's clock: [`std::time::Instant`] natively; in WebAssembly, where
//! `Instant::now()` panics, a reading of the host's clock (`performance.now()`
//! in a browser), imported as `yomi_host_now_ms`.
//!
//! Everything in the engine and the protocol that reads the time names
//! `yomi_engine::clock::Instant`, so the two builds share every line but this file.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use host::Instant;

#[cfg(target_arch = "wasm32")]
mod host {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds on a monotonic clock of the host (fractions allowed).
        fn yomi_host_now_ms() -> f64;
    }

    /// A point on the host's monotonic clock, in milliseconds, with the
    /// methods of [`std::time::Instant`] that the engine uses.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: the host's function takes nothing and returns a number.
            Instant(unsafe { yomi_host_now_ms() })
        }

        /// The time from `earlier` to `self`, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            let ms = self.0 + duration.as_secs_f64() * 1000.0;
            ms.is_finite().then_some(Instant(ms))
        }

        pub fn checked_sub(&self, duration: Duration) -> Option<Instant> {
            let ms = self.0 - duration.as_secs_f64() * 1000.0;
            ms.is_finite().then_some(Instant(ms))
        }
    }

    // The host's clock never answers NaN, so the order is total.
    impl Eq for Instant {}

    impl PartialOrd for Instant {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Instant {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            self.checked_add(duration)
                .expect("overflow when adding a duration to an instant")
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, duration: Duration) -> Instant {
            self.checked_sub(duration)
                .expect("overflow when subtracting a duration from an instant")
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
