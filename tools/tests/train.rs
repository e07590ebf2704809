//! `train_sugoroku` end to end: a run is reproducible from its seed, a resumed
//! run ends where an uninterrupted one does, shards of a round merge into one
//! checkpoint, and bad checkpoints are refused.

use std::path::{Path, PathBuf};
use std::process::Command;

const TRAIN: &str = env!("CARGO_BIN_EXE_train_sugoroku");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn train(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(TRAIN)
        .args(["--hidden", "8", "--bench-every", "0"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run train_sugoroku")
}

fn ok(dir: &Path, args: &[&str]) {
    let out = train(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn runs_are_reproducible_and_resume_where_they_stopped() {
    let dir = scratch("resume");
    ok(&dir, &["--games", "300", "--seed", "4", "--out", "a.bin"]);
    ok(&dir, &["--games", "300", "--seed", "4", "--out", "b.bin"]);
    ok(
        &dir,
        &[
            "--games",
            "120",
            "--seed",
            "4",
            "--out",
            "c.bin",
            "--checkpoint-every",
            "60",
        ],
    );
    ok(&dir, &["--games", "300", "--resume", "--out", "c.bin"]);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(
        read("a.bin"),
        read("b.bin"),
        "the same seed, the same network"
    );
    assert_eq!(
        read("a.bin"),
        read("c.bin"),
        "resumed at 120, the same network at 300"
    );
    assert!(String::from_utf8(read("c.bin.state"))
        .unwrap()
        .starts_with("games 300\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_a_round_merge_into_the_next_checkpoint() {
    let dir = scratch("shards");
    ok(&dir, &["--games", "50", "--out", "r0.bin"]);
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = format!("s{i}.bin");
        ok(
            &dir,
            &[
                "--from", "r0.bin", "--games", "90", "--shard", &shard, "--out", &out,
            ],
        );
    }
    ok(
        &dir,
        &["--merge", "s0.bin", "s1.bin", "s2.bin", "--out", "r1.bin"],
    );
    let state = std::fs::read_to_string(dir.join("r1.bin.state")).unwrap();
    assert!(state.starts_with("games 140\n"), "{state}");
    let shard0 = std::fs::read(dir.join("s0.bin")).unwrap();
    let merged = std::fs::read(dir.join("r1.bin")).unwrap();
    assert_eq!(shard0.len(), merged.len());
    assert_ne!(
        shard0, merged,
        "the merge is the shards' mean, not one of them"
    );
    // Shards of different rounds do not merge.
    let out = train(&dir, &["--merge", "s0.bin", "r0.bin", "--out", "bad.bin"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("different runs or rounds"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_checkpoint_is_refused_with_its_reason() {
    let dir = scratch("damaged");
    ok(&dir, &["--games", "10", "--out", "a.bin"]);
    let bytes = std::fs::read(dir.join("a.bin")).unwrap();
    std::fs::write(dir.join("a.bin"), &bytes[..bytes.len() - 3]).unwrap();
    let out = train(&dir, &["--games", "20", "--resume", "--out", "a.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cut short"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
