//! Crafted input to the CLI: hostile argument vectors never panic, huge
//! numbers are stated limits, malformed cases are unusable input, and `check` and `replay`
//! scale with their input.

mod common;
use common::{permlab, temp_dir, temp_file, text};

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::time::{Duration, Instant};

const RULES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/rulesets/miniagent-standard.json"
);

/// `--call 'ba\xed\xa0\x80h: …'`: a lone surrogate encoded as bytes, not UTF-8.
fn non_utf8(prefix: &[u8], suffix: &[u8]) -> OsString {
    let mut b = prefix.to_vec();
    b.extend_from_slice(&[0xed, 0xa0, 0x80]);
    b.extend_from_slice(suffix);
    OsString::from_vec(b)
}

#[test]
fn a_non_utf8_argument_is_a_message_not_a_panic() {
    let out = permlab(&[
        OsString::from("eval"),
        OsString::from("--rules"),
        OsString::from(RULES),
        OsString::from("--call"),
        non_utf8(b"ba", b"h: ls"),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("argument 5 is not valid UTF-8") && err.contains("write the text in UTF-8"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Every vector ends with a status of 0, 1 or 2: never 101 (a panic) or a signal (an abort).
#[test]
fn hostile_argument_vectors_never_panic() {
    let calls = temp_file("calls.json", r#"[{"tool": "bash", "input": "ls"}]"#);
    let out_dir = temp_dir().join("bench-data");
    let out_dir = out_dir.to_string_lossy().into_owned();
    // Linux caps one argument at 128 KiB (MAX_ARG_STRLEN): the "1 MB strings" are arguments
    // of 120 000 bytes, and eight of them in one vector.
    let mega = "x".repeat(120_000);
    let mega_path = "a/".repeat(60_000);
    let s = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
    let mut vectors: Vec<Vec<OsString>> = vec![
        s(&[]),
        s(&[""]),
        s(&["", ""]),
        s(&["--"]),
        s(&["-"]),
        s(&["nope"]),
        s(&["--nope"]),
        s(&["eval"]),
        s(&["eval", "--rules"]),
        s(&["eval", "--rules", RULES]),
        s(&["eval", "--rules", RULES, "--call"]),
        s(&["eval", "--rules", RULES, "--call", ""]),
        s(&["eval", "--rules", RULES, "--call", ":"]),
        s(&["eval", "--rules", RULES, "--call", "bash:"]),
        s(&[
            "eval", "--rules", RULES, "--call", "bash: ls", "--engine", "",
        ]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: ls",
            "--engine",
            "all",
            "--explain",
        ]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: ls",
            "--explain=1",
        ]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: \u{1}\u{7f}\\0%00",
        ]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: \u{202e}\u{200b}rm -rf /",
        ]),
        s(&["eval", "--rules", "", "--call", "bash: ls"]),
        s(&["eval", "--rules", "/", "--call", "bash: ls"]),
        s(&["eval", "--rules", "/dev/null", "--call", "bash: ls"]),
        s(&["eval", "--rules", RULES, "--call", &format!("bash: {mega}")]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            &format!("read_file: {mega_path}"),
        ]),
        s(&[
            "eval", "--rules", RULES, "--call", "bash: ls", "--engine", &mega,
        ]),
        s(&["eval", "--rules", &mega, "--call", "bash: ls"]),
        s(&["eval", &mega]),
        s(&["eval", "--rules=", "--call="]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "1e20",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "1e308",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "inf",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "NaN",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "-1",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "0",
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            &calls,
            "--seconds",
            "1e-300",
        ]),
        s(&[
            "bench", "--engine", "all", "--rules", RULES, "--calls", &calls,
        ]),
        s(&[
            "bench",
            "--engine",
            "opencode",
            "--rules",
            RULES,
            "--calls",
            RULES,
            "--seconds",
            "0.01",
        ]),
        s(&["bench-data", "--out", &out_dir, "--calls", "1000000000000"]),
        s(&[
            "bench-data",
            "--out",
            &out_dir,
            "--calls",
            "18446744073709551616",
        ]),
        s(&["bench-data", "--out", &out_dir, "--calls", "-1"]),
        s(&[
            "bench-data",
            "--out",
            &out_dir,
            "--sizes",
            "99999999999999999999",
        ]),
        s(&["bench-data", "--out", &out_dir, "--sizes", "1,,2"]),
        s(&[
            "bench-data",
            "--out",
            &out_dir,
            "--sizes",
            "1",
            "--calls",
            "3",
            "--seed",
            "18446744073709551615",
        ]),
        s(&[
            "bench-data",
            "--out",
            "/proc/nope",
            "--sizes",
            "1",
            "--calls",
            "1",
        ]),
        s(&["bench-data", "--out", &mega]),
        s(&["bench-data"]),
        s(&["batch"]),
        s(&["batch", "--engine", "opencode", "--rules", RULES]),
        s(&["replay"]),
        s(&["replay", "/nonexistent", "--rules", RULES]),
        s(&["replay", RULES, "--rules", RULES, "--json"]),
        s(&["replay", &mega, "--rules", RULES]),
        s(&["check"]),
        s(&["check", "/nonexistent.json"]),
        s(&["check", RULES]),
        s(&["conformance"]),
        s(&["conformance", RULES]),
        s(&["conformance", "/dev/null"]),
        s(&["--version", "--nope"]),
        s(&["help", &mega]),
        s(&[
            "check", &mega, &mega, &mega, &mega, &mega, &mega, &mega, &mega,
        ]),
        s(&[
            "eval",
            "--rules",
            RULES,
            "--call",
            &format!("bash: {mega}"),
            "--explain",
            &mega,
            &mega,
            &mega,
            &mega,
            &mega,
            &mega,
        ]),
    ];
    vectors.push(vec![non_utf8(b"", b"")]);
    vectors.push(vec![OsString::from("check"), non_utf8(b"/tmp/", b".json")]);
    vectors.push(vec![
        OsString::from("eval"),
        non_utf8(b"--", b""),
        OsString::from("x"),
    ]);
    vectors.push(vec![
        OsString::from("bench"),
        OsString::from("--seconds"),
        non_utf8(b"1", b"0"),
    ]);
    for v in &vectors {
        let out = permlab(v);
        let shown: Vec<String> = v
            .iter()
            .map(|a| {
                let a = a.to_string_lossy();
                if a.len() > 40 {
                    format!("{}… ({} bytes)", &a[..20], a.len())
                } else {
                    a.into_owned()
                }
            })
            .collect();
        let err = text(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{shown:?} ended with {:?}: {}",
            out.status,
            &err[..err.len().min(600)]
        );
        assert!(!err.contains("panicked"), "{shown:?}: {err}");
        if out.status.code() == Some(2) {
            assert!(
                err.starts_with("permlab") || err.is_empty() || err.contains("usage"),
                "{shown:?}: {err}"
            );
        }
    }
}

#[test]
fn bench_seconds_past_a_day_is_a_clear_error() {
    let calls = temp_file("calls-b.json", r#"[{"tool": "bash", "input": "ls"}]"#);
    let out = permlab(&[
        "bench",
        "--engine",
        "opencode",
        "--rules",
        RULES,
        "--calls",
        &calls,
        "--seconds",
        "1e20",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--seconds 1e20: at most 86400"), "{err}");
}

#[test]
fn bench_data_states_its_limit() {
    let dir = temp_dir().join("bench-limit");
    let out = permlab(&[
        "bench-data",
        "--out",
        &dir.to_string_lossy(),
        "--calls",
        "1000000000000",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--calls: 1000000000000 is more than bench-data writes (10000000 per file"),
        "{err}"
    );
    assert!(!dir.join("calls.json").exists(), "nothing is written");
    // Within the limit the files are written (streamed) and read back by bench.
    let out = permlab(&[
        "bench-data",
        "--out",
        &dir.to_string_lossy(),
        "--sizes",
        "5",
        "--calls",
        "7",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let calls = std::fs::read_to_string(dir.join("calls.json")).unwrap();
    assert_eq!(calls.matches("\"tool\"").count(), 7);
    assert!(calls.starts_with("[\n  {\"tool\": ") && calls.ends_with("}\n]\n"));
    let rules = dir.join("rules-5.json");
    let out = permlab(&[
        "bench",
        "--engine",
        "first-match",
        "--rules",
        &rules.to_string_lossy(),
        "--calls",
        &dir.join("calls.json").to_string_lossy(),
        "--seconds",
        "0.01",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("5 rules, 7 calls"));
}

#[test]
fn a_conformance_case_that_is_not_an_object_is_unusable_input() {
    let file = temp_file(
        "null-case.json",
        "{\"engine\": \"opencode\",\n \"evaluate\": [\n  null\n ]}",
    );
    let out = permlab(&["conformance", &file]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("null-case.json: at evaluate[0] (line 3, column 3): a case is a JSON object {…}, found null"),
        "{err}"
    );
    let file = temp_file(
        "number-case.json",
        r#"{"engine": "claude-code", "cases": [{}, 3]}"#,
    );
    let out = permlab(&["conformance", &file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at cases[1]"),
        "{}",
        text(&out.stderr)
    );
}

/// A lesson whose `n` answers are all wrong (bash is denied, the author expects allow), in
/// presets of at most 5 000 calls (a list of calls has a limit of its own, `lesson::Limits`).
fn wrong_answers(n: usize) -> String {
    let calls: Vec<String> = (0..n)
        .map(|i| format!("{{\"tool\": \"bash\", \"input\": \"ls {i}\", \"expect\": {{\"first-match\": \"allow\"}}}}"))
        .collect();
    let presets: Vec<String> = calls
        .chunks(5_000)
        .enumerate()
        .map(|(k, chunk)| {
            format!(
                "{{\"id\": \"p{k}\", \"rules\": [{{\"tool\": \"bash\", \"pattern\": \"*\", \"action\": \"deny\"}}],\n\"calls\": [\n{}\n]}}",
                chunk.join(",\n")
            )
        })
        .collect();
    format!(
        "{{\"title\": \"t\", \"language\": \"en\", \"mode\": \"quiz\", \"engines\": [\"first-match\"],\n\"presets\": [{}]}}",
        presets.join(",\n")
    )
}

#[test]
fn check_is_linear_in_the_wrong_answers() {
    let small = temp_file("wrong-2000.json", &wrong_answers(2_000));
    let large = temp_file("wrong-20000.json", &wrong_answers(20_000));
    let out = permlab(&["check", &large]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("20000 answers checked, 20000 wrong"),
        "{stdout}"
    );
    assert!(
        stdout.contains(":20012:65: preset p3, call #5000 `bash: ls 19999`, first-match: expected allow, engines say deny (rule #1 bash * deny)"),
        "each wrong answer is located: {}",
        &stdout[stdout.len().saturating_sub(400)..]
    );
    let time = |path: &str| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let out = permlab(&["check", path]);
                assert_eq!(out.status.code(), Some(1));
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    assert_linear(
        "check, 2000 and 20000 wrong answers",
        time(&small),
        time(&large),
        Duration::from_millis(200),
    );
}

/// 10× the input in at most 20× the time (or the large one under `floor`: too quick to tell).
fn assert_linear(what: &str, small: Duration, large: Duration, floor: Duration) {
    let r = large.as_secs_f64() / small.as_secs_f64().max(1e-3);
    eprintln!("{what}: {small:?}, {large:?}, ratio {r:.1}");
    assert!(
        r < 20.0 || large < floor,
        "{what}: 10× the input took {r:.1}× the time"
    );
}

#[test]
fn check_words_reasons_without_rust_values() {
    let lesson = r#"{"title": "t", "language": "en", "mode": "quiz", "engines": ["codex", "claude-code", "opencode", "corecoder"],
 "presets": [{"id": "p", "rules": [{"tool": "bash", "pattern": "git *", "action": "allow"}],
  "calls": [{"tool": "bash", "input": "ls", "expect": {"codex": "allow", "opencode": "allow", "corecoder": "allow"}},
            {"tool": "read_file", "input": "a.py", "expect": {"codex": "allow", "claude-code": "ask"}}]}]}"#;
    let out = permlab(&["check", &temp_file("reasons.json", lesson)]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("no prefix rule matched: execpolicy gives no decision"),
        "{stdout}"
    );
    assert!(
        stdout.contains("execpolicy only sees shell commands; a read_file call never reaches it"),
        "{stdout}"
    );
    assert!(
        stdout.contains("CoreCoder reads no rule: not a read-only tool, so it asks"),
        "{stdout}"
    );
    assert!(stdout.contains("Claude Code: "), "{stdout}");
    for leak in [
        "Codex",
        "OpenCodeDefault",
        "CoreCoder {",
        "ClaudeCode(",
        "Mode {",
        "NoRule",
    ] {
        let leaked = stdout.lines().any(|l| l.contains(&format!("({leak}")));
        assert!(!leaked, "{leak} leaked: {stdout}");
    }
}

#[test]
fn replay_json_of_many_calls_streams_the_same_document() {
    use permlab_core::json::{self, Value};
    let lines: String = (0..20_000)
        .map(|i| {
            let input = if i % 3 == 0 {
                format!("git push {i}")
            } else {
                format!("ls {i}")
            };
            format!("{{\"tool\": \"bash\", \"input\": \"{input}\"}}\n")
        })
        .collect();
    let trace = temp_file("many-calls.jsonl", &lines);
    let out = permlab(&["replay", &trace, "--rules", RULES, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let v = json::parse(&stdout).expect("valid JSON");
    assert_eq!(v.get("calls").and_then(Value::as_f64), Some(20_000.0));
    let table =
        permlab_core::RuleTable::from_json(&std::fs::read_to_string(RULES).unwrap()).unwrap();
    let calls: Vec<permlab_core::Call> = (0..20_000)
        .map(|i| {
            let input = if i % 3 == 0 {
                format!("git push {i}")
            } else {
                format!("ls {i}")
            };
            permlab_core::Call::new("bash", input)
        })
        .collect();
    let want = permlab_core::replay::replay(&table, &calls);
    let got = v.get("disagreements").and_then(Value::as_array).unwrap();
    assert_eq!(got.len(), want.disagreements.len());
    assert!(!got.is_empty());
    let last = got.last().unwrap();
    let want_last = want.disagreements.last().unwrap();
    assert_eq!(
        last.get("index").and_then(Value::as_f64),
        Some((want_last.index + 1) as f64) // counted from 1
    );
    assert_eq!(
        last.get("input").and_then(Value::as_str),
        Some(want_last.call.input.as_str())
    );
    // Laid out as the whole document pretty-printed at once.
    assert_eq!(v.to_json_pretty() + "\n", stdout);
}

/// A Claude Code settings file of `n` allow and `n` deny rules.
fn claude_settings(n: usize) -> String {
    let list = |f: &dyn Fn(usize) -> String| {
        (0..n)
            .map(|i| format!("\"{}\"", f(i)))
            .collect::<Vec<_>>()
            .join(",\n    ")
    };
    format!(
        "{{\"permissions\": {{\n  \"allow\": [\n    {}],\n  \"deny\": [\n    {}]\n}}}}\n",
        list(&|i| format!("Bash(tool{i} --flag *)")),
        list(&|i| format!("Bash(rm -rf /data{i} *)"))
    )
}

/// Every step of `eval --explain` names its rule's file, line and column: found once per file,
/// not once per rule (20 000 rules took 53 s when each place was found from the top).
#[test]
fn eval_of_a_big_settings_file_is_linear_in_its_rules() {
    let small = temp_file("linear-small/settings.json", &claude_settings(1_000));
    let large = temp_file("linear-large/settings.json", &claude_settings(10_000));
    let run = |path: &str| {
        let t = Instant::now();
        let out = permlab(&[
            "eval",
            "--call",
            "Bash: rm -rf /data9999 x",
            "--explain",
            "--config",
            &format!("project:{path}"),
        ]);
        (t.elapsed(), out)
    };
    let (_, out) = run(&large);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains("settings.json:20003:5 (project, deny) Bash(rm -rf /data9999 *) — tool ✓ specifier ✓ → stop"),
        "{}",
        &stdout[stdout.len().saturating_sub(600)..]
    );
    let time = |path: &str| (0..3).map(|_| run(path).0).min().unwrap();
    assert_linear(
        "eval --explain, 2000 and 20000 rules",
        time(&small),
        time(&large),
        Duration::from_millis(500),
    );
}
