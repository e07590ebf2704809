//! What a match is: the game and its rules, the time control, the limits and
//! margins, the openings.

use crate::runner::engine::EngineSpec;
use std::time::Duration;
use yomi_engine::registry::GameEntry;

/// How long an engine may think, and what `go` says.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// `go nodes N`
    Nodes(u64),
    /// `go depth D`
    Depth(u32),
    /// `go movetime MS`: exactly this long per move.
    MoveTime(u64),
    /// A clock kept by the runner: main time, then either a Fischer increment or
    /// a byoyomi per move. Main 0 with a byoyomi is the site's per-turn limit
    /// (`go byoyomi 30000`).
    Clock {
        main_ms: u64,
        inc_ms: u64,
        byoyomi_ms: u64,
    },
}

impl TimeControl {
    /// The text used in records and summaries.
    pub fn describe(&self) -> String {
        match self {
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Depth(d) => format!("depth={d}"),
            TimeControl::MoveTime(ms) => format!("movetime={ms}"),
            TimeControl::Clock {
                main_ms: 0,
                inc_ms: 0,
                byoyomi_ms,
            } => format!("byoyomi={byoyomi_ms}"),
            TimeControl::Clock {
                main_ms,
                inc_ms,
                byoyomi_ms,
            } => {
                let mut text = format!("clock={main_ms}+{inc_ms}");
                if *byoyomi_ms > 0 {
                    text.push_str(&format!(" byoyomi={byoyomi_ms}"));
                }
                text
            }
        }
    }

    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::MoveTime(_) | TimeControl::Clock { .. })
    }
}

/// Parses a duration in milliseconds: `1500`, `1500ms`, `1.5s`, `2m`.
pub fn parse_ms(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': expected a time such as 1500, 1500ms, 1.5s or 2m"))?;
    if value.is_nan() || value < 0.0 || !value.is_finite() {
        return Err(format!("'{text}': time must not be negative"));
    }
    Ok((value * scale).round() as u64)
}

/// Parses `MAIN[+INC]`, each a time as in [`parse_ms`].
pub fn parse_clock(text: &str) -> Result<(u64, u64), String> {
    match text.split_once('+') {
        Some((main, inc)) => Ok((parse_ms(main)?, parse_ms(inc)?)),
        None => Ok((parse_ms(text)?, 0)),
    }
}

/// Parses a shard `I/N`: shard I (counted from 0, as a Slurm array's
/// `--array=0-3` and `seq 0 3` count) of N.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("shard '{text}': expected I/N such as 0/4"))?;
    let parse = |part: &str, what: &str| {
        part.trim()
            .parse::<u64>()
            .map_err(|_| format!("shard '{text}': bad {what}"))
    };
    let (i, n) = (parse(i, "I")?, parse(n, "N")?);
    if n == 0 || i >= n {
        return Err(format!(
            "shard '{text}': shards count from 0: 0/{n} … {}/{n}",
            n.saturating_sub(1)
        ));
    }
    Ok((i, n))
}

/// A shard as [`parse_shard`] reads it.
pub fn shard_text((index, count): (u64, u64)) -> String {
    format!("{index}/{count}")
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningSource {
    /// Positions read from a file (`None`: the start position).
    pub file: Option<String>,
    /// Random legal plies played from the seed (after the file's position).
    pub random_plies: u32,
}

/// Everything that fixes a match's list of games and how they are played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: &'static GameEntry,
    /// House rules `NAME=VALUE`, set on the referee and sent to every engine.
    pub rules: Vec<(String, String)>,
    pub engines: Vec<EngineSpec>,
    pub tc: TimeControl,
    /// Games in all (before sharding); a multiple of the games per pairing.
    pub games: u64,
    pub seed: u64,
    pub openings: OpeningSource,
    /// Plies after which the runner adjudicates a draw (0: never).
    pub max_plies: u32,
    pub timeout_margin: Duration,
    /// Longest wait for `usiok` / `readyok`.
    pub handshake_timeout: Duration,
    /// Longest wait for a `bestmove` under nodes/depth limits (a hang).
    pub hang_timeout: Duration,
    /// Shard `index` (0-based) of `count`.
    pub shard: (u64, u64),
}

impl MatchConfig {
    /// The setoption pairs every engine gets first: the game, then its rules.
    pub fn engine_setup(&self) -> Vec<(String, String)> {
        let mut setup = vec![("USI_Variant".to_string(), self.game.name().to_string())];
        setup.extend(self.rules.iter().cloned());
        setup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_ms("1500"), Ok(1500));
        assert_eq!(parse_ms("1500ms"), Ok(1500));
        assert_eq!(parse_ms("1.5s"), Ok(1500));
        assert_eq!(parse_ms("2m"), Ok(120_000));
        assert!(parse_ms("-1").is_err());
        assert!(parse_ms("abc").is_err());
        assert_eq!(parse_clock("60s+1s"), Ok((60_000, 1000)));
        assert_eq!(parse_clock("60000"), Ok((60_000, 0)));
        let clock = TimeControl::Clock {
            main_ms: 0,
            inc_ms: 0,
            byoyomi_ms: 30_000,
        };
        assert_eq!(clock.describe(), "byoyomi=30000");
        let clock = TimeControl::Clock {
            main_ms: 60_000,
            inc_ms: 1000,
            byoyomi_ms: 0,
        };
        assert_eq!(clock.describe(), "clock=60000+1000");
    }

    #[test]
    fn shards_count_from_zero() {
        assert_eq!(parse_shard("0/4"), Ok((0, 4)));
        assert_eq!(parse_shard(" 3 / 4 "), Ok((3, 4)));
        assert_eq!(shard_text((3, 4)), "3/4");
        let last = parse_shard("4/4").unwrap_err();
        assert!(last.contains("count from 0: 0/4 … 3/4"), "{last}");
        for bad in ["1/0", "4", "a/4", "1/b", "-1/4"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
