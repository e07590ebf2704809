//! The WebAssembly build (docs/web.md): builds `web/dist/yomi.wasm` with
//! `web/build.sh` when it is missing or older than the sources, then runs the
//! node tests (the engine: perft of every game, searches within their limits)
//! and the page tests (headless Chromium). It sets itself up: what is missing
//! of node, npm, Debian's Chromium and the fonts (kanji, Bengali, Devanagari) is apt-installed
//! (tools/apt-install.sh, as root or through sudo; web/build.sh does the same
//! for the compiler), and `npm ci --prefix web` fetches playwright-core. Where
//! that cannot be done it fails saying what to install; `YOMI_SKIP_WEB=1`
//! skips all of it on a machine without the toolchain. Last, the reviews the
//! page made (written under `target/web/`) are checked against the native
//! `yomi review` of the same records at the same budget.

mod common;

use common::cli;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The newest modification time of the files under `path`.
fn newest(path: &Path) -> SystemTime {
    let meta = std::fs::metadata(path).expect("source path exists");
    if !meta.is_dir() {
        return meta.modified().expect("modification time");
    }
    std::fs::read_dir(path)
        .expect("read source directory")
        .map(|entry| newest(&entry.expect("directory entry").path()))
        .max()
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn skipped() -> bool {
    let skip = std::env::var_os("YOMI_SKIP_WEB").is_some_and(|v| v == "1");
    if skip {
        eprintln!("YOMI_SKIP_WEB=1: the WebAssembly build and its tests are skipped");
    }
    skip
}

/// Whether `program` is found on `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// The Debian packages the tests need that are not there in another form
/// (a node of its own, Chromium named by `CHROMIUM`).
fn debian_packages() -> Vec<&'static str> {
    // Kanji, Bengali and Devanagari for the screenshots in each language.
    let mut packages = vec![
        "fonts-vlgothic",
        "fonts-lohit-beng-bengali",
        "fonts-lohit-deva",
    ];
    if !on_path("node") {
        packages.push("nodejs");
    }
    if !on_path("npm") {
        packages.push("npm");
    }
    if std::env::var_os("CHROMIUM").is_none() {
        packages.push("chromium");
    }
    packages
}

fn run(command: &mut Command, what: &str) {
    let status = command.status().unwrap_or_else(|e| {
        panic!("{what}: cannot start: {e} (YOMI_SKIP_WEB=1 skips the web tests)")
    });
    assert!(
        status.success(),
        "{what} failed: {status} (YOMI_SKIP_WEB=1 skips the web tests)"
    );
}

#[test]
fn the_wasm_engine_and_the_page_pass_their_tests() {
    if skipped() {
        return;
    }
    let root = root();
    run(
        Command::new(root.join("tools/apt-install.sh")).args(debian_packages()),
        "tools/apt-install.sh (the Debian packages of the web tests)",
    );
    let wasm = root.join("web/dist/yomi.wasm");
    let sources = [
        "engine/src",
        "protocol/src",
        "web/src",
        "Cargo.toml",
        "Cargo.lock",
        "web/build.sh",
    ]
    .iter()
    .map(|p| newest(&root.join(p)))
    .max()
    .expect("sources");
    let fresh = std::fs::metadata(&wasm)
        .and_then(|m| m.modified())
        .is_ok_and(|built| built >= sources);
    if !fresh {
        run(&mut Command::new(root.join("web/build.sh")), "web/build.sh");
    }
    if !root.join("web/node_modules/playwright-core").exists() {
        run(
            Command::new("npm").args(["ci", "--prefix", "web"]),
            "npm ci --prefix web",
        );
    }
    // The page's reviews of this run only.
    let shots = root.join("target/web");
    for entry in std::fs::read_dir(&shots).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with("review-")
            && entry.path().extension().is_none_or(|e| e != "png")
        {
            std::fs::remove_file(entry.path()).expect("remove an old review");
        }
    }
    run(
        Command::new("node")
            .args([
                "--test",
                "test/engine.test.mjs",
                "test/levels.test.mjs",
                "test/page.test.mjs",
            ])
            .current_dir(root.join("web")),
        "node --test (web/test)",
    );
    the_page_reviews_as_the_command_line_does(&shots);
}

/// The value of `key` in a line of `yomi review --json` (a number, a string
/// without its quotes, or `null`), as the page writes it (`none` for null).
fn json_field(line: &str, key: &str) -> String {
    let at = line
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    let rest = &line[at + key.len() + 3..];
    let value = match rest.strip_prefix('"') {
        // A string (a Sugoroku move has commas): up to its closing quote.
        Some(text) => &text[..text.find('"').expect("a closing quote")],
        None => &rest[..rest.find([',', '}']).unwrap_or(rest.len())],
    };
    if value == "null" { "none" } else { value }.to_string()
}

/// Each `review-<name>.page` the page test wrote (`nodes N`, then a line a
/// move: ply, seat, verdict, best, played, best value, played value, loss)
/// equals `yomi review --record review-<name>.record --nodes N --json` with
/// the page's hash size (16 MiB; one thread in both).
fn the_page_reviews_as_the_command_line_does(dir: &Path) {
    let mut compared = Vec::new();
    for entry in std::fs::read_dir(dir).expect("target/web").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "page") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("the page's review");
        let mut lines = text.lines().filter(|l| !l.is_empty());
        let nodes = lines
            .next()
            .and_then(|l| l.strip_prefix("nodes "))
            .expect("nodes N");
        let page: Vec<Vec<&str>> = lines.map(|l| l.split(' ').collect()).collect();
        let record = path.with_extension("record");
        let record = record.to_str().expect("a path in UTF-8");
        let out = cli(&[
            "review",
            "--record",
            record,
            "--nodes",
            nodes,
            "--json",
            "--set",
            "USI_Hash=16",
        ]);
        assert!(
            out.status.success(),
            "yomi review --record {record}: {out:?}"
        );
        let native: Vec<Vec<String>> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("{\"ply\""))
            .map(|l| {
                [
                    "ply",
                    "seat",
                    "verdict",
                    "best",
                    "played",
                    "bestValue",
                    "playedValue",
                    "loss",
                ]
                .iter()
                .map(|key| json_field(l, key))
                .collect()
            })
            .collect();
        assert_eq!(
            page.len(),
            native.len(),
            "{record}: the page {page:?}, natively {native:?}"
        );
        for (p, n) in page.iter().zip(&native) {
            assert_eq!(p[..5], n[..5], "{record}");
            for (a, b) in p[5..].iter().zip(&n[5..]) {
                let (a, b): (f64, f64) =
                    (a.parse().expect("a number"), b.parse().expect("a number"));
                assert!(
                    (a - b).abs() < 1e-9,
                    "{record}: the page {p:?}, natively {n:?}"
                );
            }
        }
        compared.push(path);
    }
    assert!(
        compared.len() >= 5,
        "the page test wrote its reviews: {compared:?}"
    );
}
