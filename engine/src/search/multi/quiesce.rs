//! The quiescence search paranoid, BRS and BRS+ share: tactical moves in the
//! rules' real move order, whoever moves may stand pat.

use super::*;

impl<G: MultiPlayerGame> Worker<'_, G> {
    /// Tactical moves in the real move order; whoever moves may stand pat.
    pub(super) fn quiesce(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        qply: u32,
    ) -> Value {
        let stand = self.static_value();
        if qply >= self.setting.params.qs_max_plies as u32 || ply >= MAX_PLY - 1 {
            return stand;
        }
        let maximizing = self.pos.side_to_move() == self.root;
        let mut best = stand;
        if narrow(maximizing, best, &mut alpha, &mut beta) {
            return best;
        }
        self.frames[ply].clear();
        // A weak player's captures are those it sees among all its moves.
        if self.weak.is_some() {
            self.generate_moves(ply, 0);
            let pos = &self.pos;
            self.frames[ply].lists[0].retain(|mv| pos.is_tactical(mv));
        } else {
            self.pos.generate_tactical(&mut self.frames[ply].lists[0]);
        }
        let frame = &mut self.frames[ply];
        let scores = frame.pickers[0].scores_mut(frame.lists[0].len());
        for (score, &mv) in scores.iter_mut().zip(frame.lists[0].iter()) {
            *score = self.pos.gain(mv, self.setting.eval);
        }
        while let Some(index) = self.frames[ply].pick_in(0) {
            let mv = self.frames[ply].lists[0][index];
            self.pos.make(mv);
            let value = if self.enter(ply + 1) {
                0
            } else {
                match self.terminal_value(ply + 1) {
                    Some(value) => value,
                    None => self.quiesce(alpha, beta, ply + 1, qply + 1),
                }
            };
            self.pos.unmake(mv);
            if self.thread.stop {
                return 0;
            }
            best = if maximizing {
                best.max(value)
            } else {
                best.min(value)
            };
            if narrow(maximizing, value, &mut alpha, &mut beta) {
                break;
            }
        }
        best
    }
}
