//! A short run of the protocol fuzzer against the `yomi` binary: a few seeds,
//! 1500 lines each, in every game (docs/protocol.md, "Fuzzing the
//! protocol", for the long run).
//!
//! The engine is the `yomi` binary of the root package, found next to the
//! `fuzz` binary (`cargo test --workspace` builds it with the other test
//! targets); on a clean tree under `cargo test -p yomi-tools` it is built here.

use std::path::{Path, PathBuf};
use std::process::Command;

const FUZZ: &str = env!("CARGO_BIN_EXE_fuzz");

fn yomi() -> PathBuf {
    let dir = Path::new(FUZZ).parent().expect("bin dir");
    let yomi = dir.join(format!("yomi{}", std::env::consts::EXE_SUFFIX));
    if !yomi.is_file() {
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "-p", "yomi", "--bin", "yomi"]);
        if dir.file_name().is_some_and(|name| name == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(status.success(), "cannot build the yomi binary");
    }
    yomi
}

#[test]
fn a_short_fuzz_run_in_every_game_keeps_every_promise() {
    let engine = yomi();
    for seed in 1..=3 {
        let failure_file =
            std::env::temp_dir().join(format!("yomi-fuzz-test-{}-{seed}.txt", std::process::id()));
        let output = Command::new(FUZZ)
            .args(["--seed", &seed.to_string(), "--lines", "1500"])
            .arg("--engine")
            .arg(&engine)
            .arg("--failure-file")
            .arg(&failure_file)
            .output()
            .expect("run fuzz");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "fuzz --seed {seed}:\n{stdout}\n{stderr}"
        );
        assert!(
            stdout.starts_with(&format!("fuzz: ok, seed {seed} lines ")),
            "{stdout}"
        );
        let _ = std::fs::remove_file(&failure_file);
    }
}

/// The fuzzer itself fails, with a reproduction, on an engine that breaks a
/// promise: here one that is not the engine at all and exits at once.
#[test]
fn a_broken_engine_fails_the_run_with_its_lines() {
    let failure_file =
        std::env::temp_dir().join(format!("yomi-fuzz-test-{}-broken.txt", std::process::id()));
    let output = Command::new(FUZZ)
        .args(["--seed", "7", "--lines", "100", "--engine", "/bin/true"])
        .arg("--failure-file")
        .arg(&failure_file)
        .output()
        .expect("run fuzz");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("fuzz: FAILED (seed 7, session 1"),
        "{stderr}"
    );
    assert!(stderr.contains("> usi"), "{stderr}");
    let sent = std::fs::read(&failure_file).expect("the failure's lines");
    assert!(sent.starts_with(b"usi\n"), "{sent:?}");
    let _ = std::fs::remove_file(&failure_file);
}
