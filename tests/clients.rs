//! Real USI clients driving the real binary: PyPI cshogi's `Engine` class.
//! `.ci/run` installs cshogi; on a developer machine without it the test says so
//! and passes, except under CI (`CI` set), where a missing client is a failure.

use std::process::Command;

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn cshogi_engine_class_drives_yomi() {
    if !python_has("cshogi") {
        assert!(std::env::var_os("CI").is_none(), "CI must install cshogi (pip install cshogi)");
        eprintln!("cshogi is not installed: pip install cshogi to run this test");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/cshogi_client.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_yomi")])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "cshogi client failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
