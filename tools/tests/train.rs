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

/// Runs `train_sugoroku`, which must refuse: exit status 2, one line on
/// stderr holding every one of `messages`.
fn refused(dir: &Path, args: &[&str], messages: &[&str]) {
    let out = train(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    for message in messages {
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn the_first_round_starts_from_a_written_random_network() {
    let dir = scratch("round0");
    ok(&dir, &["--games", "0", "--seed", "3", "--out", "r0.bin"]);
    let state = std::fs::read_to_string(dir.join("r0.bin.state")).unwrap();
    assert!(state.starts_with("games 0\nseed 3\nhidden 8\n"), "{state}");
    // The random network of the seed, which a run of that seed starts from:
    // 30 games from it are 30 games of that run.
    ok(
        &dir,
        &["--from", "r0.bin", "--games", "30", "--out", "a.bin"],
    );
    ok(&dir, &["--games", "30", "--seed", "3", "--out", "b.bin"]);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(read("a.bin"), read("b.bin"));
    assert_ne!(read("a.bin"), read("r0.bin"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_a_round_merge_into_the_next_checkpoint() {
    let dir = scratch("shards");
    ok(&dir, &["--games", "50", "--out", "r0.bin"]);
    let shard = |i: u64, from: &str, out: &str| {
        let index = format!("{i}/3");
        ok(
            &dir,
            &[
                "--from", from, "--games", "90", "--shard", &index, "--out", out,
            ],
        );
    };
    for i in 0..3 {
        shard(i, "r0.bin", &format!("s{i}.bin"));
    }
    let state = std::fs::read_to_string(dir.join("s1.bin.state")).unwrap();
    assert!(
        state.contains("shard 1/3\nfrom_games 50\nfrom_id "),
        "{state}"
    );
    // A shard missing, or given twice: refused, nothing written.
    refused(
        &dir,
        &["--merge", "s0.bin", "s1.bin", "--out", "r1.bin"],
        &["lacks shard 2/3"],
    );
    refused(
        &dir,
        &["--merge", "s0.bin", "s1.bin", "s1.bin", "--out", "r1.bin"],
        &["both shard 1/3"],
    );
    assert!(!dir.join("r1.bin").exists());
    ok(
        &dir,
        &["--merge", "s0.bin", "s1.bin", "s2.bin", "--out", "r1.bin"],
    );
    let state = std::fs::read_to_string(dir.join("r1.bin.state")).unwrap();
    assert!(state.starts_with("games 140\n"), "{state}");
    assert!(!state.contains("shard"), "{state}");
    let shard0 = std::fs::read(dir.join("s0.bin")).unwrap();
    let merged = std::fs::read(dir.join("r1.bin")).unwrap();
    assert_eq!(shard0.len(), merged.len());
    assert_ne!(
        shard0, merged,
        "the merge is the shards' mean, not one of them"
    );
    // A checkpoint that is no shard, and a shard of another round (from
    // other weights with the same settings and count) do not merge.
    refused(
        &dir,
        &["--merge", "s0.bin", "r0.bin", "--out", "bad.bin"],
        &["r0.bin", "not a shard"],
    );
    ok(
        &dir,
        &["--games", "50", "--seed", "9", "--out", "other0.bin"],
    );
    let state = std::fs::read_to_string(dir.join("other0.bin.state")).unwrap();
    std::fs::write(
        dir.join("other0.bin.state"),
        state.replace("seed 9", "seed 1"),
    )
    .unwrap();
    shard(2, "other0.bin", "t2.bin");
    refused(
        &dir,
        &["--merge", "s0.bin", "s1.bin", "t2.bin", "--out", "bad.bin"],
        &["t2.bin", "different runs or rounds"],
    );
    assert!(!dir.join("bad.bin").exists());
    // A round starts from a merged checkpoint, not from a shard, and a shard
    // needs its round's start.
    refused(
        &dir,
        &[
            "--from", "s0.bin", "--games", "9", "--shard", "0/3", "--out", "x.bin",
        ],
        &["s0.bin", "--merge"],
    );
    refused(
        &dir,
        &["--games", "9", "--shard", "0/3", "--out", "x.bin"],
        &["--from"],
    );
    assert!(!dir.join("x.bin").exists());
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

#[test]
fn a_cut_shard_is_refused_and_nothing_is_written() {
    let dir = scratch("cut-shard");
    ok(&dir, &["--games", "0", "--out", "r0.bin"]);
    for i in 0..2 {
        let (index, out) = (format!("{i}/2"), format!("s{i}.bin"));
        ok(
            &dir,
            &[
                "--from", "r0.bin", "--games", "10", "--shard", &index, "--out", &out,
            ],
        );
    }
    std::fs::write(dir.join("r1.bin"), "kept").unwrap();
    let merge = ["--merge", "s0.bin", "s1.bin", "--out", "r1.bin"];
    // Weights cut short.
    let weights = std::fs::read(dir.join("s1.bin")).unwrap();
    std::fs::write(dir.join("s1.bin"), &weights[..weights.len() / 2]).unwrap();
    refused(&dir, &merge, &["s1.bin", "cut short"]);
    std::fs::write(dir.join("s1.bin"), &weights).unwrap();
    // A state cut inside its shard line.
    let state = std::fs::read_to_string(dir.join("s0.bin.state")).unwrap();
    let cut = &state[..state.find("from_games").unwrap()];
    std::fs::write(dir.join("s0.bin.state"), cut).unwrap();
    refused(&dir, &merge, &["s0.bin.state", "from_games"]);
    assert_eq!(std::fs::read(dir.join("r1.bin")).unwrap(), b"kept");
    assert!(!dir.join("r1.bin.state").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
