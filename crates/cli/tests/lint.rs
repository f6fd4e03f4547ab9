//! `permlab lint`: exit status 0 clean, 1 findings, 2 unreadable input; `--json`; layers and
//! `--target`.

mod common;
use common::{permlab, temp_file, text};

#[test]
fn exit_status_says_clean_findings_or_unreadable() {
    let clean = temp_file(
        "clean.json",
        r#"{"permission": {"bash": {"*": "ask", "git *": "allow"}}}"#,
    );
    let out = permlab(&["lint", &clean]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("0 findings in 1 file\n"));

    let dirty = temp_file(
        "opencode.json",
        r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#,
    );
    let out = permlab(&["lint", &dirty]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains(":1:26: warning [dead-rule]"), "{s}");
    assert!(s.contains("call `bash: rm` → allow"), "{s}");
    assert!(s.contains("fix: move"), "{s}");

    let broken = temp_file(
        "broken/settings.json",
        "{\"permissions\": {\"allow\": [\"Bash(ls)\",]}}",
    );
    let out = permlab(&["lint", &broken]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("settings.json: 1:38: invalid JSON") && e.contains("fix it there"),
        "{e}"
    );
    // A file that could not be read is not reported as clean.
    assert!(
        !text(&out.stdout).contains("0 findings"),
        "{}",
        text(&out.stdout)
    );
    let out = permlab(&["lint", &broken, &clean]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).ends_with("0 findings in 1 file; 1 file could not be read (below)\n"),
        "{}",
        text(&out.stdout)
    );

    let out = permlab(&["lint", "/nonexistent/settings.json"]);
    assert_eq!(out.status.code(), Some(2));
    let out = permlab(&["lint", &dirty, "--target", "cursor"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("use claude-code, opencode or codex"));
}

#[test]
fn json_output_is_for_editors_and_ci() {
    let rules = temp_file(
        "policy.rules",
        "prefix_rule(pattern=[\"git\", \"push\", \"--force\"], decision=\"forbidden\")\n",
    );
    let out = permlab(&["lint", "--json", &rules]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.starts_with("{\"findings\": ["), "{s}");
    assert!(s.contains("\"kind\":\"flag-after-prefix\""), "{s}");
    assert!(s.contains("\"input\":\"git push origin --force\""), "{s}");
    assert!(s.contains("\"line\":1,\"column\":1"), "{s}");
    assert!(s.trim_end().ends_with("\"errors\": []}"), "{s}");
}

#[test]
fn claude_layers_and_translation_targets() {
    let user = temp_file(
        "user-settings.json",
        r#"{"permissions": {"allow": ["Bash(git push origin main)"]}}"#,
    );
    let project = temp_file(
        "settings.json",
        r#"{"permissions": {"deny": ["Bash(git push *)"]}}"#,
    );
    let out = permlab(&[
        "lint",
        &format!("user:{user}"),
        &format!("project:{project}"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(
        s.contains("[dead-rule] `allow Bash(git push origin main)` never decides"),
        "{s}"
    );

    let lesson = temp_file(
        "lesson.json",
        r#"{"permission": {"bash": {"*": "deny", "python -m unittest *": "allow"}}}"#,
    );
    let out = permlab(&["lint", &lesson]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = permlab(&["lint", &lesson, "--target", "claude-code"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("[translation]"),
        "{}",
        text(&out.stdout)
    );
}
