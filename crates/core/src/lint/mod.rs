//! # Lint: what is wrong with a real permission config, shown by the faithful engines
//!
//! People who write permission configs fall into the same traps again and again: an OpenCode
//! `"*": "allow"` written after the denies (last match wins, so it overrides them), a Claude
//! Code allow that can never open a hole in a deny, a Codex `["git", "push", "--force"]` rule
//! that `git push origin --force` walks past. This module finds them in a config as written
//! and, for every finding, computes a **demonstrating call** and runs the harness's own engine
//! on it, so each claim is one the real product would confirm.
//!
//! Claims of the form "rule B matches everything rule A matches" are proved, not sampled: the
//! patterns' wildcard languages are compared exactly ([`glob`]); when the proof search gives up
//! the linter says nothing. The demonstrating call is then checked with the engine, and a
//! finding whose call does not behave as claimed is dropped.
//!
//! Kinds ([`Kind`]): dead rules (all three harnesses), order-fragile pairs (OpenCode), patterns
//! that do not do what they look like, and — with a target harness — translation hazards.
//!
//! ```
//! use permlab_core::import::Format;
//! use permlab_core::lint::{lint_text, Kind};
//! let found = lint_text(Format::OpenCode, r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#).unwrap();
//! assert_eq!(found.len(), 1);
//! let f = &found[0];
//! assert_eq!(f.kind, Kind::DeadRule);
//! assert_eq!((f.place.line, f.place.column), (1, 26));
//! assert_eq!(f.call.call.input, "rm"); // `rm` matches `rm *`, but the later `*` decides: allow
//! assert_eq!(f.call.verdict.as_str(), "allow");
//! ```

mod claude_code;
#[cfg(feature = "rules-files")]
mod codex;
mod finding;
pub mod glob;
pub(crate) mod locate;
pub(crate) mod opencode;
mod source;
mod translate;

use crate::error::Error;
#[cfg(not(feature = "rules-files"))]
use crate::error::ErrorKind;
use crate::import::Format;
use crate::json::{write_string, Value};

pub use finding::{Demo, Facts, Finding, Kind, Place, RuleRef, Sandboxing, Severity};
pub use source::{claude_scope, detect, Source};
pub(crate) use source::{file_error, place_at};

/// A proof the linter did not make because it would cost too much (see [`glob`]'s budgets):
/// rules written with this pattern may hide findings that were not looked for. Not a
/// problem in the config, so not a [`Finding`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotChecked {
    /// Where the pattern is written (its first occurrence in the file; the file's start
    /// when it is written with escapes).
    pub place: Place,
    /// The pattern as the harness reads it.
    pub pattern: String,
    /// Why: [`glob::TooComplex::Pattern`] ("not checked: pattern too complex") or
    /// [`glob::TooComplex::File`] (the file's proofs used up their budget).
    pub why: glob::TooComplex,
}

impl std::fmt::Display for NotChecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown: String = self.pattern.chars().take(60).collect();
        if shown.len() < self.pattern.len() {
            shown.push('…');
        }
        let why = match self.why {
            glob::TooComplex::Pattern => "pattern too complex",
            glob::TooComplex::File => "the file's proofs used up the linter's budget",
        };
        write!(
            f,
            "{}:{}:{}: note [not-checked] not checked: {why} (`{shown}`); findings about rules with it may be missing",
            self.place.file, self.place.line, self.place.column
        )
    }
}

/// [`NotChecked`] notes for what `skipped` names, placed in `src`.
fn not_checked(src: &Source, skipped: Vec<glob::Unchecked>) -> Vec<NotChecked> {
    skipped
        .into_iter()
        .map(|u| NotChecked {
            place: place_at(src, src.text.find(&u.pattern).unwrap_or(0)),
            pattern: u.pattern,
            why: u.why,
        })
        .collect()
}

/// What [`lint`] found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every finding, by file, line and column.
    pub findings: Vec<Finding>,
    /// Proofs skipped because they would cost too much, by file, line and column.
    pub not_checked: Vec<NotChecked>,
    /// Files that could not be read as their harness would read them (the harness itself
    /// would refuse them), each naming the position and the fix.
    pub errors: Vec<Error>,
}

impl Report {
    /// Findings and errors as one JSON document for editors and CI:
    /// `{"findings": [{"kind", "severity", "harness", "file", "line", "column", "rules": [...],
    /// "message", "call": {"tool", "input", "native", "verdict", "decided_by"}, "fix"}],
    /// "errors": [{"file", "message"}]}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"findings\": [");
        for (i, f) in self.findings.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("\n  ");
            out.push_str(&finding_value(f).to_json());
        }
        if !self.findings.is_empty() {
            out.push('\n');
        }
        out.push_str("], \"not_checked\": [");
        for (i, n) in self.not_checked.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let mut o = place_fields(&n.place);
            o.push(("pattern".into(), Value::from(n.pattern.as_str())));
            o.push((
                "why".into(),
                Value::from(match n.why {
                    glob::TooComplex::Pattern => "pattern-too-complex",
                    glob::TooComplex::File => "file-budget",
                }),
            ));
            out.push_str(&Value::Object(o).to_json());
        }
        out.push_str("], \"errors\": [");
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str("{\"file\": ");
            write_string(e.source_name().unwrap_or(""), &mut out);
            out.push_str(", \"message\": ");
            write_string(&e.to_string(), &mut out);
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

fn place_fields(p: &Place) -> Vec<(String, Value)> {
    vec![
        ("file".into(), Value::from(p.file.as_str())),
        ("line".into(), Value::from(p.line)),
        ("column".into(), Value::from(p.column)),
    ]
}

fn finding_value(f: &Finding) -> Value {
    let mut o = vec![
        ("kind".into(), Value::from(f.kind.slug())),
        ("severity".into(), Value::from(f.severity.as_str())),
        ("harness".into(), Value::from(f.harness.slug())),
    ];
    o.extend(place_fields(&f.place));
    o.push((
        "rules".into(),
        Value::Array(
            f.rules
                .iter()
                .map(|r| {
                    let mut v = place_fields(&r.place);
                    v.push(("rule".into(), Value::from(r.text.as_str())));
                    v.push(("action".into(), Value::from(r.action.as_str())));
                    Value::Object(v)
                })
                .collect(),
        ),
    ));
    o.push(("message".into(), Value::from(f.message.as_str())));
    o.push((
        "call".into(),
        Value::Object(vec![
            ("tool".into(), Value::from(f.call.call.tool.as_str())),
            ("input".into(), Value::from(f.call.call.input.as_str())),
            ("native".into(), Value::from(f.call.native.as_str())),
            ("verdict".into(), Value::from(f.call.verdict.as_str())),
            ("decided_by".into(), Value::from(f.call.decided_by.as_str())),
        ]),
    ));
    o.push(("fix".into(), Value::from(f.fix.as_str())));
    Value::Object(o)
}

/// The import panel's headline for `n` findings: `你的配置里有 3 处问题` / `Your config has 3
/// problems` (`zh`: Chinese, else English).
///
/// ```
/// assert_eq!(permlab_core::lint::headline(3, true), "你的配置里有 3 处问题");
/// assert_eq!(permlab_core::lint::headline(1, false), "Your config has 1 problem");
/// assert_eq!(permlab_core::lint::headline(0, false), "No problems found in your config");
/// ```
pub fn headline(n: usize, zh: bool) -> String {
    match (n, zh) {
        (0, true) => "你的配置里没有发现问题".into(),
        (0, false) => "No problems found in your config".into(),
        (n, true) => format!("你的配置里有 {n} 处问题"),
        (1, false) => "Your config has 1 problem".into(),
        (n, false) => format!("Your config has {n} problems"),
    }
}

/// Lints one pasted config of `format` (what the widget's import panel calls): its findings,
/// or the error the harness itself would give for the file.
pub fn lint_text(format: Format, text: &str) -> Result<Vec<Finding>, Error> {
    lint_text_checked(format, text).map(|(findings, _)| findings)
}

/// [`lint_text`], with the proofs it skipped as too costly ([`NotChecked`]), for a front end
/// that says "not checked" next to the findings.
pub fn lint_text_checked(
    format: Format,
    text: &str,
) -> Result<(Vec<Finding>, Vec<NotChecked>), Error> {
    let src = Source {
        name: "config".into(),
        text: text.into(),
        format: Some(format),
        scope: None,
    };
    let r = lint(&[src], None);
    match r.errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok((r.findings, r.not_checked)),
    }
}

/// Lints `sources`: Claude Code files together as the layers of one session (one file per
/// scope), every OpenCode file on its own, Codex files together as one policy (in the order
/// given). With `target`, also the translation hazards of moving each config to that harness.
pub fn lint(sources: &[Source], target: Option<Format>) -> Report {
    let mut report = Report::default();
    let mut claude = Vec::new();
    let mut codex = Vec::new();
    for s in sources {
        match s.format.unwrap_or_else(|| detect(&s.name, &s.text)) {
            Format::ClaudeCode => claude.push(s),
            Format::Codex => codex.push(s),
            Format::OpenCode => {
                let (r, skipped) = glob::budgeted(|| match opencode::lint(s) {
                    Ok(f) => {
                        report.findings.extend(f);
                        if let Some(t) = target {
                            report
                                .findings
                                .extend(translate::lint(s, Format::OpenCode, t));
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                });
                if let Err(e) = r {
                    report.errors.push(e);
                }
                report.not_checked.extend(not_checked(s, skipped));
            }
        }
    }
    if !claude.is_empty() {
        let (e, skipped) = glob::budgeted(|| {
            let (f, e) = claude_code::lint(&claude);
            report.findings.extend(f);
            if let Some(t) = target {
                for s in &claude {
                    if !e.iter().any(|e| e.source_name() == Some(s.name.as_str())) {
                        report
                            .findings
                            .extend(translate::lint(s, Format::ClaudeCode, t));
                    }
                }
            }
            e
        });
        report.errors.extend(e);
        for u in skipped {
            // The layer the pattern is written in (the first that has it).
            let src = claude
                .iter()
                .find(|s| s.text.contains(&u.pattern))
                .unwrap_or(&claude[0]);
            report.not_checked.extend(not_checked(src, vec![u]));
        }
    }
    if !codex.is_empty() {
        #[cfg(feature = "rules-files")]
        {
            let (f, e) = codex::lint(&codex);
            let failed = !e.is_empty();
            report.findings.extend(f);
            report.errors.extend(e);
            if let (Some(t), false) = (target, failed) {
                for s in &codex {
                    let (f, skipped) = glob::budgeted(|| translate::lint(s, Format::Codex, t));
                    report.findings.extend(f);
                    report.not_checked.extend(not_checked(s, skipped));
                }
            }
        }
        #[cfg(not(feature = "rules-files"))]
        for s in &codex {
            report.errors.push(
                Error::new(ErrorKind::Config(
                    "linting a Codex .rules file needs the rules-files feature (Starlark)".into(),
                ))
                .in_source(s.name.clone()),
            );
        }
    }
    report.not_checked.sort_by(|a, b| {
        (&a.place.file, a.place.line, a.place.column).cmp(&(
            &b.place.file,
            b.place.line,
            b.place.column,
        ))
    });
    report.findings.sort_by(|a, b| {
        (&a.place.file, a.place.line, a.place.column, a.kind).cmp(&(
            &b.place.file,
            b.place.line,
            b.place.column,
            b.kind,
        ))
    });
    report
}

#[cfg(test)]
mod tests;
