//! The match runner: engines as commands speaking the protocol, games refereed
//! by the engine library's rules, results as JSON lines, Elo and SPRT.
//! See docs/match.md.
//!
//! ```text
//! match --game hasami --games 100 --nodes 20000 --concurrency 2 \
//!     --engine name=new cmd=./target/release/yomi option.Threads=1 \
//!     --engine name=old cmd=./yomi-old option.Threads=1 \
//!     --out results.jsonl --sprt elo0=0 elo1=5
//! match --game yonin --games 8 --depth 3 --each option.Threads=1 \
//!     --engine name=paranoid cmd=./target/release/yomi option.SearchAlgorithm=paranoid \
//!     --engine name=maxn cmd=./target/release/yomi option.SearchAlgorithm=maxn \
//!     --engine name=brs cmd=./target/release/yomi option.SearchAlgorithm=brs \
//!     --engine name=brsplus cmd=./target/release/yomi option.SearchAlgorithm=brsplus
//! match --game sugoroku --games 100 --nodes 5000 --engine … --engine …
//! match merge shard0.jsonl shard1.jsonl --out all.jsonl
//! match ladder --game hasami --games 200 --nodes 2000 --out ladder.jsonl \
//!     --level name=random cmd=./target/release/baseline arg=random \
//!     --level name=greedy cmd=./target/release/baseline arg=greedy \
//!     --level name=skill0 cmd=./target/release/yomi option.Threads=1 option.Skill=0
//! match tune --game hasami --iterations 200 --games 2 --nodes 2000 --out tune.jsonl \
//!     --engine cmd=./target/release/yomi option.Threads=1 \
//!     --param Tune_HasamiMobility=2,0,50,1 --param Tune_HasamiNearWin=12,0,200,4
//! ```

use clap::{ArgGroup, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use yomi_tools::results::{merge_files, MergeAllow};
use yomi_tools::runner::config::{
    parse_clock, parse_ms, parse_shard, MatchConfig, OpeningSource, TimeControl,
};
use yomi_tools::runner::engine::EngineSpec;
use yomi_tools::runner::ladder::{self, LadderConfig};
use yomi_tools::runner::{merged_outcome, run, RunOptions};
use yomi_tools::stats::Sprt;
use yomi_tools::tune::spsa::{self, Param, Schedule, TuneConfig};

#[derive(Parser)]
#[command(
    name = "match",
    about = "Plays engines (commands speaking the Yomi protocol) against each other",
    args_conflicts_with_subcommands = true,
    args_override_self = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Combines the results files of shards (or runs) of one match or ladder.
    Merge(MergeArgs),
    /// Calibrates strength levels: matches between neighbouring levels, one
    /// Elo per level by maximum likelihood (the first level at 0).
    Ladder(Box<LadderArgs>),
    /// Tunes engine parameters by SPSA: the engine against itself, its
    /// parameters perturbed both ways, moved towards the side that scores.
    Tune(Box<TuneArgs>),
}

#[derive(Args)]
struct TuneArgs {
    /// The engine tuned, given like a match's: name=NAME cmd=PATH [arg=ARG]…
    /// [dir=DIR] [option.NAME=VALUE]… (once: it plays itself).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// A parameter, an integer option of the engine (repeatable).
    #[arg(long, value_name = "NAME=START,MIN,MAX,STEP")]
    param: Vec<String>,
    /// A file of parameters, one NAME=START,MIN,MAX,STEP a line (# comments).
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Iterations in all (a resume plays those missing).
    #[arg(long, default_value_t = 100)]
    iterations: u64,
    /// a of a_k = a / (A + k + 1)^alpha, in steps of each parameter.
    #[arg(long = "a", default_value_t = spsa::DEFAULT_A, allow_negative_numbers = true)]
    a: f64,
    /// c of c_k = c / (k + 1)^gamma, the perturbation in steps.
    #[arg(long = "c", default_value_t = spsa::DEFAULT_C, allow_negative_numbers = true)]
    c: f64,
    /// A of a_k (default: a tenth of --iterations).
    #[arg(long = "A", allow_negative_numbers = true)]
    big_a: Option<f64>,
    /// alpha of a_k.
    #[arg(long, default_value_t = spsa::DEFAULT_ALPHA, allow_negative_numbers = true)]
    alpha: f64,
    /// gamma of c_k.
    #[arg(long, default_value_t = spsa::DEFAULT_GAMMA, allow_negative_numbers = true)]
    gamma: f64,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
struct LadderArgs {
    /// A level, given like an engine: name=NAME cmd=PATH [arg=ARG]… [dir=DIR]
    /// [option.NAME=VALUE]… (two or more, in order; the first is the anchor,
    /// Elo 0).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    level: Vec<String>,
    /// Also play every two levels two apart (not only neighbours).
    #[arg(long)]
    two_apart: bool,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
struct MergeArgs {
    /// Results files (JSON lines) written by `--out`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged results (games in id order) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Report the SPRT state: elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Merge even when shards are missing or unfinished (named in a warning).
    #[arg(long)]
    partial: bool,
    /// Merge shards whose configurations differ (but for the game and the
    /// engine names; the differences named in a warning).
    #[arg(long)]
    mixed: bool,
}

#[derive(Args)]
struct RunArgs {
    /// An engine: name=NAME cmd=PATH [arg=ARG]… [dir=DIR] [option.NAME=VALUE]…
    /// (twice: the first engine is the one scored; yonin: four, one per seat
    /// rotated, or two, partners opposite).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Stop early by the SPRT: elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    #[command(flatten)]
    common: CommonArgs,
}

/// What a match and a ladder share.
#[derive(Args)]
#[command(group(ArgGroup::new("tc").args(["nodes", "depth", "movetime", "clock", "byoyomi"]).multiple(true)))]
struct CommonArgs {
    /// The game: hasami, annan, yonin (four seats) or sugoroku (dice).
    #[arg(long, default_value = yomi_engine::registry::NAMES[0])]
    game: String,
    /// Keys given to every engine (before its own), e.g. option.Threads=1.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// A house rule NAME=VALUE, set on the referee and sent to every engine.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// Games in all (a ladder: per pair of levels; tune: per iteration),
    /// rounded up to whole pairings: each opening from both sides.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Seed of the random openings (and everything else random).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random legal plies from the seed at the start of every opening
    /// (default 4 without --openings, 0 with; always 0 for sugoroku, whose
    /// games differ by their dice).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// A file of positions, one per line: SFEN [moves …] or startpos [moves …].
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Fixed nodes per move: go nodes N.
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed depth per move: go depth D.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed time per move: go movetime MS.
    #[arg(long, value_parser = parse_ms)]
    movetime: Option<u64>,
    /// A clock MAIN[+INC] kept by the runner (e.g. 60s+1s): go btime wtime binc winc.
    #[arg(long, value_name = "MAIN[+INC]", value_parser = parse_clock)]
    clock: Option<(u64, u64)>,
    /// Byoyomi per move (alone: the site's per-turn limit, go byoyomi MS; with
    /// --clock MAIN: after the main time).
    #[arg(long, value_parser = parse_ms)]
    byoyomi: Option<u64>,
    /// Plies (opening included) after which the runner adjudicates a draw; 0: never.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Lateness tolerated on top of the allowed time before a move loses on time.
    #[arg(long, value_parser = parse_ms, default_value = "200", value_name = "MS")]
    timeout_margin: u64,
    /// Longest wait for usiok / readyok.
    #[arg(long, value_parser = parse_ms, default_value = "10000", value_name = "MS")]
    handshake_timeout: u64,
    /// Longest wait for a bestmove under --nodes / --depth before the engine is
    /// declared hung.
    #[arg(long, value_parser = parse_ms, default_value = "60000", value_name = "MS")]
    hang_timeout: u64,
    /// Games played at once (each worker thread owns its engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Run shard I of N, counted from 0 (0/4 … 3/4, as Slurm's --array=0-3):
    /// the pairings p with p mod N = I.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Results as JSON lines (a header line, then one line per game; tune:
    /// per iteration). A file of the same run is carried on (a rerun shard
    /// resumes); one of another run is refused.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the run recorded in FILE (same settings), appending to it
    /// (what --out FILE does by itself when FILE holds this run).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "force"])]
    resume: Option<PathBuf>,
    /// Overwrite an existing --out file (by default one of the same run is
    /// carried on, and any other refused).
    #[arg(long)]
    force: bool,
    /// Readable game records (appended).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

/// The engines (or levels: `what`) of the command line, `--each` keys
/// first; paths checked, names unique.
fn engine_specs(
    args: &CommonArgs,
    engine_words: &[Vec<String>],
    what: &str,
) -> Result<Vec<EngineSpec>, String> {
    let engines = engine_words
        .iter()
        .map(|words| {
            let all: Vec<String> = args.each.iter().chain(words).cloned().collect();
            EngineSpec::parse(&all)
        })
        .collect::<Result<Vec<_>, _>>()?;
    for engine in &engines {
        let path = std::path::Path::new(&engine.cmd);
        let relative_to = engine.dir.as_deref().unwrap_or(std::path::Path::new("."));
        let resolved = if path.is_absolute() {
            path.to_path_buf()
        } else {
            relative_to.join(path)
        };
        if path.components().count() > 1 && !resolved.exists() {
            return Err(format!(
                "{what} {}: no such program '{}'",
                engine.name, engine.cmd
            ));
        }
    }
    for (i, engine) in engines.iter().enumerate() {
        if engines[..i].iter().any(|other| other.name == engine.name) {
            return Err(format!(
                "two {what}s are named '{}': give them name=…",
                engine.name
            ));
        }
    }
    Ok(engines)
}

fn config(args: &CommonArgs, engines: Vec<EngineSpec>, sprt: bool) -> Result<MatchConfig, String> {
    let game = yomi_engine::registry::find(&args.game)?;
    let seats = game.seats;
    yomi_tools::runner::schedule::check_engine_count(game.name(), seats, engines.len())?;
    if sprt && seats != 2 {
        return Err(format!(
            "--sprt is for two-player games; {} reports a standings table and \
             engine 0's Elo against the field instead",
            game.name()
        ));
    }
    let dice = game.profile.has_chance;
    if dice && args.opening_plies.is_some_and(|n| n > 0) {
        return Err(
            "sugoroku: --opening-plies must be 0 (random plies would need dice; \
             the duplicate dice already vary the games; --openings may hold positions)"
                .into(),
        );
    }
    let tc = match (
        args.nodes,
        args.depth,
        args.movetime,
        args.clock,
        args.byoyomi,
    ) {
        (Some(n), None, None, None, None) => TimeControl::Nodes(n),
        (None, Some(d), None, None, None) => TimeControl::Depth(d),
        (None, None, Some(ms), None, None) => TimeControl::MoveTime(ms),
        (None, None, None, clock, byoyomi) if clock.is_some() || byoyomi.is_some() => {
            let (main_ms, inc_ms) = clock.unwrap_or((0, 0));
            let byoyomi_ms = byoyomi.unwrap_or(0);
            if inc_ms > 0 && byoyomi_ms > 0 {
                return Err("--clock with an increment and --byoyomi cannot be combined".into());
            }
            if main_ms + inc_ms + byoyomi_ms == 0 {
                return Err("the clock gives no time at all".into());
            }
            TimeControl::Clock {
                main_ms,
                inc_ms,
                byoyomi_ms,
            }
        }
        (None, None, None, None, None) => {
            return Err(
                "give a time control: --nodes, --depth, --movetime, --byoyomi or --clock".into(),
            )
        }
        _ => return Err("give one time control (only --clock and --byoyomi combine)".into()),
    };
    let rules = args
        .rules
        .iter()
        .map(|r| {
            r.split_once('=')
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .ok_or_else(|| format!("--rule '{r}': expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let random_plies = args
        .opening_plies
        .unwrap_or(if args.openings.is_some() || dice {
            0
        } else {
            4
        });
    let config = MatchConfig {
        game,
        rules,
        engines,
        tc,
        games: args.games.max(1),
        seed: args.seed,
        openings: OpeningSource {
            file: args.openings.clone(),
            random_plies,
        },
        max_plies: args.max_plies,
        timeout_margin: Duration::from_millis(args.timeout_margin),
        handshake_timeout: Duration::from_millis(args.handshake_timeout),
        hang_timeout: Duration::from_millis(args.hang_timeout),
        shard: match &args.shard {
            Some(text) => parse_shard(text).map_err(|e| format!("--shard: {e}"))?,
            None => (0, 1),
        },
    };
    // The rules must exist in the referee.
    yomi_tools::runner::schedule::referee(&config)?;
    Ok(config)
}

fn sprt(words: &Option<Vec<String>>) -> Result<Option<Sprt>, String> {
    words.as_ref().map(|w| Sprt::parse(w)).transpose()
}

/// How a run is carried out, from the command line.
fn run_options(args: &CommonArgs, sprt: Option<Sprt>) -> RunOptions {
    RunOptions {
        out: args.resume.clone().or_else(|| args.out.clone()),
        resume: args.resume.is_some(),
        force: args.force,
        record: args.record.clone(),
        concurrency: args.concurrency.max(1),
        sprt,
        quiet: args.quiet,
    }
}

/// The values of each occurrence of `id` (`--engine`, `--level`), kept together.
fn occurrences(matches: &clap::ArgMatches, id: &str) -> Vec<Vec<String>> {
    matches
        .get_occurrences::<String>(id)
        .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default()
}

/// The tuning run of the command line.
fn tune_config(args: &TuneArgs, matches: &clap::ArgMatches) -> Result<TuneConfig, String> {
    let words = occurrences(matches, "engine");
    if words.len() != 1 {
        return Err(format!(
            "tune takes one --engine (the engine tuned, which plays itself); got {}",
            words.len()
        ));
    }
    let engine = &engine_specs(&args.common, &words, "engine")?[0];
    if args.common.shard.is_some() {
        return Err("--shard is not for tune: every iteration starts from the one before".into());
    }
    let mut params = Vec::new();
    if let Some(path) = &args.params {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--params {}: {e}", path.display()))?;
        params = spsa::parse_params_file(&text, &path.display().to_string())?;
    }
    for text in &args.param {
        params.push(Param::parse(text)?);
    }
    let schedule = Schedule::new(
        args.a,
        args.c,
        args.big_a,
        args.alpha,
        args.gamma,
        args.iterations,
    )?;
    let base = config(&args.common, vec![engine.clone(), engine.clone()], false)?;
    TuneConfig::new(base, params, schedule, args.iterations)
}

fn main_result() -> Result<(), String> {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.to_string())?;
    match &cli.command {
        Some(Command::Merge(args)) => {
            let allow = MergeAllow {
                partial: args.partial,
                mixed: args.mixed,
            };
            let merged = merge_files(&args.files, args.out.as_deref(), allow)?;
            if merged.kind == "ladder" {
                if args.sprt.is_some() {
                    return Err("--sprt is for matches, not ladders".into());
                }
                print!("{}", ladder::merged_table(&merged)?);
            } else {
                let outcome = merged_outcome(merged, sprt(&args.sprt)?.as_ref())?;
                print!("{}", outcome.summary);
            }
            Ok(())
        }
        Some(Command::Ladder(args)) => {
            let sub = matches
                .subcommand_matches("ladder")
                .expect("the ladder's own matches");
            let levels = engine_specs(&args.common, &occurrences(sub, "level"), "level")?;
            ladder::check_levels(&levels)?;
            let base = config(&args.common, levels[..2].to_vec(), false)?;
            let ladder = LadderConfig::new(base, levels, args.two_apart)?;
            let outcome = ladder::run(&ladder, &run_options(&args.common, None))?;
            print!("{}", outcome.table);
            Ok(())
        }
        Some(Command::Tune(args)) => {
            let sub = matches
                .subcommand_matches("tune")
                .expect("the tuner's own matches");
            let outcome = spsa::run(&tune_config(args, sub)?, &run_options(&args.common, None))?;
            print!("{}", outcome.summary);
            Ok(())
        }
        None => {
            let args = &cli.run;
            let engines = engine_specs(&args.common, &occurrences(&matches, "engine"), "engine")?;
            let config = config(&args.common, engines, args.sprt.is_some())?;
            let outcome = run(&config, &run_options(&args.common, sprt(&args.sprt)?))?;
            print!("{}", outcome.summary);
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match main_result() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("match: {e}");
            ExitCode::from(2)
        }
    }
}
