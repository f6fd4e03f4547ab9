//! Which parts of the widget each region of the page reads: the page's subscriptions, stated
//! once. A region's memo reads the widget through its [`Region`] only (see `ui::Ctx::read`),
//! so it re-runs when an action changes one of [`Region::reads`] and at no other time; the
//! native tests below hold the list to what a learner's action should wake.

use super::tracked::Part::{self, *};
use super::tracked::Parts;

/// A region of the page (one memo or a few that show one thing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// The heading and the rule-set buttons.
    Head,
    /// "Reading the lesson…" while the worker reads it.
    LessonPending,
    /// Why the host's lesson cannot be used.
    LessonProblems,
    /// The lesson's call select (which call is current).
    CallSelect,
    /// The call fields and why the tool cannot be used.
    CallFields,
    /// What an engine could not take from the input.
    CallNotes,
    /// The call being judged.
    CallNow,
    /// Where the call runs.
    CallPlace,
    /// Undo / reset availability, "show other harnesses".
    Toolbar,
    /// The engines "show other harnesses" would add.
    Others,
    /// The result of "copy as JSON".
    Copied,
    /// The rows' order (the keyed list).
    Rows,
    /// How many rows there are (rendered in slices).
    RowCount,
    /// The row kept in the DOM while it is carried.
    Carried,
    /// The marker legend (cursors, decisive marks).
    Legend,
    /// The lesson's tasks.
    Tasks,
    /// The tasks' ticks.
    TaskProgress,
    /// The stepper.
    Stepper,
    /// The guess panels' heading and question.
    Question,
    /// Which engines have a guess panel.
    Engines,
    /// One engine's guess panel.
    EnginePanel,
    /// Claude Code's docs-vs-CLI difference for the call.
    Drift,
    /// The reorder log.
    ReorderLog,
    /// The disagreement box (OpenCode's last match against Claude Code's strongest).
    Disagreement,
    /// The formula's open term.
    Formula,
    /// The quiz's folded matrix: open or not, quiz or not.
    MatrixPanel,
    /// The matrix's rows.
    Matrix,
    /// The translations panel.
    Translations,
    /// The self-check.
    SelfCheck,
    /// The table editor.
    Editor,
    /// The import panel's text.
    ImportText,
    /// The import panel's message.
    ImportResult,
    /// The lint findings.
    Findings,
    /// The stored state (written on a change: the outside world, not a view).
    Stored,
    /// Notes on the stored state.
    StateNotes,
}

/// What [`super::Widget::shown`] reads: the lesson's engines, "show other harnesses", the
/// imported config's harness.
const SHOWN: &[Part] = &[Course, Panels, Import];

/// [`SHOWN`] and the verdicts, reveals and stepper that go with each shown engine.
const SHOWN_AND_VERDICTS: &[Part] = &[Course, Panels, Import, Lab, Verdicts];

impl Region {
    /// Every region.
    pub const ALL: [Region; 35] = [
        Region::Head,
        Region::LessonPending,
        Region::LessonProblems,
        Region::CallSelect,
        Region::CallFields,
        Region::CallNotes,
        Region::CallNow,
        Region::CallPlace,
        Region::Toolbar,
        Region::Others,
        Region::Copied,
        Region::Rows,
        Region::RowCount,
        Region::Carried,
        Region::Legend,
        Region::Tasks,
        Region::TaskProgress,
        Region::Stepper,
        Region::Question,
        Region::Engines,
        Region::EnginePanel,
        Region::Drift,
        Region::ReorderLog,
        Region::Disagreement,
        Region::Formula,
        Region::MatrixPanel,
        Region::Matrix,
        Region::Translations,
        Region::SelfCheck,
        Region::Editor,
        Region::ImportText,
        Region::ImportResult,
        Region::Findings,
        Region::Stored,
        Region::StateNotes,
    ];

    /// The parts the region reads.
    pub fn reads(self) -> &'static [Part] {
        match self {
            Region::Head | Region::LessonProblems | Region::Question | Region::CallPlace => {
                &[Course]
            }
            Region::LessonPending => &[Waiting],
            Region::CallSelect => &[Course, Lab],
            Region::CallFields => &[Fields],
            Region::CallNotes => &[Verdicts, Lab],
            Region::CallNow => &[Lab],
            Region::Toolbar => &[Order, Panels],
            Region::Others => &[Course, Import],
            Region::Copied | Region::Formula => &[Panels],
            Region::Rows => &[Course, Order],
            Region::RowCount => &[Order],
            Region::Carried => &[Carry],
            Region::TaskProgress => &[Progress],
            Region::Legend | Region::Stepper | Region::Disagreement | Region::Matrix => {
                SHOWN_AND_VERDICTS
            }
            Region::Tasks => &[Course],
            Region::Engines => SHOWN,
            Region::EnginePanel => &[Course, Lab, Verdicts],
            Region::Drift => &[Course, Lab],
            Region::ReorderLog => &[Order],
            Region::MatrixPanel => &[Course, Panels],
            Region::Translations => &[Panels, Order],
            Region::SelfCheck => &[SelfCheck],
            Region::Editor => &[Editor],
            Region::ImportText => &[Import],
            Region::ImportResult => &[Waiting, Import],
            Region::Findings => &[Course, Waiting, Lint],
            Region::Stored => &[Course, Lab, Fields, Panels, Editor, Import, Progress],
            Region::StateNotes => &[Kept, Course, Fields, Editor, Import],
        }
    }

    /// Whether an action that changed `parts` re-runs this region.
    pub fn wakes(self, parts: Parts) -> bool {
        self.reads().iter().any(|p| parts.has(*p))
    }

    /// The regions an action that changed `parts` re-runs.
    pub fn woken(parts: Parts) -> Vec<Region> {
        Region::ALL.into_iter().filter(|r| r.wakes(parts)).collect()
    }
}
