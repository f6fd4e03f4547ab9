//! `permlab`: the command-line face of permlab-core, for course authors and conformance checks.
//!
//! Exit status: 0 success, 1 a check found a mismatch (a failing conformance case, a wrong
//! answer key), 2 the input could not be used (unreadable file, malformed JSON, bad flag). The
//! CLI never panics on input: every problem is a message naming the file, the position and the fix.

use std::fmt;
use std::process::ExitCode;

/// `println!` that never panics: when the reader of stdout has gone (`permlab … | head -1`),
/// stop quietly instead of panicking on the broken pipe.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `eprintln!` that never panics: a closed stderr (`permlab … 2>&1 | head -1`) loses the
/// message instead of turning it into a panic (exit 101).
macro_rules! warn {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod args;
mod batch;
mod bench;
mod check;
mod conformance;
mod eval;
mod lint;
mod pi;
mod replay;
mod rules;

const USAGE: &str = r#"permlab — how coding-agent harnesses decide whether a tool call may run

usage:
  permlab eval --rules FILE --call 'bash: git push origin main' [--engine NAME|all] [--explain]
      the verdict of each engine, its decisive rule and, with --explain, the steps it took
  permlab conformance FILE...
      run conformance files (fixtures/conformance/*.json); last line: N passed, M failed
  permlab batch --engine NAME --rules FILE  < calls.jsonl
      one JSON line {"decision", "rule"} per call line {"tool", "input"} on stdin
  permlab bench --engine NAME --rules FILE --calls FILE [--seconds S] [--scope call|evaluate]
      evaluation throughput (evals/s) and the allow/ask/deny tally of one pass
  permlab bench-data --out DIR [--sizes 10,100,1000,10000] [--calls 1000] [--seed N] [--without-bare]
      write the mixed rule tables and calls the benchmark figures use
  permlab replay TRACE --rules FILE [--json]
      a run's tool calls (JSON lines of {"tool", "input"}, a Claude Code stream-json
      transcript or a Codex rollout) through every engine and mode: allow/ask/deny/unavailable
      counts and shares, then the calls the engines disagree on
  permlab check LESSON.json...
      validate lessons (fixtures/lesson.schema.json) and compare every author-written
      "expect" answer with the engines; exit 1 on an invalid lesson or a wrong answer
  permlab lint FILE... [--format claude-code|opencode|codex] [--target HARNESS] [--json]
      dead, shadowed and order-fragile rules and misleading patterns in .claude/settings.json
      (several files: the layers; SCOPE:FILE names one), opencode.json(c), agent .md, .rules;
      each with a call the engine decides; exit 1 on findings
  permlab --version

--rules FILE: a JSON array of {"tool", "pattern", "action"} rows (the lesson's table), or
OpenCode rules {"permission", "pattern", "action"}.
engines: first-match, opencode, claude-code, corecoder, codex
  and pi-gate (Pi's permission-gate.ts extension; reads no table, so --rules is not needed):
  permlab eval --engine pi-gate --call 'bash: sudo ls' [--no-ui]
  permlab batch --engine pi-gate [--no-ui] < calls.jsonl      {"decision", "pattern"[, "reason"]}
  permlab replay TRACE --engine pi-gate [--json]              with and without a UI
  a dangerous bash call asks (denied with --no-ui); every other call and tool is allowed

exit status: 0 ok, 1 a check failed, 2 unusable input"#;

/// Why a command could not finish.
pub enum Failure {
    /// The command line itself is wrong.
    Usage(String),
    /// A file or value could not be used.
    Input(String),
}

impl Failure {
    fn usage(msg: impl Into<String>) -> Self {
        Failure::Usage(msg.into())
    }

    fn input(msg: impl fmt::Display) -> Self {
        Failure::Input(msg.to_string())
    }
}

/// A message from the argument reader is a usage error.
impl From<String> for Failure {
    fn from(msg: String) -> Self {
        Failure::Usage(msg)
    }
}

/// Reads a file as UTF-8, with an error naming it.
pub fn read_file(path: &str) -> Result<String, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::input(format!("{path}: cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "{path}: not UTF-8 text (invalid byte at offset {}): save it as UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn parse(raw: &[String], takes_value: &[&str], switches: &[&str]) -> Result<args::Args, Failure> {
    let a = args::Args::parse(raw, takes_value, switches).map_err(Failure::Usage)?;
    Ok(a)
}

/// The arguments as UTF-8, or a message naming the first one that is not (`std::env::args`
/// would panic on it).
fn utf8_args(raw: impl Iterator<Item = std::ffi::OsString>) -> Result<Vec<String>, String> {
    raw.enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                format!(
                    "argument {} is not valid UTF-8 text ({:?}): permlab reads arguments, rule files and calls as UTF-8; write the text in UTF-8 (a file name too)",
                    i + 1,
                    a.to_string_lossy()
                )
            })
        })
        .collect()
}

fn main() -> ExitCode {
    let argv = match utf8_args(std::env::args_os().skip(1)) {
        Ok(argv) => argv,
        Err(msg) => {
            warn!("permlab: {msg}");
            return ExitCode::from(2);
        }
    };
    let Some(command) = argv.first() else {
        warn!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &argv[1..];
    let result = match command.as_str() {
        "conformance" => parse(rest, &[], &[]).and_then(|a| conformance::run(&a.positional)),
        "check" => parse(rest, &[], &[]).and_then(|a| check::run(&a.positional)),
        "eval" => parse(rest, &["rules", "call", "engine"], &["explain", "no-ui"])
            .and_then(|a| eval::run(&a)),
        "batch" => parse(rest, &["rules", "engine"], &["no-ui"]).and_then(|a| batch::run(&a)),
        "lint" => parse(rest, &["format", "target"], &["json"]).and_then(|a| lint::run(&a)),
        "replay" => parse(rest, &["rules", "engine"], &["json"]).and_then(|a| replay::run(&a)),
        "bench" => parse(rest, &["rules", "calls", "engine", "seconds", "scope"], &[])
            .and_then(|a| bench::run(&a)),
        "bench-data" => parse(rest, &["out", "sizes", "calls", "seed"], &["without-bare"])
            .and_then(|a| bench::data(&a)),
        "--version" | "-V" | "version" => {
            say!("permlab {}", env!("CARGO_PKG_VERSION"));
            // The real products the engines reproduce (one place: `EngineId::pin`).
            for id in permlab_core::EngineId::ALL {
                if let Some(pin) = id.pin() {
                    say!("  {:<12} {pin}", id.slug());
                }
            }
            Ok(true)
        }
        "--help" | "-h" | "help" => {
            say!("{USAGE}");
            Ok(true)
        }
        other => Err(Failure::usage(format!("unknown command \"{other}\""))),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            warn!("permlab: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Input(msg)) => {
            warn!("permlab: {msg}");
            ExitCode::from(2)
        }
    }
}
