//! # permlab-widget
//!
//! The lesson widget: Leptos (CSR) components over `permlab-core`. Every verdict, match and
//! cursor position comes from the core; this crate only presents and animates them.
//!
//! Plain-Rust modules (tested natively): [`state`] (order, undo, guesses, stepper, reorder
//! log), [`i18n`] (every string, zh-CN and en), [`persist`] + [`hash`] (the URL hash),
//! [`presets`] (the lesson's tables and calls, the OpenCode `permission` object) and
//! [`compute`] (the engines, compiled once per order). [`app`] holds the components and
//! `web` the few browser calls.

#![forbid(unsafe_code)]

pub mod app;
pub mod compute;
pub mod hash;
pub mod i18n;
pub mod persist;
pub mod presets;
pub mod state;
mod web;

pub use app::{App, Config};
pub use i18n::Lang;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Mounts a widget on every `[data-permlab]` element of the page (or one at the end of
/// `<body>` when there is none). Each takes `data-lang` (else `<html lang>`), its `id` as the
/// URL-hash namespace, `data-fixtures` (URL prefix of the conformance files, default
/// `conformance/`), `data-selfcheck` (the self-check worker's loader, default
/// `selfcheck-loader.js`) and `data-lesson` (`#id` of a `<script type="application/json">` table).
pub fn mount_all() {
    let doc = document();
    let page_lang = doc
        .document_element()
        .and_then(|e| e.get_attribute("lang"))
        .unwrap_or_default();
    let mut hosts = Vec::new();
    if let Ok(list) = doc.query_selector_all("[data-permlab]") {
        for i in 0..list.length() {
            if let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
            {
                hosts.push(el);
            }
        }
    }
    if hosts.is_empty() {
        if let (Some(body), Ok(el)) = (doc.body(), doc.create_element("div")) {
            let _ = body.append_child(&el);
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                hosts.push(el);
            }
        }
    }
    for (i, host) in hosts.into_iter().enumerate() {
        let attr = |name: &str| host.get_attribute(name).filter(|v| !v.is_empty());
        let lang = Lang::from_tag(&attr("data-lang").unwrap_or_else(|| page_lang.clone()));
        let ns = attr("id").unwrap_or_else(|| format!("pl{i}"));
        let fixtures = attr("data-fixtures").unwrap_or_else(|| "conformance/".into());
        let selfcheck = attr("data-selfcheck").unwrap_or_else(|| "selfcheck-loader.js".into());
        let lesson = attr("data-lesson").and_then(|sel| {
            doc.query_selector(&sel)
                .ok()
                .flatten()
                .and_then(|el| el.text_content())
        });
        // The placeholder ("loading…", static fallback) makes way for the live widget.
        host.set_inner_html("");
        let config = Config {
            lang,
            ns,
            fixtures,
            selfcheck,
            lesson,
        };
        leptos::mount::mount_to(host, move || view! { <App config/> }).forget();
    }
}
