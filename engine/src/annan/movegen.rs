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
    let safety = Safety::of(state, us);
    board_moves(state, us, rules, &safety, visit) || drops(state, us, rules, &safety, visit)
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

/// What decides whether a candidate needs the full king-safety test.
struct Safety {
    in_check: bool,
    king: Option<Square>,
    /// Columns holding an unpromoted pawn of the side to move, one bit each.
    pawn_columns: u16,
}

impl Safety {
    fn of(state: &State, us: Seat) -> Safety {
        let pawn_columns = (0..9)
            .filter(|&col| state.pawn_on_column(us, col))
            .fold(0, |bits, col| bits | 1 << col);
        Safety {
            in_check: state.in_check(us),
            king: state.kings[us as usize],
            pawn_columns,
        }
    }

    #[inline]
    fn pawn_on_column(&self, col: u8) -> bool {
        self.pawn_columns >> col & 1 != 0
    }

    /// Whether `from → to` might leave the own king attacked. Outside check, only
    /// a king move, a departure from a line through the king (a slider may come
    /// through), or the capture of a piece that lends its movement to another
    /// opponent piece (that piece moves differently afterwards) can do so.
    #[inline]
    fn needs_test(&self, state: &State, us: Seat, from: Square, to: Square) -> bool {
        let Some(king) = self.king else { return false };
        if self.in_check || from == king || aligned(king, from) {
            return true;
        }
        let them = us ^ 1;
        state.at(to).is(them)
            && to
                .offset(forward(them), 0)
                .is_some_and(|front| state.at(front).is(them))
    }
}

/// Whether `a` and `b` share a rank, file or diagonal.
#[inline]
fn aligned(a: Square, b: Square) -> bool {
    let (dr, dc) = (a.row() as i8 - b.row() as i8, a.col() as i8 - b.col() as i8);
    dr == 0 || dc == 0 || dr.abs() == dc.abs()
}

fn board_moves(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    safety: &Safety,
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
                    if !state.at(to).is(us)
                        && board_move(state, us, rules, safety, from, to, own, visit)
                    {
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
                    if board_move(state, us, rules, safety, from, to, own, visit) {
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
#[allow(clippy::too_many_arguments)]
fn board_move(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    safety: &Safety,
    from: Square,
    to: Square,
    own: Kind,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    if safety.needs_test(state, us, from, to) {
        let mut after = *state;
        after.apply(AnnanMove::board(from, to, false), us);
        if after.in_check(us) {
            return false;
        }
    }
    if own.can_promote()
        && (in_zone(from, us) || in_zone(to, us))
        && visit(AnnanMove::board(from, to, true))
    {
        return true;
    }
    // Two pawns on a file, by original type, whatever movement the pawn borrowed.
    if own == Kind::Pawn && from.col() != to.col() && safety.pawn_on_column(to.col()) {
        return false;
    }
    if may_be_dead(own) {
        let alive = match rules.dead_piece {
            DeadPiece::Forbid => alive_by_original(own, to, us),
            DeadPiece::Support => can_move_after(state, us, own, to, Some(from)),
        };
        if !alive {
            return false;
        }
    }
    visit(AnnanMove::board(from, to, false))
}

/// Whether a piece of kind `own` arriving on `to` (from `from`, or dropped) can
/// move anywhere from there with what will stand behind it.
#[inline]
fn can_move_after(state: &State, us: Seat, own: Kind, to: Square, from: Option<Square>) -> bool {
    let moves_as = match State::behind(to, us) {
        Some(back) if Some(back) != from && state.at(back).is(us) => state.at(back).kind(),
        _ => own,
    };
    has_destination(moves_as, to, us)
}

/// Whether `kind` of colour `us` on `sq` has a destination on the board.
#[inline]
fn has_destination(kind: Kind, sq: Square, us: Seat) -> bool {
    let s = -forward(us);
    let reach = step_mask(kind) | slide_mask(kind) as u16;
    STEP_DIRS
        .iter()
        .enumerate()
        .any(|(i, &(dr, dc))| reach >> i & 1 != 0 && sq.offset(dr * s, dc * s).is_some())
}

fn drops(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    safety: &Safety,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    let them = us ^ 1;
    let in_check = safety.in_check;
    let their_king = state.kings[them as usize];
    // Pawns last: a drop-pawn-mate test is the dearest.
    for kind in HAND_KINDS.iter().rev().copied() {
        if state.hands[us as usize][kind.index()] == 0 {
            continue;
        }
        for to in Square::all() {
            if !state.at(to).is_none() {
                continue;
            }
            if kind == Kind::Pawn && safety.pawn_on_column(to.col()) {
                continue;
            }
            let alive = !may_be_dead(kind)
                || match rules.dead_piece {
                    DeadPiece::Forbid => alive_by_original(kind, to, us),
                    DeadPiece::Support => can_move_after(state, us, kind, to, None),
                };
            if !alive {
                continue;
            }
            let mv = AnnanMove::drop(kind, to);
            // A drop only adds a blocker and lends its movement to the own piece
            // in front: it exposes nothing, so only a drop made in check is tested.
            if in_check {
                let mut after = *state;
                after.apply(mv, us);
                if after.in_check(us) {
                    continue;
                }
            }
            // Drop-pawn mate, read literally: the opponent in check with no legal
            // move. Whatever the pawn borrows, and the pawn movement it lends to the
            // piece in front, reach the king only along a line or a knight's jump.
            if kind == Kind::Pawn
                && their_king.is_some_and(|king| aligned(to, king) || knight_apart(to, king))
            {
                let mut after = *state;
                after.apply(mv, us);
                if after.in_check(them) && !has_legal_move(&after, them, rules) {
                    continue;
                }
            }
            if visit(mv) {
                return true;
            }
        }
    }
    false
}

#[inline]
fn knight_apart(a: Square, b: Square) -> bool {
    let (dr, dc) = (
        (a.row() as i8 - b.row() as i8).abs(),
        (a.col() as i8 - b.col() as i8).abs(),
    );
    dr == 2 && dc == 1
}
