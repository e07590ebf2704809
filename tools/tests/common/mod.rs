//! What the command-line tests of `match` subcommands share: running it,
//! expecting it to succeed or to refuse, scratch directories.

use std::path::PathBuf;
use std::process::{Command, Output};

pub const MATCH: &str = env!("CARGO_BIN_EXE_match");

/// A fresh directory for the files of one test of `suite`.
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn run(args: &[String]) -> Output {
    Command::new(MATCH).args(args).output().expect("run match")
}

/// Runs `match`, which must succeed: its stdout and stderr.
pub fn ok(args: &[String]) -> (String, String) {
    let output = run(args);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    );
    assert!(
        output.status.success(),
        "match {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// Runs `match`, which must refuse: exit status 2 and one line on stderr,
/// `match: …` with `message` in it.
pub fn refused(args: &[String], message: &str) {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.starts_with("match: "), "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
}
