//! Max-n with shallow pruning over shares (module doc of [`super`]).

use super::*;

impl<G: MultiPlayerGame> Worker<'_, G> {
    /// Max-n with shallow pruning. `parent` is the seat moving at the parent and
    /// the share it already has: once this node's mover is sure of more than
    /// `S − that`, the parent's seat cannot gain here and the node is cut.
    pub(super) fn maxn_child(
        &mut self,
        depth: i32,
        ply: usize,
        parent: Option<(Seat, Value)>,
    ) -> PerSeat<Value> {
        if self.enter(ply) {
            return PerSeat::splat(0);
        }
        if let Some(shares) = self.terminal_shares(ply) {
            return shares;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.static_shares();
        }
        let key = self.key();
        let tt_move = self.thread.shared.tt.probe(key).and_then(|e| e.move_index);
        self.frames[ply].clear();
        self.generate_moves(ply, 0);
        let frame = &mut self.frames[ply];
        let count = frame.lists[0].len();
        if count == 0 {
            return match self.pos.outcome() {
                Some(outcome) => place_shares(outcome.result, self.seats, ply),
                None => self.static_shares(),
            };
        }
        let tt_move = tt_move.map(usize::from).filter(|&i| i < count);
        let mover = self.pos.side_to_move();
        self.score_list(ply, 0, mover, tt_move);
        // The parent's seat gets at most what the others' floors leave.
        let left = share_total(self.seats) - (self.seats as Value - 2) * SHARE_FLOOR;
        let mut best: Option<PerSeat<Value>> = None;
        let mut best_index = None;
        while let Some((_, index)) = self.frames[ply].pick() {
            let mv = self.frames[ply].lists[0][index];
            self.pos.make(mv);
            let bound = best.map(|b| (mover, b[mover]));
            let shares = self.maxn_child(depth - 1, ply + 1, bound);
            self.pos.unmake(mv);
            if self.thread.stop {
                return PerSeat::splat(0);
            }
            if best.is_none_or(|b| maxn_prefers(&shares, &b, mover)) {
                best = Some(shares);
                best_index = Some(index);
                self.pv.update(ply, mv, true);
            }
            let mine = best.map_or(0, |b| b[mover]);
            if let Some((seat, has)) = parent {
                // Strict: a vector the parent's seat values at exactly `has`
                // could still win the parent's tie-break.
                if seat != mover && left - mine < has {
                    self.reward_quiet(ply, mover, mv, depth);
                    break;
                }
            }
        }
        let entry = TtEntry::of_node(0, ply, depth, Bound::Upper, best_index);
        self.thread.shared.tt.store(key, entry);
        best.expect("at least one move searched")
    }
}
