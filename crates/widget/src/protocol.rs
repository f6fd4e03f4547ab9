//! The worker protocol: what the page asks the on-demand worker (`src/bin/selfcheck.rs`, the
//! wasm with the conformance runners and Codex's Starlark interpreter) and what it answers.
//!
//! Both directions are typed: a [`Request`] and a stream of [`Reply`]s cross `postMessage` as
//! plain JavaScript objects through `serde-wasm-bindgen` (no JSON is written by hand). The
//! worker posts [`Reply::Ready`] once its handler exists, the page then posts one request, the
//! worker answers and ends with [`Reply::Done`].
//!
//! What the worker does with each request is [`crate::worker`].
//!
//! The enums are externally tagged (`"ready"`, `{"import": {…}}`): an internally tagged enum
//! (`tag = "kind"`) makes serde read every message into its generic `Content` buffer first, and
//! that code cost the page's wasm 12 KB brotli (3 %) for nothing the page needs.
//!
//! Every choice, action, verdict, kind and error crosses as a typed value (the core's own enums
//! where they exist); the wire carries them as the core's slugs (see [`Slug`]), written and read
//! by the core's own `slug`/`as_str`, never by a second list here. An error is a
//! [`WorkerError`]: data the page words in its language ([`crate::text::i18n::Lang::worker_error`]),
//! never the core's English parsed back.

use permlab_core::codex::LoadErrorKind;
use permlab_core::import::{Format, ImportNote};
use permlab_core::lint::{Kind, Sandboxing, Severity};
use permlab_core::{Action, Decision};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::FormatChoice;

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
#[serde(rename_all = "kebab-case")]
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
        /// The import panel's format choice.
        #[serde(with = "slug")]
        format: FormatChoice,
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
        /// The format the import read it as.
        #[serde(with = "slug")]
        format: Format,
        /// The pasted text.
        text: String,
    },
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reply {
    /// The worker's handler exists: send the request now.
    Ready,
    /// One self-check line's result ([`FIXTURES`]): its files' sections, or why they could
    /// not run.
    Check {
        /// The line's [`Fixture::key`].
        name: String,
        /// Sections (name, passed, total) or the error.
        result: Result<Vec<Section>, WorkerError>,
    },
    /// The pasted config as rows, or why it cannot be read.
    Import {
        /// The rows and what the import said about them.
        result: Result<ImportedRows, WorkerError>,
    },
    /// The lesson with its `.rules` configs turned into `rules` rows, or the error.
    Lesson {
        /// The lesson's text (lesson format).
        result: Result<String, WorkerError>,
    },
    /// The pasted config's findings, or why it cannot be linted.
    Lint {
        /// The findings, in file order, and the proofs skipped as too costly.
        result: Result<Linted, WorkerError>,
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
    /// Whose config it was.
    #[serde(with = "slug")]
    pub format: Format,
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
    /// Its action.
    #[serde(with = "slug")]
    pub action: Action,
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
    /// What `message` says, as data; absent for a note only the English says.
    #[serde(default)]
    pub note: Option<CodexNote>,
}

/// A `.rules` import's note as the protocol carries it (the worker reads only Codex files for
/// the page, so only Codex's notes cross; any other is `None` and its English `message` says
/// it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CodexNote {
    /// `ImportNote::CodexCanonical`.
    Canonical,
    /// `ImportNote::CodexTooManyAlternatives`.
    TooManyAlternatives {
        /// The most rows one rule may become.
        max: usize,
    },
    /// `ImportNote::CodexLiteralWildcard`.
    LiteralWildcard,
}

impl CodexNote {
    /// The note as the protocol carries it, `None` for a note that is not Codex's.
    pub fn of(n: &ImportNote) -> Option<CodexNote> {
        match n {
            ImportNote::CodexCanonical => Some(CodexNote::Canonical),
            ImportNote::CodexTooManyAlternatives(max) => {
                Some(CodexNote::TooManyAlternatives { max: *max })
            }
            ImportNote::CodexLiteralWildcard => Some(CodexNote::LiteralWildcard),
            _ => None,
        }
    }

    /// The core's note (`ImportNote::Other` for none).
    pub fn note(note: Option<CodexNote>) -> ImportNote {
        match note {
            Some(CodexNote::Canonical) => ImportNote::CodexCanonical,
            Some(CodexNote::TooManyAlternatives { max }) => {
                ImportNote::CodexTooManyAlternatives(max)
            }
            Some(CodexNote::LiteralWildcard) => ImportNote::CodexLiteralWildcard,
            None => ImportNote::Other,
        }
    }
}

/// One lint finding, as structured as the core's `permlab_core::lint::Finding`: the page
/// words it in its own language from these fields (its `message`/`fix` are English).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintFinding {
    /// What kind of trap it is.
    #[serde(with = "slug")]
    pub kind: Kind,
    /// How much it matters.
    #[serde(with = "slug")]
    pub severity: Severity,
    /// The harness whose engine checked it.
    #[serde(with = "slug")]
    pub harness: Format,
    /// The rules involved, the one the finding is about first.
    pub rules: Vec<LintRule>,
    /// The demonstrating call's tool, as the widget's call fields take it.
    pub tool: String,
    /// Its input.
    pub input: String,
    /// The call as the harness sees it (`Bash: git push`, `bash: yarn test`).
    pub native: String,
    /// The harness's verdict on it.
    #[serde(with = "slug")]
    pub verdict: Decision,
    /// `Facts::other`.
    #[serde(with = "slug::option", default)]
    pub other: Option<Decision>,
    /// `Facts::write`.
    pub write: Vec<String>,
    /// `Facts::part`.
    pub part: Option<String>,
    /// `Facts::negated`.
    pub negated: bool,
    /// `Facts::count`.
    pub count: usize,
    /// `Facts::from`.
    #[serde(with = "slug::option", default)]
    pub from: Option<Format>,
    /// `Facts::sandbox`.
    #[serde(with = "slug::option", default)]
    pub sandbox: Option<Sandboxing>,
    /// `Facts::agent`: the OpenCode agent whose rules it is about (the imported table holds the
    /// top-level rules only, so its call is not loaded).
    pub agent: Option<String>,
}

/// What the linter said about a pasted config: its findings and the proofs it did not make.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Linted {
    /// The findings, in file order.
    pub findings: Vec<LintFinding>,
    /// Proofs skipped because they would cost too much (`permlab_core::lint::NotChecked`):
    /// findings about rules with these patterns may be missing, and the panel says so.
    #[serde(default)]
    pub not_checked: Vec<LintSkipped>,
}

/// A pattern the linter did not prove things about (`permlab_core::lint::NotChecked`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintSkipped {
    /// 1-based line of its first occurrence in the pasted text.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The pattern as the harness reads it.
    pub pattern: String,
    /// Why it was skipped.
    pub why: TooComplex,
}

/// Why a proof was skipped (`permlab_core::lint::glob::TooComplex`, which has no serde).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TooComplex {
    /// The pattern itself is too long or has too many stars.
    Pattern,
    /// The file's proofs together used up the linter's budget.
    File,
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
    /// Its action.
    #[serde(with = "slug")]
    pub action: Action,
}

impl ImportedRows {
    /// The page's side of an import the worker read: the rows as the core's import.
    pub fn imported(self) -> permlab_core::import::Imported {
        permlab_core::import::Imported {
            format: self.format,
            table: permlab_core::RuleTable::new(
                self.rows
                    .iter()
                    .map(|r| (r.tool.as_str(), r.pattern.as_str(), r.action)),
            ),
            origins: self.origins,
            warnings: self
                .warnings
                .into_iter()
                .map(|w| permlab_core::import::ImportWarning {
                    note: CodexNote::note(w.note),
                    at: w.at,
                    rule: w.rule,
                    message: w.message,
                    dropped: w.dropped,
                })
                .collect(),
            rules_in: self.rules_in,
            claude_settings: None,
            canonical: self.canonical,
        }
    }
}

/// Why the worker could not answer a request, as data: the page words it in its language
/// ([`crate::text::i18n::Lang::worker_error`]); nothing here is the core's English to be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkerError {
    /// A Codex `.rules` file that does not load (`permlab_core::codex::LoadError`).
    Codex {
        /// 1-based line of the offending construct.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What happened (a budget and its number, a value too large…).
        #[serde(with = "load_kind")]
        kind: LoadErrorKind,
        /// The interpreter's own message (English), shown as it is when `kind` says no more.
        message: String,
    },
    /// Nothing was pasted.
    Empty,
    /// A lesson's preset whose config cannot be read (`presets[preset].config`).
    Lesson {
        /// The preset's index in the lesson.
        preset: usize,
        /// Why.
        error: Box<WorkerError>,
    },
    /// A text the core could not read, in the core's English, shown as it is: a JSON config
    /// or lesson (the page reads JSON itself and words its errors from data, so only a worker
    /// asked directly answers this), or a conformance fixture.
    Read(String),
    /// A fixture file the self-check could not fetch.
    Http {
        /// The HTTP status.
        status: u16,
        /// The file's URL.
        url: String,
    },
    /// The worker failed, or a message was not one of this protocol's: the browser's text (a
    /// JavaScript exception such as a stack overflow's `RangeError`, a serde-wasm-bindgen
    /// error). The page words it in its own language and logs this text to the console only:
    /// it is the browser's English, not the course's.
    Crashed(String),
}

impl WorkerError {
    /// A Codex load error as the protocol carries it.
    pub fn codex(e: &permlab_core::codex::LoadError) -> WorkerError {
        WorkerError::Codex {
            line: e.line(),
            column: e.column(),
            kind: e.kind(),
            message: e.message().to_string(),
        }
    }

    /// Why `text`, read as `format`, failed with the core's `e`. A Codex file's error is the
    /// interpreter's [`permlab_core::codex::LoadError`], as data: the core's import keeps only
    /// its text, so the file is loaded again for it (only after a failure, and only in a build
    /// with the interpreter: the worker's).
    pub fn of_config(format: Format, text: &str, e: &permlab_core::Error) -> WorkerError {
        if format == Format::Codex && permlab_core::import::RULES_FILES {
            if let Err(load) = permlab_core::codex::Policy::parse("rules", text) {
                return WorkerError::codex(&load);
            }
        }
        WorkerError::Read(e.to_string())
    }
}

/// A core enum as the protocol carries it: by the core's own name for each value (`slug`,
/// `as_str`), so the names live in one place (the core) and the protocol only lists which
/// values there are.
pub trait Slug: Copy + 'static {
    /// Every value.
    fn all() -> &'static [Self];
    /// The value's name (the core's).
    fn slug(self) -> &'static str;
    /// The value named `slug`.
    fn of_slug(slug: &str) -> Option<Self> {
        Self::all().iter().copied().find(|v| v.slug() == slug)
    }
}

impl Slug for Action {
    fn all() -> &'static [Self] {
        &Action::ALL
    }
    fn slug(self) -> &'static str {
        self.as_str()
    }
}

impl Slug for Decision {
    fn all() -> &'static [Self] {
        &[
            Decision::Allow,
            Decision::Ask,
            Decision::Deny,
            Decision::Unavailable,
        ]
    }
    fn slug(self) -> &'static str {
        self.as_str()
    }
}

impl Slug for Format {
    fn all() -> &'static [Self] {
        &Format::ALL
    }
    fn slug(self) -> &'static str {
        Format::slug(self)
    }
}

impl Slug for FormatChoice {
    fn all() -> &'static [Self] {
        &FormatChoice::ALL
    }
    fn slug(self) -> &'static str {
        FormatChoice::slug(self)
    }
}

impl Slug for Kind {
    fn all() -> &'static [Self] {
        &Kind::ALL
    }
    fn slug(self) -> &'static str {
        Kind::slug(self)
    }
}

impl Slug for Severity {
    fn all() -> &'static [Self] {
        &[Severity::Warning, Severity::Note]
    }
    fn slug(self) -> &'static str {
        self.as_str()
    }
}

impl Slug for Sandboxing {
    fn all() -> &'static [Self] {
        &[Sandboxing::Off, Sandboxing::On, Sandboxing::OnAutoAllow]
    }
    fn slug(self) -> &'static str {
        Sandboxing::slug(self)
    }
}

/// `#[serde(with = "slug")]`: a [`Slug`] value as its name.
pub mod slug {
    use super::*;
    use serde::de::Error;

    /// Writes the value's name.
    pub fn serialize<T: Slug, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.slug())
    }

    /// Reads a name back; an unknown name is an error.
    pub fn deserialize<'de, T: Slug, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name = String::deserialize(d)?;
        T::of_slug(&name).ok_or_else(|| D::Error::custom(format!("unknown value {name:?}")))
    }

    /// `#[serde(with = "slug::option", default)]`: an optional [`Slug`] value.
    pub mod option {
        use super::*;

        /// Writes the value's name, or nothing.
        pub fn serialize<T: Slug, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
            v.map(T::slug).serialize(s)
        }

        /// Reads an optional name back.
        pub fn deserialize<'de, T: Slug, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<T>, D::Error> {
            match Option::<String>::deserialize(d)? {
                None => Ok(None),
                Some(name) => T::of_slug(&name)
                    .map(Some)
                    .ok_or_else(|| D::Error::custom(format!("unknown value {name:?}"))),
            }
        }
    }
}

/// `#[serde(with = "load_kind")]`: the core's [`LoadErrorKind`] (the core has no serde).
mod load_kind {
    use super::*;

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Wire {
        StepBudget { steps: u64 },
        MemoryBudget { bytes: u64 },
        TooLarge { size: u64, max: u64 },
        Validation,
        Starlark,
    }

    pub fn serialize<S: Serializer>(k: &LoadErrorKind, s: S) -> Result<S::Ok, S::Error> {
        match *k {
            LoadErrorKind::StepBudget { steps } => Wire::StepBudget { steps },
            LoadErrorKind::MemoryBudget { bytes } => Wire::MemoryBudget { bytes },
            LoadErrorKind::TooLarge { size, max } => Wire::TooLarge { size, max },
            LoadErrorKind::Validation => Wire::Validation,
            // `Starlark`, and a kind newer than this widget: the message says what.
            _ => Wire::Starlark,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<LoadErrorKind, D::Error> {
        Ok(match Wire::deserialize(d)? {
            Wire::StepBudget { steps } => LoadErrorKind::StepBudget { steps },
            Wire::MemoryBudget { bytes } => LoadErrorKind::MemoryBudget { bytes },
            Wire::TooLarge { size, max } => LoadErrorKind::TooLarge { size, max },
            Wire::Validation => LoadErrorKind::Validation,
            Wire::Starlark => LoadErrorKind::Starlark,
        })
    }
}
