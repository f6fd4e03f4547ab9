//! The few browser calls the widget makes (hash, performance marks, clipboard, fetch, layout),
//! each failing quietly: a missing API degrades one feature, never the page.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The page's `location.hash` (with `#`), or empty.
pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces this widget's entries in the hash without a history entry.
pub fn write_hash(ns: &str, entries: &[(&str, String)]) {
    let Some(w) = web_sys::window() else { return };
    let old = location_hash();
    let new = crate::hash::write(&old, ns, entries);
    if new == old.trim_start_matches('#') {
        return;
    }
    let url = if new.is_empty() {
        // Drop the `#` altogether: path and query stay.
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

fn performance() -> Option<web_sys::Performance> {
    web_sys::window()?.performance()
}

/// `performance.mark("<name>-start")`.
pub fn mark_start(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(&format!("{name}-start"));
    }
}

/// `performance.mark("<name>-end")` and a measure `<name>` between the two marks.
pub fn mark_end(name: &str) {
    if let Some(p) = performance() {
        let end = format!("{name}-end");
        let _ = p.mark(&end);
        let _ = p.measure_with_start_mark_and_end_mark(name, &format!("{name}-start"), &end);
    }
}

/// Whether a key event comes from a text field (where Ctrl+Z belongs to the field).
pub fn in_text_field(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Where a dragged row (now at `from`) lands if dropped at viewport `y`: the rows' middles are
/// in order, so a binary search finds how many lie above the pointer.
pub fn drop_index(root: &web_sys::Element, y: f64, from: usize) -> usize {
    let Ok(Some(body)) = root.query_selector("tbody.pl-rules") else {
        return from;
    };
    let rows = body.children();
    let n = rows.length() as usize;
    if n == 0 {
        return from;
    }
    let mid = |i: usize| {
        rows.item(i as u32)
            .map(|r| {
                let b = r.get_bounding_client_rect();
                b.top() + b.height() / 2.0
            })
            .unwrap_or(f64::MAX)
    };
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let m = (lo + hi) / 2;
        if mid(m) < y {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    // `lo` rows lie above the pointer; the dragged row is one of them when it started above.
    let to = if from < lo { lo - 1 } else { lo };
    to.min(n - 1)
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

/// GETs `url` (relative to the page) as text.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let w = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!("HTTP {} for {url}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    text.as_string().ok_or_else(|| "not text".to_string())
}
