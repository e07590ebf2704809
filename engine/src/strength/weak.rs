//! How a weaker player errs: it overlooks some moves and misjudges positions
//! by a bounded noise. The searchers apply both themselves, when they are
//! told to play weakly ([`crate::search::Searcher::weaken`]): the moves they
//! generate pass a filter ([`crate::search::node::Weakening`]) and the noise
//! is added where they call the evaluator, so that at full strength nothing
//! of it runs.
//!
//! Both are functions of the position's key, the move and a seed, so that a
//! search sees one consistent game (the table stays sound) and a position
//! looks the same however it is reached.

use crate::core::Seat;
use crate::search::Value;

/// How a weak player misjudges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weakness {
    /// Evaluations are off by up to this much either way (the game's units).
    pub noise: Value,
    /// Of a position's moves, this many in a thousand are overlooked (never all).
    pub blind_permille: u32,
    /// Which moves are overlooked and which way the noise goes.
    pub seed: u64,
}

/// A well-mixed 64-bit hash of `x` (SplitMix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Weakness {
    /// Whether the player overlooks `mv` in the position whose key is `key`.
    #[inline]
    pub fn overlooks<M: std::hash::Hash>(&self, key: u64, mv: &M) -> bool {
        let salt = key ^ self.seed ^ fxhash::hash64(mv);
        mix(salt) % 1000 < self.blind_permille as u64
    }

    /// How far the player misjudges the position whose key is `key`, within
    /// ±[`Weakness::noise`]: for `seat`'s value where an evaluation has one
    /// per seat, for the side to move's (`None`) where it has one.
    #[inline]
    pub fn misjudgement(&self, key: u64, seat: Option<Seat>) -> Value {
        let noise = self.noise;
        if noise <= 0 {
            return 0;
        }
        let salt = seat.map_or(0, |seat| seat.index() as u64 + 1);
        let h = mix(key ^ self.seed.rotate_left(17) ^ salt);
        (h % (2 * noise as u64 + 1)) as Value - noise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_noise_stays_within_its_bound_and_takes_every_value() {
        let weakness = Weakness {
            noise: 5,
            blind_permille: 0,
            seed: 9,
        };
        let seen: std::collections::BTreeSet<Value> = (0..2_000u64)
            .map(|key| weakness.misjudgement(key.wrapping_mul(0x9E37_79B9), Some(Seat::new(2))))
            .collect();
        assert_eq!(seen, (-5..=5).collect(), "every value within ±5");
        let none = Weakness::default();
        assert!((0..100).all(|key| none.misjudgement(key, None) == 0));
    }

    #[test]
    fn moves_are_overlooked_at_the_configured_rate() {
        for blind_permille in [0, 100, 400, 1000] {
            let weakness = Weakness {
                noise: 0,
                blind_permille,
                seed: 3,
            };
            let overlooked = (0..10_000u64)
                .filter(|&mv| weakness.overlooks(mv / 37, &mv))
                .count() as i64;
            let expected = 10 * blind_permille as i64;
            assert!(
                (overlooked - expected).abs() <= 300,
                "{blind_permille}: {overlooked} of 10 000"
            );
        }
    }
}
