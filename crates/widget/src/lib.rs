//! # permlab-widget
//!
//! The lesson widget over `permlab-core`. Every verdict, match and cursor position comes from
//! the core; this crate only presents it.
//!
//! Plain-Rust modules (tested natively): [`model`] (one widget's state and what each learner
//! action does), [`state`] (order, undo, guesses, stepper, reorder log), [`i18n`]
//! (every string, zh-CN and en), [`persist`] + [`store`] (what the learner did, kept in
//! `sessionStorage`; [`hash`] reads old-format links), [`presets`] (the lesson's tables and
//! calls), the model's verdicts (the engines, compiled once per order) and
//! [`protocol`] (the typed worker protocol: `Request`/`Reply` through `serde-wasm-bindgen`).
//!
//! In the browser only (wasm32): `ui` is the table widget as Leptos 0.8 CSR components — the
//! [`Widget`] in one signal, a `Memo` per region, keyed rows with their own signals — and
//! `api` the JS API (`evaluate`, the `permlab:*` events). The scenes are Leptos components too
//! (`scenes`, mounted by `scenes::host`, in the page bundle `permlab-widget`; the feature
//! `scenes`, on by default, is off in the table-only bundle `permlab-table`), and `web`
//! holds the few browser calls.
//!
//! Exported to JavaScript: [`mount`] (an element and a lesson object or its JSON text →
//! [`Handle`]), [`mount_all`], `evaluate` (see `api`).

#![forbid(unsafe_code)]
// Under `cargo test` the scenes' views are compiled for HTML rendering too (tachys `ssr`, a
// dev-dependency, see `scenes::html`): their types nest deeper than the default limit.
#![recursion_limit = "256"]

#[cfg(target_arch = "wasm32")]
pub mod api;
pub mod browser;
pub mod model;
pub mod persist;
pub mod presets;
pub mod protocol;
pub mod rows_window;
#[cfg(feature = "scenes")]
pub mod scenes;
pub mod state;
#[cfg(all(test, feature = "scenes"))]
mod statements;
pub mod tasks;
pub mod text;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod worker;

pub use model::{Config, Widget};
pub use text::i18n::Lang;

use wasm_bindgen::prelude::*;

/// Whether this wasm mounts components: the page's does; the worker's (feature `worker`) links
/// this crate for its readers and the self-check and mounts nothing. Every path to a component
/// returns early there, so none is linked into the worker (measured: the scenes would add
/// 134 KB brotli to it).
const MOUNTS: bool = !cfg!(feature = "worker");

/// A mounted widget or scene, as returned to JavaScript by [`mount`].
#[wasm_bindgen]
pub struct Handle {
    inner: Option<Mounted>,
}

enum Mounted {
    #[cfg(target_arch = "wasm32")]
    Table(ui::Mounted),
    /// A scene (see `scenes::host`).
    #[cfg(feature = "scenes")]
    Scene(scenes::host::MountedScene),
}

#[wasm_bindgen]
impl Handle {
    /// Removes the widget and puts the placeholder's own content back.
    pub fn unmount(&mut self) {
        if !MOUNTS {
            return;
        }
        match self.inner.take() {
            #[cfg(target_arch = "wasm32")]
            Some(Mounted::Table(mut m)) => ui::unmount(&mut m),
            #[cfg(feature = "scenes")]
            Some(Mounted::Scene(mut m)) => scenes::host::unmount(&mut m),
            None => {}
        }
    }

    /// The learner's state as a JSON value the host may store (an LMS's suspend data) and give
    /// back to [`Handle::restore`], on this page or another: `{format: "permlab-state",
    /// version, widget, state}`. `null` for a scene or an unmounted widget.
    pub fn state(&self) -> JsValue {
        if !MOUNTS {
            return JsValue::NULL;
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(Mounted::Table(m)) = &self.inner {
            if let Some(text) = ui::state_text(m) {
                let saved = persist::saved::Saved::new(&ui::config(m).ns, text);
                return serde::Serialize::serialize(
                    &saved,
                    &serde_wasm_bindgen::Serializer::json_compatible(),
                )
                .unwrap_or(JsValue::NULL);
            }
        }
        JsValue::NULL
    }

    /// Puts back a state [`Handle::state`] gave (the widget mounts again where the learner
    /// was). Throws, and changes nothing, when `state` is not such a value, is damaged, or
    /// was saved with another lesson.
    pub fn restore(&mut self, state: JsValue) -> Result<(), JsError> {
        #[cfg(target_arch = "wasm32")]
        if let (true, Some(Mounted::Table(m))) = (MOUNTS, &mut self.inner) {
            let saved: persist::saved::Saved = serde_wasm_bindgen::from_value(state)
                .map_err(|_| JsError::new(persist::saved::NOT_A_STATE))?;
            let config = ui::config(m);
            let text = saved
                .for_widget(&config.ns, config.lesson.as_deref())
                .map_err(|e| JsError::new(&e))?;
            ui::remount(m, Some(&text));
            return Ok(());
        }
        let _ = state;
        Err(JsError::new(
            "permlab: restore() applies to a mounted table widget (a scene keeps no state to restore)",
        ))
    }

    /// Starts the widget over: the lesson's first preset and order, no guesses, no answers,
    /// no ticks; the stored state is removed. The host hears `permlab:ready` again.
    pub fn reset(&mut self) {
        #[cfg(target_arch = "wasm32")]
        if let (true, Some(Mounted::Table(m))) = (MOUNTS, &mut self.inner) {
            ui::remount(m, None);
        }
    }
}

/// Mounts the table widget, or the scene named by the host's `data-scene` (an unknown slug
/// shows the list of known ones). The page bundle holds both, so a page with tables and scenes
/// pays for the core and Leptos once; the table-only bundle has no scenes and leaves a scene's
/// placeholder as it is, with a note (docs/DESIGN.md, "Bundles").
fn mount_host(host: web_sys::HtmlElement, config: Config) -> Option<Mounted> {
    #[cfg(not(feature = "scenes"))]
    if host.has_attribute("data-scene") {
        no_scenes_here(&host, config.lang);
        return None;
    }
    #[cfg(feature = "scenes")]
    if let Some(slug) = host.get_attribute("data-scene") {
        let lang = config.lang;
        return Some(Mounted::Scene(
            match scenes::build(&slug, lang, config.lesson.as_deref()) {
                Some(scene) => scenes::host::mount(host, &slug, lang, scene),
                None => {
                    let unknown = slug.clone();
                    scenes::host::mount(host, &slug, lang, move || {
                        leptos::view! { <scenes::Unknown slug=unknown/> }
                    })
                }
            },
        ));
    }
    #[cfg(target_arch = "wasm32")]
    return Some(Mounted::Table(ui::mount(host, config)));
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (host, config);
        unreachable!("the table mounts only in the browser")
    }
}

fn config_of(host: &web_sys::HtmlElement, index: usize, lesson: Option<String>) -> Config {
    let doc = host.owner_document();
    let attr = |name: &str| host.get_attribute(name).filter(|v| !v.is_empty());
    let page_lang = doc
        .as_ref()
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .unwrap_or_default();
    // A lesson given to `mount` wins; else the `data-lesson` selector (kept, so the widget can
    // say when it finds nothing, or when the selector is not a valid one).
    let lesson_from = if lesson.is_some() {
        None
    } else {
        attr("data-lesson")
    };
    let lesson = lesson.or_else(|| {
        let sel = lesson_from.as_ref()?;
        doc.as_ref()?.query_selector(sel).ok()??.text_content()
    });
    Config {
        lang: Lang::from_tag(&attr("data-lang").unwrap_or(page_lang)),
        ns: attr("id").unwrap_or_else(|| format!("pl{index}")),
        fixtures: attr("data-fixtures").unwrap_or_else(|| "conformance/".into()),
        selfcheck: attr("data-selfcheck").unwrap_or_else(|| "selfcheck-loader.js".into()),
        lesson,
        lesson_from,
    }
}

/// Mounts a widget in `element`. `lesson` is a lesson (lesson format) or a table (fixtures
/// format), as an object or as its JSON text (else the element's `data-lesson` selector, else
/// the built-in presets). The element's attributes
/// configure it as for [`mount_all`].
#[wasm_bindgen]
pub fn mount(element: web_sys::HtmlElement, lesson: JsValue) -> Handle {
    if !MOUNTS {
        return Handle { inner: None };
    }
    // A lesson object is read as its JSON text (the lesson reader says where it is wrong).
    let lesson = if lesson.is_undefined() || lesson.is_null() {
        None
    } else if let Some(text) = lesson.as_string() {
        Some(text)
    } else {
        js_sys::JSON::stringify(&lesson)
            .ok()
            .and_then(|s| s.as_string())
    };
    let config = config_of(&element, 0, lesson);
    Handle {
        inner: mount_host(element, config),
    }
}

/// A scene's placeholder reached the table-only bundle (a page that loads `permlab-table`
/// itself instead of through the loader, which gives scenes the page bundle): its static
/// content stays, under a note in the learner's language; the console tells the author why.
#[cfg(not(feature = "scenes"))]
fn no_scenes_here(host: &web_sys::HtmlElement, lang: Lang) {
    leptos::logging::error!(
        "permlab: this page loaded the table-only bundle (permlab-table), which has no scenes; \
         load the widget with permlab.js, which picks the bundle with scenes for this page"
    );
    let Some(note) = host
        .owner_document()
        .and_then(|d| d.create_element("p").ok())
    else {
        return;
    };
    note.set_class_name("pl-load-error");
    let _ = note.set_attribute("role", "alert");
    note.set_text_content(Some(match lang {
        Lang::Zh => "这个交互场景没能加载,下面是本节的静态内容。",
        Lang::En => {
            "This interactive scene could not be loaded; the static content below still applies."
        }
    }));
    let _ = host.prepend_with_node_1(&note);
}

/// Whether a page loader (`permlab.js`) drives mounting: it sets `globalThis.permlabLoader`
/// before starting the wasm, then mounts each placeholder as it nears the viewport.
fn loader_present() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("permlabLoader")).unwrap_or(false)
}

/// Runs when the wasm starts: mounts every table and scene placeholder at once, unless a loader
/// drives mounting (see `loader_present`).
pub fn start() {
    if !loader_present() {
        mount_all();
    }
}

/// Mounts a widget on every `[data-permlab]` element of the page (or one at the end of
/// `<body>` when there is none). Each takes `data-lang` (else `<html lang>`), its `id` as the
/// namespace of its stored state and element ids, `data-fixtures` (URL prefix of the
/// conformance files, default `conformance/`), `data-selfcheck` (the self-check worker's loader, default
/// `selfcheck-loader.js`), `data-lesson` (`#id` of a `<script type="application/json">` table)
/// and `data-scene` (a scene's slug instead of the table widget, see [`scenes`]).
#[wasm_bindgen]
pub fn mount_all() {
    if !MOUNTS {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = "[data-permlab]";
    let mut hosts = Vec::new();
    if let Ok(list) = doc.query_selector_all(selector) {
        for i in 0..list.length() {
            if let Some(el) = list.item(i).and_then(|n| n.dyn_into().ok()) {
                hosts.push(el);
            }
        }
    }
    if hosts.is_empty() {
        if let (Some(body), Ok(el)) = (doc.body(), doc.create_element("div")) {
            let _ = body.append_child(&el);
            if let Ok(el) = el.dyn_into() {
                hosts.push(el);
            }
        }
    }
    for (i, host) in hosts.into_iter().enumerate() {
        let config = config_of(&host, i, None);
        // Mounted for the page's lifetime.
        std::mem::forget(mount_host(host, config));
    }
}
