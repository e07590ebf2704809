//! Annan evaluation and the hooks alpha-beta needs.

use super::attacks::attacks;
use super::piece::{Kind, HAND_KINDS};
use super::position::Annan;
use super::state::AnnanMove;
use crate::core::board9::Bitboard;
use crate::core::Game;
use crate::search::alphabeta::{AlphaBetaDefaults, AlphaBetaParams};
use crate::search::{TwoPlayerGame, Value};
use crate::session::Playable;
use crate::tune::Tunable;

// The evaluation's tunables (docs/protocol.md, "Tunables"). Tuned by `match
// tune --game annan --iterations 200 --games 8 --nodes 8000 --seed 9202
// --concurrency 2 --a 30 --params tools/tune/annan.params` (from the hand-set
// values; 1 600 games). Verified at 100 ms a move against the untuned values
// (200 games, seed 41414): +72.2 ± 46.4 Elo, LOS 99.9 % (docs/match.md,
// "Tuning runs").
/// Material by kind (pawn … dragon), in hundredths of a pawn: the pawn is the
/// unit and the king is not counted, so neither is tuned.
static MATERIAL: [Tunable; 14] = [
    Tunable::new("Tune_AnnanPawn", 100, 100, 100),
    Tunable::new("Tune_AnnanLance", 289, 50, 2000),
    Tunable::new("Tune_AnnanKnight", 305, 50, 2000),
    Tunable::new("Tune_AnnanSilver", 531, 50, 2000),
    Tunable::new("Tune_AnnanGold", 696, 50, 2000),
    Tunable::new("Tune_AnnanBishop", 819, 50, 3000),
    Tunable::new("Tune_AnnanRook", 1091, 50, 3000),
    Tunable::new("Tune_AnnanKing", 0, 0, 0),
    Tunable::new("Tune_AnnanTokin", 440, 50, 2000),
    Tunable::new("Tune_AnnanPromotedLance", 563, 50, 2000),
    Tunable::new("Tune_AnnanPromotedKnight", 684, 50, 2000),
    Tunable::new("Tune_AnnanPromotedSilver", 711, 50, 2000),
    Tunable::new("Tune_AnnanHorse", 989, 50, 3000),
    Tunable::new("Tune_AnnanDragon", 1343, 50, 3000),
];
/// A piece in hand is worth a little more than on the board: it can go anywhere.
static HAND_BONUS_PERCENT: Tunable = Tunable::new("Tune_AnnanHandBonusPercent", 12, -50, 100);
/// What a piece gains or loses by the movement it borrows, as a share of the
/// difference between the borrowed and its own kind's material.
static SUPPORT_SHARE_PERCENT: Tunable = Tunable::new("Tune_AnnanSupportSharePercent", 27, 0, 100);
/// Per own piece next to the own king.
static KING_SHELTER: Tunable = Tunable::new("Tune_AnnanKingShelter", 10, 0, 200);
/// Per square a piece can move to (its borrowed movement counts).
static MOBILITY: Tunable = Tunable::new("Tune_AnnanMobility", 7, 0, 50);
/// Per square next to the own king that the opponent attacks.
static KING_DANGER: Tunable = Tunable::new("Tune_AnnanKingDanger", 23, 0, 300);

/// Every tunable of the evaluation.
pub static TUNABLES: &[&Tunable] = &[
    &MATERIAL[1],
    &MATERIAL[2],
    &MATERIAL[3],
    &MATERIAL[4],
    &MATERIAL[5],
    &MATERIAL[6],
    &MATERIAL[8],
    &MATERIAL[9],
    &MATERIAL[10],
    &MATERIAL[11],
    &MATERIAL[12],
    &MATERIAL[13],
    &HAND_BONUS_PERCENT,
    &SUPPORT_SHARE_PERCENT,
    &KING_SHELTER,
    &MOBILITY,
    &KING_DANGER,
];

#[inline]
fn material(kind: Kind) -> Value {
    MATERIAL[kind.index()].get()
}

impl Annan {
    /// Material (support and hands included), mobility and king safety of `color`,
    /// and the squares its pieces attack.
    fn side_terms(&self, color: crate::core::Seat) -> (Value, Bitboard) {
        let state = self.state();
        let all = state.all();
        let mut total = 0;
        let mut attacked = Bitboard::EMPTY;
        for sq in state.occupied[color as usize] {
            let piece = state.at(sq);
            let own = material(piece.kind());
            let moves_as = state.movement(sq);
            total += own;
            // What a piece is worth depends on what stands behind it.
            if moves_as != piece.kind() && moves_as != Kind::King {
                total += (material(moves_as) - own) * SUPPORT_SHARE_PERCENT.get() / 100;
            }
            let reach = attacks(color, moves_as, sq, all);
            attacked |= reach;
            total += (reach & !state.occupied[color as usize]).count() as Value * MOBILITY.get();
        }
        for kind in HAND_KINDS {
            let n = state.hands[color as usize][kind.index()] as Value;
            total += n * material(kind) * (100 + HAND_BONUS_PERCENT.get()) / 100;
        }
        if let Some(king) = state.kings[color as usize] {
            let around = attacks(color, Kind::King, king, all);
            total +=
                (around & state.occupied[color as usize]).count() as Value * KING_SHELTER.get();
        }
        (total, attacked)
    }
}

/// The alpha-beta search's tunables for this game.
static SEARCH: AlphaBetaParams = AlphaBetaParams::new(AlphaBetaDefaults::UNTUNED);

impl TwoPlayerGame for Annan {
    /// Late move reductions measured no gain (+0 ± 62 Elo, 100 games at 100 ms
    /// a move), and null-move pruning a loss (−28 ± 47), so Annan has neither
    /// (no `make_null`).
    const LATE_MOVE_REDUCTIONS: bool = false;

    fn search_params() -> &'static AlphaBetaParams {
        &SEARCH
    }

    fn evaluate(&self) -> Value {
        let us = self.side_to_move();
        let (ours, our_reach) = self.side_terms(us);
        let (theirs, their_reach) = self.side_terms(us ^ 1);
        let danger = |color: crate::core::Seat, reach: Bitboard| {
            self.state().kings[color as usize].map_or(0, |king| {
                (attacks(color, Kind::King, king, Bitboard::EMPTY) & reach).count() as Value
                    * KING_DANGER.get()
            })
        };
        ours - theirs - danger(us, their_reach) + danger(us ^ 1, our_reach)
    }

    fn in_check(&self) -> bool {
        self.state().in_check(self.side_to_move())
    }

    fn mates_in_one(&self) -> bool {
        self.mate_in_one().is_some()
    }

    fn gain(&self, mv: AnnanMove) -> Value {
        let captured = if mv.from().is_some() {
            self.state().at(mv.to())
        } else {
            super::piece::Piece::NONE
        };
        let taken = if captured.is_none() {
            0
        } else {
            // Taken off the board and into the hand.
            material(captured.kind()) + material(captured.kind().unpromoted())
        };
        let promotion = match (mv.promotes(), mv.from()) {
            (true, Some(from)) => {
                let kind = self.state().at(from).kind();
                material(kind.promoted()) - material(kind)
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
        crate::search::TwoPlayerGame::gain(self, mv).into()
    }
    fn readable_move(&self, mv: AnnanMove, kanji: bool) -> String {
        const LETTERS: [&str; 14] = [
            "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ];
        let state = self.state();
        let on = |sq| {
            Some(state.at(sq))
                .filter(|p| !p.is_none())
                .map(|p| p.kind())
        };
        crate::core::readable::ReadableMove::shogi(mv, on, |k| LETTERS[k.index()], kanji)
    }
    // Level 0 must lose to a one-ply greedy player (docs/cpu-seats.md).
    const LEVEL_NOISE: Value = 450;
    const LEVEL_BLIND_PERMILLE: u32 = 500;
    // Strength grows steadily and steeply with the nodes read: twenty levels
    // took steps up to 151 Elo, so more of them.
    const LEVELS: u32 = 26;
    // Measured: docs/cpu-seats.md (`match ladder`, 200 games a pair, 2026-12-03).
    const LEVEL_ELO: &'static [i32] = &[
        1057, 1138, 1174, 1310, 1425, 1497, 1563, 1623, 1672, 1710, 1758, 1839, 1924, 1994, 2084,
        2095, 2147, 2206, 2306, 2401, 2493, 2581, 2687, 2801, 2893, 2949, 3034,
    ];
    type Searcher = crate::search::alphabeta::AlphaBeta;

    fn eval_tunables() -> &'static [&'static Tunable] {
        TUNABLES
    }

    const BENCH_POSITIONS: &'static [&'static str] = &[
        super::position::START_SFEN,
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
        "7lk/7pB/9/9/9/9/9/9/4K4 b P 1",
    ];
    const BENCH_DEPTH: u32 = 6;
    const PERFT_BENCH: &'static [(&'static str, u32)] = &[
        (super::position::START_SFEN, 5),
        (
            "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
            4,
        ),
    ];

    const MATE_SOLVER: bool = true;

    /// A df-pn solver: see `mate.rs`.
    fn mate(
        &self,
        limits: &crate::search::Limits,
        control: &crate::search::SearchControl,
        scratch: &crate::search::tables::Scratch,
    ) -> crate::session::MateAnswer<AnnanMove> {
        super::mate::solve(self, limits, control, scratch)
    }
}
