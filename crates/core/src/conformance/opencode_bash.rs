//! Runner for `engine: "opencode-bash"` files (`fixtures/conformance/opencode-bash-real.json`,
//! `opencode-bash-recorded.json`): whole bash calls recorded from the real OpenCode 1.18.32
//! bash tool, checked against [`crate::opencode::bash_call`].
//!
//! The file's `setup` gives the place (`directory`, `worktree`, `home`, `existing_dirs`); each
//! case gives `rules`, `command`, `cwd` and the expected `requests` (`{permission, patterns,
//! always, action}`, in order), `decision` and `bash_hidden` (absent = false). A case passes
//! when all of them agree; the report shows both sides in full.

use super::SectionReport;
use crate::error::Error;
use crate::json::Value;
use crate::opencode::{bash_call_with, lesson_place, rules_from_value, OpenCodeEngine, Place};

const ENGINE: &str = "opencode-bash";

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::shape("cases", "expected an array of cases"))?;
    let place = place_of(doc.get("setup"))?;
    let mut report = SectionReport::new(ENGINE, "cases");
    for (i, case) in cases.iter().enumerate() {
        let id = case.get("id").and_then(Value::as_str).unwrap_or("");
        let command = case.get("command").and_then(Value::as_str);
        let input = || {
            format!(
                "cases[{i}] {id} {:?} in {:?}",
                command.unwrap_or(""),
                case.get("cwd").and_then(Value::as_str).unwrap_or("")
            )
        };
        match read(case, &place) {
            Err(msg) => report.fail(input(), "a well-formed case", msg),
            Ok((engine, command, place, expected)) => {
                let d = bash_call_with(&engine, &command, &place);
                let got = show(
                    d.decision.as_str(),
                    d.requests.iter().map(|r| {
                        (
                            r.permission.name(),
                            r.patterns.as_slice(),
                            r.always.as_slice(),
                            r.action.as_str(),
                        )
                    }),
                    d.hidden,
                );
                report.check(input, &expected, &got);
            }
        }
    }
    Ok(vec![report])
}

/// The place of the file's `setup` (the lesson's place when there is none).
fn place_of(setup: Option<&Value>) -> Result<Place, Error> {
    let mut place = lesson_place();
    let Some(setup) = setup else {
        return Ok(place);
    };
    let text = |key: &str, into: &mut String| -> Result<(), Error> {
        match setup.get(key) {
            None => Ok(()),
            Some(Value::String(s)) => {
                *into = s.clone();
                Ok(())
            }
            Some(other) => Err(Error::shape(
                format!("setup.{key}"),
                format!("expected a string, found {}", other.kind()),
            )),
        }
    };
    text("directory", &mut place.directory)?;
    text("worktree", &mut place.worktree)?;
    text("home", &mut place.home)?;
    place.cwd = place.directory.clone();
    if let Some(dirs) = setup.get("existing_dirs") {
        let dirs = dirs.as_array().ok_or_else(|| {
            Error::shape("setup.existing_dirs", "expected an array of directories")
        })?;
        place.existing_dirs = dirs
            .iter()
            .map(|d| d.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| Error::shape("setup.existing_dirs", "expected strings"))?;
    }
    Ok(place)
}

fn read(case: &Value, place: &Place) -> Result<(OpenCodeEngine, String, Place, String), String> {
    let rules = rules_from_value(case.get("rules").ok_or("no \"rules\"")?)
        .map_err(|e| format!("rules: {e}"))?;
    let command = case
        .get("command")
        .and_then(Value::as_str)
        .ok_or("no \"command\" string")?;
    let mut place = place.clone();
    if let Some(cwd) = case.get("cwd") {
        place.cwd = cwd.as_str().ok_or("\"cwd\" must be a string")?.to_string();
    }
    let decision = case
        .get("decision")
        .and_then(Value::as_str)
        .ok_or("no \"decision\"")?;
    let requests = case
        .get("requests")
        .and_then(Value::as_array)
        .ok_or("no \"requests\" array")?;
    let mut asked = Vec::new();
    for (k, r) in requests.iter().enumerate() {
        let s = |key: &str| {
            r.get(key)
                .and_then(Value::as_str)
                .ok_or(format!("requests[{k}].{key}: expected a string"))
        };
        let list = |key: &str| -> Result<Vec<String>, String> {
            r.get(key)
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect())
                .ok_or(format!("requests[{k}].{key}: expected an array of strings"))
        };
        asked.push((
            s("permission")?,
            list("patterns")?,
            list("always")?,
            s("action")?,
        ));
    }
    let hidden = case
        .get("bash_hidden")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let expected = show(
        decision,
        asked
            .iter()
            .map(|(p, pats, al, a)| (*p, pats.as_slice(), al.as_slice(), *a)),
        hidden,
    );
    Ok((
        OpenCodeEngine::from_rules(rules),
        command.to_string(),
        place,
        expected,
    ))
}

/// `decision=… hidden=… requests=[{permission, patterns, always, action}…]` as JSON.
fn show<'a>(
    decision: &str,
    requests: impl Iterator<Item = (&'a str, &'a [String], &'a [String], &'a str)>,
    hidden: bool,
) -> String {
    let strings = |v: &[String]| Value::Array(v.iter().map(|s| Value::from(s.as_str())).collect());
    let requests = Value::Array(
        requests
            .map(|(permission, patterns, always, action)| {
                Value::Object(vec![
                    ("permission".into(), Value::from(permission)),
                    ("patterns".into(), strings(patterns)),
                    ("always".into(), strings(always)),
                    ("action".into(), Value::from(action)),
                ])
            })
            .collect(),
    );
    format!(
        "decision={decision} hidden={hidden} requests={}",
        requests.to_json()
    )
}
