//! Runs conformance files: expected verdicts computed by the real harnesses.
//!
//! The files live in `fixtures/conformance/` (byte-identical copies of the reference data); their
//! format is described in the project's reference README. One file names its engine at the top
//! (`"engine": "opencode"`); every section with cases is run and reported separately, so a
//! regression points at the semantics it broke ("opencode wildcard_win32: 128 passed, 1 failed").
//!
//! The runners live in the core (not in the CLI) because the CLI, `cargo test` and the widget's
//! self-check panel all run the same files.

use crate::error::Error;
use crate::json::{self, Value};

pub(crate) mod claude_code;
mod codex;
mod codex_approvals;
mod corecoder;
mod lcc;
mod opencode;
mod opencode_bash;
mod report;

pub use report::{DriftCase, Failure, SectionReport};

/// Runs a conformance file given as text; the engine comes from its `"engine"` field.
///
/// ```
/// let text = r#"{"engine": "lcc", "blacklist": ["sudo"], "cases": [
///     {"lesson": "s01", "group": "extra", "command": "sudo ls", "blocked": true,
///      "matched_substrings": ["sudo"], "result": "Error: Dangerous command blocked"}]}"#;
/// let reports = permlab_core::conformance::run(text).unwrap();
/// assert_eq!(reports.iter().map(|r| r.failed()).sum::<usize>(), 0);
/// ```
pub fn run(text: &str) -> Result<Vec<SectionReport>, Error> {
    let doc = json::parse(text)?;
    if let Err((path, found)) = malformed_case(&doc) {
        let at = crate::json::locate::locate(text, &path)
            .map(|p| format!(" (line {}, column {})", p.line, p.column))
            .unwrap_or_default();
        return Err(Error::shape(
            format!("{path}{at}"),
            format!(
                "a case is a JSON object {{…}}, found {found}: remove it or write the case out"
            ),
        ));
    }
    run_value(&doc)
}

/// Sections whose items are plain strings, not cases.
const STRING_LISTS: [&str; 2] = ["read_only_tools", "blacklist"];

/// The first case that is not an object (`null`, a number…), as its path and its kind: such a
/// file is unusable input, not a failing case.
fn malformed_case(doc: &Value) -> Result<(), (String, &'static str)> {
    let Value::Object(entries) = doc else {
        return Ok(());
    };
    for (key, section) in entries {
        let Value::Array(cases) = section else {
            continue;
        };
        if STRING_LISTS.contains(&key.as_str()) {
            continue;
        }
        if let Some((i, case)) = cases
            .iter()
            .enumerate()
            .find(|(_, c)| !matches!(c, Value::Object(_)))
        {
            return Err((format!("{key}[{i}]"), case.kind()));
        }
    }
    Ok(())
}

/// Like [`run`], on a parsed document.
pub fn run_value(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let engine = match doc.get("engine") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(Error::shape(
                "engine",
                format!("expected a string, found {}", other.kind()),
            ))
        }
        None => {
            return Err(Error::shape(
                "",
                "a conformance file needs a top-level \"engine\" (opencode, opencode-bash, claude-code, codex, corecoder or lcc)",
            ))
        }
    };
    match engine {
        "opencode" => opencode::run(doc),
        "opencode-bash" => opencode_bash::run(doc),
        "claude-code" => claude_code::run(doc),
        "codex" => codex::run(doc),
        "corecoder" => corecoder::run(doc),
        "lcc" => lcc::run(doc),
        "codex-approvals" => codex_approvals::run(doc),
        other => Err(Error::shape(
            "engine",
            format!(
                "unknown engine \"{other}\": expected opencode, opencode-bash, claude-code, codex, codex-approvals, corecoder or lcc"
            ),
        )),
    }
}
