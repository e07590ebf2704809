//! Perft from the data files in tests/perft/, one format for every game.
//! The fast tier runs in the suite; entries above `FAST_TIER_LEAVES` run with
//! `cargo test --test perft_data -- --ignored`.

use yomi_engine::annan::Annan;
use yomi_engine::core::{Game, HouseRules};
use yomi_engine::hasami::Hasami;
use yomi_engine::perft::perft;

const FAST_TIER_LEAVES: u64 = 20_000_000;

struct Entry {
    line: usize,
    sfen: String,
    options: Vec<(String, String)>,
    depths: Vec<(u32, u64)>,
}

/// `<sfen> ; NAME=VALUE … ; D<depth> <leaves> …`, `#` comments.
fn read(file: &str) -> Vec<Entry> {
    let path = format!("{}/tests/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let sfen = fields.next().unwrap().to_string();
        let mut entry = Entry {
            line: index + 1,
            sfen,
            options: Vec::new(),
            depths: Vec::new(),
        };
        for field in fields {
            if let Some(rest) = field.strip_prefix('D') {
                let (depth, leaves) = rest.split_once(' ').expect("D<depth> <leaves>");
                entry
                    .depths
                    .push((depth.parse().unwrap(), leaves.trim().parse().unwrap()));
            } else {
                let (name, value) = field.split_once('=').expect("NAME=VALUE");
                entry.options.push((name.to_string(), value.to_string()));
            }
        }
        entries.push(entry);
    }
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
/// entries above `FAST_TIER_LEAVES`.
fn run<G: Game>(file: &str, aliases: &[(&str, &str)], deep: bool) {
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
                perft(&mut pos, depth),
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

#[test]
fn hasami_fast_tier() {
    run::<Hasami>("hasami.txt", HASAMI_ALIASES, false);
}

#[test]
#[ignore = "deep tier"]
fn hasami_deep_tier() {
    run::<Hasami>("hasami.txt", HASAMI_ALIASES, true);
}

#[test]
fn annan_fast_tier() {
    run::<Annan>("annan.txt", &[], false);
}

#[test]
#[ignore = "deep tier"]
fn annan_deep_tier() {
    run::<Annan>("annan.txt", &[], true);
}
