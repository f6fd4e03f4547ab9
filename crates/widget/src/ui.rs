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
use crate::app::{Drag, Msg, Widget};
use crate::i18n::{one_line, Lang, S};
use crate::presets;
use crate::protocol::{Reply, Request};
use crate::state::{Change, Guess};
use crate::web;

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
    /// How many rows are in the DOM.
    limit: RwSignal<usize>,
    /// The widget's root element.
    root: NodeRef<html::Section>,
    /// The request the worker is reading (so it is sent once).
    asked: StoredValue<Option<Request>, LocalStorage>,
    /// The (call, engine) pairs revealed so far in a quiz, and whether `permlab:complete` was
    /// sent.
    done: StoredValue<(std::collections::HashSet<(usize, EngineId)>, bool), LocalStorage>,
    /// The worker of a running self-check or import.
    workers: StoredValue<Vec<web_sys::Worker>, LocalStorage>,
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
    }
    if ctx.announce.with_untracked(|a| *a != announce) {
        ctx.announce.set(announce);
    }
    if let Some(key) = focus {
        refocus(ctx, key);
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

/// Focuses the moved row's control (`grip-8`, `up-8`, `down-8`) once the keyed list has put
/// the row in place: moving a row re-inserts it, and an inserted node loses focus.
fn refocus(ctx: Ctx, key: String) {
    request_animation_frame(move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        let Some((what, id)) = key.split_once('-') else {
            return;
        };
        let sel = format!(
            "tr[data-rule-id=\"{}\"] .pl-{what}",
            id.replace(['"', '\\'], "")
        );
        if let Some(el) = root
            .query_selector(&sel)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// Sends `request` to the worker (it has the Starlark interpreter the page leaves out) and
/// hands its answer to the widget: an import's or a lesson's.
fn ask_worker(ctx: Ctx, request: Request) {
    let script = web::absolute_url(&ctx.w.with_untracked(|w| w.config.selfcheck.clone()));
    let import = matches!(request, Request::Import { .. });
    let answer = move |reply: Result<Reply, String>| {
        let msg = match reply {
            Ok(Reply::Import { result }) => Msg::ImportReply(result),
            Ok(Reply::Lesson { result }) => Msg::LessonReply(result),
            Ok(_) => return,
            Err(e) if import => Msg::ImportReply(Err(e)),
            Err(e) => Msg::LessonReply(Err(e)),
        };
        ctx.asked.set_value(None);
        act(ctx, msg);
    };
    let answer = std::rc::Rc::new(answer);
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => answer(Err(e)),
    }
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
        root: NodeRef::new(),
        asked: StoredValue::new_local(None),
        done: StoredValue::new_local(Default::default()),
        workers: StoredValue::new_local(Vec::new()),
    };
    sync_rows(ctx);

    // The URL hash follows the state (replaceState: no history entry per click).
    let entries = Memo::new(move |_| ctx.w.with(|w| w.snapshot().to_entries()));
    Effect::new(move |_| entries.with(|e| web::write_hash(&ns, e)));

    // A big table is rendered CHUNK rows per frame, so the page keeps answering.
    let n_rows = Memo::new(move |_| ctx.w.with(|w| w.table().len()));
    Effect::new(move |_| {
        let n = n_rows.get();
        if ctx.limit.get() < n {
            request_animation_frame(move || {
                ctx.limit.update(|l| *l += CHUNK);
                // New rows take their marks from the last sync.
            });
        }
    });

    // Pointer drags are followed on the window: the pointer leaves the grip at once.
    let move_h = window_event_listener(ev::pointermove, move |e| pointer_move(ctx, &e));
    let up_h = window_event_listener(ev::pointerup, move |e| pointer_up(ctx, &e, true));
    let cancel_h = window_event_listener(ev::pointercancel, move |e| pointer_up(ctx, &e, false));
    on_cleanup(move || {
        move_h.remove();
        up_h.remove();
        cancel_h.remove();
        ctx.workers
            .update_value(|v| v.drain(..).for_each(|w| w.terminate()));
    });

    // Work the pending worker requests of the initial state (a lesson with `.rules`).
    request_animation_frame(move || after(ctx));

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
                <div class="pl-table-wrap"><RuleTable ctx/></div>
                <div class="pl-side">
                    <Stepper ctx/>
                    <Guesses ctx/>
                </div>
            </div>
            <ReorderLog ctx/>
            <DisagreementBox ctx/>
            <Formula ctx/>
            <Matrix ctx/>
            <Translations ctx/>
            <SelfCheck ctx/>
            <TableEditor ctx/>
            <ImportPanel ctx/>
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
    let problems = Memo::new(move |_| ctx.w.with(|w| w.lesson_problems.clone()));
    let sources = Memo::new(move |_| ctx.w.with(Widget::sources));
    view! {
        <h2 class="pl-title">{move || title.get()}</h2>
        <Show when=move || pending.get()>
            <p class="pl-lesson-pending" role="status">{lang.s(S::LessonReading)}</p>
        </Show>
        <Show when=move || problems.with(|p| !p.is_empty())>
            <div class="pl-lesson-problems" role="alert">
                <p>{lang.s(S::LessonBroken)}</p>
                <ul>{move || problems.get().into_iter().map(|p| view! { <li><code>{p}</code></li> }).collect_view()}</ul>
            </div>
        </Show>
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

/// The call's fields: the lesson's calls, the tool and the input. The fields are rewritten
/// only when the call changes from elsewhere (`call_rev`), so typing never loses the caret.
#[component]
fn CallFields(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let rev = Memo::new(move |_| ctx.w.with(|w| w.call_rev));
    let options = Memo::new(move |_| {
        ctx.w.with(|w| {
            let current = w.calls.iter().position(|c| c == w.lab.call());
            let labels: Vec<String> = w.calls.iter().map(|c| one_line(&c.to_string())).collect();
            (labels, current)
        })
    });
    let invalid = Memo::new(move |_| ctx.w.with(|w| w.tool_problem().is_some()));
    view! {
        <label class="pl-field">
            <span>{lang.s(S::CallPreset)}</span>
            <select class="pl-call-select" on:change=move |e| {
                if let Ok(i) = event_target_value(&e).parse() {
                    act(ctx, Msg::PickCall(i));
                }
            }>
                {move || {
                    let (labels, current) = options.get();
                    let none = current.is_none();
                    let first = view! { <option value="" disabled=true prop:selected=none>"—"</option> };
                    let rest = labels.into_iter().enumerate().map(|(i, l)| view! {
                        <option value=i.to_string() prop:selected=current == Some(i)>{l}</option>
                    }).collect_view();
                    (first, rest)
                }}
            </select>
        </label>
        <label class="pl-field pl-field-tool">
            <span>{lang.s(S::CallTool)}</span>
            <input class="pl-call-tool-input" type="text" spellcheck="false" autocomplete="off"
                aria-invalid=move || invalid.get().to_string()
                prop:value=move || { rev.track(); ctx.w.with_untracked(|w| w.tool_text.clone()) }
                on:input=move |e| { act(ctx, Msg::EditTool(event_target_value(&e))); }/>
        </label>
        <label class="pl-field pl-field-input">
            <span>{lang.s(S::CallInput)}</span>
            <textarea class="pl-call-input-text" rows="1" spellcheck="false"
                prop:value=move || { rev.track(); ctx.w.with_untracked(|w| w.input_text.clone()) }
                on:input=move |e| { act(ctx, Msg::EditInput(event_target_value(&e))); }></textarea>
        </label>
    }
}

/// Why the typed tool cannot be used, and what some engine could not take from the input.
#[component]
fn CallMessages(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let problem = Memo::new(move |_| ctx.w.with(|w| w.tool_problem()));
    let notes = Memo::new(move |_| {
        ctx.w.with(|w| {
            w.evals
                .iter()
                .filter(|e| {
                    matches!(
                        &e.reason,
                        Reason::CodexUnsplittable { .. }
                            | Reason::ClaudeCode(Decider::Mode {
                                why: Blocker::Unparseable(_),
                                ..
                            })
                    )
                })
                .map(|e| {
                    (
                        lang.engine(e.engine),
                        lang.reason(w.table(), e.engine, &e.reason),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <p class="pl-call-error" role="alert" data-invalid=move || problem.get().is_some().to_string()>
            {move || problem.get().unwrap_or("")}
        </p>
        <ul class="pl-call-notes">
            {move || notes.get().into_iter().map(|(e, why)| view! { <li><strong>{e}</strong>": "{why}</li> }).collect_view()}
        </ul>
    }
}

/// The call as the engines read it.
#[component]
fn CallNow(ctx: Ctx) -> impl IntoView {
    let call = Memo::new(move |_| ctx.w.with(|w| w.lab.call().clone()));
    view! {
        <p class="pl-call-now">
            <span class="pl-call-label">{ctx.lang.s(S::Call)}</span>
            <code class="pl-call-tool">{move || call.with(|c| c.tool.clone())}</code>
            <code class="pl-call-input">{move || call.with(|c| c.input.clone())}</code>
        </p>
    }
}

/// Undo, reset, reverse, copy as JSON, show Codex.
#[component]
fn Toolbar(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let state = Memo::new(move |_| {
        ctx.w
            .with(|w| (w.lab.can_undo(), w.lab.is_reordered(), w.codex))
    });
    let copied = Memo::new(move |_| ctx.w.with(|w| w.copied.clone()));
    let copy = move |_| {
        let text = ctx.w.with_untracked(|w| w.table().to_json());
        leptos::task::spawn_local(async move {
            let r = web::copy_text(&text).await;
            ctx.w.update(|w| w.copied = Some(r.map_err(|_| text)));
        });
    };
    view! {
        <div class="pl-toolbar pl-controls">
            <button type="button" class="pl-undo" disabled=move || !state.get().0
                aria-keyshortcuts="Control+Z Meta+Z"
                on:click=move |_| { act(ctx, Msg::Undo); }>"↶ "{lang.s(S::Undo)}</button>
            <button type="button" class="pl-reset" disabled=move || !state.get().1
                on:click=move |_| { act(ctx, Msg::Reset); }>{lang.s(S::Reset)}</button>
            <button type="button" class="pl-reverse"
                on:click=move |_| { act(ctx, Msg::Reverse); }>"⇅ "{lang.s(S::Reverse)}</button>
            <button type="button" class="pl-copy" on:click=copy>{lang.s(S::CopyJson)}</button>
            <label class="pl-checkbox">
                <input type="checkbox" class="pl-codex-toggle" prop:checked=move || state.get().2
                    on:change=move |e| { act(ctx, Msg::Codex(event_target_checked(&e))); }/>
                {lang.s(S::ShowCodex)}
            </label>
        </div>
        {move || copied.get().map(|r| match r {
            Ok(()) => view! { <p class="pl-copied" role="status">{lang.s(S::Copied)}</p> }.into_any(),
            Err(text) => view! {
                <div class="pl-copy-fallback">
                    <label>{lang.s(S::CopyFallback)}
                        <textarea class="pl-copy-text" readonly=true rows="6"
                            on:focus=move |e| {
                                if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                                    t.select();
                                }
                            }
                            prop:value=text></textarea>
                    </label>
                </div>
            }.into_any(),
        })}
    }
}

/// The rule table: a keyed `<For>` of [`RuleRow`]s (key: load number and rule id), the first
/// `limit` rows of the order.
#[component]
fn RuleTable(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let order = Memo::new(move |_| {
        ctx.w.with(|w| {
            (
                w.load_rev,
                w.table().rules().iter().map(|r| r.id).collect::<Vec<_>>(),
            )
        })
    });
    let th = move |class: &'static str, label: &'static str| {
        view! { <th scope="col" class=class><span class="pl-sr">{label}</span></th> }
    };
    view! {
        <table class="pl-table">
            <caption>{lang.s(S::Caption)}</caption>
            <thead>
                <tr>
                    {th("pl-controls pl-col-grip", lang.s(S::Move))}
                    <th scope="col" class="pl-col-pos">"#"</th>
                    {th("pl-cursor-col", lang.s(S::Cursor))}
                    <th scope="col" class="pl-col-tool">{lang.s(S::Tool)}</th>
                    <th scope="col">{lang.s(S::Pattern)}</th>
                    <th scope="col" class="pl-col-action">{lang.s(S::ActionCol)}</th>
                    {th("pl-controls pl-col-move", lang.s(S::Move))}
                </tr>
            </thead>
            <tbody class="pl-rules">
                <For each=move || {
                        let limit = ctx.limit.get();
                        order.with(|(rev, ids)| {
                            ids.iter().take(limit).enumerate().map(|(i, id)| (i, *id, *rev)).collect::<Vec<_>>()
                        })
                    }
                    key=|&(_, id, rev): &(usize, RuleId, u32)| (rev, id)
                    children=move |(i, id, rev): (usize, RuleId, u32)| view! { <RuleRow ctx id rev at=i/> }/>
            </tbody>
        </table>
    }
}

/// One rule: grip, position, cursors, tool, pattern, action, ↑/↓.
///
/// `id` is the rule, `rev` the table's load number, `at` its position when the row is created;
/// afterwards the row follows its own [`RowView`] signal (set by [`sync_rows`]).
#[component]
fn RuleRow(ctx: Ctx, id: RuleId, rev: u32, at: usize) -> impl IntoView {
    let lang = ctx.lang;
    let (rule, n) = ctx
        .w
        .with_untracked(|w| (w.table().rules().get(at).cloned(), w.table().len()));
    let rule = rule.unwrap_or_else(|| permlab_core::Rule {
        id,
        tool: String::new(),
        pattern: String::new(),
        action: Action::Ask,
    });
    let init = ctx.shown.with_value(|s| row_view(&s.marked, at, n));
    let view = RwSignal::new(init);
    ctx.rows.update_value(|m| {
        m.insert((rev, id), view);
    });
    on_cleanup(move || {
        ctx.rows.update_value(|m| {
            if m.get(&(rev, id)) == Some(&view) {
                m.remove(&(rev, id));
            }
        });
    });
    let pos = move || view.with(|v| v.pos);
    let class = move || {
        view.with(|v| {
            let mut c = String::from("pl-rule");
            if v.decisive.is_some() {
                c.push_str(" pl-decisive");
            }
            if v.lifted {
                c.push_str(" pl-lifted");
            }
            match v.drop {
                Some(true) => c.push_str(" pl-drop-below"),
                Some(false) => c.push_str(" pl-drop-above"),
                None => {}
            }
            c
        })
    };
    let label = lang.rule(&rule);
    let grip_label = format!("{} #{}: {label}", lang.s(S::Grip), id.0);
    let up_label = format!("{} #{}", lang.s(S::Up), id.0);
    let down_label = format!("{} #{}", lang.s(S::Down), id.0);
    let on_key = move |e: ev::KeyboardEvent| {
        if act(ctx, Msg::GripKey(id, e.key(), e.alt_key())) {
            e.prevent_default();
        }
    };
    let on_down = move |e: ev::PointerEvent| {
        if !e.is_primary() || e.button() != 0 {
            return;
        }
        let touch_ptr = e.pointer_type() == "touch";
        if !touch_ptr {
            e.prevent_default();
        }
        let pointer = e.pointer_id();
        let from = view.with_untracked(|v| v.pos);
        touch(ctx, |w| {
            w.drag = Some(Drag {
                id,
                from,
                to: from,
                pointer,
                y0: f64::from(e.client_y()),
                active: !touch_ptr,
                moved: false,
            })
        });
        if let Some(t) = e
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            // Synthetic events have no active pointer to capture: nothing to do then.
            let _ = t.set_pointer_capture(pointer);
        }
        if touch_ptr {
            // Hold to drag: a touch that moves first scrolls the page instead.
            set_timeout(
                move || {
                    ctx.w.update_untracked(|w| {
                        if let Some(d) = w
                            .drag
                            .as_mut()
                            .filter(|d| d.id == id && d.pointer == pointer)
                        {
                            d.active = true;
                        }
                    });
                },
                Duration::from_millis(200),
            );
        }
    };
    let action = rule.action;
    view! {
        <tr class=class data-rule-id=id.0.to_string() data-position=move || (pos() + 1).to_string()
            data-cursor=move || view.with(|v| v.cursor.clone()) data-decisive=move || view.with(|v| v.decisive.clone())>
            <td class="pl-grip-cell pl-controls">
                <button type="button" class="pl-grip" aria-label=grip_label
                    aria-pressed=move || view.with(|v| v.lifted).to_string()
                    on:keydown=on_key on:pointerdown=on_down>"⠿"</button>
            </td>
            <td class="pl-pos">{move || pos() + 1}</td>
            <td class="pl-cursor-cell" aria-hidden="true">
                {move || view.with(|v| v.cursor.clone()).map(|c| c.split(' ').map(|slug| {
                    let e = EngineId::from_slug(slug).unwrap_or(EngineId::FirstMatch);
                    view! { <span class=format!("pl-cur pl-cur-{slug}")>{cursor_glyph(e)}</span> }
                }).collect_view())}
            </td>
            <td class="pl-tool"><code>{rule.tool.clone()}</code></td>
            <td class="pl-pattern"><code>{rule.pattern.clone()}</code></td>
            <td class=format!("pl-action pl-action-{}", action.as_str())>{lang.action(action)}</td>
            <td class="pl-move pl-controls">
                <button type="button" class="pl-up" aria-label=up_label disabled=move || pos() == 0
                    on:click=move |_| { act(ctx, Msg::Step(id, false)); }>"↑"</button>
                <button type="button" class="pl-down" aria-label=down_label disabled=move || view.with(|v| v.last)
                    on:click=move |_| { act(ctx, Msg::Step(id, true)); }>"↓"</button>
            </td>
        </tr>
    }
}

fn pointer_move(ctx: Ctx, e: &ev::PointerEvent) {
    let Some(d) = ctx.w.with_untracked(|w| w.drag) else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    let dy = f64::from(e.client_y()) - d.y0;
    if !d.active {
        // A touch that moves before the hold delay is a scroll: let the page have it.
        if dy.abs() > 8.0 {
            touch(ctx, |w| w.drag = None);
        }
        return;
    }
    if !d.moved && dy.abs() < 4.0 {
        return;
    }
    e.prevent_default();
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let to = web::drop_index(&root, f64::from(e.client_y()), d.from);
    if !d.moved || to != d.to {
        touch(ctx, |w| {
            w.drag = Some(Drag {
                to,
                moved: true,
                ..d
            })
        });
    }
}

fn pointer_up(ctx: Ctx, e: &ev::PointerEvent, commit: bool) {
    let Some(d) = ctx.w.with_untracked(|w| w.drag) else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    ctx.w.update_untracked(|w| w.drag = None);
    if commit && d.active && d.moved && d.to != d.from {
        act(ctx, Msg::Drop(d.from, d.to));
    } else {
        after(ctx);
    }
}

/// What the stepper shows: open, step k of n, one line per cursor engine.
#[derive(Clone, PartialEq)]
struct StepperView {
    open: bool,
    k: usize,
    total: usize,
    lines: Vec<(EngineId, String)>,
}

/// The stepper: walks every cursor engine through the table, one step at a time.
#[component]
fn Stepper(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let data = Memo::new(move |_| {
        ctx.w.with(|w| {
            let k = w.step();
            let lines = if w.stepping {
                w.cursor_engines()
                    .into_iter()
                    .filter_map(|id| {
                        let e = w.eval(id)?;
                        let text = if k == 0 {
                            lang.s(S::NotStarted).to_string()
                        } else if e.steps.is_empty() {
                            lang.reason(w.table(), id, &e.reason)
                        } else {
                            lang.step(w.table(), &e.steps[k.min(e.steps.len()) - 1])
                        };
                        Some((id, text))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            StepperView {
                open: w.stepping,
                k,
                total: w.total_steps(),
                lines,
            }
        })
    });
    let open = Memo::new(move |_| data.with(|d| d.open));
    let on_key = move |e: ev::KeyboardEvent| {
        if web::in_text_field(&e) {
            return;
        }
        let msg = match e.key().as_str() {
            "ArrowLeft" | "Left" => Msg::StepBy(-1),
            "ArrowRight" | "Right" => Msg::StepBy(1),
            _ => return,
        };
        if act(ctx, msg) {
            e.prevent_default();
        }
    };
    let step = move |class: &'static str,
                     by: i8,
                     pre: &'static str,
                     label: S,
                     post: &'static str| {
        view! {
            <button type="button" class=class aria-keyshortcuts=(by == 1).then_some("ArrowRight")
                on:click=move |_| { act(ctx, Msg::StepBy(by)); }>{pre}{lang.s(label)}{post}</button>
        }
    };
    view! {
        <section class="pl-stepper">
            <button type="button" class="pl-step-toggle pl-controls" aria-expanded=move || open.get().to_string()
                on:click=move |_| { act(ctx, Msg::ToggleStepper); }>
                {move || lang.s(if open.get() { S::StepperClose } else { S::StepperOpen })}
            </button>
            <Show when=move || open.get()>
                <div class="pl-stepper-body" role="group" aria-label=lang.s(S::StepperOpen) on:keydown=on_key>
                    <div class="pl-step-buttons pl-controls">
                        {step("pl-step-first", -2, "« ", S::First, "")}
                        {step("pl-step-prev", -1, "◀ ", S::Prev, "")}
                        {step("pl-step-next", 1, "", S::Next, " ▶")}
                        {step("pl-step-last", 2, "", S::Last, " »")}
                    </div>
                    <p class="pl-step-count" aria-live="polite">
                        {move || data.with(|d| lang.step_of(d.k, d.total))}
                        <span class="pl-hint">" · "{lang.s(S::StepHint)}</span>
                    </p>
                    <ul class="pl-step-lines">
                        {move || data.get().lines.into_iter().map(|(id, text)| view! {
                            <li class="pl-step-line" data-engine-step=id.slug()>
                                <span class=format!("pl-cur pl-cur-{}", id.slug()) aria-hidden="true">{cursor_glyph(id)}</span>
                                <strong>{lang.engine(id)}</strong>": "<span class="pl-step-text">{text}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                </div>
            </Show>
        </section>
    }
}

/// The guess panels: the lesson's question and one [`EnginePanel`] per shown engine.
#[component]
fn Guesses(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let head = Memo::new(move |_| ctx.w.with(|w| (w.explore(), w.lesson_text("question"))));
    let shown = Memo::new(move |_| ctx.w.with(Widget::shown));
    view! {
        <section class="pl-guesses">
            <h3>{move || lang.s(if head.get().0 { S::Verdicts } else { S::GuessTitle })}</h3>
            {move || head.get().1.map(|q| view! { <p class="pl-question">{q}</p> })}
            <div class="pl-engines">
                <For each=move || shown.get() key=|e| *e children=move |id| view! { <EnginePanel ctx id/> }/>
            </div>
            <Show when=move || !head.get().0>
                <button type="button" class="pl-try-again pl-controls" on:click=move |_| { act(ctx, Msg::TryAgain); }>
                    "↺ "{lang.s(S::TryAgain)}</button>
            </Show>
        </section>
    }
}

/// What one engine panel shows.
#[derive(Clone, PartialEq)]
struct PanelView {
    explore: bool,
    revealed: bool,
    guess: Option<Guess>,
    decision: Decision,
    why: String,
}

/// One engine: the learner's guess (allow / ask / deny / skip), then its verdict and why.
///
/// `id` is the engine.
#[component]
fn EnginePanel(ctx: Ctx, id: EngineId) -> impl IntoView {
    let lang = ctx.lang;
    let data = Memo::new(move |_| {
        ctx.w.with(|w| {
            let revealed = w.revealed(id);
            let eval = w.eval(id);
            let why = match eval {
                Some(e) if revealed => {
                    let mut s = lang.reason(w.table(), id, &e.reason);
                    if e.inferred {
                        s.push_str(lang.s(S::Inferred));
                    }
                    s
                }
                _ => String::new(),
            };
            PanelView {
                explore: w.explore(),
                revealed,
                guess: w.lab.guess(id),
                decision: eval.map(|e| e.decision).unwrap_or(Decision::Ask),
                why,
            }
        })
    });
    let slug = id.slug();
    let heading = ctx.w.with_untracked(|w| w.id(&format!("h-{slug}")));
    let revealed = move || data.with(|d| d.revealed);
    let guess = move || data.with(|d| d.guess);
    let guess_button = move |a: Action| {
        let g = Decision::from(a);
        view! {
            <button type="button" class=format!("pl-guess-btn pl-g-{}", a.as_str()) data-guess=a.as_str()
                aria-pressed=move || (guess() == Some(Guess::Verdict(g))).to_string()
                disabled=revealed
                on:click=move |_| { act(ctx, Msg::Guess(id, Guess::Verdict(g))); }>{lang.action(a)}</button>
        }
    };
    let result = move || {
        let d = data.get();
        if !d.revealed {
            return None;
        }
        let (class, mark) = match d.guess {
            Some(Guess::Verdict(g)) if g == d.decision => {
                ("pl-right", format!("✓ {}", lang.s(S::Right)))
            }
            Some(Guess::Verdict(g)) => (
                "pl-wrong",
                format!(
                    "✗ {}({} {})",
                    lang.s(S::Wrong),
                    lang.s(S::YouGuessed),
                    lang.decision(g)
                ),
            ),
            _ => ("pl-skipped", format!("– {}", lang.s(S::Skipped))),
        };
        Some(view! {
            <div class="pl-result">
                <p class=format!("pl-verdict pl-v-{}", d.decision.as_str())>
                    <span class="pl-label">{lang.s(S::Verdict)}": "</span><strong>{lang.decision(d.decision)}</strong>
                </p>
                {(!d.explore).then(|| view! { <p class=format!("pl-mark {class}")>{mark}</p> })}
                <p class="pl-why">{d.why}</p>
            </div>
        })
    };
    // A group, not a landmark: two widgets on a page both have an "OpenCode" panel.
    view! {
        <div class="pl-engine" role="group" data-engine=slug
            data-verdict=move || data.with(|d| d.revealed.then(|| d.decision.as_str()))
            aria-labelledby=heading.clone()>
            <h4 id=heading.clone()>{lang.engine(id)}<small class="pl-gist">{lang.engine_gist(id)}</small></h4>
            {lang.pin(id).map(|p| view! { <p class="pl-pin">{p}</p> })}
            <Show when=move || !data.with(|d| d.explore)>
                <div class="pl-guess pl-controls" role="group" aria-label=format!("{}: {}", lang.s(S::YourGuess), lang.engine(id))>
                    {guess_button(Action::Allow)}
                    {guess_button(Action::Ask)}
                    {guess_button(Action::Deny)}
                    <button type="button" class="pl-skip" disabled=revealed
                        aria-pressed=move || (guess() == Some(Guess::Skip)).to_string()
                        on:click=move |_| { act(ctx, Msg::Guess(id, Guess::Skip)); }>{lang.s(S::Skip)}</button>
                </div>
            </Show>
            <Show when=move || !revealed()>
                <button type="button" class="pl-reveal pl-controls" disabled=move || guess().is_none()
                    on:click=move |_| { act(ctx, Msg::Reveal(id)); }>{lang.s(S::Reveal)}</button>
                <Show when=move || guess().is_none()>
                    <p class="pl-locked pl-controls">{lang.s(S::RevealLocked)}</p>
                </Show>
            </Show>
            {result}
        </div>
    }
}

/// Every reorder, newest last, with the verdicts it flipped.
#[component]
fn ReorderLog(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let entries = Memo::new(move |_| {
        ctx.w.with(|w| {
            w.lab
                .log()
                .iter()
                .map(|e| lang.log_entry(w.table(), e))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="pl-log">
            <h3>{lang.s(S::Log)}</h3>
            <Show when=move || entries.with(Vec::is_empty)>
                <p class="pl-log-empty">{lang.s(S::LogEmpty)}</p>
            </Show>
            <ol class="pl-log-list">
                <For each=move || { entries.get().into_iter().enumerate().collect::<Vec<_>>() }
                    key=|e: &(usize, String)| e.clone()
                    children=|(_, t): (usize, String)| view! { <li class="pl-log-entry">{t}</li> }/>
            </ol>
        </section>
    }
}

/// What the disagreement box shows.
#[derive(Clone, PartialEq)]
struct DisagreeView {
    last: String,
    strongest: String,
    differ: bool,
    actual: String,
    caveat: bool,
}

/// OpenCode's last match against Claude Code's strongest match.
#[component]
fn DisagreementBox(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let heading = ctx.w.with_untracked(|w| w.id("disagree-h"));
    let data = Memo::new(move |_| {
        ctx.w.with(|w| {
            let oc = w.eval(EngineId::OpenCode)?;
            let cc = w.eval(EngineId::ClaudeCode)?;
            let t = w.table();
            let d = Disagreement::new(t, &oc.matches);
            let show = |x: Option<(usize, Action)>| match x {
                Some((row, a)) => format!("{} ← {}", lang.action(a), lang.row_ref(t, row)),
                None => lang.s(S::NoMatch).to_string(),
            };
            let strong = d.strongest.map(|(_, a)| Decision::from(a));
            Some(DisagreeView {
                last: show(d.last),
                strongest: show(d.strongest),
                differ: d.differ(),
                actual: format!(
                    "{} OpenCode → {}; Claude Code → {}",
                    lang.s(S::Actual),
                    lang.decision(oc.decision),
                    lang.decision(cc.decision)
                ),
                caveat: strong.is_some() && strong != Some(cc.decision),
            })
        })
    });
    // A group, not a landmark: a page may hold several widgets, each with this box.
    view! {
        <div class="pl-disagree" role="group" aria-labelledby=heading.clone()>
            <h3 id=heading.clone()>"⚠ "{lang.s(S::Disagree)}</h3>
            {move || data.get().map(|d| view! {
                <dl class="pl-disagree-list" data-differ=d.differ.to_string()>
                    <dt>{lang.s(S::LastMatch)}</dt><dd class="pl-last">{d.last}</dd>
                    <dt>{lang.s(S::Strongest)}</dt><dd class="pl-strongest">{d.strongest}</dd>
                </dl>
                <p class="pl-disagree-verdict"><strong>{lang.s(if d.differ { S::Differ } else { S::Coincide })}</strong></p>
                <p class="pl-disagree-actual">{d.actual}</p>
                {d.caveat.then(|| view! { <p class="pl-disagree-caveat">{lang.s(S::Caveat)}</p> })}
            })}
        </div>
    }
}

fn term_help(lang: Lang, i: usize) -> &'static str {
    lang.s(match i {
        0 => S::TermFindLast,
        1 => S::TermPermission,
        2 => S::TermPattern,
        3 => S::TermDefault,
        _ => S::TermAnd,
    })
}

/// OpenCode's rule as a formula whose terms explain themselves when clicked.
#[component]
fn Formula(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let open = Memo::new(move |_| ctx.w.with(|w| w.term));
    let help = ctx.w.with_untracked(|w| w.id("term-help"));
    let term = {
        let help = help.clone();
        move |i: usize, text: &'static str| {
            view! {
                <button type="button" class="pl-term" data-term=i.to_string()
                    aria-expanded=move || (open.get() == Some(i)).to_string()
                    aria-controls=help.clone()
                    on:click=move |_| { act(ctx, Msg::Term(i)); }>{text}</button>
            }
        }
    };
    view! {
        <section class="pl-formula-box">
            <h3>{lang.s(S::Formula)}</h3>
            <pre class="pl-formula"><code>"rules."{term(0, "findLast")}"(r => "{term(1, "match(permission, r.permission)")}" "{term(4, "&&")}" "{term(2, "match(pattern, r.pattern)")}") "{term(3, "?? ask")}</code></pre>
            <p class="pl-hint">{lang.s(S::FormulaHint)}</p>
            <p id=help class="pl-term-help" aria-live="polite">{move || open.get().map(|i| term_help(lang, i))}</p>
        </section>
    }
}

fn decision_icon(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    }
}

/// One matrix row: the call, whether it is the current one, and each engine's verdict (with
/// whether the last reorder changed it).
type MatrixRow = (String, bool, Vec<(Decision, bool)>);

/// Every call of the lesson × every engine; a quiz folds it away.
#[component]
fn Matrix(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let quiz = Memo::new(move |_| ctx.w.with(|w| w.quiz()));
    let open = Memo::new(move |_| ctx.w.with(|w| w.matrix_open));
    let rows = Memo::new(move |_| {
        ctx.w.with(|w| {
            let current = w.lab.call();
            w.calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let cells = (0..EngineId::ALL.len())
                        .map(|j| {
                            let d = w
                                .matrix
                                .get(i)
                                .and_then(|r| r.get(j))
                                .copied()
                                .unwrap_or(Decision::Ask);
                            let changed = w
                                .prev_matrix
                                .as_ref()
                                .and_then(|p| p.get(i)?.get(j).copied())
                                .is_some_and(|p| p != d);
                            (d, changed)
                        })
                        .collect();
                    (one_line(&c.to_string()), c == current, cells)
                })
                .collect::<Vec<MatrixRow>>()
        })
    });
    let table = move || {
        view! {
            <div class="pl-scroll">
                <table class="pl-matrix">
                    <thead><tr>
                        <th scope="col">{lang.s(S::Call)}</th>
                        {EngineId::ALL.iter().map(|e| view! { <th scope="col">{lang.engine(*e)}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        // Keyed by the row's content: a reorder replaces only the rows it changed.
                        <For each=move || { rows.get().into_iter().enumerate().collect::<Vec<_>>() }
                            key=|row: &(usize, MatrixRow)| row.clone()
                            children=move |(i, (label, current, cells)): (usize, MatrixRow)| view! {
                            <tr class=if current { "pl-current" } else { "" } data-call=i.to_string()>
                                <th scope="row">
                                    <button type="button" class="pl-call-pick" aria-pressed=current.to_string()
                                        on:click=move |_| { act(ctx, Msg::PickCall(i)); }><code>{label}</code></button>
                                </th>
                                {cells.into_iter().zip(EngineId::ALL).map(|((d, changed), e)| view! {
                                    <td class=format!("pl-cell pl-v-{}{}", d.as_str(), if changed { " pl-changed" } else { "" })
                                        data-engine=e.slug() data-verdict=d.as_str() data-changed=changed.then_some("true")>
                                        <span aria-hidden="true">{decision_icon(d)}" "</span>{lang.decision(d)}
                                        {changed.then(|| view! {
                                            <span class="pl-changed-mark" title=lang.s(S::ChangedMark)>" ● "<span class="pl-sr">{lang.s(S::ChangedMark)}</span></span>
                                        })}
                                    </td>
                                }).collect_view()}
                            </tr>
                        }/>
                    </tbody>
                </table>
            </div>
        }
    };
    move || {
        if quiz.get() {
            // A quiz keeps the answers folded away until the learner opens the lab view.
            view! {
                <details class="pl-matrix-box" prop:open=move || open.get() on:toggle=move |e| {
                    if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                        if d.open() != open.get_untracked() {
                            act(ctx, Msg::Matrix(d.open()));
                        }
                    }
                }>
                    <summary>{lang.s(S::Matrix)}" "{lang.s(S::MatrixSpoils)}</summary>
                    {table()}
                </details>
            }
            .into_any()
        } else {
            view! {
                <section class="pl-matrix-box">
                    <h3>{lang.s(S::Matrix)}</h3>
                    {table()}
                </section>
            }
            .into_any()
        }
    }
}

/// One translated config: the file and its flagged rows.
type Translated = (
    &'static str,
    &'static str,
    String,
    Vec<(usize, String, String)>,
);

/// The table as each harness's own config, with what does not translate (computed only while
/// the panel is open).
#[component]
fn Translations(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let blocks = Memo::new(move |_| {
        ctx.w.with(|w| {
            if !w.translations {
                return Vec::new();
            }
            let t = w.table();
            let cc = claude_code::translate(t);
            let mut cc_flags: Vec<(usize, String)> = cc
                .untranslatable
                .iter()
                .map(|u| (u.row, u.reason.clone()))
                .collect();
            for (row, (r, a)) in cc.rules.iter().zip(&cc.actions).enumerate() {
                if let (Some(r), Action::Deny) = (r, a) {
                    if !r.contains('(') {
                        cc_flags.push((row, format!("deny {r} — {}", lang.s(S::RemovesTool))));
                    }
                }
            }
            cc_flags.extend(cc.notes.iter().cloned());
            cc_flags.sort_by_key(|f| f.0);
            let (oc, oc_flags) = presets::opencode_permission(t);
            let (cx, cx_flags) = codex::to_rules(t);
            let rows = |flags: Vec<(usize, String)>| {
                flags
                    .into_iter()
                    .map(|(row, why)| (row, lang.row(t, row), why))
                    .collect::<Vec<_>>()
            };
            vec![
                (
                    "claude-code",
                    "Claude Code · .claude/settings.json",
                    cc.to_settings_json(),
                    rows(cc_flags),
                ),
                (
                    "opencode",
                    "OpenCode · opencode.json",
                    oc,
                    rows(oc_flags.into_iter().map(|f| (f.row, f.reason)).collect()),
                ),
                (
                    "codex",
                    "Codex · .codex/rules/default.rules",
                    cx,
                    rows(cx_flags.into_iter().map(|f| (f.row, f.reason)).collect()),
                ),
            ] as Vec<Translated>
        })
    });
    view! {
        <details class="pl-translations" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                act(ctx, Msg::Translations(d.open()));
            }
        }>
            <summary>{lang.s(S::Translations)}</summary>
            {move || blocks.get().into_iter().map(|(slug, title, text, flags)| view! {
                <div class="pl-translation" data-harness=slug>
                    <h4>{title}</h4>
                    <pre><code>{text}</code></pre>
                    <ul class="pl-flags">
                        {flags.into_iter().map(|(row, r, why)| view! {
                            <li class="pl-flag" data-row=(row + 1).to_string()><span aria-hidden="true">"⚠ "</span><code>{r}</code>" — "{why}</li>
                        }).collect_view()}
                    </ul>
                </div>
            }).collect_view()}
        </details>
    }
}

/// Runs the conformance fixtures (the real harnesses' recorded answers) in the worker.
#[component]
fn SelfCheck(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let offline = ctx.w.with_untracked(|w| w.config.selfcheck == "none");
    let running = Memo::new(move |_| ctx.w.with(|w| w.checking));
    let results = Memo::new(move |_| ctx.w.with(|w| w.checks.clone()));
    let run = move |_| self_check(ctx);
    // An offline page has no fixtures to fetch: no self-check.
    (!offline).then(|| view! {
        <section class="pl-selfcheck">
            <h3>{lang.s(S::SelfCheck)}</h3>
            <button type="button" class="pl-run-check pl-controls" disabled=move || running.get() on:click=run>
                {move || lang.s(if running.get() { S::Running } else { S::RunSelfCheck })}</button>
            <ul class="pl-check-results" aria-live="polite">
                {move || results.get().into_iter().map(|(name, r)| match r {
                    Ok(sections) => {
                        let passed: usize = sections.iter().map(|s| s.1).sum();
                        let total: usize = sections.iter().map(|s| s.2).sum();
                        let ok = passed == total;
                        let detail = sections.iter().map(|(s, p, t)| format!("{s} {p}/{t}")).collect::<Vec<_>>().join(" · ");
                        view! {
                            <li class="pl-check" data-check=name.clone() data-ok=ok.to_string()>
                                <span aria-hidden="true">{if ok { "✓ " } else { "✗ " }}</span>
                                <strong>{name.clone()}</strong>": "
                                <span class="pl-check-tally">{format!("{passed}/{total}")}</span>" "{lang.s(S::AgreeWith)}
                                <small class="pl-check-detail">{format!(" ({detail})")}</small>
                            </li>
                        }.into_any()
                    }
                    Err(e) => view! {
                        <li class="pl-check" data-check=name.clone() data-ok="false">"✗ "<strong>{name.clone()}</strong>": "{e}</li>
                    }.into_any(),
                }).collect_view()}
            </ul>
        </section>
    })
}

fn self_check(ctx: Ctx) {
    if ctx.w.with_untracked(|w| w.checking) {
        return;
    }
    let (base, script, failed) = ctx.w.with_untracked(|w| {
        (
            web::absolute_url(&w.config.fixtures),
            web::absolute_url(&w.config.selfcheck),
            w.lang.s(S::LoadFailed),
        )
    });
    ctx.w.update(|w| {
        w.checking = true;
        w.checks.clear();
    });
    let request = Request::SelfCheck { base };
    let started = web::run_worker(&script, &request, move |msg| {
        ctx.w.update(|w| match msg {
            Ok(Reply::Done) => w.checking = false,
            Ok(Reply::Check { name, result }) => {
                w.checks.push(crate::app::check_result(name, result))
            }
            Ok(_) => {}
            Err(e) => {
                w.checking = false;
                w.checks.push((failed.to_string(), Err(e)));
            }
        });
    });
    match started {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => ctx.w.update(|w| {
            w.checking = false;
            w.checks = vec![(failed.to_string(), Err(e))];
        }),
    }
}

/// The table as editable JSON (fixtures format).
#[component]
fn TableEditor(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let rev = Memo::new(move |_| ctx.w.with(|w| w.editor_rev));
    let error = Memo::new(move |_| ctx.w.with(|w| w.editor_error.clone()));
    view! {
        <details class="pl-editor pl-controls" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                act(ctx, Msg::Editor(d.open()));
            }
        }>
            <summary>{lang.s(S::EditTable)}</summary>
            <label class="pl-field">
                <span class="pl-sr">{lang.s(S::EditTable)}</span>
                <textarea class="pl-table-json" rows="8" spellcheck="false"
                    prop:value=move || { rev.track(); ctx.w.with_untracked(|w| w.editor_text.clone()) }
                    on:input=move |e| { act(ctx, Msg::EditTable(event_target_value(&e))); }></textarea>
            </label>
            <button type="button" class="pl-apply" on:click=move |_| { act(ctx, Msg::Apply); }>{lang.s(S::Apply)}</button>
            <p class="pl-table-error" role="alert">
                {move || error.get().map(|e| format!("{}: {e}", lang.s(S::TableError)))}
            </p>
        </details>
    }
}

/// What the import panel says.
#[derive(Clone, PartialEq)]
enum ImportView {
    Nothing,
    Pending,
    Error(String),
    Summary {
        format: &'static str,
        imported: usize,
        dropped: usize,
        text: String,
        warnings: Vec<String>,
    },
}

/// A harness's own config pasted in (Claude Code settings, opencode.json, Codex `.rules`).
#[component]
fn ImportPanel(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let rev = Memo::new(move |_| ctx.w.with(|w| w.import_rev));
    let message = Memo::new(move |_| {
        ctx.w.with(|w| {
            if w.worker_import.is_some() {
                ImportView::Pending
            } else if let Some(e) = &w.import_error {
                ImportView::Error(if e == "empty" {
                    lang.s(S::ImportEmpty).to_string()
                } else {
                    e.clone()
                })
            } else if let Some(s) = &w.import_summary {
                let harness = lang.engine(s.format.engine());
                ImportView::Summary {
                    format: s.format.slug(),
                    imported: s.imported,
                    dropped: s.dropped,
                    text: lang.import_summary(harness, s.imported, s.dropped),
                    warnings: s.warnings.clone(),
                }
            } else {
                ImportView::Nothing
            }
        })
    });
    let format0 = ctx.w.with_untracked(|w| w.import_format.clone());
    view! {
        <details class="pl-import pl-controls">
            <summary>{lang.s(S::ImportTitle)}</summary>
            <label class="pl-field">
                <span>{lang.s(S::ImportFormat)}</span>
                <select class="pl-import-format" on:change=move |e| { act(ctx, Msg::ImportFormat(event_target_value(&e))); }>
                    {[
                        ("auto", lang.s(S::ImportAuto)),
                        ("claude-code", "Claude Code · .claude/settings.json"),
                        ("opencode", "OpenCode · opencode.json(c) / agent .md"),
                        ("codex", "Codex · .rules"),
                    ].into_iter().map(|(slug, label)| view! {
                        <option value=slug selected=format0 == slug>{label}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="pl-field pl-field-wide">
                <span>{lang.s(S::ImportText)}</span>
                <textarea class="pl-import-text" rows="8" spellcheck="false"
                    prop:value=move || { rev.track(); ctx.w.with_untracked(|w| w.import_text.clone()) }
                    on:input=move |e| { act(ctx, Msg::ImportText(event_target_value(&e))); }></textarea>
            </label>
            <button type="button" class="pl-import-button" on:click=move |_| { act(ctx, Msg::Import); }>{lang.s(S::ImportButton)}</button>
            <div class="pl-import-result" role="status">
                {move || match message.get() {
                    ImportView::Nothing => ().into_any(),
                    ImportView::Pending => view! { <p class="pl-import-pending">{lang.s(S::ImportReading)}</p> }.into_any(),
                    ImportView::Error(e) => view! {
                        <p class="pl-import-error" role="alert">{lang.s(S::ImportFailed)}": "{e}</p>
                    }.into_any(),
                    ImportView::Summary { format, imported, dropped, text, warnings } => view! {
                        <p class="pl-import-summary" data-format=format data-imported=imported.to_string() data-dropped=dropped.to_string()>{text}</p>
                        <ul class="pl-import-warnings">
                            {warnings.into_iter().map(|w| view! { <li class="pl-import-warning">{w}</li> }).collect_view()}
                        </ul>
                    }.into_any(),
                }}
            </div>
        </details>
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
    let widget = Widget::new(config, &web::location_hash());
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
