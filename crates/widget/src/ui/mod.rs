//! The table widget as Leptos (CSR) components, one per region of the page.
//!
//! The state is the plain-Rust [`Widget`] (as Leptos' todomvc keeps its `Todos` plain): it
//! sits in one local [`StoredValue`] ([`Ctx::w`]) and changes only through [`Widget::act`]
//! (see [`act`]), which reports the [`Part`]s it changed and the [`Effect`]s the page must do.
//! Each part has a trigger; what a region shows is a [`Memo`] that reads the parts it names
//! ([`Ctx::read`]), so typing in the call field re-runs the call's regions and no other.
//! Typed event handlers turn clicks and keys into [`Msg`]s.
//!
//! Rows are a keyed `<For>` (key: the table's load number and the rule id). What a row shows
//! besides its rule (position, cursors, decisive mark, lift and drop marks) is a signal of its
//! own ([`RowView`]); after every action [`sync_rows`] sets only the rows whose view changed
//! (a `Selector`-style update: moving a cursor touches two rows, not the table). Big tables are
//! rendered [`CHUNK`] rows per frame.
//!
//! Effects only touch the outside world: the stored state, the live region, focus, the
//! clipboard, the worker, the host's events.

use std::collections::HashMap;
use std::time::Duration;

use leptos::ev;
use leptos::prelude::*;

use self::act::{act, after};
pub use self::ctx::region_reads;
use self::ctx::{after_delay, next_frame, Ctx, Shown, CHUNK};
use self::rows::sync_rows;
use crate::browser::web;
use crate::model::{Control, Focus, GripKey, Msg, Region, Widget};
use crate::text::i18n::S;

mod act;
mod call;
mod ctx;
mod drift;
mod findings;
mod focus;
mod guess;
mod import;
mod legend;
mod lesson_error;
mod marked;
mod more;
mod panels;
mod roving;
mod rows;
mod state_note;
mod stepper;
mod table;
mod tasks;
mod worker;
use self::call::*;
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

/// The widget's root: every region in page order.
///
/// `widget` is the model, built from the host's configuration and the stored state (or an
/// old-format link's hash).
#[component]
pub fn App(
    widget: Widget,
    /// Where the page's handle finds this widget's context (`Handle::state`).
    exposed: std::rc::Rc<std::cell::Cell<Option<Ctx>>>,
) -> impl IntoView {
    let lang = widget.lang();
    let ns = widget.config().ns.clone();
    let ctx = Ctx {
        w: StoredValue::new_local(widget),
        parts: std::array::from_fn(|_| Trigger::new()),
        lang,
        announce: RwSignal::new(String::new()),
        rows: StoredValue::new_local(HashMap::new()),
        shown: StoredValue::new_local(Shown::default()),
        limit: RwSignal::new(CHUNK),
        first: RwSignal::new(0),
        row_h: RwSignal::new(40.0),
        focused: RwSignal::new(None),
        root: NodeRef::new(),
        workers: StoredValue::new_local(Vec::new()),
        jobs: StoredValue::new_local(Vec::new()),
        refocusing: StoredValue::new_local(None),
    };
    exposed.set(Some(ctx));
    sync_rows(ctx);

    // The state is kept in sessionStorage once the learner changes something (see
    // `crate::persist::store`); the URL is the host's.
    let refused = RwSignal::new(false);
    keep_state(ctx, ns, refused);

    // A big table is rendered CHUNK rows per frame, so the page keeps answering.
    let n_rows = Memo::new(move |_| ctx.read(Region::RowCount, |w| w.table().len()));
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

    // Send the worker what the initial state waits for (a lesson with `.rules`, a restored
    // import's lint).
    let start = ctx.peek(Widget::resume);
    next_frame(ctx, move || after(ctx, &start));

    let on_key = move |e: ev::KeyboardEvent| {
        let undo =
            (e.ctrl_key() || e.meta_key()) && !e.alt_key() && e.key().eq_ignore_ascii_case("z");
        // Ctrl/Cmd+Z anywhere in the widget except in a text field (where it edits the text).
        if undo && !web::in_text_field(&e) && act(ctx, Msg::Undo) {
            e.prevent_default();
        }
    };
    let on_touchmove = move |e: ev::TouchEvent| {
        // While a row is dragged the page must not scroll under the finger (the grip's
        // `touch-action: none` already keeps it still; this covers older engines).
        if ctx.peek(|w| w.carry().drag.is_some()) {
            e.prevent_default();
        }
    };
    // What the first paint needs is the call and the table; the side column, the reorder log
    // and the panels mount just after it (the frame after the first, once it is painted). On a
    // phone the wasm compiles each function the first time it runs, on the main thread: every
    // component left out of the first frame is a row shown sooner (docs/DESIGN.md, "Bundles").
    let rest = RwSignal::new(false);
    next_frame(ctx, move || {
        after_delay(ctx, move || rest.set(true), Duration::ZERO)
    });
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
                <div class="pl-table-col">
                    <div class="pl-table-wrap">
                        <RuleTable ctx/>
                        <Show when=move || rest.get()><Legend ctx/></Show>
                    </div>
                    <Show when=move || rest.get()><StepDock ctx/></Show>
                </div>
                <div class="pl-side">
                    <Show when=move || rest.get()>
                        <Tasks ctx/>
                        <Stepper ctx/>
                        <Guesses ctx/>
                    </Show>
                </div>
            </div>
            <Show when=move || rest.get()>
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
            </Show>
        </section>
    }
}

/// The heading, the lesson's state (read by the worker, or why it cannot be used) and the
/// rule-set buttons.
#[component]
fn Head(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let title = Memo::new(move |_| ctx.read(Region::Head, Widget::title));
    let pending =
        Memo::new(move |_| ctx.read(Region::LessonPending, |w| w.waiting().lesson.is_some()));
    let sources = Memo::new(move |_| ctx.read(Region::Head, Widget::sources));
    view! {
        <h2 class="pl-title">{move || title.get()}</h2>
        <Show when=move || pending.get()>
            <p class="pl-lesson-pending" role="status">{lang.s(S::LessonReading)}</p>
        </Show>
        <LessonProblems ctx/>
        <div class="pl-presets pl-controls" role="group" aria-label=lang.s(S::Preset)>
            <span class="pl-label">{lang.s(S::Preset)}</span>
            {move || sources.get().into_iter().map(|(src, slug, label, on)| {
                view! {
                    <button type="button" class="pl-preset" data-preset=slug aria-pressed=on.to_string()
                        on:click=move |_| { act(ctx, Msg::Source(src)); }>{label}</button>
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
    /// How it was configured (a remount uses it again).
    config: crate::model::Config,
    /// The widget's context, once it has rendered.
    ctx: std::rc::Rc<std::cell::Cell<Option<Ctx>>>,
    /// Other elements of the page have its id: the note that says so (kept for a remount).
    same: Option<crate::persist::store::Note>,
}

/// Mounts the table widget into `host`: its own content moves aside (and comes back on
/// [`unmount`]).
pub fn mount(host: web_sys::HtmlElement, config: crate::model::Config) -> Mounted {
    let mut config = config;
    // Two placeholders with one id: each keeps its state under its own namespace.
    let same = (host.id() == config.ns)
        .then(|| web::same_id(&host))
        .flatten();
    if let Some(n) = &same {
        if let crate::persist::store::Note::SameId { key, .. } = n {
            config.ns = key.clone();
        }
        leptos::logging::warn!("permlab: {}", crate::text::i18n::Lang::En.state_note(n));
    }
    let stored = web::session_get(&crate::persist::store::key(&web::page_path(), &config.ns));
    mount_from(host, config, stored.as_deref(), &web::location_hash(), same)
}

/// [`mount`] from a given stored state (`None`: a fresh widget) and old-format link hash.
fn mount_from(
    host: web_sys::HtmlElement,
    config: crate::model::Config,
    stored: Option<&str>,
    hash: &str,
    same: Option<crate::persist::store::Note>,
) -> Mounted {
    let original = document().create_document_fragment();
    while let Some(child) = host.first_child() {
        let _ = original.append_child(&child);
    }
    let mut widget = Widget::with_stored(config.clone(), hash, stored);
    if let Some(n) = same.clone() {
        widget = widget.with_note(n);
    }
    let slot = std::rc::Rc::new(std::cell::Cell::new(None));
    let ctx = slot.clone();
    let view = leptos::mount::mount_to(host.clone(), move || view! { <App widget exposed=slot/> });
    Mounted {
        host,
        original,
        view: Some(Box::new(view)),
        config,
        ctx,
        same,
    }
}

/// The learner's state, as the stored item's text (see [`crate::persist::store`]); `None`
/// once unmounted.
pub fn state_text(m: &Mounted) -> Option<String> {
    let ctx = m.ctx.get().filter(|c| m.view.is_some() && c.alive())?;
    Some(ctx.peek(|w| crate::persist::store::encode(&w.config().ns, &w.snapshot().to_stored())))
}

/// The widget's configuration.
pub fn config(m: &Mounted) -> &crate::model::Config {
    &m.config
}

/// Mounts the widget again in place, from `stored` (`None`: as new). The stored item is
/// written (or removed) first, so a reload finds the same state.
pub fn remount(m: &mut Mounted, stored: Option<&str>) {
    let key = crate::persist::store::key(&web::page_path(), &m.config.ns);
    match stored {
        Some(text) => {
            web::session_set(&key, text);
        }
        None => web::session_remove(&key),
    }
    unmount(m);
    *m = mount_from(m.host.clone(), m.config.clone(), stored, "", m.same.clone());
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
