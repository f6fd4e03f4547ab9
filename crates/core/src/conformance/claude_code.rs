//! Runner for the Claude Code conformance files: `claude-code.json` (verdicts stated by the
//! documentation) and the recordings of the real CLI (`claude-code-real.json`,
//! `claude-code-recorded.json`: a case there has a `real_reason`, the tool_result text the CLI
//! sent back).
//!
//! Per case: the context is `defaults.context` overlaid key by key with the case's `context`;
//! the mode is `settings.permissions.defaultMode` (`manual` = `default`; absent →
//! `defaults.defaultMode`; with `context.mode_flag: false`, the mode the settings files start
//! the session in, [`Policy::session_mode`]); rules come from `layers` when present (trust,
//! `allowManagedPermissionRulesOnly` and `/path` anchors depend on the source), else from
//! `settings` attributed to `context.rule_source`. The pass criterion is `decision`.
//!
//! **Docs file.** A removed tool ([`Outcome::Unavailable`]) counts as `deny`, as the file's
//! conventions say. `matched` is prose, compared loosely in a second section, `matched`: when
//! it names a deciding rule (`deny:RULE …`, `ask:RULE …`, `allow:RULE …`, except labels saying
//! the rule was `skipped` or `ignored`), the engine's deciding rule must be that rule, written
//! exactly as in the settings; any other label (`mode:…`, `builtin:…`, `critical-path`…) means
//! no rule decided. The engine decides as the recorded CLI does, so where the docs and the CLI
//! disagree the case cannot pass: when [`drift::find`](crate::claude_code::drift::find) lists
//! the case with exactly this pair of answers (docs: the expected value, CLI: what we
//! compute), it goes to a third section, `drift`, instead of the failures.
//!
//! **Recorded files.** `unavailable` is an outcome of its own (the CLI answered "No such tool
//! available"), told apart from `deny`. There is no `matched`. `doc_decision`, where present,
//! is what the docs state; the cases where it differs from the recorded decision are listed in
//! the `drift` section (they pass: the recording is the truth). The recording's auto-mode
//! classifier never ran ("Auto mode is unavailable"), so a call we hand to the classifier
//! ([`Outcome::Classifier`]) is compared as `deny`.

use super::{DriftCase, SectionReport};
use crate::claude_code::{
    drift, evaluate, Context, Hook, Mode, Outcome, Policy, Scope, SettingsFile, Surface, ToolCall,
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
    let recorded = cases.iter().any(|c| c.get("real_reason").is_some());
    let mut report = SectionReport::new("claude-code", "cases");
    let mut matched = SectionReport::new("claude-code", "matched");
    let mut drifted = SectionReport::new("claude-code", "drift");
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
        let (got, rule) = match run_case(case, default_ctx, default_mode) {
            Ok(r) => r,
            Err(e) => {
                report.fail(format!("cases[{k}] {id}"), expected, format!("error: {e}"));
                continue;
            }
        };
        let got = match got {
            Outcome::Allow => "allow",
            Outcome::Ask => "ask",
            Outcome::Deny => "deny",
            Outcome::Unavailable if recorded => "unavailable",
            Outcome::Unavailable => "deny",
            // The recording's classifier never ran: the CLI denied such calls.
            Outcome::Classifier if recorded => "deny",
            Outcome::Classifier => "classifier",
        };
        if recorded {
            report.check(input, expected, got);
            if let Some(docs) = case.get("doc_decision").and_then(Value::as_str) {
                if !same_for_docs(docs, expected) {
                    drifted.passed += 1;
                    drifted.drift.push(DriftCase {
                        input: input(),
                        docs: docs.to_string(),
                        cli: expected.to_string(),
                    });
                }
            }
            continue;
        }
        if expected != got {
            if let Some(d) = drift::find(&id) {
                if d.docs.as_str() == expected && same_for_docs(got, d.cli.as_str()) {
                    drifted.passed += 1;
                    drifted.drift.push(DriftCase {
                        input: input(),
                        docs: expected.to_string(),
                        cli: d.cli.as_str().to_string(),
                    });
                    continue;
                }
            }
        }
        report.check(input, expected, got);
        let label = case.get("matched").and_then(Value::as_str).unwrap_or("");
        let want = named_rule(label);
        matched.check(
            || format!("{id}: matched {label:?}"),
            want.unwrap_or("(no rule)"),
            rule.as_deref().unwrap_or("(no rule)"),
        );
    }
    Ok(if recorded {
        vec![report, drifted]
    } else {
        vec![report, matched, drifted]
    })
}

/// The docs report a removed tool as `deny`: `unavailable` in the CLI is no drift from that.
fn same_for_docs(docs: &str, cli: &str) -> bool {
    docs == cli || (docs == "deny" && cli == "unavailable")
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
        // `harness.skill_frontmatter`: the SKILL.md front matter the recorder wrote.
        skill_allowed_tools: case
            .get("harness")
            .and_then(|h| h.get("skill_frontmatter"))
            .and_then(Value::as_str)
            .is_some_and(|f| {
                f.lines()
                    .any(|l| l.trim_start().starts_with("allowed-tools:"))
            }),
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
    // `context.mode_flag: false`: the run had no `--permission-mode` flag, so the mode is the
    // one the settings files start the session in (a project `bypassPermissions` does not).
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
    let mode = if field("mode_flag").and_then(Value::as_bool) == Some(false) {
        policy.session_mode()
    } else {
        mode
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
) -> Result<(Outcome, Option<String>), Error> {
    let (policy, mode, ctx, call) = read_case(case, default_ctx, default_mode)?;
    let v = evaluate(&policy, mode, &ctx, &call);
    let rule = v
        .rule
        .and_then(|r| policy.rules.get(r))
        .map(|r| r.text.clone());
    Ok((v.outcome, rule))
}
