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
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reply {
    /// The worker's handler exists: send the request now.
    Ready,
    /// One fixture file's result: its sections, or why it could not run.
    Check {
        /// The harness's name as the panel shows it.
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
}

/// The worker's answer to the requests it answers at once (an import, a lesson); `None` for a
/// self-check (which fetches files, see the worker).
pub fn answer(request: &Request) -> Option<Reply> {
    match request {
        Request::SelfCheck { .. } => None,
        Request::Import { format, text } => Some(Reply::Import {
            result: crate::app::import_config(format, text).map(|i| rows_of(&i)),
        }),
        Request::Lesson { text } => Some(Reply::Lesson {
            result: crate::app::read_lesson_configs(text),
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
        warnings: i
            .warnings
            .iter()
            .map(|w| Warning {
                at: w.at.clone(),
                rule: w.rule.clone(),
                message: w.message.clone(),
                dropped: w.dropped,
            })
            .collect(),
    }
}
