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

mod batch;
mod bench;
mod check;
mod cli;
mod conformance;
mod eval;
mod lint;
mod pi;
mod replay;
mod rules;
mod words;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command};

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

/// A write to stdout that failed: when the reader has gone (a closed pipe, `| head -c 10`),
/// stop quietly with status 0 as other Unix tools do, as [`say!`] does; any other error is a
/// message.
pub fn stdout_failed(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    Failure::input(format!("stdout: cannot write: {e}"))
}

/// A config argument `[SCOPE:]FILE` (`project:.claude/settings.json`): the Claude Code
/// settings layer it names, if any, and the path. A prefix that is no scope is part of the path.
pub fn scoped_path(arg: &str) -> (Option<permlab_core::claude_code::Scope>, &str) {
    use permlab_core::claude_code::Scope;
    match arg.split_once(':') {
        Some((s, p)) if !p.is_empty() => match Scope::from_name(s) {
            Some(scope) => (Some(scope), p),
            None => (None, arg),
        },
        _ => (None, arg),
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

/// The arguments as UTF-8, or a message naming the first one that is not (`std::env::args`
/// would panic on it).
fn utf8_args(raw: impl Iterator<Item = std::ffi::OsString>) -> Result<Vec<String>, String> {
    raw.enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                format!(
                    "argument {} is not valid UTF-8 text ({}, each invalid byte shown as U+FFFD): permlab reads arguments, rule files and calls as UTF-8; write the text in UTF-8 (a file name too)",
                    i + 1,
                    words::quoted(&a.to_string_lossy())
                )
            })
        })
        .collect()
}

/// The help of `permlab`, or the usage line of one subcommand, as plain text.
fn help_text(sub: Option<&str>) -> String {
    let mut cmd = Cli::command();
    cmd.build();
    match sub.and_then(|name| cmd.find_subcommand_mut(name)) {
        Some(sub) => sub.render_usage().to_string(),
        None => cmd.render_help().to_string(),
    }
}

/// A clap error as the CLI's other messages read: `permlab: …`, then clap's usage and hint;
/// an unknown subcommand is called a command, as before clap.
fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let rendered = e.render().to_string();
    let rendered = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    if e.kind() == ErrorKind::InvalidSubcommand {
        if let Some(ContextValue::String(name)) = e.get(ContextKind::InvalidSubcommand) {
            let rest = rendered.split_once('\n').map_or("", |(_, r)| r);
            return format!("permlab: unknown command \"{name}\"\n{}", rest.trim_end());
        }
    }
    format!("permlab: {}", rendered.trim_end())
}

fn version() {
    say!("permlab {}", env!("CARGO_PKG_VERSION"));
    // The real products the engines reproduce (one place: `EngineId::pin`).
    for id in permlab_core::EngineId::ALL {
        if let Some(pin) = id.pin() {
            say!("  {:<12} {pin}", id.slug());
        }
    }
}

fn main() -> ExitCode {
    let argv = match utf8_args(std::env::args_os().skip(1)) {
        Ok(argv) => argv,
        Err(msg) => {
            warn!("permlab: {msg}");
            return ExitCode::from(2);
        }
    };
    if argv.is_empty() {
        warn!("{}", help_text(None).trim_end());
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(std::iter::once("permlab".to_string()).chain(argv)) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    say!("{}", e.render().to_string().trim_end());
                    ExitCode::SUCCESS
                }
                _ => {
                    warn!("{}", clap_message(&e));
                    ExitCode::from(2)
                }
            };
        }
    };
    let (name, result) = match cli.command {
        _ if cli.version => {
            version();
            ("", Ok(true))
        }
        None => {
            warn!("{}", help_text(None).trim_end());
            return ExitCode::from(2);
        }
        Some(Command::Version) => {
            version();
            ("version", Ok(true))
        }
        Some(Command::Conformance(f)) => ("conformance", conformance::run(&f.files)),
        Some(Command::Check(f)) => ("check", check::run(&f.files)),
        Some(Command::Eval(a)) => ("eval", eval::run(&a)),
        Some(Command::Batch(a)) => ("batch", batch::run(&a)),
        Some(Command::Lint(a)) => ("lint", lint::run(&a)),
        Some(Command::Replay(a)) => ("replay", replay::run(&a)),
        Some(Command::Bench(a)) => ("bench", bench::run(&a)),
        Some(Command::BenchData(a)) => ("bench-data", bench::data(&a)),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            warn!(
                "permlab: {msg}\n\n{}\n\nFor more information, try 'permlab help {name}'.",
                help_text(Some(name)).trim_end()
            );
            ExitCode::from(2)
        }
        Err(Failure::Input(msg)) => {
            warn!("permlab: {msg}");
            ExitCode::from(2)
        }
    }
}
