//! perft as docs/notation.md defines it for sugoroku: a node is a position
//! plus the dice to play; at a chance node the 21 distinct rolls are summed.

use super::dice::ROLLS;
use super::position::Sugoroku;
use crate::core::{Game, MoveList, Notation};
use crate::search::ChanceGame;
use rayon::prelude::*;

fn count(pos: &mut Sugoroku, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome().is_some() {
        return 0;
    }
    if pos.at_chance() {
        let mut total = 0;
        for &(roll, _) in &ROLLS {
            pos.apply_chance(roll);
            total += count(pos, depth);
            pos.undo_chance(roll);
        }
        return total;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        pos.make(mv);
        total += count(pos, depth - 1);
        pos.unmake(mv);
    }
    total
}

/// perft(P, d): distinct results at depth 1; deeper, each result that does not
/// end the game times the 21 rolls of the next side. A chance node sums its rolls.
pub fn perft(pos: &Sugoroku, depth: u32) -> u64 {
    let mut pos = *pos;
    count(&mut pos, depth)
}

/// The root entries with their counts, in parallel: the 21 rolls (`52`, …) at a
/// chance node, the distinct turns (`24/18,13/11`) at a node with dice.
pub fn divide(pos: &Sugoroku, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 || pos.outcome().is_some() {
        return Vec::new();
    }
    if pos.at_chance() {
        return ROLLS
            .par_iter()
            .map(|&(roll, _)| {
                let mut child = *pos;
                child.apply_chance(roll);
                (roll.to_string(), count(&mut child, depth))
            })
            .collect();
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = *pos;
            child.make(mv);
            let n = if depth == 1 {
                1
            } else {
                count(&mut child, depth - 1)
            };
            (pos.format_move(mv), n)
        })
        .collect()
}
