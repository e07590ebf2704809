//! Best-reply search and BRS+ (module doc of [`super`]): MIN layers search
//! every live opponent's replies and keep the best one.

use super::*;

impl<G: MultiPlayerGame> Worker<'_, G> {
    /// BRS, fail-soft, root-relative: the root seat's moves at MAX nodes; at MIN
    /// layers every opponent's moves, the best single reply kept.
    pub(super) fn brs(
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
        let due = self.pos.side_to_move();
        let maximizing = due == self.root;
        if !maximizing && self.algorithm == Algorithm::BrsPlus {
            if ply + MAX_SEQUENCE < MAX_PLY - 1 {
                let tt_move = tt.and_then(|(e, _)| e.move_index).map(usize::from);
                return self.brs_plus_layer(alpha, beta, depth, ply, key, tt_move);
            }
            return self.quiesce(alpha, beta, ply, 0);
        }
        self.frames[ply].clear();
        if maximizing {
            self.generate_head(ply, due.index(), due);
        } else {
            for seat in Seat::all(self.seats) {
                if seat == self.root || !self.pos.is_alive(seat) {
                    continue;
                }
                if seat == due {
                    self.generate_head(ply, seat.index(), seat);
                } else if self.pos.make_pass(seat) {
                    self.generate_head(ply, seat.index(), seat);
                    self.pos.unmake_pass();
                }
            }
        }
        let tt_move = tt.and_then(|(e, _)| e.move_index).map(usize::from);
        self.append_tails_needed_now(ply, tt_move);
        if self.frames[ply].is_empty() {
            return self.no_move_value(ply);
        }
        for seat in 0..self.seats {
            self.score_list(ply, seat, Seat::new(seat), tt_move);
        }
        let bounds = (alpha, beta);
        let mut best = if maximizing { -INFINITE } else { INFINITE };
        let mut best_index = None;
        let mut searched = 0;
        while let Some((list, index, busy)) = self.next_move(ply, key, depth, searched) {
            let mv = self.frames[ply].lists[list][index];
            let reduction = self.reduction(ply, depth, searched, list, index, tt_move);
            let seat = Seat::new(list);
            let passed_in = seat != due;
            if passed_in {
                let handed = self.pos.make_pass(seat);
                debug_assert!(handed, "make_pass({seat}) worked during generation");
            }
            self.pos.make(mv);
            let passed_back = !maximizing
                && self.pos.side_to_move() != self.root
                && self.pos.make_pass(self.root);
            let mut value = self.brs(alpha, beta, depth - 1 - reduction, ply + 1);
            if reduction > 0 && !self.thread.stop && improves(maximizing, value, alpha, beta) {
                value = self.brs(alpha, beta, depth - 1, ply + 1);
            }
            if passed_back {
                self.pos.unmake_pass();
            }
            self.pos.unmake(mv);
            if passed_in {
                self.pos.unmake_pass();
            }
            if let Some(busy) = busy {
                self.thread.shared.busy.leave(busy);
            }
            searched += 1;
            if self.thread.stop {
                return 0;
            }
            if (maximizing && value > best) || (!maximizing && value < best) {
                best = value;
                best_index = Some(list * SEAT_STRIDE + index);
                if passed_in {
                    self.pv.start(ply);
                } else {
                    self.pv.update(ply, mv, !passed_back);
                }
            }
            if narrow(maximizing, value, &mut alpha, &mut beta) {
                self.reward_quiet(ply, seat, mv, depth);
                break;
            }
        }
        self.store(key, best, bounds, depth, best_index, ply);
        best
    }

    /// A BRS+ MIN layer: each live opponent in turn is the one that replies with
    /// every move; the others, when the rules give them the move, play their
    /// first move by static order (most valuable tactical move, else the first
    /// generated), until the root seat is due again (or, after `MAX_SEQUENCE`
    /// moves, is handed the turn if the rules allow). An opponent not due before
    /// the root seat is skipped; a game that ends on the way scores as it ends.
    pub(super) fn brs_plus_layer(
        &mut self,
        alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        key: u64,
        tt_move: Option<usize>,
    ) -> Value {
        let bounds = (alpha, beta);
        let mut best = INFINITE;
        let mut best_index = None;
        // The TT move's seat replies first.
        let first = tt_move.map_or(self.pos.side_to_move().index(), |m| m / SEAT_STRIDE);
        'candidates: for k in 0..self.seats {
            let seat = Seat::new((first + k) % self.seats);
            if seat == self.root || !self.pos.is_alive(seat) {
                continue;
            }
            // Background moves up to the replier's turn.
            let mut pre = 0;
            while pre < MAX_SEQUENCE - 1
                && self.pos.decided().is_none()
                && self.pos.side_to_move() != seat
                && self.pos.side_to_move() != self.root
            {
                let Some(mv) = self.background_move() else {
                    break;
                };
                self.pos.make(mv);
                self.frames[ply].sequence[pre] = mv;
                pre += 1;
            }
            if self.pos.side_to_move() != seat || self.pos.decided().is_some() {
                let ended = self
                    .pos
                    .decided()
                    .map(|o| place_value(o.result, self.root, self.seats, ply + pre));
                self.unmake_sequence(ply, pre);
                if let Some(value) = ended {
                    if value < best {
                        best = value;
                        best_index = None;
                        self.pv.start(ply);
                    }
                    beta = beta.min(value);
                    if alpha >= beta {
                        break 'candidates;
                    }
                }
                continue;
            }
            let list = seat.index();
            self.frames[ply].lists[list].clear();
            self.generate_moves(ply, list);
            if self.frames[ply].lists[list].is_empty() {
                self.unmake_sequence(ply, pre);
                continue;
            }
            self.score_list(ply, list, seat, tt_move);
            while let Some(index) = self.frames[ply].pick_in(list) {
                let mv = self.frames[ply].lists[list][index];
                self.pos.make(mv);
                self.frames[ply].sequence[pre] = mv;
                let mut len = pre + 1;
                // Background moves until the root seat is due.
                while len < MAX_SEQUENCE
                    && self.pos.decided().is_none()
                    && self.pos.side_to_move() != self.root
                {
                    let Some(background) = self.background_move() else {
                        break;
                    };
                    self.pos.make(background);
                    self.frames[ply].sequence[len] = background;
                    len += 1;
                }
                let passed_back = self.pos.side_to_move() != self.root
                    && self.pos.decided().is_none()
                    && self.pos.make_pass(self.root);
                let value = self.brs(alpha, beta, depth - 1, ply + len);
                if passed_back {
                    self.pos.unmake_pass();
                }
                self.unmake_sequence_from(ply, pre, len);
                if self.thread.stop {
                    self.unmake_sequence(ply, pre);
                    return 0;
                }
                if value < best {
                    best = value;
                    best_index = Some(list * SEAT_STRIDE + index);
                    let sequence = &self.frames[ply].sequence[..len];
                    self.pv.update_sequence(ply, sequence, !passed_back);
                }
                beta = beta.min(value);
                if alpha >= beta {
                    self.reward_quiet(ply, seat, mv, depth);
                    self.unmake_sequence(ply, pre);
                    break 'candidates;
                }
            }
            self.unmake_sequence(ply, pre);
        }
        if best == INFINITE {
            // No opponent could reply: the static value.
            return self.static_value();
        }
        self.store(key, best, bounds, depth, best_index, ply);
        best
    }

    /// The first move by static order for the side to move (for BRS+).
    pub(super) fn background_move(&mut self) -> Option<G::Move> {
        node::generate_moves(&self.pos, self.weak.as_ref(), &mut self.scratch);
        let mut best = None;
        let mut best_score = i32::MIN;
        for &mv in self.scratch.iter() {
            let score = if self.pos.is_tactical(mv) {
                SCORE_TACTICAL + self.pos.gain(mv, self.setting.eval)
            } else {
                0
            };
            if score > best_score {
                best_score = score;
                best = Some(mv);
            }
        }
        best
    }

    /// Takes back `sequence[..count]` of `ply`.
    pub(super) fn unmake_sequence(&mut self, ply: usize, count: usize) {
        self.unmake_sequence_from(ply, 0, count);
    }

    /// Takes back `sequence[from..to]` of `ply`, last first.
    pub(super) fn unmake_sequence_from(&mut self, ply: usize, from: usize, to: usize) {
        for i in (from..to).rev() {
            let mv = self.frames[ply].sequence[i];
            self.pos.unmake(mv);
        }
    }
}
