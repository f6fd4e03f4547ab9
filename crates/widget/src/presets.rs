//! The lesson's rule sets and calls (seed 000), and the OpenCode `permission` object rendering
//! of a table.

use permlab_core::json::{self, Value};
use permlab_core::{Action, Call, EngineId, RuleTable};

/// The lesson's rule table (seed 000, miniagent `configs/rules-standard.json`).
pub const MINIAGENT: &str = include_str!("../../../fixtures/rulesets/miniagent-standard.json");

/// The calls of the real miniagent runs the seed quotes (plus the git ones of the core
/// experiment), as `tool: input`.
pub const SEED_CALLS: &[&str] = &[
    "bash: python -m unittest -v test_dateparse.py",
    "bash: git push origin main",
    "bash: git status",
    "read_file: test_dateparse.py",
    "read_file: dateparse.py",
    "edit_file: dateparse.py",
    "edit_file: test_dateparse.py",
    "bash: python3 -m unittest test_dateparse.py",
    "bash: rm -rf /",
];

/// A built-in rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// miniagent `rules-standard.json`, 10 rules.
    Miniagent,
    /// `[deny "git push *", allow "git *"]`.
    Git,
    /// The Claude Code docs' example: a deny `Bash(aws *)` cannot be opened by a more specific
    /// allow `Bash(aws s3 ls)`.
    Aws,
    /// A table the learner pasted.
    Custom,
}

impl Preset {
    /// Built-in presets, in menu order.
    pub const BUILT_IN: [Preset; 3] = [Preset::Miniagent, Preset::Git, Preset::Aws];

    /// Slug in the stored state (and in old-format links).
    pub fn slug(self) -> &'static str {
        match self {
            Preset::Miniagent => "miniagent",
            Preset::Git => "git",
            Preset::Aws => "aws",
            Preset::Custom => "custom",
        }
    }

    /// The preset with this slug.
    pub fn from_slug(s: &str) -> Option<Preset> {
        [Preset::Miniagent, Preset::Git, Preset::Aws, Preset::Custom]
            .into_iter()
            .find(|p| p.slug() == s)
    }

    /// The table in lesson order (empty for [`Preset::Custom`]).
    pub fn table(self) -> RuleTable {
        match self {
            Preset::Miniagent => RuleTable::from_json(MINIAGENT).unwrap_or_default(),
            Preset::Git => RuleTable::new([
                ("bash", "git push *", Action::Deny),
                ("bash", "git *", Action::Allow),
            ]),
            Preset::Aws => RuleTable::new([
                ("bash", "aws *", Action::Deny),
                ("bash", "aws s3 ls", Action::Allow),
            ]),
            Preset::Custom => RuleTable::default(),
        }
    }

    /// The calls shown for this preset (the matrix rows); the first is the starting call.
    pub fn calls(self) -> Vec<Call> {
        let texts: &[&str] = match self {
            Preset::Miniagent | Preset::Custom => SEED_CALLS,
            Preset::Git => &[
                "bash: git push origin main",
                "bash: git status",
                "bash: git push --force origin main",
                "bash: python -m unittest -v test_dateparse.py",
            ],
            Preset::Aws => &[
                "bash: aws s3 ls",
                "bash: aws ec2 describe-instances",
                "bash: git status",
            ],
        };
        texts.iter().filter_map(|t| Call::parse(t).ok()).collect()
    }

    /// The engines with guess panels. Codex is not part of the seed's lesson (its language is
    /// token prefixes, not globs); the learner can add it.
    pub fn engines(self, codex: bool) -> Vec<EngineId> {
        let mut v = vec![
            EngineId::FirstMatch,
            EngineId::OpenCode,
            EngineId::ClaudeCode,
            EngineId::CoreCoder,
        ];
        if codex {
            v.push(EngineId::Codex);
        }
        v
    }
}

/// A custom lesson: a table and optionally its calls, from the fixtures format
/// (`[…rules]` or `{"rules": […], "calls": ["bash: ls", {"tool", "input"}, …]}`).
pub fn parse_custom(text: &str) -> Result<(RuleTable, Vec<Call>), permlab_core::Error> {
    let value = json::parse(text)?;
    let table = RuleTable::from_value(&value)?;
    let mut calls = Vec::new();
    if let Some(list) = value.get("calls").and_then(Value::as_array) {
        for (i, c) in list.iter().enumerate() {
            let call = match c {
                Value::String(s) => Call::parse(s),
                other => Call::from_value(other),
            }
            .map_err(|e| e.under(&format!("calls[{i}]")))?;
            calls.push(call);
        }
    }
    if calls.is_empty() {
        calls = Preset::Custom.calls();
    }
    Ok((table, calls))
}

/// One flagged row of a translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// Row (0-based).
    pub row: usize,
    /// Why, in English.
    pub reason: String,
    /// The same as data (the panel words it in the widget's language).
    pub why: OpencodeFlag,
}

/// Why a row of the table changes on its way into `opencode.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpencodeFlag {
    /// A wildcard permission (the tool) whose rows are grouped under one key.
    Regrouped(String),
    /// A pattern repeated for one tool: the later action replaces the earlier one.
    Repeated {
        /// The tool.
        tool: String,
        /// The pattern.
        pattern: String,
    },
    /// A tool name no built-in OpenCode tool asks permission under (`read_file`): the key is
    /// kept, as the widget's OpenCode evaluates it, but OpenCode itself never consults it. With
    /// OpenCode's own name for that kind of tool, when there is one.
    NotConsulted {
        /// The tool.
        tool: String,
        /// OpenCode's permission for that kind of tool (`read`), if any.
        own: Option<&'static str>,
    },
}

/// OpenCode's own permission for a tool name of the lesson's agent, when it has one.
fn opencode_own(tool: &str) -> Option<&'static str> {
    match tool {
        "read_file" | "Read" | "view" | "cat" => Some("read"),
        "edit_file" | "write_file" | "Edit" | "Write" | "MultiEdit" | "apply_patch" => Some("edit"),
        "list_dir" | "ls" | "LS" => Some("list"),
        "Bash" | "shell" | "exec" => Some("bash"),
        "Grep" | "search" => Some("grep"),
        "Glob" => Some("glob"),
        "WebFetch" | "fetch" => Some("webfetch"),
        _ => None,
    }
}

impl std::fmt::Display for OpencodeFlag {
    /// In English (the reason a [`Flag`] carries).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpencodeFlag::Regrouped(tool) => write!(f, "the wildcard permission `{tool}` is grouped under one key: its place among other tools' rows is lost"),
            OpencodeFlag::Repeated { tool, pattern } => write!(f, "pattern `{pattern}` repeats for `{tool}`: an object key holds one action, so this row's action replaces the earlier one at the earlier place"),
            OpencodeFlag::NotConsulted { tool, own: Some(own) } => write!(f, "no OpenCode tool asks for the permission `{tool}`, so OpenCode never consults this key; its own name for this kind of tool is `{own}`"),
            OpencodeFlag::NotConsulted { tool, own: None } => write!(f, "no OpenCode tool asks for the permission `{tool}` (its tools ask for read, edit, glob, grep, list, bash…), so OpenCode never consults this key unless an MCP tool has exactly that name"),
        }
    }
}

/// The table as OpenCode's `permission` object (`opencode.json`): one key per tool, a string
/// when the tool has a single `*` row, else an object of pattern → action in table order.
///
/// OpenCode's `fromConfig` walks the object in key order, so rows of one tool keep their
/// relative order; rows of *different* tools never compete for one call unless a tool name
/// is itself a wildcard. Flagged: a wildcard tool name whose rows would be regrouped, and a
/// repeated pattern within a tool (a JSON object keeps one value per key: the later action wins
/// at the earlier position).
pub fn opencode_permission(table: &RuleTable) -> (String, Vec<Flag>) {
    let mut tools: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, r) in table.rules().iter().enumerate() {
        match tools.iter_mut().find(|(t, _)| *t == r.tool) {
            Some((_, rows)) => rows.push(i),
            None => tools.push((&r.tool, vec![i])),
        }
    }
    let rules = table.rules();
    let mut flags = Vec::new();
    let mut entries = Vec::new();
    for (tool, rows) in &tools {
        let wildcard = tool.contains('*') || tool.contains('?');
        if !wildcard && !permlab_core::lesson::OPENCODE_TOOLS.contains(tool) {
            let why = OpencodeFlag::NotConsulted {
                tool: tool.to_string(),
                own: opencode_own(tool),
            };
            flags.push(Flag {
                row: rows[0],
                reason: why.to_string(),
                why,
            });
        }
        if wildcard {
            for &row in rows {
                let later_other = rules[row + 1..].iter().any(|o| o.tool != *tool);
                let earlier_other = rules[..row].iter().any(|o| o.tool != *tool);
                if later_other || earlier_other {
                    let why = OpencodeFlag::Regrouped(tool.to_string());
                    flags.push(Flag {
                        row,
                        reason: why.to_string(),
                        why,
                    });
                    break;
                }
            }
        }
        let value = if rows.len() == 1 && rules[rows[0]].pattern == "*" {
            Value::from(rules[rows[0]].action.as_str())
        } else {
            let mut obj: Vec<(String, Value)> = Vec::new();
            for &row in rows {
                let r = &rules[row];
                if let Some(slot) = obj.iter_mut().find(|(k, _)| *k == r.pattern) {
                    let why = OpencodeFlag::Repeated {
                        tool: tool.to_string(),
                        pattern: r.pattern.clone(),
                    };
                    flags.push(Flag {
                        row,
                        reason: why.to_string(),
                        why,
                    });
                    slot.1 = Value::from(r.action.as_str());
                } else {
                    obj.push((r.pattern.clone(), Value::from(r.action.as_str())));
                }
            }
            Value::Object(obj)
        };
        entries.push((tool.to_string(), value));
    }
    let doc = Value::Object(vec![("permission".into(), Value::Object(entries))]);
    (doc.to_json_pretty(), flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencodes_own_names_and_wildcards_are_not_flagged() {
        let t = RuleTable::new([
            ("read", "*", Action::Allow),
            ("bash", "git *", Action::Allow),
            ("mcp_*", "*", Action::Ask),
            ("frobnicate", "*", Action::Deny),
        ]);
        let (_, flags) = opencode_permission(&t);
        let unread: Vec<&Flag> = flags
            .iter()
            .filter(|f| matches!(f.why, OpencodeFlag::NotConsulted { .. }))
            .collect();
        assert_eq!(unread.len(), 1, "{flags:?}");
        assert_eq!(
            unread[0].why,
            OpencodeFlag::NotConsulted {
                tool: "frobnicate".into(),
                own: None
            }
        );
    }

    #[test]
    fn presets_load() {
        assert_eq!(Preset::Miniagent.table().len(), 10);
        assert_eq!(Preset::Git.table().len(), 2);
        assert_eq!(Preset::Aws.table().len(), 2);
        for p in Preset::BUILT_IN {
            assert!(!p.calls().is_empty());
            assert_eq!(Preset::from_slug(p.slug()), Some(p));
        }
        assert_eq!(
            Preset::Miniagent.calls()[0].input,
            "python -m unittest -v test_dateparse.py"
        );
    }

    #[test]
    fn opencode_object_keeps_order_within_a_tool() {
        let (text, flags) = opencode_permission(&Preset::Miniagent.table());
        // Nothing but the miniagent tool names OpenCode never consults (read, list, edit are
        // its own names; grep and bash are already OpenCode's): one flag per such tool.
        let named: Vec<(usize, &OpencodeFlag)> = flags.iter().map(|f| (f.row, &f.why)).collect();
        let own = |tool: &str, own: &'static str| OpencodeFlag::NotConsulted {
            tool: tool.into(),
            own: Some(own),
        };
        assert_eq!(
            named,
            [
                (0, &own("read_file", "read")),
                (1, &own("list_dir", "list")),
                (3, &own("edit_file", "edit")),
                (4, &own("write_file", "edit")),
            ]
        );
        assert!(
            flags[0].reason.contains("never consults"),
            "{}",
            flags[0].reason
        );
        let v = json::parse(&text).unwrap();
        let bash = v.get("permission").unwrap().get("bash").unwrap();
        let keys: Vec<&str> = bash
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["*", "python -m unittest*", "python3 -m unittest*"]);
        assert_eq!(
            v.get("permission")
                .unwrap()
                .get("read_file")
                .unwrap()
                .as_str(),
            Some("allow")
        );
    }

    #[test]
    fn opencode_object_flags_what_it_cannot_keep() {
        let t = RuleTable::new([
            ("bash", "ls", Action::Allow),
            ("*", "*", Action::Ask),
            ("bash", "ls", Action::Deny),
        ]);
        let (_, flags) = opencode_permission(&t);
        assert_eq!(flags.len(), 2, "{flags:?}");
    }

    #[test]
    fn custom_lessons() {
        let (t, calls) =
            parse_custom(r#"{"rules": [{"tool": "bash", "pattern": "*", "action": "ask"}], "calls": ["bash: ls", {"tool": "grep", "input": "x"}]}"#)
                .unwrap();
        assert_eq!((t.len(), calls.len()), (1, 2));
        assert!(parse_custom("[{").is_err());
        assert!(parse_custom(r#"{"rules": [], "calls": ["nope"]}"#).is_err());
    }
}
