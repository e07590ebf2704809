//! Playing below full strength, for the site's CPU seats, and varied play.
//!
//! A level (`Level` 0 … the game's [`crate::profile::Levels::count`], which
//! is full strength; `Skill` 0 … 20 names the level the same share of the way) plays
//! like a weaker player, not like a strong one throwing games away:
//! - it **reads less**: a node budget growing geometrically from 16 nodes at
//!   level 0 to about 100 000 at the strongest, so weak levels also answer at once,
//!   varied from move to move (see [`Level::limit`]);
//! - it **overlooks moves** ([`Weakness::blind_permille`]): a fixed share of the
//!   moves of each position, its own and its opponents', chosen by the
//!   position's key, is never seen (a threat or a capture missed), never all;
//! - it **misjudges** ([`Weakness::noise`]): every evaluation off by a bounded
//!   amount, the same for the same position;
//! - it **chooses loosely**: among its best root lines ([`CANDIDATES`] at
//!   level 0, fewer as the margin shrinks, on average just over one at the
//!   strongest; see [`Level::root_lines`]), uniformly among those within the
//!   level's margin of the best.
//!
//! What each level is worth is measured per game (a ladder of matches, Elo
//! anchored at a uniformly random mover = 0); the tables are each game's
//! profile's `levels.elo`. `Variety` applies the loose choice
//! alone, at full strength, in the opening.

#[cfg(test)]
mod pinned;
pub mod weak;

pub use weak::Weakness;

use crate::search::{Limits, Score, Value};
use crate::tune::{Params, Tunable};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// `Skill`'s full strength (the plain search): its levels are the game's
/// levels scaled to 0 … 20.
pub const MAX_SKILL: u32 = 20;
/// Node budget of level 0 and of a game's strongest level below full strength,
/// as powers of two (16 and about 104 000 nodes).
const FIRST_NODES_LOG2: f64 = 4.0;
const LAST_NODES_LOG2: f64 = 4.0 + 38.0 / 3.0;
/// The loose choice's margin at level 0 (centipawns), shrinking linearly.
const FIRST_MARGIN: f64 = 200.0;
/// Root lines searched to choose from at level 0 (and with `Variety`).
pub const CANDIDATES: usize = 4;
/// `Variety` chooses among near-equal moves only this many plies into a game.
pub const VARIETY_PLIES: u32 = 16;

/// The levels' tunables: level 0's noise and blindness in percent of the
/// game's own (its profile's `levels.noise` and `levels.blind_permille`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthParams {
    pub noise_percent: i32,
    pub blind_percent: i32,
}

impl Default for StrengthParams {
    fn default() -> Self {
        StrengthParams {
            noise_percent: 100,
            blind_percent: 100,
        }
    }
}

impl Params for StrengthParams {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_LevelNoisePercent", 0, 1000, |p| &mut p.noise_percent),
        Tunable::new("Tune_LevelBlindPercent", 0, 250, |p| &mut p.blind_percent),
    ];
}

/// What a level below full strength plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Nodes a search may use at most.
    pub nodes: u64,
    /// Evaluations are off by up to this (centipawns; Sugoroku: thousandths of a point).
    pub noise: Value,
    /// Moves overlooked per thousand.
    pub blind_permille: u32,
    /// A root move this close to the best may be chosen.
    pub margin: Value,
    /// Root lines searched to choose from, on average: every extra line
    /// costs reading depth, so the strongest levels, whose margins are a few
    /// centipawns, search about one like full strength does.
    pub lines: f64,
}

/// Level `index` (below `levels`, full strength) of a game whose level 0
/// misjudges by up to `noise` and overlooks `blind_permille` moves in a
/// thousand: every parameter moves smoothly from level 0 (reads a handful of
/// nodes) to the strongest (about 100 000 nodes, nearly no blindness or noise).
/// `spacing` places each level on that way, 0 at level 0 and 1 at the
/// evenly spaced strongest (empty: evenly), so that a game can take small
/// steps where its strength grows fast, and stop short of 1 where it stops
/// growing; a game with more levels takes smaller steps.
/// With the default [`StrengthParams`].
pub fn level(index: u32, levels: u32, spacing: &[f64], noise: Value, blind_permille: u32) -> Level {
    StrengthParams::default().level(index, levels, spacing, noise, blind_permille)
}

impl StrengthParams {
    /// [`level`] with these parameters.
    pub fn level(
        &self,
        index: u32,
        levels: u32,
        spacing: &[f64],
        noise: Value,
        blind_permille: u32,
    ) -> Level {
        let levels = levels.max(2);
        let index = index.min(levels - 1);
        // Evenly spaced, the levels 0 … levels - 1 have weakness 1 … 1 / levels.
        let (way, weakness) = match spacing.get(index as usize) {
            Some(&way) => {
                let way = way.clamp(0.0, 1.0);
                (way, 1.0 - way * (levels - 1) as f64 / levels as f64)
            }
            None => (
                index as f64 / (levels - 1) as f64,
                (levels - index) as f64 / levels as f64,
            ),
        };
        let squared = weakness * weakness;
        let noise = noise as f64 * self.noise_percent as f64 / 100.0;
        let blind = blind_permille as f64 * self.blind_percent as f64 / 100.0;
        Level {
            nodes: 2f64
                .powf(FIRST_NODES_LOG2 + (LAST_NODES_LOG2 - FIRST_NODES_LOG2) * way)
                .round() as u64,
            noise: (noise * squared).round() as Value,
            blind_permille: ((blind * squared).round() as u32).min(1000),
            margin: (FIRST_MARGIN * weakness).round() as Value,
            lines: 1.0 + (CANDIDATES - 1) as f64 * weakness,
        }
    }
}

/// The level `Skill` names in a game of `levels` levels: the same share of the
/// way to full strength.
pub fn level_of_skill(skill: u32, levels: u32) -> u32 {
    (skill.min(MAX_SKILL) * levels + MAX_SKILL / 2) / MAX_SKILL
}

impl Level {
    /// `limits` with the level's node budget applied, varied from move to
    /// move by a factor between 1/√2 and √2 drawn from `rng`: a fixed budget
    /// completes the same depth in most positions, so neighbouring levels
    /// would play alike until one reads a ply more and then leap; varied, a
    /// level reads its extra ply in a growing share of its moves.
    pub fn limit<M: Clone>(&self, limits: &Limits<M>, rng: &mut impl Rng) -> Limits<M> {
        let budget = (self.nodes as f64 * 2f64.powf(rng.gen::<f64>() - 0.5)).round() as u64;
        Limits {
            nodes: Some(limits.nodes.map_or(budget, |n| n.min(budget))),
            ..limits.clone()
        }
    }

    /// This move's root lines: [`Level::lines`] with its fraction drawn from
    /// `rng` (a level of 1.5 lines searches two in half its moves). A whole
    /// line more or less changes the depth read, so the count changes from
    /// level to level by fractions, not by whole lines.
    pub fn root_lines(&self, rng: &mut impl Rng) -> usize {
        let whole = self.lines.floor();
        whole as usize + usize::from(rng.gen::<f64>() < self.lines - whole)
    }

    /// The weakness of a search seeded with `seed`.
    pub fn weakness(&self, seed: u64) -> Weakness {
        Weakness {
            noise: self.noise,
            blind_permille: self.blind_permille,
            seed,
        }
    }
}

/// The level a `USI_Elo` asks for in a game whose levels measured `table`
/// (the Elo of levels 0, 1, …, the last full strength): the
/// strongest level not above it, level 0 below the weakest.
pub fn level_for_elo(table: &[i32], elo: i64) -> u32 {
    table.iter().rposition(|&e| e as i64 <= elo).unwrap_or(0) as u32
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
/// best first): uniformly among those within `margin` of the best.
pub fn choose(scores: &[Score], margin: Value, rng: &mut Xoshiro256PlusPlus) -> usize {
    let Some(best) = scores.iter().map(|&s| order(s)).max() else {
        return 0;
    };
    let close: Vec<usize> = (0..scores.len())
        .filter(|&i| order(scores[i]) >= best - margin as i64)
        .collect();
    close[rng.gen_range(0..close.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn levels_get_stronger_step_by_step() {
        for levels in [MAX_SKILL, 30] {
            let level = |index| level(index, levels, &[], 300, 400);
            for index in 1..levels {
                let (weaker, stronger) = (level(index - 1), level(index));
                assert!(stronger.nodes > weaker.nodes, "{levels}: {index}");
                assert!(
                    stronger.nodes <= 2 * weaker.nodes,
                    "{levels}: {index}: no jump"
                );
                assert!(stronger.noise <= weaker.noise, "{levels}: {index}");
                assert!(stronger.blind_permille <= weaker.blind_permille, "{index}");
                assert!(stronger.margin < weaker.margin, "{levels}: {index}");
            }
            let (weakest, strongest) = (level(0), level(levels - 1));
            assert_eq!(weakest.nodes, 16);
            assert_eq!(weakest.blind_permille, 400);
            assert_eq!(weakest.margin, 200);
            assert_eq!(
                strongest.nodes, 104_032,
                "{levels}: the same strongest budget"
            );
            assert!(strongest.blind_permille <= 1 && strongest.noise <= 1);
            assert_eq!(weakest.lines, CANDIDATES as f64);
            assert!(
                strongest.lines < 1.2,
                "{levels}: reads about like full strength"
            );
            assert!(
                (1..levels).all(|i| level(i).lines < level(i - 1).lines),
                "{levels}: fewer lines as the margin shrinks"
            );
        }
        // Twenty levels are Skill's own: 16 nodes doubling every 1.5 levels.
        assert_eq!(level(3, MAX_SKILL, &[], 0, 0).nodes, 64);
        assert_eq!(level(3, MAX_SKILL, &[], 0, 0).margin, 170);
        assert!(
            level(3, 30, &[], 0, 0).nodes < 64,
            "more levels, smaller steps"
        );
    }

    #[test]
    fn spacing_places_the_levels_on_the_way() {
        let even = |index| level(index, 30, &[], 300, 400);
        let spacing: Vec<f64> = (0..30).map(|i| (i as f64 / 29.0).powi(2)).collect();
        let spaced = |index| level(index, 30, &spacing, 300, 400);
        assert_eq!(spaced(0), even(0), "the same weakest");
        assert_eq!(spaced(29), even(29), "the same strongest");
        assert!(spaced(10).nodes < even(10).nodes && spaced(10).margin > even(10).margin);
        let way = spacing[10] * 29.0;
        let (below, above) = (even(way.floor() as u32), even(way.ceil() as u32));
        let nodes = spaced(10).nodes;
        assert!(
            below.nodes <= nodes && nodes <= above.nodes,
            "between its neighbours"
        );
        assert!(below.noise >= spaced(10).noise && spaced(10).noise >= above.noise);
    }

    #[test]
    fn a_levels_budget_varies_within_half_a_doubling() {
        let weakest = level(0, MAX_SKILL, &[], 0, 0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let budgets: Vec<u64> = (0..400)
            .map(|_| {
                weakest
                    .limit(&Limits::<String>::depth(9), &mut rng)
                    .nodes
                    .unwrap()
            })
            .collect();
        assert!(
            budgets.iter().all(|&n| (11..=23).contains(&n)),
            "{budgets:?}"
        );
        assert!(budgets.iter().any(|&n| n <= 12) && budgets.iter().any(|&n| n >= 22));
        let below = budgets.iter().filter(|&&n| n < 16).count();
        assert!(
            (150..250).contains(&below),
            "centred on the level's: {below}"
        );
        assert_eq!(
            weakest.limit(&Limits::<String>::nodes(5), &mut rng).nodes,
            Some(5),
            "a smaller limit stands"
        );
    }

    #[test]
    fn a_levels_root_lines_average_its_lines() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        assert!((0..50).all(|_| level(0, 30, &[], 0, 0).root_lines(&mut rng) == CANDIDATES));
        let between = level(15, 30, &[], 0, 0);
        assert_eq!(between.lines, 2.5);
        let drawn: Vec<usize> = (0..400).map(|_| between.root_lines(&mut rng)).collect();
        assert!(drawn.iter().all(|&n| n == 2 || n == 3), "{drawn:?}");
        let threes = drawn.iter().filter(|&&n| n == 3).count();
        assert!((150..250).contains(&threes), "half of the moves: {threes}");
    }

    #[test]
    fn skill_names_the_same_share_of_any_number_of_levels() {
        for skill in 0..=MAX_SKILL {
            assert_eq!(level_of_skill(skill, MAX_SKILL), skill);
        }
        assert_eq!(level_of_skill(0, 30), 0);
        assert_eq!(level_of_skill(1, 30), 2, "1.5 rounds up");
        assert_eq!(level_of_skill(10, 30), 15);
        assert_eq!(level_of_skill(19, 30), 29);
        assert_eq!(level_of_skill(MAX_SKILL, 30), 30, "full strength");
    }

    #[test]
    fn an_elo_names_the_strongest_level_not_above_it() {
        let table: Vec<i32> = (0..=20).map(|level| 50 + 100 * level).collect();
        assert_eq!(level_for_elo(&table, 0), 0, "below the weakest");
        assert_eq!(level_for_elo(&table, 50), 0);
        assert_eq!(level_for_elo(&table, 249), 1);
        assert_eq!(level_for_elo(&table, 250), 2);
        assert_eq!(level_for_elo(&table, 2049), 19);
        assert_eq!(level_for_elo(&table, 2050), 20, "full strength, the last");
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_follows_the_seed() {
        let scores = [
            Score::Cp(100),
            Score::Cp(90),
            Score::Cp(-300),
            Score::Mate(-2),
        ];
        let mut picked = std::collections::HashSet::new();
        for seed in 0..200 {
            let i = choose(&scores, 40, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            assert!(i < 2, "seed {seed}: only lines within 40 cp of the best");
            let again = choose(&scores, 40, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            assert_eq!(again, i, "same seed, same choice");
            picked.insert(choose(
                &scores,
                400,
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            ));
        }
        assert_eq!(picked.len(), 3, "400 cp: anything but the lost line");
        assert_eq!(
            choose(
                &[Score::Mate(3), Score::Cp(900)],
                400,
                &mut Xoshiro256PlusPlus::seed_from_u64(7)
            ),
            0,
            "a mate beats any margin"
        );
    }
}
