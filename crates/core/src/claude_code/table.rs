//! The lesson's common rule table (tool · pattern · action) as Claude Code settings, and the
//! [`Engine`] over it.
//!
//! ## Tool names
//!
//! | Table tool | Claude Code | Why |
//! |---|---|---|
//! | `bash` | `Bash` | the shell tool; the pattern is a Bash command pattern |
//! | `read_file` | `Read` | Read rules govern reading |
//! | `list_dir` | `Read` | Claude Code has no listing tool of its own any more; listing a directory is a read, governed by `Read` path rules |
//! | `edit_file` | `Edit` | |
//! | `write_file` | `Edit` with a pattern, bare `Write` for `*` | `Write(…)` rules are accepted but never consulted: `Edit(…)` rules cover every editing tool. A bare `Write` rule works and names only Write |
//! | `grep`, `glob` | bare `Grep`, `Glob` | `Grep(…)`/`Glob(…)` specifiers are never consulted; a pattern row cannot be expressed |
//! | `web_fetch`/`webfetch` | `WebFetch(domain:…)` | |
//! | `web_search`/`websearch` | bare `WebSearch` | takes no specifier |
//! | `mcp__…`, Claude Code tool names | as written | |
//!
//! A pattern of `*` becomes the bare tool (`Bash(*)` equals `Bash`); any other pattern becomes
//! the specifier as written. So the seed table's `bash * deny` becomes a bare `deny Bash`, which
//! removes Bash from the model's context: the later `allow python -m unittest*` rows can no
//! longer rescue the test command, whatever their position.
//!
//! ```
//! use permlab_core::{Action, RuleTable};
//! use permlab_core::claude_code::translate;
//! let t = translate(&RuleTable::new([
//!     ("bash", "*", Action::Deny),
//!     ("bash", "python -m unittest*", Action::Allow),
//!     ("grep", "TODO", Action::Allow),
//! ]));
//! assert_eq!(t.rules[0].as_deref(), Some("Bash"));
//! assert_eq!(t.rules[1].as_deref(), Some("Bash(python -m unittest*)"));
//! assert!(t.rules[2].is_none());
//! assert!(t.to_settings_json().contains("\"deny\": [\"Bash\"]"));
//! ```

use super::eval::{CompiledPolicy, Context, Decider, ToolCall, Verdict};
use super::mode::Mode;
use super::settings::{Policy, Scope, SettingsFile};
use crate::context::CallContext;
use std::fmt;

use crate::evaluation::{Decision, Engine, EngineId, Evaluation, Reason, Step};
use crate::json::{self, Value};
use crate::table::{Action, Call, RuleTable};

/// A row that has no Claude Code equivalent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untranslatable {
    /// Position in the table.
    pub row: usize,
    /// Why, in English.
    pub reason: String,
    /// The same as data (a page words it in its own language).
    pub why: NoRule,
}

/// Why a row has no Claude Code rule, or what a translated row changes. `Display` says it in
/// English.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoRule {
    /// The rule string the row becomes would be skipped by Claude Code.
    Skipped {
        /// The rule string.
        text: String,
        /// Why Claude Code skips it.
        warning: super::rule::RuleWarning,
    },
    /// An MCP tool or a tool-name glob with a pattern (the tool).
    TakesNoPattern(String),
    /// No Claude Code tool for the row's tool (the tool).
    NoTool(String),
    /// A tool whose rules take no pattern Claude Code consults (the Claude Code tool).
    NoConsultedPattern(&'static str),
    /// Not a failure: a `write_file` row is written as `Edit(…)` (Edit rules cover Write too).
    WriteAsEdit,
}

impl fmt::Display for NoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoRule::Skipped { text, warning } => write!(f, "`{text}` would be skipped by Claude Code: {warning}"),
            NoRule::TakesNoPattern(tool) => write!(f, "`{tool}` rules take no pattern in settings files"),
            NoRule::NoTool(tool) => write!(f, "no Claude Code tool corresponds to `{tool}`"),
            NoRule::NoConsultedPattern(cc) => write!(f, "`{cc}` rules take no pattern Claude Code consults (use Read path rules)"),
            NoRule::WriteAsEdit => write!(f, "`Write(…)` rules are never consulted: written as `Edit(…)`, since Edit rules cover every built-in editing tool, Write included"),
        }
    }
}

/// The table as Claude Code settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// Per row: the rule string it became, or `None`.
    pub rules: Vec<Option<String>>,
    /// Per row: its action.
    pub actions: Vec<Action>,
    /// Rows that cannot be expressed (or that Claude Code would skip), with why.
    pub untranslatable: Vec<Untranslatable>,
    /// Remarks on rows that translate with a changed meaning.
    pub notes: Vec<(usize, NoRule)>,
}

impl Translation {
    /// The `settings.json` text: `{"permissions": {"allow": […], "ask": […], "deny": […]}}`.
    /// A rule string two rows both become (`read_file *` and `list_dir *` are both `Read`) is
    /// written once per list: Claude Code reads each list as a set (deny → ask → allow, order
    /// within a list never matters), so the copy would change nothing and only puzzle a reader.
    ///
    /// ```
    /// use permlab_core::{Action, RuleTable};
    /// let t = RuleTable::new([("read_file", "*", Action::Allow), ("list_dir", "*", Action::Allow)]);
    /// let json = permlab_core::claude_code::translate(&t).to_settings_json();
    /// assert_eq!(json.matches("\"Read\"").count(), 1, "{json}");
    /// ```
    pub fn to_settings_json(&self) -> String {
        let mut out = String::from("{\n  \"permissions\": {");
        let mut first = true;
        for action in [Action::Allow, Action::Ask, Action::Deny] {
            let mut list: Vec<&str> = Vec::new();
            for (r, _) in self
                .rules
                .iter()
                .zip(&self.actions)
                .filter(|(_, a)| **a == action)
            {
                if let Some(r) = r.as_deref().filter(|r| !list.contains(r)) {
                    list.push(r);
                }
            }
            if list.is_empty() {
                continue;
            }
            out.push_str(if first { "\n    " } else { ",\n    " });
            first = false;
            json::write_string(action.as_str(), &mut out);
            out.push_str(": [");
            for (k, r) in list.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                json::write_string(r, &mut out);
            }
            out.push(']');
        }
        out.push_str("\n  }\n}");
        out
    }

    fn settings(&self) -> (SettingsFile, [Vec<usize>; 3]) {
        let mut f = SettingsFile::empty(Scope::Project);
        let mut rows: [Vec<usize>; 3] = Default::default();
        for (row, (r, a)) in self.rules.iter().zip(&self.actions).enumerate() {
            let Some(r) = r else { continue };
            let (list, k) = match a {
                Action::Allow => (&mut f.allow, 0),
                Action::Ask => (&mut f.ask, 1),
                Action::Deny => (&mut f.deny, 2),
            };
            list.push(r.clone());
            rows[k].push(row);
        }
        (f, rows)
    }
}

/// The Claude Code tool a table tool name stands for, and how its pattern reads.
fn map_tool(tool: &str) -> Option<(&'static str, Option<&'static str>)> {
    // (Claude Code tool for patterns, bare tool for `*` when it differs)
    Some(match tool {
        "bash" | "shell" | "Bash" => ("Bash", None),
        "read_file" | "read" | "Read" => ("Read", None),
        "list_dir" | "ls" | "LS" => ("Read", None),
        "edit_file" | "edit" | "Edit" => ("Edit", None),
        "write_file" | "write" | "Write" => ("Edit", Some("Write")),
        "grep" | "Grep" => ("Grep", None),
        "glob" | "Glob" => ("Glob", None),
        "web_fetch" | "webfetch" | "WebFetch" => ("WebFetch", None),
        "web_search" | "websearch" | "WebSearch" => ("WebSearch", None),
        "powershell" | "PowerShell" => ("PowerShell", None),
        "agent" | "task" | "Agent" | "Task" => ("Agent", None),
        "skill" | "Skill" => ("Skill", None),
        _ => return None,
    })
}

/// Translates every row of `table`.
pub fn translate(table: &RuleTable) -> Translation {
    let mut t = Translation {
        rules: Vec::with_capacity(table.len()),
        actions: Vec::with_capacity(table.len()),
        untranslatable: Vec::new(),
        notes: Vec::new(),
    };
    for (row, r) in table.rules().iter().enumerate() {
        t.actions.push(r.action);
        let text = translate_row(row, &r.tool, &r.pattern, &mut t);
        // Claude Code would skip some rules at start-up: report them too.
        let text = text.and_then(|text| match super::rule::parse_rule(&text, r.action) {
            Ok(_) => Some(text),
            Err(warning) => {
                let why = NoRule::Skipped { text, warning };
                t.untranslatable.push(Untranslatable {
                    row,
                    reason: why.to_string(),
                    why,
                });
                None
            }
        });
        t.rules.push(text);
    }
    t
}

fn translate_row(row: usize, tool: &str, pattern: &str, t: &mut Translation) -> Option<String> {
    let fail = |t: &mut Translation, why: NoRule| {
        t.untranslatable.push(Untranslatable {
            row,
            reason: why.to_string(),
            why,
        });
        None
    };
    if tool.starts_with("mcp__") || tool.contains('*') {
        if pattern != "*" {
            return fail(t, NoRule::TakesNoPattern(tool.to_string()));
        }
        return Some(tool.to_string());
    }
    let Some((cc, bare)) = map_tool(tool) else {
        if super::rule::known_tool(tool) && pattern == "*" {
            return Some(tool.to_string());
        }
        return fail(t, NoRule::NoTool(tool.to_string()));
    };
    if pattern == "*" || pattern.is_empty() {
        return Some(bare.unwrap_or(cc).to_string());
    }
    match cc {
        "Grep" | "Glob" | "WebSearch" => fail(t, NoRule::NoConsultedPattern(cc)),
        "WebFetch" => Some(format!("WebFetch(domain:{pattern})")),
        "Edit" if bare.is_some() => {
            t.notes.push((row, NoRule::WriteAsEdit));
            Some(format!("Edit({pattern})"))
        }
        _ => Some(format!("{cc}({pattern})")),
    }
}

/// The lesson environment: the default [`CallContext`] (miniagent's checkout), an
/// interactive CLI session.
pub fn lesson_context() -> Context {
    context_in(&CallContext::default())
}

/// An interactive CLI session in `place`: its project is the root `/path` rules are anchored
/// at.
pub fn context_in(place: &CallContext) -> Context {
    Context {
        cwd: place.cwd.clone(),
        home: place.home.clone(),
        project_root: place.project.clone(),
        ..Context::default()
    }
}

/// The common call as a Claude Code tool call (see the module's tool table).
pub fn to_tool_call(call: &Call) -> ToolCall {
    let (tool, field) = tool_and_field(&call.tool);
    ToolCall::new(
        tool,
        Value::Object(vec![(field.into(), Value::from(call.input.as_str()))]),
    )
}

/// The Claude Code tool a common call's tool stands for, and the input field its text fills.
fn tool_and_field(tool: &str) -> (&str, &'static str) {
    match tool {
        "bash" | "shell" => ("Bash", "command"),
        "read_file" | "read" | "list_dir" | "ls" => ("Read", "file_path"),
        "edit_file" | "edit" => ("Edit", "file_path"),
        "write_file" | "write" => ("Write", "file_path"),
        "grep" => ("Grep", "pattern"),
        "glob" => ("Glob", "pattern"),
        "web_fetch" | "webfetch" => ("WebFetch", "url"),
        "web_search" | "websearch" => ("WebSearch", "query"),
        "powershell" => ("PowerShell", "command"),
        "agent" | "task" => ("Agent", "subagent_type"),
        "skill" => ("Skill", "skill"),
        other => {
            let field = match other {
                "Bash" | "PowerShell" | "Monitor" => "command",
                "Read" | "Edit" | "Write" => "file_path",
                "WebFetch" => "url",
                "Agent" => "subagent_type",
                "Skill" => "skill",
                _ => "input",
            };
            (other, field)
        }
    }
}

/// Claude Code over the common table: translate once, then evaluate each call in `default`
/// mode in the [`lesson_context`].
#[derive(Clone, Debug)]
pub struct ClaudeCodeEngine {
    translation: Translation,
    compiled: CompiledPolicy,
    /// Policy rule position → table row.
    rows: Vec<usize>,
}

impl ClaudeCodeEngine {
    /// Compiles `table`: translation, rule parsing and the rule index happen once, here.
    pub fn new(table: &RuleTable) -> Self {
        Self::with(table, Mode::Default, lesson_context())
    }

    /// Like [`ClaudeCodeEngine::new`] with another mode and context.
    pub fn with(table: &RuleTable, mode: Mode, context: Context) -> Self {
        let translation = translate(table);
        let (settings, group_rows) = translation.settings();
        let policy = Policy::merge(&[settings], true);
        let rows = policy
            .rules
            .iter()
            .map(|r| {
                let k = match r.group {
                    Action::Allow => 0,
                    Action::Ask => 1,
                    Action::Deny => 2,
                };
                group_rows[k].get(r.index).copied().unwrap_or(usize::MAX)
            })
            .collect();
        ClaudeCodeEngine {
            translation,
            compiled: CompiledPolicy::new(policy, mode, context),
            rows,
        }
    }

    /// How the table was translated.
    pub fn translation(&self) -> &Translation {
        &self.translation
    }

    /// The merged settings the engine evaluates.
    pub fn policy(&self) -> &Policy {
        self.compiled.policy()
    }

    /// The policy compiled for the engine's mode and context.
    pub fn compiled(&self) -> &CompiledPolicy {
        &self.compiled
    }

    /// The full Claude Code verdict (outcome, decider, trace over policy rules).
    pub fn verdict(&self, call: &Call) -> Verdict {
        self.compiled.evaluate(&to_tool_call(call))
    }

    fn row(&self, policy_rule: usize) -> usize {
        self.rows.get(policy_rule).copied().unwrap_or(usize::MAX)
    }
}

impl Engine for ClaudeCodeEngine {
    fn id(&self) -> EngineId {
        EngineId::ClaudeCode
    }

    /// The fast path: a call of a tool a bare deny removed is decided from its tool name alone;
    /// any other call goes through [`CompiledPolicy::decide`] (no trace, indexed scans).
    fn decide(&self, call: &Call) -> (Decision, Option<usize>) {
        let (tool, _) = tool_and_field(&call.tool);
        if let Some(i) = self.compiled.removed(tool) {
            return (Decision::Unavailable, Some(self.row(i)));
        }
        let v = self.compiled.decide(&to_tool_call(call));
        (v.outcome.decision(), v.rule.map(|r| self.row(r)))
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        evaluation_from_verdict(&self.verdict(call), self.compiled.mode(), |r| self.row(r))
    }
}

/// A Claude Code [`Verdict`] as the lesson's [`Evaluation`]: policy rules become table rows
/// through `row` (rules with no row map to `usize::MAX`), matches are listed once in table order,
/// and a rule-decided verdict reads as that rule's action; any other deciding step is kept as
/// [`Reason::ClaudeCode`]. Shared by the common-table engine and a lesson's native settings.
pub fn evaluation_from_verdict(
    v: &Verdict,
    mode: Mode,
    row: impl Fn(usize) -> usize,
) -> Evaluation {
    let rule = v.rule.map(&row);
    let mut matches: Vec<usize> = v.matches.iter().map(|&r| row(r)).collect();
    matches.sort_unstable();
    matches.dedup();
    let steps = v
        .trace
        .iter()
        .map(|s| Step {
            row: row(s.rule),
            group: Some(s.group),
            tool_matched: s.tool_matched,
            pattern_matched: s.spec_matched,
            stop: s.stop,
            part: None,
        })
        .collect();
    let reason = match (&v.decider, rule) {
        (Decider::ToolRemoved, Some(row)) => Reason::ToolRemoved { row },
        (Decider::DenyRule(_), Some(row)) => Reason::Rule {
            row,
            action: Action::Deny,
        },
        // A rule that asks, in a mode that asks nobody: the mode gives the verdict.
        (Decider::AskRule, Some(row)) if v.outcome.decision() != crate::Decision::Ask => {
            Reason::ClaudeRuleInMode {
                row,
                action: Action::Ask,
                mode,
            }
        }
        (Decider::AskRule, Some(row)) => Reason::Rule {
            row,
            action: Action::Ask,
        },
        (Decider::AllowRule, Some(row)) => Reason::Rule {
            row,
            action: Action::Allow,
        },
        (d, _) => Reason::ClaudeCode(d.clone()),
    };
    Evaluation {
        engine: EngineId::ClaudeCode,
        decision: v.outcome.decision(),
        rule,
        matches,
        steps,
        reason,
        inferred: v.inferred,
        parts: Vec::new(),
        decided_by: None,
        always: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Decision;

    fn standard() -> RuleTable {
        RuleTable::from_json(include_str!(
            "../../../../fixtures/rulesets/miniagent-standard.json"
        ))
        .unwrap()
    }

    #[test]
    fn seed_lesson_bare_deny_removes_bash() {
        let e = ClaudeCodeEngine::new(&standard());
        assert_eq!(e.translation().rules[7].as_deref(), Some("Bash"));
        for cmd in [
            "python -m unittest -v test_dateparse.py",
            "python3 -m unittest",
            "ls",
        ] {
            let ev = e.evaluate(&Call::new("bash", cmd));
            assert_eq!(ev.decision, Decision::Unavailable, "{cmd}");
            assert_eq!(ev.rule, Some(7));
            assert_eq!(ev.reason, Reason::ToolRemoved { row: 7 });
            assert!(ev.steps.iter().all(|s| s.group == Some(Action::Deny)));
            assert!(ev.steps.last().unwrap().stop);
        }
        // The unittest rows match too: they are listed, they just never get to decide.
        let ev = e.evaluate(&Call::new(
            "bash",
            "python -m unittest -v test_dateparse.py",
        ));
        assert_eq!(ev.matches, [7, 8]);
        let ev = e.evaluate(&Call::new("bash", "python3 -m unittest"));
        assert_eq!(ev.matches, [7, 9]);
    }

    #[test]
    fn seed_table_edits() {
        let e = ClaudeCodeEngine::new(&standard());
        let cases = [
            ("edit_file", "dateparse.py", Decision::Allow, Some(3)),
            ("edit_file", "test_dateparse.py", Decision::Deny, Some(5)),
            ("write_file", "test_new.py", Decision::Deny, Some(5)),
            ("write_file", "notes.md", Decision::Allow, Some(4)),
            ("read_file", "test_dateparse.py", Decision::Allow, Some(0)),
            ("grep", "TODO", Decision::Allow, Some(2)),
        ];
        for (tool, input, want, row) in cases {
            let ev = e.evaluate(&Call::new(tool, input));
            assert_eq!((ev.decision, ev.rule), (want, row), "{tool}: {input}");
        }
    }

    #[test]
    fn reordering_never_changes_a_verdict() {
        let mut t = standard();
        let calls = [
            Call::new("bash", "python -m unittest"),
            Call::new("edit_file", "test_a.py"),
            Call::new("edit_file", "a.py"),
        ];
        let before: Vec<_> = calls
            .iter()
            .map(|c| ClaudeCodeEngine::new(&t).evaluate(c).decision)
            .collect();
        t.reverse();
        let after: Vec<_> = calls
            .iter()
            .map(|c| ClaudeCodeEngine::new(&t).evaluate(c).decision)
            .collect();
        assert_eq!(before, after);
    }

    #[test]
    fn git_push_lesson_pair() {
        let t = RuleTable::new([
            ("bash", "git push *", Action::Deny),
            ("bash", "git *", Action::Allow),
        ]);
        let e = ClaudeCodeEngine::new(&t);
        let ev = e.evaluate(&Call::new("bash", "git push origin main"));
        assert_eq!((ev.decision, ev.rule), (Decision::Deny, Some(0)));
        let ev = e.evaluate(&Call::new("bash", "git status"));
        assert_eq!((ev.decision, ev.rule), (Decision::Allow, Some(1)));
        let groups: Vec<_> = ev.steps.iter().map(|s| s.group).collect();
        assert_eq!(groups, [Some(Action::Deny), Some(Action::Allow)]);
    }

    #[test]
    fn untranslatable_rows_are_reported() {
        let t = translate(&RuleTable::new([
            ("grep", "TODO", Action::Allow),
            ("frobnicate", "*", Action::Deny),
            ("*", "*", Action::Allow),
        ]));
        assert_eq!(t.untranslatable.len(), 3);
        assert!(t.untranslatable[2].reason.contains("skipped"));
    }
}
