//! Runner for `claude-code.json`: verdicts stated by Claude Code's documentation.
//!
//! Per case: the context is `defaults.context` overlaid key by key with the case's `context`;
//! the mode is `settings.permissions.defaultMode` (`manual` = `default`; absent →
//! `defaults.defaultMode`); rules come from `layers` when present (trust,
//! `allowManagedPermissionRulesOnly` and `/path` anchors depend on the source), else from
//! `settings` attributed to `context.rule_source`. The pass criterion is `decision`; a removed
//! tool ([`Outcome::Unavailable`]) counts as `deny`, as the file's conventions say.
//!
//! `matched` is prose, compared loosely in a second section, `matched`: when it names a
//! deciding rule (`deny:RULE …`, `ask:RULE …`, `allow:RULE …`, except labels saying the rule was
//! `skipped` or `ignored`), the engine's deciding rule must be that rule, written exactly as in
//! the settings; any other label (`mode:…`, `builtin:…`, `critical-path`…) means no rule decided.

use super::SectionReport;
use crate::claude_code::{
    evaluate, Context, Hook, Mode, Outcome, Policy, Scope, SettingsFile, Surface, ToolCall,
};
use crate::error::Error;
use crate::json::Value;

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let defaults = doc.get("defaults");
    let default_ctx = defaults.and_then(|d| d.get("context"));
    let default_mode = match defaults
        .and_then(|d| d.get("defaultMode"))
        .and_then(Value::as_str)
    {
        Some(m) => Mode::parse(m)
            .ok_or_else(|| Error::shape("defaults.defaultMode", format!("unknown mode \"{m}\"")))?,
        None => Mode::Default,
    };
    let Some(cases) = doc.get("cases").and_then(Value::as_array) else {
        return Err(Error::shape("cases", "expected an array of cases"));
    };
    let mut report = SectionReport::new("claude-code", "cases");
    let mut matched = SectionReport::new("claude-code", "matched");
    for (k, case) in cases.iter().enumerate() {
        let id = case
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let input = || {
            let call = case.get("call").map(Value::to_json).unwrap_or_default();
            format!("{id}: {call}")
        };
        let expected = case.get("decision").and_then(Value::as_str).unwrap_or("");
        match run_case(case, default_ctx, default_mode) {
            Ok((got, rule)) => {
                report.check(input, expected, got);
                let label = case.get("matched").and_then(Value::as_str).unwrap_or("");
                let want = named_rule(label);
                matched.check(
                    || format!("{id}: matched {label:?}"),
                    want.unwrap_or("(no rule)"),
                    rule.as_deref().unwrap_or("(no rule)"),
                );
            }
            Err(e) => report.fail(format!("cases[{k}] {id}"), expected, format!("error: {e}")),
        }
    }
    Ok(vec![report, matched])
}

/// The rule a `matched` label names as deciding: `deny:Bash(rm *) (comment)` → `Bash(rm *)`.
fn named_rule(label: &str) -> Option<&str> {
    let rest = ["deny:", "ask:", "allow:"]
        .iter()
        .find_map(|p| label.strip_prefix(p))?;
    if label.contains("skipped") || label.contains("ignored") {
        return None;
    }
    let mut depth = 0usize;
    for (k, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(&rest[..k + 1]);
                }
            }
            ' ' if depth == 0 => return Some(&rest[..k]),
            _ => {}
        }
    }
    Some(rest)
}

/// One case of the conformance file as the evaluator takes it: the merged policy, the mode,
/// the context and the call (also used by the decision-flow scene's tests).
pub(crate) fn read_case(
    case: &Value,
    default_ctx: Option<&Value>,
    default_mode: Mode,
) -> Result<(Policy, Mode, Context, ToolCall), Error> {
    let field = |name: &str| -> Option<&Value> {
        case.get("context")
            .and_then(|c| c.get(name))
            .or_else(|| default_ctx.and_then(|c| c.get(name)))
    };
    let text = |name: &str, fallback: &str| {
        field(name)
            .and_then(Value::as_str)
            .unwrap_or(fallback)
            .to_string()
    };
    let flag =
        |name: &str, fallback: bool| field(name).and_then(Value::as_bool).unwrap_or(fallback);
    let base = Context::default();
    let cwd = text("cwd", &base.cwd);
    let ctx = Context {
        home: text("home", &base.home),
        project_root: field("project_root")
            .and_then(Value::as_str)
            .unwrap_or(&cwd)
            .to_string(),
        cwd: cwd.clone(),
        interactive: flag("interactive", true),
        surface: match text("surface", "cli").as_str() {
            "sdk" => Surface::Sdk,
            _ => Surface::Cli,
        },
        sandboxable: flag("sandboxable", true),
        auto_mode_available: field("auto_mode_available").and_then(Value::as_bool),
        hook: match field("pretooluse_hook").and_then(Value::as_str) {
            Some("allow") => Some(Hook::Allow),
            Some("block") => Some(Hook::Block),
            _ => None,
        },
        symlinks: field("symlinks")
            .and_then(Value::as_object)
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default(),
        requires_user_interaction: flag("requires_user_interaction", false),
    };
    // The trust dialog is only ever shown in interactive sessions.
    let trusted = flag("trusted", true) && ctx.interactive;
    let settings = case
        .get("settings")
        .ok_or_else(|| Error::shape("settings", "a case needs \"settings\""))?;
    let files = match case.get("layers").and_then(Value::as_object) {
        Some(layers) => {
            let mut files = Vec::new();
            for (name, v) in layers {
                let scope = Scope::from_name(name).ok_or_else(|| {
                    Error::shape(
                        format!("layers.{name}"),
                        "unknown scope: use managed, cli, local, project or user",
                    )
                })?;
                files.push(SettingsFile::from_value(v, scope)?);
            }
            files
        }
        None => {
            let source = text("rule_source", "project");
            let scope = Scope::from_name(&source).ok_or_else(|| {
                Error::shape("context.rule_source", format!("unknown scope \"{source}\""))
            })?;
            vec![SettingsFile::from_value(settings, scope)?]
        }
    };
    let policy = Policy::merge(&files, trusted);
    let mode = match settings
        .get("permissions")
        .and_then(|p| p.get("defaultMode"))
        .and_then(Value::as_str)
    {
        Some(m) => Mode::parse(m).ok_or_else(|| {
            Error::shape(
                "settings.permissions.defaultMode",
                format!("unknown mode \"{m}\""),
            )
        })?,
        None => policy.default_mode.unwrap_or(default_mode),
    };
    let call = case
        .get("call")
        .ok_or_else(|| Error::shape("call", "a case needs \"call\""))?;
    let tool = call
        .get("tool")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::shape("call.tool", "expected a string"))?;
    let input = call
        .get("input")
        .cloned()
        .unwrap_or(Value::Object(Vec::new()));
    Ok((policy, mode, ctx, ToolCall::new(tool, input)))
}

fn run_case(
    case: &Value,
    default_ctx: Option<&Value>,
    default_mode: Mode,
) -> Result<(&'static str, Option<String>), Error> {
    let (policy, mode, ctx, call) = read_case(case, default_ctx, default_mode)?;
    let v = evaluate(&policy, mode, &ctx, &call);
    let decision = match v.outcome {
        Outcome::Allow => "allow",
        Outcome::Ask => "ask",
        Outcome::Deny | Outcome::Unavailable => "deny",
        Outcome::Classifier => "classifier",
    };
    let rule = v
        .rule
        .and_then(|r| policy.rules.get(r))
        .map(|r| r.text.clone());
    Ok((decision, rule))
}
