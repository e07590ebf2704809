//! Real USI clients driving the real binary: PyPI cshogi's `Engine` class and
//! PyPI shogiarena's engine session, each from a script in tests/clients/.
//! `.ci/run` installs both; on a developer machine without one the test says so
//! and passes, except under CI (`CI` set), where a missing client is a failure.

use std::process::Command;

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Runs `tests/clients/<script>` on the binary when the Python package `module`
/// is importable; fails with the script's output if it exits nonzero.
fn run_client(module: &str, script: &str) {
    if !python_has(module) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install {module} (pip install {module})"
        );
        eprintln!("{module} is not installed: pip install {module} to run this test");
        return;
    }
    let script = format!("{}/tests/clients/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args([script.as_str(), env!("CARGO_BIN_EXE_yomi")])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{module} client failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cshogi_engine_class_drives_yomi() {
    run_client("cshogi", "cshogi_client.py");
}

/// An Annan game through shogiarena's `UsiEngineSession`, which sets
/// `MaxMovesToDraw` and fails if the engine does not announce it.
#[test]
fn shogiarena_engine_api_drives_yomi() {
    run_client("shogiarena", "shogiarena_client.py");
}
