//! The few browser calls the widget makes (hash, session storage, clipboard, workers, layout),
//! each failing quietly: a missing API degrades one feature, never the page.

// The table page (src/ui.rs) is wasm-only: natively these are unused.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::protocol::{Reply, Request};

/// The page's `location.hash` (with `#`), or empty.
pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Whether a key event comes from a text field (where Ctrl+Z belongs to the field).
pub fn in_text_field(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Where a dragged row (now at `from`) lands if dropped at viewport `y`. The other rendered
/// rows' middles are in order (a windowed table renders a slice of them: positions are read
/// from `data-position`), so a binary search finds how many lie above the pointer; the row
/// lands after the last of those.
pub fn drop_index(root: &web_sys::Element, y: f64, from: usize) -> usize {
    let Ok(Some(body)) = root.query_selector("tbody.pl-rules") else {
        return from;
    };
    let Ok(list) = body.query_selector_all("tr[data-position]") else {
        return from;
    };
    let rows: Vec<(usize, web_sys::Element)> = (0..list.length())
        .filter_map(|i| {
            let r = list.item(i)?.dyn_into::<web_sys::Element>().ok()?;
            let pos = r.get_attribute("data-position")?.parse::<usize>().ok()?;
            (pos >= 1 && pos - 1 != from).then_some((pos - 1, r))
        })
        .collect();
    let mid = |r: &web_sys::Element| {
        let b = r.get_bounding_client_rect();
        b.top() + b.height() / 2.0
    };
    let (mut lo, mut hi) = (0, rows.len());
    while lo < hi {
        let m = (lo + hi) / 2;
        if mid(&rows[m].1) < y {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    let positions: Vec<usize> = rows.iter().map(|r| r.0).collect();
    crate::rows_window::landing(&positions, lo, from)
}

/// Copies `text` with the Clipboard API; `Err` when unavailable or refused (the caller shows
/// a read-only textarea instead).
pub async fn copy_text(text: &str) -> Result<(), ()> {
    let w = web_sys::window().ok_or(())?;
    let nav = w.navigator();
    let has = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard"))
        .map(|v| !v.is_undefined() && !v.is_null())
        .unwrap_or(false);
    if !has {
        return Err(());
    }
    JsFuture::from(nav.clipboard().write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| ())
}

/// `rel` resolved against the page's base URL.
pub fn absolute_url(rel: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(rel, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| rel.to_string())
}

/// Starts the worker at `script`, posts `request` to it once it says [`Reply::Ready`], and
/// hands every other reply to `on_reply`; `Err(text)` when the worker fails or sends what is
/// not a reply. The worker is terminated after [`Reply::Done`].
///
/// Both directions are plain JS objects made by `serde-wasm-bindgen` (see [`crate::protocol`]).
pub fn run_worker(
    script: &str,
    request: &Request,
    on_reply: impl Fn(Result<Reply, String>) + 'static,
) -> Result<web_sys::Worker, String> {
    use wasm_bindgen::closure::Closure;
    let message = serde_wasm_bindgen::to_value(request).map_err(|e| e.to_string())?;
    let worker = web_sys::Worker::new(script).map_err(|e| format!("{e:?}"))?;
    let on_reply = std::rc::Rc::new(on_reply);
    let ok = on_reply.clone();
    let w = worker.clone();
    let on_msg = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        match serde_wasm_bindgen::from_value::<Reply>(e.data()) {
            // The worker's handler exists only once its wasm has loaded: it says so first.
            Ok(Reply::Ready) => {
                if let Err(e) = w.post_message(&message) {
                    ok(Err(format!("{e:?}")));
                }
            }
            Ok(Reply::Done) => {
                w.terminate();
                ok(Ok(Reply::Done));
            }
            Ok(reply) => ok(Ok(reply)),
            Err(e) => ok(Err(format!("unexpected message from the worker: {e}"))),
        }
    });
    let on_err = Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        on_reply(Err(format!("{} ({})", e.message(), e.filename())));
    });
    worker.set_onmessage(Some(on_msg.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_err.as_ref().unchecked_ref()));
    on_msg.forget();
    on_err.forget();
    Ok(worker)
}

/// The page's path (`location.pathname`): with the widget's id, the key of its stored state.
pub fn page_path() -> String {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default()
}

/// `sessionStorage`, when the page may use it (a sandboxed frame or a disabled storage throws).
fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The stored item `key`, if any.
pub fn session_get(key: &str) -> Option<String> {
    session()?.get_item(key).ok()?
}

/// Stores `value` under `key`; `false` when the browser refuses (quota, no storage).
pub fn session_set(key: &str, value: &str) -> bool {
    session().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Removes a `sessionStorage` item (nothing when the page may not use the storage).
pub fn session_remove(key: &str) {
    if let Some(s) = session() {
        let _ = s.remove_item(key);
    }
}

/// Removes this widget's old-format entries from the URL hash, without a history entry and
/// keeping the host's own fragment as it was (see [`crate::persist::store::strip_hash`]).
pub fn strip_hash(ns: &str) {
    let Some(w) = web_sys::window() else { return };
    let Some(new) = crate::persist::store::strip_hash(&location_hash(), ns) else {
        return;
    };
    let url = if new.is_empty() {
        let l = w.location();
        format!(
            "{}{}",
            l.pathname().unwrap_or_default(),
            l.search().unwrap_or_default()
        )
    } else {
        format!("#{new}")
    };
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// How many elements of `host`'s page match `selector` and `is_peer` (the elements that would
/// keep their state under one name), and `host`'s rank among them in page order; `None` when
/// `host` is the only one.
pub fn rank_among(
    host: &web_sys::Element,
    selector: &str,
    is_peer: impl Fn(&web_sys::Element) -> bool,
) -> Option<(usize, usize)> {
    use wasm_bindgen::JsCast;
    let all = host.owner_document()?.query_selector_all(selector).ok()?;
    let (mut count, mut rank) = (0, None);
    for i in 0..all.length() {
        let Some(el) = all
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        if is_peer(&el) {
            if host.is_same_node(Some(&el)) {
                rank = Some(count);
            }
            count += 1;
        }
    }
    (count > 1).then(|| (count, rank.unwrap_or(count)))
}

/// When other elements of `host`'s page have its id: the note that says so, with the
/// namespace `host` keeps its state under (the first keeps the id, see
/// [`crate::persist::store::same_id_ns`]). `None` for a unique or empty id.
pub fn same_id(host: &web_sys::Element) -> Option<crate::persist::store::Note> {
    let id = host.id();
    if id.is_empty() {
        return None;
    }
    let (count, rank) = rank_among(host, "[id]", |el| el.id() == id)?;
    Some(crate::persist::store::Note::SameId {
        key: crate::persist::store::same_id_ns(&id, rank),
        id,
        count,
    })
}
