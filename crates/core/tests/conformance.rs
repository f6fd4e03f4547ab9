//! Every case of every conformance file must pass: the expected values were computed by running
//! the real harnesses (Claude Code: stated by its documentation), and they are never edited.
//! One test per file, so a regression names the harness it broke; each prints its per-section
//! tally and the first failures with input, expected and computed value.
//!
//! Engine-specific checks of the runners themselves (that they *can* fail, exact error texts)
//! live in the `conformance_<engine>.rs` files.

fn assert_every_case_passes(text: &str, sections: &[&str]) {
    let reports = permlab_core::conformance::run(text).expect("the conformance file runs");
    let mut failures = Vec::new();
    for r in &reports {
        println!(
            "{} {}: {} passed, {} failed",
            r.engine,
            r.section,
            r.passed,
            r.failed()
        );
        for f in r.failures.iter().take(10) {
            failures.push(format!(
                "{} {}: {}\n    expected: {}\n    got:      {}",
                r.engine, r.section, f.input, f.expected, f.got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "first failures:\n{}",
        failures.join("\n")
    );
    let run: Vec<&str> = reports.iter().map(|r| r.section.as_str()).collect();
    assert_eq!(run, sections, "every section of the file is run");
    assert!(
        reports.iter().all(|r| r.passed > 0),
        "a section ran no case"
    );
}

macro_rules! conformance {
    ($test:ident, $file:literal, [$($section:literal),+ $(,)?]) => {
        #[test]
        fn $test() {
            assert_every_case_passes(
                include_str!(concat!("../../../fixtures/conformance/", $file)),
                &[$($section),+],
            );
        }
    };
}

conformance!(
    opencode,
    "opencode.json",
    [
        "wildcard",
        "wildcard_win32",
        "evaluate",
        "fromConfig",
        "merge",
        "agents",
        "configLayers",
    ]
);
conformance!(
    claude_code,
    "claude-code.json",
    ["cases", "matched", "drift"]
);
conformance!(
    claude_code_real,
    "claude-code-real.json",
    ["cases", "drift"]
);
conformance!(
    claude_code_recorded,
    "claude-code-recorded.json",
    ["cases", "drift"]
);
conformance!(codex_real, "codex-real.json", ["cases/cli"]);
conformance!(
    codex,
    "codex.json",
    ["cases/cli", "cases/core_shell_wrapper"]
);
conformance!(
    corecoder,
    "corecoder.json",
    [
        "read_only_tools",
        "cases",
        "bash_blacklist_patterns",
        "bash_blacklist",
        "bash_blacklist_extra",
    ]
);
conformance!(
    lcc,
    "lcc.json",
    [
        "cases",
        "gate3_timeout_and_truncation",
        "gate2_safe_path_s03"
    ]
);
