//! Playing below full strength (`Skill` 0 … 19), for the site's CPU seats: a
//! shallower search, and a seeded choice among the root moves that score close
//! to the best. Generic: it only reads what a MultiPV search reports.

use crate::search::{Limits, Score};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Full strength: the plain search, no randomness.
pub const MAX_SKILL: u32 = 20;
/// Root lines searched to choose from below full strength.
pub const CANDIDATES: usize = 4;
/// How far below the best a move may score and still be chosen, per skill step
/// under the maximum (in centipawns).
const MARGIN_PER_STEP: i32 = 20;

/// The depth a skill level searches to at most.
pub fn depth_cap(skill: u32) -> u32 {
    1 + skill / 2
}

/// `limits` with the skill's depth cap applied.
pub fn limit(limits: &Limits, skill: u32) -> Limits {
    let cap = depth_cap(skill);
    Limits {
        depth: Some(limits.depth.map_or(cap, |d| d.min(cap))),
        ..limits.clone()
    }
}

/// Scores as one ordered number: mates beyond any centipawn value.
fn order(score: Score) -> i64 {
    match score {
        Score::Cp(cp) | Score::Points(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    }
}

/// Picks one of `scores` (the root lines of the deepest completed iteration,
/// best first): uniformly among those within the skill's margin of the best,
/// reproducibly from `seed`.
pub fn choose(scores: &[Score], skill: u32, seed: u64) -> usize {
    let Some(best) = scores.iter().map(|&s| order(s)).max() else {
        return 0;
    };
    let margin = (MAX_SKILL.saturating_sub(skill) as i64) * MARGIN_PER_STEP as i64;
    let close: Vec<usize> = (0..scores.len())
        .filter(|&i| order(scores[i]) >= best - margin)
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    close[rng.gen_range(0..close.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weaker_levels_search_shallower() {
        assert_eq!(depth_cap(0), 1);
        assert!(depth_cap(10) < depth_cap(19));
        assert_eq!(limit(&Limits::depth(3), 19).depth, Some(3));
        assert_eq!(limit(&Limits::default(), 4).depth, Some(3));
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_follows_the_seed() {
        let scores = [
            Score::Cp(100),
            Score::Cp(90),
            Score::Cp(-300),
            Score::Mate(-2),
        ];
        for seed in 0..200 {
            let i = choose(&scores, 18, seed);
            assert!(i < 2, "seed {seed}: only lines within 40 cp of the best");
            assert_eq!(choose(&scores, 18, seed), i, "same seed, same choice");
        }
        let picked: std::collections::HashSet<usize> =
            (0..200).map(|seed| choose(&scores, 0, seed)).collect();
        assert_eq!(
            picked.len(),
            3,
            "skill 0 takes anything within 400 cp, never the lost line"
        );
        assert_eq!(
            choose(&[Score::Mate(3), Score::Cp(900)], 0, 7),
            0,
            "a mate beats any margin"
        );
    }
}
