//! Every case of `fixtures/conformance/claude-code.json` (verdicts stated by Claude Code's
//! documentation) must pass.

#[test]
fn claude_code_conformance() {
    let text = include_str!("../../../fixtures/conformance/claude-code.json");
    let reports = permlab_core::conformance::run(text).expect("the file runs");
    let mut failed = 0;
    for r in &reports {
        println!(
            "{} {}: {} passed, {} failed",
            r.engine,
            r.section,
            r.passed,
            r.failed()
        );
        for f in r.failures.iter().take(20) {
            println!("  {}\n    expected {}, got {}", f.input, f.expected, f.got);
        }
        failed += r.failed();
    }
    let passed: usize = reports.iter().map(|r| r.passed).sum();
    assert!(passed >= 118, "only {passed} cases ran");
    assert_eq!(failed, 0, "{failed} conformance failures (see above)");
}
