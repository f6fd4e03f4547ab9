//! Checks of the Codex conformance runner beyond the pass criterion (the cases themselves run
//! in `conformance.rs`).

/// Beyond the pass criterion (the decision `load_error`): the error text of today's CLI
/// (0.171.0, the recordings) is reproduced for every load-error case, line by line (the CLI
/// pads its source excerpts with trailing spaces). The pinned file's texts (an older build)
/// differ only where 0.171.0 changed them: the `PrefixPattern` repr now names
/// `canonical_matching`.
#[test]
fn codex_load_errors_render_like_the_cli() {
    use permlab_core::json::{self, Value};
    let trim = |s: &str| -> Vec<String> {
        s.trim_end()
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    };
    let mut seen = 0;
    for text in [
        include_str!("../../../fixtures/conformance/codex-real.json"),
        include_str!("../../../fixtures/conformance/codex-recorded.json"),
        include_str!("../../../fixtures/conformance/codex.json"),
    ] {
        let doc = json::parse(text).unwrap();
        let today = doc.get("meta").is_some();
        for case in doc.get("cases").and_then(Value::as_array).unwrap() {
            let Some(expected) = case.get("error").and_then(Value::as_str) else {
                continue;
            };
            let policy = case.get("policy").and_then(Value::as_str).unwrap();
            let err = permlab_core::codex::Policy::parse("policy.rules", policy).unwrap_err();
            let got = err.cli_text();
            let want = if today {
                expected.to_string()
            } else {
                expected.replace(
                    "PrefixPattern { first",
                    "PrefixPattern { canonical_matching: false, first",
                )
            };
            assert_eq!(trim(&got), trim(&want), "{policy}");
            seen += 1;
        }
    }
    assert_eq!(seen, 23 + 83 + 10);
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
