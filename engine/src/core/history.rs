//! The keys of the positions a game has passed through, for repetition.
//!
//! Positions are numbered by their index in the history: 0 is the position the
//! history started from, [`KeyHistory::len`] the current one. Each move (or
//! search pass) pushes the key of the position it leaves. A game marks the moves
//! after which no earlier position can stand again by its rules (a Hasami
//! capture, a Yonin elimination); scans stop there. `STRIDE` is the number of
//! plies between two positions with the same side to move when that is fixed
//! (2 for alternating games), 1 when the order of play is not (Yonin).

#[derive(Clone, Copy, Debug)]
struct Saved {
    /// The oldest index the position could repeat, as it was before the push.
    reversible_from: u32,
    /// Whether the position left counts for repetition.
    stands: bool,
}

/// Slots of the key counts: a key's top bits pick one.
const SLOT_BITS: u32 = 12;

#[inline]
fn slot(key: u64) -> usize {
    (key >> (64 - SLOT_BITS)) as usize
}

#[derive(Clone, Debug)]
pub struct KeyHistory<const STRIDE: usize> {
    /// The key of every earlier position, oldest first; apart from `saved` so
    /// that scans read keys only.
    keys: Vec<u64>,
    saved: Vec<Saved>,
    /// How many earlier positions have a key in each slot: a zero shows at
    /// once that the current position is new, which it nearly always is, so
    /// the scans are rare (u32: a record may repeat without bound).
    slot_counts: Vec<u32>,
    /// No position before this index can stand again.
    reversible_from: u32,
    /// Whether the current position counts for repetition (not one reached by
    /// a search pass that never stands in the game).
    stands: bool,
}

impl<const STRIDE: usize> KeyHistory<STRIDE> {
    /// An empty history with room for `capacity` plies before it grows.
    pub fn with_capacity(capacity: usize) -> Self {
        KeyHistory {
            keys: Vec::with_capacity(capacity),
            saved: Vec::with_capacity(capacity),
            slot_counts: vec![0; 1 << SLOT_BITS],
            reversible_from: 0,
            stands: true,
        }
    }

    /// The index of the current position: how many positions precede it.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// A move leaves the current position, whose key is `key`.
    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.saved.push(Saved {
            reversible_from: self.reversible_from,
            stands: self.stands,
        });
        self.slot_counts[slot(key)] += 1;
        self.stands = true;
    }

    /// A search pass leaves the current position: the position it reaches
    /// does not count for repetition.
    #[inline]
    pub fn push_pass(&mut self, key: u64) {
        self.push(key);
        self.stands = false;
    }

    /// The move just pushed made every earlier position impossible to stand
    /// again.
    #[inline]
    pub fn mark_irreversible(&mut self) {
        self.reversible_from = self.keys.len() as u32;
    }

    /// Takes back the last push; returns the key of the position it left.
    #[inline]
    pub fn pop(&mut self) -> u64 {
        let saved = self.saved.pop().expect("pop without a push");
        self.reversible_from = saved.reversible_from;
        self.stands = saved.stands;
        let key = self.keys.pop().expect("keys and saved move together");
        self.slot_counts[slot(key)] -= 1;
        key
    }

    /// Indices of the earlier occurrences at index ≥ `since` of the current
    /// position (key `key`), latest first.
    #[inline]
    pub fn earlier(&self, key: u64, since: usize) -> Earlier<'_, STRIDE> {
        let now = self.keys.len();
        let maybe = self.stands && self.slot_counts[slot(key)] > 0;
        Earlier {
            history: self,
            key,
            // Nothing to scan when the position is surely new or does not count.
            next: if maybe { now } else { 0 },
            oldest: since.max(self.reversible_from as usize),
        }
    }

    /// How often the current position has stood, this time included.
    #[inline]
    pub fn occurrences(&self, key: u64) -> usize {
        1 + self.earlier(key, 0).count()
    }

    /// Whether the current position already stood at some index ≥ `since`.
    #[inline]
    pub fn repeats_since(&self, key: u64, since: usize) -> bool {
        self.earlier(key, since).next().is_some()
    }

    /// Whether some position at index ≥ `since`, up to the current one (key
    /// `key`), has stood three times in that stretch.
    pub fn thrice_since(&self, key: u64, since: usize) -> bool {
        let now = self.keys.len();
        let stands = |j: usize| {
            if j == now {
                self.stands
            } else {
                self.saved[j].stands
            }
        };
        let key_at = |j: usize| if j == now { key } else { self.keys[j] };
        let mut i = since.max(self.reversible_from as usize);
        while i + 2 * STRIDE <= now {
            let first = key_at(i);
            // The slot counts the earlier positions; the current one adds itself.
            let at_most = self.slot_counts[slot(first)] + (slot(key) == slot(first)) as u32;
            if stands(i) && at_most >= 3 {
                let mut later = 0;
                let mut j = i + STRIDE;
                while j <= now {
                    if stands(j) && key_at(j) == first {
                        later += 1;
                        if later == 2 {
                            return true;
                        }
                    }
                    j += STRIDE;
                }
            }
            i += 1;
        }
        false
    }
}

/// The iterator of [`KeyHistory::earlier`].
pub struct Earlier<'a, const STRIDE: usize> {
    history: &'a KeyHistory<STRIDE>,
    key: u64,
    /// The last index looked at (the current one to begin with).
    next: usize,
    oldest: usize,
}

impl<const STRIDE: usize> Iterator for Earlier<'_, STRIDE> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.next >= self.oldest + STRIDE {
            self.next -= STRIDE;
            let j = self.next;
            if self.history.keys[j] == self.key && self.history.saved[j].stands {
                return Some(j);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::KeyHistory;

    /// Plays `keys` (the last is the current position) into a history.
    fn played<const STRIDE: usize>(keys: &[u64]) -> KeyHistory<STRIDE> {
        let mut history = KeyHistory::with_capacity(4);
        for &key in &keys[..keys.len() - 1] {
            history.push(key);
        }
        history
    }

    #[test]
    fn occurrences_step_by_the_stride() {
        // 7 stands at 0, 2, 4 and now (6); at 3 with the other side to move.
        let keys = [7, 1, 7, 7, 7, 2, 7];
        let two = played::<2>(&keys);
        assert_eq!(two.occurrences(7), 4);
        assert_eq!(two.earlier(7, 0).collect::<Vec<_>>(), [4, 2, 0]);
        assert!(two.repeats_since(7, 4) && !two.repeats_since(7, 5));
        let one = played::<1>(&keys);
        assert_eq!(one.occurrences(7), 5);
    }

    #[test]
    fn an_irreversible_move_hides_what_came_before_until_it_is_taken_back() {
        let mut history = played::<2>(&[5, 0, 5, 0, 5]);
        assert_eq!(history.occurrences(5), 3);
        history.push(5);
        history.mark_irreversible();
        history.push(9);
        assert_eq!(history.occurrences(5), 1);
        history.push(5);
        history.push(9);
        assert_eq!(history.occurrences(5), 2, "indices 6 and 8");
        history.pop();
        history.pop();
        history.pop();
        assert_eq!(history.pop(), 5);
        assert_eq!(history.occurrences(5), 3);
    }

    #[test]
    fn positions_reached_by_a_pass_never_count() {
        let mut history = played::<1>(&[3, 3]);
        assert_eq!(history.occurrences(3), 2);
        history.push_pass(3);
        assert_eq!(
            history.occurrences(3),
            1,
            "the current position was passed to"
        );
        history.push(3);
        assert_eq!(history.occurrences(3), 3, "index 2 was passed to");
        history.pop();
        history.pop();
        assert_eq!(history.occurrences(3), 2);
    }

    #[test]
    fn thrice_since_finds_a_third_stand_in_the_stretch() {
        let history = played::<1>(&[1, 2, 1, 3, 1, 4]);
        assert!(history.thrice_since(4, 0));
        assert!(!history.thrice_since(4, 1));
        // The current position makes the third.
        let history = played::<1>(&[9, 2, 1, 3, 1, 4, 1]);
        assert!(history.thrice_since(1, 0) && !history.thrice_since(1, 3));
    }
}
