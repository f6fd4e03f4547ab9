//! The learn-claude-code conformance runner can fail (the cases themselves run in
//! `conformance.rs`).

use permlab_core::conformance;

const FILE: &str = include_str!("../../../fixtures/conformance/lcc.json");

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
