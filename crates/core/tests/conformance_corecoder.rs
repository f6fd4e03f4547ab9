//! Runs `fixtures/conformance/corecoder.json` (expected values from the real code) and requires every
//! case of every section to pass.

use permlab_core::conformance;

const SECTIONS: &[&str] = &[
    "read_only_tools",
    "cases",
    "bash_blacklist_patterns",
    "bash_blacklist",
    "bash_blacklist_extra",
];

const FILE: &str = include_str!("../../../fixtures/conformance/corecoder.json");

#[test]
fn every_case_passes() {
    let reports = conformance::run(FILE).expect("the conformance file loads");
    let mut failures = Vec::new();
    for r in &reports {
        println!(
            "corecoder {}: {} passed, {} failed",
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
    // The runner must be able to fail: break one expected value of each kind.
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 5] = [
        ("blacklist verdict", |d| {
            d["bash_blacklist_extra"][3]["blocked"] = true.into()
        }),
        ("always set", |d| {
            d["cases"][9]["always_set_after"] = serde_json::json!([])
        }),
        ("answer", |d| {
            d["cases"][33]["answers"] = serde_json::json!(["yes"])
        }),
        ("session order", |d| d["cases"][41]["step"] = 3.into()),
        ("pattern text", |d| {
            d["bash_blacklist_patterns"][3]["regex"] = "mkfs".into()
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
