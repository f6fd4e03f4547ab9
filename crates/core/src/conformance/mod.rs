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

/// One case whose result differs from the expected value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The case's input, shortly (e.g. `match("git status", "git *")`).
    pub input: String,
    /// The expected value, as JSON or short text.
    pub expected: String,
    /// What permlab computed.
    pub got: String,
}

/// One case where the documentation and the recorded CLI disagree (a `drift` section): not a
/// failure, the engine follows the CLI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriftCase {
    /// The case's id and call, shortly.
    pub input: String,
    /// What the docs state (`allow`, `ask`, `deny`).
    pub docs: String,
    /// What the real CLI did (and permlab computes).
    pub cli: String,
}

/// The tally for one section of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionReport {
    /// The file's engine (`opencode`, `codex`…).
    pub engine: String,
    /// The section (`wildcard`, `evaluate`, `cases`…).
    pub section: String,
    /// Cases that agree with the expected value.
    pub passed: usize,
    /// Every case that does not.
    pub failures: Vec<Failure>,
    /// A `drift` section: the cases where the docs and the recorded CLI disagree (each also
    /// counted in `passed`; empty in every other section).
    pub drift: Vec<DriftCase>,
}

impl SectionReport {
    /// An empty report for `engine`'s `section`.
    pub fn new(engine: &str, section: &str) -> Self {
        SectionReport {
            engine: engine.to_string(),
            section: section.to_string(),
            passed: 0,
            failures: Vec::new(),
            drift: Vec::new(),
        }
    }

    /// Records one case: a pass when `expected` and `got` are equal, else a failure.
    pub fn check(&mut self, input: impl FnOnce() -> String, expected: &str, got: &str) {
        if expected == got {
            self.passed += 1;
        } else {
            self.fail(input(), expected, got);
        }
    }

    /// Records one failed case.
    pub fn fail(&mut self, input: String, expected: impl Into<String>, got: impl Into<String>) {
        self.failures.push(Failure {
            input,
            expected: expected.into(),
            got: got.into(),
        });
    }

    /// Number of failed cases.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
}

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
