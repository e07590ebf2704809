//! The match runner's shards under a real Slurm (docs/match.md, "Resume,
//! shards, merge"): a private single-node cluster (its own ports, state and
//! configuration in a scratch directory) runs the docs' array job
//! `sbatch --array=0-3`, a task run again carries its cut file on, and the
//! four shards merge into the whole match.
//!
//! Under `CI=true` it installs Slurm where missing (tools/apt-install.sh) and
//! fails if the daemons cannot run. Anywhere else it is skipped, with a note,
//! where Slurm is not installed, the user is not root or the daemons do not
//! come up.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const MATCH: &str = env!("CARGO_BIN_EXE_match");
const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_test_engine");
const NODE: &str = "yomitest";

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether `program` is found on `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    listener.local_addr().expect("local address").port()
}

/// A single-node Slurm of its own; shut down when dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
}

impl Cluster {
    /// Starts slurmctld and slurmd on a configuration in `dir`, and waits for
    /// the node to be idle; what went wrong otherwise.
    fn start(dir: &Path) -> Result<Cluster, String> {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map_err(|e| format!("the host name: {e}"))?;
        let host = host.trim().split('.').next().unwrap_or("localhost");
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        // No munge: authentication and credentials off, on a private cluster
        // of one node; no cgroups, which a container may not give.
        let text = format!(
            "ClusterName=yomitest\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={}\n\
             SlurmdPort={}\n\
             AuthType=auth/none\n\
             CredType=cred/none\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\n\
             SlurmdLogFile={d}/slurmd.log\n\
             MailProg=/bin/true\n\
             ProctrackType=proctrack/pgid\n\
             TaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             MpiDefault=none\n\
             ReturnToService=2\n\
             NodeName={NODE} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
             PartitionName=test Nodes={NODE} Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port()
        );
        std::fs::write(&conf, text).map_err(|e| e.to_string())?;
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            conf,
            daemons: Vec::new(),
        };
        for (daemon, extra) in [("slurmctld", &["-i"][..]), ("slurmd", &["-N", NODE][..])] {
            let child = Command::new(daemon)
                .args(["-D", "-f"])
                .arg(&cluster.conf)
                .args(extra)
                .env("SLURM_CONF", &cluster.conf)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("cannot start {daemon}: {e}"))?;
            cluster.daemons.push(child);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let state = cluster.command("sinfo").args(["-h", "-o", "%t"]).output();
            if state.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "idle") {
                return Ok(cluster);
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        Err(format!(
            "the node did not come up in 60 s; slurmctld.log ends:\n{}",
            cluster.log_tail("slurmctld.log")
        ))
    }

    /// A Slurm command for this cluster.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    fn log_tail(&self, name: &str) -> String {
        let text = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(10)..].join("\n")
    }

    /// `sbatch --wait` (the array's tasks all ended) in the cluster's
    /// directory; fails with the logs if a task failed.
    fn run_array(&self, array: &str, script: &Path) {
        let out = self
            .command("sbatch")
            .args(["--wait", "--array", array, "--chdir"])
            .arg(&self.dir)
            .arg("--output")
            .arg(self.dir.join("task-%a.out"))
            .arg(script)
            .output()
            .expect("run sbatch");
        let tasks: String = (0..4)
            .map(|i| {
                let log = std::fs::read_to_string(self.dir.join(format!("task-{i}.out")));
                format!("task {i}: {}\n", log.unwrap_or_default())
            })
            .collect();
        assert!(
            out.status.success(),
            "sbatch --array={array}: {}\n{tasks}\nslurmd.log:\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.log_tail("slurmd.log")
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.command("scontrol").arg("shutdown").output();
        let deadline = Instant::now() + Duration::from_secs(20);
        for daemon in &mut self.daemons {
            while Instant::now() < deadline && matches!(daemon.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = daemon.kill();
            let _ = daemon.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Slurm's programs, installed under CI; why the test cannot run otherwise.
fn slurm_ready() -> Result<(), String> {
    let programs = ["slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"];
    if programs.iter().all(|p| on_path(p)) {
        return Ok(());
    }
    if !on_ci() {
        return Err("Slurm is not installed (slurmctld, slurmd, slurm-client)".into());
    }
    let installer = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/apt-install.sh");
    let out = Command::new(installer)
        .args(["slurmctld", "slurmd", "slurm-client"])
        .output()
        .map_err(|e| format!("{installer}: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(())
}

/// `Score of …` of a merge of `files`.
fn merged_score(files: &[PathBuf]) -> String {
    let out = Command::new(MATCH)
        .arg("merge")
        .args(files)
        .output()
        .expect("run match merge");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "merge: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find(|l| l.starts_with("Score of"))
        .unwrap_or_else(|| panic!("no score in {stdout}"))
        .to_string()
}

fn game_lines(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).expect("a shard file");
    text.lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .count()
}

#[test]
fn an_array_job_plays_the_shards_and_a_rerun_task_carries_its_file_on() {
    let root = is_root();
    let cluster = slurm_ready().and_then(|()| {
        if !root {
            return Err("the daemons of a private cluster need root".into());
        }
        let dir = std::env::temp_dir().join(format!("yomi-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Cluster::start(&dir)
    });
    let cluster = match cluster {
        Ok(cluster) => cluster,
        Err(why) if !on_ci() => {
            eprintln!("skipped: {why} (under CI=true this test installs Slurm and must run)");
            return;
        }
        Err(why) => panic!("CI=true: the Slurm test must run: {why}"),
    };
    // The engine: the yomi binary beside match, or test_engine standing in.
    let yomi = Path::new(MATCH).with_file_name("yomi");
    let engine = if yomi.is_file() {
        format!("cmd={}", yomi.display())
    } else {
        format!("cmd={TEST_ENGINE} arg=ok")
    };
    let script = cluster.dir.join("match.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             exec {MATCH} --game hasami --games 8 --nodes 300 --seed 5 --quiet \\\n\
             --engine name=full {engine} option.Threads=1 \\\n\
             --engine name=skill10 {engine} option.Threads=1 option.Skill=10 \\\n\
             --shard $SLURM_ARRAY_TASK_ID/4 --out shard$SLURM_ARRAY_TASK_ID.jsonl\n"
        ),
    )
    .expect("write the job script");
    cluster.run_array("0-3", &script);
    let shards: Vec<PathBuf> = (0..4)
        .map(|i| cluster.dir.join(format!("shard{i}.jsonl")))
        .collect();
    for shard in &shards {
        assert_eq!(game_lines(shard), 2, "{}", shard.display());
    }
    let whole = merged_score(&shards);
    assert!(whole.ends_with("8 games (W - L - D)"), "{whole}");

    // Task 2 killed after its header: run again, it carries its file on.
    let text = std::fs::read_to_string(&shards[2]).unwrap();
    std::fs::write(&shards[2], text.lines().next().unwrap().to_string() + "\n").unwrap();
    cluster.run_array("2", &script);
    assert_eq!(game_lines(&shards[2]), 2);
    assert_eq!(merged_score(&shards), whole);
    drop(cluster);
}

/// Whether this process runs as root.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}
