//! Runner for `fixtures/conformance/codex-approvals.json` ([`crate::codex::approval`]).
//!
//! Each case gives `sandbox`, `approval` (a policy name or `{"granular": {"sandbox_approval",
//! "rules"}}`), the `command` facts (`rule`, `known_safe`, `dangerous`, `writes`, `outside`,
//! `network`, `escalate`; absent = false) and `follows` (the source lines it follows, required);
//! `expect` holds `outcome`, `decision`, `sandboxed` and, for a rejected prompt, `reason`.

use super::SectionReport;
use crate::codex::approval::{decide, ApprovalPolicy, Command, Granular, SandboxMode};
use crate::codex::Decision as ExecDecision;
use crate::error::Error;
use crate::json::Value;

const ENGINE: &str = "codex-approvals";

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::shape("cases", "expected an array of cases"))?;
    let mut report = SectionReport::new(ENGINE, "cases");
    for (i, case) in cases.iter().enumerate() {
        let name = case.get("name").and_then(Value::as_str).unwrap_or("");
        let at = format!("cases[{i}] {name}");
        match read(case) {
            Err(msg) => report.fail(at, "a well-formed case", msg),
            Ok((mode, policy, command, expected)) => {
                let v = decide(mode, policy, &command);
                let got = format!(
                    "{} {} sandboxed={} reason={:?}",
                    v.outcome.slug(),
                    v.decision(),
                    v.sandboxed,
                    v.reason.as_deref()
                );
                report.check(|| at, &expected, &got);
            }
        }
    }
    Ok(vec![report])
}

fn read(case: &Value) -> Result<(SandboxMode, ApprovalPolicy, Command, String), String> {
    if case
        .get("follows")
        .and_then(Value::as_array)
        .is_none_or(<[Value]>::is_empty)
    {
        return Err("\"follows\" must list the source lines the case follows".into());
    }
    let sandbox = case.get("sandbox").and_then(Value::as_str).unwrap_or("");
    let mode = SandboxMode::from_slug(sandbox).ok_or_else(|| {
        format!("sandbox {sandbox:?}: use read-only, workspace-write or danger-full-access")
    })?;
    let approval = case.get("approval").ok_or("no \"approval\"")?;
    let policy = if let Some(g) = approval.get("granular") {
        let b = |k: &str| {
            g.get(k)
                .and_then(Value::as_bool)
                .ok_or(format!("granular.{k}: expected true or false"))
        };
        ApprovalPolicy::Granular(Granular {
            sandbox_approval: b("sandbox_approval")?,
            rules: b("rules")?,
            ..Granular::ALL_TRUE
        })
    } else {
        let s = approval.as_str().unwrap_or("");
        *ApprovalPolicy::NAMED
            .iter()
            .find(|p| p.slug() == s)
            .ok_or(format!(
            "approval {s:?}: use untrusted, on-failure, on-request, never or {{\"granular\": …}}"
        ))?
    };
    let c = case.get("command").ok_or("no \"command\"")?;
    let b = |k: &str| c.get(k).and_then(Value::as_bool).unwrap_or(false);
    let rule = match c.get("rule").and_then(Value::as_str) {
        None => None,
        Some("allow") => Some(ExecDecision::Allow),
        Some("prompt") => Some(ExecDecision::Prompt),
        Some("forbidden") => Some(ExecDecision::Forbidden),
        Some(other) => return Err(format!("rule {other:?}: use allow, prompt or forbidden")),
    };
    let command = Command {
        rule,
        known_safe: b("known_safe"),
        dangerous: b("dangerous"),
        writes: b("writes") || b("outside"),
        writes_outside_workspace: b("outside"),
        network: b("network"),
        requests_escalation: b("escalate"),
    };
    let e = case.get("expect").ok_or("no \"expect\"")?;
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
    let expected = format!(
        "{} {} sandboxed={} reason={:?}",
        s("outcome"),
        s("decision"),
        e.get("sandboxed").and_then(Value::as_bool).unwrap_or(false),
        e.get("reason").and_then(Value::as_str)
    );
    Ok((mode, policy, command, expected))
}
