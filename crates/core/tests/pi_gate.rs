//! Pi's permission gate against the real JavaScript regexes: every case of
//! `fixtures/pi-gate/cases.json` (made by `node fixtures/pi-gate/make.mjs`).

use permlab_core::pi_gate::{self, PATTERNS};
use permlab_core::Decision;
use serde_json::Value;

fn cases() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/pi-gate/cases.json"
    );
    let text = std::fs::read_to_string(path)
        .expect("fixtures/pi-gate/cases.json: run node fixtures/pi-gate/make.mjs");
    serde_json::from_str(&text).expect("cases.json is JSON")
}

#[test]
fn fixture_names_the_same_patterns() {
    let doc = cases();
    let pats = doc["patterns"].as_array().unwrap();
    assert_eq!(pats.len(), PATTERNS.len());
    for (p, want) in pats.iter().zip(PATTERNS) {
        assert_eq!(p["source"], want.source);
        assert_eq!(p["flags"], want.flags);
    }
}

#[test]
fn agrees_with_node_on_every_case() {
    let doc = cases();
    let all = doc["cases"].as_array().unwrap();
    let generated = all.iter().filter(|c| c["origin"] == "generated").count();
    let corpus = all.iter().filter(|c| c["origin"] == "corpus").count();
    assert!(generated >= 2000, "only {generated} generated cases");
    assert!(corpus >= 1000, "only {corpus} corpus cases");
    let mut wrong = Vec::new();
    let mut hits = [0usize; 3];
    for c in all {
        let command = c["command"].as_str().unwrap();
        let want: Vec<bool> = c["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_bool().unwrap())
            .collect();
        let got: Vec<bool> = (0..3).map(|k| pi_gate::matches(k, command)).collect();
        for (k, &m) in got.iter().enumerate() {
            hits[k] += m as usize;
        }
        if got != want {
            wrong.push(format!("{command:?}: node {want:?}, permlab {got:?}"));
        }
        let first = want.iter().position(|&m| m);
        let v = pi_gate::tool_call("bash", command, true);
        assert_eq!(v.pattern, first, "{command:?}");
        assert_eq!(
            v.decision,
            if first.is_some() {
                Decision::Ask
            } else {
                Decision::Allow
            }
        );
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases differ:\n{}",
        wrong.len(),
        all.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
    // Every pattern is exercised both ways.
    for (k, &h) in hits.iter().enumerate() {
        assert!(h > 50 && h < all.len() - 50, "pattern {k}: {h} hits");
    }
}
