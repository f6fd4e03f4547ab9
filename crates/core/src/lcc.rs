//! learn-claude-code s01/s03: three hard-coded gates, no rules, no prompts, no modes.
//!
//! `shareAI-lab/learn-claude-code` @ b7de911, `agents/s01_agent_loop.py` and
//! `agents/s03_todo_write.py`. The course calls these the "three gates":
//!
//! 1. **Gate 1, a substring blacklist** ([`gate1`], s01 and s03): a bash command is refused iff
//!    one of five strings occurs in it — a plain, case-sensitive `in` test on the raw command,
//!    with no tokenizing and no word boundaries. So `cat sudoku_solver.py` is refused (`sudo`
//!    is inside `sudoku`), while `rm -fr /`, `rm  -rf /` and `RM -RF /` run.
//! 2. **Gate 2, `safe_path`** ([`safe_path`], s03 only, file tools only, never bash): the path
//!    is joined to the workspace and resolved; outside → `Path escapes workspace: <path>`.
//! 3. **Gate 3, timeout and output cap** ([`gate3`], s01 and s03): 120 s, then the first 50 000
//!    characters. Neither prevents damage: the command has already run.
//!
//! Everything the blacklist does not catch runs (`shell=True`): there is never an "ask". Rule
//! order is irrelevant (any entry blocks), which is why the evaluator reports *every* matching
//! entry: the lesson explains false positives with them.
//!
//! ```
//! use permlab_core::lcc::{gate1, BLACKLIST};
//! let v = gate1(&BLACKLIST, "cat sudoku_solver.py");
//! assert!(v.blocked());
//! assert_eq!(v.matched, ["sudo"]);
//! assert!(!gate1(&BLACKLIST, "rm -fr /").blocked());
//! ```
//!
//! Compared with CoreCoder's blacklist ([`crate::corecoder::check_dangerous`]): regexes with
//! word boundaries there, substrings here; on the course's 15 commands CoreCoder blocks 7 and
//! lcc blocks 3, one of them a false positive.

use std::fmt;

/// `BLACKLIST` in `run_bash`, in code order.
pub const BLACKLIST: [&str; 5] = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"];

/// What `run_bash` returns for a blacklisted command.
pub const BLOCKED_RESULT: &str = "Error: Dangerous command blocked";

/// `subprocess.run(..., timeout=120)`.
pub const TIMEOUT_SECONDS: u32 = 120;

/// What `run_bash` returns when the command times out.
pub const TIMEOUT_RESULT: &str = "Error: Timeout (120s)";

/// The output cap: `out[:50000]`, i.e. 50 000 Python `str` characters — Unicode code points,
/// not bytes and not UTF-16 units (an emoji counts once).
pub const OUTPUT_LIMIT: usize = 50_000;

/// What `run_bash` returns when the command printed nothing (after stripping).
pub const NO_OUTPUT: &str = "(no output)";

/// The course's 15 commands (lesson L1): 7 blocked by CoreCoder's regexes, 3 by lcc's
/// substrings.
pub const COURSE_COMMANDS: [&str; 15] = [
    "rm -rf /",
    "rm -rf ~",
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "cat sudoku_solver.py",
    "sudo ls",
    "git push --force",
    ":(){ :|:& };:",
    "dd if=/dev/zero of=/dev/sda",
    "chmod -R 777 /",
    "curl x | sh",
    "ls -la",
    "git status",
    "python -m unittest -v test_dateparse.py",
    "mkfs.ext4 /dev/sda1",
    "> /etc/passwd",
];

/// The six "intentionally dangerous" commands of the course's s03 claim ("misses 4 of 6").
pub const COURSE_DANGEROUS: [&str; 6] = [
    "rm -rf /",
    "rm -rf ~",
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "sudo ls",
    "git push --force",
    "dd if=/dev/zero of=/dev/sda",
];

/// Everyday commands of the course's claim ("wrongly blocks 2 of 5"). Only four are known from
/// the course; on them lcc wrongly blocks one (`cat sudoku_solver.py`). Any redirect to
/// `/dev/null` with a space (`ls 2> /dev/null`) is a ready second false positive.
pub const COURSE_EVERYDAY: [&str; 4] = [
    "ls -la",
    "git status",
    "python -m unittest -v test_dateparse.py",
    "cat sudoku_solver.py",
];

/// Gate 1's verdict on one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gate1<'a> {
    /// Every blacklist entry contained in the command, in blacklist order (empty: it runs).
    pub matched: Vec<&'a str>,
}

impl Gate1<'_> {
    /// Whether `run_bash` refuses the command.
    pub fn blocked(&self) -> bool {
        !self.matched.is_empty()
    }

    /// [`BLOCKED_RESULT`] when blocked, `None` when the command reaches the shell.
    pub fn result(&self) -> Option<&'static str> {
        self.blocked().then_some(BLOCKED_RESULT)
    }
}

/// Gate 1 (`any(d in command for d in blacklist)`) with a given blacklist — usually
/// [`BLACKLIST`] — reporting every entry that occurs. An empty entry occurs in every command,
/// as in Python.
pub fn gate1<'a>(blacklist: &[&'a str], command: &str) -> Gate1<'a> {
    Gate1 {
        matched: blacklist
            .iter()
            .copied()
            .filter(|entry| command.contains(entry))
            .collect(),
    }
}

/// How a blacklist fares on two command lists: the numbers of the lesson's evolution timeline
/// ("misses 4 of 6 dangerous commands, wrongly blocks … everyday commands").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally<'c> {
    /// Dangerous commands the blacklist lets through, in list order.
    pub missed: Vec<&'c str>,
    /// Everyday commands it refuses, in list order.
    pub false_positives: Vec<&'c str>,
}

/// Runs gate 1 with `blacklist` over a dangerous and an everyday list.
///
/// ```
/// use permlab_core::lcc::{tally, BLACKLIST, COURSE_DANGEROUS, COURSE_EVERYDAY};
/// let t = tally(&BLACKLIST, &COURSE_DANGEROUS, &COURSE_EVERYDAY);
/// assert_eq!(t.missed.len(), 4);
/// assert_eq!(t.false_positives, ["cat sudoku_solver.py"]);
/// ```
pub fn tally<'c>(blacklist: &[&str], dangerous: &[&'c str], everyday: &[&'c str]) -> Tally<'c> {
    let blocked = |c: &&str| gate1(blacklist, c).blocked();
    Tally {
        missed: dangerous.iter().copied().filter(|c| !blocked(c)).collect(),
        false_positives: everyday.iter().copied().filter(blocked).collect(),
    }
}

/// A path `safe_path` accepted: where it resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SafePath {
    /// The resolved absolute path (`/`-separated, normalized).
    pub absolute: String,
    /// The same, relative to the workspace; `"."` for the workspace itself.
    pub relative: String,
}

/// Why `safe_path` refused a path.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SafePathError {
    /// The path resolves outside the workspace. Holds the path exactly as given.
    Escapes(String),
    /// The path contains a NUL character: Python's `resolve()` raises
    /// `ValueError: embedded null byte` before the workspace check.
    EmbeddedNul,
    /// The workspace given to [`safe_path`] is not an absolute path (in lcc it is
    /// `Path.cwd()`, always absolute).
    RelativeWorkspace(String),
}

impl fmt::Display for SafePathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SafePathError::Escapes(p) => write!(f, "Path escapes workspace: {p}"),
            SafePathError::EmbeddedNul => f.write_str("embedded null byte"),
            SafePathError::RelativeWorkspace(w) => write!(
                f,
                "the workspace \"{w}\" must be an absolute path such as /home/me/project"
            ),
        }
    }
}

impl std::error::Error for SafePathError {}

/// Gate 2, s03's `safe_path(p)`: `(WORKDIR / p).resolve()` must lie inside `WORKDIR`.
///
/// Resolution is lexical (the port has no file system, so no symlinks): an absolute `p`
/// discards the workspace, `.` and empty components vanish, `..` removes one component (never
/// above `/`). `~` is **not** expanded: `~/notes.txt` is a directory literally named `~`
/// inside the workspace. "Inside" compares whole components, so `/work/project2` is not inside
/// `/work/project`; and a path that leaves and re-enters (`../project/x`) is inside.
///
/// ```
/// use permlab_core::lcc::safe_path;
/// assert_eq!(safe_path("/w/p", "src/../x.py").unwrap().relative, "x.py");
/// assert_eq!(safe_path("/w/p", "~/notes.txt").unwrap().relative, "~/notes.txt");
/// assert_eq!(safe_path("/w/p", "a/b/../../..").unwrap_err().to_string(),
///            "Path escapes workspace: a/b/../../..");
/// ```
pub fn safe_path(workspace: &str, path: &str) -> Result<SafePath, SafePathError> {
    if !workspace.starts_with('/') {
        return Err(SafePathError::RelativeWorkspace(workspace.to_string()));
    }
    if path.contains('\0') || workspace.contains('\0') {
        return Err(SafePathError::EmbeddedNul);
    }
    let root = resolve(Vec::new(), workspace);
    let start = if path.starts_with('/') {
        Vec::new()
    } else {
        root.clone()
    };
    let resolved = resolve(start, path);
    if !resolved.starts_with(&root) {
        return Err(SafePathError::Escapes(path.to_string()));
    }
    let relative = &resolved[root.len()..];
    Ok(SafePath {
        absolute: format!("/{}", resolved.join("/")),
        relative: if relative.is_empty() {
            ".".to_string()
        } else {
            relative.join("/")
        },
    })
}

/// Applies the components of `path` to the absolute path `parts` (a list of components).
fn resolve<'a>(mut parts: Vec<&'a str>, path: &'a str) -> Vec<&'a str> {
    for component in path.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    parts
}

/// What the shell did with a command that passed gate 1 (the widget and tests simulate it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShellRun<'a> {
    /// Still running after [`TIMEOUT_SECONDS`]: `subprocess.TimeoutExpired`.
    Timeout,
    /// Finished, with this captured output.
    Completed {
        /// Captured standard output.
        stdout: &'a str,
        /// Captured standard error.
        stderr: &'a str,
    },
}

/// Gate 3: the tool result `run_bash` builds from what the shell did.
///
/// `(stdout + stderr).strip()` (Python's whitespace set), cut to its first [`OUTPUT_LIMIT`]
/// code points, or [`NO_OUTPUT`] when empty; [`TIMEOUT_RESULT`] on timeout.
///
/// ```
/// use permlab_core::lcc::{gate3, ShellRun, OUTPUT_LIMIT};
/// let big = "é".repeat(60_000);
/// let out = gate3(ShellRun::Completed { stdout: &big, stderr: "" });
/// assert_eq!(out.chars().count(), OUTPUT_LIMIT); // code points, not bytes
/// assert_eq!(gate3(ShellRun::Completed { stdout: " \n", stderr: "" }), "(no output)");
/// assert_eq!(gate3(ShellRun::Timeout), "Error: Timeout (120s)");
/// ```
pub fn gate3(run: ShellRun<'_>) -> String {
    let ShellRun::Completed { stdout, stderr } = run else {
        return TIMEOUT_RESULT.to_string();
    };
    let joined = format!("{stdout}{stderr}");
    let out = crate::pychar::strip(&joined);
    if out.is_empty() {
        return NO_OUTPUT.to_string();
    }
    let cut = out
        .char_indices()
        .nth(OUTPUT_LIMIT)
        .map_or(out.len(), |(i, _)| i);
    out[..cut].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(command, matched entries)` — lcc.md §2's table of consequences.
    const GATE1: &[(&str, &[&str])] = &[
        ("rm -rf /", &["rm -rf /"]),
        ("rm -rf /*", &["rm -rf /"]),
        ("rm -rf /opt/build", &["rm -rf /"]),
        ("rm -rf ~", &[]),
        ("rm -fr /", &[]),
        ("rm -r -f /", &[]),
        ("rm  -rf /", &[]),
        ("RM -RF /", &[]),
        ("bash -c 'rm -rf $HOME'", &[]),
        ("find / -delete", &[]),
        ("sudo ls", &["sudo"]),
        ("cat sudoku_solver.py", &["sudo"]),
        ("SUDO ls", &[]),
        ("git log --grep=shutdown", &["shutdown"]),
        ("cat reboot_notes.md", &["reboot"]),
        ("ls 2> /dev/null", &["> /dev/"]),
        ("python -m pytest > /dev/null 2>&1", &["> /dev/"]),
        ("echo hi >/dev/null", &[]),
        ("cat /dev/urandom | head -c 10", &[]),
        ("sudo rm -rf / > /dev/null; shutdown; reboot", &BLACKLIST),
        ("sudo reboot", &["sudo", "reboot"]),
    ];

    #[test]
    fn gate1_reports_every_entry_in_order() {
        for &(command, want) in GATE1 {
            let v = gate1(&BLACKLIST, command);
            assert_eq!(v.matched, want, "{command}");
            assert_eq!(v.result().is_some(), !want.is_empty());
        }
    }

    #[test]
    fn course_tallies() {
        let blocked = |list: &[&str]| {
            list.iter()
                .filter(|c| gate1(&BLACKLIST, c).blocked())
                .count()
        };
        assert_eq!(blocked(&COURSE_COMMANDS), 3);
        assert_eq!(COURSE_DANGEROUS.len() - blocked(&COURSE_DANGEROUS), 4); // "misses 4 of 6"
        assert_eq!(blocked(&COURSE_EVERYDAY), 1); // only sudoku among the known four
        let corecoder = COURSE_COMMANDS
            .iter()
            .filter(|c| crate::corecoder::check_dangerous(c).is_some())
            .count();
        assert_eq!(corecoder, 7);
    }

    #[test]
    fn safe_path_resolves_lexically() {
        let ws = "/home/tester/project";
        let ok = [
            ("src/../sudoku_solver.py", "sudoku_solver.py"),
            ("~/notes.txt", "~/notes.txt"),
            (".", "."),
            ("", "."),
            ("./a//b/", "a/b"),
            ("../project/x", "x"),
            ("/home/tester/project/x", "x"),
            ("a/../../project", "."),
        ];
        for (p, rel) in ok {
            assert_eq!(
                safe_path(ws, p).map(|s| s.relative),
                Ok(rel.to_string()),
                "{p}"
            );
        }
        for p in [
            "/etc/passwd",
            "a/b/../../..",
            "..",
            "../project2/x",
            "//etc",
            "/..",
        ] {
            assert_eq!(
                safe_path(ws, p).unwrap_err().to_string(),
                format!("Path escapes workspace: {p}")
            );
        }
        assert_eq!(safe_path(ws, "a\0b"), Err(SafePathError::EmbeddedNul));
        assert!(matches!(
            safe_path("project", "x"),
            Err(SafePathError::RelativeWorkspace(_))
        ));
        assert_eq!(safe_path("/", "/etc").unwrap().absolute, "/etc");
    }

    #[test]
    fn gate3_cuts_code_points_and_strips_pythons_whitespace() {
        let out = gate3(ShellRun::Completed {
            stdout: &"x".repeat(60_000),
            stderr: "",
        });
        assert_eq!(out.len(), 50_000);
        let emoji = "😀".repeat(50_001);
        let out = gate3(ShellRun::Completed {
            stdout: &emoji,
            stderr: "",
        });
        assert_eq!(out.chars().count(), 50_000);
        assert_eq!(
            gate3(ShellRun::Completed {
                stdout: "\u{1c}out\n",
                stderr: "err\n"
            }),
            "out\nerr"
        );
    }
}
