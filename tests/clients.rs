//! Real USI clients driving the real binary: PyPI cshogi's `Engine` class and
//! PyPI shogiarena's engine session, each from a script in tests/clients/.
//!
//! The test sets itself up: it makes a Python virtual environment under the
//! target directory and installs tests/clients/requirements.txt into it (once:
//! later runs reuse it until the requirements change), apt-installing
//! `python3-venv` first where venv is missing and it may. Where it cannot
//! (no network, not root), it fails saying what to install, so that these
//! tests never pass without running.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const REQUIREMENTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/clients/requirements.txt"
);

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

/// Runs `command`; its output if it succeeded, else the end of what it said.
fn succeed(command: &mut Command) -> Result<Output, String> {
    match command.output() {
        Ok(out) if out.status.success() => Ok(out),
        Ok(out) => {
            let said = stderr_of(&out);
            let last: Vec<&str> = said.lines().rev().take(3).collect();
            let last: Vec<&str> = last.into_iter().rev().collect();
            Err(format!("{}: {}", out.status, last.join(" / ")))
        }
        Err(e) => Err(format!("cannot start {:?}: {e}", command.get_program())),
    }
}

/// A Python of its own, which sees nothing of the machine's packages.
fn python_command(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.env_remove("PYTHONPATH").env_remove("PYTHONHOME");
    command
}

/// Makes a virtual environment at `venv` with the machine's `python3`,
/// installing Debian's `python3-venv` first if venv cannot.
fn make_venv(venv: &Path) -> Result<(), String> {
    let make = || succeed(Command::new("python3").arg("-m").arg("venv").arg(venv)).map(drop);
    if let Err(first) = make() {
        let _ = std::fs::remove_dir_all(venv);
        let installer = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/apt-install.sh");
        succeed(Command::new(installer).args(["python3", "python3-venv"])).map_err(|e| {
            format!(
                "`python3 -m venv` failed ({first}), and python3-venv could not be installed \
                 ({e}): install python3 and python3-venv"
            )
        })?;
        make().map_err(|e| format!("`python3 -m venv {}` failed: {e}", venv.display()))?;
    }
    Ok(())
}

/// The virtual environment's python, with the requirements installed.
fn provision() -> Result<PathBuf, String> {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let venv = tmp.join("clients-venv");
    let python = venv.join("bin/python");
    // Written last: the requirements the environment holds.
    let marker = venv.join("yomi-requirements.txt");
    let requirements =
        std::fs::read_to_string(REQUIREMENTS).map_err(|e| format!("{REQUIREMENTS}: {e}"))?;
    std::fs::create_dir_all(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    // Another test process may be provisioning: one at a time.
    let lock_path = tmp.join("clients-venv.lock");
    let lock = File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("{}: {e}", lock_path.display()))?;
    if std::fs::read_to_string(&marker).is_ok_and(|held| held == requirements) {
        return Ok(python);
    }
    // Anything half made (an install cut short) is made again.
    let _ = std::fs::remove_dir_all(&venv);
    make_venv(&venv)?;
    eprintln!(
        "installing the client packages of {REQUIREMENTS} into {}",
        venv.display()
    );
    succeed(python_command(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-r",
        REQUIREMENTS,
    ]))
    .map_err(|e| {
        format!(
            "pip could not install {REQUIREMENTS} into {}: PyPI must be reachable \
             ({e})",
            venv.display()
        )
    })?;
    std::fs::write(&marker, &requirements).map_err(|e| format!("{}: {e}", marker.display()))?;
    Ok(python)
}

/// The python to run the clients with, provisioned once for all the tests.
fn python() -> &'static Path {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match PYTHON.get_or_init(provision) {
        Ok(python) => python,
        Err(e) => panic!("the client tests cannot set themselves up: {e}"),
    }
}

/// Runs `tests/clients/<script>` on the binary; fails with the script's
/// output if it exits nonzero.
fn run_client(name: &str, script: &str) {
    let script = format!("{}/tests/clients/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = python_command(python())
        .args([script.as_str(), env!("CARGO_BIN_EXE_yomi")])
        .output()
        .expect("the environment's python runs");
    assert!(
        out.status.success(),
        "{name} client failed:\n{}\n{}",
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
