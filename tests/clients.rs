//! Real USI clients driving the real binary: PyPI cshogi's `Engine` class and
//! PyPI shogiarena's engine session, each from a script in tests/clients/.
//! Both packages are needed: `.ci/run` installs them; anywhere else a missing
//! one fails the test with the command that installs it, so that these tests
//! never pass without running.

use std::process::Command;

const INSTALL: &str = "python3 -m pip install cshogi shogiarena";

/// Runs `tests/clients/<script>` on the binary; fails with the script's output
/// if it exits nonzero, and with the install command if `module` is missing.
fn run_client(module: &str, script: &str) {
    let probe = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output();
    match probe {
        Err(e) => panic!("python3 is needed to run the {module} client test: {e}"),
        Ok(out) => assert!(
            out.status.success(),
            "the Python package {module} is missing: install it with `{INSTALL}` (as .ci/run does)\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
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
