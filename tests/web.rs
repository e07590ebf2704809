//! The WebAssembly build (docs/web.md): builds `web/dist/yomi.wasm` with
//! `web/build.sh` when it is missing or older than the sources, then runs the
//! node tests (the engine: perft of every game, searches within their limits)
//! and the page tests (headless Chromium). It sets itself up: what is missing
//! of node, npm, Debian's Chromium and the fonts (kanji, Bengali, Devanagari) is apt-installed
//! (tools/apt-install.sh, as root or through sudo; web/build.sh does the same
//! for the compiler), and `npm ci --prefix web` fetches playwright-core. Where
//! that cannot be done it fails saying what to install; `YOMI_SKIP_WEB=1`
//! skips all of it on a machine without the toolchain.

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
}
