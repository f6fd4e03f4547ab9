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
conformance!(opencode_bash_real, "opencode-bash-real.json", ["cases"]);
conformance!(
    opencode_bash_recorded,
    "opencode-bash-recorded.json",
    ["cases"]
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
conformance!(codex_recorded, "codex-recorded.json", ["cases/cli"]);
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

/// The Claude Code runner: in a recording `unavailable` is its own answer (a `deny` expected
/// for a removed tool fails); in the docs file it counts as `deny`. A documented answer the CLI
/// contradicts is drift only when the core's drift list names that case with that pair.
#[test]
fn claude_code_runner_unavailable_and_drift() {
    use permlab_core::conformance::run;
    let case = |id: &str, deny: &str, cmd: &str, decision: &str, extra: &str| {
        format!(
            r#"{{"engine": "claude-code", "cases": [{{"id": "{id}", "settings": {{"permissions": {{"deny": ["{deny}"]}}}},
               "call": {{"tool": "Bash", "input": {{"command": "{cmd}"}}}}, "decision": "{decision}"{extra}}}]}}"#
        )
    };
    let tally = |text: String| -> Vec<(String, usize, usize, usize)> {
        run(&text)
            .unwrap()
            .iter()
            .map(|r| (r.section.clone(), r.passed, r.failed(), r.drift.len()))
            .collect()
    };
    let recorded = r#", "real_reason": "No such tool available""#;
    assert_eq!(
        tally(case("a", "Bash", "ls", "unavailable", recorded))[0],
        ("cases".into(), 1, 0, 0)
    );
    assert_eq!(
        tally(case("a", "Bash", "ls", "deny", recorded))[0],
        ("cases".into(), 0, 1, 0)
    );
    assert_eq!(
        tally(case("a", "Bash", "ls", "deny", ""))[0],
        ("cases".into(), 1, 0, 0)
    );
    // A recording's `doc_decision` that differs is listed (and the case passes).
    let t = tally(case(
        "b",
        "Bash(rm *)",
        "/bin/rm -rf build",
        "deny",
        r#", "real_reason": "denied", "doc_decision": "ask""#,
    ));
    assert_eq!(t, [("cases".into(), 1, 0, 0), ("drift".into(), 1, 0, 1)]);
    // The docs file: the listed case drifts; the same wrong answer under another id fails.
    let docs = |id: &str| case(id, "Bash(ls *)", "lsof -i :8080", "ask", "");
    assert_eq!(
        tally(docs("wild-word-boundary-lsof")),
        [
            ("cases".into(), 0, 0, 0),
            ("matched".into(), 0, 0, 0),
            ("drift".into(), 1, 0, 1)
        ]
    );
    assert_eq!(tally(docs("not-listed"))[0], ("cases".into(), 0, 1, 0));
}

conformance!(
    codex_exec_recorded,
    "codex-exec-recorded.json",
    ["cases/exec"]
);
