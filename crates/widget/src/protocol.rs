//! The worker protocol: what the page asks the on-demand worker (`src/bin/selfcheck.rs`, the
//! wasm with the conformance runners and Codex's Starlark interpreter) and what it answers.
//!
//! Both directions are typed: a [`Request`] and a stream of [`Reply`]s cross `postMessage` as
//! plain JavaScript objects through `serde-wasm-bindgen` (no JSON is written by hand). The
//! worker posts [`Reply::Ready`] once its handler exists, the page then posts one request, the
//! worker answers and ends with [`Reply::Done`].
//!
//! ```
//! use permlab_widget::protocol::{answer, Reply, Request};
//! let reply = answer(&Request::Import {
//!     format: "codex".into(),
//!     text: "prefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n".into(),
//! });
//! match reply {
//!     Some(Reply::Import { result: Ok(rows) }) => assert_eq!(rows.rows[0].action, "deny"),
//!     other => panic!("{other:?}"),
//! }
//! ```

use serde::{Deserialize, Serialize};

/// Where a conformance file's expected answers come from, as the self-check names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Recorded from the real CLI, black-box.
    Recorded,
    /// Computed by running (or reading) the real code at a pinned version.
    Source,
    /// What the documentation states (where the recorded CLI differs, the engine follows the
    /// CLI and the file's `drift` section lists those cases).
    Docs,
}

/// One line of the self-check: a product, the basis of its expected answers, and the fixture
/// files that hold them (served under the page's fixtures URL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// A stable key (the panel's `data-check`).
    pub key: &'static str,
    /// The product and version as the learner reads it.
    pub product: &'static str,
    /// Where its answers come from.
    pub basis: Basis,
    /// Its files, without `.json`.
    pub files: &'static [&'static str],
}

/// The self-check's lines, in the panel's order.
pub const FIXTURES: [Fixture; 7] = [
    Fixture {
        key: "opencode",
        product: "OpenCode v1.18.32",
        basis: Basis::Source,
        files: &["opencode"],
    },
    Fixture {
        key: "claude-code-docs",
        product: "Claude Code",
        basis: Basis::Docs,
        files: &["claude-code"],
    },
    Fixture {
        key: "claude-code-cli",
        product: "Claude Code CLI 2.1.332",
        basis: Basis::Recorded,
        files: &["claude-code-real", "claude-code-recorded"],
    },
    Fixture {
        key: "corecoder",
        product: "CoreCoder 0.7.0",
        basis: Basis::Source,
        files: &["corecoder"],
    },
    Fixture {
        key: "codex",
        product: "Codex execpolicy",
        basis: Basis::Source,
        files: &["codex"],
    },
    Fixture {
        key: "codex-cli",
        product: "Codex CLI 0.171.0",
        basis: Basis::Recorded,
        files: &["codex-real", "codex-recorded"],
    },
    Fixture {
        key: "lcc",
        product: "learn-claude-code",
        basis: Basis::Source,
        files: &["lcc"],
    },
];

/// The self-check line with this key.
pub fn fixture(key: &str) -> Option<&'static Fixture> {
    FIXTURES.iter().find(|f| f.key == key)
}

/// What the page asks the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Request {
    /// Run every conformance fixture served under `base` (an absolute URL ending in `/`):
    /// one [`Reply::Check`] per file.
    SelfCheck {
        /// Where the fixtures are.
        base: String,
    },
    /// Read a pasted config (a Codex `.rules` file: the page has no Starlark): one
    /// [`Reply::Import`].
    Import {
        /// The import panel's format choice (`auto` or a format slug).
        format: String,
        /// The pasted text.
        text: String,
    },
    /// Read a lesson's Codex `.rules` configs into rows: one [`Reply::Lesson`].
    Lesson {
        /// The lesson (lesson format).
        text: String,
    },
    /// Lint a pasted config (`permlab_core::lint::lint_text`): one [`Reply::Lint`]. The
    /// linter runs here for every format, so the page's wasm carries none of it.
    Lint {
        /// The format the import read it as (a format slug).
        format: String,
        /// The pasted text.
        text: String,
    },
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reply {
    /// The worker's handler exists: send the request now.
    Ready,
    /// One self-check line's result ([`FIXTURES`]): its files' sections, or why they could
    /// not run.
    Check {
        /// The line's [`Fixture::key`].
        name: String,
        /// Sections (name, passed, total) or the error.
        result: Result<Vec<Section>, String>,
    },
    /// The pasted config as rows, or why it cannot be read.
    Import {
        /// The rows and what the import said about them.
        result: Result<ImportedRows, String>,
    },
    /// The lesson with its `.rules` configs turned into `rules` rows, or the error.
    Lesson {
        /// The lesson's text (lesson format).
        result: Result<String, String>,
    },
    /// The pasted config's findings, or why it cannot be linted.
    Lint {
        /// The findings, in file order.
        result: Result<Vec<LintFinding>, String>,
    },
    /// Nothing more to come.
    Done,
}

/// One section of a fixture file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Its name.
    pub name: String,
    /// Cases that agree with the real harness.
    pub passed: usize,
    /// All its cases.
    pub total: usize,
}

/// An imported config, as rows the page can judge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedRows {
    /// Whose config it was (a format slug).
    pub format: String,
    /// Rules the config had.
    pub rules_in: usize,
    /// The rows.
    pub rows: Vec<Row>,
    /// Where each row came from in the config.
    pub origins: Vec<String>,
    /// What could not be imported as it was.
    pub warnings: Vec<Warning>,
    /// The origins of Codex rules written with `canonical_matching=True` (their case folding
    /// follows the rows to the page's Codex engine).
    #[serde(default)]
    pub canonical: Vec<String>,
}

/// One imported row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Tool.
    pub tool: String,
    /// Pattern.
    pub pattern: String,
    /// `allow`, `ask` or `deny`.
    pub action: String,
}

/// One import warning (see `permlab_core::import::ImportWarning`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Where in the config.
    pub at: String,
    /// The rule, when one is meant.
    pub rule: Option<String>,
    /// What happened.
    pub message: String,
    /// Whether the rule was dropped.
    pub dropped: bool,
    /// What `message` says, as data: the slug of a Codex import's note (see [`note_slug`]);
    /// absent for a note only the English says.
    #[serde(default)]
    pub note: Option<String>,
}

/// A `.rules` import's note as the protocol carries it (the worker reads only Codex files for
/// the page, so only Codex's notes have slugs).
pub fn note_slug(n: &permlab_core::import::ImportNote) -> Option<String> {
    use permlab_core::import::ImportNote::*;
    match n {
        CodexCanonical => Some("codex-canonical".into()),
        CodexTooManyAlternatives(max) => Some(format!("codex-too-many:{max}")),
        CodexLiteralWildcard => Some("codex-literal-wildcard".into()),
        _ => None,
    }
}

/// The note a [`note_slug`] names.
pub fn note_of(slug: Option<&str>) -> permlab_core::import::ImportNote {
    use permlab_core::import::ImportNote::*;
    match slug {
        Some("codex-canonical") => CodexCanonical,
        Some("codex-literal-wildcard") => CodexLiteralWildcard,
        Some(s) => match s
            .strip_prefix("codex-too-many:")
            .and_then(|n| n.parse().ok())
        {
            Some(max) => CodexTooManyAlternatives(max),
            None => Other,
        },
        None => Other,
    }
}

/// One lint finding, as structured as the core's `permlab_core::lint::Finding`: the page
/// words it in its own language from these fields (its `message`/`fix` are English).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintFinding {
    /// The kind's slug (`dead-rule`, `no-space-star`…).
    pub kind: String,
    /// `warning` or `note`.
    pub severity: String,
    /// The harness whose engine checked it (a format slug).
    pub harness: String,
    /// The rules involved, the one the finding is about first.
    pub rules: Vec<LintRule>,
    /// The demonstrating call's tool, as the widget's call fields take it.
    pub tool: String,
    /// Its input.
    pub input: String,
    /// The call as the harness sees it (`Bash: git push`, `bash: yarn test`).
    pub native: String,
    /// The harness's verdict on it (`allow`, `ask`, `deny`, `unavailable`).
    pub verdict: String,
    /// `Facts::other` as a verdict slug.
    pub other: Option<String>,
    /// `Facts::write`.
    pub write: Vec<String>,
    /// `Facts::part`.
    pub part: Option<String>,
    /// `Facts::negated`.
    pub negated: bool,
    /// `Facts::count`.
    pub count: usize,
    /// `Facts::from` as a format slug.
    pub from: Option<String>,
    /// `Facts::sandbox` as a slug (`off`, `on`, `on-auto-allow`).
    #[serde(default)]
    pub sandbox: Option<String>,
    /// `Facts::agent`: the OpenCode agent whose rules it is about (the imported table holds the
    /// top-level rules only, so its call is not loaded).
    pub agent: Option<String>,
}

/// A rule a finding names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintRule {
    /// 1-based line in the pasted text.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The rule as the harness writes it.
    pub text: String,
    /// Its action (`allow`, `ask`, `deny`).
    pub action: String,
}

/// Lints a pasted config as the import read it (`format`: a format slug): the findings as
/// protocol values, or the harness's own error for the file.
///
/// ```
/// use permlab_widget::protocol::lint;
/// let found = lint("opencode", r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#).unwrap();
/// assert_eq!((found[0].kind.as_str(), found[0].input.as_str(), found[0].verdict.as_str()), ("dead-rule", "rm", "allow"));
/// ```
pub fn lint(format: &str, text: &str) -> Result<Vec<LintFinding>, String> {
    use permlab_core::import::Format;
    let format =
        Format::from_slug(format).ok_or_else(|| format!("unknown config format {format:?}"))?;
    let found = permlab_core::lint::lint_text(format, text).map_err(|e| e.to_string())?;
    Ok(found
        .iter()
        .map(|f| LintFinding {
            kind: f.kind.slug().into(),
            severity: f.severity.as_str().into(),
            harness: f.harness.slug().into(),
            rules: f
                .rules
                .iter()
                .map(|r| LintRule {
                    line: r.place.line,
                    column: r.place.column,
                    text: r.text.clone(),
                    action: r.action.as_str().into(),
                })
                .collect(),
            tool: f.call.call.tool.clone(),
            input: f.call.call.input.clone(),
            native: f.call.native.clone(),
            verdict: f.call.verdict.as_str().into(),
            other: f.facts.other.map(|d| d.as_str().into()),
            write: f.facts.write.clone(),
            part: f.facts.part.clone(),
            negated: f.facts.negated,
            count: f.facts.count,
            from: f.facts.from.map(|h| h.slug().into()),
            sandbox: f.facts.sandbox.map(|x| x.slug().into()),
            agent: f.facts.agent.clone(),
        })
        .collect())
}

/// The worker's answer to the requests it answers at once (an import, a lesson); `None` for a
/// self-check (which fetches files, see the worker).
pub fn answer(request: &Request) -> Option<Reply> {
    match request {
        Request::SelfCheck { .. } => None,
        Request::Import { format, text } => Some(Reply::Import {
            result: crate::model::import_config(format, text).map(|i| rows_of(&i)),
        }),
        Request::Lesson { text } => Some(Reply::Lesson {
            result: crate::model::read_lesson_configs(text),
        }),
        Request::Lint { format, text } => Some(Reply::Lint {
            result: lint(format, text),
        }),
    }
}

/// An import as protocol rows.
pub fn rows_of(i: &permlab_core::import::Imported) -> ImportedRows {
    ImportedRows {
        format: i.format.slug().to_string(),
        rules_in: i.rules_in,
        rows: i
            .table
            .rules()
            .iter()
            .map(|r| Row {
                tool: r.tool.clone(),
                pattern: r.pattern.clone(),
                action: r.action.as_str().to_string(),
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
                note: note_slug(&w.note),
            })
            .collect(),
    }
}
