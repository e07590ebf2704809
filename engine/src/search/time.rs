//! How long to think: a soft limit (start no new iteration after it) and a hard
//! deadline (abort the search), both measured from [`SearchControl::started`].
//!
//! The hard deadline is never beyond what the clock allows: the site's CPU seats
//! play under a per-turn limit (`go byoyomi 30000` or `go movetime 30000`, possibly
//! with `btime 0 wtime 0`) and lose if they answer late, so the configured margin
//! (`SearchConfig::time_margin_ms`) is subtracted from every hard limit.
//!
//! While [`SearchControl::waiting`] is set (pondering, `go infinite`) nothing
//! expires; `ponderhit` clears it and restarts the clock, so the budget then counts
//! from the `ponderhit`.

use super::{Limits, SearchControl};
use crate::core::Seat;
use std::time::Duration;

/// With sudden death, plan as if this many moves remain to be played.
const MOVES_HORIZON: u32 = 30;
/// With byoyomi, the share of the main time spent on one move (1/n), on top of the byoyomi.
const MAIN_TIME_SHARE_WITH_BYOYOMI: u32 = 20;
/// The hard deadline may run to this multiple of the planned time (within the clock).
const HARD_OVER_PLANNED: u32 = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// The margin takes at most this fraction (1/n) of the time a move is allowed.
const MARGIN_SHARE: u32 = 4;

impl TimeManager {
    /// No limit on time.
    pub fn unlimited() -> Self {
        TimeManager::default()
    }

    /// The limits for `side` from `go`'s limits; `margin_ms` comes off every hard
    /// limit, but never more than a `MARGIN_SHARE`th of the time allowed (a 40 ms
    /// `movetime` under a 300 ms margin still searches 30 ms).
    ///
    /// `movetime` wins over a clock. With byoyomi, a share of the main time plus
    /// the byoyomi is planned and the hard deadline is at most main time +
    /// byoyomi − margin. Without byoyomi (sudden death or Fischer), a share of the
    /// remaining time is planned. With `infinite` and no clock nothing expires; a
    /// clock sent with `infinite` (pondering) applies once `waiting` is cleared.
    pub fn new(limits: &Limits, side: Seat, margin_ms: u64) -> Self {
        let margin = Duration::from_millis(margin_ms);
        if let Some(movetime) = limits.movetime {
            let hard = movetime.saturating_sub(margin.min(movetime / MARGIN_SHARE));
            return TimeManager {
                soft: Some(hard),
                hard: Some(hard),
            };
        }
        let Some(clock) = limits.clock else {
            return TimeManager::unlimited();
        };
        let seat = side as usize;
        let left = clock.time_left[seat].unwrap_or(Duration::ZERO);
        let increment = clock.increment[seat];
        let byoyomi = clock.byoyomi;
        // The most the clock allows this move.
        let allowed = left + increment + byoyomi;
        let planned = if byoyomi > Duration::ZERO {
            // Byoyomi cannot be saved: use all of it, plus a little of the main time.
            left / MAIN_TIME_SHARE_WITH_BYOYOMI + increment + byoyomi
        } else {
            left / MOVES_HORIZON + increment * 3 / 4
        };
        let stretched = if byoyomi > Duration::ZERO {
            left / MAIN_TIME_SHARE_WITH_BYOYOMI * HARD_OVER_PLANNED + increment + byoyomi
        } else {
            planned * HARD_OVER_PLANNED
        };
        let hard = stretched
            .min(allowed)
            .saturating_sub(margin.min(allowed / MARGIN_SHARE));
        let soft = planned.min(hard);
        TimeManager {
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    fn elapsed_beyond(limit: Option<Duration>, control: &SearchControl) -> bool {
        match limit {
            Some(limit) => !control.waiting() && control.started().elapsed() >= limit,
            None => false,
        }
    }

    /// Past the soft limit: start no new iteration.
    pub fn soft_expired(&self, control: &SearchControl) -> bool {
        Self::elapsed_beyond(self.soft, control)
    }

    /// Past the hard deadline: abort now.
    pub fn hard_expired(&self, control: &SearchControl) -> bool {
        Self::elapsed_beyond(self.hard, control)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    const MARGIN: u64 = 300;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(left: Option<u64>, byoyomi: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time_left: [left.map(ms); 4],
                increment: [Duration::ZERO; 4],
                byoyomi: ms(byoyomi),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn per_turn_limits_of_the_site_are_kept() {
        for limits in [
            clock(None, 30_000),
            clock(Some(0), 30_000),
            Limits::movetime(ms(30_000)),
            Limits {
                movetime: Some(ms(30_000)),
                ..clock(Some(0), 0)
            },
        ] {
            let tm = TimeManager::new(&limits, 0, MARGIN);
            assert_eq!(tm.hard_limit(), Some(ms(29_700)), "{limits:?}");
            assert!(tm.soft_limit() <= tm.hard_limit());
        }
        let tm = TimeManager::new(&clock(Some(0), 60_000), 1, MARGIN);
        assert_eq!(tm.hard_limit(), Some(ms(59_700)));
    }

    #[test]
    fn main_time_plus_byoyomi_uses_part_of_the_main_time() {
        let tm = TimeManager::new(&clock(Some(600_000), 10_000), 0, MARGIN);
        let (soft, hard) = (tm.soft_limit().unwrap(), tm.hard_limit().unwrap());
        assert!(soft > ms(10_000) && soft < ms(60_000), "{soft:?}");
        assert!(hard >= soft && hard <= ms(610_000 - MARGIN), "{hard:?}");
        // Nearly out of main time: byoyomi still bounds the move.
        let tm = TimeManager::new(&clock(Some(100), 10_000), 0, MARGIN);
        assert!(tm.hard_limit().unwrap() <= ms(10_100 - MARGIN));
    }

    #[test]
    fn sudden_death_never_exceeds_the_clock() {
        for left in [0, 50, 300, 1_000, 60_000] {
            let tm = TimeManager::new(&clock(Some(left), 0), 0, MARGIN);
            let margin = ms(MARGIN).min(ms(left) / MARGIN_SHARE);
            assert!(tm.hard_limit().unwrap() <= ms(left) - margin);
            assert!(tm.soft_limit() <= tm.hard_limit());
        }
    }

    #[test]
    fn a_short_limit_keeps_three_quarters_of_itself() {
        let tm = TimeManager::new(&Limits::movetime(ms(40)), 0, 300);
        assert_eq!(tm.hard_limit(), Some(ms(30)));
        let tm = TimeManager::new(&clock(Some(0), 1_000), 0, 300);
        assert_eq!(tm.hard_limit(), Some(ms(750)));
    }

    #[test]
    fn nothing_expires_while_waiting() {
        let tm = TimeManager::new(&Limits::movetime(ms(0)), 0, 0);
        let control = SearchControl::new(true);
        assert!(!tm.hard_expired(&control) && !tm.soft_expired(&control));
        control.ponderhit();
        assert!(tm.hard_expired(&control));
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!TimeManager::new(&infinite, 0, 0).hard_expired(&SearchControl::new(false)));
    }
}
