//! Static evaluation for the multi-player searchers: per seat, material with
//! hands, king safety against each opponent, the threat of elimination and the
//! rule-17 total, each seat from its own point of view.

use super::piece::{Kind, KING_STEPS};
use super::position::Yonin;
use super::state::{State, YoninMove};
use crate::core::Seat;
use crate::search::Value;

/// Board values by kind (the king counts only through safety and totals).
const BOARD: [Value; 8] = [0, 900, 500, 420, 100, 1150, 500, 480];
/// In hand a piece is worth a little more: it can go anywhere.
const HAND: [Value; 4] = [1000, 560, 480, 115];
/// Each piece counts toward the rule-17 total, the places tie-break.
const PER_PIECE: Value = 8;
/// A checkmate made is a step up the places.
const PER_MATE: Value = 2500;
/// An eliminated seat keeps only its place; later eliminations rank higher.
const ELIMINATED: Value = -12_000;

/// The material `mv` wins at once: the captured piece (to the hand) and the
/// promotion.
pub fn gain(state: &State, mv: YoninMove) -> Value {
    let mut gain = 0;
    if let Some(from) = mv.from() {
        let captured = state.at(mv.to());
        if !captured.is_none() {
            gain +=
                BOARD[captured.kind().index()] + HAND[captured.kind().unpromoted().hand_index()];
        }
        if mv.promotes() {
            let kind = state.at(from).kind();
            gain += BOARD[kind.promoted().index()] - BOARD[kind.index()];
        }
    }
    gain
}

fn material(state: &State, seat: Seat) -> Value {
    let own = state.by_owner[seat as usize];
    let mut value = 0;
    for kind in Kind::ALL {
        value += BOARD[kind.index()] * (own & state.by_kind[kind.index()]).count() as Value;
    }
    for (h, &n) in state.hands[seat as usize].iter().enumerate() {
        value += HAND[h] * n as Value;
    }
    value
}

/// King safety of a live seat: attacks on the squares around its king, open
/// flight squares, defenders, and whether it stands in check with few flights.
fn king_safety(state: &State, seat: Seat) -> Value {
    let king = state.kings[seat as usize];
    let others = state.others(seat);
    let own = state.by_owner[seat as usize];
    let zone = KING_STEPS[king.index()];
    let mut attacks = 0;
    let mut flights = 0;
    for sq in zone {
        let attackers = state.attackers(sq, others).count() as Value;
        attacks += attackers;
        let blocked =
            own.has(sq) || state.flipped.has(sq) || state.by_kind[Kind::King.index()].has(sq);
        if attackers == 0 && !blocked {
            flights += 1;
        }
    }
    let defenders = (zone & own).count() as Value;
    let checkers = state.attackers(king, others).count() as Value;
    let mut value = 12 * defenders.min(4) - 28 * attacks + 12 * flights.min(4);
    if checkers > 0 {
        value -= 120 * checkers;
        if flights <= 1 {
            // Near elimination: what it owns would pass to the checker.
            value -= 400;
        }
    }
    value
}

pub fn evaluate_all(pos: &Yonin) -> [Value; 4] {
    let state = pos.state();
    let out = pos.eliminations();
    let totals = pos.totals();
    let mut raw = [0 as Value; 4];
    for seat in 0..4u8 {
        if state.is_alive(seat) {
            raw[seat as usize] = material(state, seat)
                + king_safety(state, seat)
                + PER_MATE * out.mates_by(seat) as Value
                + PER_PIECE * totals[seat as usize] as Value;
        }
    }
    let alive: Vec<Seat> = (0..4).filter(|&s| state.is_alive(s)).collect();
    let mut values = [0 as Value; 4];
    for seat in 0..4u8 {
        values[seat as usize] = if state.is_alive(seat) {
            let others: Value = alive
                .iter()
                .filter(|&&s| s != seat)
                .map(|&s| raw[s as usize])
                .sum();
            let n = (alive.len() as Value - 1).max(1);
            raw[seat as usize] - others / n
        } else {
            let order = out.as_slice().iter().position(|e| e.0 == seat).unwrap_or(0) as Value;
            ELIMINATED + 1000 * order
        };
    }
    values
}
