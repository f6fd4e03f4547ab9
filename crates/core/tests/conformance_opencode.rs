//! Checks of the OpenCode conformance runner beyond the pass criterion (the cases themselves run
//! in `conformance.rs`).

const FILE: &str = include_str!("../../../fixtures/conformance/opencode.json");

#[test]
fn a_wrong_expectation_is_reported() {
    let text = r#"{"engine": "opencode", "wildcard": [
        {"str": "git status", "pattern": "git *", "match": false}]}"#;
    let reports = permlab_core::conformance::run(text).unwrap();
    assert_eq!(reports[0].failed(), 1);
    assert_eq!(
        reports[0].failures[0].input,
        r#"match("git status", "git *")"#
    );
}

/// The README only asks for the error *paths*; this port reproduces OpenCode's whole message.
#[test]
fn config_errors_match_opencode_word_for_word() {
    use permlab_core::json::{parse, Value};
    use permlab_core::opencode::PermissionConfig;
    let doc = parse(FILE).unwrap();
    let mut checked = 0;
    for case in doc.get("fromConfig").unwrap().as_array().unwrap() {
        let Some(Value::String(want)) = case.get("error") else {
            continue;
        };
        let got = match case.get("source").and_then(Value::as_str) {
            Some(text) => PermissionConfig::parse(text),
            None => PermissionConfig::decode(case.get("config").unwrap()),
        };
        assert_eq!(&got.unwrap_err().to_string(), want);
        checked += 1;
    }
    assert!(checked >= 6);
}
