//! `sugoroku_gen` end to end: shards of a labelling run join into the same
//! data as one process, an interrupted shard carries on to the same bytes,
//! shards that do not belong together are refused, and fitting resumes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GEN: &str = env!("CARGO_BIN_EXE_sugoroku_gen");
const TRAIN: &str = env!("CARGO_BIN_EXE_train_sugoroku");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-gen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the tool")
}

fn ok(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = run(dir, program, args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{args:?}: {stderr}");
    stderr
}

fn refused(dir: &Path, args: &[&str], says: &str) {
    let out = run(dir, GEN, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

/// A small trained networks file to label with.
fn networks(dir: &Path) {
    ok(
        dir,
        TRAIN,
        &[
            "--games",
            "30",
            "--hidden",
            "8",
            "--race-hidden",
            "4",
            "--bench-every",
            "0",
            "--out",
            "net.bin",
        ],
    );
}

fn label(dir: &Path, shard: &str, out: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "label",
        "--networks",
        "net.bin",
        "--seed",
        "3",
        "--games",
        "12",
        "--threads",
        "1",
        "--shard",
        shard,
        "--out",
        out,
    ];
    args.extend(extra);
    ok(dir, GEN, &args)
}

#[test]
fn shards_join_to_one_process_and_an_interrupted_shard_carries_on() {
    let dir = scratch("shards");
    networks(&dir);
    label(&dir, "0/1", "all.bin", &[]);
    label(&dir, "0/3", "s0.bin", &[]);
    label(&dir, "1/3", "s1.bin", &[]);
    // Shard 2 stopped after one batch, a torn record written after it.
    let said = label(&dir, "2/3", "s2.bin", &["--stop-after", "1"]);
    assert!(said.contains("games 1/4"), "{said}");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("s2.bin"))
        .unwrap();
    std::io::Write::write_all(&mut file, &[7u8; 40]).unwrap();
    refused(
        &dir,
        &["join", "--out", "j.bin", "s0.bin", "s1.bin", "s2.bin"],
        "incomplete",
    );
    let said = label(&dir, "2/3", "s2.bin", &[]);
    assert!(said.contains("carrying on after 1 of 4 games"), "{said}");
    ok(
        &dir,
        GEN,
        &["join", "--out", "j.bin", "s2.bin", "s0.bin", "s1.bin"],
    );
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert!(read("all.bin").len() > 64 * 50, "positions were kept");
    assert_eq!(read("j.bin"), read("all.bin"));
    // A shard left out, a shard of another run, another run into the same file.
    refused(
        &dir,
        &["join", "--out", "k.bin", "s0.bin", "s2.bin"],
        "games 4..8 are in none",
    );
    label(&dir, "1/3", "other.bin", &["--plies", "2"]);
    refused(
        &dir,
        &["join", "--out", "k.bin", "s0.bin", "other.bin", "s2.bin"],
        "another run",
    );
    refused(
        &dir,
        &[
            "label",
            "--networks",
            "net.bin",
            "--seed",
            "4",
            "--games",
            "12",
            "--shard",
            "1/3",
            "--out",
            "s1.bin",
        ],
        "another run",
    );
    // A damaged data file.
    std::fs::write(dir.join("bad.bin"), &read("s0.bin")[..30]).unwrap();
    refused(
        &dir,
        &[
            "fit", "--from", "net.bin", "--data", "bad.bin", "--out", "f.bin",
        ],
        "too short",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fitting_resumes_to_the_same_networks() {
    let dir = scratch("fit");
    networks(&dir);
    label(&dir, "0/1", "d.bin", &[]);
    let fit = |out: &str, epochs: &str, resume: bool| {
        let mut args = vec![
            "fit", "--from", "net.bin", "--data", "d.bin", "--out", out, "--epochs", epochs,
        ];
        if resume {
            args.push("--resume");
        }
        ok(&dir, GEN, &args)
    };
    let said = fit("a.bin", "3", false);
    assert!(said.contains("epoch 3/3"), "{said}");
    fit("b.bin", "1", false);
    fit("b.bin", "3", true);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(read("a.bin"), read("b.bin"));
    assert_ne!(
        read("a.bin"),
        read("net.bin"),
        "fitting changed the networks"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `duel --depth`: both networks play through the engine's search. A network
/// against itself on duplicate dice scores exactly 0 (no state carried
/// between the sides); the first network, searched, beats one of 30 games
/// of training, and the output says how they played.
#[test]
fn networks_duel_through_the_search() {
    let dir = scratch("duel");
    networks(&dir);
    let first = concat!(env!("CARGO_MANIFEST_DIR"), "/train/sugoroku-first.bin");
    let duel = |a: &str, b: &str| {
        let args = [
            "duel",
            "--networks",
            a,
            "--against",
            b,
            "--pairs",
            "6",
            "--seed",
            "4",
            "--depth",
            "2",
        ];
        let out = run(&dir, GEN, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(said.contains("searched to depth 2"), "{said}");
        let points: f64 = said
            .split(": ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("points in {said}"));
        points
    };
    assert_eq!(duel(first, first), 0.0);
    assert!(duel(first, "net.bin") > 0.5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `duel --luck`: the points less each roll's luck keep their mean and
/// narrow the interval. The embedded network against the first one, at 0 ply.
#[test]
fn luck_adjusted_duel_narrows_the_interval() {
    let dir = scratch("luck");
    let first = concat!(env!("CARGO_MANIFEST_DIR"), "/train/sugoroku-first.bin");
    let embedded = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/src/sugoroku/net.bin"
    );
    let out = run(
        &dir,
        GEN,
        &[
            "duel",
            "--networks",
            embedded,
            "--against",
            first,
            "--pairs",
            "100",
            "--seed",
            "5",
            "--luck",
        ],
    );
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{said}");
    // "... at 0 ply: +0.120 +/- 0.210 points/game (...)" then
    // "less the dice's luck: +0.150 +/- 0.090 points/game".
    let estimate = |line: &str| -> (f64, f64) {
        let numbers: Vec<f64> = line
            .rsplit(": ")
            .next()
            .into_iter()
            .flat_map(|rest| rest.split_whitespace().take(3))
            .filter_map(|word| word.parse().ok())
            .collect();
        match numbers[..] {
            [points, error] => (points, error),
            _ => panic!("an estimate in {line:?}"),
        }
    };
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    let (raw, raw_error) = estimate(lines[0].split(" (").next().unwrap());
    let (adjusted, adjusted_error) = estimate(lines[1]);
    assert!(adjusted_error < 0.7 * raw_error, "{said}");
    assert!(
        (adjusted - raw).abs() < raw_error + adjusted_error,
        "{said}"
    );
    assert!(
        adjusted - adjusted_error > 0.0,
        "the new network is ahead: {said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
