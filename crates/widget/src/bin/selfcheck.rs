//! The self-check worker: runs the conformance fixtures (expected values from the real
//! harnesses) through `permlab_core::conformance::run`, off the page's main thread.
//!
//! It is a separate wasm, loaded only when the learner asks for the self-check: the runners
//! (and Codex's `.rules` interpreter they need) stay out of the widget's own download, and the
//! fixtures are fetched as files, never compiled in.
//!
//! It also reads pasted Codex `.rules` files for the import panel: a message that is a JSON
//! object (`{"import": "codex", "text": …}`) gets one answer (`{"import": {…}}`, see
//! `permlab_widget::app::import_reply`), then `done`; `{"lesson": …}` gets the lesson with its
//! Codex `.rules` configs read into rows (`permlab_widget::app::worker_reply`).
//!
//! Protocol: the worker posts `ready`; the page then posts the fixtures' base URL (absolute,
//! ending in `/`); the worker posts back one JSON object per fixture file, `{"name", "ok":
//! true, "sections": [[name, passed, total], …]}` or `{"name", "ok": false, "error"}`, then
//! the string `done`.

use permlab_core::json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The fixture files and the names the panel shows.
const FILES: [(&str, &str); 7] = [
    ("OpenCode", "opencode"),
    ("Claude Code", "claude-code"),
    ("Claude Code CLI 2.1.332", "claude-code-real"),
    ("CoreCoder", "corecoder"),
    ("Codex", "codex"),
    ("Codex CLI 0.171.0", "codex-real"),
    ("lcc", "lcc"),
];

async fn fetch_text(scope: &web_sys::WorkerGlobalScope, url: &str) -> Result<String, String> {
    let resp = JsFuture::from(scope.fetch_with_str(url))
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

async fn check(scope: &web_sys::WorkerGlobalScope, base: &str, name: &str, file: &str) -> Value {
    let mut out = vec![("name".to_string(), Value::from(name))];
    let result = match fetch_text(scope, &format!("{base}{file}.json")).await {
        Ok(text) => permlab_core::conformance::run(&text).map_err(|e| e.to_string()),
        Err(e) => Err(e),
    };
    match result {
        Ok(reports) => {
            out.push(("ok".into(), Value::from(true)));
            let sections = reports
                .iter()
                .map(|r| {
                    Value::Array(vec![
                        Value::from(r.section.as_str()),
                        Value::from(r.passed),
                        Value::from(r.passed + r.failed()),
                    ])
                })
                .collect();
            out.push(("sections".into(), Value::Array(sections)));
        }
        Err(e) => {
            out.push(("ok".into(), Value::from(false)));
            out.push(("error".into(), Value::from(e)));
        }
    }
    Value::Object(out)
}

fn main() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let worker = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some(base) = e.data().as_string() else {
                return;
            };
            let scope = worker.clone();
            if base.starts_with('{') {
                // A pasted Codex .rules file to read (the page has no Starlark interpreter).
                let reply = permlab_widget::app::worker_reply(&base);
                let _ = scope.post_message(&JsValue::from_str(&reply));
                let _ = scope.post_message(&JsValue::from_str("done"));
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                let global: &web_sys::WorkerGlobalScope = scope.unchecked_ref();
                for (name, file) in FILES {
                    let v = check(global, &base, name, file).await;
                    let _ = scope.post_message(&JsValue::from_str(&v.to_json()));
                }
                let _ = scope.post_message(&JsValue::from_str("done"));
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // A message posted before the handler existed would be lost: say when to send it.
    let _ = scope.post_message(&JsValue::from_str("ready"));
}
