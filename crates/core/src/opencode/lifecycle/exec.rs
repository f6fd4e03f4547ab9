//! The call's arguments and its execution: schema, working directory, shell, timeout
//! (`opencode-lifecycle.md` §2, §6, §9).
//!
//! The model may pass `timeout` (milliseconds); without it the classic runtime uses
//! `OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS` when that is a positive integer, else
//! [`DEFAULT_TIMEOUT_MS`], with no maximum. The command races its exit against a timer of
//! `timeout + 100` ms; on timeout the process group is killed (forcibly after 3 s) and a
//! note is appended to the output. The exit code goes to metadata only: the model never sees
//! it (the next runtime tells it: `Command exited with code N.`).
//!
//! ```
//! use permlab_core::opencode::lifecycle::exec::{effective_timeout, timeout_note, TimeoutSource};
//! assert_eq!(effective_timeout(None, None), (120_000, TimeoutSource::Default));
//! assert_eq!(effective_timeout(None, Some("5000")), (5_000, TimeoutSource::Environment));
//! assert_eq!(effective_timeout(Some(1000), Some("5000")), (1_000, TimeoutSource::Argument));
//! assert!(timeout_note(1000).starts_with("shell tool terminated command after exceeding timeout 1000 ms."));
//! ```

/// The default timeout, both runtimes.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The environment variable that replaces the default (classic).
pub const DEFAULT_TIMEOUT_ENV: &str = "OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS";
/// The timer runs this much longer than the timeout.
pub const TIMER_GRACE_MS: u64 = 100;
/// After killing the process group, a forced kill follows after this long.
pub const FORCE_KILL_AFTER_MS: u64 = 3_000;
/// Next runtime: the largest timeout.
pub const NEXT_MAX_TIMEOUT_MS: u64 = 600_000;
/// What the model is told after the user aborted the command.
pub const ABORTED_NOTE: &str = "User aborted the command";

/// Where the effective timeout came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutSource {
    /// The call's `timeout` argument.
    Argument,
    /// [`DEFAULT_TIMEOUT_ENV`].
    Environment,
    /// [`DEFAULT_TIMEOUT_MS`].
    Default,
}

impl TimeoutSource {
    /// `argument`, `environment`, `default`.
    pub fn slug(self) -> &'static str {
        match self {
            TimeoutSource::Argument => "argument",
            TimeoutSource::Environment => "environment",
            TimeoutSource::Default => "default",
        }
    }
}

/// The classic runtime's timeout: the (already validated, positive) argument, else the
/// environment variable when it is a positive integer, else the default.
pub fn effective_timeout(argument: Option<u64>, env: Option<&str>) -> (u64, TimeoutSource) {
    if let Some(t) = argument {
        return (t, TimeoutSource::Argument);
    }
    match env.and_then(|v| v.trim().parse::<u64>().ok()) {
        Some(t) if t > 0 => (t, TimeoutSource::Environment),
        _ => (DEFAULT_TIMEOUT_MS, TimeoutSource::Default),
    }
}

/// The schema error for a `timeout` that is not greater than 0 (what the model receives).
///
/// ```
/// use permlab_core::opencode::lifecycle::exec::timeout_schema_error;
/// assert_eq!(timeout_schema_error(-5), "The bash tool was called with invalid arguments: SchemaError(Expected a value greater than 0, got -5\n  at [\"timeout\"]).\nPlease rewrite the input so it satisfies the expected schema.");
/// ```
pub fn timeout_schema_error(got: i64) -> String {
    format!(
        "The bash tool was called with invalid arguments: SchemaError(Expected a value greater than 0, got {got}\n  at [\"timeout\"]).\nPlease rewrite the input so it satisfies the expected schema."
    )
}

/// The note inside `<shell_metadata>` after a timeout.
pub fn timeout_note(timeout_ms: u64) -> String {
    format!(
        "shell tool terminated command after exceeding timeout {timeout_ms} ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds."
    )
}

/// `\n\n<shell_metadata>\n{note}\n</shell_metadata>`, appended to the result text.
pub fn shell_metadata(note: &str) -> String {
    format!("\n\n<shell_metadata>\n{note}\n</shell_metadata>")
}

/// Next runtime: the line the model gets with the exit code.
pub fn exit_note(code: i32) -> String {
    format!("Command exited with code {code}.")
}

/// The shell the command runs in: the configured one (or `$SHELL`) unless it is fish or nu
/// or not installed, then `bash` on PATH, then `/bin/sh`. The permission is `bash` whatever
/// the shell.
///
/// ```
/// use permlab_core::opencode::lifecycle::exec::select_shell;
/// assert_eq!(select_shell(Some("/usr/bin/fish"), &["/usr/bin/fish", "/bin/bash"]), "/bin/bash");
/// assert_eq!(select_shell(Some("/bin/zsh"), &["/bin/zsh"]), "/bin/zsh");
/// assert_eq!(select_shell(None, &[]), "/bin/sh");
/// ```
pub fn select_shell(configured: Option<&str>, installed: &[&str]) -> String {
    if let Some(s) = configured {
        let name = s.rsplit('/').next().unwrap_or(s);
        if !matches!(name, "fish" | "nu") && installed.contains(&s) {
            return s.to_string();
        }
    }
    installed
        .iter()
        .find(|p| p.rsplit('/').next() == Some("bash"))
        .map(|p| p.to_string())
        .unwrap_or_else(|| "/bin/sh".to_string())
}

/// How the process ended (the lesson supplies it; nothing runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// It exited with this code.
    Exited(i32),
    /// The timer fired: the process group was killed; `metadata.exit` is null.
    TimedOut,
    /// The user aborted it.
    Aborted,
}

/// The simulated run: what the command printed (stdout and stderr merged in arrival order)
/// and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The merged output.
    pub output: String,
    /// How it ended.
    pub end: RunEnd,
}

impl Run {
    /// Exited with `code` after printing `output`.
    pub fn exited(output: &str, code: i32) -> Run {
        Run {
            output: output.to_string(),
            end: RunEnd::Exited(code),
        }
    }

    /// `metadata.exit`.
    pub fn exit(&self) -> Option<i32> {
        match self.end {
            RunEnd::Exited(c) => Some(c),
            _ => None,
        }
    }
}
