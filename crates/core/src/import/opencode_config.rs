//! OpenCode `opencode.json(c)` and agent markdown → rows, in OpenCode's own order.

use super::{yaml, Format, ImportNote, ImportWarning, Imported};
use crate::error::Error;
use crate::json::{self, Value};
use crate::opencode::{from_config, PermissionConfig};
use crate::table::RuleTable;

/// What `~` expands to in imported patterns: the lesson's fixed home directory.
const HOME: &str = "/home/learner";

pub(super) fn import_text(text: &str) -> Result<Imported, Error> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if body.starts_with("---") {
        let front = yaml::front_matter(body)?;
        let mut warnings = Vec::new();
        let Some(permission) = front.get("permission") else {
            let other = front
                .as_object()
                .unwrap_or_default()
                .iter()
                .find(|(k, _)| k == "permissions" || k == "tools")
                .map(|(k, _)| k.clone());
            let said = other
                .as_ref()
                .map(|k| format!(" (`{k}:` is not read as permission rules)"))
                .unwrap_or_default();
            warnings.push(ImportWarning {
                at: "front matter".into(),
                rule: None,
                message: format!("no `permission:` key: the agent adds no rules{said}"),
                dropped: false,
                note: ImportNote::OpencodeNoFrontMatterPermission { other },
            });
            return Ok(empty(warnings));
        };
        return from_permission(permission, "permission", warnings);
    }
    import_value(&json::parse_jsonc(body)?)
}

fn empty(warnings: Vec<ImportWarning>) -> Imported {
    Imported {
        format: Format::OpenCode,
        table: RuleTable::default(),
        origins: Vec::new(),
        warnings,
        rules_in: 0,
        claude_settings: None,
        canonical: Vec::new(),
    }
}

pub(super) fn import_value(value: &Value) -> Result<Imported, Error> {
    if value.as_object().is_none() {
        return Err(Error::shape(
            "",
            format!("an opencode.json is an object, found {}", value.kind()),
        ));
    }
    let mut warnings = Vec::new();
    // Per-agent permissions apply only to that agent: counted and reported, not mixed in.
    let mut agent_rules = 0;
    for key in ["agent", "mode"] {
        for (name, agent) in value
            .get(key)
            .and_then(Value::as_object)
            .unwrap_or_default()
        {
            if let Some(p) = agent.get("permission") {
                let at = format!("{key}.{name}.permission");
                agent_rules += leaves(p);
                for (path, rule) in leaf_paths(p, &at) {
                    warnings.push(ImportWarning {
                        at: path,
                        rule,
                        message: format!(
                            "agent `{name}`'s own rules apply to that agent only: import its rules separately"
                        ),
                        dropped: true,
                        note: ImportNote::OpencodeAgentRules(name.clone()),
                    });
                }
                // Still decode them: OpenCode rejects the whole config on a bad agent rule.
                PermissionConfig::decode_at(p, &format!("{key}.{name}.permission"))?;
            }
        }
    }
    let mut out = match value.get("permission") {
        Some(p) => from_permission(p, "permission", warnings)?,
        None => {
            warnings.push(ImportWarning {
                at: "permission".into(),
                rule: None,
                message: "no top-level `permission`: the config adds no rules".into(),
                dropped: false,
                note: ImportNote::OpencodeNoPermission,
            });
            empty(warnings)
        }
    };
    out.rules_in += agent_rules;
    Ok(out)
}

/// Each native rule of a permission value: its path and the pattern it names.
fn leaf_paths(v: &Value, at: &str) -> Vec<(String, Option<String>)> {
    match v {
        Value::Object(entries) => entries
            .iter()
            .flat_map(|(k, x)| match x {
                Value::Object(p) => p
                    .iter()
                    .map(|(pat, _)| (format!("{at}.{k}"), Some(pat.clone())))
                    .collect::<Vec<_>>(),
                _ => vec![(format!("{at}.{k}"), None)],
            })
            .collect(),
        _ => vec![(at.to_string(), None)],
    }
}

/// Native rules written in a permission value, duplicates included.
fn leaves(v: &Value) -> usize {
    match v {
        Value::Object(entries) => entries
            .iter()
            .map(|(_, x)| match x {
                Value::Object(p) => p.len(),
                _ => 1,
            })
            .sum(),
        _ => 1,
    }
}

fn duplicates(entries: &[(String, Value)], at: &str, warnings: &mut Vec<ImportWarning>) {
    for (i, (k, v)) in entries.iter().enumerate() {
        if entries[i + 1..].iter().any(|(k2, _)| k2 == k) {
            let n = match v {
                Value::Object(p) if at == "permission" => p.len(),
                _ => 1,
            };
            for _ in 0..n {
                warnings.push(ImportWarning {
                    at: format!("{at}.{k}"),
                    rule: Some(k.clone()),
                    message:
                        "duplicate key: OpenCode keeps the last value (at the first key's place)"
                            .into(),
                    dropped: true,
                    note: ImportNote::OpencodeDuplicateKey,
                });
            }
        }
        if let Value::Object(p) = v {
            if at == "permission" && !entries[i + 1..].iter().any(|(k2, _)| k2 == k) {
                duplicates(p, &format!("{at}.{k}"), warnings);
            }
        }
    }
}

fn from_permission(
    permission: &Value,
    at: &str,
    mut warnings: Vec<ImportWarning>,
) -> Result<Imported, Error> {
    let config = PermissionConfig::decode_at(permission, at)?;
    if let Value::Object(entries) = permission {
        duplicates(entries, at, &mut warnings);
    }
    let rules = from_config(&config, HOME);
    let mut origins = Vec::with_capacity(rules.len());
    for (key, entry) in &config.entries {
        match entry {
            crate::opencode::PermissionEntry::Action(_) => origins.push(format!("{at}.{key}")),
            crate::opencode::PermissionEntry::Patterns(p) => {
                origins.extend(p.iter().map(|(pat, _)| format!("{at}.{key}.{pat}")))
            }
        }
    }
    let table = RuleTable::new(
        rules
            .iter()
            .map(|r| (r.permission.as_str(), r.pattern.as_str(), r.action)),
    );
    Ok(Imported {
        format: Format::OpenCode,
        table,
        origins,
        warnings,
        rules_in: leaves(permission),
        claude_settings: None,
        canonical: Vec::new(),
    })
}
