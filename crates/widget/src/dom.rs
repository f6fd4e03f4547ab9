//! The browser side of one widget: builds its skeleton in the host element, turns DOM events
//! into [`Msg`]s (one delegated listener per event type, reading `data-act`), re-renders the
//! regions whose HTML changed, keeps focus where it was, and paints drag marks in place.
//!
//! Why a drag is painted rather than rendered: re-rendering the table would replace the grip
//! under the finger, and a touch's events keep going to the element they started on — a
//! detached one, then. So during a lift or a drag only classes change; the table is rendered
//! again once the row is dropped.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use permlab_core::{EngineId, RuleId};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, EventTarget, HtmlElement};

use crate::app::{parse_check, Config, Drag, Msg, Widget};
use crate::html::H;
use crate::i18n::S;
use crate::state::Guess;
use crate::view;
use crate::web;

/// Rows added to the DOM per frame: a 10 000-row table appears in chunks and the page keeps
/// answering.
const CHUNK: usize = 1_000;

type Listener = (EventTarget, &'static str, Closure<dyn FnMut(Event)>, bool);

/// One mounted widget.
pub struct Mounted {
    host: HtmlElement,
    /// The placeholder's own content (static fallback), put back by [`unmount`].
    original: String,
    root: Element,
    live: Element,
    w: RefCell<Widget>,
    /// Region name, container, last markup (for `rules`: a key, see [`rules_key`]).
    regions: RefCell<Vec<(&'static str, Element, String)>>,
    listeners: RefCell<Vec<Listener>>,
    worker: RefCell<Option<web_sys::Worker>>,
    /// Bumped whenever the table region is rendered again: pending chunks of an older
    /// rendering stop.
    rules_gen: Cell<u32>,
    /// What the table rows on the page show, when all of them are there.
    shown_rows: RefCell<Option<ShownRows>>,
}

/// The rows on the page: enough to patch a reorder in place instead of rendering 10 000 rows.
#[derive(Clone, PartialEq)]
struct ShownRows {
    load_rev: u32,
    order: Vec<RuleId>,
    /// Rows with a cursor or a decisive mark.
    marked: Vec<usize>,
}

fn shown_rows(w: &Widget) -> ShownRows {
    let mut marked: Vec<usize> = w
        .cursors()
        .iter()
        .chain(&w.decisive())
        .map(|m| m.0)
        .collect();
    marked.sort_unstable();
    marked.dedup();
    ShownRows {
        load_rev: w.load_rev,
        order: w.table().rules().iter().map(|r| r.id).collect(),
        marked,
    }
}

/// Re-renders only the rows a reorder changed (a different rule at that position, or a
/// cursor or decisive mark that came or went), when the same rows are all on the page and
/// few changed. `false` when the table must be rendered whole.
fn patch_rows(m: &Mounted, w: &Widget) -> bool {
    let now = shown_rows(w);
    let Some(before) = m.shown_rows.borrow().clone() else {
        return false;
    };
    if before.load_rev != now.load_rev || before.order.len() != now.order.len() {
        return false;
    }
    let mut rows: Vec<usize> = (0..now.order.len())
        .filter(|&i| before.order[i] != now.order[i])
        .chain(before.marked.iter().copied())
        .chain(now.marked.iter().copied())
        .collect();
    rows.sort_unstable();
    rows.dedup();
    if rows.len() > 64 {
        return false;
    }
    let Ok(Some(body)) = m.root.query_selector("tbody.pl-rules") else {
        return false;
    };
    let children = body.children();
    for i in rows {
        let mut h = H::default();
        view::rows(w, i, i + 1, &mut h);
        match children.item(i as u32) {
            Some(tr) => tr.set_outer_html(&h.s),
            None => return false,
        }
    }
    *m.shown_rows.borrow_mut() = Some(now);
    true
}

/// Mounts a widget into `host` (its content stays until now, and comes back on unmount).
pub fn mount(host: HtmlElement, config: Config) -> Rc<Mounted> {
    let lang = config.lang;
    let widget = Widget::new(config, &web::location_hash());
    let original = host.inner_html();
    let mut h = H::default();
    h.open("section")
        .a("class", "pl-widget")
        .a("lang", lang.tag())
        .gt();
    let region = |h: &mut H, name: &str| {
        h.open("div")
            .a("class", "pl-r")
            .a("data-r", name)
            .gt()
            .close("div");
    };
    region(&mut h, "head");
    h.tag("fieldset", "pl-call pl-controls")
        .raw("<legend>")
        .t(lang.s(S::Call))
        .raw("</legend>");
    region(&mut h, "callf");
    region(&mut h, "callm");
    h.close("fieldset");
    region(&mut h, "now");
    region(&mut h, "tools");
    h.raw(
        "<p class=\"pl-announce\" role=\"status\" aria-live=\"polite\" aria-atomic=\"true\"></p>",
    );
    h.raw("<div class=\"pl-main\"><div class=\"pl-table-wrap\">");
    region(&mut h, "rules");
    h.raw("</div><div class=\"pl-side\">");
    region(&mut h, "stepper");
    region(&mut h, "guesses");
    h.raw("</div></div>");
    for r in ["log", "disagree", "formula", "matrix"] {
        region(&mut h, r);
    }
    h.open("details")
        .a("class", "pl-translations")
        .a("data-act", "trans")
        .gt()
        .raw("<summary>")
        .t(lang.s(S::Translations))
        .raw("</summary>");
    region(&mut h, "trans");
    h.close("details");
    region(&mut h, "check");
    h.open("details")
        .a("class", "pl-editor pl-controls")
        .a("data-act", "editor")
        .gt()
        .raw("<summary>")
        .t(lang.s(S::EditTable))
        .raw("</summary>");
    region(&mut h, "editf");
    region(&mut h, "editm");
    h.close("details");
    h.open("details")
        .a("class", "pl-import pl-controls")
        .gt()
        .raw("<summary>")
        .t(lang.s(S::ImportTitle))
        .raw("</summary>");
    region(&mut h, "importf");
    region(&mut h, "importm");
    h.raw("</details></section>");
    host.set_inner_html(&h.s);

    let root = host
        .first_element_child()
        .unwrap_or_else(|| host.clone().into());
    let live = root
        .query_selector(".pl-announce")
        .ok()
        .flatten()
        .unwrap_or_else(|| root.clone());
    let mut regions = Vec::new();
    for name in view::REGIONS {
        if let Ok(Some(el)) = root.query_selector(&format!("[data-r=\"{name}\"]")) {
            regions.push((name, el, String::new()));
        }
    }
    let m = Rc::new(Mounted {
        host,
        original,
        root,
        live,
        w: RefCell::new(widget),
        regions: RefCell::new(regions),
        listeners: RefCell::new(Vec::new()),
        worker: RefCell::new(None),
        rules_gen: Cell::new(0),
        shown_rows: RefCell::new(None),
    });
    listen(&m);
    refresh(&m);
    if m.w.borrow().worker_import.is_some() {
        import_in_worker(&m);
    }
    if m.w.borrow().worker_lesson.is_some() {
        lesson_in_worker(&m);
    }
    m
}

/// Removes the widget: listeners off, worker stopped, the placeholder's content back.
pub fn unmount(m: &Rc<Mounted>) {
    for (target, ty, f, capture) in m.listeners.borrow_mut().drain(..) {
        let _ = target.remove_event_listener_with_callback_and_bool(
            ty,
            f.as_ref().unchecked_ref(),
            capture,
        );
    }
    if let Some(w) = m.worker.borrow_mut().take() {
        w.terminate();
    }
    m.rules_gen.set(m.rules_gen.get().wrapping_add(1));
    m.host.set_inner_html(&m.original);
}

fn on(m: &Rc<Mounted>, target: &EventTarget, ty: &'static str, passive: bool, capture: bool) {
    let weak = Rc::downgrade(m);
    let f = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
        if let Some(m) = weak.upgrade() {
            handle(&m, ty, &e);
        }
    });
    let opts = web_sys::AddEventListenerOptions::new();
    opts.set_passive(passive);
    opts.set_capture(capture);
    let _ = target.add_event_listener_with_callback_and_add_event_listener_options(
        ty,
        f.as_ref().unchecked_ref(),
        &opts,
    );
    m.listeners
        .borrow_mut()
        .push((target.clone(), ty, f, capture));
}

fn listen(m: &Rc<Mounted>) {
    let root: EventTarget = m.root.clone().into();
    for ty in [
        "click",
        "input",
        "change",
        "keydown",
        "pointerdown",
        "focusin",
    ] {
        on(m, &root, ty, false, false);
    }
    // A live touch drag must stop the page from scrolling: not passive.
    on(m, &root, "touchmove", false, false);
    // `toggle` does not bubble: listen in the capture phase.
    on(m, &root, "toggle", false, true);
    if let Some(win) = web_sys::window() {
        // Pointer drags are followed on the window: the pointer leaves the grip at once.
        let win: EventTarget = win.into();
        for ty in ["pointermove", "pointerup", "pointercancel"] {
            on(m, &win, ty, false, false);
        }
    }
}

/// The closest element with `data-act` from the event's target, inside this widget.
fn actor(m: &Mounted, e: &Event) -> Option<(Element, String, String)> {
    let el = e.target()?.dyn_into::<Element>().ok()?;
    let el = el.closest("[data-act]").ok()??;
    if !m.root.contains(Some(&el)) {
        return None;
    }
    let act = el.get_attribute("data-act")?;
    let arg = el.get_attribute("data-arg").unwrap_or_default();
    Some((el, act, arg))
}

fn value_of(el: &Element) -> String {
    if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        i.value()
    } else if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        t.value()
    } else if let Some(s) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.value()
    } else {
        String::new()
    }
}

fn rule_id(arg: &str) -> Option<RuleId> {
    arg.parse().ok().map(RuleId)
}

fn handle(m: &Rc<Mounted>, ty: &str, e: &Event) {
    match ty {
        "pointermove" => return pointer_move(m, e),
        "pointerup" | "pointercancel" => return pointer_up(m, e, ty == "pointerup"),
        "touchmove" => {
            if m.w.borrow().drag.is_some_and(|d| d.active) {
                e.prevent_default();
            }
            return;
        }
        "keydown" => return key(m, e),
        _ => {}
    }
    let Some((el, act, arg)) = actor(m, e) else {
        return;
    };
    let msg = match (ty, act.as_str()) {
        ("click", "preset") => m.w.borrow().source_of(&arg).map(Msg::Source),
        ("click", "pick") if el.tag_name() == "BUTTON" => arg.parse().ok().map(Msg::PickCall),
        ("change", "pick") => value_of(&el).parse().ok().map(Msg::PickCall),
        ("input", "tool") => Some(Msg::EditTool(value_of(&el))),
        ("input", "input") => Some(Msg::EditInput(value_of(&el))),
        ("input", "table") => Some(Msg::EditTable(value_of(&el))),
        ("input", "import-text") => Some(Msg::ImportText(value_of(&el))),
        ("change", "import-format") => Some(Msg::ImportFormat(value_of(&el))),
        ("click", "import") => Some(Msg::Import),
        ("change", "codex") => el
            .dyn_ref::<web_sys::HtmlInputElement>()
            .map(|i| Msg::Codex(i.checked())),
        ("click", "undo") => Some(Msg::Undo),
        ("click", "reset") => Some(Msg::Reset),
        ("click", "reverse") => Some(Msg::Reverse),
        ("click", "up") => rule_id(&arg).map(|id| Msg::Step(id, false)),
        ("click", "down") => rule_id(&arg).map(|id| Msg::Step(id, true)),
        ("click", "stepper") => Some(Msg::ToggleStepper),
        ("click", "step") => arg.parse().ok().map(Msg::StepBy),
        ("click", "guess") => parse_guess(&arg),
        ("click", "reveal") => EngineId::from_slug(&arg).map(Msg::Reveal),
        ("click", "again") => Some(Msg::TryAgain),
        ("click", "term") => arg.parse().ok().map(Msg::Term),
        ("click", "apply") => Some(Msg::Apply),
        ("toggle", "trans") => el
            .dyn_ref::<web_sys::HtmlDetailsElement>()
            .map(|d| Msg::Translations(d.open())),
        ("toggle", "matrix") => el
            .dyn_ref::<web_sys::HtmlDetailsElement>()
            .map(|d| Msg::Matrix(d.open())),
        ("toggle", "editor") => el
            .dyn_ref::<web_sys::HtmlDetailsElement>()
            .map(|d| Msg::Editor(d.open())),
        ("click", "copy") => {
            copy(m);
            None
        }
        ("click", "check") => {
            self_check(m);
            None
        }
        ("focusin", "select-all") => {
            if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                t.select();
            }
            None
        }
        ("pointerdown", "grip") => {
            if let (Some(id), Some(p)) = (rule_id(&arg), e.dyn_ref::<web_sys::PointerEvent>()) {
                pointer_down(m, id, &el, p);
            }
            None
        }
        _ => None,
    };
    if let Some(msg) = msg {
        m.w.borrow_mut().act(msg);
        refresh(m);
        if m.w.borrow().worker_import.is_some() {
            import_in_worker(m);
        }
    }
}

/// Sends a `.rules` file to the worker (it has the Starlark interpreter the page leaves out)
/// and loads its answer.
fn import_in_worker(m: &Rc<Mounted>) {
    let request = m.w.borrow().worker_import.clone();
    if let Some(r) = request {
        ask_worker(m, r, true);
    }
}

/// A lesson whose Codex `.rules` configs only the worker can read.
fn lesson_in_worker(m: &Rc<Mounted>) {
    let request = m.w.borrow().worker_lesson.clone();
    if let Some(r) = request {
        ask_worker(m, r, false);
    }
}

/// Sends `request` to the worker (it has the Starlark interpreter the page leaves out) and
/// hands its answer to the widget: an import's (`import`) or a lesson's.
fn ask_worker(m: &Rc<Mounted>, request: String, import: bool) {
    let script = web::absolute_url(&m.w.borrow().config.selfcheck);
    let weak: Weak<Mounted> = Rc::downgrade(m);
    let worker = Rc::new(RefCell::new(None::<web_sys::Worker>));
    let handle = worker.clone();
    let answer = move |w: &mut Widget, reply: String| {
        if import {
            w.act(Msg::ImportReply(reply));
        } else {
            w.act(Msg::LessonReply(reply));
        }
    };
    let failed = move |e: String| {
        let e = permlab_core::json::Value::from(e).to_json();
        if import {
            format!("{{\"import\": {{\"error\": {e}}}}}")
        } else {
            format!("{{\"error\": {e}}}")
        }
    };
    let started = web::run_worker(&script, &request, move |msg| {
        let Some(m) = weak.upgrade() else { return };
        let reply = match msg {
            Ok(text) if text == "done" => {
                if let Some(wk) = handle.borrow_mut().take() {
                    wk.terminate();
                }
                return;
            }
            Ok(text) => text,
            Err(e) => failed(e),
        };
        answer(&mut m.w.borrow_mut(), reply);
        refresh(&m);
    });
    match started {
        Ok(wk) => *worker.borrow_mut() = Some(wk),
        Err(e) => {
            answer(&mut m.w.borrow_mut(), failed(e));
            refresh(m);
        }
    }
}

fn parse_guess(arg: &str) -> Option<Msg> {
    let (slug, g) = arg.split_once(':')?;
    let e = EngineId::from_slug(slug)?;
    let g = match g {
        "skip" => Guess::Skip,
        "allow" => Guess::Verdict(permlab_core::Decision::Allow),
        "ask" => Guess::Verdict(permlab_core::Decision::Ask),
        "deny" => Guess::Verdict(permlab_core::Decision::Deny),
        _ => return None,
    };
    Some(Msg::Guess(e, g))
}

fn key(m: &Rc<Mounted>, e: &Event) {
    let Some(k) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
        return;
    };
    let key = k.key();
    let in_field = web::in_text_field(k);
    let act = actor(m, e);
    let undo = (k.ctrl_key() || k.meta_key()) && !k.alt_key() && key.eq_ignore_ascii_case("z");
    let msg = match act.as_ref().map(|a| a.1.as_str()) {
        // Ctrl/Cmd+Z anywhere in the widget except in a text field (where it edits the text).
        _ if undo && !in_field => Some(Msg::Undo),
        Some("grip") => act
            .as_ref()
            .and_then(|a| rule_id(&a.2))
            .map(|id| Msg::GripKey(id, key.clone(), k.alt_key())),
        _ => {
            let in_stepper = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|el| el.closest("[data-act=\"stepkeys\"]").ok().flatten())
                .is_some();
            match key.as_str() {
                "ArrowLeft" | "Left" if in_stepper && !in_field => Some(Msg::StepBy(-1)),
                "ArrowRight" | "Right" if in_stepper && !in_field => Some(Msg::StepBy(1)),
                _ => None,
            }
        }
    };
    if let Some(msg) = msg {
        if m.w.borrow_mut().act(msg) {
            e.prevent_default();
        }
        refresh(m);
    }
}

fn pointer_down(m: &Rc<Mounted>, id: RuleId, grip: &Element, e: &web_sys::PointerEvent) {
    if !e.is_primary() || e.button() != 0 {
        return;
    }
    let touch = e.pointer_type() == "touch";
    if !touch {
        e.prevent_default();
    }
    let Some(from) = m.w.borrow().position(id) else {
        return;
    };
    let pointer = e.pointer_id();
    m.w.borrow_mut().drag = Some(Drag {
        id,
        from,
        to: from,
        pointer,
        y0: f64::from(e.client_y()),
        active: !touch,
        moved: false,
    });
    // Synthetic events have no active pointer to capture: nothing to do then.
    let _ = grip.set_pointer_capture(pointer);
    if touch {
        // Hold to drag: a touch that moves first scrolls the page instead.
        let weak = Rc::downgrade(m);
        after(200, move || {
            if let Some(m) = weak.upgrade() {
                if let Some(d) =
                    m.w.borrow_mut()
                        .drag
                        .as_mut()
                        .filter(|d| d.id == id && d.pointer == pointer)
                {
                    d.active = true;
                }
            }
        });
    }
}

fn pointer_move(m: &Rc<Mounted>, e: &Event) {
    let Some(p) = e.dyn_ref::<web_sys::PointerEvent>() else {
        return;
    };
    let Some(d) = m.w.borrow().drag else { return };
    if p.pointer_id() != d.pointer {
        return;
    }
    let dy = f64::from(p.client_y()) - d.y0;
    if !d.active {
        // A touch that moves before the hold delay is a scroll: let the page have it.
        if dy.abs() > 8.0 {
            m.w.borrow_mut().drag = None;
        }
        return;
    }
    if !d.moved && dy.abs() < 4.0 {
        return;
    }
    e.prevent_default();
    let to = web::drop_index(&m.root, f64::from(p.client_y()), d.from);
    if !d.moved || to != d.to {
        m.w.borrow_mut().drag = Some(Drag {
            to,
            moved: true,
            ..d
        });
        paint(m);
    }
}

fn pointer_up(m: &Rc<Mounted>, e: &Event, commit: bool) {
    let Some(p) = e.dyn_ref::<web_sys::PointerEvent>() else {
        return;
    };
    let Some(d) = m.w.borrow().drag else { return };
    if p.pointer_id() != d.pointer {
        return;
    }
    m.w.borrow_mut().drag = None;
    if commit && d.active && d.moved && d.to != d.from {
        m.w.borrow_mut().act(Msg::Drop(d.from, d.to));
    }
    refresh(m);
}

/// The key that decides whether the rules region must be rendered again (building a
/// 10 000-row string to compare it would cost more than the comparison saves).
fn rules_key(w: &Widget) -> String {
    let mut key = w.table_rev.to_string();
    for (row, e) in w
        .cursors()
        .iter()
        .chain(&[(usize::MAX, EngineId::FirstMatch)])
        .chain(&w.decisive())
    {
        key.push(' ');
        key.push_str(&row.to_string());
        key.push_str(e.slug());
    }
    key
}

/// Renders every region whose markup changed, then the live region, the drag marks, focus
/// and the URL hash.
pub fn refresh(m: &Rc<Mounted>) {
    let w = m.w.borrow();
    let doc = web_sys::window().and_then(|w| w.document());
    for (name, el, last) in m.regions.borrow_mut().iter_mut() {
        let (markup, key) = if *name == "rules" {
            let key = rules_key(&w);
            if key == *last {
                continue;
            }
            let focused = doc
                .as_ref()
                .and_then(|d| d.active_element())
                .filter(|a| el.contains(Some(a)))
                .and_then(|a| a.get_attribute("data-k"));
            if patch_rows(m, &w) {
                *last = key;
                if let Some(k) = focused {
                    focus_key(el, &k);
                }
                continue;
            }
            // The table with its first chunk of rows; the rest follow frame by frame.
            let mut h = H::default();
            view::rules_table(&w, CHUNK, &mut h);
            (h.s, key)
        } else {
            let s = view::region(&w, name);
            if s == *last {
                continue;
            }
            (s.clone(), s)
        };
        // Focus inside a replaced region goes back to the control with the same key.
        let focused = doc
            .as_ref()
            .and_then(|d| d.active_element())
            .filter(|a| el.contains(Some(a)))
            .and_then(|a| a.get_attribute("data-k"));
        el.set_inner_html(&markup);
        *last = key;
        if *name == "rules" {
            let n = w.table().len();
            let gen = m.rules_gen.get().wrapping_add(1);
            m.rules_gen.set(gen);
            if n > CHUNK {
                *m.shown_rows.borrow_mut() = None;
                more_rows(Rc::downgrade(m), gen, CHUNK);
            } else {
                *m.shown_rows.borrow_mut() = Some(shown_rows(&w));
            }
        }
        if let Some(k) = focused {
            focus_key(el, &k);
        }
    }
    if m.live.text_content().unwrap_or_default() != w.announce {
        m.live.set_text_content(Some(&w.announce));
    }
    if let Ok(Some(tool)) = m.root.query_selector(".pl-call-tool-input") {
        let _ = tool.set_attribute(
            "aria-invalid",
            if w.tool_problem().is_some() {
                "true"
            } else {
                "false"
            },
        );
    }
    drop(w);
    paint(m);
    let mut w = m.w.borrow_mut();
    if let Some(k) = w.focus.take() {
        focus_key(&m.root, &k);
    }
    if std::mem::take(&mut w.reorder_marked) {
        // The verdicts are in and the DOM updated: measure up to the next frame.
        request_frame(|| web::mark_end("pl-reorder-frame"));
    }
    web::write_hash(&w.config.ns, &w.snapshot().to_entries());
}

/// Appends the next chunk of rows in the next frame, while this rendering is current.
fn more_rows(m: std::rc::Weak<Mounted>, gen: u32, start: usize) {
    request_frame(move || {
        let Some(m) = m.upgrade() else { return };
        if m.rules_gen.get() != gen {
            return;
        }
        let w = m.w.borrow();
        let n = w.table().len();
        let end = (start + CHUNK).min(n);
        let mut h = H::default();
        view::rows(&w, start, end, &mut h);
        if let Ok(Some(body)) = m.root.query_selector("tbody.pl-rules") {
            let _ = body.insert_adjacent_html("beforeend", &h.s);
        }
        if end < n {
            drop(w);
            paint(&m);
            more_rows(Rc::downgrade(&m), gen, end);
        } else {
            // Every row is on the page: later reorders can be patched in.
            *m.shown_rows.borrow_mut() = Some(shown_rows(&w));
            drop(w);
            paint(&m);
        }
    });
}

fn focus_key(within: &Element, key: &str) {
    let sel = format!("[data-k=\"{}\"]", key.replace(['"', '\\'], ""));
    if let Ok(Some(el)) = within.query_selector(&sel) {
        if let Some(el) = el.dyn_ref::<HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Marks the carried row and its drop target in place (see the module docs).
fn paint(m: &Mounted) {
    let Ok(marked) = m.root.query_selector_all(
        ".pl-lifted, .pl-drop-above, .pl-drop-below, .pl-grip[aria-pressed=\"true\"]",
    ) else {
        return;
    };
    for i in 0..marked.length() {
        if let Some(el) = marked.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            let _ = el
                .class_list()
                .remove_3("pl-lifted", "pl-drop-above", "pl-drop-below");
            if el.has_attribute("aria-pressed") {
                let _ = el.set_attribute("aria-pressed", "false");
            }
        }
    }
    let Some((from, to)) = m.w.borrow().target() else {
        return;
    };
    let Ok(Some(body)) = m.root.query_selector("tbody.pl-rules") else {
        return;
    };
    let rows = body.children();
    if let Some(r) = rows.item(from as u32) {
        let _ = r.class_list().add_1("pl-lifted");
        if let Ok(Some(g)) = r.query_selector(".pl-grip") {
            let _ = g.set_attribute("aria-pressed", "true");
        }
    }
    if to != from {
        if let Some(r) = rows.item(to as u32) {
            let _ = r.class_list().add_1(if to > from {
                "pl-drop-below"
            } else {
                "pl-drop-above"
            });
        }
    }
}

fn copy(m: &Rc<Mounted>) {
    let text = m.w.borrow().table().to_json();
    let weak = Rc::downgrade(m);
    wasm_bindgen_futures::spawn_local(async move {
        let r = web::copy_text(&text).await;
        if let Some(m) = weak.upgrade() {
            m.w.borrow_mut().copied = Some(r.map_err(|_| text));
            refresh(&m);
        }
    });
}

fn self_check(m: &Rc<Mounted>) {
    if m.w.borrow().checking {
        return;
    }
    let (base, script, failed) = {
        let mut w = m.w.borrow_mut();
        w.checking = true;
        w.checks.clear();
        (
            web::absolute_url(&w.config.fixtures),
            web::absolute_url(&w.config.selfcheck),
            w.lang.s(S::LoadFailed),
        )
    };
    refresh(m);
    let weak: Weak<Mounted> = Rc::downgrade(m);
    let started = web::run_worker(&script, &base, move |msg| {
        let Some(m) = weak.upgrade() else { return };
        {
            let mut w = m.w.borrow_mut();
            match msg {
                Ok(text) if text == "done" => {
                    w.checking = false;
                    if let Some(wk) = m.worker.borrow_mut().take() {
                        wk.terminate();
                    }
                }
                Ok(text) => w.checks.push(parse_check(&text)),
                Err(e) => {
                    w.checking = false;
                    w.checks.push((failed.to_string(), Err(e)));
                }
            }
        }
        refresh(&m);
    });
    match started {
        Ok(wk) => *m.worker.borrow_mut() = Some(wk),
        Err(e) => {
            {
                let mut w = m.w.borrow_mut();
                w.checking = false;
                w.checks = vec![(failed.to_string(), Err(e))];
            }
            refresh(m);
        }
    }
}

fn request_frame(f: impl FnOnce() + 'static) {
    if let Some(w) = web_sys::window() {
        let cb = Closure::once_into_js(f);
        let _ = w.request_animation_frame(cb.unchecked_ref());
    }
}

fn after(ms: i32, f: impl FnOnce() + 'static) {
    if let Some(w) = web_sys::window() {
        let cb: JsValue = Closure::once_into_js(f);
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), ms);
    }
}
