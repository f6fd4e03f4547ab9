//! What a learner (or the page, for the worker and the clipboard) tells a widget ([`Msg`]),
//! and what the widget answers ([`Outcome`]): the parts it changed and what the page must do
//! outside the model ([`Effect`]: the live region, the focus, the worker, the host's events).

use permlab_core::{EngineId, RuleId};

use super::record::{Answered, Score};
use super::tracked::Parts;
use super::{Drag, Focus, FormatChoice, GripKey, Source};
use crate::protocol::{ImportedRows, Linted, Reply, Request, WorkerError};
use crate::state::Guess;

/// What a learner did, as the widget understands it.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A rule-set button.
    Source(Source),
    /// One of the lesson's calls, by index (the select or a matrix row).
    PickCall(usize),
    /// The tool field was edited.
    EditTool(String),
    /// The input field was edited.
    EditInput(String),
    /// Undo the last reorder.
    Undo,
    /// Back to the lesson's order.
    Reset,
    /// 整表倒序.
    Reverse,
    /// Show or hide Codex.
    Codex(bool),
    /// Move a rule one step with the visible ↑/↓ buttons (`true` = down).
    Step(RuleId, bool),
    /// A key on a grip: `(rule, key, alt)` (the view reads the DOM's key names).
    GripKey(RuleId, GripKey, bool),
    /// Drag the rule (from a committed pointer drag) from one position to another.
    Drop(usize, usize),
    /// Open or close the stepper.
    ToggleStepper,
    /// Go to stepper position k (clamped).
    GoStep(usize),
    /// First / previous / next / last (-2, -1, +1, +2).
    StepBy(i8),
    /// A guess for an engine.
    Guess(EngineId, Guess),
    /// Reveal an engine's verdict.
    Reveal(EngineId),
    /// Clear guesses and reveals.
    TryAgain,
    /// Open (or close) the explanation of a formula term.
    Term(usize),
    /// The translations panel opened or closed.
    Translations(bool),
    /// The quiz's folded matrix opened or closed.
    Matrix(bool),
    /// The table editor opened or closed.
    Editor(bool),
    /// The table editor's text changed.
    EditTable(String),
    /// Apply the table editor's text.
    Apply,
    /// The import panel's format choice.
    ImportFormat(FormatChoice),
    /// The import panel's text changed.
    ImportText(String),
    /// Import the pasted config.
    Import,
    /// The worker's answer to a `.rules` import (see [`crate::worker::answer`]).
    ImportReply(Result<ImportedRows, WorkerError>),
    /// The worker's answer for a lesson with Codex `.rules` configs: the lesson with rows.
    LessonReply(Result<String, WorkerError>),
    /// The page stopped the worker after `seconds` without an answer to `request` (an
    /// import's, a lesson's or a lint's; a request no longer waited for is ignored).
    WorkerTimeout {
        /// Which request.
        request: Request,
        /// The time budget it went over.
        seconds: u32,
    },
    /// The worker's lint findings for the imported config (see [`crate::worker::lint`]),
    /// with the request they answer (an answer to an older paste is dropped).
    LintReply(Request, Result<Linted, WorkerError>),
    /// "Show more": the next page of lint findings ([`crate::model::FINDINGS_PAGE`] more).
    MoreFindings,
    /// "Copy as JSON" finished: `Err(text)` when the clipboard refused (the text to copy by
    /// hand).
    Copied(Result<(), String>),
    /// A pointer went down on a grip.
    DragStart(Drag),
    /// The dragged row would land at this position (0-based).
    DragOver(usize),
    /// The pointer went up (`true`) or was cancelled (`false`).
    DragEnd(bool),
    /// Start the self-check (nothing when one runs).
    SelfCheck,
    /// One answer of the self-check's worker, or why it stopped.
    CheckReply(Result<Reply, WorkerError>),
    /// Load lint finding `i`'s demonstrating call into the call fields and open the stepper
    /// on it.
    FindingCall(usize),
}

/// What the page does outside the model after an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// The live region says this (empty: it says nothing any more).
    Announce(String),
    /// This row control gets the focus once the rows are in place.
    Focus(Focus),
    /// Send this to the worker; its answer comes back as a [`Msg`].
    Ask(Request),
    /// A reorder's verdicts were measured (`pl-reorder`): the page measures the frame that
    /// shows them.
    Reordered,
    /// A guess was made for an engine that is not revealed (the host hears `permlab:guess`).
    Guessed(EngineId, Guess),
    /// An engine's verdict was revealed, answering its question for this call once more
    /// (`permlab:reveal`, `permlab:answer`).
    Revealed(EngineId, Answered),
    /// Every question of a quiz has been answered, for the first time in this record
    /// (`permlab:complete`).
    Completed(Score),
    /// The widget is ready: its lesson read (or why not), nothing waiting for the worker to
    /// show it (`permlab:ready`).
    Ready,
    /// A line was added to the reorder log (`permlab:reorder`).
    Logged,
    /// Start the self-check's worker; its answers come back as [`Msg::CheckReply`].
    SelfCheck,
    /// The learner stepped: the rows the cursors are on come into view (on a phone the table
    /// is taller than the screen).
    ShowCursors,
}

/// What one action did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// `false`: the key was not for the widget (the browser keeps its default).
    pub handled: bool,
    /// The parts of the widget that changed (the regions reading them re-run).
    pub changed: Parts,
    /// What the page does outside the model, in order.
    pub effects: Vec<Effect>,
}

impl Outcome {
    /// The live region's new text, if the action gave one.
    pub fn announced(&self) -> Option<&str> {
        self.effects.iter().rev().find_map(|e| match e {
            Effect::Announce(t) => Some(t.as_str()),
            _ => None,
        })
    }

    /// The row control to focus, if the action asks for one.
    pub fn focus(&self) -> Option<Focus> {
        self.effects.iter().rev().find_map(|e| match e {
            Effect::Focus(f) => Some(*f),
            _ => None,
        })
    }

    /// The worker requests the action made.
    pub fn asked(&self) -> impl Iterator<Item = &Request> {
        self.effects.iter().filter_map(|e| match e {
            Effect::Ask(r) => Some(r),
            _ => None,
        })
    }
}
