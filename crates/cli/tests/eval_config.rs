//! `permlab eval --config`: the dry run of a real config — the verdict, the rule that decided as
//! `FILE:LINE:COLUMN (scope, list)`, or the step that decided in words; `--json` for scripts;
//! help per subcommand; and a CLI that ends quietly when its reader has gone.

mod common;
use common::{permlab, temp_file, text};

use permlab_core::json::{self, Value};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

fn user_and_project() -> (String, String) {
    let user = temp_file(
        "A.json",
        "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git *)\"],\n    \"defaultMode\": \"acceptEdits\"\n  }\n}\n",
    );
    let project = temp_file(
        "B.json",
        "{\n  \"permissions\": {\n    \"ask\": [\n      \"Bash(git push *)\"\n    ]\n  }\n}\n",
    );
    (user, project)
}

fn line_of<'a>(stdout: &'a str, engine: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(engine))
        .unwrap_or_else(|| panic!("no {engine} line in\n{stdout}"))
}

#[test]
fn layered_claude_settings_name_the_deciding_rule_its_scope_and_the_mode() {
    let (user, project) = user_and_project();
    let out = permlab(&[
        "eval",
        "--config",
        &format!("user:{user}"),
        "--config",
        &format!("project:{project}"),
        "--call",
        "Bash: git push",
        "--mode",
        "dontAsk",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = line_of(&stdout, "claude-code");
    // The project's ask rule matches; dontAsk asks nobody, so the verdict is deny.
    assert!(line.contains("deny"), "{stdout}");
    assert!(
        line.contains(&format!("{project}:4:7 (project, ask) Bash(git push *)")),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("mode dontAsk (--mode): dontAsk asks nobody, so what would prompt is denied"),
        "{stdout}"
    );
}

#[test]
fn without_a_mode_flag_the_settings_default_mode_decides_and_is_named() {
    let (user, project) = user_and_project();
    let out = permlab(&[
        "eval",
        "--config",
        &format!("user:{user}"),
        "--config",
        &format!("project:{project}"),
        "--call",
        "Bash: npm test",
    ]);
    let stdout = text(&out.stdout);
    let line = line_of(&stdout, "claude-code");
    assert!(line.contains("ask") && line.contains("— "), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "mode acceptEdits (defaultMode in {user}, user scope)"
        )),
        "{stdout}"
    );
    // The same rule is an allow in the user file for `git status`.
    let out = permlab(&[
        "eval",
        "--config",
        &format!("user:{user}"),
        "--config",
        &format!("project:{project}"),
        "--call",
        "Bash: git status",
        "--explain",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        line_of(&stdout, "claude-code").contains(&format!("{user}:3:15 (user, allow) Bash(git *)")),
        "{stdout}"
    );
    assert!(stdout.contains("step 1: [ask group]"), "{stdout}");
}

#[test]
fn json_gives_the_rule_position_scope_and_list_for_scripts() {
    let (user, project) = user_and_project();
    let out = permlab(&[
        "eval",
        "--config",
        &format!("user:{user}"),
        &format!("project:{project}"),
        "--call",
        "Bash: git push origin main",
        "--mode",
        "dontAsk",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json::parse(&text(&out.stdout)).expect("one JSON document");
    let r = &v.get("results").and_then(Value::as_array).unwrap()[0];
    assert_eq!(r.get("decision").and_then(Value::as_str), Some("deny"));
    let rule = r.get("rule").unwrap();
    let field = |k: &str| rule.get(k).cloned().unwrap_or(Value::Null);
    assert_eq!(field("file").as_str(), Some(project.as_str()));
    assert_eq!(field("line").as_f64(), Some(4.0));
    assert_eq!(field("column").as_f64(), Some(7.0));
    assert_eq!(field("scope").as_str(), Some("project"));
    assert_eq!(field("list").as_str(), Some("ask"));
    assert_eq!(
        r.get("mode")
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str),
        Some("dontAsk")
    );
}

#[test]
fn a_sandbox_flag_turns_the_settings_sandbox_on_and_says_so() {
    let settings = temp_file(
        "sandboxed.json",
        r#"{"permissions": {}, "sandbox": {"autoAllowBashIfSandboxed": true}}"#,
    );
    let run = |flag: &str| {
        let out = permlab(&[
            "eval",
            "--config",
            &format!("project:{settings}"),
            "--call",
            "Bash: npm test",
            flag,
        ]);
        text(&out.stdout)
    };
    let on = run("--sandbox");
    assert!(line_of(&on, "claude-code").contains("allow"), "{on}");
    assert!(on.contains("sandbox: on (--sandbox)"), "{on}");
    assert!(on.contains("a sandboxed command runs"), "{on}");
    let off = run("--no-sandbox");
    assert!(line_of(&off, "claude-code").contains("ask"), "{off}");
    assert!(off.contains("sandbox: off (--no-sandbox)"), "{off}");
}

#[test]
fn an_opencode_config_names_each_part_with_its_line() {
    let config = format!("{CORPUS}/opencode/001.json");
    let out = permlab(&[
        "eval",
        "--config",
        &config,
        "--call",
        "bash: git status && curl https://x.example",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        line_of(&stdout, "opencode").contains(&format!("{config}:12:7 (ask) bash \"*\"")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "part 1: command \"git status\" → allow ({config}:21:7 (allow) bash \"git status *\")"
        )),
        "{stdout}"
    );
    // The agents' own rules are one line per agent on stderr, not one per rule.
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("agent `build`: 20 rules of its own"),
        "{stderr}"
    );
    assert!(stderr.lines().count() < 10, "{stderr}");
}

#[test]
fn cwd_moves_the_project_for_opencode_outside_directories() {
    let config = temp_file(
        "cwd-opencode.json",
        r#"{"permission": {"external_directory": "deny", "bash": "allow"}}"#,
    );
    let eval = |cwd: &str| {
        let out = permlab(&[
            "eval",
            "--config",
            &config,
            "--call",
            "bash: cat /srv/app/README",
            "--cwd",
            cwd,
        ]);
        text(&out.stdout)
    };
    let outside = eval("/home/me/project");
    assert!(line_of(&outside, "opencode").contains("deny"), "{outside}");
    let inside = eval("/srv/app");
    assert!(line_of(&inside, "opencode").contains("allow"), "{inside}");
    assert!(
        inside.contains("cwd: /srv/app (--cwd; also the project; ~ is /home/learner)"),
        "{inside}"
    );
    let out = permlab(&[
        "eval", "--config", &config, "--call", "bash: ls", "--cwd", "rel",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("give an absolute path"));
}

#[test]
fn a_codex_rules_file_points_at_its_prefix_rule_call() {
    let config = format!("{CORPUS}/codex/001.rules");
    let out = permlab(&[
        "eval",
        "--config",
        &config,
        "--call",
        "bash: git push --force origin",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        line_of(&stdout, "codex").contains(&format!("{config}:1:1 (ask) bash \"git push *\"")),
        "{stdout}"
    );
    // Codex has a sandbox, but what it does with unmatched commands is not computed here.
    let out = permlab(&[
        "eval",
        "--config",
        &config,
        "--call",
        "bash: ls",
        "--sandbox",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Codex's sandbox"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn several_codex_rules_files_are_one_policy_and_each_rule_keeps_its_file() {
    let a = temp_file(
        "a.rules",
        "prefix_rule(pattern=[\"git\"], decision=\"allow\")\n",
    );
    let b = temp_file(
        "b.rules",
        "# pushes ask\n\nprefix_rule(pattern=[\"git\", \"push\"], decision=\"prompt\")\n",
    );
    let out = permlab(&[
        "eval",
        "--config",
        &a,
        &b,
        "--call",
        "bash: git push origin",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json::parse(&text(&out.stdout)).unwrap();
    let r = &v.get("results").and_then(Value::as_array).unwrap()[0];
    assert_eq!(r.get("engine").and_then(Value::as_str), Some("codex"));
    assert_eq!(r.get("decision").and_then(Value::as_str), Some("ask"));
    let rule = r.get("rule").unwrap();
    assert_eq!(rule.get("file").and_then(Value::as_str), Some(b.as_str()));
    assert_eq!(rule.get("line").and_then(Value::as_f64), Some(3.0));
    assert!(
        r.get("step")
            .and_then(Value::as_str)
            .is_some_and(|s| s.contains("strictest of the 2 matching rules")),
        "{}",
        r.to_json()
    );
}

#[test]
fn no_rule_deciding_is_said_in_words_never_as_a_rust_value() {
    let (user, _) = user_and_project();
    let cases: Vec<Vec<String>> = vec![
        vec![
            "--config".into(),
            format!("user:{user}"),
            "--call".into(),
            "Bash: rm -rf build".into(),
            "--explain".into(),
        ],
        vec![
            "--config".into(),
            format!("user:{user}"),
            "--call".into(),
            "Read: src/main.rs".into(),
            "--explain".into(),
        ],
        vec![
            "--rules".into(),
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../fixtures/rulesets/miniagent-standard.json"
            )
            .into(),
            "--call".into(),
            "bash: git status".into(),
            "--explain".into(),
        ],
    ];
    for args in cases {
        let mut all = vec!["eval".to_string()];
        all.extend(args.iter().cloned());
        let out = permlab(&all);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        for leak in [
            "Rule {",
            "Some(",
            "Mode {",
            "ClaudeCode(",
            "Decider",
            "Blocker",
            "row:",
        ] {
            assert!(!stdout.contains(leak), "{leak} in {stdout}");
        }
        assert!(stdout.contains("why: "), "{stdout}");
    }
}

#[test]
fn configs_of_two_harnesses_or_two_files_of_one_scope_are_refused_with_the_reason() {
    let (user, project) = user_and_project();
    let oc = temp_file("oc.json", r#"{"permission": {"bash": "ask"}}"#);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![format!("user:{user}"), oc.clone()],
            "one eval runs one harness's configs",
        ),
        (
            vec![format!("user:{user}"), format!("user:{project}")],
            "give one file per scope",
        ),
    ];
    for (configs, needle) in cases {
        let mut args = vec!["eval".to_string(), "--config".into()];
        args.extend(configs);
        args.extend(["--call".into(), "bash: ls".into()]);
        let out = permlab(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(needle), "{}", text(&out.stderr));
    }
}

#[test]
fn every_subcommand_has_its_own_help() {
    for args in [vec!["eval", "--help"], vec!["help", "eval"]] {
        let out = permlab(&args);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        for needle in [
            "--config",
            "--mode",
            "--sandbox",
            "--cwd",
            "--json",
            "Examples:",
        ] {
            assert!(
                stdout.contains(needle),
                "{args:?}: {needle} missing in {stdout}"
            );
        }
    }
    for sub in [
        "conformance",
        "batch",
        "bench",
        "bench-data",
        "replay",
        "check",
        "lint",
    ] {
        let out = permlab(&[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(
            text(&out.stdout).contains(&format!("permlab {sub}")),
            "{sub}"
        );
    }
}

/// Runs `permlab` with stdout and stderr connected to a socket whose other end is already
/// closed: every write fails with a broken pipe, as in `permlab … 2>&1 | head -c 10` once head
/// has gone.
fn with_closed_output(args: &[&str]) -> std::process::ExitStatus {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    use std::process::{Command, Stdio};
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    let err = theirs.try_clone().unwrap();
    Command::new(env!("CARGO_BIN_EXE_permlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(OwnedFd::from(theirs)))
        .stderr(Stdio::from(OwnedFd::from(err)))
        .status()
        .unwrap()
}

#[test]
fn a_closed_stdout_and_stderr_end_quietly_in_every_subcommand() {
    let rules = temp_file(
        "warns.rules",
        "prefix_rule(pattern=[\"git\", \"push\"], decision=\"prompt\", canonical_matching=True)\nprefix_rule(pattern=[\"r*m\"], decision=\"forbidden\")\n",
    );
    let table = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/rulesets/miniagent-standard.json"
    );
    let lesson = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/lessons");
    let lessons: Vec<String> = std::fs::read_dir(lesson)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    let (user, project) = user_and_project();
    let opencode = format!("{CORPUS}/opencode/001.json");
    let vectors: Vec<Vec<&str>> = vec![
        vec![
            "eval",
            "--rules",
            &rules,
            "--call",
            "bash: git push",
            "--explain",
        ],
        vec!["eval", "--rules", table, "--call", "bash: ls", "--json"],
        vec!["eval", "--config", &opencode, "--call", "bash: ls"],
        vec![
            "eval", "--config", &user, &project, "--call", "Bash: ls", "--json",
        ],
        vec!["eval", "--nope"],
        vec!["eval", "--help"],
        vec!["--version"],
        vec![],
        vec!["lint", &opencode],
        vec!["lint", "/no/such/file"],
        vec![
            "conformance",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../fixtures/conformance/opencode.json"
            ),
        ],
    ];
    let mut check: Vec<&str> = vec!["check"];
    check.extend(lessons.iter().map(String::as_str));
    for v in vectors.iter().chain(std::iter::once(&check)) {
        let status = with_closed_output(v);
        assert!(
            matches!(status.code(), Some(0..=2)),
            "{v:?} ended with {status:?} (101 is a panic, no code a signal)"
        );
    }
}

#[test]
fn json_of_a_rule_table_numbers_rows_from_one_like_the_text() {
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/rulesets/miniagent-standard.json"
    );
    let call = "bash: python -m unittest -v test_dateparse.py";
    let out = permlab(&[
        "eval", "--rules", rules, "--call", call, "--engine", "opencode",
    ]);
    assert!(line_of(&text(&out.stdout), "opencode").contains("#9 bash"));
    let out = permlab(&[
        "eval", "--rules", rules, "--call", call, "--engine", "opencode", "--json",
    ]);
    let v = json::parse(&text(&out.stdout)).unwrap();
    let rule = v.get("results").and_then(Value::as_array).unwrap()[0]
        .get("rule")
        .cloned()
        .unwrap();
    assert_eq!(rule.get("number").and_then(Value::as_f64), Some(9.0));
    assert_eq!(rule.get("tool").and_then(Value::as_str), Some("bash"));
    assert_eq!(rule.get("list").and_then(Value::as_str), Some("allow"));
}
