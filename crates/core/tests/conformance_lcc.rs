//! Runs `fixtures/conformance/lcc.json` (expected values from the real code) and requires every
//! case of every section to pass.

use permlab_core::conformance;

const SECTIONS: &[&str] = &[
    "cases",
    "gate3_timeout_and_truncation",
    "gate2_safe_path_s03",
];

const FILE: &str = include_str!("../../../fixtures/conformance/lcc.json");

#[test]
fn every_case_passes() {
    let reports = conformance::run(FILE).expect("the conformance file loads");
    let mut failures = Vec::new();
    for r in &reports {
        println!(
            "lcc {}: {} passed, {} failed",
            r.section,
            r.passed,
            r.failed()
        );
        for f in r.failures.iter().take(5) {
            failures.push(format!(
                "{} / {}: {}\n    expected: {}\n    got:      {}",
                r.engine, r.section, f.input, f.expected, f.got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "first failures:\n{}",
        failures.join("\n")
    );
    let sections: Vec<&str> = reports.iter().map(|r| r.section.as_str()).collect();
    assert_eq!(sections, SECTIONS, "every section of the file is run");
    assert!(reports.iter().all(|r| r.passed > 0));
}

#[test]
fn a_wrong_expectation_is_reported() {
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 3] = [
        ("matched", |d| {
            d["cases"][2]["matched_substrings"] = serde_json::json!([])
        }),
        ("length", |d| {
            d["gate3_timeout_and_truncation"][1]["result_len"] = 49_999.into()
        }),
        ("relative", |d| {
            d["gate2_safe_path_s03"][4]["resolved_rel"] = "./".into()
        }),
    ];
    for (what, edit) in edits {
        let mut doc: serde_json::Value = serde_json::from_str(FILE).unwrap();
        edit(&mut doc);
        let reports = conformance::run(&doc.to_string()).unwrap();
        let failed: usize = reports.iter().map(|r| r.failed()).sum();
        assert!(failed >= 1, "{what}: not detected");
    }
}
