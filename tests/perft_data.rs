//! Perft from the data files in tests/perft/ (`<game>.txt` for every registered
//! game), one format for all.
//! The fast tier runs in the suite; entries above `FAST_TIER_LEAVES` run with
//! `cargo test --test perft_data -- --ignored`.

use yomi_engine::core::HouseRules;
use yomi_engine::perft::{read_data, DataEntry};
use yomi_engine::registry::{for_each_game, GameEntry, GameVisitor};
use yomi_engine::session::Playable;

const FAST_TIER_LEAVES: u64 = 20_000_000;

fn read(file: &str) -> Vec<DataEntry> {
    let path = format!("{}/tests/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = read_data(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!entries.is_empty(), "{path} holds no positions");
    entries
}

/// The rules an entry names, `NAME=VALUE` each; `aliases` maps a data file's
/// short names to the option names.
fn rules<R: HouseRules>(options: &[(String, String)], aliases: &[(&str, &str)]) -> R {
    let mut rules = R::default();
    for (name, value) in options {
        let name = aliases
            .iter()
            .find(|(short, _)| short == name)
            .map_or(name.as_str(), |&(_, long)| long);
        assert!(rules.set(name, value).unwrap(), "unknown option {name}");
    }
    rules
}

/// Checks every entry of the game's data file in one tier: the fast one, or
/// (`deep`) the entries above `FAST_TIER_LEAVES`; the count is the game's perft.
struct Tier {
    deep: bool,
}

impl GameVisitor for Tier {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        let file = format!("{}.txt", entry.name());
        let aliases: Vec<(&str, &str)> = ALIASES
            .iter()
            .filter(|(game, ..)| *game == entry.name())
            .map(|&(_, short, long)| (short, long))
            .collect();
        let mut checked = 0;
        for line in read(&file) {
            let rules = rules::<G::Rules>(&line.options, &aliases);
            let pos = G::from_sfen(&line.sfen, &rules)
                .unwrap_or_else(|e| panic!("{file} line {}: {}: {e:?}", line.line, line.sfen));
            for &(depth, leaves) in &line.depths {
                if (leaves > FAST_TIER_LEAVES) != self.deep {
                    continue;
                }
                assert_eq!(
                    pos.perft(depth, true),
                    leaves,
                    "{file} line {}: {} depth {depth}",
                    line.line,
                    line.sfen
                );
                checked += 1;
            }
        }
        // Every file has a fast tier; a deep one is optional.
        assert!(checked > 0 || self.deep, "{file}: no fast-tier entry");
    }
}

/// Short option names the data files use: (game, short, option). The Hasami
/// file (which tools/crosscheck/hasami_perft.py reads too) names the win
/// condition `win`.
const ALIASES: &[(&str, &str, &str)] = &[("hasami", "win", "HasamiWin")];

#[test]
fn every_game_fast_tier() {
    for_each_game(&mut Tier { deep: false });
}

#[test]
#[ignore = "deep tier"]
fn every_game_deep_tier() {
    for_each_game(&mut Tier { deep: true });
}
