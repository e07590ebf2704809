//! Every registered game has what docs/adding-a-game.md asks of it.

use std::path::Path;
use yomi_engine::registry::{for_each_game, GameEntry, GameVisitor};
use yomi_engine::session::Playable;

/// Collects what each game lacks.
struct Missing(Vec<String>);

impl GameVisitor for Missing {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let name = entry.name;
        for file in [
            format!("tests/perft/{name}.txt"),
            format!("docs/rules/{name}.md"),
        ] {
            if !root.join(&file).is_file() {
                self.0.push(format!("{name}: no {file}"));
            }
        }
        let rules_index = std::fs::read_to_string(root.join("docs/rules/README.md")).unwrap();
        if !rules_index.contains(&format!("({name}.md)")) {
            self.0
                .push(format!("{name}: not in the table of docs/rules/README.md"));
        }
        let positions = G::BENCH_POSITIONS
            .iter()
            .chain(G::PERFT_BENCH.iter().map(|(sfen, _)| sfen));
        for sfen in positions {
            if let Err(e) = G::from_sfen(sfen, &Default::default()) {
                self.0.push(format!("{name}: bench position '{sfen}': {e}"));
            }
        }
        if G::BENCH_POSITIONS.is_empty() || G::PERFT_BENCH.is_empty() {
            self.0
                .push(format!("{name}: no bench or perft bench positions"));
        }
    }
}

#[test]
fn every_registered_game_has_perft_data_a_rules_page_and_bench_positions() {
    let mut missing = Missing(Vec::new());
    for_each_game(&mut missing);
    assert!(missing.0.is_empty(), "{}", missing.0.join("\n"));
}
