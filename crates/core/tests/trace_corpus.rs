//! The three real-format traces of the shared corpus (`../shared/corpus/traces/`, read in place,
//! never copied), read as common calls and replayed over miniagent's standard table. Every figure
//! the CLI prints for them is pinned here.

use permlab_core::replay::{replay, Tally};
use permlab_core::trace::{self, Format};
use permlab_core::{Decision, EngineId, RuleTable};

fn corpus(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/corpus/traces/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn standard() -> RuleTable {
    RuleTable::from_json(include_str!(
        "../../../fixtures/rulesets/miniagent-standard.json"
    ))
    .unwrap()
}

/// `(calls, skipped, malformed, [(line, native tool, common call)])`.
type Expected<'a> = (usize, usize, usize, &'a [(usize, &'a str, &'a str)]);

/// The first tool_use input on `line` of `name`, as compact JSON (key order kept).
fn serde_input(name: &str, line: usize) -> String {
    let text = corpus(name);
    let raw = text.lines().nth(line - 1).unwrap();
    let v: serde_json::Value = serde_json::from_str(raw).unwrap();
    let input = v["message"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "tool_use")
        .unwrap()["input"]
        .clone();
    serde_json::to_string(&input).unwrap()
}

fn check_parse(name: &str, format: Format, want: Expected) {
    let t = trace::parse(&corpus(name));
    let got: Vec<(usize, &str, String)> = t
        .calls
        .iter()
        .map(|c| (c.line, c.native_tool.as_str(), c.call.to_string()))
        .collect();
    let want_calls: Vec<(usize, &str, String)> = want
        .3
        .iter()
        .map(
            |&(l, n, c)| match c.strip_suffix("<the input as compact JSON>") {
                // Computed independently: serde_json's compact form of the line's tool input.
                Some(head) => (l, n, format!("{head}{}", serde_input(name, l))),
                None => (l, n, c.to_string()),
            },
        )
        .collect();
    assert_eq!(got, want_calls, "{name}");
    assert_eq!(
        (t.calls.len(), t.skipped, t.malformed.len()),
        (want.0, want.1, want.2),
        "{name}"
    );
    assert!(t.calls.iter().all(|c| c.format == format));
}

#[test]
fn claude_code_stream_json() {
    check_parse(
        "001.jsonl",
        Format::ClaudeCode,
        (
            8,
            10,
            0,
            &[
                (2, "Read", "read_file: /root/data/tess_lc.txt"),
                (5, "Read", "read_file: /root/data/tess_lc.txt"),
                (7, "TodoWrite", "TodoWrite: <the input as compact JSON>"),
                (9, "Bash", "bash: wc -l /root/data/tess_lc.txt"),
                (11, "Bash", "bash: python3 -c \"import numpy; import scipy; import lightkurve; print('All packages available')\" 2>&1"),
                (13, "Bash", "bash: python3 -c \"import transitleastsquares; print('TLS available')\" 2>&1"),
                (16, "Write", "write_file: /root/analyze_lc.py"),
                (18, "Bash", "bash: python3 analyze_lc.py 2>&1"),
            ],
        ),
    );
}

#[test]
fn claude_code_transcript() {
    check_parse(
        "002.jsonl",
        Format::ClaudeCode,
        (
            5,
            7,
            0,
            &[
                (2, "mcp__plugin_showcase_example__inspect_repository_structure", "mcp__plugin_showcase_example__inspect_repository_structure: ."),
                (4, "mcp__plugin_showcase_example__refresh_search_index", "mcp__plugin_showcase_example__refresh_search_index: {}"),
                (6, "ScheduleWakeup", "ScheduleWakeup: {\"delaySeconds\":600,\"reason\":\"re-check the search index once the refresh has settled\",\"prompt\":\"Check that the search index is current.\"}"),
                (8, "Agent", "agent: general-purpose"),
                (8, "Agent", "agent: general-purpose"),
            ],
        ),
    );
}

#[test]
fn codex_rollout() {
    check_parse(
        "003.jsonl",
        Format::CodexRollout,
        (
            3,
            11,
            0,
            &[
                (6, "exec_command", "bash: find . -maxdepth 1 -type f"),
                (8, "apply_patch", "write_file: gamma.txt"),
                (
                    10,
                    "mcp__synthetic__lookup",
                    "mcp__synthetic__lookup: fixture",
                ),
            ],
        ),
    );
}

/// `engine mode allow/ask/deny/unavailable` for every lane.
fn lanes(name: &str) -> (Vec<String>, usize) {
    let t = trace::parse(&corpus(name));
    let r = replay(&standard(), &t.common_calls());
    let rows = r
        .lanes
        .iter()
        .map(|l| {
            let Tally {
                allow,
                ask,
                deny,
                unavailable,
            } = l.tally;
            format!(
                "{} {} {allow}/{ask}/{deny}/{unavailable}",
                l.engine.slug(),
                l.mode.unwrap_or("-")
            )
        })
        .collect();
    (rows, r.disagreements.len())
}

#[test]
fn replay_figures() {
    let cases: [(&str, [&str; 13], usize); 3] = [
        (
            "001.jsonl",
            [
                "first-match - 3/1/4/0",
                "opencode - 3/1/4/0",
                "claude-code default 4/0/0/4",
                "claude-code acceptEdits 4/0/0/4",
                "claude-code plan 3/1/0/4",
                "claude-code auto 4/0/0/4",
                "claude-code dontAsk 4/0/0/4",
                "claude-code bypassPermissions 4/0/0/4",
                "corecoder interactive 2/6/0/0",
                "corecoder print 2/0/6/0",
                "corecoder yes 8/0/0/0",
                "corecoder print+yes 8/0/0/0",
                "codex - 0/8/0/0",
            ],
            8,
        ),
        (
            "002.jsonl",
            [
                "first-match - 0/5/0/0",
                "opencode - 0/5/0/0",
                "claude-code default 2/3/0/0",
                "claude-code acceptEdits 2/3/0/0",
                "claude-code plan 2/3/0/0",
                "claude-code auto 2/3/0/0",
                "claude-code dontAsk 2/0/3/0",
                "claude-code bypassPermissions 5/0/0/0",
                "corecoder interactive 0/5/0/0",
                "corecoder print 0/0/5/0",
                "corecoder yes 5/0/0/0",
                "corecoder print+yes 5/0/0/0",
                "codex - 0/5/0/0",
            ],
            2,
        ),
        (
            "003.jsonl",
            [
                "first-match - 1/1/1/0",
                "opencode - 1/1/1/0",
                "claude-code default 1/1/0/1",
                "claude-code acceptEdits 1/1/0/1",
                "claude-code plan 0/2/0/1",
                "claude-code auto 1/1/0/1",
                "claude-code dontAsk 1/0/1/1",
                "claude-code bypassPermissions 2/0/0/1",
                "corecoder interactive 0/3/0/0",
                "corecoder print 0/0/3/0",
                "corecoder yes 3/0/0/0",
                "corecoder print+yes 3/0/0/0",
                "codex - 0/3/0/0",
            ],
            2,
        ),
    ];
    for (name, want, disagreements) in cases {
        let (got, d) = lanes(name);
        assert_eq!(got, want, "{name}");
        assert_eq!(d, disagreements, "{name}");
    }
}

#[test]
fn the_seeds_kind_of_figure() {
    // "6 of 8 calls would ask (75%)" under CoreCoder interactive, for the real headless run.
    let t = trace::parse(&corpus("001.jsonl"));
    let r = replay(&standard(), &t.common_calls());
    let cc = r.lane(EngineId::CoreCoder, Some("interactive")).unwrap();
    assert_eq!(
        (
            cc.tally.ask,
            cc.tally.total(),
            cc.tally.percent(Decision::Ask)
        ),
        (6, 8, 75)
    );
    // Claude Code removes Bash (the table's bare `bash * deny`): half the run could not happen.
    let claude = r.lane(EngineId::ClaudeCode, Some("default")).unwrap();
    assert_eq!(claude.tally.percent(Decision::Unavailable), 50);
}
