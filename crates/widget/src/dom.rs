//! The scenes' host: builds a scene's skeleton in the host element, turns its DOM events into
//! [`crate::scenes::Event`]s (one delegated listener per event type, reading `data-act`),
//! renders the scene's markup when it changed, keeps focus and the caret where they were, and
//! says the changed `[data-live]` texts in a persistent live region.
//!
//! (The table widget is the Leptos page of [`crate::ui`].)

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, EventTarget, HtmlElement};

use crate::html::H;

type Listener = (EventTarget, &'static str, Closure<dyn FnMut(Event)>, bool);

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

fn focus_key(within: &Element, key: &str) {
    let sel = format!("[data-k=\"{}\"]", key.replace(['"', '\\'], ""));
    if let Ok(Some(el)) = within.query_selector(&sel) {
        if let Some(el) = el.dyn_ref::<HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// One mounted scene (see [`crate::scenes`]).
pub struct MountedScene {
    host: HtmlElement,
    original: String,
    root: Element,
    /// What the scene renders into (the whole markup is replaced on each change).
    body: Element,
    /// A live region that outlives renders: it says the texts of the scene's `[data-live]`
    /// elements that changed (a region inserted anew is not reliably announced).
    live: Option<Element>,
    /// The `[data-live]` texts of the last render.
    live_texts: RefCell<Vec<String>>,
    scene: RefCell<Box<dyn crate::scenes::Scene>>,
    last: RefCell<String>,
    listeners: RefCell<Vec<Listener>>,
}

/// Mounts `scene` into `host` (whose content comes back on [`unmount_scene`]).
pub fn mount_scene(
    host: HtmlElement,
    scene: Box<dyn crate::scenes::Scene>,
    lang: crate::Lang,
    slug: &str,
) -> Rc<MountedScene> {
    let original = host.inner_html();
    let mut h = H::default();
    h.open("section")
        .a("class", "pl-widget pl-scene")
        .a("lang", lang.tag())
        .a("data-scene", slug)
        .gt()
        .raw("<div class=\"pl-scene-body\"></div>")
        .raw("<p class=\"pl-sr pl-scene-live\" role=\"status\" aria-live=\"polite\"></p>")
        .close("section");
    host.set_inner_html(&h.s);
    let root = host
        .first_element_child()
        .unwrap_or_else(|| host.clone().into());
    let body = root.first_element_child().unwrap_or_else(|| root.clone());
    let live = root.last_element_child().filter(|l| *l != body);
    let m = Rc::new(MountedScene {
        host,
        original,
        root,
        body,
        live,
        live_texts: RefCell::new(Vec::new()),
        scene: RefCell::new(scene),
        last: RefCell::new(String::new()),
        listeners: RefCell::new(Vec::new()),
    });
    let target: EventTarget = m.root.clone().into();
    for ty in ["click", "change", "input", "keydown", "compositionend"] {
        let weak = Rc::downgrade(&m);
        let f = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            if let Some(m) = weak.upgrade() {
                scene_event(&m, ty, &e);
            }
        });
        let _ = target.add_event_listener_with_callback(ty, f.as_ref().unchecked_ref());
        m.listeners
            .borrow_mut()
            .push((target.clone(), ty, f, false));
    }
    render_scene(&m);
    m
}

/// Removes a scene and puts the placeholder's content back.
pub fn unmount_scene(m: &Rc<MountedScene>) {
    for (target, ty, f, capture) in m.listeners.borrow_mut().drain(..) {
        let _ = target.remove_event_listener_with_callback_and_bool(
            ty,
            f.as_ref().unchecked_ref(),
            capture,
        );
    }
    m.host.set_inner_html(&m.original);
}

fn scene_event(m: &Rc<MountedScene>, ty: &str, e: &Event) {
    if ty == "compositionend" {
        // The composed text arrived in `input` events that did not render (see below).
        render_scene(m);
        return;
    }
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|el| el.closest("[data-act]").ok().flatten())
        .filter(|el| m.root.contains(Some(el)))
    else {
        return;
    };
    let act = el.get_attribute("data-act").unwrap_or_default();
    let arg = el.get_attribute("data-arg").unwrap_or_default();
    let value = match ty {
        "keydown" => e
            .dyn_ref::<web_sys::KeyboardEvent>()
            .map(|k| k.key())
            .unwrap_or_default(),
        _ => match el.dyn_ref::<web_sys::HtmlInputElement>() {
            Some(i) if i.type_() == "checkbox" => i.checked().to_string(),
            _ => value_of(&el),
        },
    };
    let event = crate::scenes::Event {
        kind: ty,
        act: &act,
        arg: &arg,
        value: &value,
    };
    if m.scene.borrow_mut().act(&event) {
        if ty == "keydown" {
            e.prevent_default();
        }
        // Rewriting a field mid-composition would break an IME (拼音): render at
        // `compositionend` instead.
        let composing = ty == "input"
            && js_sys::Reflect::get(e, &JsValue::from_str("isComposing"))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
        if !composing {
            render_scene(m);
        }
    }
}

fn render_scene(m: &Rc<MountedScene>) {
    let markup = m.scene.borrow().render();
    if *m.last.borrow() == markup {
        return;
    }
    let first = m.last.borrow().is_empty();
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .filter(|a| m.root.contains(Some(a)));
    let focused = active.as_ref().and_then(|a| a.get_attribute("data-k"));
    // A text field being typed in is rewritten too: keep its caret and scroll.
    let caret = active.as_ref().and_then(caret_of);
    m.body.set_inner_html(&markup);
    *m.last.borrow_mut() = markup;
    announce_scene(m, first);
    if let Some(k) = focused {
        focus_key(&m.root, &k);
        if let (Some(c), Some(el)) = (caret, active_in(&m.root, &k)) {
            set_caret(&el, c);
        }
    }
}

/// Says the `[data-live]` texts that changed since the last render (nothing on the first).
fn announce_scene(m: &MountedScene, first: bool) {
    let Some(live) = &m.live else { return };
    let Ok(list) = m.body.query_selector_all("[data-live]") else {
        return;
    };
    let texts: Vec<String> = (0..list.length())
        .filter_map(|i| list.item(i)?.text_content())
        .collect();
    let mut before = m.live_texts.borrow_mut();
    let changed: Vec<&str> = texts
        .iter()
        .enumerate()
        .filter(|(i, t)| before.get(*i) != Some(*t))
        .map(|(_, t)| t.as_str())
        .collect();
    if !first && !changed.is_empty() {
        live.set_text_content(Some(&changed.join(" · ")));
    }
    *before = texts;
}

/// A text field's selection and scroll position.
type Caret = (u32, u32, i32);

fn caret_of(el: &Element) -> Option<Caret> {
    if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        return Some((
            t.selection_start().ok()??,
            t.selection_end().ok()??,
            el.scroll_top(),
        ));
    }
    let i = el.dyn_ref::<web_sys::HtmlInputElement>()?;
    Some((
        i.selection_start().ok()??,
        i.selection_end().ok()??,
        el.scroll_top(),
    ))
}

fn active_in(root: &Element, key: &str) -> Option<Element> {
    let sel = format!("[data-k=\"{}\"]", key.replace(['"', '\\'], ""));
    root.query_selector(&sel).ok()?
}

fn set_caret(el: &Element, (start, end, top): Caret) {
    if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        let _ = t.set_selection_range(start, end);
    } else if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        let _ = i.set_selection_range(start, end);
    }
    el.set_scroll_top(top);
}
