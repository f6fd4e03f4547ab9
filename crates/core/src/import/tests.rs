//! Table-driven checks of each importer's corners.

use super::*;
use crate::claude_code::{eval, table as cc_table, Mode, Policy};
use crate::table::{Action, Call};
use crate::{engines, Decision, EngineId};

fn rows(i: &Imported) -> Vec<(String, String, Action)> {
    i.table
        .rules()
        .iter()
        .map(|r| (r.tool.clone(), r.pattern.clone(), r.action))
        .collect()
}

fn row(t: &str, p: &str, a: Action) -> (String, String, Action) {
    (t.into(), p.into(), a)
}

/// Seed 001's example `.claude/settings.json`.
const SEED_001: &str = r#"{
  "permissions": {
    "defaultMode": "acceptEdits",
    "allow": ["Bash(npm run test *)", "Bash(npm run lint)", "Bash(git diff *)", "Bash(git commit *)"],
    "ask": ["Bash(git push *)", "Bash(npm install *)"],
    "deny": ["Bash(git push --force *)", "Bash(curl *)", "Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)"]
  },
  "sandbox": {"enabled": true, "network": {"allowedDomains": ["registry.npmjs.org"]}}
}"#;

#[test]
fn seed_001_table_evaluates_like_the_settings_file() {
    let i = import(Format::ClaudeCode, SEED_001).unwrap();
    // Every rule imports; the two notes say what the verdicts do not show: the sandbox
    // auto-allows nothing without `autoAllowBashIfSandboxed: true` (recorded, CLI 2.1.332),
    // and its network allow-list bounds what runs, never a verdict.
    let notes: Vec<(&str, &crate::claude_code::Note)> = i
        .warnings
        .iter()
        .map(|w| match &w.note {
            crate::import::ImportNote::Settings(n) => (w.at.as_str(), n),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        notes,
        [
            (
                "sandbox.enabled",
                &crate::claude_code::Note::SandboxWithoutAutoAllow
            ),
            ("sandbox.network", &crate::claude_code::Note::NotModelled),
        ]
    );
    assert!(i.warnings.iter().all(|w| !w.dropped));
    assert_eq!(i.table.len(), 11);
    assert_eq!(rows(&i)[0], row("bash", "git push --force *", Action::Deny));
    assert_eq!(rows(&i)[2], row("read_file", "./.env", Action::Deny));
    let settings = i.claude_settings.clone().unwrap();
    assert_eq!(settings.default_mode, Some(Mode::AcceptEdits));
    let mut policy = Policy::merge(&[settings], true);
    policy.sandbox_enabled = false;
    let engine = engines::build(EngineId::ClaudeCode, &i.table);
    for (tool, input, want) in [
        ("bash", "git push --force origin main", Decision::Deny),
        ("bash", "git push origin main", Decision::Ask),
        ("bash", "npm run test -- auth", Decision::Allow),
        ("bash", "cat .env", Decision::Deny),
        ("read_file", "secrets/key.pem", Decision::Deny),
        ("bash", "node scripts/sync.js", Decision::Ask),
    ] {
        let call = Call::new(tool, input);
        let native = eval::evaluate(
            &policy,
            Mode::Default,
            &cc_table::lesson_context(),
            &cc_table::to_tool_call(&call),
        );
        assert_eq!(native.outcome.decision(), want, "{call}");
        assert_eq!(engine.evaluate(&call).decision, want, "{call}");
    }
}

#[test]
fn claude_rules_that_have_no_faithful_row_are_reported() {
    let i = import(
        Format::ClaudeCode,
        r#"{"permissions": {"allow": ["Bash(*)", "Write(src/**)", "Read", 7, "WebFetch(domain:docs.rs)"],
            "deny": ["Base(cd:*)", "Bash(ls", "mcp__github__get_*", "Task(Explore)", "Bash(sudo :* )"]}}"#,
    )
    .unwrap();
    assert_eq!(
        rows(&i),
        [
            row("mcp__github__get_*", "*", Action::Deny),
            row("Task", "Explore", Action::Deny),
            row("bash", "sudo :* ", Action::Deny),
            row("bash", "*", Action::Allow),
            row("read_file", "*", Action::Allow),
            row("WebFetch", "docs.rs", Action::Allow),
        ]
    );
    let dropped: Vec<_> = i
        .warnings
        .iter()
        .filter(|w| w.dropped)
        .map(|w| w.to_string())
        .collect();
    assert_eq!(i.rules_in, 10);
    assert_eq!(i.rules_imported() + i.rules_dropped(), 10, "{dropped:#?}");
    assert!(
        dropped
            .iter()
            .any(|w| w.contains("Write(src/**)") && w.contains("never consulted")),
        "{dropped:#?} {:#?}",
        i.warnings
    );
    assert!(dropped
        .iter()
        .any(|w| w.contains("Bash(ls") && w.contains("skips")));
    assert!(dropped
        .iter()
        .any(|w| w.starts_with("permissions.allow[3]")));
}

#[test]
fn opencode_keeps_its_order_and_reports_duplicates() {
    let i = import(
        Format::OpenCode,
        r#"{
          // JSONC
          "permission": {"bash": {"*": "ask", "git *": "allow", "git push *": "deny"}, "edit": "deny",
                         "bash": {"rm *": "deny"}},
          "agent": {"plan": {"permission": {"edit": "deny"}}}
        }"#,
    )
    .unwrap();
    // JavaScript: the duplicated `bash` keeps its first place with its last value.
    assert_eq!(
        rows(&i),
        [
            row("bash", "rm *", Action::Deny),
            row("edit", "*", Action::Deny)
        ]
    );
    assert_eq!(i.rules_in, 6);
    assert_eq!(i.rules_dropped(), 4);
    let err = import(
        Format::OpenCode,
        r#"{"permission": {"bash": {"git *": "yes"}}}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("permission.bash.git *"), "{err}");
}

#[test]
fn opencode_last_match_survives_the_import() {
    let i = import(
        Format::OpenCode,
        r#"{"permission": {"bash": {"git *": "allow", "git push *": "deny", "*": "ask"}}}"#,
    )
    .unwrap();
    let e = engines::build(EngineId::OpenCode, &i.table);
    // `"*"` written last wins for every command: OpenCode does not hoist it.
    assert_eq!(e.decide(&Call::new("bash", "git status")).0, Decision::Ask);
}

#[test]
fn opencode_agent_markdown() {
    let md = "---\ndescription: Reviews code\nmode: subagent\npermission:\n  edit: deny\n  bash:\n    \"*\": deny # default\n    \"git log*\": allow\n  task: { \"*\": deny }\n---\n# Reviewer\n";
    let i = import(Format::OpenCode, md).unwrap();
    assert_eq!(
        rows(&i),
        [
            row("edit", "*", Action::Deny),
            row("bash", "*", Action::Deny),
            row("bash", "git log*", Action::Allow),
            row("task", "*", Action::Deny),
        ]
    );
    let wrapped =
        "---\ndescription: reviews code\n  and writes notes\npermission:\n  edit: deny\n---\n";
    assert_eq!(
        rows(&import(Format::OpenCode, wrapped).unwrap()),
        [row("edit", "*", Action::Deny)]
    );
    let err = import(
        Format::OpenCode,
        "---\npermission:\n  bash: deny\n    \"*\": allow\n---\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("line 4") && err.contains("already has a value"),
        "{err}"
    );
    let err = import(Format::OpenCode, "---\npermission:\n  bash: deny\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("never ends"), "{err}");
    let err = import(Format::OpenCode, "---\npermission:\n  bash deny\n---\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 3"), "{err}");
}

#[test]
fn codex_rules_become_bash_rows() {
    let i = import(
        Format::Codex,
        r#"
prefix_rule(pattern=["git", ["push", "reset"]], decision="prompt")
prefix_rule(pattern=[["rm", "rmdir"], "-rf"], decision="forbidden")
prefix_rule(pattern=["echo", "a b"], decision="allow")
"#,
    )
    .unwrap();
    assert_eq!(
        rows(&i),
        [
            row("bash", "git push *", Action::Ask),
            row("bash", "git reset *", Action::Ask),
            row("bash", "rm -rf *", Action::Deny),
            row("bash", "rmdir -rf *", Action::Deny),
            row("bash", "echo 'a b' *", Action::Allow),
        ]
    );
    assert_eq!(i.rules_in, 4); // the first-position list is stored as two rules
    assert!(i.warnings.is_empty());
    let e = engines::build(EngineId::Codex, &i.table);
    assert_eq!(
        e.decide(&Call::new("bash", "echo 'a b' c")).0,
        Decision::Allow
    );
    assert_eq!(
        e.decide(&Call::new("bash", "rmdir -rf x")).0,
        Decision::Deny
    );
    let err = import(
        Format::Codex,
        "prefix_rule(pattern=[\"git\"], decision=\"maybe\")",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains(":1:1"), "{err}");
}
