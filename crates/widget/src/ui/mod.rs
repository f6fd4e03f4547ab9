//! The table widget as Leptos (CSR) components, one per region of the page.
//!
//! The state is the plain-Rust [`Widget`] (as Leptos' todomvc keeps its `Todos` plain): it
//! lives in one local signal ([`Ctx::w`]) and changes only through [`Widget::act`] (see
//! [`act`]). What each region shows is a [`Memo`] over it (a small view model with
//! `PartialEq`), so a region whose inputs did not change does not re-run. Typed event handlers
//! turn clicks and keys into [`Msg`]s.
//!
//! Rows are a keyed `<For>` (key: the table's load number and the rule id). What a row shows
//! besides its rule (position, cursors, decisive mark, lift and drop marks) is a signal of its
//! own ([`RowView`]); after every action [`sync_rows`] sets only the rows whose view changed
//! (a `Selector`-style update: moving a cursor touches two rows, not the table). Big tables are
//! rendered [`CHUNK`] rows per frame.
//!
//! Effects only touch the outside world: the URL hash, the live region, focus, the clipboard,
//! the worker.

use std::collections::HashMap;
use std::time::Duration;

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use permlab_core::analysis::Disagreement;
use permlab_core::claude_code::eval::{Blocker, Decider};
use permlab_core::{claude_code, codex, Action, Decision, EngineId, Reason, RuleId};
use wasm_bindgen::JsCast;

use crate::api::Event;
use crate::app::{Control, Drag, Focus, GripKey, Msg, Widget};
use crate::i18n::{one_line, Lang, S};
use crate::presets;
use crate::protocol::{Reply, Request};
use crate::rows_window;
use crate::state::{Change, Guess};
use crate::web;

mod call;
mod drift;
mod findings;
mod guess;
mod import;
mod lesson_error;
mod panels;
mod state_note;
mod stepper;
mod table;
// New regions of issue 12 (tasks, marker legend, "more" menu, focus helpers).
mod focus;
mod legend;
mod more;
mod roving;
mod tasks;
use self::call::*;
use self::drift::*;
use self::findings::*;
use self::guess::*;
use self::import::*;
use self::legend::*;
use self::lesson_error::*;
use self::more::*;
use self::panels::*;
use self::state_note::*;
use self::stepper::*;
use self::table::*;
use self::tasks::*;

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
    /// Engines whose stepper cursor is on this row (slugs, space-separated).
    pub cursor: Option<String>,
    /// Revealed engines decided by this row (slugs, space-separated).
    pub decisive: Option<String>,
    /// The row is being carried (keyboard lift or pointer drag).
    pub lifted: bool,
    /// A drop indicator on this row: `Some(true)` below it, `Some(false)` above it.
    pub drop: Option<bool>,
}

/// What the rows showed at the last [`sync_rows`]: the diff's base.
#[derive(Default)]
struct Shown {
    load_rev: u32,
    order: Vec<RuleId>,
    /// Rows with a mark (cursor, decisive, lift, drop) and that mark.
    marked: Vec<(usize, RowView)>,
}

/// One widget instance's handles (all `Copy`).
#[derive(Clone, Copy)]
pub struct Ctx {
    /// The model.
    pub w: RwSignal<Widget, LocalStorage>,
    /// The widget's language.
    pub lang: Lang,
    /// The live region's text.
    announce: RwSignal<String>,
    /// Row signals by (load number, rule id), for the rows in the DOM.
    rows: StoredValue<HashMap<(u32, RuleId), RwSignal<RowView>>, LocalStorage>,
    shown: StoredValue<Shown, LocalStorage>,
    /// How many rows of a small table are in the DOM (they come in slices).
    limit: RwSignal<usize>,
    /// A windowed table's first rendered row (see [`crate::rows_window`]).
    first: RwSignal<usize>,
    /// A windowed table's row height in pixels, measured on the rendered rows (the spacers'
    /// unit).
    row_h: RwSignal<f64>,
    /// The rule whose row holds the focus (kept in the DOM when the window moves away).
    focused: RwSignal<Option<RuleId>>,
    /// The widget's root element.
    root: NodeRef<html::Section>,
    /// The request the worker is reading (so it is sent once).
    asked: StoredValue<Option<Request>, LocalStorage>,
    /// The (call, engine) pairs revealed so far in a quiz, and whether `permlab:complete` was
    /// sent.
    done: StoredValue<(std::collections::HashSet<(usize, EngineId)>, bool), LocalStorage>,
    /// The worker of a running self-check or import.
    workers: StoredValue<Vec<web_sys::Worker>, LocalStorage>,
    /// The control a move is about to focus again (`grip-8`), until the next frame.
    refocusing: StoredValue<Option<Focus>, LocalStorage>,
}

impl Ctx {
    /// Whether the widget is still mounted. `unmount` disposes of its signals at once, while
    /// a frame, a timer or a worker's answer it asked for may still come: reading a disposed
    /// signal traps the whole wasm instance (every widget of the page), so each of those checks
    /// this first (see [`next_frame`], [`after_delay`]).
    pub(crate) fn alive(self) -> bool {
        !self.w.is_disposed()
    }
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

/// The marks per row the widget's state asks for (only rows with a mark).
fn marks(w: &Widget) -> Vec<(usize, RowView)> {
    let mut out: Vec<(usize, RowView)> = Vec::new();
    let n = w.table().len();
    let slot = |out: &mut Vec<(usize, RowView)>, i: usize| -> usize {
        match out.iter().position(|(r, _)| *r == i) {
            Some(k) => k,
            None => {
                out.push((
                    i,
                    RowView {
                        pos: i,
                        last: i + 1 == n,
                        ..RowView::default()
                    },
                ));
                out.len() - 1
            }
        }
    };
    let join = |s: &mut Option<String>, slug: &str| match s {
        Some(v) => {
            v.push(' ');
            v.push_str(slug);
        }
        None => *s = Some(slug.to_string()),
    };
    for (i, e) in w.cursors() {
        let k = slot(&mut out, i);
        join(&mut out[k].1.cursor, e.slug());
    }
    for (i, e) in w.decisive() {
        let k = slot(&mut out, i);
        join(&mut out[k].1.decisive, e.slug());
    }
    if let Some((from, to)) = w.target() {
        let k = slot(&mut out, from);
        out[k].1.lifted = true;
        if to != from {
            let k = slot(&mut out, to);
            out[k].1.drop = Some(to > from);
        }
    }
    out.sort_by_key(|m| m.0);
    out
}

/// The view of row `i` (marks from `marked`).
fn row_view(marked: &[(usize, RowView)], i: usize, n: usize) -> RowView {
    marked
        .iter()
        .find(|(r, _)| *r == i)
        .map(|(_, v)| v.clone())
        .unwrap_or(RowView {
            pos: i,
            last: i + 1 == n,
            ..RowView::default()
        })
}

/// Sets the row signals whose view changed since the last call: rows whose rule moved, and
/// rows whose marks came or went. Nothing else in the table runs.
fn sync_rows(ctx: Ctx) {
    let (load_rev, order, marked) = ctx.w.with_untracked(|w| {
        (
            w.load_rev,
            w.table().rules().iter().map(|r| r.id).collect::<Vec<_>>(),
            marks(w),
        )
    });
    let n = order.len();
    let touch: Vec<usize> = ctx.shown.with_value(|before| {
        let mut touch: Vec<usize> = Vec::new();
        if before.load_rev == load_rev && before.order.len() == n {
            touch.extend((0..n).filter(|&i| before.order[i] != order[i]));
        }
        touch.extend(before.marked.iter().map(|m| m.0));
        touch.extend(marked.iter().map(|m| m.0));
        touch.sort_unstable();
        touch.dedup();
        touch
    });
    let changed: Vec<(RwSignal<RowView>, RowView)> = ctx.rows.with_value(|rows| {
        touch
            .into_iter()
            .filter_map(|i| {
                let sig = *rows.get(&(load_rev, *order.get(i)?))?;
                let v = row_view(&marked, i, n);
                sig.with_untracked(|old| *old != v).then_some((sig, v))
            })
            .collect()
    });
    ctx.shown.set_value(Shown {
        load_rev,
        order,
        marked,
    });
    for (sig, v) in changed {
        sig.set(v);
    }
}

/// Applies one learner action, then does what the action asks of the outside world (live
/// region, focus, the worker, the reorder benchmark's frame mark). Returns what
/// [`Widget::act`] returns (`false`: the key was not for the widget).
pub fn act(ctx: Ctx, msg: Msg) -> bool {
    if !ctx.alive() {
        // An answer (worker, clipboard, timer) that arrives after `unmount`.
        return false;
    }
    let probe = match &msg {
        Msg::Guess(e, _) | Msg::Reveal(e) => Some(*e),
        _ => None,
    };
    let (log0, was_revealed) = ctx.w.with_untracked(|w| {
        (
            w.lab.log().len(),
            probe.is_some_and(|e| w.lab.is_revealed(e)),
        )
    });
    let kind = msg.clone();
    let mut handled = true;
    ctx.w.update(|w| handled = w.act(msg));
    after(ctx);
    let events = ctx
        .w
        .with_untracked(|w| events_of(ctx, w, &kind, log0, was_revealed));
    if let Some(host) = ctx.root.get_untracked().and_then(|r| r.parent_element()) {
        for e in events {
            e.dispatch(&host);
        }
    }
    handled
}

fn guess_slug(g: Guess) -> &'static str {
    match g {
        Guess::Skip => "skip",
        Guess::Verdict(d) => d.as_str(),
    }
}

/// What the host page hears about an action (see [`crate::api::Event`]).
fn events_of(ctx: Ctx, w: &Widget, msg: &Msg, log0: usize, was_revealed: bool) -> Vec<Event> {
    let mut out = Vec::new();
    match msg {
        Msg::Guess(e, g) if !was_revealed && w.lab.guess(*e) == Some(*g) => {
            out.push(Event::Guess {
                engine: e.slug(),
                guess: guess_slug(*g),
            })
        }
        Msg::Reveal(e) if !was_revealed && w.lab.is_revealed(*e) => {
            let verdict = w.eval(*e).map(|v| v.decision).unwrap_or(Decision::Ask);
            let guess = w.lab.guess(*e);
            out.push(Event::Reveal {
                engine: e.slug(),
                guess: guess.map_or("skip", guess_slug),
                verdict: verdict.as_str(),
                correct: guess == Some(Guess::Verdict(verdict)),
            });
            if w.quiz() {
                let call = w.calls.iter().position(|c| c == w.lab.call());
                let shown = w.shown();
                let complete = ctx.done.try_update_value(|done| {
                    if let Some(i) = call {
                        done.0.insert((i, *e));
                    }
                    let all =
                        (0..w.calls.len()).all(|i| shown.iter().all(|e| done.0.contains(&(i, *e))));
                    let first = all && !done.1;
                    done.1 |= all;
                    first
                });
                if complete == Some(true) {
                    out.push(Event::Complete {
                        calls: w.calls.len(),
                        engines: shown.len(),
                    });
                }
            }
        }
        _ => {}
    }
    if w.lab.log().len() > log0 {
        if let Some(entry) = w.lab.log().last() {
            let (change, from, to) = match entry.change {
                Change::Move { from, to, .. } => ("move", Some(from), Some(to)),
                Change::Reverse => ("reverse", None, None),
                Change::Undo => ("undo", None, None),
                Change::Reset => ("reset", None, None),
            };
            out.push(Event::Reorder {
                change,
                from,
                to,
                flipped: entry.flipped.iter().map(|f| f.engine.slug()).collect(),
            });
        }
    }
    out
}

/// Changes the model without waking the regions (a lift's target, a drag's position: only the
/// row marks change), then syncs the rows and the live region.
fn touch(ctx: Ctx, f: impl FnOnce(&mut Widget)) {
    ctx.w.update_untracked(f);
    after(ctx);
}

fn after(ctx: Ctx) {
    let (announce, focus, marked, load_rev, import, lesson) = ctx
        .w
        .try_update_untracked(|w| {
            (
                w.announce.clone(),
                w.focus.take(),
                std::mem::take(&mut w.reorder_marked),
                w.load_rev,
                w.worker_import.clone(),
                w.worker_lesson.clone(),
            )
        })
        .unwrap_or_default();
    let reloaded = ctx.shown.with_value(|s| s.load_rev != load_rev);
    sync_rows(ctx);
    if reloaded {
        ctx.limit.set(CHUNK);
        ctx.first.set(0);
    }
    // The row being carried (its drop target) or just moved comes into view (a windowed
    // table first moves its window there).
    let keep = ctx.w.with_untracked(|w| {
        w.target()
            .map(|(_, to)| to)
            .or_else(|| w.position(focus?.rule))
    });
    if let Some(pos) = keep {
        show_position(ctx, pos);
    }
    if ctx.announce.with_untracked(|a| *a != announce) {
        ctx.announce.set(announce);
    }
    if let Some(f) = focus {
        refocus(ctx, f);
    }
    if marked {
        // The verdicts are in: measure up to the frame that shows them.
        request_animation_frame(|| web::mark_end("pl-reorder-frame"));
    }
    for request in [import, lesson].into_iter().flatten() {
        if ctx.asked.with_value(|a| a.as_ref() == Some(&request)) {
            continue;
        }
        ctx.asked.set_value(Some(request.clone()));
        ask_worker(ctx, request);
    }
}

/// Focuses the moved row's control (its grip, ↑ or ↓) once the keyed list has put
/// the row in place: moving a row re-inserts it, and an inserted node loses focus. On the next
/// frame, where the page is laid out anyway: focusing right after the move (in a microtask)
/// laid it out once more, 8 ms a move on 200 rows. A key pressed before that frame — a second
/// Alt+↓ — finds the focus on `<body>`; [`route_key`] gives it to the control being refocused.
fn refocus(ctx: Ctx, f: Focus) {
    ctx.refocusing.set_value(Some(f));
    next_frame(ctx, move || {
        ctx.refocusing.set_value(None);
        focus_control(ctx, f);
    });
}

/// A key that reached the page while a moved row's control was losing and getting back the
/// focus (see [`refocus`]): it is that control's key (grip keys; Enter/Space on ↑/↓).
fn route_key(ctx: Ctx, e: &ev::KeyboardEvent) {
    let Some(Focus { rule: id, control }) = ctx.refocusing.get_value() else {
        return;
    };
    let on_body = document()
        .active_element()
        .is_none_or(|a| a.tag_name() == "BODY");
    if !on_body || e.default_prevented() {
        return;
    }
    let handled = match control {
        Control::Grip => {
            GripKey::from_dom(&e.key()).is_some_and(|k| act(ctx, Msg::GripKey(id, k, e.alt_key())))
        }
        Control::Up | Control::Down if matches!(e.key().as_str(), "Enter" | " ") => {
            act(ctx, Msg::Step(id, control == Control::Down))
        }
        _ => false,
    };
    if handled {
        e.prevent_default();
    }
}

fn focus_control(ctx: Ctx, f: Focus) {
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let sel = format!("tr[data-rule-id=\"{}\"] .{}", f.rule.0, f.control.class());
    if let Some(el) = root
        .query_selector(&sel)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let active = el.owner_document().and_then(|d| d.active_element());
        if active.as_ref() != Some(el.as_ref()) {
            // Without scrolling: `show_position` scrolls the row into view, the least that
            // shows it, in the same frame.
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = el.focus_with_options(&opts);
        }
    }
}

/// Sends `request` to the worker (it has the Starlark interpreter the page leaves out) and
/// hands its answer to the widget: an import's or a lesson's.
fn ask_worker(ctx: Ctx, request: Request) {
    let script = web::absolute_url(&ctx.w.with_untracked(|w| w.config.selfcheck.clone()));
    let import = matches!(request, Request::Import { .. });
    // Whichever comes first, the answer or the time budget, ends the request.
    let settled = std::rc::Rc::new(std::cell::Cell::new(false));
    let done = settled.clone();
    let answer = move |reply: Result<Reply, String>| {
        if done.get() || !ctx.alive() {
            return;
        }
        let msg = match reply {
            Ok(Reply::Import { result }) => Msg::ImportReply(result),
            Ok(Reply::Lesson { result }) => Msg::LessonReply(result),
            Ok(_) => return,
            Err(e) if import => Msg::ImportReply(Err(crate::protocol::WorkerError::Crashed(e))),
            Err(e) => Msg::LessonReply(Err(crate::protocol::WorkerError::Crashed(e))),
        };
        done.set(true);
        ctx.asked.set_value(None);
        act(ctx, msg);
    };
    let answer = std::rc::Rc::new(answer);
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => {
            ctx.workers.update_value(|v| v.push(wk.clone()));
            // The page's time budget: a worker that has not answered by then is stopped (a
            // new one starts with the next request) and the widget says so.
            let seconds = worker_seconds(ctx);
            after_delay(
                ctx,
                move || {
                    if settled.replace(true) {
                        return;
                    }
                    wk.terminate();
                    ctx.asked.set_value(None);
                    act(ctx, Msg::WorkerTimeout { import, seconds });
                },
                Duration::from_secs(u64::from(seconds)),
            );
        }
        Err(e) => answer(Err(e)),
    }
}

/// The worker's time budget: the host's `data-worker-seconds`, else
/// [`crate::error_text::WORKER_SECONDS`].
fn worker_seconds(ctx: Ctx) -> u32 {
    ctx.root
        .get_untracked()
        .and_then(|r| r.parent_element())
        .and_then(|h| h.get_attribute("data-worker-seconds"))
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(crate::error_text::WORKER_SECONDS)
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

/// The widget's root: every region in page order.
///
/// `widget` is the model, built from the host's configuration and the URL hash.
#[component]
pub fn App(widget: Widget) -> impl IntoView {
    let lang = widget.lang;
    let ns = widget.config.ns.clone();
    let ctx = Ctx {
        w: RwSignal::new_local(widget),
        lang,
        announce: RwSignal::new(String::new()),
        rows: StoredValue::new_local(HashMap::new()),
        shown: StoredValue::new_local(Shown::default()),
        limit: RwSignal::new(CHUNK),
        first: RwSignal::new(0),
        row_h: RwSignal::new(40.0),
        focused: RwSignal::new(None),
        root: NodeRef::new(),
        asked: StoredValue::new_local(None),
        done: StoredValue::new_local(Default::default()),
        workers: StoredValue::new_local(Vec::new()),
        refocusing: StoredValue::new_local(None),
    };
    sync_rows(ctx);

    // The state is kept in sessionStorage once the learner changes something (see
    // `crate::store`); the URL is the host's.
    let refused = RwSignal::new(false);
    keep_state(ctx, ns, refused);

    // A big table is rendered CHUNK rows per frame, so the page keeps answering.
    let n_rows = Memo::new(move |_| ctx.w.with(|w| w.table().len()));
    Effect::new(move |_| {
        let n = n_rows.get();
        if ctx.limit.get() < n {
            next_frame(ctx, move || {
                ctx.limit.update(|l| *l += CHUNK);
                // New rows take their marks from the last sync.
            });
        }
    });

    // Pointer drags are followed on the window: the pointer leaves the grip at once.
    let move_h = window_event_listener(ev::pointermove, move |e| pointer_move(ctx, &e));
    let up_h = window_event_listener(ev::pointerup, move |e| pointer_up(ctx, &e, true));
    let cancel_h = window_event_listener(ev::pointercancel, move |e| pointer_up(ctx, &e, false));
    let key_h = window_event_listener(ev::keydown, move |e| route_key(ctx, &e));
    on_cleanup(move || {
        move_h.remove();
        up_h.remove();
        cancel_h.remove();
        key_h.remove();
        ctx.workers
            .update_value(|v| v.drain(..).for_each(|w| w.terminate()));
    });

    // Work the pending worker requests of the initial state (a lesson with `.rules`).
    next_frame(ctx, move || after(ctx));

    let on_key = move |e: ev::KeyboardEvent| {
        let undo =
            (e.ctrl_key() || e.meta_key()) && !e.alt_key() && e.key().eq_ignore_ascii_case("z");
        // Ctrl/Cmd+Z anywhere in the widget except in a text field (where it edits the text).
        if undo && !web::in_text_field(&e) && act(ctx, Msg::Undo) {
            e.prevent_default();
        }
    };
    let on_touchmove = move |e: ev::TouchEvent| {
        // Once a touch drag is live, the page must not scroll under it.
        if ctx.w.with_untracked(|w| w.drag.is_some_and(|d| d.active)) {
            e.prevent_default();
        }
    };
    view! {
        <section class="pl-widget" lang=lang.tag() node_ref=ctx.root on:keydown=on_key on:touchmove=on_touchmove>
            <Head ctx/>
            <StateNotes ctx refused/>
            <fieldset class="pl-call pl-controls">
                <legend>{lang.s(S::Call)}</legend>
                <CallFields ctx/>
                <CallMessages ctx/>
            </fieldset>
            <CallNow ctx/>
            <Toolbar ctx/>
            <p class="pl-announce" role="status" aria-live="polite" aria-atomic="true">
                {move || ctx.announce.get()}
            </p>
            <div class="pl-main">
                <div class="pl-table-wrap"><RuleTable ctx/><Legend ctx/></div>
                <div class="pl-side">
                    <Tasks ctx/>
                    <Stepper ctx/>
                    <Guesses ctx/>
                </div>
            </div>
            <ReorderLog ctx/>
            <DisagreementBox ctx/>
            <More ctx>
                <Formula ctx/>
                <Matrix ctx/>
                <Translations ctx/>
                <SelfCheck ctx/>
                <TableEditor ctx/>
                <ImportPanel ctx/>
            </More>
        </section>
    }
}

/// The heading, the lesson's state (read by the worker, or why it cannot be used) and the
/// rule-set buttons.
#[component]
fn Head(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let title = Memo::new(move |_| ctx.w.with(Widget::title));
    let pending = Memo::new(move |_| ctx.w.with(|w| w.worker_lesson.is_some()));
    let sources = Memo::new(move |_| ctx.w.with(Widget::sources));
    view! {
        <h2 class="pl-title">{move || title.get()}</h2>
        <Show when=move || pending.get()>
            <p class="pl-lesson-pending" role="status">{lang.s(S::LessonReading)}</p>
        </Show>
        <LessonProblems ctx/>
        <div class="pl-presets pl-controls" role="group" aria-label=lang.s(S::Preset)>
            <span class="pl-label">{lang.s(S::Preset)}</span>
            {move || sources.get().into_iter().map(|(slug, label, on)| {
                let s = slug.clone();
                view! {
                    <button type="button" class="pl-preset" data-preset=slug aria-pressed=on.to_string()
                        on:click=move |_| {
                            if let Some(src) = ctx.w.with_untracked(|w| w.source_of(&s)) {
                                act(ctx, Msg::Source(src));
                            }
                        }>{label}</button>
                }
            }).collect_view()}
        </div>
    }
}

/// A mounted table widget: the Leptos view and the placeholder's own content (kept aside, put
/// back by [`unmount`]).
pub struct Mounted {
    host: web_sys::HtmlElement,
    original: web_sys::DocumentFragment,
    view: Option<Box<dyn std::any::Any>>,
}

/// Mounts the table widget into `host`: its own content moves aside (and comes back on
/// [`unmount`]).
pub fn mount(host: web_sys::HtmlElement, config: crate::app::Config) -> Mounted {
    let original = document().create_document_fragment();
    while let Some(child) = host.first_child() {
        let _ = original.append_child(&child);
    }
    let stored = web::session_get(&crate::store::key(&web::page_path(), &config.ns));
    let widget = Widget::with_stored(config, &web::location_hash(), stored.as_deref());
    let view = leptos::mount::mount_to(host.clone(), move || view! { <App widget/> });
    Mounted {
        host,
        original,
        view: Some(Box::new(view)),
    }
}

/// Removes the widget (its effects, listeners and workers end with it) and puts the
/// placeholder's content back.
pub fn unmount(m: &mut Mounted) {
    if m.view.take().is_some() {
        let _ = m.host.append_child(&m.original);
    }
}

impl Drop for Mounted {
    /// A handle the page script drops (or the garbage collector frees) leaves the widget on
    /// the page: only [`unmount`] removes it.
    fn drop(&mut self) {
        if let Some(view) = self.view.take() {
            std::mem::forget(view);
        }
    }
}
