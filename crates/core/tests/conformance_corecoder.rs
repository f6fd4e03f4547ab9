//! The CoreCoder conformance runner can fail (the cases themselves run in `conformance.rs`).

use permlab_core::conformance;

const FILE: &str = include_str!("../../../fixtures/conformance/corecoder.json");

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
