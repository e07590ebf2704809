//! The list of games: pairings, seats, openings and seeds, all derived from the
//! match seed and the game's index so that any shard can rebuild the same list.
//!
//! A *pairing* is the set of games that share one opening and differ only in
//! who sits where. For two-player games it is the opening played twice with the
//! colours swapped. The seatings come from [`seatings`], so a four-seat game
//! (Yonin: four rotations) and duplicate dice (Sugoroku: every game of a pairing
//! gets the pairing's `dice_seed`) plug in without changing the rest.

use crate::runner::config::{MatchConfig, OpeningSource};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::session::GameSession;

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

/// The seatings of one pairing: engine index at each seat, one list per game.
///
/// - Two seats: as given, then swapped.
/// - Four seats, four engines: every rotation, so each engine plays each seat
///   once per pairing.
/// - Four seats, two engines: partners opposite, `A B A B` then `B A B A`.
///
/// Other combinations are refused (see [`check_engine_count`]); this returns the
/// rotations of `engines` around `seats` for them.
pub fn seatings(seats: usize, engines: usize) -> Vec<Vec<usize>> {
    let engines = engines.max(1);
    if seats == 4 && engines == 2 {
        return vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]];
    }
    (0..engines)
        .map(|k| (0..seats).map(|s| (s + k) % engines).collect())
        .collect()
}

/// Whether a game of `seats` seats can be played by `engines` engines.
pub fn check_engine_count(game: &str, seats: usize, engines: usize) -> Result<(), String> {
    match (seats, engines) {
        (2, 2) | (4, 2) | (4, 4) => Ok(()),
        (2, n) => Err(format!(
            "{game} is a two-player game: need exactly two --engine (got {n})"
        )),
        (_, n) => Err(format!(
            "{game} has four seats: need exactly four --engine (one per seat, rotated) \
             or two (partners opposite: A B A B, then B A B A); got {n}"
        )),
    }
}

/// A pairing's dice: roll k of a game is the k-th draw of the stream seeded by
/// the pairing's `dice_seed`, so every game of a pairing sees the same rolls.
pub struct DiceStream {
    rng: Xoshiro256PlusPlus,
}

impl DiceStream {
    pub fn new(dice_seed: u64) -> DiceStream {
        DiceStream {
            rng: Xoshiro256PlusPlus::seed_from_u64(dice_seed),
        }
    }

    /// Two dice, the higher first.
    pub fn roll(&mut self) -> (u8, u8) {
        let a: u8 = self.rng.gen_range(1..=6);
        let b: u8 = self.rng.gen_range(1..=6);
        (a.max(b), a.min(b))
    }

    /// The next roll as a `position … moves` token: `52`, `55`.
    pub fn token(&mut self) -> String {
        let (high, low) = self.roll();
        format!("{high}{low}")
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
    let mut session = (config.game.new_session)();
    for (name, value) in &config.rules {
        match yomi_protocol::usi::set_option(&mut *session, name, value) {
            Ok(true) => {}
            Ok(false) => {
                return Err(format!(
                    "rule {name}: the game {} has no such rule",
                    config.game.name()
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
                    if let Some(outcome) = session.state().outcome {
                        return Err(format!(
                            "{path}:{}: the game is already over ({})",
                            number + 1,
                            outcome.reason
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
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            session
                .set_position(base.sfen.as_deref(), &refs)
                .map_err(|e| e.to_string())?;
            let mut ok = true;
            for _ in 0..self.random_plies {
                let legal = session.legal_moves();
                if legal.is_empty() || session.state().outcome.is_some() {
                    ok = false;
                    break;
                }
                let mv = legal[rng.gen_range(0..legal.len())].clone();
                session.play(&mv).map_err(|e| e.to_string())?;
                moves.push(mv);
            }
            if ok && session.state().outcome.is_none() {
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
    seatings(config.game.seats, config.engines.len()).len() as u64
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
    let seatings = seatings(config.game.seats, config.engines.len());
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
                // 53 bits: exact as a JSON number for readers that use doubles
                // (ours among them).
                dice_seed: mix(config.seed ^ 0x5eed, pair) >> 11,
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
        assert_eq!(seatings(2, 2), vec![vec![0, 1], vec![1, 0]]);
        let four = seatings(4, 4);
        assert_eq!(four.len(), 4);
        assert_eq!(four[1], vec![1, 2, 3, 0]);
        // Every engine sits at every seat exactly once per pairing.
        for seat in 0..4 {
            let mut at_seat: Vec<usize> = four.iter().map(|s| s[seat]).collect();
            at_seat.sort();
            assert_eq!(at_seat, vec![0, 1, 2, 3]);
        }
        for seating in &four {
            let mut engines = seating.clone();
            engines.sort();
            assert_eq!(engines, vec![0, 1, 2, 3]);
        }
    }

    #[test]
    fn two_engines_at_four_seats_sit_opposite_their_partner() {
        let two = seatings(4, 2);
        assert_eq!(two, vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
        for seating in &two {
            // Partners are opposite: seats 0 and 2, seats 1 and 3.
            assert_eq!(seating[0], seating[2]);
            assert_eq!(seating[1], seating[3]);
            assert_ne!(seating[0], seating[1]);
        }
        // Each engine has each seat once over the pairing.
        for (first, second) in two[0].iter().zip(&two[1]) {
            assert_ne!(first, second);
        }
    }

    #[test]
    fn engine_counts() {
        assert!(check_engine_count("hasami", 2, 2).is_ok());
        assert!(check_engine_count("hasami", 2, 3).is_err());
        assert!(check_engine_count("yonin", 4, 4).is_ok());
        assert!(check_engine_count("yonin", 4, 2).is_ok());
        for n in [1, 3, 5] {
            let error = check_engine_count("yonin", 4, n).unwrap_err();
            assert!(error.contains("four seats"), "{error}");
        }
    }

    /// The rolls of a stream, as tokens.
    fn rolls(seed: u64, n: usize) -> Vec<String> {
        let mut dice = DiceStream::new(seed);
        (0..n).map(|_| dice.token()).collect()
    }

    #[test]
    fn dice_streams() {
        // Deterministic: the same seed gives the same rolls.
        assert_eq!(rolls(99, 50), rolls(99, 50));
        // Different seeds (pairings) give different rolls.
        assert_ne!(rolls(99, 50), rolls(100, 50));
        // Tokens are two dice 1-6, the higher first; over many rolls every one of
        // the 21 distinct rolls appears, doubles about 1 in 6.
        let many = rolls(5, 6000);
        let mut distinct = std::collections::BTreeSet::new();
        let mut doubles = 0;
        for token in &many {
            let digits: Vec<u32> = token.chars().map(|c| c.to_digit(10).unwrap()).collect();
            assert_eq!(digits.len(), 2, "{token}");
            assert!(
                (1..=6).contains(&digits[1]) && digits[1] <= digits[0],
                "{token}"
            );
            assert!(digits[0] <= 6, "{token}");
            doubles += usize::from(digits[0] == digits[1]);
            distinct.insert(token.clone());
        }
        assert_eq!(distinct.len(), 21);
        assert!((800..1200).contains(&doubles), "{doubles} doubles in 6000");
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

    fn config(game: &str, engines: usize, games: u64) -> MatchConfig {
        let engine = |i: usize| crate::runner::engine::EngineSpec {
            name: format!("E{i}"),
            cmd: "x".into(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
        };
        MatchConfig {
            game: yomi_engine::registry::find(game).unwrap(),
            rules: Vec::new(),
            engines: (0..engines).map(engine).collect(),
            tc: crate::runner::config::TimeControl::Nodes(1),
            games,
            seed: 3,
            openings: OpeningSource {
                file: None,
                random_plies: 0,
            },
            max_plies: 0,
            timeout_margin: std::time::Duration::ZERO,
            handshake_timeout: std::time::Duration::ZERO,
            hang_timeout: std::time::Duration::ZERO,
            shard: (0, 1),
        }
    }

    #[test]
    fn a_pairing_shares_its_dice_seed() {
        let config = config("sugoroku", 2, 6);
        let openings = Openings::load(&config).unwrap();
        let games = games_of(&config, &openings, &shard_pairs(&config)).unwrap();
        assert_eq!(games.len(), 6);
        for game in &games {
            let partner = &games[(game.id ^ 1) as usize];
            assert_eq!(game.pair, partner.pair);
            assert_eq!(game.dice_seed, partner.dice_seed);
            // Colours swapped: each engine gets the other's dice in the other game.
            assert_eq!(game.seats, vec![partner.seats[1], partner.seats[0]]);
        }
        assert_ne!(games[0].dice_seed, games[2].dice_seed);
        assert_ne!(games[2].dice_seed, games[4].dice_seed);
        // The seed survives the results file.
        for game in &games {
            let line = format!("{{\"dice_seed\":{}}}", game.dice_seed);
            let value = crate::json::parse(&line).unwrap();
            assert_eq!(value.u64_field("dice_seed"), Some(game.dice_seed));
        }
        assert_ne!(rolls(games[0].dice_seed, 20), rolls(games[2].dice_seed, 20));
    }

    #[test]
    fn yonin_pairings() {
        let config = config("yonin", 4, 8);
        assert_eq!(games_per_pair(&config), 4);
        let openings = Openings::load(&config).unwrap();
        let games = games_of(&config, &openings, &shard_pairs(&config)).unwrap();
        assert_eq!(games.len(), 8);
        assert_eq!(games[5].pair, 1);
        assert_eq!(games[5].seats, vec![1, 2, 3, 0]);
        let config = self::config("yonin", 2, 3);
        assert_eq!(games_per_pair(&config), 2);
        // Rounded up to whole pairings.
        assert_eq!(shard_pairs(&config), vec![0, 1]);
    }
}
