//! Static evaluation for the multi-player searchers: per seat, material with
//! hands, king safety against each opponent, the threat of elimination, the
//! rule-17 total, mobility and the pieces an opponent can win, each seat from
//! its own point of view.

use super::piece::{Kind, CROSS, KING_STEPS, NEAR};
use super::position::Yonin;
use super::state::{State, YoninMove};
use crate::core::board9::Bitboard;
use crate::core::{Game, PerSeat, Seat};
use crate::search::Value;
use crate::tune::{Params, Tunable};

// The evaluation's tunables (docs/protocol.md, "Tunables"), tuned in three
// rounds, the first two with the multi-player search's quiescence and
// reductions (docs/match.md, "Tuning runs"). First from the hand-set values,
// by `match tune --game yonin --iterations 400 --games 8 --nodes 10000 --seed
// 9101 --concurrency 2 --max-plies 400 --a 30 --params
// tools/tune/yonin.params` (3 200 games), verified at 100 ms a move against
// three untuned engines, seats rotated (160 games, seed 31337): +30.5 ± 36.8
// Elo against the field. Then from those, by
// `match tune --game yonin --iterations 300 --games 8 --nodes 20000 --seed 9102
// --concurrency 2 --max-plies 400 --a 30 --params
// tools/tune/yonin-round2.params` (2 400 games), verified against three
// engines of the first round: +23.2 ± 32.5 at 20 000 nodes a move (200 games,
// seed 4501) and +19.1 ± 32.2 at 100 ms a move (200 games, seed 31338).
// Then with the hanging-piece terms, whose hand-set weights `match tune
// --params tools/tune/yonin-hanging.params --iterations 150 --seed 9103` (same
// settings, 1 200 games) had raised to 55 and 21 (+19.7 ± 34.3 at 100 ms
// against three second-round engines, 200 games, seed 31341, although each
// node costs a fifth more), by `match tune --game yonin --iterations 400
// --games 8 --nodes 20000 --seed 9104 --concurrency 2 --max-plies 400 --a 30
// --params tools/tune/yonin-round3.params` (3 200 games, 19 min), verified at
// 100 ms a move against three second-round engines: +13.9 ± 34.2 (200 games,
// seed 31342); and against three engines of `c4b0220`, before any tuning or
// the Yonin speed-up: +46.6 ± 31.4 and +44.2 ± 32.5 (200 games each, seeds
// 31343 and 31344). Last, mobility, from 4 by `match tune --iterations 150
// --seed 9105 --params tools/tune/yonin-mobility.params` (same settings,
// 1 200 games) to 4.7: +22.0 ± 34.8 at 20 000 nodes a move (seed 6301) and
// +18.5 ± 32.4 at 100 ms (seed 31345) against three third-round engines, 200
// games each. Then a fourth round over every weight from those values, by
// `match tune --game yonin --iterations 400 --games 8 --nodes 20000 --seed
// 9106 --concurrency 2 --max-plies 400 --a 30 --params
// tools/tune/yonin-round4.params` (3 200 games, 16 min): +29.6 ± 33.3 at
// 100 ms against three engines with the values before (200 games, seed
// 31350); against three engines of `c4b0220` +78.3 ± 26.8 (400 games, seed
// 31351).
/// The evaluator: its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YoninEval {
    /// Board values by kind, in `Kind::ALL` order (the king counts only
    /// through safety and totals, and the pawn is the unit: neither is tuned).
    pub board: [Value; 8],
    /// In hand a piece is worth a little more: it can go anywhere (`Kind::HAND` order).
    pub hand: [Value; 4],
    /// Each piece counts toward the rule-17 total, the places tie-break.
    pub per_piece: i32,
    /// A checkmate made is a step up the places.
    pub per_mate: i32,
    /// King safety: per defender next to the king (up to four), per square
    /// next to it an opponent attacks, per open flight square (up to four),
    /// per checker, and when in check with at most one flight.
    pub king_defender: i32,
    pub king_pressure: i32,
    pub king_flight: i32,
    pub checker: i32,
    pub nearly_mated: i32,
    /// A piece an opponent can win (unguarded, or guarded but attacked by a
    /// cheaper piece), in percent of what its owner would lose: the largest
    /// such loss, and the second (a fork). The seat to move saves its largest
    /// by moving.
    pub hanging: i32,
    pub hanging_second: i32,
    /// Per square a seat's pieces attack (its mobility, roughly).
    pub mobility: i32,
}

impl Default for YoninEval {
    fn default() -> Self {
        YoninEval {
            board: [0, 191, 619, 573, 100, 1050, 467, 622],
            hand: [1132, 676, 501, 50],
            per_piece: 3,
            per_mate: 379,
            king_defender: 11,
            king_pressure: 39,
            king_flight: 20,
            checker: 166,
            nearly_mated: 251,
            hanging: 78,
            hanging_second: 50,
            mobility: 6,
        }
    }
}

impl Params for YoninEval {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_YoninRook", 50, 4000, |e| &mut e.board[1]),
        Tunable::new("Tune_YoninGold", 50, 4000, |e| &mut e.board[2]),
        Tunable::new("Tune_YoninSilver", 50, 4000, |e| &mut e.board[3]),
        Tunable::new("Tune_YoninDragon", 50, 4000, |e| &mut e.board[5]),
        Tunable::new("Tune_YoninProSilver", 50, 4000, |e| &mut e.board[6]),
        Tunable::new("Tune_YoninTokin", 50, 4000, |e| &mut e.board[7]),
        Tunable::new("Tune_YoninHandRook", 50, 4000, |e| &mut e.hand[0]),
        Tunable::new("Tune_YoninHandGold", 50, 4000, |e| &mut e.hand[1]),
        Tunable::new("Tune_YoninHandSilver", 50, 4000, |e| &mut e.hand[2]),
        Tunable::new("Tune_YoninHandPawn", 20, 1000, |e| &mut e.hand[3]),
        Tunable::new("Tune_YoninPerPiece", 0, 200, |e| &mut e.per_piece),
        Tunable::new("Tune_YoninPerMate", 0, 10_000, |e| &mut e.per_mate),
        Tunable::new("Tune_YoninKingDefender", 0, 200, |e| &mut e.king_defender),
        Tunable::new("Tune_YoninKingPressure", 0, 300, |e| &mut e.king_pressure),
        Tunable::new("Tune_YoninKingFlight", 0, 200, |e| &mut e.king_flight),
        Tunable::new("Tune_YoninChecker", 0, 1000, |e| &mut e.checker),
        Tunable::new("Tune_YoninNearlyMated", 0, 4000, |e| &mut e.nearly_mated),
        Tunable::new("Tune_YoninHanging", 0, 100, |e| &mut e.hanging),
        Tunable::new("Tune_YoninHangingSecond", 0, 100, |e| &mut e.hanging_second),
        Tunable::new("Tune_YoninMobility", 0, 100, |e| &mut e.mobility),
    ];
}

/// An eliminated seat keeps only its place; later eliminations rank higher.
const ELIMINATED: Value = -12_000;

/// The material `mv` wins at once: the captured piece (to the hand) and the
/// promotion.
pub fn gain(state: &State, mv: YoninMove, eval: &YoninEval) -> Value {
    let mut gain = 0;
    if let Some(from) = mv.from() {
        let captured = state.at(mv.to());
        if !captured.is_none() {
            gain += eval.board[captured.kind().index()]
                + eval.hand[captured.kind().unpromoted().hand_index()];
        }
        if mv.promotes() {
            let kind = state.at(from).kind();
            gain += eval.board[kind.promoted().index()] - eval.board[kind.index()];
        }
    }
    gain
}

/// The piece values of a [`YoninEval`], with the cheapest capturer worked out.
pub(super) struct PieceValues {
    pub(super) board: [Value; 8],
    hand: [Value; 4],
    /// The lowest board value of a piece that can capture (not the king).
    cheapest: Value,
}

impl PieceValues {
    pub(super) fn of(eval: &YoninEval) -> PieceValues {
        let board = eval.board;
        PieceValues {
            board,
            hand: eval.hand,
            cheapest: board[1..].iter().copied().min().unwrap_or(0),
        }
    }

    fn material(&self, state: &State, seat: Seat) -> Value {
        let counts = &state.counts[seat];
        let hand = &state.hands[seat];
        let board: Value = (0..8).map(|k| self.board[k] * counts[k] as Value).sum();
        let in_hand: Value = (0..4).map(|h| self.hand[h] * hand[h] as Value).sum();
        board + in_hand
    }
}

/// The two largest losses `seat` faces from pieces the other live seats can
/// win, given the whole maps of what it guards and what they attack: the
/// board value of an unguarded piece, the difference to the cheapest attacker
/// for a guarded one (a king takes only unguarded pieces).
pub(super) fn hanging_losses(
    state: &State,
    seat: Seat,
    guarded: Bitboard,
    attacked: Bitboard,
    values: &PieceValues,
) -> [Value; 2] {
    let own = state.by_owner[seat];
    let enemies = state.others(seat);
    let mut losses = [0 as Value; 2];
    for sq in own & attacked & !state.by_kind[Kind::King.index()] {
        let value = values.board[state.at(sq).kind().index()];
        let loss = match guarded.has(sq) {
            false => value,
            // No attacker is cheaper (most such pieces are pawns).
            true if value <= values.cheapest => 0,
            true => {
                let cheapest = state
                    .attackers(sq, enemies)
                    .into_iter()
                    .map(|a| match state.at(a).kind() {
                        Kind::King => Value::MAX,
                        kind => values.board[kind.index()],
                    })
                    .min()
                    .unwrap_or(Value::MAX);
                value.saturating_sub(cheapest).max(0)
            }
        };
        if loss > losses[0] {
            losses = [loss, losses[0]];
        } else if loss > losses[1] {
            losses[1] = loss;
        }
    }
    losses
}

/// Per live seat, the squares it attacks (empty for eliminated seats). Unless
/// `whole`, only next to the other live kings and on them (elsewhere the map
/// may be short): only its pieces within two squares of another live king,
/// and its rooks and dragons on the ranks and files through that king's
/// neighbourhood, can reach one; its own king's neighbourhood, where most of
/// its pieces stand, is never asked about.
pub(super) fn attack_maps(state: &State, whole: bool) -> PerSeat<Bitboard> {
    let sliders = state.sliders();
    let reach_king = |seat: Seat| match state.is_alive(seat) {
        true => {
            let king = state.kings[seat].index();
            NEAR[king] | CROSS[king] & sliders
        }
        false => Bitboard::EMPTY,
    };
    let reach = PerSeat::from_fn(reach_king);
    PerSeat::from_fn(|seat| {
        let mut map = Bitboard::EMPTY;
        if state.is_alive(seat) {
            let others = match whole {
                true => Bitboard::FULL,
                false => union_of_others(&reach, seat),
            };
            for sq in state.by_owner[seat] & others {
                map |= state.attacks_of(state.at(sq), sq);
            }
        }
        map
    })
}

/// The union of the other seats' sets in `per_seat` (what they attack, or
/// where they could reach a king).
pub(super) fn union_of_others(per_seat: &PerSeat<Bitboard>, seat: Seat) -> Bitboard {
    (1..4).fold(Bitboard::EMPTY, |bb, i| bb | per_seat[seat.after(i, 4)])
}

/// King safety of a live seat: squares around its king attacked by each
/// opponent (`attacked` by them together), open flight squares, defenders, and
/// whether it stands in check with few flights. Also returns the seat that
/// would inherit if the king is nearly mated.
fn king_safety(
    state: &State,
    seat: Seat,
    maps: &PerSeat<Bitboard>,
    attacked: Bitboard,
    eval: &YoninEval,
) -> (Value, Option<Seat>) {
    let king = state.kings[seat];
    let own = state.by_owner[seat];
    let zone = KING_STEPS[king.index()];
    let pressure: Value = (1..4)
        .map(|i| (zone & maps[seat.after(i, 4)]).count() as Value)
        .sum();
    let blockers = own | state.by_kind[Kind::King.index()];
    let flights = (zone & !attacked & !blockers).count() as Value;
    let defenders = (zone & own).count() as Value;
    let mut value = eval.king_defender * defenders.min(4) - eval.king_pressure * pressure
        + eval.king_flight * flights.min(4);
    let mut heir = None;
    if attacked.has(king) {
        let checkers = state.attackers(king, state.others(seat));
        value -= eval.checker * checkers.count() as Value;
        if flights <= 1 {
            // Near elimination: what it owns would pass to the checker.
            value -= eval.nearly_mated;
            heir = checkers.into_iter().next().map(|sq| state.at(sq).owner());
        }
    }
    (value, heir)
}

pub fn evaluate_all(pos: &Yonin, eval: &YoninEval) -> PerSeat<Value> {
    let state = pos.state();
    let out = pos.eliminations();
    let totals = pos.totals();
    let (hanging, hanging_second) = (eval.hanging, eval.hanging_second);
    let mobility = eval.mobility;
    let weighs_hanging = hanging | hanging_second != 0;
    let maps = attack_maps(state, weighs_hanging || mobility != 0);
    let values = PieceValues::of(eval);
    let mover = pos.side_to_move();
    let mut raw = PerSeat::splat(0 as Value);
    for seat in Seat::all(4) {
        if !state.is_alive(seat) {
            continue;
        }
        let material = values.material(state, seat);
        let attacked = union_of_others(&maps, seat);
        let (safety, heir) = king_safety(state, seat, &maps, attacked, eval);
        raw[seat] += material
            + safety
            + eval.per_mate * out.mates_by(seat) as Value
            + eval.per_piece * totals[seat] as Value
            + mobility * maps[seat].count() as Value;
        if weighs_hanging {
            let guarded = maps[seat];
            let [largest, second] = hanging_losses(state, seat, guarded, attacked, &values);
            raw[seat] -= match seat == mover {
                true => hanging * second,
                false => hanging * largest + hanging_second * second,
            } / 100;
        }
        if let Some(heir) = heir {
            // A share of the expected inheritance and of the mate itself.
            raw[heir] += (material + eval.per_mate) / 4;
        }
    }
    let alive = state.alive.count_ones() as Value;
    let sum: Value = Seat::all(4)
        .filter(|&s| state.is_alive(s))
        .map(|s| raw[s])
        .sum();
    let mut values = PerSeat::splat(0 as Value);
    for seat in Seat::all(4) {
        values[seat] = if state.is_alive(seat) {
            // Against the average live opponent.
            let others = sum - raw[seat];
            raw[seat] - others / (alive - 1).max(1)
        } else {
            let order = out.as_slice().iter().position(|e| e.0 == seat).unwrap_or(0) as Value;
            ELIMINATED + 1000 * order
        };
    }
    values
}
