//! The CLI as a course author uses it: real files, real processes, exit codes and messages.

mod common;
use common::{temp_file, text};

use std::io::Write;
use std::process::{Command, Output, Stdio};

const RULES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/rulesets/miniagent-standard.json"
);
const CONFORMANCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/conformance");

fn permlab(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_permlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("permlab runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

#[test]
fn eval_shows_each_engine_and_the_decisive_rule() {
    let out = permlab(
        &[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: python -m unittest -v test_dateparse.py",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = |engine: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(engine))
            .unwrap_or_else(|| panic!("no line for {engine} in\n{stdout}"))
            .to_string()
    };
    assert!(line("first-match").contains("deny") && line("first-match").contains("#8"));
    assert!(line("opencode").contains("allow") && line("opencode").contains("#9"));
    assert!(line("claude-code").contains("unavailable"));
    assert!(line("corecoder").contains("ask"));
}

#[test]
fn eval_explain_lists_the_steps_in_scan_order() {
    let out = permlab(
        &[
            "eval",
            "--rules",
            RULES,
            "--call",
            "bash: git status",
            "--engine",
            "opencode",
            "--explain",
        ],
        None,
    );
    let stdout = text(&out.stdout);
    // Last-match walks up from the bottom: #10, #9, then #8 matches and stops.
    let steps: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("step"))
        .collect();
    assert_eq!(steps.len(), 3, "{stdout}");
    assert!(
        steps[0].contains("#10") && steps[2].contains("#8") && steps[2].contains("stop"),
        "{stdout}"
    );
}

#[test]
fn conformance_runs_every_fixture_and_ends_with_the_tally() {
    let files: Vec<String> = std::fs::read_dir(CONFORMANCE)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["conformance"];
    args.extend(files.iter().map(String::as_str));
    let out = permlab(&args, None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    for section in [
        "opencode evaluate:",
        "codex cases/cli:",
        "claude-code cases:",
        "corecoder cases:",
        "lcc cases:",
    ] {
        assert!(stdout.contains(section), "missing {section}");
    }
}

#[test]
fn conformance_prints_the_docs_drift_section() {
    let file = format!("{CONFORMANCE}/claude-code.json");
    let out = permlab(&["conformance", &file], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("claude-code drift: 5 cases where the docs and CLI 2.1.332 disagree"),
        "{stdout}"
    );
    assert!(
        stdout.contains("wild-word-boundary-lsof")
            && stdout.contains("docs: ask · CLI 2.1.332: allow"),
        "{stdout}"
    );
    assert!(stdout.contains("drift: 5 cases"), "{stdout}");
    assert!(stdout
        .lines()
        .last()
        .unwrap()
        .ends_with(" passed, 0 failed"));
}

#[test]
fn version_shows_the_pinned_products() {
    let out = permlab(&["--version"], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for pin in [
        "Claude Code 2.1.332 (recorded 2026-12-01)",
        "Codex 0.171.0",
        "OpenCode 1.18.32",
    ] {
        assert!(stdout.contains(pin), "missing {pin} in\n{stdout}");
    }
}

#[test]
fn codex_rules_files_are_read_directly() {
    let file = temp_file(
        "policy.rules",
        "BLOCK = [(\"rm\", \"-rf\")]\nfor t in BLOCK:\n    prefix_rule(pattern=list(t), decision=\"forbidden\", justification=f\"{t[0]} blocked\")\nprefix_rule(pattern=[\"git\", \"fetch\"], decision=\"prompt\")\n",
    );
    let eval = |call: &str| {
        let out = permlab(
            &[
                "eval", "--rules", &file, "--call", call, "--engine", "codex",
            ],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert!(eval("bash: rm -rf /").contains("deny"));
    assert!(eval("bash: git fetch origin").contains("#2"));
    let out = permlab(
        &["batch", "--engine", "codex", "--rules", &file],
        Some("{\"tool\": \"bash\", \"input\": \"rm -rf build\"}\n"),
    );
    assert_eq!(text(&out.stdout), "{\"decision\":\"deny\",\"rule\":1}\n");
    // A broken file names itself and the position.
    let bad = temp_file(
        "bad.rules",
        "prefix_rule(pattern=[\"git\"], canonical_matching=\"yes\")\n",
    );
    let out = permlab(
        &[
            "eval",
            "--rules",
            &bad,
            "--call",
            "bash: git",
            "--engine",
            "codex",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.rules") && err.contains("canonical_matching"),
        "{err}"
    );
}

#[test]
fn a_failing_case_is_shown_and_exits_1() {
    let file = temp_file(
        "wrong.json",
        r#"{"engine": "opencode", "wildcard": [
            {"str": "git status", "pattern": "git *", "match": false},
            {"str": "ls", "pattern": "ls", "match": true}]}"#,
    );
    let out = permlab(&["conformance", &file], None);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("opencode wildcard: 1 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("expected: false") || stdout.contains("expected:"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("1 passed, 1 failed"));
}

#[test]
fn batch_answers_one_line_per_call_in_order() {
    let calls = "{\"tool\": \"bash\", \"input\": \"git status\"}\n{\"tool\": \"read_file\", \"input\": \"a.py\"}\n\n{\"tool\": \"bash\", \"input\": \"python3 -m unittest\"}\n";
    let out = permlab(
        &["batch", "--engine", "opencode", "--rules", RULES],
        Some(calls),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"decision\":\"deny\",\"rule\":8}\n{\"decision\":\"allow\",\"rule\":1}\n{\"decision\":\"allow\",\"rule\":10}\n"
    );
}

#[test]
fn opencode_rules_files_are_accepted() {
    let file = temp_file(
        "opencode-rules.json",
        r#"[{"permission": "bash", "pattern": "git *", "action": "allow"},
            {"permission": "bash", "pattern": "git push *", "action": "deny"}]"#,
    );
    let out = permlab(
        &[
            "eval",
            "--rules",
            &file,
            "--call",
            "bash: git push origin main",
            "--engine",
            "opencode",
        ],
        None,
    );
    assert!(text(&out.stdout).contains("deny"), "{}", text(&out.stdout));
}

#[test]
fn bad_input_names_the_file_and_position_and_exits_2() {
    let broken = temp_file(
        "broken.json",
        "[\n  {\"tool\": \"bash\", \"pattern\": \"*\", \"action\": \"deny\"},\n]",
    );
    let cases: Vec<(Vec<&str>, Option<&str>, &str)> = vec![
        (
            vec!["eval", "--rules", &broken, "--call", "bash: ls"],
            None,
            "line 2, column 53: trailing comma",
        ),
        (
            vec!["eval", "--rules", "/no/such/file", "--call", "bash: ls"],
            None,
            "/no/such/file: cannot read",
        ),
        (
            vec!["eval", "--rules", RULES, "--call", "git push"],
            None,
            "write it as `tool: input`",
        ),
        (vec!["eval", "--rules", RULES], None, "--call is required"),
        (
            vec!["batch", "--engine", "opencode", "--rules", RULES],
            Some("{\"tool\": \"bash\"\n"),
            "stdin: line 1",
        ),
        (
            vec![
                "bench", "--engine", "nope", "--rules", RULES, "--calls", RULES,
            ],
            None,
            "unknown engine \"nope\"",
        ),
        (vec!["conformance", &broken], None, "broken.json"),
        (vec!["frobnicate"], None, "unknown command"),
    ];
    for (args, stdin, needle) in cases {
        let out = permlab(&args, stdin);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: expected {needle:?} in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn bench_reports_a_rate_and_the_tally() {
    let dir = std::env::temp_dir().join(format!("permlab-bench-{}", std::process::id()));
    let dir = dir.to_string_lossy().into_owned();
    let gen = permlab(
        &[
            "bench-data",
            "--out",
            &dir,
            "--sizes",
            "10",
            "--calls",
            "50",
        ],
        None,
    );
    assert!(gen.status.success(), "{}", text(&gen.stderr));
    let out = permlab(
        &[
            "bench",
            "--engine",
            "first-match",
            "--rules",
            &format!("{dir}/rules-10.json"),
            "--calls",
            &format!("{dir}/calls.json"),
            "--seconds",
            "0.05",
        ],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let first = stdout.lines().next().unwrap();
    let rate: f64 = first.strip_suffix(" evals/s").unwrap().parse().unwrap();
    assert!(rate > 0.0);
    let tally = stdout.lines().nth(1).unwrap();
    let counts: usize = ["allow", "ask", "deny"]
        .iter()
        .map(|w| {
            let before = tally.split(&format!(" {w}")).next().unwrap();
            before.rsplit(' ').next().unwrap().parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(counts, 50, "{tally}");
}

#[test]
fn pi_gate_asks_and_denies_without_a_ui() {
    let out = permlab(
        &[
            "eval",
            "--engine",
            "pi-gate",
            "--call",
            "bash: SUDO\u{a0}ls",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("pi-gate      ask"), "{stdout}");
    assert!(stdout.contains(r"#2 /\bsudo\b/i"), "{stdout}");
    let out = permlab(
        &[
            "eval",
            "--engine",
            "pi-gate",
            "--no-ui",
            "--call",
            "bash: rm -r x",
        ],
        None,
    );
    assert!(text(&out.stdout).contains("pi-gate      deny"));
    // --no-ui means nothing to the table engines.
    let out = permlab(
        &["eval", "--rules", RULES, "--no-ui", "--call", "bash: ls"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--engine pi-gate"));
}

#[test]
fn pi_gate_batch_and_replay() {
    let calls = concat!(
        r#"{"tool": "bash", "input": "chown -R me . && chmod 777 x"}"#,
        "\n",
        r#"{"tool": "bash", "input": "cat sudoku_solver.py"}"#,
        "\n",
        r#"{"tool": "edit_file", "input": "sudo"}"#,
        "\n"
    );
    let out = permlab(&["batch", "--engine", "pi-gate"], Some(calls));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"decision\":\"ask\",\"pattern\":3}\n{\"decision\":\"allow\",\"pattern\":null}\n{\"decision\":\"allow\",\"pattern\":null}\n"
    );
    let out = permlab(&["batch", "--engine", "pi-gate", "--no-ui"], Some(calls));
    assert!(text(&out.stdout).starts_with(
        "{\"decision\":\"deny\",\"pattern\":3,\"reason\":\"Dangerous command blocked (no UI for confirmation)\"}\n"
    ));
    let trace = temp_file("pi-trace.jsonl", calls);
    let out = permlab(&["replay", &trace, "--engine", "pi-gate"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = |mode: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with("pi-gate") && l.split_whitespace().nth(1) == Some(mode))
            .unwrap_or_else(|| panic!("no {mode} row in\n{stdout}"))
            .split_whitespace()
            .skip(2)
            .step_by(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("ui"), "2 1 0 0"); // allow ask deny unavailable
    assert_eq!(row("no-ui"), "2 0 1 0");
    assert!(stdout.contains("caught: 1 of 3 calls"), "{stdout}");
    let out = permlab(&["replay", &trace, "--engine", "opencode"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// `--place recording` runs OpenCode's whole call where `opencode-bash-real.json` was recorded
/// (project /home/user/project); `--workdir` moves the working directory.
#[test]
fn bench_runs_opencode_calls_in_the_place_asked_for() {
    let rules = temp_file(
        "bench-place-rules.json",
        r#"[{"permission": "bash", "pattern": "*", "action": "allow"}]"#,
    );
    let calls = temp_file(
        "bench-place-calls.json",
        r#"[{"tool": "bash", "input": "rm /home/user/project/src/a.txt"}]"#,
    );
    let tally = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            "--engine",
            "opencode",
            "--rules",
            &rules,
            "--calls",
            &calls,
            "--seconds",
            "0.02",
        ];
        args.extend_from_slice(extra);
        let out = permlab(&args, None);
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        text(&out.stdout).lines().nth(1).unwrap().to_string()
    };
    // The default place (/home/learner/miniagent): the path is outside the project, and no
    // rule answers external_directory.
    assert!(
        tally(&[]).contains("one pass: 0 allow, 1 ask"),
        "{}",
        tally(&[])
    );
    let recording = tally(&["--place", "recording"]);
    assert!(
        recording.contains("project /home/user/project, cwd /home/user/project"),
        "{recording}"
    );
    assert!(
        recording.contains("one pass: 1 allow, 0 ask"),
        "{recording}"
    );
    let elsewhere = tally(&["--place", "recording", "--workdir", "/tmp"]);
    assert!(elsewhere.contains("cwd /tmp"), "{elsewhere}");
    assert!(
        elsewhere.contains("one pass: 0 allow, 1 ask"),
        "{elsewhere}"
    );
    for (extra, needle) in [
        (&["--place", "nowhere"][..], "write default or recording"),
        (&["--workdir", "src"][..], "give an absolute path"),
        (
            &["--scope", "evaluate", "--place", "recording"][..],
            "for the whole call",
        ),
    ] {
        let mut args = vec![
            "bench", "--engine", "opencode", "--rules", &rules, "--calls", &calls,
        ];
        args.extend_from_slice(extra);
        let out = permlab(&args, None);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&out.stderr).contains(needle),
            "{extra:?}: {}",
            text(&out.stderr)
        );
    }
    let out = permlab(
        &[
            "bench",
            "--engine",
            "first-match",
            "--rules",
            &rules,
            "--calls",
            &calls,
            "--place",
            "recording",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("for --engine opencode"),
        "{}",
        text(&out.stderr)
    );
}
