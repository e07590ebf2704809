//! Legal move generation by destination sets. A piece's destinations are a
//! bitboard; those where the move might leave the own king attacked are tried one
//! by one on a copy of the state, because a move can change the movement of
//! pieces it never touches (arriving behind them, leaving from behind them,
//! capturing the opponent's back piece). The rest need no work per move, so
//! counting them is a popcount.

use super::attacks::{
    ahead, attacks, behind, between, file, files_of, knight_apart, last_two_ranks, lines,
    next_on_ray, no_destination, slides_back_along, zone,
};
#[cfg(test)]
use super::piece::Piece;
use super::piece::{Kind, HAND_KINDS};
use super::rules::{AnnanRules, DeadPiece};
use super::state::{AnnanMove, State, BLACK, WHITE};
use crate::core::board9::{Bitboard, Square};
use crate::core::Seat;

/// The legal moves of one piece, or of one kind in hand.
#[derive(Clone, Copy)]
enum Group {
    /// From `from`: with promotion to `promote`, without to `plain`.
    Board {
        from: Square,
        promote: Bitboard,
        plain: Bitboard,
    },
    Drop {
        kind: Kind,
        to: Bitboard,
    },
}

impl Group {
    #[inline]
    fn count(self) -> u64 {
        match self {
            Group::Board { promote, plain, .. } => {
                let promotions = if promote.is_empty() {
                    0
                } else {
                    promote.count()
                };
                (promotions + plain.count()) as u64
            }
            Group::Drop { to, .. } => to.count() as u64,
        }
    }

    #[inline]
    fn is_empty(self) -> bool {
        match self {
            Group::Board { promote, plain, .. } => (promote | plain).is_empty(),
            Group::Drop { to, .. } => to.is_empty(),
        }
    }

    /// Calls `visit` with each move, a promotion before its plain twin, until it
    /// returns `true`. Returns whether it was stopped.
    #[inline]
    fn for_each_move(self, visit: &mut impl FnMut(AnnanMove) -> bool) -> bool {
        match self {
            Group::Board {
                from,
                promote,
                plain,
            } => (promote | plain).any(|to| {
                (promote.has(to) && visit(AnnanMove::board(from, to, true)))
                    || (plain.has(to) && visit(AnnanMove::board(from, to, false)))
            }),
            Group::Drop { kind, mut to } => to.any(|to| visit(AnnanMove::drop(kind, to))),
        }
    }
}

/// Calls `visit` with each legal move of `us` until it returns `true` (stop).
/// Returns whether it was stopped.
pub fn for_each_legal(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    Generator::new(state, us, rules).run(&mut |group| group.for_each_move(visit))
}

/// [`for_each_legal`] for the legal moves from or to a square of `relevant`
/// only: the others are never tried for legality (the mate-in-one test asks
/// for the few moves that can give check).
pub fn for_each_legal_touching(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    relevant: Bitboard,
    visit: &mut impl FnMut(AnnanMove) -> bool,
) -> bool {
    let generator = Generator {
        relevant,
        ..Generator::new(state, us, rules)
    };
    generator.run(&mut |group| group.for_each_move(visit))
}

/// Calls `visit` with each legal move of `us` that gives check, until it
/// returns `true`; returns whether it was stopped. Only moves from or to a
/// square that can give check are generated and tried: those a piece attacks
/// the opponent's king from, up to the first piece of each line (a piece
/// leaving one discovers a line), and those behind an own piece there (a
/// piece arriving or leaving changes how it moves).
pub fn for_each_check(
    state: &State,
    us: Seat,
    rules: &AnnanRules,
    visit: &mut impl FnMut(AnnanMove, &State) -> bool,
) -> bool {
    let Some(king) = state.kings[us.other().index()] else {
        return false;
    };
    let occupied = state.all();
    let near = attacks(us, Kind::Dragon, king, occupied)
        | attacks(us, Kind::Horse, king, occupied)
        | attacks(BLACK, Kind::Knight, king, occupied)
        | attacks(WHITE, Kind::Knight, king, occupied);
    let relevant = near | behind(near & state.occupied[us.index()], us);
    for_each_legal_touching(state, us, rules, relevant, &mut |mv| {
        let mut after = *state;
        after.apply(mv, us);
        after.in_check(us.other()) && visit(mv, &after)
    })
}

/// The number of legal moves of `us`.
pub fn count_legal(state: &State, us: Seat, rules: &AnnanRules) -> u64 {
    let mut count = 0;
    Generator::new(state, us, rules).run(&mut |group| {
        count += group.count();
        false
    });
    count
}

/// Whether `us` has any legal move.
pub fn has_legal_move(state: &State, us: Seat, rules: &AnnanRules) -> bool {
    Generator::new(state, us, rules).run(&mut |group| !group.is_empty())
}

#[inline]
fn may_be_dead(kind: Kind) -> bool {
    matches!(kind, Kind::Pawn | Kind::Lance | Kind::Knight)
}

/// What one position's moves have in common.
struct Generator<'a> {
    state: &'a State,
    us: Seat,
    rules: &'a AnnanRules,
    occupied: Bitboard,
    king: Option<Square>,
    in_check: bool,
    /// In check, where a move other than the king's can answer it: a checker
    /// (captured), a square between a sliding checker and the king (blocked),
    /// a checker's back piece (captured, the checker moves by its own kind
    /// again). Taking another piece or leaving a square only adds attacks.
    answers: Bitboard,
    /// The own pieces that may have a legal move: in check, the king and those
    /// that reach a square of `answers`; otherwise all.
    movers: Bitboard,
    /// Own pieces whose departure may open a line from an opponent slider to
    /// the own king (none in check, where every answer is tested anyway).
    pinned: Bitboard,
    /// Opponent pieces lending their movement to the opponent piece in front of
    /// them: capturing one changes how that piece moves.
    lenders: Bitboard,
    /// The files holding an unpromoted own pawn.
    pawn_files: Bitboard,
    /// Squares with an own piece behind them.
    backed: Bitboard,
    /// Under `DeadPiece::Support`: squares where the own piece behind lends a
    /// movement that goes nowhere from there (only a dead piece by its own kind
    /// on such a square is refused).
    dead_by_support: Bitboard,
    /// Only moves from or to these squares are generated.
    relevant: Bitboard,
}

impl<'a> Generator<'a> {
    #[inline]
    fn new(state: &'a State, us: Seat, rules: &'a AnnanRules) -> Self {
        let them = us.other();
        let theirs = state.occupied[them.index()];
        let king = state.kings[us.index()];
        let checkers = king.map_or(Bitboard::EMPTY, |king| state.attackers(king, them));
        let in_check = !checkers.is_empty();
        let (pinned, answers, movers) = match king {
            Some(king) if in_check => {
                let answers = checkers.fold(Bitboard::EMPTY, |answers, checker| {
                    let lender = State::behind(checker, them).filter(|&back| theirs.has(back));
                    answers
                        | checker.bit()
                        | between(king, checker)
                        | lender.map_or(Bitboard::EMPTY, Square::bit)
                });
                let movers =
                    answers.fold(king.bit(), |movers, sq| movers | state.attackers(sq, us));
                (Bitboard::EMPTY, answers, movers)
            }
            Some(king) => (
                pinned(state, us, king),
                Bitboard::EMPTY,
                state.occupied[us.index()],
            ),
            None => (Bitboard::EMPTY, Bitboard::EMPTY, state.occupied[us.index()]),
        };
        let backed = ahead(state.occupied[us.index()], us);
        let dead_by_support = match rules.dead_piece {
            DeadPiece::Forbid => Bitboard::EMPTY,
            DeadPiece::Support => (backed & last_two_ranks(us))
                .filter(|&sq| {
                    let back = State::behind(sq, us).expect("a backed square has a back");
                    no_destination(us, state.at(back).kind()).has(sq)
                })
                .fold(Bitboard::EMPTY, |dead, sq| dead | sq.bit()),
        };
        Generator {
            state,
            us,
            rules,
            occupied: state.all(),
            king,
            in_check,
            answers,
            movers,
            pinned,
            lenders: theirs & behind(theirs, them),
            pawn_files: files_of(state.pawns[us.index()]),
            backed,
            dead_by_support,
            relevant: Bitboard::FULL,
        }
    }

    /// Board moves square by square, then drops from rook down to pawn (a
    /// drop-pawn-mate test is the dearest).
    #[inline]
    fn run(&self, visit: &mut impl FnMut(Group) -> bool) -> bool {
        self.board_moves(visit) || self.drops(visit)
    }

    fn leaves_king_safe(&self, mv: AnnanMove) -> bool {
        let mut after = *self.state;
        after.apply(mv, self.us);
        !after.in_check(self.us)
    }

    /// The squares of `squares` where `mv(to)` leaves the own king safe.
    #[inline]
    fn safe(&self, squares: Bitboard, mv: impl Fn(Square) -> AnnanMove) -> Bitboard {
        squares
            .filter(|&to| self.leaves_king_safe(mv(to)))
            .fold(Bitboard::EMPTY, |safe, to| safe | to.bit())
    }

    /// Where a piece of kind `kind` arriving from `from` (or dropped) may not
    /// stand without promotion, by the dead-piece rule in force. The rule only
    /// concerns the squares where the kind's own movement goes nowhere (a pawn or
    /// lance on the last rank, a knight on the last two): elsewhere a move is
    /// never refused for the movement it borrows.
    #[inline]
    fn dead(&self, kind: Kind, from: Option<Square>) -> Bitboard {
        let own = no_destination(self.us, kind);
        match self.rules.dead_piece {
            DeadPiece::Forbid => own,
            DeadPiece::Support => {
                // Dead by its own kind, unless the piece behind lends a movement
                // that goes somewhere; the mover's square lends nothing once left.
                let left = from.map_or(Bitboard::EMPTY, |from| ahead(from.bit(), self.us));
                own & (!self.backed | left | self.dead_by_support)
            }
        }
    }

    fn board_moves(&self, visit: &mut impl FnMut(Group) -> bool) -> bool {
        let us = self.us;
        let ours = self.state.occupied[us.index()];
        for from in self.movers {
            let mut targets = attacks(us, self.state.movement(from), from, self.occupied) & !ours;
            if !self.relevant.has(from) {
                targets &= self.relevant;
            }
            if targets.is_empty() {
                continue;
            }
            let tested = |squares| self.safe(squares, |to| AnnanMove::board(from, to, false));
            let safe = if Some(from) == self.king || self.pinned.has(from) {
                tested(targets)
            } else if self.in_check {
                tested(targets & self.answers)
            } else {
                // Arriving elsewhere only blocks lines and lends to an own piece.
                (targets & !self.lenders) | tested(targets & self.lenders)
            };
            // Promotion and the restrictions on the plain move go by original type.
            let own = self.state.at(from).kind();
            let promote = match own.can_promote() {
                true if zone(us).has(from) => safe,
                true => safe & zone(us),
                false => Bitboard::EMPTY,
            };
            let mut plain = safe;
            if own == Kind::Pawn {
                plain &= !self.pawn_files | file(from);
            }
            // Only the last two ranks can hold a dead piece.
            if may_be_dead(own) && !(plain & last_two_ranks(us)).is_empty() {
                plain &= !self.dead(own, Some(from));
            }
            let group = Group::Board {
                from,
                promote,
                plain,
            };
            if !group.is_empty() && visit(group) {
                return true;
            }
        }
        false
    }

    fn drops(&self, visit: &mut impl FnMut(Group) -> bool) -> bool {
        let hand = &self.state.hands[self.us.index()];
        let Some(any_kind) = HAND_KINDS.into_iter().find(|kind| hand[kind.index()] > 0) else {
            return false;
        };
        let empty = !self.occupied;
        // A drop only blocks and lends its movement to the own piece in front: it
        // exposes nothing, and in check it must block a line to the king. Which
        // kind is dropped makes no difference to that.
        let empty = empty & self.relevant;
        let squares = if self.in_check {
            self.safe(empty & self.answers, |to| AnnanMove::drop(any_kind, to))
        } else {
            empty
        };
        for kind in HAND_KINDS.into_iter().rev() {
            if hand[kind.index()] == 0 {
                continue;
            }
            let mut to = squares;
            if may_be_dead(kind) {
                to &= !self.dead(kind, None);
            }
            if kind == Kind::Pawn {
                to = self.without_pawn_mates(to & !self.pawn_files);
            }
            if visit(Group::Drop { kind, to }) {
                return true;
            }
        }
        false
    }

    /// `squares` without the pawn drops that mate, read literally: the opponent
    /// in check with no legal move.
    fn without_pawn_mates(&self, squares: Bitboard) -> Bitboard {
        let (us, them) = (self.us, self.us.other());
        let Some(king) = self.state.kings[them.index()] else {
            return squares;
        };
        // The pawn checks by its own step, by what it borrows from an own piece
        // behind it (along a line or by a knight's jump), or through the own piece
        // in front of it, which now steps like a pawn.
        let pawn_step = behind(king.bit(), us);
        let checks =
            (self.backed & (lines(king) | knight_apart(king))) | pawn_step | behind(pawn_step, us);
        (squares & checks)
            .filter(|&to| {
                let mut after = *self.state;
                after.apply(AnnanMove::drop(Kind::Pawn, to), us);
                after.in_check(them) && !has_legal_move(&after, them, self.rules)
            })
            .fold(squares, |squares, to| squares ^ to.bit())
    }
}

/// Own pieces first on a line from the own king with an opponent piece next on
/// it that slides back along the line, by its movement now or by its own kind
/// (which it regains if its back piece is captured).
fn pinned(state: &State, us: Seat, king: Square) -> Bitboard {
    let them = us.other();
    let occupied = state.all();
    let mut pinned = Bitboard::EMPTY;
    for d in 0..8 {
        let Some(first) = next_on_ray(d, king, occupied) else {
            continue;
        };
        if !state.occupied[us.index()].has(first) {
            continue;
        }
        let Some(second) = next_on_ray(d, first, occupied) else {
            continue;
        };
        if state.at(second).is(them)
            && (slides_back_along(them, state.movement(second), d)
                || slides_back_along(them, state.at(second).kind(), d))
        {
            pinned |= first.bit();
        }
    }
    pinned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annan::{Annan, START_SFEN};
    use crate::core::{Game, HouseRules, MoveList, Notation};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The legal moves by the rules' words: every displacement and drop tried on
    /// a copy, nothing skipped.
    fn reference(state: &State, us: Seat, rules: &AnnanRules) -> Vec<AnnanMove> {
        let them = us.other();
        // Only a piece that could never move by its own kind is concerned; under
        // `support` it may still stand where the movement it then borrows moves.
        let dead = |after: &State, own: Kind, to: Square| {
            let stuck = |kind| attacks(us, kind, to, Bitboard::EMPTY).is_empty();
            may_be_dead(own)
                && stuck(own)
                && match rules.dead_piece {
                    DeadPiece::Forbid => true,
                    DeadPiece::Support => stuck(after.movement(to)),
                }
        };
        let has_pawn = |col: u8| {
            (0..9).any(|row| state.at(Square::new(row, col)) == Piece::new(us, Kind::Pawn))
        };
        let mut moves = Vec::new();
        for from in Square::all().filter(|&sq| state.at(sq).is(us)) {
            let own = state.at(from).kind();
            let targets = attacks(us, state.movement(from), from, state.all());
            for to in targets & !state.occupied[us.index()] {
                let mv = AnnanMove::board(from, to, false);
                let mut after = *state;
                after.apply(mv, us);
                if after.in_check(us) {
                    continue;
                }
                if own.can_promote() && (zone(us).has(from) || zone(us).has(to)) {
                    moves.push(AnnanMove::board(from, to, true));
                }
                let two_pawns = own == Kind::Pawn && from.col() != to.col() && has_pawn(to.col());
                if !two_pawns && !dead(&after, own, to) {
                    moves.push(mv);
                }
            }
        }
        for kind in HAND_KINDS
            .into_iter()
            .filter(|k| state.hands[us.index()][k.index()] > 0)
        {
            for to in !state.all() {
                let mv = AnnanMove::drop(kind, to);
                let mut after = *state;
                after.apply(mv, us);
                let pawn_mate = || {
                    kind == Kind::Pawn
                        && after.in_check(them)
                        && reference(&after, them, rules).is_empty()
                };
                if after.in_check(us)
                    || (kind == Kind::Pawn && has_pawn(to.col()))
                    || dead(&after, kind, to)
                    || pawn_mate()
                {
                    continue;
                }
                moves.push(mv);
            }
        }
        moves.sort_by_key(|mv| format!("{mv:?}"));
        moves
    }

    #[test]
    fn a_check_by_borrowed_movement_is_answered_by_taking_the_lender() {
        // White's pawn on 4h checks as the bishop behind it moves: taking the
        // bishop, neither a checker nor on a line between, ends the check.
        let rules = AnnanRules::default();
        let pos = Annan::from_sfen("8k/9/5R3/9/9/9/5b3/5p3/4K4 b - 1", &rules).unwrap();
        assert!(pos.in_check());
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&mv| pos.format_move(mv)).collect();
        assert!(names.contains(&"4c4g".to_string()), "{names:?}");
        let mut sorted = moves.to_vec();
        sorted.sort_by_key(|mv| format!("{mv:?}"));
        assert_eq!(sorted, reference(pos.state(), pos.side_to_move(), &rules));
    }

    #[test]
    fn generation_and_counting_agree_with_the_rules_word_for_word() {
        let starts = [
            START_SFEN,
            "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
            "7lk/7pB/9/9/9/9/9/9/4K4 b P 1",
            "8k/9/8G/9/9/9/9/9/K8 b P 1",
            "k8/3PS4/3G5/9/9/9/9/9/8K b NL2P 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b RBrb 1",
            "k8/4r4/4p4/9/7B1/9/4K4/9/9 b 2P 1",
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut positions, mut checks) = (0, 0);
        for dead_piece in ["support", "forbid"] {
            let mut rules = AnnanRules::default();
            rules.set("AnnanDeadPiece", dead_piece).unwrap();
            for (game, sfen) in starts.iter().cycle().take(48).enumerate() {
                let mut pos = Annan::from_sfen(sfen, &rules).unwrap();
                for _ in 0..120 {
                    let mut moves = MoveList::new();
                    pos.generate_moves(&mut moves);
                    let mut sorted: Vec<AnnanMove> = moves.to_vec();
                    sorted.sort_by_key(|mv| format!("{mv:?}"));
                    let (state, us) = (pos.state(), pos.side_to_move());
                    let at = || format!("{} ({dead_piece}, game {game})", pos.sfen());
                    assert_eq!(sorted, reference(state, us, &rules), "{}", at());
                    assert_eq!(pos.count_moves(), moves.len() as u64, "{}", at());
                    assert_eq!(has_legal_move(state, us, &rules), !moves.is_empty());
                    positions += 1;
                    checks += pos.in_check() as usize;
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(
            positions > 5_000 && checks > 100,
            "{positions} positions, {checks} in check"
        );
    }
}
