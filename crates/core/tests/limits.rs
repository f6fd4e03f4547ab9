//! Every reader's size and nesting limits, just under and just over: under loads, over gives
//! a clean error naming the limit (and how to raise it). The `.rules` budget is tested in
//! `fuzz.rs` next to the corpus measurement.

use permlab_core::json::{self, parse_with_limits};

/// The largest `k` for which `ok(k)` holds, searching upwards from 1 (at most `max`).
fn largest_ok(max: usize, ok: impl Fn(usize) -> bool) -> usize {
    let mut k = 0;
    while k < max && ok(k + 1) {
        k += 1;
    }
    k
}

fn nested_arrays(n: usize) -> String {
    format!("{}{}", "[".repeat(n), "]".repeat(n))
}

#[test]
fn json_depth() {
    assert!(json::parse(&nested_arrays(json::MAX_DEPTH)).is_ok());
    let e = json::parse(&nested_arrays(json::MAX_DEPTH + 1)).unwrap_err();
    assert!(e.message.contains("json::Limits::depth"), "{e}");
    assert_eq!(e.position.column, json::MAX_DEPTH + 1);
    // JSONC too, and the limit can be raised.
    assert!(json::parse_jsonc(&nested_arrays(json::MAX_DEPTH + 1)).is_err());
    let raised = json::Limits {
        depth: json::MAX_DEPTH + 1,
        ..json::Limits::default()
    };
    assert!(parse_with_limits(&nested_arrays(json::MAX_DEPTH + 1), true, &raised).is_ok());
}

#[test]
fn json_size() {
    let text = format!("\"{}\"", "x".repeat(98));
    let at = |bytes| {
        parse_with_limits(
            &text,
            false,
            &json::Limits {
                bytes,
                ..json::Limits::default()
            },
        )
    };
    assert!(at(100).is_ok());
    let e = at(99).unwrap_err();
    assert!(
        e.message.contains("100 bytes") && e.message.contains("json::Limits::bytes"),
        "{e}"
    );
    // The default lets a 10 MB paste through.
    let big = format!("[{}1]", "1,".repeat(5 << 20));
    assert!(json::parse(&big).is_ok());
}

#[test]
fn yaml_front_matter_depth_and_size() {
    use permlab_core::import::yaml::{front_matter, MAX_BYTES, MAX_DEPTH};
    let nested = |k: usize| {
        let mut s = String::from("---\n");
        for i in 0..k {
            s.push_str(&"  ".repeat(i));
            s.push_str("a:\n");
        }
        s.push_str(&"  ".repeat(k));
        s.push_str("b: deny\n---\n");
        s
    };
    let k = largest_ok(MAX_DEPTH + 5, |k| front_matter(&nested(k)).is_ok());
    assert!(
        (MAX_DEPTH - 1..=MAX_DEPTH + 1).contains(&k),
        "deepest front matter read: {k}"
    );
    let e = front_matter(&nested(k + 1)).unwrap_err().to_string();
    assert!(e.contains("import::yaml::MAX_DEPTH"), "{e}");

    // Size: a front matter of comment lines just under and just over the limit.
    let sized = |bytes: usize| {
        let line = format!("# {}\n", "x".repeat(97)); // 100 bytes
        let mut s = String::from("---\n");
        s.push_str(&line.repeat(bytes / 100));
        s.push_str("---\n");
        s
    };
    assert!(front_matter(&sized(MAX_BYTES)).is_ok());
    let e = front_matter(&sized(MAX_BYTES + 100))
        .unwrap_err()
        .to_string();
    assert!(e.contains("import::yaml::MAX_BYTES"), "{e}");
}

#[test]
fn claude_code_nesting_and_length() {
    use permlab_core::claude_code::shell::{parse, MAX_COMMAND_CHARS, MAX_NESTING};
    let nested = |k: usize| format!("echo {}x{}", "$(".repeat(k), ")".repeat(k));
    let k = largest_ok(MAX_NESTING + 5, |k| parse(&nested(k)).error.is_none());
    assert!(
        (MAX_NESTING - 1..=MAX_NESTING).contains(&k),
        "deepest nesting parsed: {k}"
    );
    let e = parse(&nested(k + 1)).error.unwrap();
    assert!(e.contains("MAX_NESTING"), "{e}");
    // Backticks and subshells count the same way.
    let subshells = |k: usize| format!("{}x{}", "( ".repeat(k), " )".repeat(k));
    assert!(parse(&subshells(k)).error.is_none());
    assert!(parse(&subshells(k + 1)).error.is_some());

    let long = |n: usize| format!("echo {}", "x".repeat(n - 5));
    assert!(parse(&long(MAX_COMMAND_CHARS)).error.is_none());
    assert!(parse(&long(MAX_COMMAND_CHARS + 1)).error.is_some());
    // A long compound command: an error for allow rules, but its parts are still split.
    let p = parse(&"ls; ".repeat(MAX_COMMAND_CHARS));
    assert!(p.error.is_some());
    assert_eq!(p.commands.len(), MAX_COMMAND_CHARS);
}

#[test]
fn trace_line_and_total() {
    use permlab_core::trace::{lines, parse_with_limits, Limits, Line};
    let line = r#"{"tool": "bash", "input": "ls"}"#;
    let text = format!("{line}\n{line}\n{line}\n");
    let at = |l: Limits| parse_with_limits(&text, &l);
    let t = at(Limits {
        line_bytes: line.len(),
        ..Limits::default()
    });
    assert_eq!((t.calls.len(), t.malformed.len()), (3, 0));
    let t = at(Limits {
        line_bytes: line.len() - 1,
        ..Limits::default()
    });
    assert_eq!(t.calls.len(), 0);
    assert!(t.malformed[0].message.contains("trace::Limits::line_bytes"));
    let t = at(Limits {
        calls: 3,
        ..Limits::default()
    });
    assert_eq!((t.calls.len(), t.malformed.len()), (3, 0));
    let t = at(Limits {
        calls: 2,
        ..Limits::default()
    });
    assert_eq!(t.calls.len(), 2);
    assert_eq!(t.malformed.len(), 1);
    assert!(t.malformed[0].message.contains("trace::Limits::calls"));
    assert_eq!(t.malformed[0].line, 3);
    // The stream has no total bound and reads lazily.
    let calls = lines(&text.repeat(1000), Limits::default())
        .filter(|l| matches!(l, Line::Calls(_)))
        .count();
    assert_eq!(calls, 3000);
}

#[test]
fn lesson_size_calls_and_presets() {
    use permlab_core::lesson::{Lesson, Limits};
    let lesson = |calls: usize, presets: usize| {
        let calls: Vec<String> = (0..calls).map(|i| format!("\"bash: echo {i}\"")).collect();
        let presets: Vec<String> = (0..presets)
            .map(|i| {
                format!(
                    r#"{{"id": "p{i}", "rules": [{{"tool": "bash", "pattern": "*", "action": "ask"}}], "calls": [{}]}}"#,
                    calls.join(",")
                )
            })
            .collect();
        format!(
            r#"{{"title": "t", "language": "en", "mode": "explore", "engines": ["opencode"], "presets": [{}]}}"#,
            presets.join(",")
        )
    };
    let limits = Limits {
        calls: 5,
        presets: 3,
        ..Limits::default()
    };
    let ok = Lesson::parse_with_limits(&lesson(5, 3), &limits);
    assert!(
        ok.lesson.is_some() && ok.problems.is_empty(),
        "{:?}",
        ok.problems
    );
    let over = Lesson::parse_with_limits(&lesson(6, 3), &limits);
    assert!(over
        .problems
        .iter()
        .any(|p| p.message.contains("lesson::Limits::calls")));
    let over = Lesson::parse_with_limits(&lesson(5, 4), &limits);
    assert!(over
        .problems
        .iter()
        .any(|p| p.message.contains("lesson::Limits::presets")));

    let text = lesson(2, 1);
    let at = |bytes| {
        Lesson::parse_with_limits(
            &text,
            &Limits {
                bytes,
                ..Limits::default()
            },
        )
    };
    assert!(at(text.len()).lesson.is_some());
    let e = at(text.len() - 1);
    assert!(e.lesson.is_none());
    assert!(e.problems[0].message.contains("lesson::Limits::bytes"));

    // Problems are capped, with one line counting the rest.
    let bad: Vec<String> = (0..10).map(|_| "\"nope\"".to_string()).collect();
    let text = format!(
        r#"{{"title": "t", "engines": ["opencode"], "presets": [{{"id": "p", "rules": [], "calls": [{}]}}]}}"#,
        bad.join(",")
    );
    let capped = Lesson::parse_with_limits(
        &text,
        &Limits {
            problems: 4,
            ..Limits::default()
        },
    );
    assert_eq!(capped.problems.len(), 5, "{:?}", capped.problems);
    assert!(capped.problems[4]
        .message
        .contains("lesson::Limits::problems"));
}

#[test]
fn opencode_config_keys() {
    use permlab_core::opencode::config::{Limits, PermissionConfig};
    let config = |n: usize| {
        let pats: Vec<String> = (0..n).map(|i| format!("\"cmd{i} *\": \"allow\"")).collect();
        format!("{{\"bash\": {{{}}}}}", pats.join(","))
    };
    let limits = Limits {
        keys: 11,
        ..Limits::default()
    };
    assert!(PermissionConfig::parse_with_limits(&config(10), &limits).is_ok());
    let e = PermissionConfig::parse_with_limits(&config(11), &limits)
        .unwrap_err()
        .to_string();
    assert!(e.contains("opencode::config::Limits::keys"), "{e}");
    // A 10 000-rule config loads with the defaults.
    assert!(PermissionConfig::parse(&config(10_000)).is_ok());
    // Errors are capped.
    let bad: Vec<String> = (0..300).map(|i| format!("\"k{i}\": 1")).collect();
    let e = PermissionConfig::parse(&format!("{{{}}}", bad.join(",")))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("more errors (opencode::config::Limits::errors"),
        "{e}"
    );
}
