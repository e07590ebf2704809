//! The move picker every searcher shares: a node's moves' ordering scores and
//! the order they are picked in, the highest score first and the first
//! generated among equals. What the scores are (the TT move, tactical moves by
//! gain, killers, history, static values) is the searcher's: it fills them in
//! ([`Picker::scores_mut`]) from its own ordering data.
//!
//! A cut node rarely needs more than its first few moves: the first
//! `SCANNED_PICKS` picks scan the scores, and only then is the rest sorted once.

use crate::core::movelist::MAX_MOVES;

/// A move already tried (below every real ordering score).
pub const TRIED: i32 = i32::MIN;
/// Picks by a scan over the scores before the rest of a node's moves is sorted
/// once.
const SCANNED_PICKS: usize = 3;

/// One list of moves' ordering scores (same index as the move list), `TRIED`
/// once picked.
pub struct Picker {
    scores: [i32; MAX_MOVES],
    len: usize,
    /// Picks made since the scores were set.
    picks: usize,
    /// After `SCANNED_PICKS` picks: the untried moves by score, and the next one.
    order: [u16; MAX_MOVES],
    order_len: usize,
    order_next: usize,
}

impl Default for Picker {
    fn default() -> Self {
        Picker::new()
    }
}

impl Picker {
    pub fn new() -> Self {
        Picker {
            scores: [0; MAX_MOVES],
            len: 0,
            picks: 0,
            order: [0; MAX_MOVES],
            order_len: 0,
            order_next: 0,
        }
    }

    /// No moves (a list emptied).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.picks = 0;
    }

    /// The scores of a node's `len` moves, to be set; picking starts over.
    #[inline]
    pub fn scores_mut(&mut self, len: usize) -> &mut [i32] {
        self.len = len;
        self.picks = 0;
        &mut self.scores[..len]
    }

    /// The list of `start` moves grew to `len`: the new ones' scores, to be
    /// set. Only [`Picker::best`] and [`Picker::take_first_of`] may pick
    /// after this.
    #[inline]
    pub fn extend(&mut self, start: usize, len: usize) -> &mut [i32] {
        debug_assert_eq!(start, self.len, "the moves before are scored");
        self.len = len;
        &mut self.scores[start..len]
    }

    /// Move `index` is not to be picked (already searched).
    #[inline]
    pub fn skip(&mut self, index: usize) {
        self.scores[index] = TRIED;
    }

    /// Sets move `index`'s score (before picking starts).
    #[inline]
    pub fn set(&mut self, index: usize, score: i32) {
        self.scores[index] = score;
    }

    /// The untried move with the highest score (the first of equals) and its
    /// score, marked as tried. The scores must not change between picks,
    /// except by this marking and [`Picker::skip`], until they are set again.
    #[inline]
    pub fn pick(&mut self) -> Option<(usize, i32)> {
        self.picks += 1;
        if self.picks <= SCANNED_PICKS {
            return self.pick_by_scan();
        }
        if self.picks == SCANNED_PICKS + 1 {
            self.sort_untried();
        }
        while self.order_next < self.order_len {
            let at = self.order[self.order_next] as usize;
            self.order_next += 1;
            let score = self.scores[at];
            if score != TRIED {
                self.scores[at] = TRIED;
                return Some((at, score));
            }
        }
        None
    }

    /// The untried moves in the order the scan would pick them.
    fn sort_untried(&mut self) {
        let mut len = 0;
        for (i, &score) in self.scores[..self.len].iter().enumerate() {
            if score != TRIED {
                self.order[len] = i as u16;
                len += 1;
            }
        }
        let scores = &self.scores;
        self.order[..len].sort_unstable_by_key(|&i| (std::cmp::Reverse(scores[i as usize]), i));
        self.order_len = len;
        self.order_next = 0;
    }

    #[inline]
    fn pick_by_scan(&mut self) -> Option<(usize, i32)> {
        let mut best = TRIED;
        let mut at = usize::MAX;
        for (i, &score) in self.scores[..self.len].iter().enumerate() {
            if score > best {
                best = score;
                at = i;
            }
        }
        (at != usize::MAX).then(|| {
            self.scores[at] = TRIED;
            (at, best)
        })
    }

    /// The highest untried score (`TRIED` for none): a branch-free pass the
    /// compiler vectorises, where a running arg-max would not be. With
    /// [`Picker::take_first_of`], picking across several lists.
    #[inline]
    pub fn best(&self) -> i32 {
        self.scores[..self.len]
            .iter()
            .copied()
            .fold(TRIED, i32::max)
    }

    /// Where the first untried score equal to `score` stands, marked tried:
    /// eight at a time (a test the compiler vectorises), then within the eight.
    #[inline]
    pub fn take_first_of(&mut self, score: i32) -> Option<usize> {
        let scores = &mut self.scores[..self.len];
        let mut chunks = scores.chunks_exact(8);
        let mut base = 0;
        for chunk in &mut chunks {
            if chunk.iter().fold(false, |any, &s| any | (s == score)) {
                break;
            }
            base += 8;
        }
        let at = scores[base..].iter().position(|&s| s == score)? + base;
        scores[at] = TRIED;
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores from a small generator, with many ties.
    fn scores(seed: u64, len: usize) -> Vec<i32> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % 7) as i32 - 3
            })
            .collect()
    }

    /// The order of a plain stable sort, best first.
    fn sorted(scores: &[i32]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        order
    }

    #[test]
    fn picks_best_first_and_the_first_of_equals() {
        for seed in 0..50 {
            let len = (seed as usize * 7) % 40;
            let want = scores(seed, len);
            let mut picker = Picker::new();
            picker.scores_mut(len).copy_from_slice(&want);
            let mut got = Vec::new();
            while let Some((at, score)) = picker.pick() {
                assert_eq!(score, want[at]);
                got.push(at);
            }
            assert_eq!(got, sorted(&want), "seed {seed}");
        }
    }

    #[test]
    fn skipped_moves_are_never_picked() {
        let want = scores(3, 20);
        let mut picker = Picker::new();
        picker.scores_mut(20).copy_from_slice(&want);
        picker.skip(sorted(&want)[0]);
        picker.skip(11);
        let got: Vec<usize> = std::iter::from_fn(|| picker.pick().map(|(at, _)| at)).collect();
        let expected: Vec<usize> = sorted(&want)
            .into_iter()
            .filter(|&i| i != sorted(&want)[0] && i != 11)
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn best_and_take_first_of_pick_as_the_scan_does() {
        for seed in 0..50 {
            let len = (seed as usize * 5) % 30;
            let want = scores(seed, len);
            let mut picker = Picker::new();
            picker.scores_mut(len).copy_from_slice(&want);
            let mut got = Vec::new();
            loop {
                let best = picker.best();
                if best == TRIED {
                    break;
                }
                got.push(picker.take_first_of(best).expect("the best is there"));
            }
            assert_eq!(got, sorted(&want), "seed {seed}");
        }
    }
}
