//! The protocol fuzzer: `fuzz --seed S --lines N | --seconds T [--engine PATH]`.
//! Exits 0 when every promise held, 1 with a reproduction when one broke.

use clap::Parser;
use std::path::PathBuf;
use yomi_tools::fuzz::{self, FuzzConfig};

#[derive(Parser)]
#[command(about = "Drives the yomi binary with valid and mutated protocol lines in every game")]
struct Args {
    /// The seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many lines sent.
    #[arg(long)]
    lines: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// The engine binary (default: `yomi` next to this binary, else target/release/yomi).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// The resident memory the engine may reach, MiB.
    #[arg(long, default_value_t = 2048)]
    max_rss_mib: u64,
    /// Steps in one engine process before a fresh one is started.
    #[arg(long, default_value_t = 300)]
    steps_per_session: usize,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Where a failure's lines are written as sent (raw bytes, one per line).
    #[arg(long, default_value = "fuzz-failure.txt")]
    failure_file: PathBuf,
}

fn default_engine() -> PathBuf {
    let beside = std::env::current_exe().ok().and_then(|exe| {
        Some(
            exe.parent()?
                .join(format!("yomi{}", std::env::consts::EXE_SUFFIX)),
        )
    });
    match beside {
        Some(path) if path.is_file() => path,
        _ => PathBuf::from("target/release/yomi"),
    }
}

fn main() {
    let args = Args::parse();
    let (lines, seconds) = match (args.lines, args.seconds) {
        (None, None) => (Some(10_000), None),
        limits => limits,
    };
    let config = FuzzConfig {
        seed: args.seed,
        max_lines: lines,
        max_seconds: seconds,
        engine: args.engine.unwrap_or_else(default_engine),
        max_rss_mib: args.max_rss_mib,
        steps_per_session: args.steps_per_session,
        progress: !args.quiet,
    };
    match fuzz::run(&config) {
        Ok(report) => println!(
            "fuzz: ok, seed {} lines {} sessions {} searches {} refused {} rss peak {} MiB last {} MiB",
            config.seed,
            report.lines_sent,
            report.sessions,
            report.searches,
            report.refused,
            report.peak_rss_kib / 1024,
            report.last_rss_kib / 1024
        ),
        Err(failure) => {
            eprint!("{failure}");
            let mut raw = Vec::new();
            for line in &failure.sent {
                raw.extend_from_slice(line);
                raw.push(b'\n');
            }
            match std::fs::write(&args.failure_file, raw) {
                Ok(()) => eprintln!(
                    "fuzz: the lines as sent are in {}; replay: {} < {}",
                    args.failure_file.display(),
                    config.engine.display(),
                    args.failure_file.display()
                ),
                Err(e) => eprintln!("fuzz: cannot write {}: {e}", args.failure_file.display()),
            }
            std::process::exit(1);
        }
    }
}
