//! Legal moves of one seat on a [`State`]: everything but the continuous-check
//! rule, which needs the game's history (see `position.rs`).

use super::piece::{
    between, pawn_line, rook_attacks, Kind, Piece, KING_STEPS, LAST_ROW, PAWN_STEPS, ZONE,
};
use super::state::{State, YoninMove};
use crate::core::board9::{Bitboard, Square};
use crate::core::Seat;

/// The seat that moves after `mover` moved (rule 6): the nearest live seat in
/// check clockwise from `mover`, else the next live seat clockwise.
pub fn next_due(state: &State, mover: Seat) -> Seat {
    after_move(state, mover).due
}

/// What one look at each king tells after `mover` moved.
pub struct AfterMove {
    /// [`next_due`].
    pub due: Seat,
    /// A piece of `mover` attacks another live king (rule 15).
    pub gave_check: bool,
    /// A bit per seat in check (never `mover`'s, whose move was legal).
    pub checked: u8,
}

/// [`AfterMove`] of the position after `mover` moved.
pub fn after_move(state: &State, mover: Seat) -> AfterMove {
    looking_at_kings(state, mover, |s| {
        state.attackers(state.kings[s], state.others(s))
    })
}

/// [`after_move`] of the position after `mover` played `mv`, knowing which
/// seats stood in check before (`checked`, as [`AfterMove::checked`]): a seat
/// that was not can be checked now only by the piece moved or by a rook or
/// dragon whose line the move opened (its `from` square), so only those are
/// looked at; seats that were in check are looked at in full.
pub fn after_played(state: &State, mover: Seat, mv: YoninMove, checked: u8) -> AfterMove {
    let to = mv.to();
    let reach = state.attacks_of(state.at(to), to);
    looking_at_kings(state, mover, |s| {
        let king = state.kings[s];
        if checked & s.bit() != 0 {
            return state.attackers(king, state.others(s));
        }
        let moved = match reach.has(king) {
            true => to.bit(),
            false => Bitboard::EMPTY,
        };
        let opened = match mv.from() {
            Some(from) if rook_attacks(king, Bitboard::EMPTY).has(from) => {
                rook_attacks(king, state.occupied) & state.sliders() & state.others(s)
            }
            _ => Bitboard::EMPTY,
        };
        moved | opened
    })
}

/// [`AfterMove`] from `checkers`, the pieces checking each live seat but `mover`.
#[inline]
fn looking_at_kings(state: &State, mover: Seat, checkers: impl Fn(Seat) -> Bitboard) -> AfterMove {
    let mine = state.by_owner[mover];
    let mut after = AfterMove {
        due: mover,
        gave_check: false,
        checked: 0,
    };
    for i in (1..4).rev() {
        let s = mover.after(i, 4);
        if !state.is_alive(s) {
            continue;
        }
        // Counting down, the last live seat seen is the next clockwise.
        after.due = s;
        let checkers = checkers(s);
        if !checkers.is_empty() {
            after.checked |= s.bit();
            after.gave_check |= !(checkers & mine).is_empty();
        }
    }
    if after.checked != 0 {
        // The nearest seat in check clockwise.
        after.due = (1..4)
            .map(|i| mover.after(i, 4))
            .find(|&s| after.checked & s.bit() != 0)
            .expect("a seat in check");
    }
    after
}

/// Which moves keep `us`'s king safe, found once per generation: a move that
/// is not the king's must answer every check and keep to its pin's line. Only
/// rooks and dragons slide, so checks and pins run along ranks and files.
struct KingGuard {
    checkers: Bitboard,
    /// Where a non-king move must end: the checker or a square between it and
    /// the king when in check once, everywhere when not in check.
    answers: Bitboard,
    /// Own pieces pinned to the king, each with the line it may stay on (the
    /// squares up to the pinner, the pinner included).
    pins: [(Square, Bitboard); 4],
    pin_count: usize,
}

impl KingGuard {
    /// The guard of `us`, whose opponents still playing own `others`.
    fn new(state: &State, us: Seat, others: Bitboard) -> KingGuard {
        let king = state.kings[us];
        let checkers = state.attackers(king, others);
        let answers = match checkers.into_iter().next() {
            None => Bitboard::FULL,
            Some(_) if checkers.has_several() => Bitboard::EMPTY,
            Some(checker) => checker.bit() | between(king, checker),
        };
        let mut guard = KingGuard {
            checkers,
            answers,
            pins: [(king, Bitboard::EMPTY); 4],
            pin_count: 0,
        };
        let own = state.by_owner[us];
        for pinner in rook_attacks(king, Bitboard::EMPTY) & state.sliders() & others {
            let line = between(king, pinner);
            let blockers = line & state.occupied;
            if !blockers.is_empty() && !blockers.has_several() && !(blockers & own).is_empty() {
                let pinned = blockers.into_iter().next().expect("one blocker");
                guard.pins[guard.pin_count] = (pinned, line | pinner.bit());
                guard.pin_count += 1;
            }
        }
        guard
    }

    /// The squares a non-king piece on `from` may end on.
    #[inline]
    fn allowed_from(&self, from: Square) -> Bitboard {
        self.pins[..self.pin_count]
            .iter()
            .find(|pin| pin.0 == from)
            .map_or(self.answers, |pin| self.answers & pin.1)
    }
}

/// Drop-pawn mate (rules 8, 18): the pawn attacks the king of the seat that
/// answers next, and that seat has no legal move.
fn pawn_drop_mates(state: &State, to: Square, us: Seat) -> bool {
    let front = PAWN_STEPS[us.index()][to.index()];
    let kings = state.by_kind[Kind::King.index()] & !state.flipped & front;
    let Some(king_sq) = kings.into_iter().next() else {
        return false;
    };
    let target = state.at(king_sq).owner();
    let mut after = *state;
    after.apply(YoninMove::drop(Kind::Pawn, to), us);
    next_due(&after, us) == target && !has_legal_move(&after, target, true)
}

/// Calls `f` with each legal move of `us` (who must be alive); stops as soon as
/// `f` returns true and then returns true.
pub fn for_each_legal(state: &State, us: Seat, f: &mut impl FnMut(YoninMove) -> bool) -> bool {
    legal_moves::<{ part::ALL }>(state, us, f)
}

/// Which of the legal moves [`legal_moves`] lists, always in the order of all
/// of them: every move is the board moves, then the drops.
pub mod part {
    pub const ALL: u8 = 0;
    /// Captures and promotions.
    pub const TACTICAL: u8 = 1;
    pub const BOARD: u8 = 2;
    pub const DROPS: u8 = 3;
}

/// [`for_each_legal`] of the moves of `PART` (see [`part`]).
#[inline]
pub fn legal_moves<const PART: u8>(
    state: &State,
    us: Seat,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let others = state.others(us);
    let guard = KingGuard::new(state, us, others);
    match PART {
        part::TACTICAL => board_moves_guarded::<true>(state, us, others, &guard, f),
        part::BOARD => board_moves_guarded::<false>(state, us, others, &guard, f),
        part::DROPS => drops_guarded(state, us, &guard, f),
        _ => {
            board_moves_guarded::<false>(state, us, others, &guard, f)
                || drops_guarded(state, us, &guard, f)
        }
    }
}

/// The board moves of `us` (with `TACTICAL`, its captures and promotions),
/// `others` and `guard` as [`KingGuard::new`] has them.
#[inline]
fn board_moves_guarded<const TACTICAL: bool>(
    state: &State,
    us: Seat,
    others: Bitboard,
    guard: &KingGuard,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let king = state.kings[us];
    let own = state.by_owner[us];
    // No move ends on a king, live or flipped, or on an own piece.
    let targets = !(own | state.by_kind[Kind::King.index()]);
    let captures = targets & state.occupied;

    let king_targets = if TACTICAL { captures } else { targets };
    if king_moves(state, king, others, king_targets, f) {
        return true;
    }
    if guard.checkers.has_several() {
        return false;
    }

    for from in own & !king.bit() {
        let piece = state.at(from);
        let mut allowed = guard.allowed_from(from) & targets;
        if TACTICAL {
            allowed &= captures | promotion_squares(piece, from);
        }
        for to in state.attacks_of(piece, from) & allowed {
            if board_moves::<TACTICAL>(state, piece, from, to, f) {
                return true;
            }
        }
    }
    false
}

/// The moves of the king on `king` to `targets` that no piece of `others`
/// attacks (the king taken off the board, so that it cannot hide behind itself).
#[inline]
fn king_moves(
    state: &State,
    king: Square,
    others: Bitboard,
    targets: Bitboard,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let without_king = state.occupied ^ king.bit();
    for to in KING_STEPS[king.index()] & targets {
        if state.attackers_through(to, others, without_king).is_empty()
            && f(YoninMove::board(king, to, false))
        {
            return true;
        }
    }
    false
}

/// The drops of `us`: none in double check (`guard.answers` is empty then).
#[inline]
fn drops_guarded(
    state: &State,
    us: Seat,
    guard: &KingGuard,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let empty = !state.occupied & guard.answers;
    let hand = state.hands[us];
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
            if kind == Kind::Pawn && pawn_drop_mates(state, to, us) {
                continue;
            }
            if f(YoninMove::drop(kind, to)) {
                return true;
            }
        }
    }
    false
}

#[inline]
fn board_moves<const TACTICAL: bool>(
    state: &State,
    piece: Piece,
    from: Square,
    to: Square,
    f: &mut impl FnMut(YoninMove) -> bool,
) -> bool {
    let kind = piece.kind();
    let facing = piece.facing();
    let may_promote = kind.can_promote() && (ZONE[facing].has(from) || ZONE[facing].has(to));
    let must_promote = kind == Kind::Pawn && LAST_ROW[facing].has(to);
    if may_promote && f(YoninMove::board(from, to, true)) {
        return true;
    }
    // Unpromoted, a move is tactical only if it captures.
    let quiet = !state.occupied.has(to);
    !(must_promote || TACTICAL && quiet) && f(YoninMove::board(from, to, false))
}

/// Where `piece` on `from` could end with a promotion: anywhere from inside its
/// zone, into the zone from outside, nowhere for a kind that does not promote.
#[inline]
fn promotion_squares(piece: Piece, from: Square) -> Bitboard {
    let zone = ZONE[piece.facing()];
    match piece.kind().can_promote() {
        false => Bitboard::EMPTY,
        true if zone.has(from) => Bitboard::FULL,
        true => zone,
    }
}

/// Squares where `us` may drop a pawn by the static rules: not the last row,
/// not on a line holding its own unpromoted pawn of its own facing, not in
/// front of a flipped king.
fn pawn_drop_squares(state: &State, us: Seat) -> Bitboard {
    let mut squares = !LAST_ROW[us];
    let own_pawns = state.by_kind[Kind::Pawn.index()] & state.by_owner[us] & state.by_facing[us];
    for pawn in own_pawns {
        squares &= !pawn_line(us, pawn);
    }
    for king in state.flipped {
        // The square in front of the king for a pawn facing `us`: the one the
        // king would be in front of, i.e. one step back from the king.
        squares &= !PAWN_STEPS[(us.index() + 2) & 3][king.index()];
    }
    squares
}

/// Whether `us` has a legal move; `in_check` tells whether its king is
/// attacked. Asked after every move, so out of check it first tries what
/// settles it at once: a piece in hand that is not a pawn (any empty square
/// takes it), or a piece off the king's rank and file (which no rook can pin)
/// with a square to go to; in check, a square for the king.
pub fn has_legal_move(state: &State, us: Seat, in_check: bool) -> bool {
    debug_assert_eq!(in_check, state.king_attacked(us));
    let king = state.kings[us];
    let own = state.by_owner[us];
    let targets = !(own | state.by_kind[Kind::King.index()]);
    if in_check {
        // Most checks leave the king a square to go to, found before the
        // guard's checkers and pins are worked out.
        if king_moves(state, king, state.others(us), targets, &mut |_| true) {
            return true;
        }
    } else {
        let hand = state.hands[us];
        let pieces_in_hand = Kind::HAND
            .iter()
            .any(|&k| k != Kind::Pawn && hand[k.hand_index()] > 0);
        if pieces_in_hand && state.occupied != Bitboard::FULL {
            return true;
        }
        let unpinnable = own & !rook_attacks(king, Bitboard::EMPTY) & !king.bit();
        if unpinnable
            .into_iter()
            .any(|from| !(state.attacks_of(state.at(from), from) & targets).is_empty())
        {
            return true;
        }
    }
    for_each_legal(state, us, &mut |_| true)
}
