//! The examples in the docs, run against the real binaries, so that they cannot
//! go stale.
//!
//! In README.md and docs/*.md, an indented block is an example when its lines
//! begin with `> ` and `< ` (a protocol session: what is sent, what comes back)
//! or with `$ ` (a command line, its output below it). Each session runs in a
//! fresh engine (a blank line inside a block starts another); each command line in a scratch directory where `yomi`,
//! `match`, `baseline` and the same under `target/release/` are the binaries
//! under test. The output must match the example line for line, except that:
//!
//! - a line `…` (`< …` in a session) stands for any number of lines;
//! - `…` inside a line stands for any text;
//! - the numbers after `time` and `nps` are not compared (they vary from run
//!   to run).
//!
//! When an example no longer matches, the failure prints what the binary said,
//! in the example's own form, ready to be pasted into the doc.

mod common;

use common::BIN;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const ELLIPSIS: &str = "…";
/// How long a session waits for an answer before it reports the example as hung.
const ANSWER: Duration = Duration::from_secs(60);
/// How long `go infinite` and `go ponder` run before the next line is sent.
const THINK: Duration = Duration::from_millis(200);

#[derive(Debug, PartialEq)]
enum Kind {
    Session,
    Shell,
}

struct Example {
    file: String,
    line: usize,
    kind: Kind,
    lines: Vec<String>,
}

/// The examples of one Markdown file: its indented blocks that begin with
/// `> `, `< ` or `$ `.
fn examples(file: &str) -> Vec<Example> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut found = Vec::new();
    let mut block: Vec<(usize, String)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (at, line) in lines.iter().chain(std::iter::once(&"")).enumerate() {
        if let Some(inner) = line.strip_prefix("    ") {
            block.push((at + 1, inner.to_string()));
            continue;
        }
        if line.trim().is_empty() && !block.is_empty() && at + 1 < lines.len() {
            // A blank line inside an indented block keeps it open when more follows.
            if lines[at + 1].starts_with("    ") {
                block.push((at + 1, String::new()));
                continue;
            }
        }
        if let Some((first, head)) = block.first().cloned() {
            let kind = if head.starts_with("> ") || head.starts_with("< ") {
                Some(Kind::Session)
            } else if head.starts_with("$ ") {
                Some(Kind::Shell)
            } else {
                None
            };
            match kind {
                // A blank line inside a session block starts another session.
                Some(Kind::Session) => {
                    for part in block.split(|(_, l)| l.is_empty()).filter(|p| !p.is_empty()) {
                        found.push(Example {
                            file: file.to_string(),
                            line: part[0].0,
                            kind: Kind::Session,
                            lines: part.iter().map(|(_, l)| l.clone()).collect(),
                        });
                    }
                }
                Some(Kind::Shell) => found.push(Example {
                    file: file.to_string(),
                    line: first,
                    kind: Kind::Shell,
                    lines: block.iter().map(|(_, l)| l.clone()).collect(),
                }),
                None => {}
            }
        }
        block.clear();
    }
    found
}

/// A line with the numbers after `time` and `nps` blanked.
fn steady(line: &str) -> String {
    let mut out = Vec::new();
    let mut blank_next = false;
    for word in line.split(' ') {
        if blank_next && word.chars().all(|c| c.is_ascii_digit()) && !word.is_empty() {
            out.push("#");
        } else {
            out.push(word);
        }
        blank_next = matches!(word, "time" | "nps");
    }
    out.join(" ")
}

/// Whether `actual` matches `expected`, where `…` in `expected` is any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let (expected, actual) = (steady(expected), steady(actual));
    let parts: Vec<&str> = expected.split(ELLIPSIS).collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    if !actual.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the `actual` lines match the `expected` ones, where a line `…` is
/// any number of lines.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    // memo[i][j]: whether expected[i..] matches actual[j..].
    let mut memo = vec![vec![None; actual.len() + 1]; expected.len() + 1];
    fn go(
        e: &[String],
        a: &[String],
        i: usize,
        j: usize,
        memo: &mut Vec<Vec<Option<bool>>>,
    ) -> bool {
        if let Some(known) = memo[i][j] {
            return known;
        }
        let result = if i == e.len() {
            j == a.len()
        } else if matches!(e[i].trim(), ELLIPSIS | "< …") {
            go(e, a, i + 1, j, memo) || (j < a.len() && go(e, a, i, j + 1, memo))
        } else {
            j < a.len() && line_matches(&e[i], &a[j]) && go(e, a, i + 1, j + 1, memo)
        };
        memo[i][j] = Some(result);
        result
    }
    go(expected, actual, 0, 0, &mut memo)
}

/// What ends the engine's answer to `command`.
fn answer_ends(command: &str) -> Option<fn(&str) -> bool> {
    let words: Vec<&str> = command.split_whitespace().collect();
    Some(match words.as_slice() {
        ["usi"] => |l| l == "usiok",
        ["isready"] => |l| l == "readyok",
        ["go", "perft", ..] => |l| l.starts_with("perft depth"),
        ["go", "mate", ..] => |l| l.starts_with("checkmate"),
        ["bench", ..] => |l| l.starts_with("bench total"),
        ["review", ..] => |l| l.starts_with("review end") || l.starts_with("info string error"),
        ["go", rest @ ..] if rest.contains(&"infinite") || rest.contains(&"ponder") => return None,
        ["go", ..] | ["stop"] | ["ponderhit", ..] => |l| l.starts_with("bestmove"),
        _ => |l| l == "readyok",
    })
}

/// Runs a session example; returns its transcript (`> ` sent, `< ` read).
fn run_session(example: &Example) -> Vec<String> {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start yomi");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut transcript = Vec::new();
    // A search held for `stop` / `ponderhit`: its answer comes later.
    let mut held = false;
    for line in &example.lines {
        let Some(command) = line.strip_prefix("> ") else {
            assert!(
                line.starts_with("< ") || line.trim() == ELLIPSIS,
                "{}:{}: a session example has only '> ' and '< ' lines: {line:?}",
                example.file,
                example.line
            );
            continue;
        };
        transcript.push(format!("> {command}"));
        writeln!(stdin, "{command}").expect("write to yomi");
        if command == "quit" {
            break;
        }
        let ends = answer_ends(command);
        let sync = ends.is_some_and(|e| e("readyok")) && command != "isready";
        if ends.is_none() {
            held = true;
        }
        if sync && held {
            // Waiting for readyok would mix the search's lines in: let it think.
            std::thread::sleep(THINK);
            while let Ok(line) = rx.try_recv() {
                transcript.push(format!("< {line}"));
            }
            continue;
        }
        if sync {
            writeln!(stdin, "isready").expect("write to yomi");
        }
        let Some(ends) = ends else {
            std::thread::sleep(THINK);
            while let Ok(line) = rx.try_recv() {
                transcript.push(format!("< {line}"));
            }
            continue;
        };
        if matches!(
            command.split_whitespace().next(),
            Some("stop" | "ponderhit")
        ) {
            held = false;
        }
        loop {
            let line = rx.recv_timeout(ANSWER).unwrap_or_else(|_| {
                panic!(
                    "{}:{}: no answer to '{command}'; transcript so far:\n{}",
                    example.file,
                    example.line,
                    transcript.join("\n")
                )
            });
            let end = ends(&line);
            if !(sync && line == "readyok") {
                transcript.push(format!("< {line}"));
            }
            if end {
                break;
            }
        }
    }
    drop(stdin);
    let _ = child.wait();
    while let Ok(line) = rx.recv_timeout(Duration::from_millis(500)) {
        transcript.push(format!("< {line}"));
    }
    transcript
}

/// A scratch directory where the docs' command names reach the binaries under test.
fn shell_dir(file: &str) -> PathBuf {
    let bin = Path::new(BIN);
    let tool = |name: &str| {
        let path = bin.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        assert!(
            path.is_file(),
            "{} is not built: run the docs test through `cargo test --workspace`",
            path.display()
        );
        path
    };
    let (runner, baseline) = (tool("match"), tool("baseline"));
    let dir = std::env::temp_dir().join(format!(
        "yomi-docs-{}-{}",
        std::process::id(),
        file.replace('/', "-")
    ));
    let release = dir.join("target/release");
    std::fs::create_dir_all(&release).expect("scratch directory");
    for (name, target) in [
        ("yomi", bin.to_path_buf()),
        ("match", runner),
        ("baseline", baseline),
    ] {
        let link = release.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).expect("link a binary");
    }
    dir
}

/// Runs a command-line example; returns its transcript (`$ ` commands and
/// their output, standard error included).
fn run_shell(example: &Example, dir: &Path) -> Vec<String> {
    let mut transcript = Vec::new();
    let mut lines = example.lines.iter().peekable();
    while let Some(line) = lines.next() {
        let Some(first) = line.strip_prefix("$ ") else {
            continue;
        };
        let mut command = first.to_string();
        transcript.push(line.clone());
        while command.ends_with('\\') {
            let next = lines.next().expect("a continued command goes on");
            transcript.push(next.clone());
            command.pop();
            command.push_str(next.trim_start());
        }
        while lines.peek().is_some_and(|l| !l.starts_with("$ ")) {
            lines.next();
        }
        let path = format!(
            "{}:{}",
            dir.join("target/release").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut child = Command::new("sh")
            .args(["-c", &format!("{command} 2>&1")])
            .current_dir(dir)
            .env("PATH", path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run sh");
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .expect("read output");
        let _ = child.wait();
        transcript.extend(out.lines().map(str::to_string));
    }
    transcript
}

fn check(file: &str) {
    let found = examples(file);
    assert!(!found.is_empty(), "{file} has no checked example");
    let dir = found
        .iter()
        .any(|e| e.kind == Kind::Shell)
        .then(|| shell_dir(file));
    let mut failures = Vec::new();
    for example in &found {
        let transcript = match example.kind {
            Kind::Session => run_session(example),
            Kind::Shell => run_shell(example, dir.as_deref().expect("made above")),
        };
        if !lines_match(&example.lines, &transcript) {
            failures.push(format!(
                "{}:{}: the example no longer matches; the binary said:\n{}\n",
                example.file,
                example.line,
                transcript
                    .iter()
                    .map(|l| format!("    {l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    if let Some(dir) = dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readme_examples_match_the_binary() {
    check("README.md");
}

#[test]
fn protocol_examples_match_the_binary() {
    check("docs/protocol.md");
}

#[test]
fn review_examples_match_the_binary() {
    check("docs/review.md");
}

#[test]
fn match_runner_examples_match_the_binary() {
    check("docs/match.md");
}

#[test]
fn cpu_seat_examples_match_the_binary() {
    check("docs/cpu-seats.md");
}

#[test]
fn the_matcher_compares_what_it_must() {
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(line_matches(
        "info depth 1 … pv 9h9b",
        "info depth 1 seldepth 1 nodes 5 pv 9h9b"
    ));
    assert!(!line_matches(
        "info depth 1 … pv 9h9b",
        "info depth 2 seldepth 1 pv 9h9b"
    ));
    assert!(!line_matches(
        "info depth 1 … pv 9h9b",
        "info depth 1 pv 9h9c"
    ));
    assert!(line_matches(
        "perft depth 2 nodes 3717 time 1 nps 3717000",
        "perft depth 2 nodes 3717 time 5 nps 743400"
    ));
    assert!(!line_matches(
        "perft depth 2 nodes 3717 time 1",
        "perft depth 2 nodes 3718 time 1"
    ));
    assert!(line_matches("bestmove …", "bestmove 9i9b"));
    assert!(lines_match(&lines("a\n…\nd"), &lines("a\nb\nc\nd")));
    assert!(lines_match(&lines("a\n…\nd"), &lines("a\nd")));
    assert!(lines_match(
        &lines("> go\n< …\n< bestmove …"),
        &lines("> go\n< info x\n< bestmove 1a1b")
    ));
    assert!(!lines_match(&lines("a\n…\nd"), &lines("a\nb\nc")));
    assert!(!lines_match(&lines("a\nb"), &lines("a\nb\nc")));
    // Both files' own sessions are found, and only indented blocks count.
    let readme = examples("README.md");
    assert!(readme.iter().any(|e| e.kind == Kind::Session));
}

/// The Markdown files of the repository's docs.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files
}

/// The anchors a Markdown file's headings get, as GitHub makes them: lower
/// case, punctuation dropped, spaces to hyphens, a repeat numbered.
fn anchors(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("a doc");
    let mut found: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let slug: String = heading
            .trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let numbered = (0..)
            .map(|k| {
                if k == 0 {
                    slug.clone()
                } else {
                    format!("{slug}-{k}")
                }
            })
            .find(|a| !found.contains(a))
            .unwrap();
        found.push(numbered);
    }
    found
}

#[test]
fn the_docs_stand_alone_and_their_links_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a doc");
        let name = file.strip_prefix(root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            if line.contains("shared/") {
                problems.push(format!(
                    "{name}:{}: points outside the repository: {line}",
                    n + 1
                ));
            }
            // Relative links: `](target)`, `](target#anchor)` or `](#anchor)`.
            for piece in line.split("](").skip(1) {
                let Some(end) = piece.find(')') else { continue };
                let (target, anchor) = match piece[..end].split_once('#') {
                    Some((target, anchor)) => (target, Some(anchor)),
                    None => (&piece[..end], None),
                };
                if target.contains("://") {
                    continue;
                }
                let linked = if target.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap().join(target)
                };
                if !linked.exists() {
                    problems.push(format!("{name}:{}: no such file: {target}", n + 1));
                } else if let Some(anchor) = anchor {
                    let is_markdown = linked.extension().is_some_and(|e| e == "md");
                    if is_markdown && !anchors(&linked).contains(&anchor.to_string()) {
                        let shown = if target.is_empty() { &name } else { target };
                        problems.push(format!("{name}:{}: no heading #{anchor} in {shown}", n + 1));
                    }
                }
            }
        }
    }
    // Each registered game's rules page: tests/registry.rs.
    assert!(
        root.join("docs/notation.md").is_file(),
        "docs/notation.md is missing"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
