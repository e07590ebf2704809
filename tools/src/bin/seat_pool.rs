//! Serves many games' moves from a few engine processes: one move request a
//! line on stdin, one answer a line on stdout (`id=R bestmove M` or
//! `id=R error …`). The format and how to run it: docs/cpu-seats.md, "Serving
//! many seats from few processes".

use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;
use yomi_tools::pool::{run, PoolConfig};
use yomi_tools::runner::engine::EngineSpec;

/// The settings every request starts from unless `--option` says otherwise.
const RECOMMENDED: [(&str, &str); 2] = [("USI_Hash", "16"), ("Threads", "1")];

#[derive(Parser)]
#[command(about = "Serves move requests (one a line on stdin) from a pool of engine processes")]
struct Args {
    /// The engine binary (default: `yomi` next to this program).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// How many engine processes.
    #[arg(long, default_value_t = 2)]
    processes: usize,
    /// NAME=VALUE set in every process for every request that does not set it
    /// (repeatable; USI_Hash=16 and Threads=1 unless given).
    #[arg(long = "option")]
    options: Vec<String>,
    /// Seconds a `go` may take before its process is replaced and the
    /// request tried on another.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// Logs on stderr which process serves each request.
    #[arg(long)]
    verbose: bool,
}

fn main() {
    let args = Args::parse();
    let cmd = args.engine.unwrap_or_else(|| {
        let me = std::env::current_exe().expect("this program's path");
        me.with_file_name(format!("yomi{}", std::env::consts::EXE_SUFFIX))
    });
    let mut options = Vec::new();
    for option in &args.options {
        let Some((name, value)) = option.split_once('=') else {
            eprintln!("seat_pool: --option '{option}': expected NAME=VALUE");
            std::process::exit(2);
        };
        options.push((name.to_string(), value.to_string()));
    }
    for (name, value) in RECOMMENDED {
        if !options
            .iter()
            .any(|(set, _)| set.eq_ignore_ascii_case(name))
        {
            options.insert(0, (name.to_string(), value.to_string()));
        }
    }
    let config = PoolConfig {
        engine: EngineSpec {
            name: "yomi".into(),
            cmd: cmd.to_string_lossy().into_owned(),
            args: Vec::new(),
            dir: None,
            options,
        },
        processes: args.processes.max(1),
        timeout: Duration::from_secs(args.timeout),
        handshake: Duration::from_secs(30),
        verbose: args.verbose,
    };
    let stdin = std::io::stdin();
    run(&config, stdin.lock(), Box::new(std::io::stdout()));
}
