//! Annan evaluation and the hooks alpha-beta needs.

use super::attacks::attacks;
use super::piece::{Kind, HAND_KINDS};
use super::position::Annan;
use super::state::AnnanMove;
use crate::core::board9::Bitboard;
use crate::core::Game;
use crate::search::{TwoPlayerGame, Value};
use crate::session::Playable;

/// Material by kind (pawn … dragon), in hundredths of a pawn.
const MATERIAL: [Value; 14] = [
    100, 300, 350, 500, 550, 800, 950, 0, 550, 550, 550, 550, 1050, 1200,
];
/// A piece in hand is worth a little more than on the board: it can go anywhere.
const HAND_BONUS_PERCENT: Value = 10;
/// What a piece gains or loses by the movement it borrows, as a share of the
/// difference between the borrowed and its own kind's material.
const SUPPORT_SHARE_PERCENT: Value = 15;
/// Per own piece next to the own king.
const KING_SHELTER: Value = 12;
/// Per square a piece can move to (its borrowed movement counts).
const MOBILITY: Value = 1;
/// Per square next to the own king that the opponent attacks.
const KING_DANGER: Value = 30;

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
            let own = MATERIAL[piece.kind().index()];
            let moves_as = state.movement(sq);
            total += own;
            // What a piece is worth depends on what stands behind it.
            if moves_as != piece.kind() && moves_as != Kind::King {
                total += (MATERIAL[moves_as.index()] - own) * SUPPORT_SHARE_PERCENT / 100;
            }
            let reach = attacks(color, moves_as, sq, all);
            attacked |= reach;
            total += (reach & !state.occupied[color as usize]).count() as Value * MOBILITY;
        }
        for kind in HAND_KINDS {
            let n = state.hands[color as usize][kind.index()] as Value;
            total += n * MATERIAL[kind.index()] * (100 + HAND_BONUS_PERCENT) / 100;
        }
        if let Some(king) = state.kings[color as usize] {
            let around = attacks(color, Kind::King, king, all);
            total += (around & state.occupied[color as usize]).count() as Value * KING_SHELTER;
        }
        (total, attacked)
    }
}

impl TwoPlayerGame for Annan {
    /// Late move reductions measured no gain (+0 ± 62 Elo, 100 games at 100 ms
    /// a move), and null-move pruning a loss (−28 ± 47), so Annan has neither
    /// (no `make_null`).
    const LATE_MOVE_REDUCTIONS: bool = false;

    fn evaluate(&self) -> Value {
        let us = self.side_to_move();
        let (ours, our_reach) = self.side_terms(us);
        let (theirs, their_reach) = self.side_terms(us ^ 1);
        let danger = |color: crate::core::Seat, reach: Bitboard| {
            self.state().kings[color as usize].map_or(0, |king| {
                (attacks(color, Kind::King, king, Bitboard::EMPTY) & reach).count() as Value
                    * KING_DANGER
            })
        };
        ours - theirs - danger(us, their_reach) + danger(us ^ 1, our_reach)
    }

    fn in_check(&self) -> bool {
        self.state().in_check(self.side_to_move())
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
            MATERIAL[captured.kind().index()] + MATERIAL[captured.kind().unpromoted().index()]
        };
        let promotion = match (mv.promotes(), mv.from()) {
            (true, Some(from)) => {
                let kind = self.state().at(from).kind();
                MATERIAL[kind.promoted().index()] - MATERIAL[kind.index()]
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
    type Searcher = crate::search::alphabeta::AlphaBeta;

    const BENCH_POSITIONS: &'static [&'static str] = &[
        super::position::START_SFEN,
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
        "7lk/7pB/9/9/9/9/9/9/4K4 b P 1",
    ];
    const BENCH_DEPTH: u32 = 6;

    const MATE_SOLVER: bool = true;

    /// A df-pn solver: see `mate.rs`.
    fn mate(
        &self,
        limits: &crate::search::Limits,
        control: &crate::search::SearchControl,
    ) -> crate::session::MateAnswer<AnnanMove> {
        super::mate::solve(self, limits, control)
    }
}
