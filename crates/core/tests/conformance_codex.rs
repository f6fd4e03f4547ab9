//! Checks of the Codex conformance runner beyond the pass criterion (the cases themselves run
//! in `conformance.rs`).

/// Beyond the pass criterion (the decision `load_error`): the CLI's error text is reproduced
/// byte for byte for every load-error case of the file.
#[test]
fn codex_load_errors_render_like_the_cli() {
    use permlab_core::json::{self, Value};
    let doc = json::parse(include_str!("../../../fixtures/conformance/codex.json")).unwrap();
    let mut seen = 0;
    for case in doc.get("cases").and_then(Value::as_array).unwrap() {
        let Some(expected) = case.get("error").and_then(Value::as_str) else {
            continue;
        };
        let policy = case.get("policy").and_then(Value::as_str).unwrap();
        let err = permlab_core::codex::Policy::parse("policy.rules", policy).unwrap_err();
        assert_eq!(err.cli_text(), expected, "{policy}");
        seen += 1;
    }
    assert_eq!(seen, 10);
}

/// The runner reports wrong expectations and malformed cases as failures, never panics.
#[test]
fn codex_runner_reports_failures() {
    let doc = r#"{"engine": "codex", "cases": [
      {"kind": "cli", "policy": "prefix_rule(pattern=[\"ls\"])", "command": ["ls"],
       "argv": ["codex-execpolicy", "check", "--rules", "policy.rules", "--", "ls"],
       "exit_code": 0, "decision": "prompt", "matched_rules": [], "stdout": ""},
      {"kind": "cli", "policy": "prefix_rule(pattern=[])", "command": ["ls"], "decision": null},
      {"kind": "cli", "command": ["ls"]},
      {"kind": "core_shell_wrapper", "policy": "", "command": ["bash", "-lc", "ls"],
       "split_commands": [["ls"]], "used_complex_parsing": false,
       "per_command": [{"command": ["ls"], "decision": null, "matchedRules": []}],
       "decision": null, "unmatched_commands": [["ls"]],
       "decision_if_unmatched_allow": "allow", "decision_if_unmatched_prompt": "prompt"},
      {"kind": "mystery"}
    ]}"#;
    let reports = permlab_core::conformance::run(doc).unwrap();
    let tally: Vec<(&str, usize, usize)> = reports
        .iter()
        .map(|r| (r.section.as_str(), r.passed, r.failed()))
        .collect();
    assert_eq!(
        tally,
        [
            ("cases/cli", 0, 3),
            ("cases/core_shell_wrapper", 1, 0),
            ("cases/mystery", 0, 1)
        ]
    );
    assert!(reports[0].failures[0].expected.contains("\"prompt\""));
    assert!(permlab_core::conformance::run(r#"{"engine": "codex"}"#).is_err());
}
