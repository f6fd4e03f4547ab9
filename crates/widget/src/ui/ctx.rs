//! What every component of the table widget shares: the [`Ctx`] handles (the model, a trigger
//! per part, the row signals, the root), the model read through a region's subscriptions, and
//! the frame and timer helpers that check the widget is still mounted.

use std::collections::HashMap;
use std::time::Duration;

use leptos::html;
use leptos::prelude::*;
use permlab_core::{EngineId, RuleId};

use crate::model::{Focus, Part, Region, Widget};
use crate::protocol::Request;
use crate::text::i18n::Lang;

/// Rows added to the DOM per frame: a 10 000-row table appears in slices and the page keeps
/// answering.
pub const CHUNK: usize = 400;

/// What one table row shows besides its rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowView {
    /// 0-based position.
    pub pos: usize,
    /// The last row (its ↓ is disabled).
    pub last: bool,
    /// Engines whose stepper cursor is on this row.
    pub cursor: Vec<EngineId>,
    /// Revealed engines decided by this row.
    pub decisive: Vec<EngineId>,
    /// The row is being carried (keyboard lift or pointer drag).
    pub lifted: bool,
    /// A drop indicator on this row: `Some(true)` below it, `Some(false)` above it.
    pub drop: Option<bool>,
}

/// What the rows showed at the last [`sync_rows`]: the diff's base.
#[derive(Default)]
pub(crate) struct Shown {
    pub(crate) load_rev: u32,
    pub(crate) order: Vec<RuleId>,
    /// Rows with a mark (cursor, decisive, lift, drop) and that mark.
    pub(crate) marked: Vec<(usize, RowView)>,
}

/// One widget instance's handles (all `Copy`).
#[derive(Clone, Copy)]
pub struct Ctx {
    /// The model (not reactive itself: its parts' triggers are, see [`Ctx::read`]).
    pub w: StoredValue<Widget, LocalStorage>,
    /// One trigger per [`Part`] ([`Part::index`]), notified when an action changed it.
    pub(crate) parts: [Trigger; Part::ALL.len()],
    /// The widget's language.
    pub lang: Lang,
    /// The live region's text.
    pub(crate) announce: RwSignal<String>,
    /// Row signals by (load number, rule id), for the rows in the DOM.
    pub(crate) rows: StoredValue<HashMap<(u32, RuleId), RwSignal<RowView>>, LocalStorage>,
    pub(crate) shown: StoredValue<Shown, LocalStorage>,
    /// How many rows of a small table are in the DOM (they come in slices).
    pub(crate) limit: RwSignal<usize>,
    /// A windowed table's first rendered row (see [`crate::rows_window`]).
    pub(crate) first: RwSignal<usize>,
    /// A windowed table's row height in pixels, measured on the rendered rows (the spacers'
    /// unit).
    pub(crate) row_h: RwSignal<f64>,
    /// The rule whose row holds the focus (kept in the DOM when the window moves away).
    pub(crate) focused: RwSignal<Option<RuleId>>,
    /// The widget's root element.
    pub(crate) root: NodeRef<html::Section>,
    /// The worker of a running self-check or import.
    pub(crate) workers: StoredValue<Vec<web_sys::Worker>, LocalStorage>,
    /// The worker requests still running (a newer one of the same kind stops the older).
    pub(crate) jobs: StoredValue<Vec<Job>, LocalStorage>,
    /// The control a move is about to focus again (`grip-8`), until the next frame.
    pub(crate) refocusing: StoredValue<Option<Focus>, LocalStorage>,
}

impl Ctx {
    /// Reads the widget inside a memo or a view of `region`, subscribing to the parts it
    /// reads ([`Region::reads`]): the reader re-runs when an action changes one of them, and
    /// only then.
    pub(crate) fn read<T>(self, region: Region, f: impl FnOnce(&Widget) -> T) -> T {
        for p in region.reads() {
            self.parts[p.index()].track();
        }
        MEMO_RUNS.with(|n| n.set(n.get() + 1));
        self.w.with_value(f)
    }

    /// Reads the widget without subscribing (in an event handler, an effect).
    pub(crate) fn peek<T>(self, f: impl FnOnce(&Widget) -> T) -> T {
        self.w.with_value(f)
    }

    /// Whether the widget is still mounted. `unmount` disposes of its signals at once, while
    /// a frame, a timer or a worker's answer it asked for may still come: reading a disposed
    /// signal traps the whole wasm instance (every widget of the page), so each of those checks
    /// this first (see [`next_frame`], [`after_delay`]).
    pub(crate) fn alive(self) -> bool {
        !self.w.is_disposed()
    }
}

thread_local! {
    /// How many times a region read the model ([`Ctx::read`]) on this page: the benchmark's
    /// count of region re-runs per action (see [`region_reads`]).
    static MEMO_RUNS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// How many region reads ([`Ctx::read`]) every widget of the page has done so far.
pub fn region_reads() -> u32 {
    MEMO_RUNS.with(std::cell::Cell::get)
}

/// Runs `f` on the next animation frame if the widget is still mounted then.
pub(crate) fn next_frame(ctx: Ctx, f: impl FnOnce() + 'static) {
    request_animation_frame(move || {
        if ctx.alive() {
            f();
        }
    });
}

/// Runs `f` after `delay` if the widget is still mounted then.
pub(crate) fn after_delay(ctx: Ctx, f: impl FnOnce() + 'static, delay: Duration) {
    set_timeout(
        move || {
            if ctx.alive() {
                f();
            }
        },
        delay,
    );
}

/// Engines as the page's `data-*` attributes write them: slugs, space-separated (`None`: no
/// attribute).
pub fn slugs(engines: &[EngineId]) -> Option<String> {
    (!engines.is_empty()).then(|| {
        engines
            .iter()
            .map(|e| e.slug())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The cursor's glyph: a different shape per engine (colour is never the only cue).
pub fn cursor_glyph(e: EngineId) -> &'static str {
    match e {
        EngineId::FirstMatch => "▼",
        EngineId::OpenCode => "▲",
        EngineId::ClaudeCode => "◆",
        EngineId::Codex => "■",
        EngineId::CoreCoder => "●",
    }
}

/// A request running in its own worker, until it answers, fails, runs out of time or is
/// superseded (see [`JobKind::supersedes`], and `ui::worker`).
pub(crate) struct Job {
    /// Which kind of request it is.
    pub(crate) kind: JobKind,
    /// Its worker, terminated when the job ends without an answer.
    pub(crate) worker: web_sys::Worker,
    /// Set once the job has ended: a late answer, error or timer then does nothing.
    pub(crate) settled: std::rc::Rc<std::cell::Cell<bool>>,
}

/// What a [`Job`] runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum JobKind {
    Import,
    Lesson,
    Lint,
    SelfCheck,
}

impl JobKind {
    /// The kind of `request`.
    pub(crate) fn of(request: &Request) -> JobKind {
        match request {
            Request::Import { .. } => JobKind::Import,
            Request::Lesson { .. } => JobKind::Lesson,
            Request::Lint { .. } => JobKind::Lint,
            Request::SelfCheck { .. } => JobKind::SelfCheck,
        }
    }

    /// Whether a new request of this kind makes a running job of kind `old` pointless: a
    /// newer request of the same kind (a newer paste, a newer lesson), or an import, which
    /// replaces the paste the running lint was about. The old worker is terminated, so its CPU
    /// is freed at once (three pastes of a big file once left both cores busy after the last
    /// import had finished).
    pub(crate) fn supersedes(self, old: JobKind) -> bool {
        self == old || (self == JobKind::Import && old == JobKind::Lint)
    }
}
