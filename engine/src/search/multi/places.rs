//! Place arithmetic: what a finished game is worth to a seat, root-relative
//! (paranoid, BRS) or as max-n shares, and the shares of static values
//! (module doc of [`super`], "Values").

use super::*;

/// Flat values of the places (root-relative searches): first, last and the
/// middle ones from `PLACE_MIDDLE` down to `-PLACE_MIDDLE`.
pub const FLAT_WIN: Value = 20_000;
pub const PLACE_MIDDLE: Value = 10_000;
/// Max-n shares: per seat of the total, the floor of a static share, the clamp of
/// static values.
pub const SHARE_UNIT: Value = 8_000;
/// Every component of a max-n vector is at least this.
pub const SHARE_FLOOR: Value = 2_000;
/// Static shares start this far above the floor (clear of last place's share).
pub(super) const STATIC_FLOOR: Value = 200;

/// The root-relative value of a finished game for `seat` of `seats`, `ply`
/// plies from the root (see the module doc).
pub fn place_value(result: GameResult, seat: Seat, seats: usize, ply: usize) -> Value {
    let win = MATE - ply as Value;
    let places = match result {
        GameResult::Win { winner, .. } => return if winner == seat { win } else { -win },
        GameResult::Draw => return DRAW,
        GameResult::Places(places) => places,
    };
    let mine = places[seat] as usize;
    let shared = places
        .iter()
        .take(seats)
        .filter(|&&p| p as usize == mine)
        .count();
    if shared == 1 && mine == 1 {
        return win;
    }
    if shared == 1 && mine == seats {
        return -win;
    }
    let first = mine.clamp(1, seats) - 1;
    let last = (first + shared).min(seats);
    let sum: Value = (first..last).map(|k| flat_place(k, seats)).sum();
    sum / (last - first).max(1) as Value
}

/// The flat value of place index `k` (0 = first) among `seats`.
pub(super) fn flat_place(k: usize, seats: usize) -> Value {
    if k == 0 {
        FLAT_WIN
    } else if k + 1 >= seats {
        -FLAT_WIN
    } else if seats == 3 {
        0
    } else {
        // Middle places 1..=seats-2, linear from +PLACE_MIDDLE to -PLACE_MIDDLE.
        PLACE_MIDDLE - 2 * PLACE_MIDDLE * (k as Value - 1) / (seats as Value - 3)
    }
}

/// The bound on the sum of a max-n vector.
pub fn share_total(seats: usize) -> Value {
    seats as Value * SHARE_UNIT
}

/// What the shares of all seats hold above their floors `SHARE_FLOOR`.
pub(super) fn free_total(seats: usize) -> Value {
    share_total(seats) - seats as Value * SHARE_FLOOR
}

/// Sole first place's share at `ply` 0 (it loses a point per ply).
pub(super) fn win_share(seats: usize) -> Value {
    SHARE_FLOOR + free_total(seats) * 3 / 4
}

/// Static shares spread this much above `SHARE_FLOOR + STATIC_FLOOR` (so that
/// they stay clear of a win's share).
pub(super) fn static_spread(seats: usize) -> Value {
    win_share(seats) - SHARE_FLOOR - STATIC_FLOOR - 1_000
}

/// The max-n vector of a finished game (module doc); components of seats beyond
/// `seats` are 0.
pub fn place_shares(result: GameResult, seats: usize, ply: usize) -> PerSeat<Value> {
    let places = match result {
        GameResult::Places(places) => places,
        GameResult::Win { winner, .. } => {
            let mut places = PerSeat::splat(2);
            places[winner] = 1;
            places
        }
        GameResult::Draw => PerSeat::splat(1),
    };
    let middle_free = share_total(seats) - win_share(seats) - (seats as Value - 1) * SHARE_FLOOR;
    // Share of place index k (0 = first).
    let by_index = |k: usize| -> Value {
        if k == 0 {
            win_share(seats) - ply as Value
        } else if k + 1 >= seats {
            SHARE_FLOOR + ply as Value
        } else {
            // Middle places split `middle_free` with weights seats-1-k.
            let middle = seats as Value - 2;
            let weights = middle * (middle + 1) / 2;
            let weight = (seats - 1 - k) as Value;
            SHARE_FLOOR + middle_free * weight / weights
        }
    };
    let mut shares = PerSeat::splat(0);
    for seat in Seat::all(seats) {
        let mine = places[seat] as usize;
        let shared = places
            .iter()
            .take(seats)
            .filter(|&&p| p as usize == mine)
            .count();
        let first = mine.clamp(1, seats) - 1;
        let last = (first + shared).min(seats);
        let sum: Value = (first..last).map(by_index).sum();
        shares[seat] = sum / (last - first).max(1) as Value;
    }
    shares
}

/// Max-n shares from static values, clamped to ±`clamp` (module doc).
pub fn static_shares(values: PerSeat<Value>, seats: usize, clamp: Value) -> PerSeat<Value> {
    let mut raw = PerSeat::splat(0);
    for seat in Seat::all(seats) {
        raw[seat] = values[seat].clamp(-clamp, clamp) + clamp + 1;
    }
    let sum: Value = raw.iter().sum();
    let spread = static_spread(seats);
    let mut shares = PerSeat::splat(0);
    for seat in Seat::all(seats) {
        shares[seat] = SHARE_FLOOR + STATIC_FLOOR + spread * raw[seat] / sum;
    }
    shares
}

/// The share of every seat in a level position: what a repetition gives in
/// max-n, and the zero of reported values.
pub(super) fn neutral_share(seats: usize) -> Value {
    SHARE_FLOOR + STATIC_FLOOR + static_spread(seats) / seats as Value
}

pub(super) fn neutral_shares(seats: usize) -> PerSeat<Value> {
    let mut shares = PerSeat::splat(0);
    for share in shares.iter_mut().take(seats) {
        *share = neutral_share(seats);
    }
    shares
}

/// A share mapped back to a reported value: mate distances for a sole first or
/// last place, otherwise the share above a level one.
pub fn share_to_value(share: Value, seats: usize) -> Value {
    let win = win_share(seats);
    if share > win - MAX_PLY as Value {
        MATE - (win - share)
    } else if share < SHARE_FLOOR + MAX_PLY as Value {
        -(MATE - (share - SHARE_FLOOR))
    } else {
        share - neutral_share(seats)
    }
}

/// Whether max-n prefers `a` to `b` for `mover`: its own value, then the whole
/// vector (a fixed tie-break that makes the result independent of move order).
#[inline]
pub fn maxn_prefers(a: &PerSeat<Value>, b: &PerSeat<Value>, mover: Seat) -> bool {
    (a[mover], a) > (b[mover], b)
}
