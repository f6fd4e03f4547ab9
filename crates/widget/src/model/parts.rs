//! The parts of a widget's state, each a small type of its own (the [`super::Widget`] holds one
//! of each). Their fields are public to read: the page gets them only through `&`, and every
//! change goes through [`super::Widget::act`].

use std::rc::Rc;

use permlab_core::lesson::{Lesson, Preset as Native};
use permlab_core::{Call, RuleId};

use super::{CheckResult, ImportError, ImportSummary, Source};
use crate::persist::Snapshot;
use crate::protocol::{LintFinding, LintSkipped, Request};
use crate::text::lesson_error::LessonError;

/// Where the table comes from: the host's lesson, the rule set shown and its calls.
#[derive(Clone, Debug)]
pub struct Course {
    /// The rule set shown.
    pub source: Source,
    /// The host's lesson (`data-lesson` in the lesson format), if any.
    pub lesson: Option<Rc<Lesson>>,
    /// Why the host's lesson could not be used (shown above the widget, in its language).
    pub lesson_error: Option<LessonError>,
    /// The current preset as the core's lesson preset, when it carries more than a table (a
    /// lesson preset, an imported config): its engines read the harness's own config.
    pub native: Option<Rc<Native>>,
    /// The preset's calls (the matrix rows).
    pub calls: Vec<Call>,
    /// The custom table's text (fixtures format).
    pub custom: String,
    /// How many tables were loaded (not reordered): the rows' key, so a reorder of the same
    /// rows is patched into the page row by row and a new table replaces them.
    pub loads: u32,
}

/// The call fields as typed: the call itself changes only when they are valid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields {
    /// The tool field.
    pub tool: String,
    /// The input field.
    pub input: String,
    /// The fields have been set once (from the first table's call, a restore or a draft):
    /// until then, loading a table keeps no draft of them.
    pub started: bool,
    /// The fields as typed in presets the learner left: (preset slug, tool, input).
    pub drafts: Vec<(String, String, String)>,
}

/// A keyboard lift (Space on a grip): the row at `from` is carried to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lift {
    /// The lifted rule.
    pub id: RuleId,
    /// Where it was lifted (0-based).
    pub from: usize,
    /// Where it would land (0-based).
    pub to: usize,
}

/// A pointer drag on a grip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The dragged rule.
    pub id: RuleId,
    /// Where it started (0-based).
    pub from: usize,
    /// Where it would land (0-based).
    pub to: usize,
    /// The pointer that drags.
    pub pointer: i32,
    /// Where the pointer went down (viewport y).
    pub y0: f64,
    /// Whether it moved far enough to be a drag rather than a click.
    pub moved: bool,
}

/// A row being carried, by keyboard or pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Carry {
    /// A keyboard lift in progress.
    pub lift: Option<Lift>,
    /// A pointer drag in progress.
    pub drag: Option<Drag>,
}

impl Carry {
    /// The row being carried and where it would land.
    ///
    /// ```
    /// use permlab_widget::model::{Carry, Lift};
    /// use permlab_core::RuleId;
    /// let c = Carry { lift: Some(Lift { id: RuleId(3), from: 2, to: 5 }), drag: None };
    /// assert_eq!(c.target(), Some((2, 5)));
    /// assert_eq!(Carry::default().target(), None);
    /// ```
    pub fn target(&self) -> Option<(usize, usize)> {
        if let Some(l) = self.lift {
            return Some((l.from, l.to));
        }
        self.drag.filter(|d| d.moved).map(|d| (d.from, d.to))
    }
}

/// Which panels are open, and what the toolbar last reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Panels {
    /// The engines the lesson does not name are shown ("show other harnesses").
    pub others: bool,
    /// The stepper is open.
    pub stepping: bool,
    /// The formula term whose explanation is open.
    pub term: Option<usize>,
    /// The translations panel is open (computed only then).
    pub translations: bool,
    /// The lab matrix is unfolded (a quiz folds it).
    pub matrix: bool,
    /// Result of "copy as JSON": `Err(text)` shows the text to copy by hand.
    pub copied: Option<Result<(), String>>,
}

/// The table editor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Editor {
    /// Its text.
    pub text: String,
    /// Why the text was not applied.
    pub error: Option<permlab_core::Error>,
}

/// The import panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The pasted text.
    pub text: String,
    /// The format chosen.
    pub format: super::FormatChoice,
    /// Why the pasted config could not be read.
    pub error: Option<ImportError>,
    /// What the last import read.
    pub summary: Option<ImportSummary>,
    /// The pending import request only re-reads a failed import's text after a reload, for
    /// its message: a success then changes nothing (the learner never applied it).
    pub recheck: bool,
}

/// The imported config's lint findings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lint {
    /// The findings, or why there are none to show.
    pub findings: Option<Result<Vec<LintFinding>, String>>,
    /// Patterns whose proofs the linter skipped as too costly (findings about them may be
    /// missing).
    pub not_checked: Vec<LintSkipped>,
    /// How many findings the panel renders: the first page, then one more page per "show
    /// more" (a 20 000-rule paste once rendered every finding in one 2.4 s task).
    pub shown: usize,
}

impl Lint {
    /// The findings the panel renders now (the first [`Lint::shown`]) and how many there are
    /// in all.
    pub fn page(&self) -> Option<(&[LintFinding], usize)> {
        match &self.findings {
            Some(Ok(f)) => Some((&f[..self.shown.min(f.len())], f.len())),
            _ => None,
        }
    }
}

/// What waits for the worker (it has the Starlark interpreter and the linter the page leaves
/// out): each request was sent as an [`super::Effect::Ask`]; an answer that is not the one
/// waited for is dropped.
#[derive(Clone, Debug, Default)]
pub struct Waiting {
    /// A Codex `.rules` import.
    pub import: Option<Request>,
    /// A lesson with Codex `.rules` configs.
    pub lesson: Option<Request>,
    /// The imported config's lint.
    pub lint: Option<Request>,
    /// Where the learner was (the stored state), kept until the worker's table arrives.
    pub state: Option<Snapshot>,
}

/// The self-check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfCheck {
    /// Results so far.
    pub checks: Vec<CheckResult>,
    /// It is running.
    pub running: bool,
}

/// What the learner should know about the state restored at the start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    /// An ignored stored item, a link too long to read… (see [`crate::persist::store`]).
    pub notes: Vec<crate::persist::store::Note>,
    /// The state came from an old-format URL hash (the first write removes those entries).
    pub from_hash: bool,
}

/// What the learner has achieved: the lesson's tasks ticked, and every answer (the record a
/// course's gradebook hears about). Kept across a reload with the rest of the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Each lesson task's tick: a task once done stays ticked.
    pub tasks: Vec<bool>,
    /// The answers so far.
    pub record: super::record::Record,
}
