//! Runs `fixtures/conformance/codex.json` (expected values from the real execpolicy crate at
//! openai/codex 6a0c4709) and requires every case to pass.

#[test]
fn codex_conformance_has_no_failures() {
    let text = include_str!("../../../fixtures/conformance/codex.json");
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
        for f in r.failures.iter().take(10) {
            println!(
                "  {}\n    expected: {}\n    got:      {}",
                f.input, f.expected, f.got
            );
        }
        failed += r.failed();
    }
    let sections: Vec<&str> = reports.iter().map(|r| r.section.as_str()).collect();
    assert_eq!(sections, ["cases/cli", "cases/core_shell_wrapper"]);
    assert_eq!(reports.iter().map(|r| r.passed).sum::<usize>(), 78);
    assert_eq!(failed, 0, "codex conformance failures (see above)");
}

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
