//! Every registered game has what docs/adding-a-game.md asks of it outside its
//! folder: each file below is data or prose only people can write, and this
//! test names what is missing. Everything else (the protocol, the command line,
//! the benches, the generic suites, the match runner, the page's list of games
//! and its seats) reads the registry.

use std::path::Path;
use yomi_engine::registry::{for_each_game, GameEntry, GameVisitor};
use yomi_engine::session::Playable;

/// Collects what each game lacks.
struct Missing(Vec<String>);

impl Missing {
    fn require(&mut self, present: bool, name: &str, what: String) {
        if !present {
            self.0.push(format!("{name}: {what}"));
        }
    }
}

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_default()
}

impl GameVisitor for Missing {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        let name = entry.name();
        let title = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
        for file in [
            format!("tests/perft/{name}.txt"),
            format!("docs/rules/{name}.md"),
        ] {
            let present = !read(&file).is_empty();
            self.require(present, name, format!("no {file}"));
        }
        let indexed = read("docs/rules/README.md").contains(&format!("({name}.md)"));
        self.require(
            indexed,
            name,
            "not in the table of docs/rules/README.md".into(),
        );
        let in_readme = read("README.md").contains(&format!("(docs/rules/{name}.md)"));
        self.require(in_readme, name, "not in README.md's table of games".into());
        let notation = read("docs/notation.md");
        let section = ["## ", "### "]
            .iter()
            .any(|level| notation.contains(&format!("\n{level}{title}\n")));
        self.require(
            section,
            name,
            format!("no section '### {title}' (its notation) in docs/notation.md"),
        );
        let bench = read("tests/bench.txt");
        let recorded = bench
            .lines()
            .any(|line| line.split_whitespace().next() == Some(name));
        self.require(
            recorded,
            name,
            format!("no line '{name} <nodes>' in tests/bench.txt (the count `yomi bench` prints)"),
        );
        if !G::PROFILE.levels.elo.is_empty() {
            let listed = read("web/levels.js").contains(&format!("\n  {name}: ["));
            self.require(
                listed,
                name,
                "levels measured (the profile's levels.elo) but not in web/levels.js".into(),
            );
        }
        let positions = G::PROFILE
            .bench
            .iter()
            .chain(G::PROFILE.perft_bench.iter().map(|(sfen, _)| sfen));
        for sfen in positions {
            if let Err(e) = G::from_sfen(sfen, &Default::default()) {
                self.0.push(format!("{name}: bench position '{sfen}': {e}"));
            }
        }
        if G::PROFILE.bench.is_empty() || G::PROFILE.perft_bench.is_empty() {
            self.0
                .push(format!("{name}: no bench or perft bench positions"));
        }
    }
}

#[test]
fn every_registered_game_has_what_only_people_can_write() {
    let mut missing = Missing(Vec::new());
    for_each_game(&mut missing);
    assert!(missing.0.is_empty(), "{}", missing.0.join("\n"));
}

/// Nothing outside a game's folder lists the games by hand: the files that
/// once did read the registry, or the engine, now.
#[test]
fn no_list_of_games_is_kept_by_hand() {
    let names = yomi_engine::registry::NAMES;
    for file in [
        "engine/src/core/conformance.rs",
        "web/index.html",
        "web/app.js",
        "web/test/engine.test.mjs",
        "web/test/page.test.mjs",
        "web/test/speed.mjs",
        "tests/docs.rs",
        "tools/src/pool.rs",
    ] {
        let text = read(file);
        assert!(!text.is_empty(), "{file} is read");
        let mut lists = vec!["const SEATS = {".to_string()];
        lists.extend(
            names
                .windows(2)
                .map(|w| format!("\"{}\", \"{}\"", w[0], w[1])),
        );
        for name in names {
            lists.push(format!("<option value=\"{name}\""));
            lists.push(format!("crate::{name}::"));
        }
        for list in lists {
            assert!(
                !text.contains(&list),
                "{file} lists the games by hand: {list}"
            );
        }
    }
}
