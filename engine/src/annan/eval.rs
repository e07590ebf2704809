//! Annan evaluation and the hooks alpha-beta needs.

use super::piece::{Kind, HAND_KINDS};
use super::position::Annan;
use super::state::AnnanMove;
use crate::core::board9::Square;
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

impl Annan {
    fn material_of(&self, color: crate::core::Seat) -> Value {
        let state = self.state();
        let mut total = 0;
        for sq in Square::all() {
            let piece = state.at(sq);
            if !piece.is(color) {
                continue;
            }
            let own = MATERIAL[piece.kind().index()];
            let borrowed = state.movement(sq);
            total += own;
            if borrowed != piece.kind() && borrowed != Kind::King {
                total += (MATERIAL[borrowed.index()] - own) * SUPPORT_SHARE_PERCENT / 100;
            }
        }
        for kind in HAND_KINDS {
            let n = state.hands[color as usize][kind.index()] as Value;
            total += n * MATERIAL[kind.index()] * (100 + HAND_BONUS_PERCENT) / 100;
        }
        if let Some(king) = state.kings[color as usize] {
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if let Some(sq) = king.offset(dr, dc) {
                        if (dr, dc) != (0, 0) && state.at(sq).is(color) {
                            total += KING_SHELTER;
                        }
                    }
                }
            }
        }
        total
    }
}

impl TwoPlayerGame for Annan {
    fn evaluate(&self) -> Value {
        let us = self.side_to_move();
        self.material_of(us) - self.material_of(us ^ 1)
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
    const BENCH_DEPTH: u32 = 4;
}
