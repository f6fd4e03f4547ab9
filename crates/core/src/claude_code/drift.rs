//! Where Claude Code's documentation and the real CLI disagree, as data the lesson can show.
//!
//! The engine decides as the recorded CLI ([`CLI_VERSION`], recorded on [`RECORDED`]) does; the
//! documentation (pinned [`DOCS_DATE`]) is what `claude-code.json` states. Every recorded case
//! whose `doc_decision` (or the docs file's `decision` for the same case id) differs from the
//! CLI's answer is one [`DocDrift`], e.g. `Bash(rm *)` and `/bin/rm -rf build`: "docs: ask ·
//! CLI 2.1.332: deny" (the docs say a deny rule misses the absolute path; the CLI normalises the
//! command name first). A removed tool (`unavailable`) is no drift from a documented `deny`.
//!
//! The list is generated from `fixtures/conformance/claude-code-real.json` and
//! `claude-code-recorded.json` into `drift_data.rs` when a recording is added; a test re-derives
//! it from the files, so it cannot go stale. The docs-file runner reports these cases in its
//! `drift` section instead of as failures.
//!
//! ```
//! use permlab_core::claude_code::drift;
//! use permlab_core::Decision;
//! let d = drift::find("wild-word-boundary-lsof").unwrap();
//! assert_eq!((d.docs, d.cli), (Decision::Ask, Decision::Allow));
//! assert_eq!(d.label(), "docs: ask · CLI 2.1.332: allow");
//! assert!(drift::all().len() >= 5);
//! ```

#[path = "drift_data.rs"]
mod data;
#[path = "drift_types.rs"]
mod types;

pub use types::{DocDrift, CLI_VERSION, DOCS_DATE, RECORDED};

/// Every known drift, in file order.
pub fn all() -> &'static [DocDrift] {
    data::DRIFT
}

/// The drift recorded for the case `id`, if any.
pub fn find(id: &str) -> Option<&'static DocDrift> {
    data::DRIFT.iter().find(|d| d.id == id)
}

/// The drift recorded for this exact Bash command (the first, when several cases share it).
///
/// ```
/// let d = permlab_core::claude_code::drift::for_bash("lsof -i :8080").unwrap();
/// assert_eq!(d.rules, "deny Bash(ls *)");
/// ```
pub fn for_bash(command: &str) -> Option<&'static DocDrift> {
    data::DRIFT
        .iter()
        .find(|d| d.call.strip_prefix("Bash: ") == Some(command))
}

/// A policy's rules as the drift data writes them: `deny Bash(curl *); ask …; allow …`, deny
/// first, then ask, then allow, each group in its merged order (`(no rules)` when none).
///
/// ```
/// use permlab_core::claude_code::{drift, Policy, Scope, SettingsFile};
/// let f = SettingsFile::from_json(r#"{"permissions": {"allow": ["Bash(ls *)"], "deny": ["Bash(curl *)"]}}"#, Scope::Project).unwrap();
/// let p = Policy::merge(&[f], true);
/// assert_eq!(drift::rules_text(&p), "deny Bash(curl *); allow Bash(ls *)");
/// ```
pub fn rules_text(policy: &super::Policy) -> String {
    use crate::table::Action;
    let mut out: Vec<String> = Vec::new();
    for group in [Action::Deny, Action::Ask, Action::Allow] {
        out.extend(
            policy
                .rules
                .iter()
                .filter(|r| r.group == group)
                .map(|r| format!("{} {}", group.as_str(), r.text)),
        );
    }
    if out.is_empty() {
        "(no rules)".into()
    } else {
        out.join("; ")
    }
}

/// A policy's sandbox settings as the drift data writes them: `off`, or `on` followed by
/// `; autoAllowBashIfSandboxed`, `; allowUnsandboxedCommands: false` and
/// `; excludedCommands: a, b` where they are set.
///
/// ```
/// use permlab_core::claude_code::{drift, Policy, Scope, SettingsFile};
/// let f = SettingsFile::from_json(r#"{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}"#, Scope::Project).unwrap();
/// assert_eq!(drift::sandbox_text(&Policy::merge(&[f], true)), "on; autoAllowBashIfSandboxed");
/// ```
pub fn sandbox_text(policy: &super::Policy) -> String {
    if !policy.sandbox_enabled {
        return "off".into();
    }
    let mut out = String::from("on");
    if policy.auto_allow_bash_if_sandboxed {
        out.push_str("; autoAllowBashIfSandboxed");
    }
    if !policy.allow_unsandboxed_commands {
        out.push_str("; allowUnsandboxedCommands: false");
    }
    if !policy.excluded_commands.is_empty() {
        out.push_str("; excludedCommands: ");
        out.push_str(&policy.excluded_commands.join(", "));
    }
    out
}

/// The drift recorded for this Bash `command` under exactly these settings — the same rules
/// ([`rules_text`]), mode and sandbox ([`sandbox_text`]): what a lesson whose settings are a
/// recorded case's shows next to the CLI's verdict. Settings that differ in any of these
/// never borrow a case's drift (`npm test` asks with a sandbox lacking the auto-allow key,
/// against the docs, but without a sandbox the docs say ask too).
pub fn for_settings(
    policy: &super::Policy,
    mode: super::Mode,
    command: &str,
) -> Option<&'static DocDrift> {
    let (rules, sandbox) = (rules_text(policy), sandbox_text(policy));
    data::DRIFT.iter().find(|d| {
        d.rules == rules
            && d.mode == mode.as_str()
            && d.sandbox == sandbox
            && d.call.strip_prefix("Bash: ") == Some(command)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{self, Value};
    use crate::Decision;

    fn decision(s: &str) -> Decision {
        match s {
            "allow" => Decision::Allow,
            "ask" => Decision::Ask,
            "deny" => Decision::Deny,
            "unavailable" => Decision::Unavailable,
            other => panic!("unknown decision {other}"),
        }
    }

    /// The generated table is exactly what the fixture files say, in their order.
    #[test]
    fn the_table_is_what_the_recordings_say() {
        let docs = json::parse(include_str!(
            "../../../../fixtures/conformance/claude-code.json"
        ))
        .unwrap();
        let docs: Vec<(String, String)> = docs
            .get("cases")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .map(|c| {
                let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap().to_string();
                (s("id"), s("decision"))
            })
            .collect();
        let mut want = Vec::new();
        for (file, text) in [
            (
                "claude-code-real.json",
                include_str!("../../../../fixtures/conformance/claude-code-real.json"),
            ),
            (
                "claude-code-recorded.json",
                include_str!("../../../../fixtures/conformance/claude-code-recorded.json"),
            ),
        ] {
            let doc = json::parse(text).unwrap();
            for c in doc.get("cases").and_then(Value::as_array).unwrap() {
                let id = c.get("id").and_then(Value::as_str).unwrap();
                let cli = c.get("decision").and_then(Value::as_str).unwrap();
                let stated = c.get("doc_decision").and_then(Value::as_str).or_else(|| {
                    if c.get("variant_of").is_some() {
                        return None;
                    }
                    docs.iter().find(|(i, _)| i == id).map(|(_, d)| d.as_str())
                });
                let Some(stated) = stated else { continue };
                let removed = stated == "deny" && cli == "unavailable";
                if stated != cli && !removed {
                    let settings = c.get("settings").unwrap();
                    let f = crate::claude_code::SettingsFile::from_value(
                        settings,
                        crate::claude_code::Scope::Project,
                    )
                    .unwrap();
                    let policy = crate::claude_code::Policy::merge(&[f], true);
                    let mode = settings
                        .get("permissions")
                        .and_then(|p| p.get("defaultMode"))
                        .and_then(Value::as_str)
                        .unwrap_or("default")
                        .to_string();
                    want.push((
                        id.to_string(),
                        decision(stated),
                        decision(cli),
                        file,
                        mode,
                        sandbox_text(&policy),
                    ));
                }
            }
        }
        let got: Vec<(String, Decision, Decision, &str, String, String)> = all()
            .iter()
            .map(|d| {
                (
                    d.id.to_string(),
                    d.docs,
                    d.cli,
                    d.file,
                    d.mode.to_string(),
                    d.sandbox.to_string(),
                )
            })
            .collect();
        assert_eq!(got, want, "regenerate drift_data.rs from the fixtures");
        assert!(all().iter().all(|d| d.docs != d.cli));
    }
}
