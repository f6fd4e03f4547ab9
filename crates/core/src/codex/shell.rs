//! codex-core's shell-wrapper splitting (`commands_for_exec_policy`), which execpolicy itself
//! never does.
//!
//! When the model runs `["bash", "-lc", "git status && rm -rf build"]`, codex-core parses the
//! script with tree-sitter-bash and, if it is nothing but plain word commands joined by `&&`,
//! `||`, `;`, `|` or newlines, checks each command on its own (`[git status]`, `[rm -rf build]`).
//! Anything else — a redirect, `$VAR`, `$(…)`, a subshell, `VAR=1 cmd`, `&`, a quoted command
//! name, a comment — keeps the whole argv as one command, which only `bash` rules can match.
//! One more path: a script that is a single literal command with a heredoc yields that
//! command's words alone and sets `used_complex_parsing`.
//!
//! permlab does not embed tree-sitter (it would dwarf the wasm). This module is a small
//! hand-written recogniser for exactly the shapes the real code accepts; anything it does not
//! recognise is treated as "not plain", the same safe fallback the real code takes. Word text
//! is taken as tree-sitter gives it: raw for unquoted words (backslashes kept), the inside of
//! `"…"` and `'…'` without unescaping.
//!
//! The recogniser is checked against tree-sitter-bash 0.25.1 itself on 1,564 scripts
//! (`fixtures/codex/shell-split-oracle.json`, computed offline with the real grammar), which is
//! how its quirks below were found — they are the grammar's, kept on purpose:
//! - a line continuation (`\` + newline) separates words, and `\r`, vertical tab and form feed
//!   are blanks;
//! - `then`, `fi`, `done`, `time`, `}` are ordinary command names; `if`, `for`, `[`, `!`,
//!   `export`… are not;
//! - `{1..3}` is a brace expression (not plain), `{a..c}` and `{a,b}` are words;
//! - a heredoc ends at the first line that *starts* with its delimiter, and everything after
//!   `<<EOF` on its own line belongs to the redirect (`cat <<EOF foo` → `[cat]`); a lone `-`
//!   right before `<<` is not an argument (`python3 - <<'PY'` → `[python3]`).

use super::policy::{Check, Decision, MatchOptions, Policy, RuleMatch};

/// What codex-core hands to the policy for one argv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecPolicyCommands {
    /// The commands checked: the split script, or the original argv alone.
    pub commands: Vec<Vec<String>>,
    /// Set only by the single-command-heredoc path; disables auto-amendments in codex-core.
    pub used_complex_parsing: bool,
}

/// codex-core's `commands_for_exec_policy`.
///
/// ```
/// use permlab_core::codex::shell::commands_for_exec_policy;
/// let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let split = commands_for_exec_policy(&argv(&["bash", "-lc", "git status && ls -la"]));
/// assert_eq!(split.commands, [argv(&["git", "status"]), argv(&["ls", "-la"])]);
/// let whole = commands_for_exec_policy(&argv(&["bash", "-lc", "echo $HOME"]));
/// assert_eq!(whole.commands, [argv(&["bash", "-lc", "echo $HOME"])]);
/// ```
pub fn commands_for_exec_policy(command: &[String]) -> ExecPolicyCommands {
    if let Some(script) = extract_shell_script(command) {
        if let Some(commands) = parse_plain_script(script) {
            if !commands.is_empty() {
                return ExecPolicyCommands {
                    commands,
                    used_complex_parsing: false,
                };
            }
        }
        if let Some(single) = parse_heredoc_single_command(script) {
            return ExecPolicyCommands {
                commands: vec![single],
                used_complex_parsing: true,
            };
        }
    }
    ExecPolicyCommands {
        commands: vec![command.to_vec()],
        used_complex_parsing: false,
    }
}

/// The script of `[shell, -lc|-c, script]` when `shell` is bash, zsh or sh (or a path to one).
/// Any other shape (`bash -x -c …`, `fish -c …`) is not a wrapper.
pub fn extract_shell_script(command: &[String]) -> Option<&str> {
    let [shell, flag, script] = command else {
        return None;
    };
    if !matches!(flag.as_str(), "-lc" | "-c") || !is_posix_shell(shell) {
        return None;
    }
    Some(script)
}

/// `detect_shell_type`: the name itself, else its file stem, repeatedly (`/bin/bash`,
/// `bash.exe`).
fn is_posix_shell(path: &str) -> bool {
    let mut name = path.to_string();
    loop {
        if matches!(name.as_str(), "bash" | "zsh" | "sh") {
            return true;
        }
        let Some(stem) = file_stem(&name) else {
            return false;
        };
        if stem == name {
            return false;
        }
        name = stem;
    }
}

fn file_stem(path: &str) -> Option<String> {
    let name = path.trim_end_matches('/').rsplit('/').next()?;
    if name.is_empty() || name == ".." || name == "." {
        return None;
    }
    match name.rfind('.') {
        Some(0) | None => Some(name.to_string()),
        Some(i) => Some(name[..i].to_string()),
    }
}

/// One shell token as far as the recogniser cares.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(Word),
    /// `&&`, `||`, `;`, `|`, newline, and the rejected `&`, `;;`, `|&`, `(`, `)`.
    Op(&'static str),
    /// `>`, `<`, `>>`, `&>`, `<<<`… with its target (never plain).
    Redirect,
    /// `<<EOF` / `<<-EOF`, where it starts (the rest of its line is part of the redirect).
    HeredocStart,
    /// A heredoc body; `subst` when an unquoted body contains `$(` (a command substitution,
    /// i.e. more commands).
    Heredoc {
        subst: bool,
    },
    Comment,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Word {
    /// The word as tree-sitter's text extraction gives it.
    text: String,
    /// A single unquoted part (tree-sitter `word`), as opposed to a string or concatenation.
    literal: bool,
    /// Contains `$…` or a backtick: an expansion node, never plain.
    expansion: bool,
    /// Some part was quoted (a `string`/`raw_string` node).
    quoted: bool,
    /// How many parts (more than one: a tree-sitter `concatenation`).
    parts: usize,
}

const METACHARS: &str = " \t\n\r\x0b\x0c|&;()<>";

/// tree-sitter-bash's whitespace: also `\r`, vertical tab and form feed (not U+00A0).
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\x0b' | '\x0c')
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    // (delimiter, strip leading tabs, quoted delimiter)
    let mut pending_heredocs: Vec<(String, bool, bool)> = Vec::new();
    let at = |i: usize| chars.get(i).copied();
    let mut last = usize::MAX;
    while i < chars.len() {
        // Every pass consumes input; anything else would be a bug, never an endless loop.
        if i == last {
            return None;
        }
        last = i;
        let c = chars[i];
        match c {
            c if is_blank(c) => i += 1,
            // A line continuation separates words (tree-sitter treats it as whitespace).
            '\\' if at(i + 1) == Some('\n') => i += 2,
            '\n' => {
                i += 1;
                out.push(Tok::Op("\n"));
                // Heredoc bodies start on the next line. tree-sitter ends one at the first
                // line that *starts* with the delimiter (after blanks); the rest of that line
                // is read as shell again (`EOF;` is fine, `EOF x` is a second command). A body
                // that never ends is an error, and so are two heredocs on one line.
                let pending = std::mem::take(&mut pending_heredocs);
                if pending.len() > 1 {
                    return None;
                }
                for (delim, _strip, quoted) in pending {
                    let mut subst = false;
                    let mut closed = false;
                    while i < chars.len() {
                        let end = chars[i..]
                            .iter()
                            .position(|c| *c == '\n')
                            .map_or(chars.len(), |p| i + p);
                        let blanks = chars[i..end].iter().take_while(|c| is_blank(**c)).count();
                        let rest: String = chars[i + blanks..end].iter().collect();
                        if rest.starts_with(delim.as_str()) {
                            i += blanks + delim.chars().count();
                            closed = true;
                            break;
                        }
                        // `$(…)` in an unquoted body is a command substitution: more commands.
                        // (Backticks are not parsed there; an escaped `\$(` still counts.)
                        if !quoted && rest.contains("$(") {
                            subst = true;
                        }
                        // A `$` ending an unquoted body line is a parse error there.
                        if !quoted && chars[i..end].last() == Some(&'$') {
                            return None;
                        }
                        i = (end + 1).min(chars.len());
                    }
                    if !closed {
                        return None;
                    }
                    out.push(Tok::Heredoc { subst });
                }
            }
            // Reached between words only (a `#` inside a word is read by `word`): a comment.
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                out.push(Tok::Comment);
            }
            '&' | '|' | ';' | '(' | ')' => {
                let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
                let op = match two.as_str() {
                    "&&" => "&&",
                    "||" => "||",
                    ";;" => ";;",
                    "|&" => "|&",
                    "&>" => {
                        i += 2;
                        if at(i) == Some('>') {
                            i += 1;
                        }
                        skip_target(&chars, &mut i)?;
                        out.push(Tok::Redirect);
                        continue;
                    }
                    _ => match c {
                        '&' => "&",
                        '|' => "|",
                        ';' => ";",
                        '(' => "(",
                        _ => ")",
                    },
                };
                i += op.len();
                out.push(Tok::Op(op));
            }
            '<' | '>' => {
                if c == '<' && at(i + 1) == Some('<') && at(i + 2) != Some('<') {
                    i += 2;
                    let strip = at(i) == Some('-');
                    if strip {
                        i += 1;
                    }
                    while at(i).is_some_and(is_blank) {
                        i += 1;
                    }
                    let w = word(&chars, &mut i)?;
                    if (w.text.is_empty() && !w.quoted) || (w.quoted && w.parts > 1) {
                        // No delimiter, or a partly quoted one (`E"F"`): a parse error there.
                        return None;
                    }
                    // tree-sitter quirk: a lone `-` right before `<<` is not an argument.
                    if matches!(out.last(), Some(Tok::Word(w)) if w.literal && w.text == "-") {
                        out.pop();
                    }
                    pending_heredocs.push((w.text, strip, w.quoted));
                    out.push(Tok::HeredocStart);
                    // The rest of the line up to an operator belongs to the heredoc redirect.
                    loop {
                        let before = i;
                        while at(i).is_some_and(is_blank) {
                            i += 1;
                        }
                        if at(i) == Some('\\') && at(i + 1) == Some('\n') {
                            i += 2;
                            continue;
                        }
                        match at(i) {
                            None | Some('\n' | '#' | '&' | '|' | ';' | '(' | ')') => break,
                            Some('<' | '>') => {
                                while matches!(at(i), Some('<' | '>' | '&')) {
                                    i += 1;
                                }
                                skip_target(&chars, &mut i)?;
                            }
                            Some(_) => {
                                word(&chars, &mut i)?;
                            }
                        }
                        // Every pass must consume input (no endless loop on odd text).
                        if i == before {
                            return None;
                        }
                    }
                } else {
                    while matches!(at(i), Some('<') | Some('>') | Some('&') | Some('|')) {
                        i += 1;
                    }
                    skip_target(&chars, &mut i)?;
                    out.push(Tok::Redirect);
                }
            }
            _ => {
                // A file descriptor glued to a redirect (`2>`) belongs to the redirect.
                if c.is_ascii_digit() {
                    let mut j = i;
                    while at(j).is_some_and(|d| d.is_ascii_digit()) {
                        j += 1;
                    }
                    if matches!(at(j), Some('<') | Some('>')) {
                        i = j;
                        continue;
                    }
                }
                out.push(Tok::Word(word(&chars, &mut i)?));
            }
        }
    }
    if !pending_heredocs.is_empty() {
        // A heredoc whose body never started: tree-sitter reports an error.
        return None;
    }
    Some(out)
}

fn skip_target(chars: &[char], i: &mut usize) -> Option<()> {
    while chars.get(*i).copied().is_some_and(is_blank) {
        *i += 1;
    }
    let w = word(chars, i)?;
    if w.text.is_empty() && !w.quoted {
        return None;
    }
    Some(())
}

/// Whether `chars[i..]` starts a numeric brace range (`{1..3}`, `{01..}`): a tree-sitter
/// `brace_expression` (or an error), never a plain word. `{a..c}` and `{1..3..2}` are words.
fn brace_range_at(chars: &[char], i: usize) -> bool {
    let mut j = i + 1;
    let digits = |j: &mut usize| {
        let start = *j;
        while chars.get(*j).is_some_and(char::is_ascii_digit) {
            *j += 1;
        }
        *j > start
    };
    if !digits(&mut j) || chars.get(j) != Some(&'.') || chars.get(j + 1) != Some(&'.') {
        return false;
    }
    j += 2;
    digits(&mut j);
    chars.get(j) == Some(&'}')
}

/// Reads one word (unquoted parts, `"…"`, `'…'`); `None` on an unclosed quote or a trailing
/// backslash.
fn word(chars: &[char], i: &mut usize) -> Option<Word> {
    let mut w = Word {
        text: String::new(),
        literal: true,
        expansion: false,
        quoted: false,
        parts: 0,
    };
    let mut parts = 0;
    let mut in_plain = false;
    while let Some(&c) = chars.get(*i) {
        if METACHARS.contains(c) {
            break;
        }
        match c {
            '"' => {
                in_plain = false;
                parts += 1;
                w.quoted = true;
                *i += 1;
                loop {
                    let c = *chars.get(*i)?;
                    *i += 1;
                    match c {
                        '"' => break,
                        '\\' => {
                            let n = *chars.get(*i)?;
                            *i += 1;
                            w.text.push('\\');
                            w.text.push(n);
                        }
                        '$' | '`' => {
                            w.expansion = true;
                            w.text.push(c);
                        }
                        c => w.text.push(c),
                    }
                }
            }
            '\'' => {
                in_plain = false;
                parts += 1;
                w.quoted = true;
                *i += 1;
                loop {
                    let c = *chars.get(*i)?;
                    *i += 1;
                    if c == '\'' {
                        break;
                    }
                    w.text.push(c);
                }
            }
            '\\' => {
                match chars.get(*i + 1) {
                    // A line continuation ends the word.
                    Some('\n') => break,
                    None => return None,
                    // An escaped blank ending the script is a parse error there.
                    Some(&n) if is_blank(n) && *i + 2 == chars.len() => return None,
                    Some(&n) => {
                        if !in_plain {
                            parts += 1;
                            in_plain = true;
                        }
                        w.text.push('\\');
                        w.text.push(n);
                        *i += 2;
                    }
                }
            }
            '$' | '`' => {
                w.expansion = true;
                w.text.push(c);
                *i += 1;
            }
            c => {
                if c == '{' && brace_range_at(chars, *i) {
                    w.expansion = true;
                }
                if !in_plain {
                    parts += 1;
                    in_plain = true;
                }
                w.text.push(c);
                *i += 1;
            }
        }
    }
    w.parts = parts;
    w.literal = parts == 1 && !w.quoted && !w.expansion;
    Some(w)
}

/// Words that make a command something other than a plain command in tree-sitter-bash.
/// (Checked against the grammar: `then`, `fi`, `done`, `time`, `}`… are plain command names
/// there.)
const RESERVED: &[&str] = &[
    "if", "for", "while", "until", "case", "function", "select", "{", "!", "[[", "]]", "[", "((",
    "))", "declare", "local", "export", "readonly", "typeset", "unset",
];

/// A variable assignment (`NAME=…`, `NAME+=…`, `NAME[i]=…`) in command position.
fn is_assignment(w: &str) -> bool {
    let name_end = w
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(w.len(), |(i, _)| i);
    // `1x=2` is not a valid name, but tree-sitter still refuses it as a command: same result.
    if name_end == 0 {
        return false;
    }
    let rest = &w[name_end..];
    rest.starts_with('=') || rest.starts_with("+=") || rest.starts_with('[')
}

/// `try_parse_word_only_commands_sequence`: `Some(commands)` when the script is only plain word
/// commands joined by `&&`, `||`, `;`, `|` and newlines.
pub fn parse_plain_script(script: &str) -> Option<Vec<Vec<String>>> {
    let toks = tokenize(script)?;
    let mut commands: Vec<Vec<String>> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    // After `&&`, `||` or `|` a command must follow (possibly after newlines).
    let mut need_command = false;
    for t in toks {
        match t {
            Tok::Word(w) => {
                if w.expansion {
                    return None;
                }
                if current.is_empty() {
                    if !w.literal || RESERVED.contains(&w.text.as_str()) || is_assignment(&w.text) {
                        return None;
                    }
                } else if w.literal && (w.text == "==" || w.text == "=~") {
                    // Test operators outside a test: a parse error there.
                    return None;
                } else if w.parts > 1 && w.text.is_empty() {
                    // An empty concatenation (`""''`) is rejected by the real code.
                    return None;
                }
                current.push(w.text);
            }
            Tok::Op(op @ ("&&" | "||" | "|" | ";")) => {
                if current.is_empty() {
                    return None;
                }
                commands.push(std::mem::take(&mut current));
                need_command = op != ";";
                continue;
            }
            Tok::Op("\n") => {
                if !current.is_empty() {
                    commands.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => return None,
        }
        need_command = false;
    }
    if need_command {
        return None;
    }
    if !current.is_empty() {
        commands.push(current);
    }
    Some(commands)
}

/// `parse_shell_lc_single_command_prefix` at the pinned commit: a script with a heredoc and
/// exactly one command whose words are all literal gives those words (the heredoc body and any
/// redirects are dropped).
pub fn parse_heredoc_single_command(script: &str) -> Option<Vec<String>> {
    let toks = tokenize(script)?;
    if !toks.iter().any(|t| matches!(t, Tok::HeredocStart)) {
        return None;
    }
    let mut words: Vec<String> = Vec::new();
    let mut commands = 0;
    let mut in_command = false;
    let mut prev: Option<&Tok> = None;
    for t in &toks {
        match t {
            Tok::Word(w) => {
                if !in_command {
                    commands += 1;
                    in_command = true;
                }
                // Only literal words (no quotes, no expansions), and a real command name.
                if !w.literal
                    || (words.is_empty()
                        && (RESERVED.contains(&w.text.as_str()) || is_assignment(&w.text)))
                {
                    return None;
                }
                if commands == 1 {
                    words.push(w.text.clone());
                }
            }
            Tok::Heredoc { subst: true } => return None,
            // A heredoc needs the command before it on its line.
            Tok::HeredocStart if !in_command => return None,
            Tok::HeredocStart | Tok::Heredoc { .. } | Tok::Redirect | Tok::Comment => {}
            Tok::Op("\n") => in_command = false,
            // `;` (even `;;`) right after a heredoc body ends the command (`EOF;`).
            Tok::Op(";" | ";;") if matches!(prev, Some(Tok::Heredoc { .. })) => in_command = false,
            // Any other operator means a second command (or a parse error): not the
            // single-command path.
            Tok::Op(_) => return None,
        }
        prev = Some(t);
    }
    if commands != 1 || words.is_empty() {
        return None;
    }
    Some(words)
}

/// One command's result inside [`ShellCheck`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandCheck {
    /// The command checked.
    pub command: Vec<String>,
    /// Its matches and strictest decision (`None`: unmatched, left to core's heuristics).
    pub check: Check,
}

/// codex-core's view of one argv: the split, each command's matches, and the aggregate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellCheck {
    /// The split and its `used_complex_parsing` flag.
    pub split: ExecPolicyCommands,
    /// One entry per split command, in order.
    pub per_command: Vec<CommandCheck>,
}

impl ShellCheck {
    /// Splits `command` as codex-core does and checks every part with host resolution on.
    pub fn run(policy: &Policy, command: &[String], cwd: Option<&str>) -> ShellCheck {
        let split = commands_for_exec_policy(command);
        let options = MatchOptions {
            resolve_host_executables: true,
            cwd: cwd.map(str::to_string),
            ..MatchOptions::default()
        };
        let per_command = split
            .commands
            .iter()
            .map(|c| CommandCheck {
                command: c.clone(),
                check: policy.check_with_options(c, &options),
            })
            .collect();
        ShellCheck { split, per_command }
    }

    /// The strictest decision over every rule match of every command (`None` if none matched).
    pub fn decision(&self) -> Option<Decision> {
        self.per_command
            .iter()
            .filter_map(|c| c.check.decision)
            .max()
    }

    /// The commands no rule matched, which core hands to its heuristics.
    pub fn unmatched_commands(&self) -> Vec<&[String]> {
        self.per_command
            .iter()
            .filter(|c| c.check.matched_rules.is_empty())
            .map(|c| c.command.as_slice())
            .collect()
    }

    /// `check_multiple` with a constant heuristics fallback: every unmatched command
    /// contributes `fallback`, then the maximum is taken.
    pub fn decision_with_fallback(&self, fallback: Decision) -> Decision {
        self.per_command
            .iter()
            .map(|c| c.check.decision.unwrap_or(fallback))
            .max()
            .unwrap_or(fallback)
    }

    /// All matches in order, across commands.
    pub fn matches(&self) -> impl Iterator<Item = &RuleMatch> {
        self.per_command
            .iter()
            .flat_map(|c| c.check.matched_rules.iter())
    }
}
