//! Legal moves of one seat on a [`State`]: everything but the continuous-check
//! rule, which needs the game's history (see `position.rs`).

use super::piece::{pawn_line, Kind, Piece, KING_STEPS, LAST_ROW, PAWN_STEPS, ZONE};
use super::state::{State, YoninMove};
use crate::core::board9::{Bitboard, Square};
use crate::core::Seat;

/// The seat that moves after `mover` moved (rule 6): the nearest live seat in
/// check clockwise from `mover`, else the next live seat clockwise.
pub fn next_due(state: &State, mover: Seat) -> Seat {
    for i in 1..4 {
        let s = (mover + i) & 3;
        if state.in_check(s) {
            return s;
        }
    }
    (1..4)
        .map(|i| (mover + i) & 3)
        .find(|&s| state.is_alive(s))
        .unwrap_or(mover)
}

/// Whether `us` may play `mv` without leaving its king attacked.
#[inline]
fn safe_after(state: &State, mv: YoninMove, us: Seat) -> bool {
    let mut after = *state;
    after.apply(mv, us);
    !after.king_attacked(us)
}

/// Drop-pawn mate (rules 8, 18): the pawn attacks the king of the seat that
/// answers next, and that seat has no legal move.
fn pawn_drop_mates(state: &State, to: Square, us: Seat) -> bool {
    let front = PAWN_STEPS[us as usize][to.index()];
    let kings = state.by_kind[Kind::King.index()] & !state.flipped & front;
    let Some(king_sq) = kings.into_iter().next() else {
        return false;
    };
    let target = state.at(king_sq).owner();
    let mut after = *state;
    after.apply(YoninMove::drop(Kind::Pawn, to), us);
    next_due(&after, us) == target && !has_legal_move(&after, target)
}

/// Calls `f` with each legal move of `us` (who must be alive); stops as soon as
/// `f` returns true and then returns true.
pub fn for_each_legal(state: &State, us: Seat, f: &mut impl FnMut(YoninMove) -> bool) -> bool {
    let king = state.kings[us as usize];
    let in_check = state.king_attacked(us);
    let own = state.by_owner[us as usize];
    // No move ends on a king, live or flipped, or on an own piece.
    let targets = !(own | state.by_kind[Kind::King.index()]);

    for to in KING_STEPS[king.index()] & targets {
        let mv = YoninMove::board(king, to, false);
        if safe_after(state, mv, us) && f(mv) {
            return true;
        }
    }

    for from in own & !king.bit() {
        let piece = state.at(from);
        // Only rooks slide here, so only a piece on the king's rank or file can
        // be pinned.
        let test = in_check || from.row() == king.row() || from.col() == king.col();
        for to in state.attacks_of(piece, from) & targets {
            if board_moves(state, piece, from, to, us, test, f) {
                return true;
            }
        }
    }

    let empty = !state.occupied;
    let hand = state.hands[us as usize];
    for kind in Kind::HAND {
        if hand[kind.hand_index()] == 0 {
            continue;
        }
        let squares = if kind == Kind::Pawn {
            pawn_drop_squares(state, us) & empty
        } else {
            empty
        };
        for to in squares {
            let mv = YoninMove::drop(kind, to);
            if in_check && !safe_after(state, mv, us) {
                continue;
            }
            if kind == Kind::Pawn && pawn_drop_mates(state, to, us) {
                continue;
            }
            if f(mv) {
                return true;
            }
        }
    }
    false
}

#[inline]
fn board_moves(
    state: &State,
    piece: Piece,
    from: Square,
    to: Square,
    us: Seat,
    test: bool,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let kind = piece.kind();
    let facing = piece.facing() as usize;
    let may_promote = kind.can_promote() && (ZONE[facing].has(from) || ZONE[facing].has(to));
    let must_promote = kind == Kind::Pawn && LAST_ROW[facing].has(to);
    if test && !safe_after(state, YoninMove::board(from, to, false), us) {
        return false;
    }
    if may_promote && f(YoninMove::board(from, to, true)) {
        return true;
    }
    !must_promote && f(YoninMove::board(from, to, false))
}

/// Squares where `us` may drop a pawn by the static rules: not the last row,
/// not on a line holding its own unpromoted pawn of its own facing, not in
/// front of a flipped king.
fn pawn_drop_squares(state: &State, us: Seat) -> Bitboard {
    let mut squares = !LAST_ROW[us as usize];
    let own_pawns = state.by_kind[Kind::Pawn.index()]
        & state.by_owner[us as usize]
        & state.by_facing[us as usize];
    for pawn in own_pawns {
        squares &= !pawn_line(us, pawn);
    }
    for king in state.flipped {
        // The square in front of the king for a pawn facing `us`: the one the
        // king would be in front of, i.e. one step back from the king.
        squares &= !PAWN_STEPS[(us as usize + 2) & 3][king.index()];
    }
    squares
}

pub fn has_legal_move(state: &State, us: Seat) -> bool {
    for_each_legal(state, us, &mut |_| true)
}
