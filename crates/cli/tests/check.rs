//! `permlab check`: the shipped lessons pass, a wrong answer key is caught (exit 1), an invalid
//! lesson is reported with its path (exit 1), an unreadable file is exit 2.

mod common;
use common::{permlab, temp_file, text};

const LESSONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/lessons");

#[test]
fn every_shipped_lesson_passes() {
    let mut files: Vec<String> = std::fs::read_dir(LESSONS)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = permlab(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("0 wrong"), "{stdout}");
}

#[test]
fn a_wrong_answer_key_is_caught() {
    let lesson = std::fs::read_to_string(format!("{LESSONS}/a3-2-conflict.json")).unwrap();
    // The seed's question: OpenCode's last match `git *` allows `git push origin main`.
    // Claim it denies.
    let wrong = lesson.replacen(
        "\"opencode\": \"allow\",\n            \"claude-code\": \"deny\"",
        "\"opencode\": \"deny\",\n            \"claude-code\": \"deny\"",
        1,
    );
    assert_ne!(wrong, lesson, "the fixture changed shape: update this test");
    let path = temp_file("wrong.json", &wrong);
    let out = permlab(&["check", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("opencode: expected deny, engines say allow"),
        "{stdout}"
    );
    assert!(stdout.contains("1 wrong"), "{stdout}");
}

#[test]
fn an_invalid_lesson_names_the_path() {
    let path = temp_file(
        "invalid.json",
        r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["claude"],
            "presets": [{"id": "a", "rules": [], "calls": [{"tool": "bsh", "input": "ls"}]}]}"#,
    );
    let out = permlab(&["check", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("error at engines[0] (line 1, column 62): unknown engine \"claude\""),
        "{stdout}"
    );
    assert!(stdout.contains("presets[0].calls[0].tool"), "{stdout}");
    let path = temp_file("syntax.json", "{\"title\": \"t\",\n}");
    let out = permlab(&["check", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("error at line 1, column 14: invalid JSON"),
        "{stdout}"
    );
}

#[test]
fn an_unreadable_file_is_exit_2() {
    let out = permlab(&["check", "/nonexistent/lesson.json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_readme_example_lesson_passes() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let section = &readme[readme.find("## Writing a lesson").expect("README section")..];
    let start = section.find("```json\n").unwrap() + "```json\n".len();
    let end = start + section[start..].find("```").unwrap();
    let path = temp_file("readme.json", &section[start..end]);
    let out = permlab(&["check", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("5 answers checked, 0 wrong"), "{stdout}");
}

#[test]
fn tasks_are_checked_against_the_lesson() {
    // A task may only name engines the lesson shows, presets it has, rules that exist.
    let lesson = r#"{"title": "t", "language": "en", "mode": "quiz", "engines": ["first-match", "opencode"],
      "presets": [{"id": "p", "rules": [{"tool": "bash", "pattern": "*", "action": "deny"}],
                   "calls": [{"tool": "bash", "input": "ls"}]}],
      "tasks": [{"text": "ok", "check": {"revealed": ["opencode"], "preset": "p"}},
                {"text": "bad engine", "check": {"revealed": ["claude-code"]}},
                {"text": "bad rule", "check": {"last": 4}}]}"#;
    let path = temp_file("tasks.json", lesson);
    let out = permlab(&["check", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("tasks[1].check.revealed[0]"), "{stdout}");
    assert!(stdout.contains("tasks[2].check.last"), "{stdout}");
    assert!(!stdout.contains("tasks[0]"), "{stdout}");
}

#[test]
fn a_case_where_the_docs_and_the_recorded_cli_disagree_says_both() {
    // `lsof` under `deny Bash(ls *)`: the docs say ask, CLI 2.1.332 (recorded) allows it.
    let lesson = r#"{"title": "t", "language": "en", "mode": "quiz", "engines": ["claude-code"],
 "presets": [{"id": "p", "rules": [{"tool": "bash", "pattern": "ls *", "action": "deny"}],
  "calls": [{"tool": "bash", "input": "lsof -i :8080", "expect": {"claude-code": "ask"}},
            {"tool": "bash", "input": "lsof -i :8080", "expect": {"claude-code": "allow"}}]}]}"#;
    let out = permlab(&["check", &temp_file("drift.json", lesson)]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("expected ask, engines say allow")
            && stdout.contains("docs: ask · CLI 2.1.332: allow: the answer follows the docs, the engine the recorded CLI"),
        "{stdout}"
    );
    // The answer that follows the CLI is right, and the author is told the docs differ.
    assert!(
        stdout.contains("note: preset p, call #2 `bash: lsof -i :8080`, claude-code: docs: ask · CLI 2.1.332: allow"),
        "{stdout}"
    );
    assert!(stdout.contains("2 answers checked, 1 wrong"), "{stdout}");
}

#[test]
fn claude_code_syntax_in_a_table_row_is_a_warning_with_the_fix() {
    let lesson = r#"{"title": "t", "language": "en", "mode": "explore", "engines": ["opencode"],
 "presets": [{"id": "p", "rules": [
   {"tool": "Bash", "pattern": "git *", "action": "allow"},
   {"tool": "bash", "pattern": "Bash(npm test *)", "action": "allow"}],
  "calls": ["bash: git status"]}]}"#;
    let out = permlab(&["check", &temp_file("claude-rows.json", lesson)]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a warning is not an error: {stdout}"
    );
    assert!(
        stdout.contains(
            ":3:4: warning at presets[0].rules[0]: \"tool\": \"Bash\" is Claude Code's name"
        ) && stdout.contains("write \"tool\": \"bash\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("warning at presets[0].rules[1]: \"pattern\": \"Bash(npm test *)\" is a Claude Code rule")
            && stdout.contains("write \"tool\": \"bash\", \"pattern\": \"npm test *\""),
        "{stdout}"
    );
}
