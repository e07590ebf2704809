//! One Elo per level from the games between them: the Bradley–Terry
//! (logistic) model fitted by maximum likelihood on the game scores, the
//! first level (the anchor) fixed at 0.
//!
//! Level `i` is expected to score `1 / (1 + 10^((R_j − R_i) / 400))` against
//! level `j`. A game with score `s` (0–1: a win 1, a draw ½, Yonin's place
//! points) adds `s·ln p + (1 − s)·ln(1 − p)` to the log-likelihood, which is
//! concave in the ratings, so Newton's method finds its maximum. With scores
//! in {0, 1} this is the plain Bradley–Terry likelihood; fractional scores
//! count as that share of a win.
//!
//! **The prior.** A level that wins (or loses) every game against its
//! neighbours has no finite maximum-likelihood rating, so `prior_draws`
//! virtual draws are added between every two levels that played (one by
//! default in the ladder): a sweep of 20 games then reads as 20.5 of 21, not
//! as infinitely strong. Its pull is negligible over hundreds of games.
//!
//! **The intervals.** Games of one pairing (the same opening from both
//! sides, or Sugoroku's duplicate dice) are not independent, so the error
//! bars are the sandwich (robust) estimate clustered by pairing,
//! `I⁻¹ J I⁻¹`: `I` the information (minus the Hessian), `J` the sum over
//! pairings of the outer products of their score gradients. For one pair of
//! levels this is the match runner's interval (the spread of the scores per
//! pairing, through the logistic curve) to first order; every virtual draw is
//! a unit of its own. The 95 % half-width is `1.96·√Cov(i, i)`.

use crate::stats::Z95;
use std::collections::BTreeMap;

/// One game between two levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    /// The score of `a` against `b`, 0–1.
    pub score: f64,
    /// The group of correlated games the game belongs to (its pairing): games
    /// with the same unit are one term of the sandwich estimate.
    pub unit: u64,
}

/// Elo per level: the anchor (level 0) at 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// NaN for a level that no chain of games links to the anchor.
    pub elo: Vec<f64>,
    /// Half-width of the 95 % interval: 0 for the anchor, NaN where the
    /// rating is not fitted.
    pub error: Vec<f64>,
    /// Games played by each level (virtual draws not counted).
    pub games: Vec<u64>,
}

/// ln(10) / 400: Elo to the natural logit.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Ratings above this mean the data cannot fix them (a sweep without prior).
const DIVERGED: f64 = 20_000.0;

fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + (-C * diff).exp())
}

/// Fits one rating per level (`levels` of them) to `games`, level 0 fixed
/// at 0, with `prior_draws` virtual draws between every two levels that met.
pub fn fit(levels: usize, games: &[Game], prior_draws: f64) -> Result<Fit, String> {
    if levels == 0 {
        return Err("no levels to fit".into());
    }
    if !(prior_draws.is_finite() && prior_draws >= 0.0) {
        return Err(format!("prior draws {prior_draws}: must be 0 or more"));
    }
    for g in games {
        if g.a >= levels || g.b >= levels || g.a == g.b {
            return Err(format!(
                "a game between levels {} and {} (of {levels})",
                g.a, g.b
            ));
        }
        if !(0.0..=1.0).contains(&g.score) {
            return Err(format!("a game score of {} (must be 0 to 1)", g.score));
        }
    }
    let mut played = vec![0u64; levels];
    for g in games {
        played[g.a] += 1;
        played[g.b] += 1;
    }
    // Weighted games: (a, b, score, weight, unit). Units of the virtual
    // draws are numbered past every real one.
    let mut units: BTreeMap<(bool, u64), usize> = BTreeMap::new();
    let mut terms: Vec<(usize, usize, f64, f64, usize)> = Vec::new();
    for g in games {
        let next = units.len();
        let unit = *units.entry((false, g.unit)).or_insert(next);
        terms.push((g.a, g.b, g.score, 1.0, unit));
    }
    if prior_draws > 0.0 {
        let mut met: Vec<(usize, usize)> =
            games.iter().map(|g| (g.a.min(g.b), g.a.max(g.b))).collect();
        met.sort_unstable();
        met.dedup();
        for (k, (a, b)) in met.into_iter().enumerate() {
            let next = units.len();
            let unit = *units.entry((true, k as u64)).or_insert(next);
            terms.push((a, b, 0.5, prior_draws, unit));
        }
    }

    // The levels linked to the anchor, and their places among the unknowns.
    let mut linked = vec![false; levels];
    linked[0] = true;
    loop {
        let mut grew = false;
        for &(a, b, ..) in &terms {
            if linked[a] != linked[b] {
                linked[a] = true;
                linked[b] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let free: Vec<usize> = (1..levels).filter(|&i| linked[i]).collect();
    let mut index = vec![None; levels];
    for (k, &level) in free.iter().enumerate() {
        index[level] = Some(k);
    }
    let n = free.len();
    let mut rating = vec![0.0; levels];
    let terms: Vec<_> = terms
        .into_iter()
        .filter(|&(a, b, ..)| linked[a] && linked[b])
        .collect();

    // The gradient and information of the log-likelihood at `rating`, in Elo.
    let derivatives = |rating: &[f64]| {
        let mut gradient = vec![0.0; n];
        let mut information = vec![vec![0.0; n]; n];
        for &(a, b, s, w, _) in &terms {
            let p = expected(rating[a] - rating[b]);
            let (g, h) = (w * C * (s - p), w * C * C * p * (1.0 - p));
            let (ia, ib) = (index[a], index[b]);
            if let Some(i) = ia {
                gradient[i] += g;
                information[i][i] += h;
            }
            if let Some(j) = ib {
                gradient[j] -= g;
                information[j][j] += h;
            }
            if let (Some(i), Some(j)) = (ia, ib) {
                information[i][j] -= h;
                information[j][i] -= h;
            }
        }
        (gradient, information)
    };

    let mut converged = n == 0;
    for _ in 0..500 {
        if n == 0 {
            break;
        }
        let (gradient, information) = derivatives(&rating);
        let step = solve(&information, &gradient).ok_or("the fit is singular")?;
        // Damped: at most 400 Elo a step, so that a far start cannot overshoot.
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > 400.0 {
            400.0 / largest
        } else {
            1.0
        };
        for (k, &level) in free.iter().enumerate() {
            rating[level] += step[k] * scale;
        }
        if rating.iter().any(|r| r.abs() > DIVERGED) {
            break;
        }
        if largest < 1e-7 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(
            "the ratings do not converge: a level won or lost every game against the \
             levels it met (add virtual draws)"
                .into(),
        );
    }

    // The sandwich estimate, clustered by unit.
    let (_, information) = derivatives(&rating);
    let mut by_unit: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for &(a, b, s, w, unit) in &terms {
        let g = w * C * (s - expected(rating[a] - rating[b]));
        let slot = by_unit.entry(unit).or_insert_with(|| vec![0.0; n]);
        if let Some(i) = index[a] {
            slot[i] += g;
        }
        if let Some(j) = index[b] {
            slot[j] -= g;
        }
    }
    let inverse = invert(&information);
    let mut error = vec![f64::NAN; levels];
    error[0] = 0.0;
    if let Some(inverse) = inverse {
        // Cov = I⁻¹ J I⁻¹; only its diagonal is needed: Σ_u (I⁻¹ g_u)_k².
        let mut variance = vec![0.0; n];
        for g in by_unit.values() {
            for (k, v) in variance.iter_mut().enumerate() {
                let x: f64 = (0..n).map(|j| inverse[k][j] * g[j]).sum();
                *v += x * x;
            }
        }
        for (k, &level) in free.iter().enumerate() {
            error[level] = Z95 * variance[k].sqrt();
        }
    }
    let elo = (0..levels)
        .map(|i| if linked[i] { rating[i] + 0.0 } else { f64::NAN })
        .collect();
    Ok(Fit {
        elo,
        error,
        games: played,
    })
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting.
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(v)
        .map(|(row, &x)| {
            let mut row = row.clone();
            row.push(x);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            if r != col && factor != 0.0 {
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The inverse of a square matrix, column by column.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut columns = Vec::with_capacity(n);
    for k in 0..n {
        let unit: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == k))).collect();
        columns.push(solve(m, &unit)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::score_of_elo;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// `n` games of `a` against `b` (`a` scoring `wins` of them), each its own unit.
    fn games(a: usize, b: usize, n: u64, wins: u64, unit_base: u64) -> Vec<Game> {
        (0..n)
            .map(|k| Game {
                a,
                b,
                score: if k < wins { 1.0 } else { 0.0 },
                unit: unit_base + k,
            })
            .collect()
    }

    /// Games between neighbours drawn from the model with ratings `truth`.
    fn simulated(truth: &[f64], per_pair: u64, seed: u64) -> Vec<Game> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut all = Vec::new();
        for a in 0..truth.len() - 1 {
            let p = score_of_elo(truth[a] - truth[a + 1]);
            for k in 0..per_pair {
                all.push(Game {
                    a,
                    b: a + 1,
                    score: if rng.gen::<f64>() < p { 1.0 } else { 0.0 },
                    unit: (a as u64) << 32 | k,
                });
            }
        }
        all
    }

    #[test]
    fn exact_scores_give_back_the_ratings_they_came_from() {
        let truth = [0.0, 120.0, 180.0, 400.0, 330.0];
        let mut all = Vec::new();
        for a in 0..truth.len() - 1 {
            let n = 100_000;
            let wins = (score_of_elo(truth[a] - truth[a + 1]) * n as f64).round() as u64;
            all.extend(games(a, a + 1, n, wins, (a as u64) << 32));
        }
        let fit = fit(truth.len(), &all, 0.0).unwrap();
        for (got, want) in fit.elo.iter().zip(truth) {
            assert!((got - want).abs() < 0.5, "{:?} vs {truth:?}", fit.elo);
        }
        // One virtual draw per pair barely moves 100 000 games.
        let with_prior = super::fit(truth.len(), &all, 1.0).unwrap();
        for (got, want) in with_prior.elo.iter().zip(truth) {
            assert!((got - want).abs() < 1.0, "{:?}", with_prior.elo);
        }
        assert_eq!(fit.games, vec![100_000, 200_000, 200_000, 200_000, 100_000]);
    }

    #[test]
    fn simulated_games_land_within_their_intervals() {
        let truth = [0.0, 150.0, 250.0, 400.0];
        let mut misses = 0;
        let mut checks = 0;
        for seed in 0..20 {
            let fit = fit(truth.len(), &simulated(&truth, 400, seed), 1.0).unwrap();
            for (level, want) in truth.iter().enumerate().skip(1) {
                checks += 1;
                misses += usize::from((fit.elo[level] - want).abs() > fit.error[level]);
            }
        }
        // 95 % intervals: about 3 misses in 60; far more means they are too narrow.
        assert!(
            misses <= 9,
            "{misses} of {checks} outside their 95% interval"
        );
    }

    #[test]
    fn the_anchor_stays_at_zero_and_the_others_move_around_it() {
        // The anchor is the strongest here: the others come out below 0.
        let mut all = games(0, 1, 200, 150, 0);
        all.extend(games(1, 2, 200, 100, 1000));
        let fit = fit(3, &all, 1.0).unwrap();
        assert_eq!(fit.elo[0], 0.0);
        assert_eq!(fit.error[0], 0.0);
        assert!(fit.elo[1] < -150.0 && fit.elo[1] > -240.0, "{:?}", fit.elo);
        assert!((fit.elo[2] - fit.elo[1]).abs() < 10.0, "{:?}", fit.elo);
        // Levels given the other way round: the same differences, mirrored.
        let swapped: Vec<Game> = all
            .iter()
            .map(|g| Game {
                a: g.b,
                b: g.a,
                score: 1.0 - g.score,
                unit: g.unit,
            })
            .collect();
        let mirror = super::fit(3, &swapped, 1.0).unwrap();
        for (x, y) in fit.elo.iter().zip(&mirror.elo) {
            assert!((x - y).abs() < 1e-6);
        }
    }

    #[test]
    fn intervals_shrink_with_more_games() {
        let truth = [0.0, 100.0, 200.0];
        let widths: Vec<f64> = [100, 400, 1600]
            .iter()
            .map(|&n| fit(3, &simulated(&truth, n, 7), 1.0).unwrap().error[2])
            .collect();
        assert!(widths[0] > widths[1] && widths[1] > widths[2], "{widths:?}");
        // Four times the games, about half the width.
        for pair in widths.windows(2) {
            let ratio = pair[0] / pair[1];
            assert!((1.6..2.5).contains(&ratio), "{widths:?}");
        }
        // The top of a chain is as uncertain as the steps below it together.
        let fit = fit(3, &simulated(&truth, 400, 3), 1.0).unwrap();
        assert!(fit.error[2] > fit.error[1], "{:?}", fit.error);
    }

    #[test]
    fn one_pair_matches_the_runners_interval() {
        // 60 % of 100 decisive games: the runner says +70.4 +/- 70.7.
        let fit = fit(2, &games(1, 0, 100, 60, 0), 0.0).unwrap();
        assert!((fit.elo[1] - 70.4).abs() < 0.1, "{:?}", fit.elo);
        assert!((fit.error[1] - 70.7).abs() < 3.0, "{:?}", fit.error);
    }

    #[test]
    fn games_of_one_pairing_count_as_one_unit() {
        // Each pairing: one win and one loss (what swapped colours do when
        // the opening decides): no doubt at all about a 50 % score.
        let paired: Vec<Game> = (0..100)
            .map(|k| Game {
                a: 0,
                b: 1,
                score: (k % 2) as f64,
                unit: k / 2,
            })
            .collect();
        let single: Vec<Game> = paired
            .iter()
            .enumerate()
            .map(|(k, g)| Game {
                unit: k as u64,
                ..*g
            })
            .collect();
        let (paired, single) = (fit(2, &paired, 0.0).unwrap(), fit(2, &single, 0.0).unwrap());
        assert!(paired.elo[1].abs() < 1e-6 && single.elo[1].abs() < 1e-6);
        assert!(paired.error[1] < 1e-6, "{:?}", paired.error);
        assert!(single.error[1] > 50.0, "{:?}", single.error);
    }

    #[test]
    fn a_sweep_needs_the_prior_and_gets_a_finite_rating_with_it() {
        let sweep = games(1, 0, 20, 20, 0);
        assert!(fit(2, &sweep, 0.0).is_err());
        let fit = fit(2, &sweep, 1.0).unwrap();
        // 20.5 of 21.
        let expected = crate::stats::elo_of_score(20.5 / 21.0);
        assert!((fit.elo[1] - expected).abs() < 0.5, "{:?}", fit.elo);
        assert!(
            fit.error[1] > 200.0 && fit.error[1].is_finite(),
            "{:?}",
            fit.error
        );
    }

    #[test]
    fn fractional_scores_and_unlinked_levels() {
        // Yonin's place points: 2/3 on average is a 2-to-1 score.
        let thirds: Vec<Game> = (0..90)
            .map(|k| Game {
                a: 1,
                b: 0,
                score: [1.0, 2.0 / 3.0, 1.0 / 3.0][k % 3],
                unit: k as u64,
            })
            .collect();
        let fit = fit(3, &thirds, 0.0).unwrap();
        assert!((fit.elo[1] - crate::stats::elo_of_score(2.0 / 3.0)).abs() < 0.1);
        // Level 2 never played: no rating, no interval.
        assert!(fit.elo[2].is_nan() && fit.error[2].is_nan());
        assert_eq!(fit.games, vec![90, 90, 0]);
    }

    #[test]
    fn bad_input_is_refused() {
        let game = |a, b, score| Game {
            a,
            b,
            score,
            unit: 0,
        };
        assert!(fit(0, &[], 1.0).is_err());
        assert!(fit(2, &[game(0, 2, 1.0)], 1.0).is_err());
        assert!(fit(2, &[game(1, 1, 1.0)], 1.0).is_err());
        assert!(fit(2, &[game(0, 1, 1.5)], 1.0).is_err());
        assert!(fit(2, &[game(0, 1, f64::NAN)], 1.0).is_err());
        assert!(fit(2, &[game(0, 1, 1.0)], -1.0).is_err());
        // No games: only the anchor has a rating.
        let empty = fit(2, &[], 1.0).unwrap();
        assert_eq!(empty.elo[0], 0.0);
        assert!(empty.elo[1].is_nan());
    }
}
