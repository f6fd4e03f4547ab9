//! The worker's side of the protocol: what the on-demand worker (`src/bin/selfcheck.rs`, the
//! wasm with Codex's Starlark interpreter, the linter and the conformance runners) does with
//! each [`Request`]. The page never calls these; natively the tests do, to play the worker.
//!
//! ```
//! use permlab_core::{import::Format, Action};
//! use permlab_widget::model::FormatChoice;
//! use permlab_widget::protocol::{Reply, Request};
//! use permlab_widget::worker::answer;
//! let reply = answer(&Request::Import {
//!     format: FormatChoice::Is(Format::Codex),
//!     text: "prefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n".into(),
//! });
//! match reply {
//!     Some(Reply::Import { result: Ok(rows) }) => assert_eq!(rows.rows[0].action, Action::Deny),
//!     other => panic!("{other:?}"),
//! }
//! ```

use permlab_core::import::{self, Format};

use crate::model::FormatChoice;
use crate::protocol::{
    CodexNote, ImportedRows, LintFinding, LintRule, LintSkipped, Linted, Reply, Request, Row,
    TooComplex, Warning, WorkerError,
};

/// Lints a pasted config as the import read it: the findings as protocol values and the
/// proofs skipped as too costly (so the panel can say "not checked: pattern too complex"
/// rather than stay silent), or the harness's own error for the file.
///
/// ```
/// use permlab_core::{import::Format, lint::Kind, Decision};
/// use permlab_widget::worker::lint;
/// let linted = lint(Format::OpenCode, r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#).unwrap();
/// let found = &linted.findings;
/// assert_eq!((found[0].kind, found[0].input.as_str(), found[0].verdict), (Kind::DeadRule, "rm", Decision::Allow));
/// assert!(linted.not_checked.is_empty());
/// ```
pub fn lint(format: Format, text: &str) -> Result<Linted, WorkerError> {
    let (found, skipped) = permlab_core::lint::lint_text_checked(format, text)
        .map_err(|e| WorkerError::of_config(format, text, &e))?;
    let not_checked = skipped
        .into_iter()
        .map(|n| LintSkipped {
            line: n.place.line,
            column: n.place.column,
            pattern: n.pattern,
            why: match n.why {
                permlab_core::lint::glob::TooComplex::Pattern => TooComplex::Pattern,
                permlab_core::lint::glob::TooComplex::File => TooComplex::File,
            },
        })
        .collect();
    let findings = found
        .iter()
        .map(|f| LintFinding {
            kind: f.kind,
            severity: f.severity,
            harness: f.harness,
            rules: f
                .rules
                .iter()
                .map(|r| LintRule {
                    line: r.place.line,
                    column: r.place.column,
                    text: r.text.clone(),
                    action: r.action,
                })
                .collect(),
            tool: f.call.call.tool.clone(),
            input: f.call.call.input.clone(),
            native: f.call.native.clone(),
            verdict: f.call.verdict,
            other: f.facts.other,
            write: f.facts.write.clone(),
            part: f.facts.part.clone(),
            negated: f.facts.negated,
            count: f.facts.count,
            from: f.facts.from,
            sandbox: f.facts.sandbox,
            agent: f.facts.agent.clone(),
        })
        .collect();
    Ok(Linted {
        findings,
        not_checked,
    })
}

/// Reads a pasted config as the import panel's `format` says: its rows, or why not.
pub fn import(format: FormatChoice, text: &str) -> Result<ImportedRows, WorkerError> {
    if text.trim().is_empty() {
        return Err(WorkerError::Empty);
    }
    crate::model::import_config_error(format, text)
        .map(|i| rows_of(&i))
        .map_err(|e| WorkerError::of_config(format.resolve(text), text, &e))
}

/// The worker's answer to the requests it answers at once (an import, a lesson); `None` for a
/// self-check (which fetches files, see the worker).
pub fn answer(request: &Request) -> Option<Reply> {
    match request {
        Request::SelfCheck { .. } => None,
        Request::Import { format, text } => Some(Reply::Import {
            result: import(*format, text),
        }),
        Request::Lesson { text } => Some(Reply::Lesson {
            result: read_lesson_configs(text),
        }),
        Request::Lint { format, text } => Some(Reply::Lint {
            result: lint(*format, text),
        }),
    }
}

/// An import as protocol rows.
pub fn rows_of(i: &permlab_core::import::Imported) -> ImportedRows {
    ImportedRows {
        format: i.format,
        rules_in: i.rules_in,
        rows: i
            .table
            .rules()
            .iter()
            .map(|r| Row {
                tool: r.tool.clone(),
                pattern: r.pattern.clone(),
                action: r.action,
            })
            .collect(),
        origins: i.origins.clone(),
        canonical: i.canonical.clone(),
        warnings: i
            .warnings
            .iter()
            .map(|w| Warning {
                at: w.at.clone(),
                rule: w.rule.clone(),
                message: w.message.clone(),
                dropped: w.dropped,
                note: CodexNote::of(&w.note),
            })
            .collect(),
    }
}

/// The worker's side of a lesson with Codex `.rules` configs: each such preset's `config` read
/// (with the Starlark interpreter) and turned into `rules` rows, the lesson's own text otherwise
/// unchanged; or why a config cannot be read (`presets[i].config: …`).
pub fn read_lesson_configs(text: &str) -> Result<String, WorkerError> {
    use permlab_core::json::{self, Value};
    let mut lesson = json::parse(text).map_err(|e| WorkerError::Read(e.to_string()))?;
    if let Value::Object(fields) = &mut lesson {
        for (key, presets) in fields.iter_mut() {
            let (true, Value::Array(presets)) = (key == "presets", presets) else {
                continue;
            };
            for (i, preset) in presets.iter_mut().enumerate() {
                let Value::Object(p) = preset else { continue };
                let codex = p.iter().find(|(k, _)| k == "config").and_then(|(_, c)| {
                    (c.get("format").and_then(Value::as_str) == Some("codex")).then(|| {
                        c.get("text")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    })
                });
                let Some(rules_text) = codex else { continue };
                match import::import(Format::Codex, &rules_text) {
                    Ok(imp) => {
                        let rows = imp
                            .table
                            .rules()
                            .iter()
                            .enumerate()
                            .map(|(k, r)| {
                                let mut row = vec![
                                    ("tool".into(), Value::from(r.tool.as_str())),
                                    ("pattern".into(), Value::from(r.pattern.as_str())),
                                    ("action".into(), Value::from(r.action.as_str())),
                                ];
                                // A row of a `canonical_matching=True` rule: the page's Codex
                                // engine keeps its case folding (see `keep_canonical`).
                                if imp
                                    .origins
                                    .get(k)
                                    .is_some_and(|o| imp.canonical.contains(o))
                                {
                                    row.push(("canonical".into(), Value::from(true)));
                                }
                                Value::Object(row)
                            })
                            .collect();
                        p.retain(|(k, _)| k != "config");
                        p.push(("rules".into(), Value::Array(rows)));
                    }
                    Err(e) => {
                        return Err(WorkerError::Lesson {
                            preset: i,
                            error: Box::new(WorkerError::of_config(Format::Codex, &rules_text, &e)),
                        })
                    }
                }
            }
        }
    }
    Ok(lesson.to_json())
}
