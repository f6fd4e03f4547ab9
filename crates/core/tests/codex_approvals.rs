//! Every case of `fixtures/conformance/codex-approvals.json` through
//! `permlab_core::codex::approval::decide` (via the conformance runner the CLI uses).

#[test]
fn every_case_follows_its_source_lines() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/conformance/codex-approvals.json"
    );
    let reports = permlab_core::conformance::run(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert!(r.passed >= 20, "only {} cases", r.passed);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}

#[test]
fn a_wrong_expectation_is_reported() {
    let doc = r#"{"engine": "codex-approvals", "cases": [
      {"name": "x", "sandbox": "workspace-write", "approval": "never", "command": {"rule": "prompt"},
       "expect": {"outcome": "ask", "decision": "ask", "sandboxed": true}, "follows": ["prompt_is_rejected_by_policy"]},
      {"name": "y", "sandbox": "workspace-write", "approval": "never", "command": {},
       "expect": {"outcome": "run", "decision": "allow", "sandboxed": true}, "follows": []}
    ]}"#;
    let r = &permlab_core::conformance::run(doc).unwrap()[0];
    assert_eq!(r.passed, 0);
    assert_eq!(r.failed(), 2);
    assert!(r.failures[1].got.contains("follows"));
}
