//! Legal move generation. Every candidate is applied to a copy of the state and
//! kept if the mover's king is safe there, because a move can change the
//! movement of pieces it never touches (arriving behind them, leaving from behind
//! them, capturing the opponent's back piece).

use super::piece::{Kind, HAND_KINDS};
use super::rules::{AnnanRules, DeadPiece};
use super::state::{
    forward, in_zone, ranks_to_go, slide_mask, step_mask, AnnanMove, State, STEP_DIRS,
};
use crate::core::board9::Square;
use crate::core::Seat;

/// Calls `visit` with each legal move of `us` until it returns `true` (stop).
/// Returns whether it was stopped.
pub fn for_each_legal(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    board_moves(state, us, rules, visit) || drops(state, us, rules, visit)
}

/// Whether `us` has any legal move.
pub fn has_legal_move(state: &State, us: Seat, rules: &AnnanRules) -> bool {
    for_each_legal(state, us, rules, &mut |_| true)
}

/// Whether an unpromoted `kind` may stand on `to` by its original movement alone
/// (the `forbid` reading of the dead-piece rule).
#[inline]
fn alive_by_original(kind: Kind, to: Square, us: Seat) -> bool {
    match kind {
        Kind::Pawn | Kind::Lance => ranks_to_go(to, us) > 0,
        Kind::Knight => ranks_to_go(to, us) > 1,
        _ => true,
    }
}

#[inline]
fn may_be_dead(kind: Kind) -> bool {
    matches!(kind, Kind::Pawn | Kind::Lance | Kind::Knight)
}

fn board_moves(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    let s = -forward(us);
    for from in Square::all() {
        if !state.at(from).is(us) {
            continue;
        }
        let own = state.at(from).kind();
        let moves_as = state.movement(from);
        let (steps, slides) = (step_mask(moves_as), slide_mask(moves_as));
        for (i, &(dr, dc)) in STEP_DIRS.iter().enumerate() {
            if steps >> i & 1 != 0 {
                if let Some(to) = from.offset(dr * s, dc * s) {
                    if !state.at(to).is(us) && board_move(state, us, rules, from, to, own, visit) {
                        return true;
                    }
                }
            }
            if i < 8 && slides >> i & 1 != 0 {
                let mut sq = from;
                while let Some(to) = sq.offset(dr * s, dc * s) {
                    let target = state.at(to);
                    if target.is(us) {
                        break;
                    }
                    if board_move(state, us, rules, from, to, own, visit) {
                        return true;
                    }
                    if !target.is_none() {
                        break;
                    }
                    sq = to;
                }
            }
        }
    }
    false
}

/// The promoting and non-promoting versions of one displacement.
#[inline]
fn board_move(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    from: Square,
    to: Square,
    own: Kind,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    if own.can_promote() && (in_zone(from, us) || in_zone(to, us)) {
        let mv = AnnanMove::board(from, to, true);
        if king_safe_after(state, us, mv).is_some() && visit(mv) {
            return true;
        }
    }
    // Two pawns on a file, by original type, whatever movement the pawn borrowed.
    if own == Kind::Pawn && from.col() != to.col() && state.pawn_on_column(us, to.col()) {
        return false;
    }
    let dead_checked = may_be_dead(own);
    if dead_checked && rules.dead_piece == DeadPiece::Forbid && !alive_by_original(own, to, us) {
        return false;
    }
    let mv = AnnanMove::board(from, to, false);
    match king_safe_after(state, us, mv) {
        Some(after)
            if !dead_checked
                || rules.dead_piece == DeadPiece::Forbid
                || after.can_move_from(to) =>
        {
            visit(mv)
        }
        _ => false,
    }
}

#[inline]
fn king_safe_after(state: &State, us: Seat, mv: AnnanMove) -> Option<State> {
    let mut after = *state;
    after.apply(mv, us);
    (!after.in_check(us)).then_some(after)
}

fn drops(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    let them = us ^ 1;
    let in_check = state.in_check(us);
    // Pawns last: a drop-pawn-mate test is the dearest.
    for kind in HAND_KINDS.iter().rev().copied() {
        if state.hands[us as usize][kind.index()] == 0 {
            continue;
        }
        for to in Square::all() {
            if !state.at(to).is_none() {
                continue;
            }
            if kind == Kind::Pawn && state.pawn_on_column(us, to.col()) {
                continue;
            }
            if rules.dead_piece == DeadPiece::Forbid && !alive_by_original(kind, to, us) {
                continue;
            }
            let mv = AnnanMove::drop(kind, to);
            let mut after = *state;
            after.apply(mv, us);
            // A drop only adds a blocker and supports one own piece: it can expose
            // nothing, so only a drop made in check needs the test.
            if in_check && after.in_check(us) {
                continue;
            }
            if rules.dead_piece == DeadPiece::Support
                && may_be_dead(kind)
                && !after.can_move_from(to)
            {
                continue;
            }
            // Drop-pawn mate, read literally: the opponent in check with no legal move.
            if kind == Kind::Pawn && after.in_check(them) && !has_legal_move(&after, them, rules) {
                continue;
            }
            if visit(mv) {
                return true;
            }
        }
    }
    false
}
