//! perft as docs/notation.md defines it, generic over games.

use crate::core::{Game, MoveList};
use rayon::prelude::*;

/// Leaf count at `depth`, counting the last ply without making its moves.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mut total = 0;
            for &mv in moves.iter() {
                pos.make(mv);
                total += perft(pos, depth - 1);
                pos.unmake(mv);
            }
            total
        }
    }
}

/// The same count, making every move down to the leaves (checks make/unmake and
/// the generator together, where bulk counting trusts `count_moves`).
pub fn perft_full<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        pos.make(mv);
        total += perft_full(pos, depth - 1);
        pos.unmake(mv);
    }
    total
}

/// Per root move counts, in generation order, computed in parallel.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.make(mv);
            (mv, perft(&mut child, depth - 1))
        })
        .collect()
}

/// Total leaves at `depth`, root moves spread over rayon's threads.
pub fn perft_parallel<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide(pos, depth).iter().map(|&(_, n)| n).sum()
}
