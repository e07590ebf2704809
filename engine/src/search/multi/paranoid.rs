//! Paranoid search: the root seat against a coalition of all others
//! (module doc of [`super`]).

use super::*;

impl<G: MultiPlayerGame> Worker<'_, G> {
    /// Paranoid alpha-beta, fail-soft, root-relative: MAX where the root seat moves.
    pub(super) fn paranoid(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
    ) -> Value {
        let (key, tt) = match self.open_node(alpha, beta, depth, ply) {
            Ok(opened) => opened,
            Err(value) => return value,
        };
        let mover = self.pos.side_to_move();
        self.frames[ply].clear();
        self.generate_head(ply, 0, mover);
        let tt_move = tt.and_then(|(e, _)| e.move_index).map(usize::from);
        self.append_tails_needed_now(ply, tt_move);
        if self.frames[ply].is_empty() {
            return self.no_move_value(ply);
        }
        self.score_list(ply, 0, mover, tt_move);
        let maximizing = mover == self.root;
        let bounds = (alpha, beta);
        let mut best = if maximizing { -INFINITE } else { INFINITE };
        let mut best_index = None;
        let mut searched = 0;
        while let Some((_, index, busy)) = self.next_move(ply, key, depth, searched) {
            let mv = self.frames[ply].lists[0][index];
            let reduction = self.reduction(ply, depth, searched, 0, index, tt_move);
            self.pos.make(mv);
            let mut value = self.paranoid(alpha, beta, depth - 1 - reduction, ply + 1);
            if reduction > 0 && !self.thread.stop && improves(maximizing, value, alpha, beta) {
                value = self.paranoid(alpha, beta, depth - 1, ply + 1);
            }
            self.pos.unmake(mv);
            if let Some(busy) = busy {
                self.thread.shared.busy.leave(busy);
            }
            searched += 1;
            if self.thread.stop {
                return 0;
            }
            if (maximizing && value > best) || (!maximizing && value < best) {
                best = value;
                best_index = Some(index);
                self.pv.update(ply, mv, true);
            }
            if narrow(maximizing, value, &mut alpha, &mut beta) {
                self.reward_quiet(ply, mover, mv, depth);
                break;
            }
        }
        self.store(key, best, bounds, depth, best_index, ply);
        best
    }
}
