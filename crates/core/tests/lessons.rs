//! Every lesson in `fixtures/lessons/` validates against `fixtures/lesson.schema.json` (with a
//! small validator for the subset of draft 2020-12 the schema uses) and loads through
//! `permlab_core::lesson` without errors; and the validator itself rejects broken lessons.

use permlab_core::json::{self, Value};
use permlab_core::lesson::{Lesson, Severity};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures");

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => matches!(v, Value::Object(_)),
        "array" => matches!(v, Value::Array(_)),
        "string" => matches!(v, Value::String(_)),
        "boolean" => matches!(v, Value::Bool(_)),
        "number" => matches!(v, Value::Number(_)),
        "null" => v.is_null(),
        other => panic!("schema type {other} not supported by this validator"),
    }
}

/// Errors (JSON paths) of `v` against `s`; `root` resolves `$ref`s.
fn validate(root: &Value, s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $defs refs only");
        let def = root.get("$defs").and_then(|d| d.get(name)).expect(r);
        validate(root, def, v, at, errs);
    }
    match s.get("type") {
        Some(Value::String(t)) if !type_ok(t, v) => errs.push(format!("{at}: not {t}")),
        Some(Value::Array(ts)) if !ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)) => {
            errs.push(format!("{at}: wrong type"))
        }
        _ => {}
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.iter().any(|x| x.same_as(v)) {
            errs.push(format!(
                "{at}: not one of {}",
                Value::Array(e.to_vec()).to_json()
            ));
        }
    }
    if let Some(alts) = s.get("oneOf").and_then(Value::as_array) {
        let ok = alts
            .iter()
            .filter(|a| {
                let mut e = Vec::new();
                validate(root, a, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if ok != 1 {
            errs.push(format!(
                "{at}: matches {ok} of the oneOf alternatives, not 1"
            ));
        }
    }
    if let Value::Object(entries) = v {
        for k in s
            .get("required")
            .and_then(Value::as_array)
            .unwrap_or_default()
        {
            if v.get(k.as_str().unwrap()).is_none() {
                errs.push(format!("{at}: missing {}", k.to_json()));
            }
        }
        if let Some(n) = s.get("minProperties").and_then(Value::as_f64) {
            if (entries.len() as f64) < n {
                errs.push(format!("{at}: fewer than {n} properties"));
            }
        }
        let props = s.get("properties");
        for (k, x) in entries {
            let p = format!("{at}.{k}");
            if let Some(names) = s.get("propertyNames") {
                validate(root, names, &Value::from(k.as_str()), &p, errs);
            }
            match props.and_then(|ps| ps.get(k)) {
                Some(ps) => validate(root, ps, x, &p, errs),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => errs.push(format!("{p}: not allowed")),
                    Some(a @ Value::Object(_)) => validate(root, a, x, &p, errs),
                    _ => {}
                },
            }
        }
    }
    if let Value::Array(items) = v {
        if let Some(n) = s.get("minItems").and_then(Value::as_f64) {
            if (items.len() as f64) < n {
                errs.push(format!("{at}: fewer than {n} items"));
            }
        }
        if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            for (i, x) in items.iter().enumerate() {
                if items[..i].iter().any(|y| y.same_as(x)) {
                    errs.push(format!("{at}[{i}]: duplicate"));
                }
            }
        }
        if let Some(is) = s.get("items") {
            for (i, x) in items.iter().enumerate() {
                validate(root, is, x, &format!("{at}[{i}]"), errs);
            }
        }
    }
}

fn schema() -> Value {
    json::parse(&std::fs::read_to_string(format!("{ROOT}/lesson.schema.json")).unwrap()).unwrap()
}

fn schema_errors(lesson: &Value) -> Vec<String> {
    let s = schema();
    let mut errs = Vec::new();
    validate(&s, &s, lesson, "$", &mut errs);
    errs
}

#[test]
fn every_lesson_validates_and_loads() {
    let mut n = 0;
    for e in std::fs::read_dir(format!("{ROOT}/lessons")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().and_then(|x| x.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let v = json::parse(&text).unwrap();
        let errs = schema_errors(&v);
        assert!(errs.is_empty(), "{}: {errs:#?}", path.display());
        let loaded = Lesson::parse(&text);
        let bad: Vec<_> = loaded
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .collect();
        assert!(bad.is_empty(), "{}: {bad:#?}", path.display());
        assert!(loaded.lesson.is_some());
        n += 1;
    }
    assert!(n >= 2, "expected the seed 000 and seed 001 lessons");
}

#[test]
fn schema_and_loader_both_reject_broken_lessons() {
    let cases = [
        (
            r#"{"title": "t", "language": "fr", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "a", "rules": [], "calls": []}]}"#,
            "language",
        ),
        (
            r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["open-code"], "presets": [{"id": "a", "rules": [], "calls": []}]}"#,
            "engines[0]",
        ),
        (
            r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "a", "calls": []}]}"#,
            "presets[0]",
        ),
        (
            r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "a", "rules": [], "calls": [{"tool": "bash", "input": "ls", "expect": {"opencode": "maybe"}}]}]}"#,
            "expect.opencode",
        ),
        (
            r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "a", "rules": [{"tool": "bash", "pattern": "*", "action": "Deny"}], "calls": []}]}"#,
            "presets[0].rules[0].action",
        ),
    ];
    for (text, path) in cases {
        let v = json::parse(text).unwrap();
        assert!(!schema_errors(&v).is_empty(), "schema accepts {text}");
        let loaded = Lesson::parse(text);
        assert!(loaded.lesson.is_none(), "{text}");
        assert!(
            loaded.problems.iter().any(|p| p.path.contains(path)),
            "{text}: {:?}",
            loaded.problems
        );
    }
    // Unknown tools in calls: the schema cannot know them, the loader can.
    let unknown = r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "a", "rules": [], "calls": [{"tool": "bsh", "input": "ls"}]}]}"#;
    assert!(schema_errors(&json::parse(unknown).unwrap()).is_empty());
    let loaded = Lesson::parse(unknown);
    assert!(loaded.problems[0]
        .to_string()
        .contains("no engine knows the tool \"bsh\""));
    // Syntax errors carry the position.
    let loaded = Lesson::parse("{\"title\": \"t\",}");
    assert!(loaded.problems[0].path.starts_with("line 1, column"));
}
