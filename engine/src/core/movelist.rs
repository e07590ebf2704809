//! A fixed-capacity move list: move generation never allocates.

use std::ops::{Deref, DerefMut};

/// Enough for the largest legal move count of any of our games (shogi-like
/// positions top out just under 600).
pub const MAX_MOVES: usize = 640;

#[derive(Clone)]
pub struct MoveList<M: Copy + Default> {
    len: usize,
    moves: [M; MAX_MOVES],
}

impl<M: Copy + Default> MoveList<M> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [M::default(); MAX_MOVES],
        }
    }

    #[inline]
    pub fn push(&mut self, mv: M) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        self.moves[self.len] = mv;
        self.len += 1;
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` holds, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default> Deref for MoveList<M> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M: Copy + Default> DerefMut for MoveList<M> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: Copy + Default + std::fmt::Debug> std::fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
