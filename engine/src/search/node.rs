//! What the nodes of the alpha-beta style searchers (two-player and
//! multi-player) keep the same way: the triangular table of principal
//! variations.

/// Row `ply` holds the line from `ply` at `moves[ply * stride + ply..]`,
/// `len[ply]` long counting from the row's start.
pub struct PvTable<M> {
    moves: Vec<M>,
    len: Vec<usize>,
    stride: usize,
}

impl<M> Default for PvTable<M> {
    fn default() -> Self {
        PvTable {
            moves: Vec::new(),
            len: Vec::new(),
            stride: 0,
        }
    }
}

impl<M: Copy + Default> PvTable<M> {
    /// A table for lines from `plies` plies.
    pub fn new(plies: usize) -> Self {
        PvTable {
            moves: vec![M::default(); plies * plies],
            len: vec![0; plies + 1],
            stride: plies,
        }
    }

    /// Every line emptied (as new).
    pub fn reset(&mut self) {
        self.moves.fill(M::default());
        self.len.fill(0);
    }

    /// The line from `ply` is empty (a node entered there, or one whose line
    /// cannot be replayed).
    #[inline]
    pub fn start(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// The line from `ply` becomes `mv`, then (when `continues`) the line
    /// from `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: M, continues: bool) {
        let child_len = if continues {
            self.len[ply + 1].max(ply + 1)
        } else {
            ply + 1
        };
        let (row, child) = (ply * self.stride, (ply + 1) * self.stride);
        self.moves[row + ply] = mv;
        self.moves
            .copy_within(child + ply + 1..child + child_len, row + ply + 1);
        self.len[ply] = child_len;
    }

    /// The line from `ply` becomes `sequence`, then (when `continues`) the
    /// line from `ply + sequence.len()`.
    pub fn update_sequence(&mut self, ply: usize, sequence: &[M], continues: bool) {
        let row = ply * self.stride;
        self.moves[row + ply..row + ply + sequence.len()].copy_from_slice(sequence);
        let end = ply + sequence.len();
        let child_len = if continues {
            self.len[end].max(end)
        } else {
            end
        };
        let child = end * self.stride;
        self.moves
            .copy_within(child + end..child + child_len, row + end);
        self.len[ply] = child_len;
    }

    /// The line below a root move: from ply 1.
    pub fn below_root(&self) -> &[M] {
        &self.moves[self.stride + 1..self.stride + self.len[1]]
    }
}
