//! The move of the shogi games with drops (Annan, Yonin) in 16 bits: a board
//! move (from, to, promotion) or a drop (kind, to), generic over the game's
//! piece kinds.

use super::board9::Square;
use std::marker::PhantomData;

/// What a move needs of a game's piece kinds: a dense index (the discriminant).
pub trait DropKind: Copy {
    fn index(self) -> u16;
    fn from_index(index: usize) -> Self;
}

/// Bits 0–6 the destination, 7–13 the origin (or `DROP_BASE` + the kind
/// dropped), 14 promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShogiMove<K>(u16, PhantomData<K>);

const DROP_BASE: u16 = 81;

impl<K> Default for ShogiMove<K> {
    fn default() -> Self {
        ShogiMove(0, PhantomData)
    }
}

impl<K: DropKind> ShogiMove<K> {
    #[inline]
    pub fn board(from: Square, to: Square, promote: bool) -> Self {
        ShogiMove(
            to.0 as u16 | (from.0 as u16) << 7 | (promote as u16) << 14,
            PhantomData,
        )
    }
    #[inline]
    pub fn drop(kind: K, to: Square) -> Self {
        ShogiMove(to.0 as u16 | (DROP_BASE + kind.index()) << 7, PhantomData)
    }
    #[inline]
    pub fn to(self) -> Square {
        Square((self.0 & 0x7F) as u8)
    }
    /// The origin square of a board move.
    #[inline]
    pub fn from(self) -> Option<Square> {
        let from = self.0 >> 7 & 0x7F;
        (from < DROP_BASE).then_some(Square(from as u8))
    }
    /// The kind dropped, for a drop.
    #[inline]
    pub fn dropped(self) -> Option<K> {
        let from = self.0 >> 7 & 0x7F;
        (from >= DROP_BASE).then(|| K::from_index((from - DROP_BASE) as usize))
    }
    #[inline]
    pub fn promotes(self) -> bool {
        self.0 >> 14 & 1 != 0
    }
}
