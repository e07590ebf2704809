//! The list of games: pairings, seats, openings and seeds, all derived from the
//! match seed and the game's index so that any shard can rebuild the same list.
//!
//! A *pairing* is the set of games that share one opening and differ only in
//! who sits where. For two-player games it is the opening played twice with the
//! colours swapped. The seatings come from [`seatings`], so a four-seat game
//! (Yonin: four rotations) and duplicate dice (Sugoroku: every game of a pairing
//! gets the pairing's `dice_seed`) plug in without changing the rest.

use crate::config::{MatchConfig, OpeningSource};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::session::{new_session, GameSession};

/// A position to start from: an SFEN (or the start position) plus moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub sfen: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    /// `startpos moves …` / `sfen … moves …`, as in a `position` command.
    pub fn describe(&self) -> String {
        let mut text = match &self.sfen {
            None => "startpos".to_string(),
            Some(sfen) => format!("sfen {sfen}"),
        };
        if !self.moves.is_empty() {
            text.push_str(" moves ");
            text.push_str(&self.moves.join(" "));
        }
        text
    }

    /// Parses a line of an openings file: `SFEN [moves …]`, `sfen SFEN [moves …]`,
    /// `startpos [moves …]`, optionally after `position `.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let (setup, moves) = match line.split_once(" moves") {
            Some((setup, moves)) => (
                setup.trim(),
                moves.split_whitespace().map(str::to_string).collect(),
            ),
            None if line.ends_with("moves") => (line.trim_end_matches("moves").trim(), Vec::new()),
            None => (line, Vec::new()),
        };
        let sfen = if setup == "startpos" {
            None
        } else {
            let sfen = setup.strip_prefix("sfen ").unwrap_or(setup).trim();
            if sfen.is_empty() {
                return Err(format!("'{line}': no position"));
            }
            Some(sfen.to_string())
        };
        Ok(Opening { sfen, moves })
    }
}

/// One game of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Index in the whole (unsharded) list: the key for resume and merge.
    pub id: u64,
    pub pair: u64,
    /// Engine index sitting at each seat (seat 0 = `b`).
    pub seats: Vec<usize>,
    pub opening: Opening,
    /// Per-game seed (recorded; for dice games, the same for the whole pairing).
    pub dice_seed: u64,
}

/// The seatings of one pairing for `seats` seats: every rotation of the engines
/// around the table (two players: as given, then swapped).
pub fn seatings(seats: usize) -> Vec<Vec<usize>> {
    (0..seats)
        .map(|k| (0..seats).map(|s| (s + k) % seats).collect())
        .collect()
}

/// Seats of a game: two for the implemented games.
pub fn seats_of_game(game: &str) -> usize {
    match game {
        "yonin" => 4,
        _ => 2,
    }
}

/// SplitMix64: independent streams from (seed, index).
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(index.wrapping_mul(0xbf58_476d_1ce4_e5b9));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A referee session of the game with the match's house rules.
pub fn referee(config: &MatchConfig) -> Result<Box<dyn GameSession>, String> {
    let mut session = new_session(&config.game)?;
    for (name, value) in &config.rules {
        match session.set_option(name, value) {
            Ok(true) => {}
            Ok(false) => {
                return Err(format!(
                    "rule {name}: the game {} has no such rule",
                    config.game
                ))
            }
            Err(e) => return Err(format!("rule {name}={value}: {e}")),
        }
    }
    Ok(session)
}

/// The openings a match draws from, loaded and checked once.
pub struct Openings {
    base: Vec<Opening>,
    random_plies: u32,
    seed: u64,
}

impl Openings {
    pub fn load(config: &MatchConfig) -> Result<Openings, String> {
        let OpeningSource { file, random_plies } = &config.openings;
        let base = match file {
            None => vec![Opening {
                sfen: None,
                moves: Vec::new(),
            }],
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("openings file '{path}': {e}"))?;
                let mut base = Vec::new();
                let mut session = referee(config)?;
                for (number, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let opening =
                        Opening::parse(line).map_err(|e| format!("{path}:{}: {e}", number + 1))?;
                    let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
                    session
                        .set_position(opening.sfen.as_deref(), &moves)
                        .map_err(|e| format!("{path}:{}: {e}", number + 1))?;
                    if session.status().starts_with("over") {
                        return Err(format!(
                            "{path}:{}: the game is already over ({})",
                            number + 1,
                            session.status()
                        ));
                    }
                    base.push(opening);
                }
                if base.is_empty() {
                    return Err(format!("openings file '{path}' has no positions"));
                }
                base
            }
        };
        Ok(Openings {
            base,
            random_plies: *random_plies,
            seed: config.seed,
        })
    }

    /// The opening of pairing `pair`: the file's positions in turn, then random
    /// legal plies drawn from (seed, pair); a draw that ends the game is redrawn.
    pub fn opening(&self, config: &MatchConfig, pair: u64) -> Result<Opening, String> {
        let base = &self.base[(pair % self.base.len() as u64) as usize];
        if self.random_plies == 0 {
            return Ok(base.clone());
        }
        let mut session = referee(config)?;
        for attempt in 0..1000u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(mix(self.seed, pair), attempt));
            let mut moves = base.moves.clone();
            let mut ok = true;
            for _ in 0..self.random_plies {
                let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
                session
                    .set_position(base.sfen.as_deref(), &refs)
                    .map_err(|e| e.to_string())?;
                let legal = session.legal_moves();
                if legal.is_empty() || session.status().starts_with("over") {
                    ok = false;
                    break;
                }
                moves.push(legal[rng.gen_range(0..legal.len())].clone());
            }
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            session
                .set_position(base.sfen.as_deref(), &refs)
                .map_err(|e| e.to_string())?;
            if ok && !session.status().starts_with("over") {
                return Ok(Opening {
                    sfen: base.sfen.clone(),
                    moves,
                });
            }
        }
        Err(format!(
            "no random opening of {} plies that leaves the game open",
            self.random_plies
        ))
    }
}

/// Games per pairing.
pub fn games_per_pair(config: &MatchConfig) -> u64 {
    seatings(seats_of_game(&config.game)).len() as u64
}

/// The pairings in this shard (`pair % count == index`).
pub fn shard_pairs(config: &MatchConfig) -> Vec<u64> {
    let pairs = config.games.div_ceil(games_per_pair(config));
    let (index, count) = config.shard;
    (0..pairs).filter(|p| p % count == index).collect()
}

/// Every game of the pairings in `pairs`, in order.
pub fn games_of(
    config: &MatchConfig,
    openings: &Openings,
    pairs: &[u64],
) -> Result<Vec<GameSpec>, String> {
    let seatings = seatings(seats_of_game(&config.game));
    let per_pair = seatings.len() as u64;
    let mut games = Vec::new();
    for &pair in pairs {
        let opening = openings.opening(config, pair)?;
        for (k, seats) in seatings.iter().enumerate() {
            games.push(GameSpec {
                id: pair * per_pair + k as u64,
                pair,
                seats: seats.clone(),
                opening: opening.clone(),
                dice_seed: mix(config.seed ^ 0x5eed, pair),
            });
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_rotate() {
        assert_eq!(seatings(2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(seatings(4).len(), 4);
        assert_eq!(seatings(4)[1], vec![1, 2, 3, 0]);
    }

    #[test]
    fn opening_lines() {
        let o = Opening::parse("startpos moves 9i9c 1a1d").unwrap();
        assert_eq!(o.sfen, None);
        assert_eq!(o.moves, vec!["9i9c", "1a1d"]);
        assert_eq!(o.describe(), "startpos moves 9i9c 1a1d");
        let o = Opening::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1").unwrap();
        assert_eq!(
            o.sfen.as_deref(),
            Some("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1")
        );
        assert!(o.moves.is_empty());
        let o = Opening::parse("position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1 moves 9i9c")
            .unwrap();
        assert_eq!(o.moves, vec!["9i9c"]);
        assert_eq!(
            o.describe(),
            "sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1 moves 9i9c"
        );
    }

    #[test]
    fn mix_spreads() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
        assert_eq!(mix(7, 3), mix(7, 3));
    }
}
