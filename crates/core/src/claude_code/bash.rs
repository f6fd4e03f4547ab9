//! Bash (and PowerShell) command rules: the pattern language, the wrappers and environment
//! prefixes stripped before matching, the built-in read-only set and the file commands whose
//! targets Read/Edit rules see (`claude-code.md` §2).
//!
//! A rule pattern is matched against one subcommand's text at a time, anchored at both ends:
//!
//! - no `*`: the exact text (`Bash(npm run build)` misses `npm run build --watch`);
//! - `*` matches any characters, spaces included, anywhere;
//! - a trailing ` *` that is the pattern's **only** `*` is optional (`Bash(ls *)` matches `ls`);
//! - a trailing `:*` is the legacy spelling of ` *`; a colon anywhere else is literal.
//!
//! Differs from OpenCode's `Wildcard.match` on purpose: OpenCode also has `?`, and its
//! optional trailing ` *` does not depend on being the only wildcard; Codex matches argv token
//! prefixes, not text. Here only `*` is special and the text is matched as written (quotes
//! kept, spaces not normalised), one subcommand at a time.
//!
//! ```
//! use permlab_core::claude_code::bash::CommandPattern;
//! let p = CommandPattern::new("git push *", false);
//! assert!(p.matches("git push"));
//! assert!(p.matches("git push origin main"));
//! assert!(!p.matches("git pushy"));
//! assert!(CommandPattern::new("ls:*", false).matches("ls -la"));
//! assert!(!CommandPattern::new("* --help *", false).matches("npm --help"));
//! ```

use super::shell::{self, RedirectKind, SimpleCommand, Word};

/// A compiled command pattern (`Bash(…)`, `PowerShell(…)`, `Monitor(…)`, `Skill(…)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandPattern {
    /// The pattern with a legacy trailing `:*` rewritten to ` *`.
    pattern: String,
    /// The trailing ` *` is the only wildcard, so the bare prefix matches too.
    optional_tail: bool,
    /// PowerShell matching ignores case.
    case_insensitive: bool,
}

impl CommandPattern {
    /// Compiles `spec`; `case_insensitive` for PowerShell.
    pub fn new(spec: &str, case_insensitive: bool) -> Self {
        let pattern = match spec.strip_suffix(":*") {
            // Legacy `:*` only counts at the very end (`Bash(git:* push)` keeps its colon).
            Some(prefix) => format!("{prefix} *"),
            None => spec.to_string(),
        };
        let optional_tail = pattern.ends_with(" *") && pattern.matches('*').count() == 1;
        let pattern = if case_insensitive {
            pattern.to_lowercase()
        } else {
            pattern
        };
        CommandPattern {
            pattern,
            optional_tail,
            case_insensitive,
        }
    }

    /// The pattern as matched (after the `:*` rewrite).
    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    /// Whether a `*` stands where the program or its subcommand goes and more text follows,
    /// e.g. `Bash(git * main)` or `Bash(* --help *)`. Allow rules like this draw a start-up
    /// warning (the `*` also spans options such as `git -c core.fsmonitor=…`) but still match.
    ///
    /// ```
    /// use permlab_core::claude_code::bash::CommandPattern;
    /// assert!(CommandPattern::new("git * main", false).star_before_subcommand());
    /// assert!(!CommandPattern::new("git status*", false).star_before_subcommand());
    /// assert!(!CommandPattern::new("find . -name *.rs", false).star_before_subcommand());
    /// ```
    pub fn star_before_subcommand(&self) -> bool {
        let words: Vec<&str> = self.pattern.split(' ').collect();
        words
            .iter()
            .take(2)
            .enumerate()
            .any(|(k, w)| w.contains('*') && k + 1 < words.len())
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        if self.case_insensitive {
            let lower = text.to_lowercase();
            self.matches_exact_case(&lower)
        } else {
            self.matches_exact_case(text)
        }
    }

    /// The first word (text up to the first space) of every text this pattern matches, when
    /// the pattern fixes it: `git push *` → `git`, `ls` → `ls`; `ls*`, `* --help` → `None`.
    /// Used to index rules by program; see [`first_word`].
    ///
    /// Why it holds: a match starts with the literal text before the first `*`; when that
    /// contains a space, the text's first word is the part before it. Without `*` the text is
    /// the pattern. The optional tail (`ls *` matching `ls`) keeps the same first word.
    pub(crate) fn word_key(&self) -> Option<&str> {
        if self.case_insensitive {
            return None;
        }
        match self.pattern.find('*') {
            None => Some(first_word(&self.pattern)),
            Some(star) => {
                let literal = &self.pattern[..star];
                literal.find(' ').map(|space| &literal[..space])
            }
        }
    }

    fn matches_exact_case(&self, text: &str) -> bool {
        if self.optional_tail {
            let prefix = &self.pattern[..self.pattern.len() - 2];
            if text == prefix {
                return true;
            }
        }
        wildcard(&self.pattern, text)
    }
}

/// `*`-only wildcard match over the whole text (`*` matches any run of characters, newlines
/// included). Linear-time two-pointer algorithm, no recursion, no allocation.
///
/// It works on bytes: `*` is ASCII, and a literal after a `*` starts with a UTF-8 lead byte,
/// which never equals a continuation byte, so a `*` can only end on a character boundary in a
/// successful match and the result is the same as matching characters.
///
/// ```
/// use permlab_core::claude_code::bash::wildcard;
/// assert!(wildcard("git * main", "git log --oneline main"));
/// assert!(!wildcard("git log * main", "git log main"));
/// assert!(wildcard("*", ""));
/// assert!(wildcard("é*ü", "éaüü"));
/// ```
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// The text up to its first space: the key [`CommandPattern::word_key`] is compared with.
pub(crate) fn first_word(text: &str) -> &str {
    text.split(' ').next().unwrap_or(text)
}

/// Environment variables an **allow** rule may look past (`claude-code.md` §2.3, §10.1): the
/// docs' examples. Deny and ask rules look past any assignment.
pub const SAFE_ENV: [&str; 3] = ["NODE_ENV", "LANG", "NO_COLOR"];

/// Variables the recorded CLI 2.1.332 also looks past for allow rules (`TZ=UTC npm test`,
/// `LC_ALL=C …`, `LC_CTYPE=C …`, `CI=true …` ran under `Bash(npm test *)`), beyond the docs'
/// three examples. `NODE_OPTIONS`, `PATH`, `DEBUG` and unknown names (`FOO`) still stop the
/// allow (recorded).
pub const RECORDED_SAFE_ENV: [&str; 4] = ["TZ", "LC_ALL", "LC_CTYPE", "CI"];

/// Inferred additions to [`SAFE_ENV`] and [`RECORDED_SAFE_ENV`] (the other `LC_*`): a verdict
/// resting on them is inferred.
pub fn inferred_safe_env(name: &str) -> bool {
    RECORDED_SAFE_ENV.contains(&name) || name.starts_with("LC_")
}

fn recorded_safe_env(name: &str) -> bool {
    SAFE_ENV.contains(&name) || RECORDED_SAFE_ENV.contains(&name)
}

/// Variables whose assignment makes even a read-only command prompt (§2.5).
const SPECIAL_VARS: [&str; 9] = [
    "PATH",
    "IFS",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "PS4",
    "SHELLOPTS",
];

/// Commands that run another command and cannot be approved by a prefix rule (§2.3).
pub const EXEC_WRAPPERS: [&str; 4] = ["watch", "setsid", "ionice", "flock"];

/// The documented read-only commands (§2.5): no rule needed in any mode.
pub const READ_ONLY: [&str; 14] = [
    "ls", "cat", "echo", "pwd", "head", "tail", "grep", "find", "wc", "which", "diff", "stat",
    "du", "cd",
];

/// Read-only git subcommands (inferred, §10.1); `branch` only without arguments.
pub const READ_ONLY_GIT: [&str; 5] = ["status", "log", "diff", "show", "rev-parse"];

/// Commands CLI 2.1.332 ran without a prompt and without any rule, beyond [`READ_ONLY`]
/// (recorded, each with a typical argument: `lsof -i :8080`, `ps aux`, `uname -a`,
/// `sort a.txt`, `cut -d: -f1 a.txt`, `df -h`, `jq . package.json`…). Not in it (recorded,
/// they ask): `printenv`, `env`, `uniq`, `npm --version`, `python3 -V`.
pub const READ_ONLY_RECORDED: [&str; 27] = [
    "lsof", "ps", "whoami", "date", "uname", "sort", "file", "tree", "basename", "printf", "jq",
    "cut", "df", "id", "hostname", "uptime", "realpath", "dirname", "readlink", "tr", "nproc",
    "true", "rg", "sleep", "type", "man", "free",
];

/// Commands of the same kind as [`READ_ONLY_RECORDED`] that were not recorded: treated as
/// read-only, and a verdict resting on them is marked inferred.
pub const READ_ONLY_INFERRED: [&str; 8] =
    ["arch", "groups", "nl", "tac", "rev", "comm", "cmp", "false"];

/// Git subcommands CLI 2.1.332 ran without a rule beyond [`READ_ONLY_GIT`] (recorded:
/// `git remote -v`, `git branch -a`, `git blame README.md`, `git ls-files`, bare `git tag`).
pub const READ_ONLY_GIT_RECORDED: [&str; 5] = ["remote", "branch", "blame", "ls-files", "tag"];

/// `PROGRAM VERSION-FLAG` forms CLI 2.1.332 ran without a rule (recorded); `npm --version` and
/// `python3 -V` ask (recorded).
const VERSION_QUERIES: [(&str, &str); 4] = [
    ("node", "-v"),
    ("node", "--version"),
    ("python", "--version"),
    ("python3", "--version"),
];

/// Commands acceptEdits approves on in-scope paths (§7).
pub const ACCEPT_EDITS_COMMANDS: [&str; 7] = ["mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"];

/// One subcommand after the wrappers and environment prefixes were looked at.
#[derive(Clone, Debug)]
pub struct Sub {
    /// The simple command.
    pub cmd: SimpleCommand,
    /// Index of the first word after the stripped wrappers.
    pub start: usize,
    /// The text deny/ask rules see: after every assignment and wrapper.
    pub stripped: String,
    /// The text before wrappers were stripped (deny/ask also look at it: fail closed).
    pub unstripped: String,
    /// The text deny and ask rules see in CLI 2.1.332 (recorded), besides the two above: the
    /// argv after the wrappers, `exec`, `env` (its options and assignments) and `sudo` (its
    /// options), with quotes and backslashes removed and the program reduced to its name
    /// (`/usr/bin/curl` → `curl`, `./rm` → `rm`, `"rm"`/`\rm` → `rm`), words joined by one
    /// space, and `$NAME` replaced by an earlier bare `NAME=value` of the same command line.
    /// So `Bash(curl *)` denies `/usr/bin/curl …` and `Bash(git push *)` denies
    /// `git 'push' origin main`, where the docs say both get past. Allow rules never see it
    /// (`/usr/bin/curl …` still asks under `Bash(curl *)` allowed).
    pub normalized: String,
    /// The text with its leading assignments, as an allow rule that spells them out sees it
    /// (recorded, CLI 2.1.332: `Bash(X=1 cat *)` approves `X=1 cat README.md`); `None` without
    /// assignments.
    pub with_env: Option<String>,
    /// Names of the leading assignments.
    pub env: Vec<String>,
    /// Every assignment is one an allow rule may look past.
    pub env_safe_for_allow: bool,
    /// The allow verdict rests on an inferred safe variable (`LC_*`, `TZ`).
    pub env_inferred: bool,
    /// The wrappers stripped, in order.
    pub wrappers: Vec<String>,
}

impl Sub {
    /// The argv after stripping (unquoted values).
    pub fn argv(&self) -> Vec<&str> {
        self.cmd.words[self.start..]
            .iter()
            .map(|w| w.value.as_str())
            .collect()
    }

    /// The words after stripping.
    pub fn words(&self) -> &[Word] {
        &self.cmd.words[self.start..]
    }

    /// The program name after stripping.
    pub fn program(&self) -> Option<&str> {
        self.cmd.words.get(self.start).map(|w| w.value.as_str())
    }
}

/// Looks at one simple command: strips the fixed wrapper list (§2.3) and notes the assignments.
pub fn analyse(source: &str, cmd: &SimpleCommand) -> Sub {
    analyse_owned(source, cmd.clone())
}

/// [`analyse`] of a command the caller no longer needs (no copy of its words).
pub(crate) fn analyse_owned(source: &str, cmd: SimpleCommand) -> Sub {
    let words = &cmd.words;
    let mut i = 0usize;
    let mut wrappers = Vec::new();
    while let Some(w) = words.get(i) {
        if w.quoted {
            break;
        }
        let next = words.get(i + 1).map(|w| w.value.as_str());
        let after = match w.value.as_str() {
            "timeout" => skip_timeout(words, i + 1),
            "time" => Some(if next == Some("-p") { i + 2 } else { i + 1 }),
            "nice" => skip_nice(words, i + 1),
            "nohup" | "builtin" | "noglob" => Some(i + 1),
            "stdbuf" => skip_stdbuf(words, i + 1),
            // `command -v x` looks a name up; only the flag-less form runs the command.
            "command" => match next {
                Some(n) if !n.starts_with('-') => Some(i + 1),
                _ => None,
            },
            // Only bare `xargs`: `xargs -n1 grep` is matched as `xargs`.
            "xargs" => match next {
                Some(n) if !n.starts_with('-') => Some(i + 1),
                _ => None,
            },
            _ => None,
        };
        match after {
            Some(a) if a < words.len() => {
                wrappers.push(w.value.clone());
                i = a;
            }
            _ => break,
        }
    }
    let env: Vec<String> = cmd
        .assignments
        .iter()
        .map(|a| shell::assignment_name(a).to_string())
        .collect();
    let env_safe_for_allow = env
        .iter()
        .all(|n| SAFE_ENV.contains(&n.as_str()) || inferred_safe_env(n));
    let env_inferred = env
        .iter()
        .any(|n| !recorded_safe_env(n) && inferred_safe_env(n));
    let unstripped = cmd.text_from(source, 0);
    let stripped = if i == 0 {
        unstripped.clone()
    } else {
        cmd.text_from(source, i)
    };
    let normalized = normalized_text(&cmd, 0, &Default::default());
    let with_env = (!cmd.assignments.is_empty()).then(|| {
        let mut t: Vec<&str> = cmd.assignments.iter().map(|a| a.raw.as_str()).collect();
        t.push(&unstripped);
        t.join(" ")
    });
    Sub {
        cmd,
        start: i,
        stripped,
        unstripped,
        normalized,
        with_env,
        env,
        env_safe_for_allow,
        env_inferred,
        wrappers,
    }
}

/// [`Sub::normalized`] for the words from `start` on; `vars` are the bare assignments seen
/// earlier in the command line (name → the last value assigned). A map: a line of many
/// assignments and many `$name` words must not compare every word with every assignment.
pub(crate) fn normalized_text(
    cmd: &SimpleCommand,
    start: usize,
    vars: &std::collections::HashMap<String, String>,
) -> String {
    let words = &cmd.words;
    let mut i = start;
    // The deny side also looks past `exec`, `env` and `sudo` (recorded: `env rm -rf build`,
    // `sudo rm -rf build`, `exec curl …` are denied by `Bash(rm *)` / `Bash(curl *)`).
    while let Some(w) = words.get(i) {
        let next = match w.value.as_str() {
            "exec" => skip_flags(words, i + 1, &["-a"]),
            "env" => {
                let mut j = skip_flags(words, i + 1, &["-u", "--unset", "-C", "--chdir", "-S"]);
                while words.get(j).is_some_and(|w| is_assignment(&w.value)) {
                    j += 1;
                }
                j
            }
            "sudo" => skip_flags(
                words,
                i + 1,
                &["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"],
            ),
            "timeout" => skip_timeout(words, i + 1).unwrap_or(i),
            "nice" => skip_nice(words, i + 1).unwrap_or(i),
            "nohup" | "builtin" | "noglob" | "command" | "time" => i + 1,
            "stdbuf" => skip_stdbuf(words, i + 1).unwrap_or(i),
            _ => i,
        };
        if next == i || next >= words.len() {
            break;
        }
        i = next;
    }
    let mut out = String::new();
    for (k, w) in words[i.min(words.len())..].iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let mut value = w.value.clone();
        // Only the plain `$name` form is resolved (recorded: `${c} …` asks, `$c …` is denied).
        if w.expansion {
            if let Some(v) = w.value.strip_prefix('$').and_then(|name| vars.get(name)) {
                value = v.clone();
            }
        }
        if k == 0 && value.contains('/') {
            value = value.rsplit('/').next().unwrap_or("").to_string();
        }
        out.push_str(&value);
    }
    out
}

fn is_assignment(word: &str) -> bool {
    match word.find('=') {
        Some(k) if k > 0 => word[..k]
            .chars()
            .all(|c| c == '_' || c.is_ascii_alphanumeric()),
        _ => false,
    }
}

/// Skips options (and the values of `with_value` options) from `i`.
fn skip_flags(words: &[Word], mut i: usize, with_value: &[&str]) -> usize {
    while let Some(w) = words.get(i) {
        let v = w.value.as_str();
        if v == "--" {
            return i + 1;
        }
        if !v.starts_with('-') || v == "-" {
            break;
        }
        i += if with_value.contains(&v) { 2 } else { 1 };
    }
    i
}

fn skip_timeout(words: &[Word], mut i: usize) -> Option<usize> {
    while let Some(w) = words.get(i) {
        let v = w.value.as_str();
        if v == "-s" || v == "-k" || v == "--signal" || v == "--kill-after" {
            i += 2;
        } else if v.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    let duration = words.get(i)?.value.as_str();
    let digits = duration.trim_end_matches(['s', 'm', 'h', 'd']);
    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        Some(i + 1)
    } else {
        None
    }
}

fn skip_nice(words: &[Word], i: usize) -> Option<usize> {
    match words.get(i).map(|w| w.value.as_str()) {
        Some("-n") => Some(i + 2),
        Some(v) if v.starts_with("--adjustment") => Some(i + 1),
        Some(v) if v.starts_with('-') && v[1..].chars().all(|c| c.is_ascii_digit()) => Some(i + 1),
        Some(_) => Some(i),
        None => None,
    }
}

fn skip_stdbuf(words: &[Word], mut i: usize) -> Option<usize> {
    while let Some(w) = words.get(i) {
        let v = w.value.as_str();
        if matches!(v, "-i" | "-o" | "-e") {
            i += 2;
        } else if v.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    Some(i)
}

/// Why a subcommand that needs no rule still prompts (§2.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotReadOnly {
    /// Not in the read-only set at all.
    NotInSet,
    /// An exec wrapper or `find -exec/-delete`: no prefix rule can approve it.
    ExecWrapper(String),
    /// An unquoted glob on a command whose flags can write or execute.
    UnquotedGlob,
    /// Writes a special shell variable (`PATH`, `IFS`…).
    SpecialVariable(String),
    /// Names a UNC path (`\\server\share`, `//server/share`): reaching it can leak credentials.
    UncPath(String),
    /// Runs behind an assignment an allow rule cannot look past (`X=1 cat .env`).
    UnsafeEnv(String),
}

/// Display options shared by the read-only `git diff`, `git log` and `git show` (inferred,
/// beyond the recorded `--stat`, `--cached`, `--oneline`, `-5`).
const GIT_DISPLAY_OPTIONS: [&str; 45] = [
    "--stat",
    "--numstat",
    "--shortstat",
    "--dirstat",
    "--summary",
    "--name-only",
    "--name-status",
    "--patch",
    "-p",
    "-u",
    "--no-patch",
    "-s",
    "--raw",
    "--minimal",
    "--patience",
    "--histogram",
    "--color",
    "--no-color",
    "--word-diff",
    "--color-words",
    "--check",
    "--full-index",
    "--binary",
    "--abbrev",
    "-R",
    "--relative",
    "--no-relative",
    "--text",
    "-a",
    "--ignore-all-space",
    "-w",
    "--ignore-space-change",
    "-b",
    "--ignore-blank-lines",
    "--diff-filter",
    "--find-renames",
    "-M",
    "--unified",
    "--compact-summary",
    "--oneline",
    "--format",
    "--pretty",
    "--abbrev-commit",
    "--no-abbrev",
    "--decorate",
];

/// Options only one of them takes.
const GIT_DIFF_ONLY: [&str; 5] = [
    "--cached",
    "--staged",
    "--exit-code",
    "--quiet",
    "--merge-base",
];
const GIT_LOG_ONLY: [&str; 24] = [
    "-n",
    "--max-count",
    "--skip",
    "--graph",
    "--all",
    "--branches",
    "--tags",
    "--remotes",
    "--since",
    "--after",
    "--until",
    "--before",
    "--author",
    "--committer",
    "--grep",
    "--follow",
    "--no-merges",
    "--merges",
    "--reverse",
    "--date",
    "--first-parent",
    "-S",
    "-G",
    "--left-right",
];

/// Whether `arg` is an option of `git SUBCOMMAND` that keeps it read-only (`--stat=80`, `-U5`,
/// `git log -5` included). Recorded (CLI 2.1.332): `git diff -v`, `git log --foo`, `git show
/// --foo` ask; `git diff --stat`, `git diff --cached`, `git log --oneline -5` run; `git status
/// -v` runs, `git status --foo` asks.
fn git_option_ok(subcommand: &str, arg: &str) -> bool {
    let name = arg.split('=').next().unwrap_or(arg);
    let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    match subcommand {
        "diff" | "log" | "show" => {
            GIT_DISPLAY_OPTIONS.contains(&name)
                || (arg.starts_with("-U") && digits(&arg[2..]))
                || (subcommand == "diff" && GIT_DIFF_ONLY.contains(&name))
                || (subcommand == "log" && GIT_LOG_ONLY.contains(&name))
                || (subcommand == "log" && arg.len() > 1 && digits(&arg[1..]))
        }
        "status" => GIT_STATUS_OPTIONS.contains(&name) || arg.starts_with("-u"),
        _ => true,
    }
}

/// Options of a read-only `git status` (recorded: `git status -v` runs, `git status --foo`
/// asks; the others inferred).
const GIT_STATUS_OPTIONS: [&str; 19] = [
    "-s",
    "--short",
    "-b",
    "--branch",
    "-v",
    "--verbose",
    "--porcelain",
    "--long",
    "-u",
    "--untracked-files",
    "--ignored",
    "--show-stash",
    "--ahead-behind",
    "--no-ahead-behind",
    "--column",
    "--no-column",
    "-z",
    "--renames",
    "--no-renames",
];

/// Whether `sub` is a built-in read-only command (§2.5, §10.1). `Ok(true)` when the verdict
/// rests on the inferred git forms.
pub fn read_only(sub: &Sub) -> Result<bool, NotReadOnly> {
    if let Some(v) = sub.env.iter().find(|v| SPECIAL_VARS.contains(&v.as_str())) {
        return Err(NotReadOnly::SpecialVariable(v.clone()));
    }
    let argv = sub.argv();
    let Some(&program) = argv.first() else {
        // A bare assignment (`FOO=1`) runs nothing.
        return Ok(false);
    };
    // Recorded (CLI 2.1.332): an assignment the allow side cannot look past keeps a read-only
    // command from running unprompted (`X=1 cat README.md`, `FOO=bar git status` ask;
    // `LANG=C ls`, `TZ=UTC cat README.md`, `NODE_ENV=test git status` run).
    if !sub.env_safe_for_allow {
        let name = sub
            .env
            .iter()
            .find(|n| !SAFE_ENV.contains(&n.as_str()) && !inferred_safe_env(n))
            .cloned()
            .unwrap_or_default();
        return Err(NotReadOnly::UnsafeEnv(name));
    }
    if let Some(w) = exec_wrapper(sub) {
        return Err(NotReadOnly::ExecWrapper(w));
    }
    let words = sub.words();
    if let Some(w) = words
        .iter()
        .find(|w| w.value.starts_with("\\\\") || (w.value.starts_with("//") && w.value.len() > 2))
    {
        return Err(NotReadOnly::UncPath(w.value.clone()));
    }
    if argv.len() == 2 && VERSION_QUERIES.contains(&(program, argv[1])) {
        return Ok(false);
    }
    match program {
        "git" => {
            let Some(subcommand) = argv.get(1) else {
                return Err(NotReadOnly::NotInSet);
            };
            // `git remote add …`, `git branch -D x` still write.
            let writes = match *subcommand {
                "remote" => argv
                    .get(2)
                    .is_some_and(|a| !a.starts_with('-') && *a != "show"),
                // Only the bare listing was recorded; `git tag v1` creates a tag.
                "tag" => argv.len() > 2 && !matches!(argv[2], "-l" | "--list"),
                "branch" => argv.iter().skip(2).any(|a| {
                    !matches!(
                        *a,
                        "-a" | "--all" | "-r" | "--remotes" | "-v" | "-vv" | "--verbose" | "--list"
                    )
                }),
                _ => false,
            };
            let ok = READ_ONLY_GIT.contains(subcommand)
                || (READ_ONLY_GIT_RECORDED.contains(subcommand) && !writes);
            // Recorded (CLI 2.1.332): `git diff -v` asks (`-v` is no option of `git diff`),
            // `git diff --stat` and `git diff HEAD~1` run ([`git_option_ok`]). Quoting the
            // subcommand changes nothing (`git 'diff'` runs, `git 'diff' -v` asks).
            if argv
                .iter()
                .skip(2)
                .take_while(|a| **a != "--")
                .any(|a| a.starts_with('-') && !git_option_ok(subcommand, a))
            {
                return Err(NotReadOnly::NotInSet);
            }
            if !ok
                || argv
                    .iter()
                    .any(|a| a.starts_with("--output") || a.starts_with("--ext-diff"))
            {
                return Err(NotReadOnly::NotInSet);
            }
            if words.iter().any(|w| w.unquoted_glob) {
                return Err(NotReadOnly::UnquotedGlob);
            }
            Ok(true)
        }
        "find" => {
            if words.iter().skip(1).any(|w| w.unquoted_glob) {
                return Err(NotReadOnly::UnquotedGlob);
            }
            Ok(false)
        }
        // Recorded: `docker ps` runs without a rule; the other listing forms are inferred.
        // `docker -H`/`--context` (another daemon) still prompt (§2.5).
        "docker" => match argv.get(1).copied() {
            Some("ps" | "images" | "logs") => Ok(false),
            Some("inspect" | "version") => Ok(true),
            _ => Err(NotReadOnly::NotInSet),
        },
        // Recorded: `sed -n 1p a.txt` runs without a rule. Without `-i` and with a script that
        // has no `w`/`e` (write, execute) in it, other `-n` scripts are read-only too (inferred).
        "sed"
            if argv.contains(&"-n")
                && !argv
                    .iter()
                    .any(|a| a.starts_with("-i") || a.starts_with("--in-place")) =>
        {
            let script = argv.iter().skip(1).find(|a| !a.starts_with('-'));
            match script {
                Some(s) if s.contains('w') || s.contains('e') => Err(NotReadOnly::NotInSet),
                Some(s) => Ok(!s
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == 'p' || c == ',')),
                None => Err(NotReadOnly::NotInSet),
            }
        }
        // `sort -o FILE` writes.
        "sort"
            if argv
                .iter()
                .any(|a| a.starts_with("-o") || a.starts_with("--output")) =>
        {
            Err(NotReadOnly::NotInSet)
        }
        p if READ_ONLY.contains(&p) || READ_ONLY_RECORDED.contains(&p) => Ok(false),
        p if READ_ONLY_INFERRED.contains(&p) => Ok(true),
        _ => Err(NotReadOnly::NotInSet),
    }
}

/// The exec wrapper this subcommand is, if any: `watch`, `setsid`, `ionice`, `flock`, or
/// `find` with `-exec`/`-execdir`/`-ok`/`-delete` (§2.3).
pub fn exec_wrapper(sub: &Sub) -> Option<String> {
    let argv = sub.argv();
    let program = *argv.first()?;
    if EXEC_WRAPPERS.contains(&program) {
        return Some(program.to_string());
    }
    if program == "find" {
        if let Some(a) = argv
            .iter()
            .find(|a| matches!(**a, "-exec" | "-execdir" | "-ok" | "-okdir" | "-delete"))
        {
            return Some(format!("find {a}"));
        }
    }
    None
}

/// A file a subcommand names, and how it uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileTarget {
    /// The path as written (unquoted).
    pub path: String,
    /// Written (Edit rules) or only read (Read rules).
    pub write: bool,
    /// It is a redirection target (rather than a command argument).
    pub redirect: bool,
    /// Written with `~` or a glob or an expansion: cannot be resolved, needs approval.
    pub unresolvable: bool,
}

/// Read-only commands whose operands CLI 2.1.332 was recorded checking against the working
/// directories (`cat /etc/hosts`, `ls /etc`, `grep root /etc/passwd`, `sort /etc/hosts`,
/// `wc -l /etc/hosts`, `head -n 1 /etc/hosts`, `stat`, `file`, `cut`, `rg`, `jq`, `tail`,
/// `find`, `diff`, `cp` ask, even under `Bash(cat *)`); the others of [`read_operands`] are
/// inferred. `echo /etc/hosts`, `npm test /etc/hosts`, `du -sh /etc`, `tree /etc` and
/// `readlink /etc/hosts` run.
pub const PATH_CHECKED_RECORDED: [&str; 15] = [
    "cat", "ls", "grep", "sort", "wc", "head", "stat", "file", "cut", "rg", "jq", "tail", "find",
    "diff", "cp",
];

/// The paths a read-only command reads, which must lie inside the working directories (or be
/// covered by a `Read` allow rule): every operand of `ls`, `wc`, `sort`, `stat`, `diff`,
/// `file`, `cut`… and the leading paths of `find`, the operands after the pattern of
/// `rg`/`jq`. `cat`, `head`, `tail`, `grep` and `cp` name theirs in [`file_targets`].
pub fn read_operands(sub: &Sub) -> Vec<&Word> {
    let words = sub.words();
    let Some(program) = words.first().map(|w| w.value.as_str()) else {
        return Vec::new();
    };
    let args = &words[1..];
    let operands = || args.iter().filter(|w| !w.value.starts_with('-'));
    match program {
        "ls" | "wc" | "sort" | "stat" | "diff" | "file" | "cut" | "nl" | "tac" | "rev" | "comm"
        | "cmp" => operands().collect(),
        "find" => args
            .iter()
            .take_while(|w| !w.value.starts_with('-') && w.value != "(" && w.value != "!")
            .collect(),
        "rg" | "jq" => operands().skip(1).collect(),
        _ => Vec::new(),
    }
}

/// Special files never checked as redirect targets.
const UNCHECKED_TARGETS: [&str; 4] = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"];

/// The files a subcommand reads or writes that Claude Code checks against Read/Edit rules:
/// redirection targets, `tee` targets and the file arguments of `cat`, `head`, `tail`, `sed`
/// (§2.6). Commands that read without naming a file (`grep -r KEY .`) name nothing here.
pub fn file_targets(sub: &Sub) -> Vec<FileTarget> {
    let mut out = Vec::new();
    for r in &sub.cmd.redirects {
        let write = match r.kind {
            RedirectKind::Output => true,
            RedirectKind::Input => false,
            _ => continue,
        };
        let Some(t) = &r.target else { continue };
        if UNCHECKED_TARGETS.contains(&t.value.as_str()) {
            continue;
        }
        out.push(target(t, write, true));
    }
    let words = sub.words();
    let Some(program) = words.first().map(|w| w.value.as_str()) else {
        return out;
    };
    let args = &words[1..];
    match program {
        "cat" | "head" | "tail" => {
            let mut skip_next = false;
            for w in args {
                if skip_next {
                    skip_next = false;
                    continue;
                }
                if w.value.starts_with('-') && w.value != "-" {
                    // `head -n 5 f`: the option's value is not a file.
                    skip_next = program != "cat"
                        && matches!(w.value.as_str(), "-n" | "-c" | "--lines" | "--bytes");
                    continue;
                }
                out.push(target(w, false, false));
            }
        }
        "tee" => {
            for w in args.iter().filter(|w| !w.value.starts_with('-')) {
                out.push(target(w, true, false));
            }
        }
        // Recorded (CLI 2.1.332): `grep KEY .env` and `cp .env /tmp/x` are denied by
        // `Read(./.env)`; `less .env` is not (the mode decides).
        "grep" | "egrep" | "fgrep" => {
            let files = operands_after_script(
                args,
                &["-e", "-f", "--regexp", "--file"],
                &["-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file"],
                true,
            );
            out.extend(files.map(|w| target(w, false, false)));
        }
        "cp" => {
            let files: Vec<&Word> = args.iter().filter(|w| !w.value.starts_with('-')).collect();
            if let Some((_, sources)) = files.split_last() {
                for w in sources {
                    out.push(target(w, false, false));
                }
            }
        }
        "sed" => {
            let in_place = args
                .iter()
                .any(|w| w.value.starts_with("-i") || w.value.starts_with("--in-place"));
            let flags = ["-e", "-f", "--expression", "--file"];
            let files = operands_after_script(args, &flags, &flags, false);
            out.extend(files.map(|w| target(w, in_place, false)));
        }
        _ => {}
    }
    out
}

/// The file operands of a command whose first operand is a script or pattern (`grep PATTERN
/// FILE…`, `sed SCRIPT FILE…`): flags are skipped (and the value after one of `value_flags`),
/// and the first operand is skipped too unless one of `script_flags` already gave the
/// script. `dash_is_file`: a lone `-` (stdin) is an operand, as grep reads it.
fn operands_after_script<'a>(
    args: &'a [Word],
    script_flags: &'a [&'a str],
    value_flags: &'a [&'a str],
    dash_is_file: bool,
) -> impl Iterator<Item = &'a Word> + 'a {
    let mut script_seen = args
        .iter()
        .any(|w| script_flags.contains(&w.value.as_str()));
    let mut skip_next = false;
    args.iter().filter(move |w| {
        if skip_next {
            skip_next = false;
            return false;
        }
        if w.value.starts_with('-') && !(dash_is_file && w.value == "-") {
            skip_next = value_flags.contains(&w.value.as_str());
            return false;
        }
        if !script_seen {
            script_seen = true;
            return false;
        }
        true
    })
}

fn target(w: &Word, write: bool, redirect: bool) -> FileTarget {
    FileTarget {
        path: w.value.clone(),
        write,
        redirect,
        unresolvable: w.value.starts_with('~') || w.unquoted_glob || w.expansion,
    }
}

/// The path arguments of an acceptEdits filesystem command (`mkdir touch rm rmdir mv cp sed`),
/// or `None` when the subcommand is not one.
pub fn accept_edits_paths(sub: &Sub) -> Option<Vec<&Word>> {
    let words = sub.words();
    let program = words.first()?.value.as_str();
    if !ACCEPT_EDITS_COMMANDS.contains(&program) {
        return None;
    }
    let mut paths = Vec::new();
    let mut script_seen = program != "sed"
        || words
            .iter()
            .any(|w| matches!(w.value.as_str(), "-e" | "-f" | "--expression"));
    let mut skip_next = false;
    for w in &words[1..] {
        if skip_next {
            skip_next = false;
            continue;
        }
        if w.value.starts_with('-') {
            skip_next = program == "sed" && matches!(w.value.as_str(), "-e" | "-f");
            continue;
        }
        if !script_seen {
            script_seen = true;
            continue;
        }
        paths.push(w);
    }
    Some(paths)
}

/// PowerShell aliases canonicalised before matching (§2.1): `gci` hits
/// `PowerShell(Get-ChildItem *)`.
pub const POWERSHELL_ALIASES: [(&str, &str); 24] = [
    ("gci", "Get-ChildItem"),
    ("ls", "Get-ChildItem"),
    ("dir", "Get-ChildItem"),
    ("gc", "Get-Content"),
    ("cat", "Get-Content"),
    ("type", "Get-Content"),
    ("rm", "Remove-Item"),
    ("del", "Remove-Item"),
    ("ri", "Remove-Item"),
    ("rmdir", "Remove-Item"),
    ("rd", "Remove-Item"),
    ("erase", "Remove-Item"),
    ("cp", "Copy-Item"),
    ("copy", "Copy-Item"),
    ("mv", "Move-Item"),
    ("move", "Move-Item"),
    ("cd", "Set-Location"),
    ("sl", "Set-Location"),
    ("pwd", "Get-Location"),
    ("echo", "Write-Output"),
    ("iwr", "Invoke-WebRequest"),
    ("irm", "Invoke-RestMethod"),
    ("iex", "Invoke-Expression"),
    ("sls", "Select-String"),
];

/// Splits a PowerShell command on `|`, `;`, `&&`, `||` (outside quotes) and canonicalises the
/// first word's alias. Returns `None` for an unclosed quote or a dangling operator.
///
/// ```
/// use permlab_core::claude_code::bash::powershell_parts;
/// assert_eq!(powershell_parts("gci . | sls foo").unwrap(),
///            ["Get-ChildItem .", "Select-String foo"]);
/// ```
pub fn powershell_parts(command: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = command.chars().peekable();
    let mut dangling = false;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            current.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                current.push(c);
            }
            '|' | ';' | '&' | '\n' => {
                if (c == '|' && chars.peek() == Some(&'|'))
                    || (c == '&' && chars.peek() == Some(&'&'))
                {
                    chars.next();
                } else if c == '&' {
                    current.push(c);
                    continue;
                }
                parts.push(std::mem::take(&mut current));
                dangling = c != ';' && c != '\n';
                continue;
            }
            _ => current.push(c),
        }
        if !c.is_whitespace() {
            dangling = false;
        }
    }
    if quote.is_some() || dangling {
        return None;
    }
    parts.push(current);
    Some(
        parts
            .into_iter()
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (head, rest) = match p.find(char::is_whitespace) {
                    Some(k) => (&p[..k], &p[k..]),
                    None => (p.as_str(), ""),
                };
                match POWERSHELL_ALIASES
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(head))
                {
                    Some((_, canonical)) => format!("{canonical}{rest}"),
                    None => p.clone(),
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! pat {
        ($p:expr, $t:expr, $want:expr) => {
            assert_eq!(
                CommandPattern::new($p, false).matches($t),
                $want,
                "{} vs {}",
                $p,
                $t
            )
        };
    }

    #[test]
    fn documented_pattern_corners() {
        pat!("npm run build", "npm run build", true);
        pat!("npm run build", "npm run build --watch", false);
        pat!("* --version", "node --version", true);
        pat!("git * main", "git checkout main", true);
        pat!("ls *", "ls", true);
        pat!("npm run *", "npm run", true);
        pat!("git push *", "git push", true);
        pat!("* --help *", "npm --help", false);
        pat!("* --help *", "npm --help install", true);
        pat!("ls *", "lsof", false);
        pat!("ls*", "lsof", true);
        pat!("npm run test *", "npm run test:unit", false);
        pat!("git log * main", "git log main", false);
        pat!("ls:*", "ls", true);
        pat!("ls:*", "ls -la", true);
        pat!("git:* push", "git push", false);
        pat!("git:* push", "git:x push", true);
        pat!(
            "curl http://github.com/ *",
            "curl -X GET http://github.com/x",
            false
        );
        pat!(
            "python -m unittest*",
            "python -m unittest -v test_x.py",
            true
        );
        pat!("* foo", "foo", false); // a leading `* ` is never optional
        pat!("Git push *", "git push", false); // case-sensitive
    }

    #[test]
    fn wrappers_are_stripped() {
        let cases = [
            ("timeout 30 npm test", "npm test"),
            ("nice -n 10 npm test", "npm test"),
            ("nice npm test", "npm test"),
            ("nohup npm test", "npm test"),
            ("time -p npm test", "npm test"),
            ("stdbuf -oL npm test", "npm test"),
            ("command npm test", "npm test"),
            ("command -v npm", "command -v npm"),
            ("builtin echo x", "echo x"),
            ("noglob ls *", "ls *"),
            ("xargs grep pattern", "grep pattern"),
            ("xargs -n1 grep x", "xargs -n1 grep x"),
            ("nocorrect ls", "nocorrect ls"),
            ("timeout 5s nice -n 2 npm test", "npm test"),
            ("FOO=bar rm -rf tmp/", "rm -rf tmp/"),
            ("direnv exec . rm x", "direnv exec . rm x"),
        ];
        for (src, want) in cases {
            let p = shell::parse(src);
            let s = analyse(src, &p.commands[0]);
            assert_eq!(s.stripped, want, "{src}");
        }
    }

    /// What deny and ask rules see in CLI 2.1.332 (recorded): the program's name without its
    /// path, the argv without quotes, past `exec`/`env`/`sudo`.
    #[test]
    fn normalised_text_for_deny_rules() {
        let cases = [
            ("/usr/bin/curl https://x", "curl https://x"),
            ("./rm -rf build", "rm -rf build"),
            ("\"rm\" -rf build", "rm -rf build"),
            ("\\rm -rf build", "rm -rf build"),
            ("cu''rl x", "curl x"),
            ("git 'push' origin main", "git push origin main"),
            ("env -i FOO=1 rm x", "rm x"),
            ("sudo -u root rm x", "rm x"),
            ("exec curl x", "curl x"),
            ("timeout 5 /bin/rm x", "rm x"),
            ("git -C . push", "git -C . push"),
            ("sh -c 'curl x'", "sh -c curl x"),
        ];
        for (src, want) in cases {
            let p = shell::parse(src);
            assert_eq!(analyse(src, &p.commands[0]).normalized, want, "{src}");
        }
        let deny = CommandPattern::new("curl *", false);
        assert!(!deny.matches(
            &analyse(
                "sh -c 'curl x'",
                &shell::parse("sh -c 'curl x'").commands[0]
            )
            .normalized
        ));
    }

    #[test]
    fn safe_env_only_for_allow() {
        for (src, safe) in [
            ("NODE_ENV=test npm test", true),
            ("FOO=bar npm test", false),
            ("LANG=C NO_COLOR=1 x", true),
            ("TZ=UTC LC_ALL=C x", true),
            ("NODE_OPTIONS=--inspect x", false),
        ] {
            let p = shell::parse(src);
            assert_eq!(
                analyse(src, &p.commands[0]).env_safe_for_allow,
                safe,
                "{src}"
            );
        }
    }

    #[test]
    fn read_only_set() {
        let cases = [
            ("ls *.ts", true),
            ("git status", true),
            ("git branch", true),
            ("git branch -D x", false),
            ("git push", false),
            // Recorded, CLI 2.1.332: a larger set than the docs'.
            ("lsof -i", true),
            ("ps aux", true),
            ("git remote -v", true),
            ("git remote add o u", false),
            ("git branch -a", true),
            ("node -v", true),
            ("python3 --version", true),
            ("npm --version", false),
            ("printenv", false),
            ("docker ps", true),
            ("docker run x", false),
            ("sort a.txt", true),
            ("sort -o out a.txt", false),
            ("find . -name '*.o'", true),
            ("find . -name *.o", false),
            ("find . -delete", false),
            ("PATH=/tmp ls", false),
            ("grep -r KEY .", true),
            ("ls //server/share", false),
            ("cat '\\\\server\\share\\x'", false),
        ];
        for (src, want) in cases {
            let p = shell::parse(src);
            let s = analyse(src, &p.commands[0]);
            assert_eq!(read_only(&s).is_ok(), want, "{src}");
        }
    }

    #[test]
    fn file_commands_name_their_targets() {
        let src = "cat -n .env secrets/a";
        let p = shell::parse(src);
        let t = file_targets(&analyse(src, &p.commands[0]));
        assert_eq!(
            t.iter().map(|t| t.path.as_str()).collect::<Vec<_>>(),
            [".env", "secrets/a"]
        );
        let src = "echo x > out.txt 2>&1";
        let p = shell::parse(src);
        let t = file_targets(&analyse(src, &p.commands[0]));
        assert_eq!(t.len(), 1);
        assert!(t[0].write && t[0].redirect);
        let src = "sed -i 's/a/b/' src/app.ts";
        let p = shell::parse(src);
        let t = file_targets(&analyse(src, &p.commands[0]));
        assert_eq!(t[0].path, "src/app.ts");
        assert!(t[0].write);
    }

    #[test]
    fn powershell_split_and_aliases() {
        assert_eq!(
            powershell_parts("gci; rm x && echo y").unwrap(),
            ["Get-ChildItem", "Remove-Item x", "Write-Output y"]
        );
        assert!(powershell_parts("gci |").is_none());
        assert!(powershell_parts("echo 'x").is_none());
    }
}
