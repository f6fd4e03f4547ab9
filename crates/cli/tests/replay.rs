//! `permlab replay` on the three corpus traces (read in place from `../shared/corpus/traces/`)
//! with miniagent's standard table: the printed figures, the JSON, and the failure paths.

mod common;
use common::{permlab, temp_file, text};

const RULES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/rulesets/miniagent-standard.json"
);

fn trace(name: &str) -> String {
    format!(
        "{}/../../../shared/corpus/traces/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The table rows of the text output as `engine mode allow ask deny unavailable` (counts only).
fn table_rows(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("engine"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            l.split_whitespace()
                .filter(|w| !w.starts_with('('))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn replays_the_three_corpus_traces() {
    let cases: [(&str, &str, [&str; 13], &str); 3] = [
        (
            "001.jsonl",
            "8 tool calls (claude-code: 8), 10 other lines skipped, 0 unreadable",
            [
                "first-match — 3 1 4 0",
                "opencode — 3 1 4 0",
                "claude-code default 4 0 0 4",
                "claude-code acceptEdits 4 0 0 4",
                "claude-code plan 3 1 0 4",
                "claude-code auto 4 0 0 4",
                "claude-code dontAsk 4 0 0 4",
                "claude-code bypassPermissions 4 0 0 4",
                "corecoder interactive 2 6 0 0",
                "corecoder print 2 0 6 0",
                "corecoder yes 8 0 0 0",
                "corecoder print+yes 8 0 0 0",
                "codex — 0 8 0 0",
            ],
            "disagreements: 8 of 8 calls",
        ),
        (
            "002.jsonl",
            "5 tool calls (claude-code: 5), 7 other lines skipped, 0 unreadable",
            [
                "first-match — 0 5 0 0",
                "opencode — 0 5 0 0",
                "claude-code default 2 3 0 0",
                "claude-code acceptEdits 2 3 0 0",
                "claude-code plan 2 3 0 0",
                "claude-code auto 2 3 0 0",
                "claude-code dontAsk 2 0 3 0",
                "claude-code bypassPermissions 5 0 0 0",
                "corecoder interactive 0 5 0 0",
                "corecoder print 0 0 5 0",
                "corecoder yes 5 0 0 0",
                "corecoder print+yes 5 0 0 0",
                "codex — 0 5 0 0",
            ],
            "disagreements: 2 of 5 calls",
        ),
        (
            "003.jsonl",
            "3 tool calls (codex-rollout: 3), 11 other lines skipped, 0 unreadable",
            [
                "first-match — 1 1 1 0",
                "opencode — 1 1 1 0",
                "claude-code default 1 1 0 1",
                "claude-code acceptEdits 1 1 0 1",
                "claude-code plan 0 2 0 1",
                "claude-code auto 1 1 0 1",
                "claude-code dontAsk 1 0 1 1",
                "claude-code bypassPermissions 2 0 0 1",
                "corecoder interactive 0 3 0 0",
                "corecoder print 0 0 3 0",
                "corecoder yes 3 0 0 0",
                "corecoder print+yes 3 0 0 0",
                "codex — 0 3 0 0",
            ],
            "disagreements: 2 of 3 calls",
        ),
    ];
    for (name, summary, rows, disagreements) in cases {
        let path = trace(name);
        let out = permlab(&["replay", &path, "--rules", RULES]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.lines().next().unwrap().ends_with(summary),
            "{stdout}"
        );
        assert_eq!(table_rows(&stdout), rows, "{name}");
        assert!(stdout.contains(disagreements), "{stdout}");
    }
}

#[test]
fn shares_and_disagreements_are_printed() {
    let out = permlab(&["replay", &trace("001.jsonl"), "--rules", RULES]);
    let stdout = text(&out.stdout);
    let corecoder = stdout
        .lines()
        .find(|l| l.starts_with("corecoder    interactive"))
        .unwrap();
    assert!(corecoder.contains("6 (75%)"), "{corecoder}");
    assert!(corecoder.contains("2 (25%)"), "{corecoder}");
    let first = stdout
        .lines()
        .find(|l| l.starts_with("first-match"))
        .unwrap();
    assert!(
        first.contains("1 (13%)") && first.contains("4 (50%)"),
        "{first}"
    );
    // The test command run through the seed's table: #8 denies, Claude Code never offers Bash.
    assert!(
        stdout.contains("  #8 (line 18) bash: python3 analyze_lc.py 2>&1"),
        "{stdout}"
    );
    assert!(stdout.contains(
        "first-match=deny #8  opencode=deny #8  claude-code=unavailable #8  corecoder=ask  codex=ask"
    ));
    // The Codex apply_patch becomes a write of the file it adds.
    let out = permlab(&["replay", &trace("003.jsonl"), "--rules", RULES]);
    assert!(text(&out.stdout).contains("#2 (line 8) write_file: gamma.txt"));
}

#[test]
fn json_output() {
    use permlab_core::json::{self, Value};
    let out = permlab(&["replay", &trace("003.jsonl"), "--rules", RULES, "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = json::parse(&text(&out.stdout)).expect("valid JSON");
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64).unwrap();
    assert_eq!((num(&v, "calls"), num(&v, "skipped")), (3.0, 11.0));
    assert_eq!(num(v.get("formats").unwrap(), "codex-rollout"), 3.0);
    let lanes = v.get("lanes").and_then(Value::as_array).unwrap();
    assert_eq!(lanes.len(), 13);
    let plan = &lanes[4];
    assert_eq!(plan.get("mode").and_then(Value::as_str), Some("plan"));
    assert_eq!(
        ["allow", "ask", "deny", "unavailable", "total"].map(|k| num(plan, k)),
        [0.0, 2.0, 0.0, 1.0, 3.0]
    );
    assert_eq!(num(plan.get("percent").unwrap(), "ask"), 67.0);
    let d = v.get("disagreements").and_then(Value::as_array).unwrap();
    assert_eq!(d.len(), 2);
    assert_eq!(
        (
            num(&d[1], "line"),
            d[1].get("tool").and_then(Value::as_str),
            d[1].get("input").and_then(Value::as_str)
        ),
        (8.0, Some("write_file"), Some("gamma.txt"))
    );
    let fm = d[1]
        .get("verdicts")
        .and_then(|v| v.get("first-match"))
        .unwrap();
    assert_eq!(fm.get("decision").and_then(Value::as_str), Some("allow"));
    assert_eq!(num(fm, "rule"), 5.0); // counted from 1: row #5 `write_file * allow`
}

#[test]
fn malformed_lines_are_reported_and_skipped() {
    let path = temp_file(
        "mixed.jsonl",
        "{\"tool\":\"bash\",\"input\":\"ls\"}\n{torn\n{\"type\":\"user\"}\n{\"tool\":\"read_file\",\"input\":{\"path\":\"a.py\"}}\n",
    );
    let out = permlab(&["replay", &path, "--rules", RULES]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("line 2: invalid JSON at column 2") && stderr.contains("(line skipped)"),
        "{stderr}"
    );
    assert!(text(&out.stdout).starts_with(&format!(
        "trace: {path}: 2 tool calls (calls: 2), 1 other lines skipped, 1 unreadable"
    )));
}

#[test]
fn unusable_input_exits_2() {
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let cases: [(Vec<&str>, &str); 5] = [
        (
            vec!["replay", "--rules", RULES],
            "replay needs a trace file",
        ),
        (
            vec!["replay", "a.jsonl", "b.jsonl", "--rules", RULES],
            "exactly one trace file",
        ),
        (vec!["replay", readme], "--rules is required"),
        (
            vec!["replay", "/nonexistent/t.jsonl", "--rules", RULES],
            "cannot read",
        ),
        (
            vec!["replay", readme, "--rules", RULES],
            "no tool calls found",
        ),
    ];
    for (args, want) in cases {
        let out = permlab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    let bad_rules = temp_file("bad-rules.json", "[{\"tool\": \"bash\"}]");
    let out = permlab(&["replay", &trace("001.jsonl"), "--rules", &bad_rules]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no \"pattern\" field"));
}

#[test]
fn many_disagreements_are_capped() {
    let lines: String = (0..25)
        .map(|i| format!("{{\"tool\":\"bash\",\"input\":\"echo {i}\"}}\n"))
        .collect();
    let path = temp_file("many.jsonl", &lines);
    let out = permlab(&["replay", &path, "--rules", RULES]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("disagreements: 25 of 25 calls"), "{stdout}");
    assert!(stdout.contains("  … and 5 more"), "{stdout}");
    assert_eq!(stdout.matches("(line ").count(), 20);
}
