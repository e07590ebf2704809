//! Annan evaluation and the hooks alpha-beta needs.

use super::attacks::attacks;
use super::piece::{Kind, HAND_KINDS};
use super::position::Annan;
use super::state::AnnanMove;
use crate::core::board9::Bitboard;
use crate::core::Game;
use crate::profile::{Levels, Profile};
use crate::search::alphabeta::AlphaBetaParams;
use crate::search::{TwoPlayerGame, Value};
use crate::session::Playable;
use crate::tune::{Params, Tunable};

// The evaluation's tunables (docs/protocol.md, "Tunables"). Tuned by `match
// tune --game annan --iterations 200 --games 8 --nodes 8000 --seed 9202
// --concurrency 2 --a 30 --params tools/tune/annan.params` (from the hand-set
// values; 1 600 games). Verified at 100 ms a move against the untuned values
// (200 games, seed 41414): +72.2 ± 46.4 Elo, LOS 99.9 % (docs/match.md,
// "Tuning runs").
/// The evaluator: its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnnanEval {
    /// Material by kind (pawn … dragon), in hundredths of a pawn: the pawn is
    /// the unit and the king is not counted, so neither is tuned.
    pub material: [Value; 14],
    /// A piece in hand is worth a little more than on the board: it can go anywhere.
    pub hand_bonus_percent: i32,
    /// What a piece gains or loses by the movement it borrows, as a share of the
    /// difference between the borrowed and its own kind's material.
    pub support_share_percent: i32,
    /// Per own piece next to the own king.
    pub king_shelter: i32,
    /// Per square a piece can move to (its borrowed movement counts).
    pub mobility: i32,
    /// Per square next to the own king that the opponent attacks.
    pub king_danger: i32,
}

impl Default for AnnanEval {
    fn default() -> Self {
        AnnanEval {
            material: [
                100, 289, 305, 531, 696, 819, 1091, 0, 440, 563, 684, 711, 989, 1343,
            ],
            hand_bonus_percent: 12,
            support_share_percent: 27,
            king_shelter: 10,
            mobility: 7,
            king_danger: 23,
        }
    }
}

impl Params for AnnanEval {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_AnnanLance", 50, 2000, |e| &mut e.material[1]),
        Tunable::new("Tune_AnnanKnight", 50, 2000, |e| &mut e.material[2]),
        Tunable::new("Tune_AnnanSilver", 50, 2000, |e| &mut e.material[3]),
        Tunable::new("Tune_AnnanGold", 50, 2000, |e| &mut e.material[4]),
        Tunable::new("Tune_AnnanBishop", 50, 3000, |e| &mut e.material[5]),
        Tunable::new("Tune_AnnanRook", 50, 3000, |e| &mut e.material[6]),
        Tunable::new("Tune_AnnanTokin", 50, 2000, |e| &mut e.material[8]),
        Tunable::new("Tune_AnnanPromotedLance", 50, 2000, |e| &mut e.material[9]),
        Tunable::new("Tune_AnnanPromotedKnight", 50, 2000, |e| {
            &mut e.material[10]
        }),
        Tunable::new("Tune_AnnanPromotedSilver", 50, 2000, |e| {
            &mut e.material[11]
        }),
        Tunable::new("Tune_AnnanHorse", 50, 3000, |e| &mut e.material[12]),
        Tunable::new("Tune_AnnanDragon", 50, 3000, |e| &mut e.material[13]),
        Tunable::new("Tune_AnnanHandBonusPercent", -50, 100, |e| {
            &mut e.hand_bonus_percent
        }),
        Tunable::new("Tune_AnnanSupportSharePercent", 0, 100, |e| {
            &mut e.support_share_percent
        }),
        Tunable::new("Tune_AnnanKingShelter", 0, 200, |e| &mut e.king_shelter),
        Tunable::new("Tune_AnnanMobility", 0, 50, |e| &mut e.mobility),
        Tunable::new("Tune_AnnanKingDanger", 0, 300, |e| &mut e.king_danger),
    ];
}

impl AnnanEval {
    #[inline]
    fn material(&self, kind: Kind) -> Value {
        self.material[kind.index()]
    }
}

impl Annan {
    /// Material (support and hands included), mobility and king safety of `color`,
    /// and the squares its pieces attack.
    fn side_terms(&self, color: crate::core::Seat, eval: &AnnanEval) -> (Value, Bitboard) {
        let state = self.state();
        let all = state.all();
        let mut total = 0;
        let mut attacked = Bitboard::EMPTY;
        for sq in state.occupied[color.index()] {
            let piece = state.at(sq);
            let own = eval.material(piece.kind());
            let moves_as = state.movement(sq);
            total += own;
            // What a piece is worth depends on what stands behind it.
            if moves_as != piece.kind() && moves_as != Kind::King {
                total += (eval.material(moves_as) - own) * eval.support_share_percent / 100;
            }
            let reach = attacks(color, moves_as, sq, all);
            attacked |= reach;
            total += (reach & !state.occupied[color.index()]).count() as Value * eval.mobility;
        }
        for kind in HAND_KINDS {
            let n = state.hands[color.index()][kind.index()] as Value;
            total += n * eval.material(kind) * (100 + eval.hand_bonus_percent) / 100;
        }
        if let Some(king) = state.kings[color.index()] {
            let around = attacks(color, Kind::King, king, all);
            total += (around & state.occupied[color.index()]).count() as Value * eval.king_shelter;
        }
        (total, attacked)
    }
}

impl TwoPlayerGame for Annan {
    /// Late move reductions measured no gain (+0 ± 62 Elo, 100 games at 100 ms
    /// a move), and null-move pruning a loss (−28 ± 47), so Annan has neither
    /// (no `make_null`).
    const LATE_MOVE_REDUCTIONS: bool = false;
    const SEARCH: AlphaBetaParams = AlphaBetaParams::UNTUNED;
    type Eval = AnnanEval;

    fn evaluate(&self, eval: &AnnanEval) -> Value {
        let us = self.side_to_move();
        let (ours, our_reach) = self.side_terms(us, eval);
        let (theirs, their_reach) = self.side_terms(us.other(), eval);
        let danger = |color: crate::core::Seat, reach: Bitboard| {
            self.state().kings[color.index()].map_or(0, |king| {
                (attacks(color, Kind::King, king, Bitboard::EMPTY) & reach).count() as Value
                    * eval.king_danger
            })
        };
        ours - theirs - danger(us, their_reach) + danger(us.other(), our_reach)
    }

    fn in_check(&self) -> bool {
        self.state().in_check(self.side_to_move())
    }

    fn mates_in_one(&self) -> bool {
        self.mate_in_one().is_some()
    }

    fn gain(&self, mv: AnnanMove, eval: &AnnanEval) -> Value {
        let captured = if mv.from().is_some() {
            self.state().at(mv.to())
        } else {
            super::piece::Piece::NONE
        };
        let taken = if captured.is_none() {
            0
        } else {
            // Taken off the board and into the hand.
            eval.material(captured.kind()) + eval.material(captured.kind().unpromoted())
        };
        let promotion = match (mv.promotes(), mv.from()) {
            (true, Some(from)) => {
                let kind = self.state().at(from).kind();
                eval.material(kind.promoted()) - eval.material(kind)
            }
            _ => 0,
        };
        taken + promotion
    }

    #[inline]
    fn is_tactical(&self, mv: AnnanMove) -> bool {
        mv.promotes() || (mv.from().is_some() && !self.state().at(mv.to()).is_none())
    }
}

impl Playable for Annan {
    fn immediate_gain(&self, mv: Self::Move) -> i64 {
        crate::search::TwoPlayerGame::gain(self, mv, &AnnanEval::default()).into()
    }
    type Searcher = crate::search::alphabeta::AlphaBeta<AnnanEval>;

    const PROFILE: Profile = Profile {
        bench: &[
            super::position::START_SFEN,
            "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
            "7lk/7pB/9/9/9/9/9/9/4K4 b P 1",
        ],
        bench_depth: 6,
        perft_bench: &[
            (super::position::START_SFEN, 5),
            (
                "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
                4,
            ),
        ],
        mate_solver: true,
        levels: Levels {
            // Strength grows steadily and steeply with the nodes read: twenty levels
            // took steps up to 151 Elo, so more of them.
            count: 26,
            // Measured: docs/cpu-seats.md (`match ladder`, 200 games a pair, 2026-12-03).
            elo: &[
                1057, 1138, 1174, 1310, 1425, 1497, 1563, 1623, 1672, 1710, 1758, 1839, 1924, 1994,
                2084, 2095, 2147, 2206, 2306, 2401, 2493, 2581, 2687, 2801, 2893, 2949, 3034,
            ],
            // Level 0 must lose to a one-ply greedy player (docs/cpu-seats.md).
            noise: 450,
            blind_permille: 500,
            ..Levels::UNMEASURED
        },
        ..Profile::new("annan", super::position::START_SFEN)
    };

    /// A df-pn solver: see `mate.rs`.
    fn mate(
        &self,
        limits: &crate::search::Limits<AnnanMove>,
        control: &crate::search::SearchControl,
        scratch: &crate::search::tables::Scratch,
        goal: crate::session::MateGoal,
    ) -> crate::session::MateAnswer<AnnanMove> {
        super::mate::solve(self, limits, control, scratch, goal)
    }
}
