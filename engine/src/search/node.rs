//! What the nodes of the searchers keep the same way: the triangular table
//! of principal variations (the alpha-beta style searchers), and a weak
//! player's sight (every searcher): the moves it overlooks and how far it
//! misjudges ([`Weakening`]).

use super::{RootChoice, Value};
use crate::core::{Game, MoveList, Seat};
use crate::strength::Weakness;

/// A player below full strength, as a search applies it: the moves it
/// overlooks dropped from the lists the search generates, its evaluations off
/// by the weakness's noise ([`Weakness`]). A search at full strength has none
/// and runs none of this.
#[derive(Debug)]
pub struct Weakening<'a, M> {
    pub weakness: Weakness,
    /// The root's key and the moves the player was asked to choose among
    /// there (`go searchmoves`): it never overlooks all of those.
    root_key: u64,
    root_choice: &'a RootChoice<M>,
}

impl<M> Clone for Weakening<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Weakening<'_, M> {}

impl<'a, M: Copy + Default + Eq + std::hash::Hash> Weakening<'a, M> {
    /// `weakness` in a search from the position `root_key` that may play
    /// the moves `root_choice` allows there.
    pub fn new(weakness: Weakness, root_key: u64, root_choice: &'a RootChoice<M>) -> Self {
        Weakening {
            weakness,
            root_key,
            root_choice,
        }
    }

    /// Drops the overlooked moves of the position `key`; when every move the
    /// player may play there would go, none does (a player always sees that
    /// it has a move).
    pub fn filter(&self, key: u64, moves: &mut MoveList<M>) {
        if self.weakness.blind_permille == 0 || moves.is_empty() {
            return;
        }
        let at_root = key == self.root_key;
        if moves
            .iter()
            .filter(|&&mv| !at_root || self.root_choice.allows(mv))
            .all(|mv| self.weakness.overlooks(key, mv))
        {
            return;
        }
        moves.retain(|mv| !self.weakness.overlooks(key, &mv));
    }

    /// Drops the overlooked moves of the position `key`, all of them if so:
    /// for lists a node may do without (a quiescence's captures, where the
    /// static value stands).
    pub fn drop_overlooked(&self, key: u64, moves: &mut MoveList<M>) {
        if self.weakness.blind_permille > 0 {
            moves.retain(|mv| !self.weakness.overlooks(key, &mv));
        }
    }
}

/// `pos`'s moves into `moves` as the player searched for sees them: every
/// legal move at full strength (`weak` is `None`), those it does not
/// overlook below.
#[inline]
pub fn generate_moves<G: Game>(
    pos: &G,
    weak: Option<&Weakening<'_, G::Move>>,
    moves: &mut MoveList<G::Move>,
) {
    pos.generate_moves(moves);
    if let Some(weak) = weak {
        weak.filter(pos.key(), moves);
    }
}

/// `value`, the evaluator's value of `pos` (for `seat` where the evaluation
/// has one per seat, else for the side to move), as the player searched for
/// judges it.
#[inline]
pub fn judged<G: Game>(
    weak: Option<&Weakening<'_, G::Move>>,
    pos: &G,
    seat: Option<Seat>,
    value: Value,
) -> Value {
    match weak {
        Some(weak) => value + weak.weakness.misjudgement(pos.key(), seat),
        None => value,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hasami::Hasami;
    use crate::search::Limits;
    use crate::session::Playable;

    fn weakness(blind_permille: u32, seed: u64) -> Weakness {
        Weakness {
            noise: 0,
            blind_permille,
            seed,
        }
    }

    #[test]
    fn a_weak_player_overlooks_its_share_of_moves_but_never_all() {
        let pos = Hasami::start(&Default::default());
        let mut all = MoveList::new();
        pos.generate_moves(&mut all);
        let everything = RootChoice::default();
        let mut kept = 0;
        for seed in 0..200 {
            let weak = Weakening::new(weakness(400, seed), pos.key(), &everything);
            let mut moves = MoveList::new();
            generate_moves(&pos, Some(&weak), &mut moves);
            assert!(!moves.is_empty());
            assert!(moves.iter().all(|mv| all.iter().any(|m| m == mv)), "legal");
            kept += moves.len();
        }
        let share = kept as f64 / (200 * all.len()) as f64;
        assert!((0.55..0.65).contains(&share), "three in five seen: {share}");
        // Blind to every move: it sees them all.
        let weak = Weakening::new(weakness(1000, 1), pos.key(), &everything);
        let mut moves = MoveList::new();
        generate_moves(&pos, Some(&weak), &mut moves);
        assert_eq!(moves.len(), all.len());
        weak.drop_overlooked(pos.key(), &mut moves);
        assert!(
            moves.is_empty(),
            "captures may all go: the static value stands"
        );
    }

    #[test]
    fn at_the_root_it_never_overlooks_all_the_moves_it_may_choose_among() {
        let pos = Hasami::start(&Default::default());
        let mut all = MoveList::new();
        pos.generate_moves(&mut all);
        let named: Vec<_> = all.iter().take(2).copied().collect();
        let limits = Limits {
            searchmoves: named.clone(),
            ..Limits::default()
        };
        let choice = RootChoice::new(&limits);
        let mut both_overlooked = 0;
        for seed in 0..400 {
            let weak = Weakening::new(weakness(500, seed), pos.key(), &choice);
            if named
                .iter()
                .all(|mv| weak.weakness.overlooks(pos.key(), mv))
            {
                both_overlooked += 1;
                let mut moves = MoveList::new();
                generate_moves(&pos, Some(&weak), &mut moves);
                assert_eq!(moves.len(), all.len(), "seed {seed}: it sees them all");
            }
            // Elsewhere than at the root, the choice does not hold.
            let elsewhere = Weakening::new(weakness(500, seed), pos.key() ^ 1, &choice);
            let mut moves = MoveList::new();
            generate_moves(&pos, Some(&elsewhere), &mut moves);
            assert!(moves.len() < all.len(), "seed {seed}");
        }
        assert!(both_overlooked > 50, "{both_overlooked}");
    }
}
