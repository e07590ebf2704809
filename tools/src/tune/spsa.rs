//! SPSA (simultaneous perturbation stochastic approximation) through the
//! match runner: `match tune`. Named engine parameters (integer options,
//! `Tune_…` in Yomi) are moved towards their best values by games of the
//! engine against itself: each iteration `k` draws a random sign `Δᵢ = ±1` per
//! parameter, plays `θ + c_k·stepᵢ·Δ` against `θ − c_k·stepᵢ·Δ` (a match
//! through the runner: pairings with the colours swapped, Yonin's partners
//! opposite, Sugoroku's duplicate dice) and moves every parameter at once by
//!
//! ```text
//! θᵢ ← clamp(θᵢ + stepᵢ · a_k · r / (2 · c_k · Δᵢ), minᵢ, maxᵢ)
//! a_k = a / (A + k + 1)^α        c_k = c / (k + 1)^γ
//! ```
//!
//! where `r` is the plus engine's score minus the minus engine's, per game
//! (−1 … 1). `a` and `c` count in steps: the perturbation is `c_k` steps of
//! each parameter, the move `a_k · r / (2 c_k)` steps. The trajectory is a
//! JSON lines file (a `tune` header, one `iteration` line per iteration),
//! written as it goes and resumed from its last θ. See docs/match.md,
//! "Tuning".

use crate::json::{self, Json};
use crate::results::header_fields as match_fields;
use crate::results::{append_results, create_results, differences, header_text};
use crate::results::{read_trajectory, Trajectory};
use crate::runner::config::MatchConfig;
use crate::runner::engine::{EngineProcess, EngineSpec};
use crate::runner::play_rest;
use crate::runner::schedule::{games_of, games_per_pair, mix, Openings};
use crate::runner::RunOptions;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::time::Duration;

/// The schedule's defaults (see [`Schedule`]).
pub const DEFAULT_A: f64 = 10.0;
pub const DEFAULT_C: f64 = 2.0;
pub const DEFAULT_ALPHA: f64 = 0.602;
pub const DEFAULT_GAMMA: f64 = 0.101;
/// `A` by default: this percentage of the iterations.
pub const DEFAULT_A_PERCENT: f64 = 10.0;

/// Mixed into the seed for the perturbations, so that they are drawn
/// independently of the openings and dice of the same seed.
const DELTA_SALT: u64 = 0x5b5a_d17a;

/// One tuned parameter: an integer option of the engine, moved in
/// `min..=max` (whole numbers) by multiples of `step`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub step: f64,
}

impl Param {
    /// Parses `NAME=START,MIN,MAX,STEP`.
    pub fn parse(text: &str) -> Result<Param, String> {
        let text = text.trim();
        let shape = || format!("parameter '{text}': expected NAME=START,MIN,MAX,STEP");
        let (name, values) = text.split_once('=').ok_or_else(shape)?;
        let name = name.trim();
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        if name.is_empty() || name.contains(char::is_whitespace) || values.len() != 4 {
            return Err(shape());
        }
        let number = |what: &str, value: &str| {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("parameter {name}: {what} '{value}' is not a number"))
        };
        let param = Param {
            name: name.to_string(),
            start: number("start", values[0])?,
            min: number("min", values[1])?,
            max: number("max", values[2])?,
            step: number("step", values[3])?,
        };
        let Param {
            start,
            min,
            max,
            step,
            ..
        } = param;
        if min.fract() != 0.0 || max.fract() != 0.0 {
            return Err(format!(
                "parameter {name}: min and max must be whole numbers (the option is an integer)"
            ));
        }
        if min >= max {
            return Err(format!(
                "parameter {name}: min {min} must be below max {max}"
            ));
        }
        if !(min..=max).contains(&start) {
            return Err(format!(
                "parameter {name}: start {start} is outside {min}..{max}"
            ));
        }
        if step <= 0.0 {
            return Err(format!("parameter {name}: step {step} must be above 0"));
        }
        Ok(param)
    }

    /// `NAME=START,MIN,MAX,STEP`, as [`Param::parse`] reads it.
    pub fn describe(&self) -> String {
        format!(
            "{}={},{},{},{}",
            self.name, self.start, self.min, self.max, self.step
        )
    }

    /// The option value for `value`: clamped to the range and rounded to the
    /// nearest integer (halves away from zero).
    pub fn option_value(&self, value: f64) -> i64 {
        value.clamp(self.min, self.max).round() as i64
    }
}

/// Parameters from a file: one `NAME=START,MIN,MAX,STEP` a line; blank lines
/// and `#` comments are skipped. `file` names it in errors.
pub fn parse_params_file(text: &str, file: &str) -> Result<Vec<Param>, String> {
    text.lines()
        .enumerate()
        .map(|(number, line)| (number + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
        .map(|(number, line)| Param::parse(line).map_err(|e| format!("{file}:{number}: {e}")))
        .collect()
}

/// Whether `params` can be tuned together: one or more, no name twice (option
/// names compare without regard to case).
pub fn check_params(params: &[Param]) -> Result<(), String> {
    if params.is_empty() {
        return Err(
            "give the parameters to tune: --param NAME=START,MIN,MAX,STEP or --params FILE".into(),
        );
    }
    for (i, param) in params.iter().enumerate() {
        if params[..i]
            .iter()
            .any(|other| other.name.eq_ignore_ascii_case(&param.name))
        {
            return Err(format!("parameter {} is given twice", param.name));
        }
    }
    Ok(())
}

/// The gains: `a_k = a / (A + k + 1)^α` and `c_k = c / (k + 1)^γ` for
/// iteration `k` (0 first); `a` and `c` count in steps of each parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub a: f64,
    pub c: f64,
    /// The stability constant `A`.
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    /// A schedule, `A` (`big_a`) by default a tenth of the `iterations`.
    pub fn new(
        a: f64,
        c: f64,
        big_a: Option<f64>,
        alpha: f64,
        gamma: f64,
        iterations: u64,
    ) -> Result<Schedule, String> {
        let big_a = big_a.unwrap_or(iterations as f64 * DEFAULT_A_PERCENT / 100.0);
        for (flag, value) in [("--a", a), ("--c", c)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("{flag} {value}: must be above 0"));
            }
        }
        for (flag, value) in [("--A", big_a), ("--alpha", alpha), ("--gamma", gamma)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(format!("{flag} {value}: must be 0 or more"));
            }
        }
        Ok(Schedule {
            a,
            c,
            big_a,
            alpha,
            gamma,
        })
    }

    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (self.big_a + k as f64 + 1.0).powf(self.alpha)
    }

    pub fn c_k(&self, k: u64) -> f64 {
        self.c / (k as f64 + 1.0).powf(self.gamma)
    }
}

/// The perturbation of iteration `k`: `±1` per parameter, drawn from
/// `(seed, k)` alone, so that a resumed run draws what the whole run would.
pub fn delta(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ DELTA_SALT, k));
    (0..count)
        .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
        .collect()
}

/// The option values of one side of an iteration: `θ + sign · c_k · step · Δ`
/// (`sign` 1 for the plus engine, −1 for the minus one), clamped and rounded.
pub fn perturbed(params: &[Param], theta: &[f64], c_k: f64, delta: &[f64], sign: f64) -> Vec<i64> {
    params
        .iter()
        .zip(theta.iter().zip(delta))
        .map(|(param, (&value, &d))| param.option_value(value + sign * c_k * param.step * d))
        .collect()
}

/// θ after an iteration whose result (the plus engine's score minus the
/// minus engine's, per game) was `result`: every parameter moved by
/// `step · a_k · result / (2 c_k Δ)` and clamped to its range.
pub fn updated(
    params: &[Param],
    theta: &[f64],
    a_k: f64,
    c_k: f64,
    delta: &[f64],
    result: f64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta.iter().zip(delta))
        .map(|(param, (&value, &d))| {
            (value + param.step * a_k * result / (2.0 * c_k * d)).clamp(param.min, param.max)
        })
        .collect()
}

/// Where a trajectory stands: the iterations played, their games and θ.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub iterations: u64,
    pub games: u64,
    pub theta: Vec<f64>,
}

/// What one iteration played and what it made of θ.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// 1 for the first (`k + 1`).
    pub number: u64,
    pub a_k: f64,
    pub c_k: f64,
    pub delta: Vec<f64>,
    /// The option values of the plus and the minus engine.
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
    pub games: u64,
    /// The plus and the minus engine's total scores.
    pub scores: (f64, f64),
    /// `(plus − minus) / games`.
    pub result: f64,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// The state a trajectory file ends in, and how many of its lines could not
/// be read (a run killed mid-write leaves a torn last line). The header must
/// be a `tune` header with the `expected` fields, the iteration lines
/// numbered 1, 2, 3, … with a θ in range for every parameter.
pub fn resume_state(
    text: &str,
    expected: &[(&str, String)],
    params: &[Param],
) -> Result<(State, usize), String> {
    let mut state = State {
        iterations: 0,
        games: 0,
        theta: params.iter().map(|p| p.start).collect(),
    };
    let Trajectory {
        header,
        iterations,
        skipped,
    } = read_trajectory(text);
    for value in &iterations {
        let number = value.u64_field("iteration");
        if number != Some(state.iterations + 1) {
            return Err(format!(
                "iteration line {:?} where iteration {} was due",
                number,
                state.iterations + 1
            ));
        }
        state.theta = theta_of(value, params)
            .map_err(|e| format!("iteration {}: {e}", state.iterations + 1))?;
        state.iterations += 1;
        state.games += value.u64_field("games").unwrap_or(0);
    }
    let header = header.ok_or("no tune header line (not a trajectory of match tune?)")?;
    let diff = differences(&header, expected, &[]);
    if !diff.is_empty() {
        return Err(format!("recorded with other settings: {}", diff.join("; ")));
    }
    Ok((state, skipped))
}

/// The θ of an iteration line, every parameter present and in its range.
fn theta_of(value: &Json, params: &[Param]) -> Result<Vec<f64>, String> {
    params
        .iter()
        .map(|param| {
            let found = value.get("theta").and_then(|t| t.get(&param.name));
            match found.and_then(Json::as_f64) {
                Some(v) if (param.min..=param.max).contains(&v) => Ok(v),
                Some(v) => Err(format!(
                    "theta {}={v} is outside {}..{}",
                    param.name, param.min, param.max
                )),
                None => Err(format!("no theta for {}", param.name)),
            }
        })
        .collect()
}

/// A tuning run: the engine, its parameters, the schedule and what every
/// iteration's match shares.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The match of an iteration (game, rules, time control, games per
    /// iteration, seed, openings, limits) with the engine tuned in both
    /// seats, before the parameters are set.
    pub base: MatchConfig,
    pub params: Vec<Param>,
    pub schedule: Schedule,
    pub iterations: u64,
}

impl TuneConfig {
    /// The engine tuned is `base.engines[0]` (it then sits in both seats);
    /// its own options must leave the tuned parameters to the tuner.
    pub fn new(
        mut base: MatchConfig,
        params: Vec<Param>,
        schedule: Schedule,
        iterations: u64,
    ) -> Result<TuneConfig, String> {
        check_params(&params)?;
        if iterations == 0 {
            return Err("--iterations must be 1 or more".into());
        }
        let engine = base.engines.first().ok_or("tune: no engine")?.clone();
        for (name, _) in &engine.options {
            if params.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
                return Err(format!(
                    "option.{name} is tuned: leave it out of --engine (its start is in --param)"
                ));
            }
        }
        base.engines = vec![engine.clone(), engine];
        Ok(TuneConfig {
            base,
            params,
            schedule,
            iterations,
        })
    }

    pub fn engine(&self) -> &EngineSpec {
        &self.base.engines[0]
    }

    /// Pairings per iteration (`--games` rounded up to whole pairings).
    fn pairings(&self) -> u64 {
        self.base.games.div_ceil(games_per_pair(&self.base)).max(1)
    }

    pub fn games_per_iteration(&self) -> u64 {
        self.pairings() * games_per_pair(&self.base)
    }

    /// The engine tuned with these values of the parameters, named `name`.
    fn with_values(&self, name: String, values: &[i64]) -> EngineSpec {
        let mut spec = self.engine().clone();
        spec.name = name;
        spec.options.extend(
            self.params
                .iter()
                .zip(values)
                .map(|(p, v)| (p.name.clone(), v.to_string())),
        );
        spec
    }

    /// The match of one iteration: the plus engine (`NAME+`) first, the one
    /// scored, then the minus engine (`NAME-`).
    fn iteration_config(&self, plus: &[i64], minus: &[i64]) -> MatchConfig {
        let name = &self.engine().name;
        MatchConfig {
            engines: vec![
                self.with_values(format!("{name}+"), plus),
                self.with_values(format!("{name}-"), minus),
            ],
            ..self.base.clone()
        }
    }

    /// The header fields a resume must find unchanged: the match's (but the
    /// engines and the shard), the engine tuned, the parameters and the
    /// schedule; not the number of iterations, which a resume may raise.
    fn header_fields(&self) -> Vec<(&'static str, String)> {
        let engine = self.engine();
        let options: Vec<String> = engine
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let params: Vec<String> = self.params.iter().map(Param::describe).collect();
        let mut fields = Vec::new();
        for (key, value) in match_fields(&self.base) {
            match key {
                "engines" => fields.extend([
                    ("engine", json::quote(&engine.name)),
                    ("cmd", json::quote(&engine.cmd)),
                    ("args", json::str_array(&engine.args)),
                    ("options", json::str_array(&options)),
                    ("params", json::str_array(&params)),
                ]),
                // The engine's are above; tune files keep their header.
                "shard" | "commands" | "timeouts" => {}
                "games" => fields.push((
                    "games_per_iteration",
                    self.games_per_iteration().to_string(),
                )),
                _ => fields.push((key, value)),
            }
        }
        let s = &self.schedule;
        for (key, value) in [
            ("a", s.a),
            ("c", s.c),
            ("A", s.big_a),
            ("alpha", s.alpha),
            ("gamma", s.gamma),
        ] {
            fields.push((key, value.to_string()));
        }
        fields
    }

    /// The header: the fields a resume compares, then the iterations.
    pub fn header_line(&self) -> String {
        let mut fields = self.header_fields();
        fields.push(("iterations", self.iterations.to_string()));
        header_text("tune", &fields)
    }

    /// Starts the engine once with every parameter at its min, then sets
    /// them to their max: an engine that does not know a parameter, or
    /// refuses a value, says so before any game (a match would only warn).
    pub fn check_engine(&self) -> Result<(), String> {
        let ends = |pick: fn(&Param) -> f64| -> Vec<i64> {
            self.params.iter().map(|p| pick(p) as i64).collect()
        };
        let (min, max) = (ends(|p| p.min), ends(|p| p.max));
        let name = &self.engine().name;
        let spec = self.with_values(name.clone(), &min);
        let timeout = self.base.handshake_timeout;
        let mut engine = EngineProcess::start(&spec, &self.base.engine_setup(), timeout)
            .map_err(|fault| format!("engine {name}: {}", fault.detail()))?;
        let at_max = (|| {
            for (param, value) in self.params.iter().zip(&max) {
                engine.send(&format!("setoption name {} value {value}", param.name))?;
            }
            engine.sync(timeout)
        })();
        let mut errors: Vec<String> = Vec::new();
        for error in &engine.errors {
            let error = error.trim_start_matches("info string error:").trim();
            if !errors.iter().any(|e| e == error) {
                errors.push(error.to_string());
            }
        }
        engine.quit(Duration::from_millis(500));
        at_max.map_err(|fault| format!("engine {name}: {}", fault.detail()))?;
        if !errors.is_empty() {
            return Err(format!(
                "engine {name} refuses the parameters: {}",
                errors.join("; ")
            ));
        }
        Ok(())
    }
}

/// What a tuning run ends with.
pub struct TuneOutcome {
    pub state: State,
    /// The final table and the options to paste ([`summary`]).
    pub summary: String,
}

/// Opens the trajectory: resumed (its state and the file to append to) or
/// new (the header written).
fn open_trajectory(
    config: &TuneConfig,
    options: &RunOptions,
) -> Result<(State, Option<File>), String> {
    let start = State {
        iterations: 0,
        games: 0,
        theta: config.params.iter().map(|p| p.start).collect(),
    };
    let Some(path) = &options.out else {
        return Ok((start, None));
    };
    if options.resume && path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (state, skipped) = resume_state(&text, &config.header_fields(), &config.params)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if skipped > 0 {
            eprintln!(
                "warning: {}: {skipped} unreadable line(s) skipped",
                path.display()
            );
        }
        let file = append_results(path, text.is_empty() || text.ends_with('\n'))?;
        return Ok((state, Some(file)));
    }
    let file = create_results(path, options.force || options.resume, &config.header_line())?;
    Ok((start, Some(file)))
}

/// `NAME=value …` of θ, two decimals.
fn theta_text(params: &[Param], theta: &[f64]) -> String {
    let words: Vec<String> = params
        .iter()
        .zip(theta)
        .map(|(p, v)| format!("{}={v:.2}", p.name))
        .collect();
    words.join(" ")
}

/// Plays the iterations not yet in the trajectory (`options.out`, resumed
/// with `options.resume`), each a match of `options.concurrency` games at a
/// time, and writes each iteration's line as it ends.
pub fn run(config: &TuneConfig, options: &RunOptions) -> Result<TuneOutcome, String> {
    let openings = Openings::load(&config.base)?;
    config.check_engine()?;
    let (mut state, mut out) = open_trajectory(config, options)?;
    let iteration_options = RunOptions {
        out: None,
        resume: false,
        sprt: None,
        quiet: true,
        ..options.clone()
    };
    let per_iteration = config.pairings();
    if !options.quiet {
        eprintln!(
            "tune {}: {}, {} parameter(s), {} iterations of {} games ({} done), {}, concurrency {}",
            config.base.game.name(),
            config.engine().name,
            config.params.len(),
            config.iterations,
            config.games_per_iteration(),
            state.iterations,
            config.base.tc.describe(),
            options.concurrency.max(1)
        );
    }
    let params = &config.params;
    for k in state.iterations..config.iterations {
        let (a_k, c_k) = (config.schedule.a_k(k), config.schedule.c_k(k));
        let delta = delta(config.base.seed, k, params.len());
        let plus = perturbed(params, &state.theta, c_k, &delta, 1.0);
        let minus = perturbed(params, &state.theta, c_k, &delta, -1.0);
        let match_config = config.iteration_config(&plus, &minus);
        // Iteration k plays pairings k·P … k·P + P − 1 of one long list, so
        // every iteration has openings (and dice) of its own.
        let pairs: Vec<u64> = (k * per_iteration..(k + 1) * per_iteration).collect();
        let games = games_of(&match_config, &openings, &pairs)?;
        let outcome = play_rest(&match_config, &iteration_options, games, Vec::new(), None)?;
        let score = |engine: usize| -> f64 {
            outcome
                .records
                .iter()
                .map(|r| r.scores.get(engine).copied().unwrap_or(0.5))
                .sum()
        };
        let played = outcome.records.len() as u64;
        let scores = (score(0), score(1));
        let result = (scores.0 - scores.1) / played.max(1) as f64;
        let theta = updated(params, &state.theta, a_k, c_k, &delta, result);
        let line = Iteration {
            number: k + 1,
            a_k,
            c_k,
            delta,
            plus,
            minus,
            games: played,
            scores,
            result,
            theta: theta.clone(),
        }
        .to_json(params);
        if let Some(file) = out.as_mut() {
            writeln!(file, "{line}")
                .and_then(|_| file.flush())
                .map_err(|e| format!("cannot write the trajectory: {e}"))?;
        }
        state = State {
            iterations: k + 1,
            games: state.games + played,
            theta,
        };
        if !options.quiet {
            eprintln!(
                "[{}/{}] plus {:.2} minus {:.2} (result {result:+.2}) games {} | theta {}",
                k + 1,
                config.iterations,
                scores.0,
                scores.1,
                state.games,
                theta_text(params, &state.theta)
            );
        }
    }
    let summary = summary(config, &state);
    Ok(TuneOutcome { state, summary })
}

/// The final θ, one line per parameter, and the options to paste after
/// `--engine` (θ rounded as the engine gets it).
pub fn summary(config: &TuneConfig, state: &State) -> String {
    let s = &config.schedule;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Tuned {}: {} iterations, {} games, {} (a {}, c {}, A {}, alpha {}, gamma {})",
        config.base.game.name(),
        state.iterations,
        state.games,
        config.base.tc.describe(),
        s.a,
        s.c,
        s.big_a,
        s.alpha,
        s.gamma
    );
    let width = config
        .params
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(9)
        .max(9);
    let _ = writeln!(
        out,
        "  {:<width$}  {:>8}  {:>8}  {:>6}  {:>6}  {:>5}",
        "parameter", "start", "final", "min", "max", "step"
    );
    for (param, value) in config.params.iter().zip(&state.theta) {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>8}  {:>8.2}  {:>6}  {:>6}  {:>5}",
            param.name, param.start, value, param.min, param.max, param.step
        );
    }
    let options: Vec<String> = config
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, &v)| format!("option.{}={}", p.name, p.option_value(v)))
        .collect();
    let _ = writeln!(out, "{}", options.join(" "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(text: &str) -> Param {
        Param::parse(text).unwrap()
    }

    #[test]
    fn parameters_parse_and_bad_ones_say_why() {
        assert_eq!(
            param(" Tune_X = 10, 0 ,100,2.5 "),
            Param {
                name: "Tune_X".into(),
                start: 10.0,
                min: 0.0,
                max: 100.0,
                step: 2.5
            }
        );
        assert_eq!(param("Tune_X=-1.5,-4,4,1").describe(), "Tune_X=-1.5,-4,4,1");
        for (text, message) in [
            ("Tune_X", "expected NAME=START,MIN,MAX,STEP"),
            ("Tune_X=1,2,3", "expected NAME=START,MIN,MAX,STEP"),
            ("=1,0,2,1", "expected NAME=START,MIN,MAX,STEP"),
            ("Tune X=1,0,2,1", "expected NAME=START,MIN,MAX,STEP"),
            ("Tune_X=one,0,2,1", "start 'one' is not a number"),
            ("Tune_X=1,0,inf,1", "max 'inf' is not a number"),
            ("Tune_X=1,0.5,2,1", "whole numbers"),
            ("Tune_X=1,2,2,1", "min 2 must be below max 2"),
            ("Tune_X=3,0,2,1", "start 3 is outside 0..2"),
            ("Tune_X=1,0,2,0", "step 0 must be above 0"),
            ("Tune_X=1,0,2,-1", "step -1 must be above 0"),
        ] {
            let error = Param::parse(text).unwrap_err();
            assert!(error.contains(message), "{text}: {error}");
        }
    }

    #[test]
    fn a_params_file_skips_comments_and_names_the_bad_line() {
        let text = "# the toy\nTune_A=1,0,10,1  # first\n\n  Tune_B=5,0,10,2\n";
        let params = parse_params_file(text, "p.txt").unwrap();
        assert_eq!(
            params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            ["Tune_A", "Tune_B"]
        );
        let error = parse_params_file("Tune_A=1,0,10,1\nTune_B=1,0\n", "p.txt").unwrap_err();
        assert!(
            error.starts_with("p.txt:2: parameter 'Tune_B=1,0'"),
            "{error}"
        );
        assert!(check_params(&params).is_ok());
        let twice = [param("Tune_A=1,0,2,1"), param("tune_a=1,0,2,1")];
        assert_eq!(
            check_params(&twice).unwrap_err(),
            "parameter tune_a is given twice"
        );
        assert!(check_params(&[]).unwrap_err().contains("--param"));
    }

    #[test]
    fn the_schedule_decays_as_documented() {
        let s = Schedule::new(10.0, 2.0, None, 0.602, 0.101, 50).unwrap();
        assert_eq!(s.big_a, 5.0);
        // A tenth, as written: 0.3, not 0.30000000000000004.
        let three = Schedule::new(10.0, 2.0, None, 0.602, 0.101, 3).unwrap();
        assert_eq!(three.big_a.to_string(), "0.3");
        // a_k = a / (A + k + 1)^alpha, c_k = c / (k + 1)^gamma.
        assert!((s.a_k(0) - 10.0 / 6f64.powf(0.602)).abs() < 1e-12);
        assert!((s.a_k(9) - 10.0 / 15f64.powf(0.602)).abs() < 1e-12);
        assert_eq!(s.c_k(0), 2.0);
        assert!((s.c_k(99) - 2.0 / 100f64.powf(0.101)).abs() < 1e-12);
        assert!((s.c_k(99) - 1.2561).abs() < 1e-4);
        assert!((s.a_k(0) - 3.4006).abs() < 1e-4);
        for k in 0..100 {
            assert!(s.a_k(k + 1) < s.a_k(k) && s.c_k(k + 1) < s.c_k(k));
        }
        let given = Schedule::new(1.0, 1.0, Some(0.0), 1.0, 0.0, 50).unwrap();
        assert_eq!((given.a_k(0), given.a_k(3), given.c_k(7)), (1.0, 0.25, 1.0));
        assert_eq!(
            Schedule::new(0.0, 1.0, None, 0.6, 0.1, 10).unwrap_err(),
            "--a 0: must be above 0"
        );
        assert_eq!(
            Schedule::new(1.0, 1.0, Some(-1.0), 0.6, 0.1, 10).unwrap_err(),
            "--A -1: must be 0 or more"
        );
        assert!(Schedule::new(1.0, f64::NAN, None, 0.6, 0.1, 10).is_err());
    }

    #[test]
    fn perturbations_are_signs_drawn_from_seed_and_iteration() {
        let d = delta(7, 3, 64);
        assert!(d.iter().all(|&x| x == 1.0 || x == -1.0));
        let plus = d.iter().filter(|&&x| x > 0.0).count();
        assert!((16..=48).contains(&plus), "{plus} of 64 positive");
        assert_eq!(d, delta(7, 3, 64));
        assert_ne!(d, delta(7, 4, 64));
        assert_ne!(d, delta(8, 3, 64));
        // The first signs do not depend on how many parameters there are.
        assert_eq!(delta(7, 3, 2), d[..2]);
    }

    #[test]
    fn the_sides_are_rounded_and_clamped_to_the_range() {
        let params = [param("Tune_A=10,0,20,2"), param("Tune_B=1,0,5,1")];
        let delta = [1.0, -1.0];
        // A: 10 ± 1.5·2 → 13 and 7; B: 1 ∓ 1.5 → -0.5 (clamped to 0) and 2.5 (3).
        assert_eq!(perturbed(&params, &[10.0, 1.0], 1.5, &delta, 1.0), [13, 0]);
        assert_eq!(perturbed(&params, &[10.0, 1.0], 1.5, &delta, -1.0), [7, 3]);
        // Near the top: clamped to max.
        assert_eq!(perturbed(&params, &[19.5, 4.6], 1.0, &delta, 1.0), [20, 4]);
        assert_eq!(param("Tune_C=0,-3,3,1").option_value(-2.5), -3);
    }

    #[test]
    fn an_update_moves_towards_the_winning_side_by_steps_and_stays_in_range() {
        let params = [param("Tune_A=10,0,20,2"), param("Tune_B=3,0,5,1")];
        let theta = [10.0, 3.0];
        let delta = [1.0, -1.0];
        // The plus side (A up, B down) won: A rises, B falls, by
        // step · a_k · r / (2 c_k) = step · 4 · 0.5 / 2.
        let after = updated(&params, &theta, 4.0, 1.0, &delta, 0.5);
        assert_eq!(after, [12.0, 2.0]);
        // The minus side won: the other way.
        let after = updated(&params, &theta, 4.0, 1.0, &delta, -0.5);
        assert_eq!(after, [8.0, 4.0]);
        // A draw moves nothing.
        assert_eq!(updated(&params, &theta, 4.0, 1.0, &delta, 0.0), theta);
        // A large move stops at the range.
        assert_eq!(
            updated(&params, &theta, 40.0, 1.0, &delta, 1.0),
            [20.0, 0.0]
        );
    }

    fn fields() -> Vec<(&'static str, String)> {
        vec![("game", json::quote("hasami")), ("a", "10".into())]
    }

    fn header() -> String {
        "{\"type\":\"tune\",\"version\":1,\"game\":\"hasami\",\"a\":10,\"iterations\":5}".into()
    }

    fn line(number: u64, theta: f64) -> String {
        let params = [param("Tune_A=1,0,20,1")];
        Iteration {
            number,
            a_k: 1.0,
            c_k: 0.5,
            delta: vec![1.0],
            plus: vec![2],
            minus: vec![1],
            games: 2,
            scores: (1.5, 0.5),
            result: 0.5,
            theta: vec![theta],
        }
        .to_json(&params)
    }

    #[test]
    fn a_resume_continues_from_the_last_theta() {
        let params = [param("Tune_A=1,0,20,1")];
        // A new file: the start.
        let (state, skipped) = resume_state(&header(), &fields(), &params).unwrap();
        assert_eq!(
            (state.iterations, state.games, state.theta),
            (0, 0, vec![1.0])
        );
        assert_eq!(skipped, 0);
        // Two iterations and a torn third: θ of the second, exactly.
        let theta = 1.0 + 1.0 / 3.0;
        let text = format!(
            "{}\n{}\n{}\n{}",
            header(),
            line(1, 2.5),
            line(2, theta),
            &line(3, 9.0)[..20]
        );
        let (state, skipped) = resume_state(&text, &fields(), &params).unwrap();
        assert_eq!(state.iterations, 2);
        assert_eq!(state.games, 4);
        assert_eq!(state.theta, [theta]);
        assert_eq!(skipped, 1);
    }

    #[test]
    fn a_resume_refuses_other_settings_and_broken_trajectories() {
        let params = [param("Tune_A=1,0,20,1")];
        let other = vec![("game", json::quote("annan")), ("a", "10".into())];
        let error = resume_state(&header(), &other, &params).unwrap_err();
        assert_eq!(
            error,
            "recorded with other settings: game: file has \"hasami\", this run \"annan\""
        );
        let error = resume_state(&line(1, 2.0), &fields(), &params).unwrap_err();
        assert!(error.contains("no tune header"), "{error}");
        let gap = format!("{}\n{}\n{}", header(), line(1, 2.0), line(3, 2.0));
        let error = resume_state(&gap, &fields(), &params).unwrap_err();
        assert!(error.contains("where iteration 2 was due"), "{error}");
        let outside = format!("{}\n{}", header(), line(1, 25.0));
        let error = resume_state(&outside, &fields(), &params).unwrap_err();
        assert_eq!(error, "iteration 1: theta Tune_A=25 is outside 0..20");
        let renamed = [param("Tune_B=1,0,20,1")];
        let text = format!("{}\n{}", header(), line(1, 2.0));
        let error = resume_state(&text, &fields(), &renamed).unwrap_err();
        assert_eq!(error, "iteration 1: no theta for Tune_B");
    }

    #[test]
    fn an_iteration_line_holds_the_sides_and_theta_by_name() {
        let text = line(4, 2.75);
        let value = json::parse(&text).unwrap();
        assert_eq!(value.str_field("type"), Some("iteration"));
        assert_eq!(value.u64_field("iteration"), Some(4));
        let get = |key: &str| value.get(key).and_then(|v| v.get("Tune_A")).cloned();
        assert_eq!(get("theta"), Some(Json::Num(2.75)));
        assert_eq!(get("plus"), Some(Json::Num(2.0)));
        assert_eq!(get("minus"), Some(Json::Num(1.0)));
        assert_eq!(get("delta"), Some(Json::Num(1.0)));
        assert_eq!(
            value.get("scores"),
            Some(&Json::Arr(vec![Json::Num(1.5), Json::Num(0.5)]))
        );
    }
}
