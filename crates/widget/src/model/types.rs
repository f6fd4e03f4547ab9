//! The small types the model shares with the page and the worker: the host's configuration,
//! where the table comes from, the row controls that hold the focus, the import panel's
//! format and errors. A leaf: it depends on nothing else in the model.

use permlab_core::import::Format;
use permlab_core::RuleId;

use crate::presets::Preset;
use crate::text::i18n::Lang;

/// Inputs at least this long (UTF-16 units, as a text field counts them) are handed to the
/// model only when typing pauses ([`TYPING_PAUSE`]): the engines judge the whole input on
/// every change (a 400 KB call once cost 2.4 s a keystroke). Shorter ones go at every key.
pub const LONG_INPUT: usize = 20_000;

/// How long typing in a long input must pause before the engines judge it.
pub const TYPING_PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// How long the call field waits before handing an input of `len` UTF-16 units to the model
/// (`None`: at once).
///
/// ```
/// use permlab_widget::model::{typing_pause, LONG_INPUT, TYPING_PAUSE};
/// assert_eq!(typing_pause(LONG_INPUT - 1), None);
/// assert_eq!(typing_pause(400_000), Some(TYPING_PAUSE));
/// ```
pub fn typing_pause(len: usize) -> Option<std::time::Duration> {
    (len >= LONG_INPUT).then_some(TYPING_PAUSE)
}

/// How one widget instance is configured by its host element.
#[derive(Clone, Debug)]
pub struct Config {
    /// Page language.
    pub lang: Lang,
    /// Namespace of the widget's stored state and of its element ids (the host element's id).
    pub ns: String,
    /// Where the conformance fixtures are served (a URL prefix).
    pub fixtures: String,
    /// URL of the self-check worker's loader (a separate wasm, fetched on demand).
    pub selfcheck: String,
    /// A lesson table given by the host page (fixtures format), shown as the custom preset.
    pub lesson: Option<String>,
    /// The host's `data-lesson` selector, when it has one (so a selector that finds nothing is
    /// reported, not ignored).
    pub lesson_from: Option<String>,
}

impl Config {
    /// Whether the page has the worker: `data-selfcheck="none"` (an offline file made without
    /// it) means no self-check, no Codex `.rules` reader and no lint of pasted configs.
    pub fn has_worker(&self) -> bool {
        self.selfcheck != "none"
    }
}

/// Where the table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A built-in rule set, or the table pasted into the editor ([`Preset::Custom`]).
    Builtin(Preset),
    /// The host lesson's preset at this index.
    Lesson(usize),
    /// A harness's config pasted into the import panel.
    Import,
}

/// What the import panel read from a pasted config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportSummary {
    /// Whose config it was.
    pub format: Format,
    /// Rules that became rows.
    pub imported: usize,
    /// Rules that could not (listed in `warnings` with the reason).
    pub dropped: usize,
    /// Every warning, as the core words it.
    pub warnings: Vec<String>,
}

/// One engine's self-check result: sections (name, passed, total) or why it could not run.
pub type CheckResult = (String, Result<Vec<(String, usize, usize)>, String>);

/// Why a pasted config is not the table: data, worded by the view in the page's language.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// Nothing was pasted.
    Empty,
    /// A Codex `.rules` file, on a page without the worker that reads them.
    NeedsWorker,
    /// The core could not read the text.
    Read(permlab_core::Error),
    /// The worker's answer.
    Worker(crate::protocol::WorkerError),
    /// The worker ran out of its time budget and was stopped.
    Timeout {
        /// The budget.
        seconds: u32,
    },
}

/// A row's controls that can hold the focus: the grip, ↑ and ↓.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The drag handle ⠿ (the keyboard lifts and carries the row with it).
    Grip,
    /// The ↑ button.
    Up,
    /// The ↓ button.
    Down,
}

impl Control {
    /// In Tab order along a row.
    pub const ALL: [Control; 3] = [Control::Grip, Control::Up, Control::Down];

    /// The control's class in the page.
    pub fn class(self) -> &'static str {
        match self {
            Control::Grip => "pl-grip",
            Control::Up => "pl-up",
            Control::Down => "pl-down",
        }
    }
}

/// A control of one rule's row: where the focus goes after a render (a moved row is
/// re-inserted by the keyed list, and an inserted node loses the focus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Focus {
    /// The rule whose row it is.
    pub rule: RuleId,
    /// Which of its controls.
    pub control: Control,
}

/// A key pressed on a grip, as the model reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GripKey {
    /// Space or Enter: lift the row, or drop the lifted row.
    Toggle,
    /// ↑: carry the lifted row up (with Alt: move the row up at once).
    Up,
    /// ↓: carry it down (with Alt: move it down at once).
    Down,
    /// Escape: put the lifted row back.
    Cancel,
}

impl GripKey {
    /// The DOM's `KeyboardEvent.key` (older browsers' names too), `None` for any other key.
    ///
    /// ```
    /// use permlab_widget::model::GripKey;
    /// assert_eq!(GripKey::from_dom("Spacebar"), Some(GripKey::Toggle));
    /// assert_eq!(GripKey::from_dom("ArrowDown"), Some(GripKey::Down));
    /// assert_eq!(GripKey::from_dom("a"), None);
    /// ```
    pub fn from_dom(key: &str) -> Option<GripKey> {
        Some(match key {
            " " | "Enter" | "Spacebar" => GripKey::Toggle,
            "ArrowUp" | "Up" => GripKey::Up,
            "ArrowDown" | "Down" => GripKey::Down,
            "Escape" | "Esc" => GripKey::Cancel,
            _ => return None,
        })
    }
}
