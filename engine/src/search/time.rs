//! How long to think: a soft limit (start no new iteration after it) and a hard
//! deadline (abort the search), both measured from [`SearchControl::started`].
//!
//! The plan, for the side to move with main time `left`, increment `inc` and
//! byoyomi `b`:
//!
//! - the main time is spread over the moves still to come: a share
//!   `left / moves_to_come` (sudden death and Fischer) or `left /
//!   moves_to_come_with_byoyomi` (byoyomi, which covers the rest of the game),
//!   plus three quarters of the increment; the byoyomi, which cannot be saved,
//!   is always used whole;
//! - no new iteration starts after `soft_percent` % of that share (the next
//!   iteration usually costs more than all before it), plus the byoyomi;
//! - the hard deadline is `hard_over_share` times the share, never more than
//!   `1 / MAX_MAIN_SHARE` of the main time, plus increment and byoyomi, and
//!   never beyond what the clock allows.
//!
//! So `btime 60000 byoyomi 1000` stops starting iterations after 2.4 s and
//! answers within 6.7 s (with the default 300 ms margin).
//!
//! The hard deadline is never beyond what the clock allows: the site's CPU seats
//! play under a per-turn limit (`go byoyomi 30000` or `go movetime 30000`, possibly
//! with `btime 0 wtime 0`) and lose if they answer late, so a [`Margin`] is
//! subtracted from every hard limit: the configured `TimeMargin`
//! (`SearchConfig::time_margin_ms`), or more where this machine has lately been
//! slow to let the search run ([`DelayEstimate`]).
//!
//! While [`SearchControl::waiting`] is set (pondering, `go infinite`) nothing
//! expires; `ponderhit` clears it and restarts the clock, so the budget then counts
//! from the `ponderhit`, with the clock it brought if it brought one.

use super::{Clock, Limits, SearchControl};
use crate::clock::Instant;
use crate::core::Seat;
use crate::tune::{Params, Tunable};
use std::time::Duration;

/// The tunables of time management (docs/protocol.md, "Tunables").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeParams {
    /// Sudden death and Fischer: plan as if this many moves of ours remain.
    pub moves_to_come: i32,
    /// With byoyomi the main time need not last the game: plan for fewer moves.
    pub moves_to_come_with_byoyomi: i32,
    /// No new iteration after this share (percent) of the planned main time.
    pub soft_percent: i32,
    /// The hard deadline may run to this multiple of the planned main time ...
    pub hard_over_share: i32,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            moves_to_come: 40,
            moves_to_come_with_byoyomi: 25,
            soft_percent: 60,
            hard_over_share: 3,
        }
    }
}

impl Params for TimeParams {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_MovesToCome", 5, 200, |p| &mut p.moves_to_come),
        Tunable::new("Tune_MovesToComeByoyomi", 2, 200, |p| {
            &mut p.moves_to_come_with_byoyomi
        }),
        Tunable::new("Tune_SoftPercent", 10, 200, |p| &mut p.soft_percent),
        Tunable::new("Tune_HardOverShare", 1, 10, |p| &mut p.hard_over_share),
    ];
}

/// ... but one move never takes more than 1/n of the main time (plus
/// increment and byoyomi): a safety bound, not tuned.
pub const MAX_MAIN_SHARE: u32 = 10;
/// The configured margin takes at most this fraction (1/n) of the time a move
/// is allowed.
const MARGIN_SHARE: u32 = 8;
/// A margin for delays observed may take up to this fraction (1/n): a move
/// played early is better than a game lost on time.
const OBSERVED_MARGIN_SHARE: u32 = 2;
/// Kept free before the end of the allowance: this many times the longest
/// delay observed lately (the next one may be longer, and the engine sees only
/// its own part of it, not the pipes').
const DELAY_FACTOR: u32 = 3;
/// The delay remembered loses 1/n of itself at every search.
const DELAY_DECAY: u32 = 16;

/// Work after the search (Annan's threat guard) may take at most 1/n of the
/// search's hard limit beyond it.
const AFTER_SEARCH_SHARE: u32 = 5;

/// What comes off every hard limit, for the time the answer spends outside the
/// search: the configured margin, at most an eighth of the allowance, or three
/// times the delay observed lately, at most half of it, whichever is larger.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Margin {
    pub configured: Duration,
    pub observed_delay: Duration,
}

impl Margin {
    /// The configured margin alone.
    pub fn fixed(ms: u64) -> Self {
        Margin {
            configured: Duration::from_millis(ms),
            observed_delay: Duration::ZERO,
        }
    }

    /// The margin of a search under `control`: `configured_ms`, widened by the
    /// delay the control carries from earlier searches.
    pub fn for_search(configured_ms: u64, control: &SearchControl) -> Self {
        Margin {
            observed_delay: control.carried_delay(),
            ..Margin::fixed(configured_ms)
        }
    }

    /// The margin of a move allowed `allowed`.
    pub fn of(&self, allowed: Duration) -> Duration {
        let (configured, observed) = self.parts(allowed);
        configured.max(observed)
    }

    /// What work after a search whose hard limit is `hard` may spend of the
    /// margin: half of what the configured margin keeps beyond the delays
    /// observed (nothing on a machine slow lately), at most
    /// 1/[`AFTER_SEARCH_SHARE`] of `hard`. The other half still covers the
    /// answer's way out.
    pub fn spare(&self, allowed: Duration, hard: Duration) -> Duration {
        let (configured, observed) = self.parts(allowed);
        (configured.saturating_sub(observed) / 2).min(hard / AFTER_SEARCH_SHARE)
    }

    /// (the configured margin, the margin for delays observed) of `allowed`.
    fn parts(&self, allowed: Duration) -> (Duration, Duration) {
        let configured = self.configured.min(allowed / MARGIN_SHARE);
        let observed = (self.observed_delay * DELAY_FACTOR).min(allowed / OBSERVED_MARGIN_SHARE);
        (configured, observed)
    }
}

/// The longest delay searches have seen lately between two looks at the clock.
/// On an overloaded machine the search's thread waits for a core, and its answer
/// waits as long: the estimate rises at once to a longer delay and decays by a
/// sixteenth a search, so that one stall widens the margin for the next few
/// dozen moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DelayEstimate {
    recent: Duration,
}

impl DelayEstimate {
    /// After a search whose longest gap between looks at the clock was `gap`.
    pub fn observe(&mut self, gap: Duration) {
        self.recent = gap.max(self.recent - self.recent / DELAY_DECAY);
    }

    pub fn recent(&self) -> Duration {
        self.recent
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Beyond `hard`, what work after the search may spend ([`Margin::spare`]).
    spare: Duration,
    /// Whose clock counts, and the margin: to plan again from a clock that
    /// `ponderhit` brings.
    side: Seat,
    margin: Margin,
    params: TimeParams,
}

impl TimeManager {
    /// No limit on time.
    pub fn unlimited() -> Self {
        TimeManager::default()
    }

    /// The limits for `side` from `go`'s limits; the margin comes off every hard
    /// limit, but never all of it (a 40 ms `movetime` under a 300 ms margin still
    /// searches 30 ms).
    ///
    /// `movetime` wins over a clock. With `infinite` and no clock nothing
    /// expires; a clock sent with `infinite` (pondering) applies once `waiting`
    /// is cleared.
    pub fn new<M>(limits: &Limits<M>, side: Seat, margin: Margin, params: &TimeParams) -> Self {
        let (soft, hard, spare) = if let Some(movetime) = limits.movetime {
            let hard = movetime.saturating_sub(margin.of(movetime));
            (Some(hard), Some(hard), margin.spare(movetime, hard))
        } else if let Some(clock) = &limits.clock {
            let (soft, hard, spare) = plan(clock, side, margin, params);
            (Some(soft), Some(hard), spare)
        } else {
            (None, None, Duration::ZERO)
        };
        TimeManager {
            soft,
            hard,
            spare,
            side,
            margin,
            params: *params,
        }
    }

    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    /// The limits in force (soft, hard, spare): planned anew from a clock
    /// `ponderhit` brought.
    fn current(&self, control: &SearchControl) -> (Option<Duration>, Option<Duration>, Duration) {
        match control.revised_clock() {
            Some(clock) => {
                let (soft, hard, spare) = plan(&clock, self.side, self.margin, &self.params);
                (Some(soft), Some(hard), spare)
            }
            None => (self.soft, self.hard, self.spare),
        }
    }

    fn instant_of(limit: Option<Duration>, control: &SearchControl) -> Option<Instant> {
        limit
            .filter(|_| !control.waiting())
            .map(|limit| control.started() + limit)
    }

    /// Past the soft limit: start no new iteration.
    pub fn soft_expired(&self, control: &SearchControl) -> bool {
        Self::instant_of(self.current(control).0, control)
            .is_some_and(|soft| Instant::now() >= soft)
    }

    /// When the search must be aborted; `None` while nothing expires.
    pub fn hard_deadline(&self, control: &SearchControl) -> Option<Instant> {
        Self::instant_of(self.current(control).1, control)
    }

    /// Publishes on `control` the hard deadline and what work after the
    /// search may spend beyond it ([`Margin::spare`]), planned once; returns
    /// the deadline.
    pub fn publish(&self, control: &SearchControl) -> Option<Instant> {
        let (_, hard, spare) = self.current(control);
        let deadline = Self::instant_of(hard, control);
        control.publish_deadline(deadline);
        control.publish_spare(spare);
        deadline
    }

    /// Past the hard deadline: abort now.
    pub fn hard_expired(&self, control: &SearchControl) -> bool {
        self.hard_deadline(control)
            .is_some_and(|hard| Instant::now() >= hard)
    }
}

/// (soft, hard, spare) for `side` under `clock`, as the module documentation
/// says.
fn plan(
    clock: &Clock,
    side: Seat,
    margin: Margin,
    params: &TimeParams,
) -> (Duration, Duration, Duration) {
    let left = clock.time_left[side].unwrap_or(Duration::ZERO);
    let increment = clock.increment[side];
    let byoyomi = clock.byoyomi;
    let allowed = left + increment + byoyomi;
    let moves_to_come = if byoyomi > Duration::ZERO {
        params.moves_to_come_with_byoyomi
    } else {
        params.moves_to_come
    };
    let share = left / moves_to_come as u32 + increment * 3 / 4;
    let longest = (share * params.hard_over_share as u32).min(left / MAX_MAIN_SHARE + increment);
    let hard = (longest + byoyomi)
        .min(allowed)
        .saturating_sub(margin.of(allowed));
    let soft = (share * params.soft_percent as u32 / 100 + byoyomi).min(hard);
    (soft, hard, margin.spare(allowed, hard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::PerSeat;

    fn planned(limits: &Limits, side: Seat, margin: Margin) -> TimeManager {
        TimeManager::new(limits, side, margin, &TimeParams::default())
    }

    const MARGIN: u64 = 300;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(left: Option<u64>, byoyomi: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time_left: PerSeat::splat(left.map(ms)),
                increment: PerSeat::splat(Duration::ZERO),
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
            let tm = planned(&limits, Seat::FIRST, Margin::fixed(MARGIN));
            assert_eq!(tm.hard_limit(), Some(ms(29_700)), "{limits:?}");
            assert!(tm.soft_limit() <= tm.hard_limit());
        }
        let tm = planned(&clock(Some(0), 60_000), Seat::SECOND, Margin::fixed(MARGIN));
        assert_eq!(tm.hard_limit(), Some(ms(59_700)));
    }

    #[test]
    fn main_time_plus_byoyomi_uses_part_of_the_main_time() {
        let tm = planned(
            &clock(Some(600_000), 10_000),
            Seat::FIRST,
            Margin::fixed(MARGIN),
        );
        let (soft, hard) = (tm.soft_limit().unwrap(), tm.hard_limit().unwrap());
        assert!(soft > ms(10_000) && soft < ms(60_000), "{soft:?}");
        assert!(hard >= soft && hard <= ms(610_000 - MARGIN), "{hard:?}");
        // Nearly out of main time: byoyomi still bounds the move.
        let tm = planned(
            &clock(Some(100), 10_000),
            Seat::FIRST,
            Margin::fixed(MARGIN),
        );
        assert!(tm.hard_limit().unwrap() <= ms(10_100 - MARGIN));
    }

    #[test]
    fn sudden_death_never_exceeds_the_clock() {
        for left in [0, 50, 300, 1_000, 60_000] {
            let tm = planned(&clock(Some(left), 0), Seat::FIRST, Margin::fixed(MARGIN));
            let margin = ms(MARGIN).min(ms(left) / MARGIN_SHARE);
            assert!(tm.hard_limit().unwrap() <= ms(left) - margin);
            assert!(tm.soft_limit() <= tm.hard_limit());
        }
    }

    #[test]
    fn a_short_limit_keeps_seven_eighths_of_itself() {
        let tm = planned(&Limits::movetime(ms(40)), Seat::FIRST, Margin::fixed(300));
        assert_eq!(tm.hard_limit(), Some(ms(35)));
        let tm = planned(&clock(Some(0), 1_000), Seat::FIRST, Margin::fixed(300));
        assert_eq!(tm.hard_limit(), Some(ms(875)));
    }

    #[test]
    fn work_after_the_search_spends_half_the_margin_beyond_the_delays_seen() {
        let margin = |observed| Margin {
            observed_delay: ms(observed),
            ..Margin::fixed(MARGIN)
        };
        // 100 ms a move: 12.5 ms margin, 87.5 ms searched, (12.5 - 3) / 2 after.
        let tm = planned(&Limits::movetime(ms(100)), Seat::FIRST, margin(1));
        assert_eq!(tm.hard_limit(), Some(Duration::from_micros(87_500)));
        assert_eq!(tm.spare, Duration::from_micros(4_750));
        // A long margin against a short search: a fifth of the search at most.
        let tm = planned(&clock(Some(60_000), 0), Seat::FIRST, Margin::fixed(2_000));
        assert_eq!(tm.hard_limit(), Some(ms(60_000 / 40 * 3 - 2_000)));
        assert_eq!(tm.spare, ms(2_500 / 5));
        // 2 s: (250 - 3 * 10) / 2 of the 250 ms margin (an eighth).
        let tm = planned(&Limits::movetime(ms(2_000)), Seat::FIRST, margin(10));
        assert_eq!(tm.hard_limit(), Some(ms(1_750)));
        assert_eq!(tm.spare, ms(110));
        // A slow machine's delays take the whole margin: nothing is spare.
        let tm = planned(&Limits::movetime(ms(2_000)), Seat::FIRST, margin(100));
        assert_eq!(tm.spare, Duration::ZERO);
        // Under a clock, the same from the allowance.
        let tm = planned(&clock(Some(0), 1_000), Seat::FIRST, margin(0));
        assert_eq!(tm.hard_limit(), Some(ms(875)));
        assert_eq!(tm.spare, Duration::from_micros(62_500));
        // No margin configured, none spent.
        let tm = planned(&Limits::movetime(ms(2_000)), Seat::FIRST, Margin::fixed(0));
        assert_eq!(tm.spare, Duration::ZERO);
    }

    #[test]
    fn observed_delays_widen_the_margin_up_to_half_the_allowance() {
        let margin = |observed| Margin {
            observed_delay: ms(observed),
            ..Margin::fixed(MARGIN)
        };
        // Short delays leave the configured margin (an eighth at most) in force.
        assert_eq!(margin(50).of(ms(10_000)), ms(300));
        assert_eq!(margin(30).of(ms(1_000)), ms(125));
        // Three times a long one, but the search keeps half its time.
        assert_eq!(margin(200).of(ms(10_000)), ms(600));
        assert_eq!(margin(200).of(ms(1_000)), ms(500));
        let tm = planned(&Limits::movetime(ms(200)), Seat::FIRST, margin(40));
        assert_eq!(tm.hard_limit(), Some(ms(100)));
        let tm = planned(&clock(Some(0), 1_000), Seat::FIRST, margin(150));
        assert_eq!(tm.hard_limit(), Some(ms(550)));
    }

    #[test]
    fn the_delay_estimate_rises_at_once_and_decays_by_a_sixteenth_a_search() {
        let mut delays = DelayEstimate::default();
        delays.observe(ms(160));
        assert_eq!(delays.recent(), ms(160));
        delays.observe(ms(1));
        assert_eq!(delays.recent(), ms(150));
        delays.observe(ms(400));
        assert_eq!(delays.recent(), ms(400));
        for _ in 0..48 {
            delays.observe(ms(1));
        }
        assert!(delays.recent() < ms(20), "{:?}", delays.recent());
    }

    #[test]
    fn nothing_expires_while_waiting() {
        let tm = planned(&Limits::movetime(ms(0)), Seat::FIRST, Margin::fixed(0));
        let control = SearchControl::new(true);
        assert!(!tm.hard_expired(&control) && !tm.soft_expired(&control));
        control.ponderhit(None);
        assert!(tm.hard_expired(&control));
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!planned(&infinite, Seat::FIRST, Margin::fixed(0))
            .hard_expired(&SearchControl::new(false)));
    }

    #[test]
    fn main_time_is_spread_over_the_game_and_one_move_takes_a_bounded_share() {
        // The two clocks that once spent 11-13 s and 2.7 s on the first move.
        let tm = planned(
            &clock(Some(60_000), 1_000),
            Seat::FIRST,
            Margin::fixed(MARGIN),
        );
        assert_eq!(tm.soft_limit(), Some(ms(60_000 / 25 * 60 / 100 + 1_000)));
        assert_eq!(tm.hard_limit(), Some(ms(60_000 / 10 + 1_000 - MARGIN)));
        let tm = planned(
            &clock(Some(5_000), 2_000),
            Seat::FIRST,
            Margin::fixed(MARGIN),
        );
        assert_eq!(tm.hard_limit(), Some(ms(5_000 / 10 + 2_000 - MARGIN)));
        for left in [1_000, 30_000, 600_000, 3_600_000] {
            for byoyomi in [0, 1_000, 10_000] {
                let tm = planned(
                    &clock(Some(left), byoyomi),
                    Seat::FIRST,
                    Margin::fixed(MARGIN),
                );
                let hard = tm.hard_limit().unwrap();
                assert!(
                    hard <= ms(left / MAX_MAIN_SHARE as u64 + byoyomi),
                    "{left} {byoyomi}"
                );
                assert!(tm.soft_limit().unwrap() <= hard);
                // Byoyomi is never left unused: a move may always take it.
                let margin = ms(MARGIN).min(ms(left + byoyomi) / MARGIN_SHARE);
                assert!(hard + margin >= ms(byoyomi), "{left} {byoyomi}");
            }
        }
    }

    #[test]
    fn a_clock_sent_with_ponderhit_replaces_the_one_go_gave() {
        // `go ponder` without a clock: nothing would ever expire.
        let tm = planned(&Limits::default(), Seat::FIRST, Margin::fixed(0));
        let control = SearchControl::new(true);
        assert!(!tm.hard_expired(&control));
        let ponderhit = Clock {
            time_left: PerSeat::splat(Some(Duration::ZERO)),
            increment: PerSeat::splat(Duration::ZERO),
            byoyomi: ms(0),
        };
        control.ponderhit(Some(ponderhit));
        assert!(tm.hard_expired(&control) && tm.soft_expired(&control));
        let control = SearchControl::new(true);
        control.ponderhit(Some(Clock {
            byoyomi: ms(60_000),
            ..ponderhit
        }));
        assert!(!tm.hard_expired(&control), "a minute has not passed");
    }
}
