//! Claude Code `settings.json` → rows.

use super::{ImportNote, ImportWarning, Imported};
use crate::claude_code::rule::parse_rule;
use crate::claude_code::{translate, Scope, SettingsFile};
use crate::error::Error;
use crate::json::{self, Value};
use crate::table::{Action, RuleTable};

/// The common-table row a Claude Code rule string stands for, before checking that it reads
/// back the same: `Bash(x)` → `bash x`, `Read(p)` → `read_file p`, `Edit(p)` → `edit_file p`,
/// `Write(p)` → `write_file p`, a bare tool → `tool *`, other tools keep their own name.
///
/// ```
/// use permlab_core::import::claude_tool_row;
/// assert_eq!(claude_tool_row("Bash(npm run *)"), ("bash".to_string(), "npm run *".to_string()));
/// assert_eq!(claude_tool_row("mcp__github"), ("mcp__github".to_string(), "*".to_string()));
/// assert_eq!(claude_tool_row("WebFetch(domain:x.com)"), ("WebFetch".to_string(), "x.com".to_string()));
/// ```
pub fn claude_tool_row(text: &str) -> (String, String) {
    let text = text.trim();
    let (name, spec) = match text.find('(') {
        Some(open) if text.ends_with(')') => (&text[..open], &text[open + 1..text.len() - 1]),
        _ => (text, ""),
    };
    let tool = match name {
        "Bash" => "bash",
        "Read" => "read_file",
        "Edit" => "edit_file",
        "Write" => "write_file",
        other => other,
    };
    // The specifier keeps its spaces: `Bash(sudo :* )` is not `Bash(sudo :*)` to Claude Code.
    let pattern = if spec.is_empty() {
        "*"
    } else if name == "WebFetch" {
        spec.strip_prefix("domain:").unwrap_or(spec)
    } else {
        spec
    };
    (tool.to_string(), pattern.to_string())
}

pub(super) fn import_text(text: &str, scope: Scope) -> Result<Imported, Error> {
    import_value(&json::parse(text)?, scope)
}

/// `scope` is where the file sits: Claude Code reads some values differently by scope (a
/// project's `defaultMode: bypassPermissions` does not take effect, a user's does).
pub(super) fn import_value(value: &Value, scope: Scope) -> Result<Imported, Error> {
    let file = SettingsFile::from_value(value, scope)?;
    let mut warnings: Vec<ImportWarning> = file
        .warnings
        .iter()
        .map(|w| ImportWarning {
            at: w.at.clone(),
            rule: w.rule.clone(),
            message: w.message.clone(),
            // A non-string entry in a rule list is a rule that gave no row.
            dropped: w.at.contains('[') && w.at.starts_with("permissions."),
            note: ImportNote::Settings(w.note.clone()),
        })
        .collect();
    let mut rows: Vec<(String, String, Action)> = Vec::new();
    let mut origins = Vec::new();
    let mut rules_in = warnings.iter().filter(|w| w.dropped).count();
    for (group, list) in [
        (Action::Deny, &file.deny),
        (Action::Ask, &file.ask),
        (Action::Allow, &file.allow),
    ] {
        for (i, text) in list.iter().enumerate() {
            rules_in += 1;
            let at = format!("permissions.{}[{i}]", group.as_str());
            let drop = |message: String, note: ImportNote| ImportWarning {
                at: at.clone(),
                rule: Some(text.clone()),
                message,
                dropped: true,
                note,
            };
            let native = match parse_rule(text, group) {
                Ok(r) => r,
                Err(w) => {
                    warnings.push(drop(
                        format!("Claude Code skips this rule: {w}"),
                        ImportNote::ClaudeSkips(w),
                    ));
                    continue;
                }
            };
            let (tool, pattern) = claude_tool_row(text);
            let back = translate(&RuleTable::new([(tool.as_str(), pattern.as_str(), group)]));
            let same = match back.rules.first().and_then(|r| r.as_deref()) {
                Some(t) => parse_rule(t, group)
                    .map(|r| r.tool == native.tool && r.spec == native.spec)
                    .unwrap_or(false),
                None => false,
            };
            if !same {
                let reads_as = back.rules.first().and_then(|r| r.clone());
                let why = match &reads_as {
                    Some(t) => format!("as a row it would read as `{t}`"),
                    None => back
                        .untranslatable
                        .first()
                        .map(|u| u.reason.clone())
                        .unwrap_or_default(),
                };
                warnings.push(drop(
                    format!("no row of the common table means the same to Claude Code ({why})"),
                    ImportNote::ClaudeNoSameRow { reads_as, why },
                ));
                continue;
            }
            if let Some(w) = &native.warning {
                warnings.push(ImportWarning {
                    at: at.clone(),
                    rule: Some(text.clone()),
                    message: format!("Claude Code warns at start-up: {w}"),
                    dropped: false,
                    note: ImportNote::ClaudeWarns(w.clone()),
                });
            }
            rows.push((tool, pattern, group));
            origins.push(at);
        }
    }
    if value.get("permissions").is_none() {
        warnings.push(ImportWarning {
            at: "permissions".into(),
            rule: None,
            message: "no `permissions` object: the file adds no rules".into(),
            dropped: false,
            note: ImportNote::ClaudeNoPermissions,
        });
    }
    let table = RuleTable::new(rows.iter().map(|(t, p, a)| (t.as_str(), p.as_str(), *a)));
    Ok(Imported {
        format: super::Format::ClaudeCode,
        table,
        origins,
        warnings,
        rules_in,
        claude_settings: Some(file),
        canonical: Vec::new(),
    })
}
