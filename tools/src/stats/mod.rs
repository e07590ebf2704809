//! Match statistics: Elo from a score, its 95 % error bar, likelihood of
//! superiority, and the GSPRT log-likelihood ratio on trinomial (per game) or
//! pentanomial (per game pair) counts.
//!
//! The LLR is the generalised SPRT used by Fishtest: for each hypothesis the
//! maximum-likelihood distribution whose mean score is the hypothesis's score is
//! found (a one-dimensional root search), and the LLR is the log of the ratio of
//! the data's likelihoods under the two.
//!
//! [`fit`] gives the ladder one Elo per level from the games between them.

pub mod fit;

/// Two-sided 95 % quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score of a player `elo` points stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of an expected score; ±infinity at 1 and 0.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// Counts of outcomes with their score values (per game: 0, ½, 1; per pair: 0, ¼,
/// ½, ¾, 1 as the mean of the pair).
#[derive(Clone, Debug)]
pub struct Distribution {
    pub values: Vec<f64>,
    pub counts: Vec<f64>,
}

impl Distribution {
    /// Losses, draws, wins.
    pub fn trinomial(losses: u64, draws: u64, wins: u64) -> Self {
        Distribution {
            values: vec![0.0, 0.5, 1.0],
            counts: vec![losses as f64, draws as f64, wins as f64],
        }
    }

    /// Pair totals 0, ½, 1, 1½, 2 (LL, LD, DD+WL, WD, WW), as pair means.
    pub fn pentanomial(counts: [u64; 5]) -> Self {
        Distribution {
            values: vec![0.0, 0.25, 0.5, 0.75, 1.0],
            counts: counts.iter().map(|&c| c as f64).collect(),
        }
    }

    pub fn total(&self) -> f64 {
        self.counts.iter().sum()
    }

    pub fn mean(&self) -> f64 {
        let n = self.total();
        self.values
            .iter()
            .zip(&self.counts)
            .map(|(v, c)| v * c)
            .sum::<f64>()
            / n
    }

    /// Variance of one unit (a game or a pair).
    pub fn variance(&self) -> f64 {
        let n = self.total();
        let mu = self.mean();
        self.values
            .iter()
            .zip(&self.counts)
            .map(|(v, c)| c * (v - mu) * (v - mu))
            .sum::<f64>()
            / n
    }
}

/// An Elo estimate with its 95 % error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95 % interval, in Elo (NaN when undefined,
    /// infinite when an end is).
    pub error: f64,
    /// The interval's ends (±infinity where the score's interval reaches 0 or 1).
    pub low: f64,
    pub high: f64,
    /// Likelihood of superiority (probability the true score is above ½).
    pub los: f64,
}

/// Elo and error bar from a distribution (the interval of the mean score mapped
/// through the logistic curve, as cutechess-cli and Fishtest report it).
pub fn elo_estimate(dist: &Distribution) -> Option<EloEstimate> {
    let n = dist.total();
    if n <= 0.0 {
        return None;
    }
    let mu = dist.mean();
    let sd = (dist.variance() / n).sqrt();
    let lo = elo_of_score(mu - Z95 * sd);
    let hi = elo_of_score(mu + Z95 * sd);
    let los = if sd > 0.0 {
        0.5 * (1.0 + erf((mu - 0.5) / (sd * std::f64::consts::SQRT_2)))
    } else if mu > 0.5 {
        1.0
    } else if mu < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        elo: elo_of_score(mu),
        error: (hi - lo) / 2.0,
        low: lo,
        high: hi,
        los,
    })
}

impl EloEstimate {
    /// The estimate and its 95 % interval on `basis` as the summaries print
    /// them: `+12.3 +/- 4.5 (95%, basis)`, or with the ends where one is
    /// unbounded (a side that never lost a pair): `+381.7, 95% interval
    /// +215.9 to +inf (basis)`.
    pub fn describe(&self, basis: &str) -> String {
        if self.error.is_finite() {
            return format!("{:+.1} +/- {:.1} (95%, {basis})", self.elo, self.error);
        }
        // `{:+.1}` writes an unbounded end as `+inf` or `-inf`.
        format!(
            "{:+.1}, 95% interval {:+.1} to {:+.1} ({basis})",
            self.elo, self.low, self.high
        )
    }
}

/// The error function (Abramowitz–Stegun 7.1.26 refined by a series for small x;
/// 1e-7 accuracy is plenty here).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// The distribution maximising the likelihood of `dist` among those with mean
/// `s` (the constrained MLE), as probabilities.
fn mle_with_mean(probs: &[f64], values: &[f64], s: f64) -> Vec<f64> {
    // p_i = q_i / (1 + x (a_i - s)), with x solving sum q_i (a_i - s) / (1 + x (a_i - s)) = 0.
    let d: Vec<f64> = values.iter().map(|a| a - s).collect();
    let max = d.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = d.iter().cloned().fold(f64::INFINITY, f64::min);
    if max <= 0.0 || min >= 0.0 {
        // s outside the value range: no such distribution; keep the data's.
        return probs.to_vec();
    }
    let f = |x: f64| -> f64 {
        probs
            .iter()
            .zip(&d)
            .map(|(q, di)| q * di / (1.0 + x * di))
            .sum()
    };
    // f decreases on (-1/max, -1/min).
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let eps = 1e-12;
    lo += eps * (hi - lo);
    hi -= eps * (hi - lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    probs
        .iter()
        .zip(&d)
        .map(|(q, di)| q / (1.0 + x * di))
        .collect()
}

/// The GSPRT log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`).
/// Empty cells are regularised with a count of 1e-3, as Fishtest does.
pub fn llr(dist: &Distribution, elo0: f64, elo1: f64) -> f64 {
    let n = dist.total();
    if n <= 0.0 {
        return 0.0;
    }
    let counts: Vec<f64> = dist
        .counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let total: f64 = counts.iter().sum();
    let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    let p0 = mle_with_mean(&probs, &dist.values, s0);
    let p1 = mle_with_mean(&probs, &dist.values, s1);
    n * probs
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(q, (a, b))| q * (b / a).ln())
        .sum::<f64>()
}

/// The normal approximation of the LLR: N (s1 − s0)(2μ − s0 − s1) / (2σ²).
pub fn llr_normal(dist: &Distribution, elo0: f64, elo1: f64) -> f64 {
    let n = dist.total();
    let var = dist.variance();
    if n <= 0.0 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    n * (s1 - s0) * (2.0 * dist.mean() - s0 - s1) / (2.0 * var)
}

/// SPRT parameters and decision bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    /// H0 accepted: not the hoped-for gain.
    H0,
    /// H1 accepted: the gain is there.
    H1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; missing alpha and
    /// beta default to 0.05, missing elo0 to 0).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("sprt: '{word}': expected key=value"))?;
            let value: f64 = value
                .parse()
                .map_err(|_| format!("sprt: '{word}': not a number"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => {
                    return Err(format!(
                        "sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if sprt.elo1.is_nan() {
            return Err("sprt: elo1 is required".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("sprt: elo1 must be greater than elo0".into());
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("sprt: {name} must be in (0, 0.5)"));
            }
        }
        Ok(sprt)
    }

    /// ln(β / (1 − α)): H0 is accepted at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// ln((1 − β) / α): H1 is accepted at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        // 60 % → +70.4 Elo; 75 % → +190.8; 10 to 1 odds → +400.
        assert!(close(elo_of_score(0.6), 70.437, 1e-3));
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert!(close(elo_of_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_of_score(0.4), -70.437, 1e-3));
        for elo in [-300.0, -5.0, 0.0, 12.5, 250.0] {
            assert!(close(elo_of_score(score_of_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn sixty_percent_over_a_hundred_games() {
        // 60 wins, 40 losses: σ = √(0.24/100) ≈ 0.049, 95 % interval of the score
        // 0.504 … 0.696, i.e. +2.8 … +144.1 Elo: +70.4 ± 70.7.
        let est = elo_estimate(&Distribution::trinomial(40, 0, 60)).unwrap();
        assert!(close(est.elo, 70.44, 0.01), "{est:?}");
        assert!(close(est.error, 70.65, 0.1), "{est:?}");
        assert!(close(est.los, 0.97928, 1e-3), "{est:?}");
        // 50 wins, 20 draws, 30 losses: also 60 %, a narrower interval.
        let est = elo_estimate(&Distribution::trinomial(30, 20, 50)).unwrap();
        assert!(close(est.elo, 70.44, 0.01));
        assert!(est.error < 70.0 && est.error > 55.0, "{est:?}");
    }

    #[test]
    fn an_interval_reaching_a_perfect_score_prints_its_finite_end() {
        // 18 wins, 2 losses: σ ≈ 0.067, the score's interval 0.769 … 1.03.
        let est = elo_estimate(&Distribution::trinomial(2, 0, 18)).unwrap();
        assert_eq!(est.high, f64::INFINITY);
        assert!(close(
            est.low,
            elo_of_score(0.9 - Z95 * 0.3 / 20f64.sqrt()),
            1e-9
        ));
        assert_eq!(
            est.describe("games"),
            format!("+381.7, 95% interval {:+.1} to +inf (games)", est.low)
        );
        let lost = elo_estimate(&Distribution::trinomial(18, 0, 2)).unwrap();
        assert!(lost
            .describe("games")
            .starts_with("-381.7, 95% interval -inf to -"));
        let bounded = elo_estimate(&Distribution::trinomial(40, 0, 60)).unwrap();
        assert_eq!(bounded.describe("games"), "+70.4 +/- 70.6 (95%, games)");
    }

    #[test]
    fn even_score_has_zero_elo_and_half_los() {
        let est = elo_estimate(&Distribution::trinomial(10, 5, 10)).unwrap();
        assert!(close(est.elo, 0.0, 1e-9));
        assert!(close(est.los, 0.5, 1e-9));
        assert!(elo_estimate(&Distribution::trinomial(0, 0, 0)).is_none());
    }

    #[test]
    fn erf_matches_tables() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_9, 1e-6));
        assert!(close(erf(1.0), 0.842_700_8, 1e-6));
        assert!(close(erf(-2.0), -0.995_322_3, 1e-6));
    }

    #[test]
    fn sprt_bounds() {
        let sprt = Sprt::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05".into()]).unwrap();
        assert!(close(sprt.lower_bound(), -2.944_439, 1e-6));
        assert!(close(sprt.upper_bound(), 2.944_439, 1e-6));
        assert_eq!(sprt.decide(3.0), SprtDecision::H1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::H0);
        assert_eq!(sprt.decide(0.0), SprtDecision::Continue);
        assert!(Sprt::parse(&["elo0=5 elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0".into()]).is_err());
        assert!(Sprt::parse(&["elo1=5 gamma=1".into()]).is_err());
    }

    #[test]
    fn gsprt_llr_agrees_with_the_normal_approximation() {
        // Large samples: the exact GSPRT and the normal approximation agree closely.
        let penta = Distribution::pentanomial([500, 2500, 5000, 2600, 520]);
        let (exact, approx) = (llr(&penta, 0.0, 5.0), llr_normal(&penta, 0.0, 5.0));
        assert!(
            close(exact, approx, 0.02 * approx.abs().max(1.0)),
            "{exact} {approx}"
        );
        let tri = Distribution::trinomial(3000, 4000, 3200);
        let (exact, approx) = (llr(&tri, 0.0, 5.0), llr_normal(&tri, 0.0, 5.0));
        assert!(
            close(exact, approx, 0.02 * approx.abs().max(1.0)),
            "{exact} {approx}"
        );
        // Hand-checked normal approximation: 60 % of 100 games, elo0 0, elo1 10.
        let tri = Distribution::trinomial(40, 0, 60);
        let s1 = score_of_elo(10.0);
        let expected = 100.0 * (s1 - 0.5) * (1.2 - 0.5 - s1) / (2.0 * 0.24);
        assert!(close(llr_normal(&tri, 0.0, 10.0), expected, 1e-9));
        assert!(
            close(llr(&tri, 0.0, 10.0), expected, 0.05),
            "{}",
            llr(&tri, 0.0, 10.0)
        );
    }

    #[test]
    fn llr_sign_follows_the_evidence() {
        let strong = Distribution::pentanomial([10, 50, 100, 80, 30]);
        let weak = Distribution::pentanomial([30, 80, 100, 50, 10]);
        assert!(llr(&strong, 0.0, 5.0) > 0.0);
        assert!(llr(&weak, 0.0, 5.0) < 0.0);
        // A clearly stronger engine crosses the upper bound.
        let sprt = Sprt::parse(&["elo0=0 elo1=10".into()]).unwrap();
        let crushing = Distribution::pentanomial([5, 20, 100, 150, 80]);
        assert_eq!(sprt.decide(llr(&crushing, 0.0, 10.0)), SprtDecision::H1);
        assert_eq!(llr(&Distribution::pentanomial([0; 5]), 0.0, 5.0), 0.0);
    }
}
