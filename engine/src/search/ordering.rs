//! Move ordering of the alpha-beta style searchers (two-player and
//! multi-player): two killer moves per ply, a history of quiet cut-offs per
//! seat, the score that orders the moves after the TT move, and the late move
//! reductions that ordering makes possible. Expectimax keeps its history of
//! cut-offs in the same [`History`].

use super::Value;
use crate::core::Seat;
use crate::tune::{Params, Tunable};
use std::hash::Hash;

/// History scores stay within ±HISTORY_MAX (the update is self-limiting).
pub const HISTORY_MAX: i32 = 1 << 14;
/// Tactical moves are tried before killers and quiet moves.
pub const SCORE_TACTICAL: i32 = 1 << 28;
pub const SCORE_KILLER: [i32; 2] = [1 << 27, (1 << 27) - 1];
/// Tactical moves are ordered by material won first, history second.
pub const GAIN_WEIGHT: i32 = 2 * HISTORY_MAX;
/// Late move reductions (tunables), one set per game since each game tunes its
/// own: nodes `min_depth` or more from the horizon reduce plain quiet moves
/// (neither tactical, nor the TT move, nor a killer) after their first
/// `min_moves`, by `ln(depth)·ln(moves searched) · 100 / divisor_percent` plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LmrParams {
    pub min_depth: i32,
    pub min_moves: i32,
    pub divisor_percent: i32,
}

impl Params for LmrParams {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_LmrMinDepth", 1, 20, |p| &mut p.min_depth),
        Tunable::new("Tune_LmrMinMoves", 1, 64, |p| &mut p.min_moves),
        Tunable::new("Tune_LmrDivisorPercent", 50, 1000, |p| {
            &mut p.divisor_percent
        }),
    ];
}

/// [`LmrParams`] with the plies by depth and moves searched worked out (by
/// default none: worked out when it first follows a set).
#[derive(Clone, Debug)]
pub struct Lmr {
    pub params: LmrParams,
    table: [[u8; 64]; 64],
}

impl Default for Lmr {
    fn default() -> Self {
        Lmr {
            params: LmrParams::default(),
            table: [[0; 64]; 64],
        }
    }
}

impl Lmr {
    pub fn new(params: LmrParams) -> Lmr {
        let mut table = [[0; 64]; 64];
        let divisor = params.divisor_percent as f64;
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((d as f64).ln() * (m as f64).ln() * 100.0 / divisor) as u8;
            }
        }
        Lmr { params, table }
    }

    /// This table, worked out again if `params` differ from those it was made for.
    pub fn follow(&mut self, params: LmrParams) {
        if self.params != params {
            *self = Lmr::new(params);
        }
    }

    /// Plies taken off a move after `searched` others at a node `depth` from
    /// the horizon: a ply less at PV nodes, and never straight into quiescence.
    #[inline]
    pub fn reduction(&self, depth: i32, searched: usize, pv_node: bool) -> i32 {
        if (searched as i32) < self.params.min_moves {
            return 0;
        }
        let r = self.table[(depth as usize).min(63)][searched.min(63)] as i32 - pv_node as i32;
        // At depth 1 (LmrMinDepth 1) there is no ply to take off.
        r.clamp(0, (depth - 2).max(0))
    }
}

/// The ordering score of a move other than the TT move: a tactical move (`gain`
/// is its material won) by gain, then history; then the two killers; then the
/// other quiet moves by history.
#[inline]
pub fn order_score<M: PartialEq>(mv: M, gain: Option<Value>, history: i32, killers: [M; 2]) -> i32 {
    match gain {
        Some(gain) => SCORE_TACTICAL + gain * GAIN_WEIGHT + history,
        None if mv == killers[0] => SCORE_KILLER[0],
        None if mv == killers[1] => SCORE_KILLER[1],
        None => history,
    }
}

/// Two quiet moves per ply that refuted a position there, the latest first.
#[derive(Default)]
pub struct Killers<M> {
    plies: Vec<[M; 2]>,
}

impl<M: Copy + Default + PartialEq> Killers<M> {
    pub fn new(plies: usize) -> Self {
        Killers {
            plies: vec![[M::default(); 2]; plies],
        }
    }

    #[inline]
    pub fn at(&self, ply: usize) -> [M; 2] {
        self.plies[ply]
    }

    /// Forgets every killer (as new).
    pub fn clear(&mut self) {
        self.plies.fill([M::default(); 2]);
    }

    pub fn insert(&mut self, ply: usize, mv: M) {
        let killers = &mut self.plies[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
    }
}

/// History slots in all, shared out among the seats (2 sides: 2^14 each; 4 seats: 2^13).
const HISTORY_SLOTS: usize = 1 << 15;

/// History scores per seat and move, the move hashed to `2^bits` slots.
#[derive(Default)]
pub struct History {
    scores: Vec<i32>,
    bits: u32,
}

impl History {
    /// A table for `seats` seats (a power of two).
    pub fn new(seats: usize) -> Self {
        let bits = (HISTORY_SLOTS / seats).ilog2();
        History {
            scores: vec![0; seats << bits],
            bits,
        }
    }

    /// Forgets every score (as new).
    pub fn clear(&mut self) {
        self.scores.fill(0);
    }

    #[inline]
    fn slot<M: Hash>(&self, seat: Seat, mv: M) -> usize {
        (seat.index() << self.bits) + (fxhash::hash64(&mv) >> (64 - self.bits)) as usize
    }

    #[inline]
    pub fn get<M: Hash>(&self, seat: Seat, mv: M) -> i32 {
        self.scores[self.slot(seat, mv)]
    }

    /// Adds `bonus`, the score saturating at `cap` (a count of cut-offs).
    #[inline]
    pub fn add_capped<M: Hash>(&mut self, seat: Seat, mv: M, bonus: i32, cap: i32) {
        let slot = self.slot(seat, mv);
        self.scores[slot] = (self.scores[slot] + bonus).min(cap);
    }

    /// Moves the score toward ±HISTORY_MAX by `bonus` (self-limiting).
    #[inline]
    pub fn update<M: Hash>(&mut self, seat: Seat, mv: M, bonus: i32) {
        let slot = self.slot(seat, mv);
        let score = &mut self.scores[slot];
        *score += bonus - *score * bonus.abs() / HISTORY_MAX;
    }
}
