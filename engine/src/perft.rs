//! perft as docs/notation.md defines it, generic over games, and the data files
//! of tests/perft/ that pin it.

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

/// One line of a perft data file: a position, the options it is counted
/// under and the leaf counts at some depths.
#[derive(Clone, Debug, PartialEq)]
pub struct DataEntry {
    /// 1-based, for messages.
    pub line: usize,
    pub sfen: String,
    pub options: Vec<(String, String)>,
    pub depths: Vec<(u32, u64)>,
}

/// Reads a data file: `<sfen> ; NAME=VALUE … ; D<depth> <leaves> …` a line,
/// `#` comments and blank lines skipped.
pub fn read_data(text: &str) -> Result<Vec<DataEntry>, String> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| format!("line {}: {what}", index + 1);
        let mut fields = line.split(';').map(str::trim);
        let mut entry = DataEntry {
            line: index + 1,
            sfen: fields.next().unwrap_or_default().to_string(),
            options: Vec::new(),
            depths: Vec::new(),
        };
        for field in fields {
            if let Some(rest) = field.strip_prefix('D') {
                let (depth, leaves) = rest
                    .split_once(' ')
                    .ok_or_else(|| at("expected D<depth> <leaves>"))?;
                let depth = depth.parse().map_err(|_| at("bad depth"))?;
                let leaves = leaves.trim().parse().map_err(|_| at("bad leaf count"))?;
                entry.depths.push((depth, leaves));
            } else {
                let (name, value) = field
                    .split_once('=')
                    .ok_or_else(|| at("expected NAME=VALUE"))?;
                entry.options.push((name.to_string(), value.to_string()));
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}
