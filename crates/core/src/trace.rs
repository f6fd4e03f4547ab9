//! Reading a recorded run's tool calls as the lesson's common [`Call`]s, so that a whole run can
//! be replayed through every engine ([`crate::replay`]).
//!
//! Three JSON-lines formats are read, line by line, each line on its own (a file may even mix
//! them):
//!
//! | Format ([`Format`]) | A tool call is a line… | Example |
//! |---|---|---|
//! | `calls` | with a `"tool"` key: `{"tool": "bash", "input": "git status"}`; `input` is a string or an object | `permlab batch` input, miniagent traces |
//! | `claude-code` | `"type": "assistant"` whose `message.content[]` holds `{"type": "tool_use", "name", "input"}` items (one call per item) | `claude -p --output-format stream-json`, `~/.claude/projects/*.jsonl` transcripts |
//! | `codex-rollout` | `"type": "response_item"` whose `payload` is a `function_call` (`name`, `arguments` as a JSON string), a `custom_tool_call` (`name`, `input` string) or a `local_shell_call`; older rollouts write such an item bare on its line | `~/.codex/sessions/**/rollout-*.jsonl` |
//!
//! Every other line (a system line, a user turn, a tool result, a reasoning item…) is
//! **skipped and counted**. A line that cannot be read — invalid JSON, a call without a tool
//! name, `arguments` that are not JSON — is **reported with its line number** and the rest of
//! the file is still read: a trace with one torn line is still worth replaying.
//!
//! ## From a harness's tool to the common call
//!
//! The engines take one `(tool, input string)` pair. Tool names are mapped by the **inverse of
//! the Claude Code translation the engines already use** ([`to_tool_call`]): `Bash` → `bash`,
//! `Read` → `read_file`, `Edit` → `edit_file`, `Write` → `write_file`, `Grep` → `grep`,
//! `Glob` → `glob`, `WebFetch` → `web_fetch`, `WebSearch` → `web_search`, `Agent` → `agent`,
//! `Skill` → `skill` (for the first four this is also what
//! [`crate::import::claude_tool_row`] does with settings rules). Any other name (`TodoWrite`,
//! `mcp__…`, already-common names like `bash`) is kept as written. So replaying a
//! Claude Code call through the Claude Code engine gives back the same tool and field.
//!
//! The input string is the field that same translation fills for the tool (`command` for
//! `bash`, `file_path` for `read_file`/`edit_file`/`write_file`, `pattern` for `grep`, `url`
//! for `web_fetch`…); failing that, the object's only string member (`{"path": "x.py"}`);
//! failing that, the whole object as compact JSON (`{}`, a `TodoWrite` list…), which no
//! pattern but `*` is meant to match.
//!
//! Codex names its tools differently, and no engine module maps them, so this module does, from
//! the rollout format itself: the shell tools (`exec_command` with `cmd`, `shell` and
//! `local_shell_call` with an argv, `shell_command` with `command`) become `bash` — an argv
//! `[bash|sh|zsh, -lc|-c, script]` gives its script, as codex-core unwraps it
//! ([`extract_shell_script`]), any other argv is joined with shell quoting. `apply_patch` becomes
//! one call per file the patch touches: `*** Add File:` → `write_file`, `*** Update File:`,
//! `*** Delete File:` and `*** Move to:` → `edit_file` (every file is a separate permission
//! question for a path-based rule). Other Codex tools (`mcp__…`, `update_plan`) keep their name.
//!
//! ```
//! use permlab_core::trace::{parse, Format};
//! let t = parse(concat!(
//!     r#"{"type":"system","subtype":"init"}"#, "\n",
//!     r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"ls -la","description":"list"}}]}}"#, "\n",
//!     r#"{"tool": "read_file", "input": {"path": "a.py"}}"#, "\n",
//!     "{oops\n",
//! ));
//! let calls: Vec<String> = t.calls.iter().map(|c| c.call.to_string()).collect();
//! assert_eq!(calls, ["bash: ls -la", "read_file: a.py"]);
//! assert_eq!(t.calls[0].format, Format::ClaudeCode);
//! assert_eq!((t.calls[1].line, t.skipped), (3, 1));
//! assert_eq!(t.malformed[0].to_string(), "line 4: invalid JSON at column 2: expected a key in double quotes, found `o`");
//! ```

use std::fmt;

use crate::claude_code::table::to_tool_call;
use crate::codex::shell::extract_shell_script;
use crate::codex::shlex::try_join;
use crate::json::{self, Value};
use crate::table::Call;

/// Which format a call was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `{"tool", "input"}` lines.
    Calls,
    /// Claude Code `stream-json` output or a transcript.
    ClaudeCode,
    /// A Codex rollout.
    CodexRollout,
}

impl Format {
    /// `calls`, `claude-code`, `codex-rollout`.
    pub fn slug(self) -> &'static str {
        match self {
            Format::Calls => "calls",
            Format::ClaudeCode => "claude-code",
            Format::CodexRollout => "codex-rollout",
        }
    }
}

/// One tool call of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceCall {
    /// The 1-based line it was read from.
    pub line: usize,
    /// The line's format.
    pub format: Format,
    /// The tool's name as the trace wrote it (`Bash`, `exec_command`, `apply_patch`…).
    pub native_tool: String,
    /// The call the engines are asked about.
    pub call: Call,
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong with it, and what was expected, in English (the CLI's text).
    pub message: String,
    /// The same as data, so a page words it in its learner's language.
    pub why: Bad,
}

impl Malformed {
    fn new(line: usize, why: Bad) -> Self {
        Malformed {
            line,
            message: why.to_string(),
            why,
        }
    }
}

/// Why a trace line could not be read. `Display` says it in English.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Bad {
    /// The line is longer than [`Limits::line_bytes`] (its length, the limit).
    TooLong(usize, usize),
    /// The trace has more calls than [`Limits::calls`] (the limit): reading stopped here.
    TooManyCalls(usize),
    /// Not JSON.
    Json(json::SyntaxError),
    /// JSON, but not an object (what it is).
    NotObject(&'static str),
    /// A call line whose `tool` is not a string (what it is).
    ToolNotString(&'static str),
    /// A call line without `input`.
    NoInput,
    /// A call line whose `input` is neither a string nor an object (what it is).
    InputType(&'static str),
    /// A Codex `response_item` without `payload`.
    NoPayload,
    /// A Claude Code `assistant` line without `message.content`.
    NoContent,
    /// A Claude Code `tool_use` (its index in `message.content`) without a `name` string.
    ToolUseNoName(usize),
    /// A Codex item (its type) without a `name` string.
    NoName(String),
    /// A Codex `function_call` (its name) whose `arguments` string is not JSON.
    ArgumentsNotJson(String, json::SyntaxError),
    /// A Codex `local_shell_call` without `action.command`.
    NoShellCommand,
}

impl fmt::Display for Bad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bad::TooLong(bytes, limit) => write!(
                f,
                "this line is {bytes} bytes, more than permlab's limit of {limit} bytes for one trace line \
                 (trace::Limits::line_bytes): it was not read; raise the limit to read it"
            ),
            Bad::TooManyCalls(limit) => write!(
                f,
                "stopped reading here: the trace has more than {limit} calls, permlab's limit \
                 (trace::Limits::calls); split the trace, stream it with trace::lines, or raise the limit"
            ),
            Bad::Json(e) => write!(f, "invalid JSON at column {}: {}", e.position.column, e.message),
            Bad::NotObject(kind) => write!(f, "expected a JSON object per line, found {kind}"),
            Bad::ToolNotString(kind) => write!(f, "\"tool\" must be a string, found {kind}"),
            Bad::NoInput => f.write_str(
                "a call line needs \"input\" (a string or an object), e.g. {\"tool\": \"bash\", \"input\": \"git status\"}",
            ),
            Bad::InputType(kind) => {
                write!(f, "\"input\" must be a string or an object, found {kind}")
            }
            Bad::NoPayload => f.write_str("a response_item line without \"payload\""),
            Bad::NoContent => f.write_str("an assistant line without message.content"),
            Bad::ToolUseNoName(k) => {
                write!(f, "message.content[{k}]: a tool_use without a \"name\" string")
            }
            Bad::NoName(kind) => write!(f, "a {kind} without a \"name\" string"),
            Bad::ArgumentsNotJson(name, e) => write!(
                f,
                "{name}: \"arguments\" is not JSON (column {}: {})",
                e.position.column, e.message
            ),
            Bad::NoShellCommand => f.write_str("a local_shell_call without action.command"),
        }
    }
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A parsed trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The tool calls, in file order.
    pub calls: Vec<TraceCall>,
    /// Readable lines that hold no tool call.
    pub skipped: usize,
    /// Lines that could not be read.
    pub malformed: Vec<Malformed>,
    /// Non-blank lines in all.
    pub lines: usize,
}

impl Trace {
    /// Just the common calls, in order (what [`crate::replay::replay`] takes).
    pub fn common_calls(&self) -> Vec<Call> {
        self.calls.iter().map(|c| c.call.clone()).collect()
    }

    /// How many calls came from each format, in [`Format`] order, formats with none left out.
    pub fn formats(&self) -> Vec<(Format, usize)> {
        [Format::Calls, Format::ClaudeCode, Format::CodexRollout]
            .into_iter()
            .map(|f| (f, self.calls.iter().filter(|c| c.format == f).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// How much of a trace is read ([`parse_with_limits`], [`lines`]).
///
/// The largest line of the shared corpus is 5.7 KB and its longest trace has 18 lines; real
/// transcripts carry tool results (file contents, images as base64) and can have lines of a
/// few megabytes, hence the generous per-line default.
///
/// ```
/// use permlab_core::trace::{parse_with_limits, Limits};
/// let text = "{\"tool\": \"bash\", \"input\": \"ls\"}\n".repeat(3);
/// let t = parse_with_limits(&text, &Limits { calls: 2, ..Limits::default() });
/// assert_eq!(t.calls.len(), 2);
/// assert!(t.malformed[0].message.contains("trace::Limits::calls"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line, in bytes (8 MiB by default); a longer line is reported as malformed and
    /// not parsed.
    pub line_bytes: usize,
    /// Most calls [`parse_with_limits`] collects (1 000 000 by default); reading stops there,
    /// with a malformed entry saying so. [`lines`] streams and has no such bound.
    pub calls: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            line_bytes: 8 << 20,
            calls: 1_000_000,
        }
    }
}

/// What one non-blank line of a trace holds ([`lines`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// One or more tool calls (`apply_patch` gives one per file).
    Calls(Vec<TraceCall>),
    /// A readable line with no tool call (system line, user turn, tool result…).
    Skipped,
    /// A line that could not be read.
    Malformed(Malformed),
}

/// Reads `text` line by line, lazily: a replay of a huge trace never holds more than one
/// line's calls (see [`Limits::line_bytes`] for the per-line bound).
///
/// ```
/// use permlab_core::trace::{lines, Limits, Line};
/// let mut it = lines("{\"tool\": \"bash\", \"input\": \"ls\"}\n\n{oops\n", Limits::default());
/// assert!(matches!(it.next(), Some(Line::Calls(c)) if c[0].line == 1));
/// assert!(matches!(it.next(), Some(Line::Malformed(m)) if m.line == 3));
/// assert!(it.next().is_none());
/// ```
pub fn lines(text: &str, limits: Limits) -> Lines<'_> {
    Lines {
        inner: text.lines().enumerate(),
        names: NameMap::new(),
        limits,
    }
}

/// The iterator [`lines`] returns.
pub struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    names: NameMap,
    limits: Limits,
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        for (i, raw) in self.inner.by_ref() {
            let line = i + 1;
            let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
            if raw.trim().is_empty() {
                continue;
            }
            if raw.len() > self.limits.line_bytes {
                return Some(Line::Malformed(Malformed::new(
                    line,
                    Bad::TooLong(raw.len(), self.limits.line_bytes),
                )));
            }
            let mut found = Vec::new();
            return Some(match read_line(raw, &self.names, &mut found) {
                Err(why) => Line::Malformed(Malformed::new(line, why)),
                Ok(()) if found.is_empty() => Line::Skipped,
                Ok(()) => Line::Calls(
                    found
                        .into_iter()
                        .map(|(format, native_tool, call)| TraceCall {
                            line,
                            format,
                            native_tool,
                            call,
                        })
                        .collect(),
                ),
            });
        }
        None
    }
}

/// Reads every line of `text` (see the module docs) within the default [`Limits`]. Never
/// fails: unreadable lines are listed in [`Trace::malformed`].
pub fn parse(text: &str) -> Trace {
    parse_with_limits(text, &Limits::default())
}

/// [`parse`] within `limits`: stops collecting after [`Limits::calls`] calls.
pub fn parse_with_limits(text: &str, limits: &Limits) -> Trace {
    let mut trace = Trace::default();
    for l in lines(text, *limits) {
        trace.lines += 1;
        match l {
            Line::Malformed(m) => trace.malformed.push(m),
            Line::Skipped => trace.skipped += 1,
            Line::Calls(mut calls) => {
                if trace.calls.len() + calls.len() > limits.calls {
                    let line = calls[0].line;
                    calls.truncate(limits.calls - trace.calls.len());
                    trace.calls.extend(calls);
                    trace
                        .malformed
                        .push(Malformed::new(line, Bad::TooManyCalls(limits.calls)));
                    break;
                }
                trace.calls.extend(calls);
            }
        }
    }
    trace
}

type Found = Vec<(Format, String, Call)>;

fn read_line(raw: &str, names: &NameMap, found: &mut Found) -> Result<(), Bad> {
    let value = json::parse(raw).map_err(Bad::Json)?;
    if value.as_object().is_none() {
        return Err(Bad::NotObject(value.kind()));
    }
    if let Some(tool) = value.get("tool") {
        let tool = tool
            .as_str()
            .ok_or_else(|| Bad::ToolNotString(tool.kind()))?;
        let input = value.get("input").ok_or(Bad::NoInput)?;
        if !matches!(input, Value::String(_) | Value::Object(_)) {
            return Err(Bad::InputType(input.kind()));
        }
        found.push((
            Format::Calls,
            tool.to_string(),
            names.common_call(tool, input),
        ));
        return Ok(());
    }
    match value.get("type").and_then(Value::as_str) {
        Some("assistant") => claude_code_line(&value, names, found),
        Some("response_item") => match value.get("payload") {
            Some(payload) => codex_item(payload, names, found),
            None => Err(Bad::NoPayload),
        },
        // Older rollouts wrote the response items bare, one per line.
        Some("function_call" | "custom_tool_call" | "local_shell_call") => {
            codex_item(&value, names, found)
        }
        _ => Ok(()),
    }
}

fn claude_code_line(value: &Value, names: &NameMap, found: &mut Found) -> Result<(), Bad> {
    let Some(content) = value.get("message").and_then(|m| m.get("content")) else {
        return Err(Bad::NoContent);
    };
    // A plain-text assistant message may carry its content as a string.
    let Some(items) = content.as_array() else {
        return Ok(());
    };
    for (k, item) in items.iter().enumerate() {
        if item.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let name = item
            .get("name")
            .and_then(Value::as_str)
            .ok_or(Bad::ToolUseNoName(k))?;
        let input = item.get("input").cloned().unwrap_or(Value::Object(vec![]));
        found.push((
            Format::ClaudeCode,
            name.to_string(),
            names.common_call(name, &input),
        ));
    }
    Ok(())
}

fn codex_item(payload: &Value, names: &NameMap, found: &mut Found) -> Result<(), Bad> {
    let kind = payload.get("type").and_then(Value::as_str);
    let name = || {
        payload
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| Bad::NoName(kind.unwrap_or("call").to_string()))
    };
    let mut push = |native: &str, call: Call| {
        found.push((Format::CodexRollout, native.to_string(), call));
    };
    match kind {
        Some("function_call") => {
            let name = name()?;
            let arguments = match payload.get("arguments") {
                Some(Value::String(s)) => {
                    json::parse(s).map_err(|e| Bad::ArgumentsNotJson(name.to_string(), e))?
                }
                Some(other) => other.clone(),
                None => Value::Object(vec![]),
            };
            let shell = match name {
                "exec_command" => arguments.get("cmd"),
                "shell" | "shell_command" | "container.exec" => arguments.get("command"),
                _ => None,
            };
            match shell {
                Some(command) => push(name, Call::new("bash", shell_text(command))),
                None => push(name, names.common_call(name, &arguments)),
            }
        }
        Some("custom_tool_call") => {
            let name = name()?;
            let input = payload.get("input").cloned().unwrap_or(Value::from(""));
            match (name, input.as_str()) {
                ("apply_patch", Some(patch)) if !patch_files(patch).is_empty() => {
                    for (tool, path) in patch_files(patch) {
                        push(name, Call::new(tool, path));
                    }
                }
                _ => push(name, names.common_call(name, &input)),
            }
        }
        Some("local_shell_call") => {
            let command = payload
                .get("action")
                .and_then(|a| a.get("command"))
                .ok_or(Bad::NoShellCommand)?;
            push("local_shell_call", Call::new("bash", shell_text(command)));
        }
        _ => {}
    }
    Ok(())
}

/// A Codex shell command as one string: a string as is; an argv unwrapped if it is
/// `[bash, -lc, script]`, otherwise joined with quoting.
fn shell_text(command: &Value) -> String {
    match command {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_json(),
                })
                .collect();
            match extract_shell_script(&argv) {
                Some(script) => script.to_string(),
                None => try_join(&argv),
            }
        }
        other => other.to_json(),
    }
}

/// The files an `apply_patch` envelope touches, with the common tool for each.
///
/// ```
/// use permlab_core::trace::patch_files;
/// let p = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Add File: c.txt\n+z\n*** End Patch";
/// assert_eq!(patch_files(p), [("edit_file", "a.py"), ("edit_file", "b.py"), ("write_file", "c.txt")]);
/// ```
pub fn patch_files(patch: &str) -> Vec<(&'static str, &str)> {
    patch
        .lines()
        .filter_map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            [
                ("*** Add File: ", "write_file"),
                ("*** Update File: ", "edit_file"),
                ("*** Delete File: ", "edit_file"),
                ("*** Move to: ", "edit_file"),
            ]
            .into_iter()
            .find_map(|(head, tool)| l.strip_prefix(head).map(|p| (tool, p.trim())))
        })
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// The common tool names whose Claude Code form [`to_tool_call`] defines, first alias of each.
const COMMON_TOOLS: [&str; 11] = [
    "bash",
    "read_file",
    "edit_file",
    "write_file",
    "grep",
    "glob",
    "web_fetch",
    "web_search",
    "powershell",
    "agent",
    "skill",
];

/// [`to_tool_call`] read backwards, computed once per parse.
struct NameMap {
    /// (Claude Code tool, common tool, input field)
    entries: Vec<(String, &'static str, String)>,
}

impl NameMap {
    fn new() -> NameMap {
        NameMap {
            entries: COMMON_TOOLS
                .iter()
                .map(|&common| {
                    let (tool, field) = forward(common);
                    (tool, common, field)
                })
                .collect(),
        }
    }

    /// The common call for a harness tool `name` with `input` (see the module docs).
    fn common_call(&self, name: &str, input: &Value) -> Call {
        let (tool, field) = match self.entries.iter().find(|(cc, _, _)| cc == name) {
            Some((_, common, field)) => (common.to_string(), field.clone()),
            None => {
                let (_, field) = forward(name);
                (name.to_string(), field)
            }
        };
        let text = match input {
            Value::String(s) => s.clone(),
            Value::Object(entries) => match input.get(&field).and_then(Value::as_str) {
                Some(s) => s.to_string(),
                None => match entries.as_slice() {
                    [(_, Value::String(s))] => s.clone(),
                    _ => input.to_json(),
                },
            },
            other => other.to_json(),
        };
        Call::new(tool, text)
    }
}

/// The Claude Code tool and input field [`to_tool_call`] gives a common tool name.
fn forward(common: &str) -> (String, String) {
    let tc = to_tool_call(&Call::new(common, ""));
    let field = tc
        .input
        .as_object()
        .and_then(|o| o.first())
        .map(|(k, _)| k.clone())
        .unwrap_or_default();
    (tc.tool, field)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(text: &str) -> Vec<String> {
        parse(text)
            .calls
            .iter()
            .map(|c| c.call.to_string())
            .collect()
    }

    #[test]
    fn claude_code_names_map_back_through_the_engine_translation() {
        let line = |name: &str, input: &str| {
            format!(
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","name":"{name}","input":{input}}}]}}}}"#
            )
        };
        let cases = [
            (
                "Bash",
                r#"{"command":"git status","timeout":5}"#,
                "bash: git status",
            ),
            (
                "Read",
                r#"{"file_path":"/a/b.py","limit":50}"#,
                "read_file: /a/b.py",
            ),
            (
                "Edit",
                r#"{"file_path":"x.py","old_string":"a","new_string":"b"}"#,
                "edit_file: x.py",
            ),
            (
                "Write",
                r#"{"file_path":"n.md","content":"hi"}"#,
                "write_file: n.md",
            ),
            ("Grep", r#"{"pattern":"TODO","path":"src"}"#, "grep: TODO"),
            ("Glob", r#"{"pattern":"**/*.rs"}"#, "glob: **/*.rs"),
            (
                "WebFetch",
                r#"{"url":"https://x.com","prompt":"p"}"#,
                "web_fetch: https://x.com",
            ),
            (
                "Agent",
                r#"{"subagent_type":"Explore","prompt":"p"}"#,
                "agent: Explore",
            ),
            ("mcp__s__t", r#"{"path":"."}"#, "mcp__s__t: ."),
            ("mcp__s__u", r#"{}"#, "mcp__s__u: {}"),
            ("TodoWrite", r#"{"todos":[]}"#, r#"TodoWrite: {"todos":[]}"#),
        ];
        for (name, input, want) in cases {
            assert_eq!(calls(&line(name, input)), [want], "{name}");
            // And the Claude Code engine sees the same tool again.
            let c = &parse(&line(name, input)).calls[0].call;
            if name != "mcp__s__u" && name != "TodoWrite" && name != "mcp__s__t" {
                assert_eq!(to_tool_call(c).tool, name);
            }
        }
    }

    #[test]
    fn calls_format_and_mixing() {
        let text = "{\"tool\":\"bash\",\"input\":\"ls\"}\n\n{\"tool\":\"Bash\",\"input\":{\"command\":\"pwd\"}}\r\n{\"tool\":\"read_file\",\"input\":{\"path\":\"a\",\"n\":1}}\n";
        assert_eq!(
            calls(text),
            ["bash: ls", "bash: pwd", r#"read_file: {"path":"a","n":1}"#]
        );
        let t = parse(text);
        assert_eq!((t.lines, t.skipped, t.malformed.len()), (3, 0, 0));
        assert_eq!(t.calls[2].line, 4);
    }

    #[test]
    fn malformed_lines_are_reported_not_fatal() {
        let text = [
            "[1]",
            r#"{"tool": 3, "input": "x"}"#,
            r#"{"tool": "bash"}"#,
            r#"{"tool": "bash", "input": [1]}"#,
            r#"{"type":"assistant"}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","input":{}}]}}"#,
            r#"{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{nope"}}"#,
            r#"{"type":"response_item"}"#,
            r#"{"tool": "bash", "input": "ok"}"#,
            "\u{1F600}",
        ]
        .join("\n");
        let t = parse(&text);
        let got: Vec<String> = t.malformed.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            got,
            [
                "line 1: expected a JSON object per line, found an array",
                "line 2: \"tool\" must be a string, found a number",
                "line 3: a call line needs \"input\" (a string or an object), e.g. {\"tool\": \"bash\", \"input\": \"git status\"}",
                "line 4: \"input\" must be a string or an object, found an array",
                "line 5: an assistant line without message.content",
                "line 6: message.content[0]: a tool_use without a \"name\" string",
                "line 7: exec_command: \"arguments\" is not JSON (column 2: expected a key in double quotes, found `n`)",
                "line 8: a response_item line without \"payload\"",
                "line 10: invalid JSON at column 1: expected a JSON value, found `\u{1F600}`",
            ]
        );
        assert_eq!(calls(&text), ["bash: ok"]);
    }

    #[test]
    fn codex_shell_forms() {
        let fc = |name: &str, args: &str| {
            let mut a = String::new();
            json::write_string(args, &mut a);
            format!(
                r#"{{"type":"response_item","payload":{{"type":"function_call","name":"{name}","arguments":{a}}}}}"#
            )
        };
        let text = [
            fc("exec_command", r#"{"cmd":"git status"}"#),
            fc("shell", r#"{"command":["bash","-lc","ls && pwd"]}"#),
            fc("shell", r#"{"command":["rg","-n","a b"]}"#),
            fc("shell_command", r#"{"command":"echo hi"}"#),
            r#"{"type":"response_item","payload":{"type":"local_shell_call","action":{"type":"exec","command":["ls","-la"]}}}"#.to_string(),
            fc("update_plan", r#"{"plan":[]}"#),
            r#"{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"no headers"}}"#.to_string(),
            r#"{"type":"function_call","name":"shell","arguments":"{\"command\":[\"/bin/zsh\",\"-c\",\"make test\"]}"}"#.to_string(),
        ]
        .join("\n");
        assert_eq!(
            calls(&text),
            [
                "bash: git status",
                "bash: ls && pwd",
                "bash: rg -n 'a b'",
                "bash: echo hi",
                "bash: ls -la",
                r#"update_plan: {"plan":[]}"#,
                "apply_patch: no headers",
                "bash: make test",
            ]
        );
    }

    #[test]
    fn hostile_lines_do_not_panic() {
        let deep = "[".repeat(100_000);
        let text = format!(
            "{deep}\n{{\"type\":\"assistant\",\"message\":{{\"content\":\"text only\"}}}}\n\u{0}\n"
        );
        let t = parse(&text);
        assert_eq!((t.malformed.len(), t.skipped, t.calls.len()), (2, 1, 0));
    }
}
