//! Perft from the data files in tests/perft/, one format for every game.
//! The fast tier runs in the suite; entries above `FAST_TIER_LEAVES` run with
//! `cargo test --test perft_data -- --ignored`.

use yomi_engine::annan::Annan;
use yomi_engine::core::{Game, HouseRules};
use yomi_engine::hasami::Hasami;
use yomi_engine::perft::{perft, read_data, DataEntry};
use yomi_engine::sugoroku::{self, Sugoroku};
use yomi_engine::yonin::Yonin;

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

/// Checks every entry of `file` in one tier: the fast one, or (`deep`) the
/// entries above `FAST_TIER_LEAVES`; `count` is the game's perft.
fn run<G: Game>(file: &str, aliases: &[(&str, &str)], deep: bool, count: fn(&mut G, u32) -> u64) {
    let mut checked = 0;
    for entry in read(file) {
        let rules = rules::<G::Rules>(&entry.options, aliases);
        let mut pos = G::from_sfen(&entry.sfen, &rules)
            .unwrap_or_else(|e| panic!("line {}: {}: {e:?}", entry.line, entry.sfen));
        for &(depth, leaves) in &entry.depths {
            if (leaves > FAST_TIER_LEAVES) != deep {
                continue;
            }
            assert_eq!(
                count(&mut pos, depth),
                leaves,
                "{file} line {}: {} depth {depth}",
                entry.line,
                entry.sfen
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}

// The Hasami data files name the win condition briefly.
const HASAMI_ALIASES: &[(&str, &str)] = &[("win", "HasamiWin")];

/// Sugoroku's perft steps through the chance nodes (docs/notation.md).
fn sugoroku_perft(pos: &mut Sugoroku, depth: u32) -> u64 {
    sugoroku::perft(pos, depth)
}

#[test]
fn hasami_fast_tier() {
    run::<Hasami>("hasami.txt", HASAMI_ALIASES, false, perft);
}

#[test]
#[ignore = "deep tier"]
fn hasami_deep_tier() {
    run::<Hasami>("hasami.txt", HASAMI_ALIASES, true, perft);
}

#[test]
fn annan_fast_tier() {
    run::<Annan>("annan.txt", &[], false, perft);
}

#[test]
#[ignore = "deep tier"]
fn annan_deep_tier() {
    run::<Annan>("annan.txt", &[], true, perft);
}

#[test]
fn yonin_fast_tier() {
    run::<Yonin>("yonin.txt", &[], false, perft);
}

#[test]
#[ignore = "deep tier"]
fn yonin_deep_tier() {
    run::<Yonin>("yonin.txt", &[], true, perft);
}

#[test]
fn sugoroku_fast_tier() {
    run::<Sugoroku>("sugoroku.txt", &[], false, sugoroku_perft);
}

#[test]
#[ignore = "deep tier"]
fn sugoroku_deep_tier() {
    run::<Sugoroku>("sugoroku.txt", &[], true, sugoroku_perft);
}
