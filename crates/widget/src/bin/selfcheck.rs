//! The self-check worker: runs the conformance fixtures (`protocol::FIXTURES`: each named by
//! where its expected values come from — recorded from the CLI, pinned to the source, or from
//! the documentation) through `permlab_core::conformance::run`, off the page's main thread.
//!
//! It is a separate wasm, loaded only when the learner asks for the self-check: the runners
//! (and Codex's `.rules` interpreter they need) stay out of the widget's own download, and the
//! fixtures are fetched as files, never compiled in.
//!
//! It also reads pasted Codex `.rules` files for the import panel and the Codex `.rules`
//! configs of lessons.
//!
//! Protocol (typed, see `permlab_widget::protocol`; plain JS objects through
//! `serde-wasm-bindgen`): the worker posts `Reply::Ready`; the page posts one `Request`; the
//! worker answers (`SelfCheck`: one `Reply::Check` per fixture file; `Import`, `Lesson`: one
//! reply) and ends with `Reply::Done`.

use permlab_widget::protocol::{Fixture, Reply, Request, Section, WorkerError, FIXTURES};
use permlab_widget::worker;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A JavaScript exception as the protocol carries it.
fn crashed(e: JsValue) -> WorkerError {
    WorkerError::Crashed(format!("{e:?}"))
}

async fn fetch_text(scope: &web_sys::WorkerGlobalScope, url: &str) -> Result<String, WorkerError> {
    let resp = JsFuture::from(scope.fetch_with_str(url))
        .await
        .map_err(crashed)?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| WorkerError::Crashed("not a response".into()))?;
    if !resp.ok() {
        return Err(WorkerError::Http {
            status: resp.status(),
            url: url.to_string(),
        });
    }
    let text = JsFuture::from(resp.text().map_err(crashed)?)
        .await
        .map_err(crashed)?;
    text.as_string()
        .ok_or_else(|| WorkerError::Crashed("not text".into()))
}

async fn check(scope: &web_sys::WorkerGlobalScope, base: &str, fixture: &Fixture) -> Reply {
    let mut sections = Vec::new();
    let mut failed = None;
    for file in fixture.files {
        let result = match fetch_text(scope, &format!("{base}{file}.json")).await {
            Ok(text) => {
                permlab_core::conformance::run(&text).map_err(|e| WorkerError::Read(e.to_string()))
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(reports) => sections.extend(reports.iter().map(|r| Section {
                name: r.section.clone(),
                passed: r.passed,
                total: r.passed + r.failed(),
            })),
            Err(e) => failed = Some(e),
        }
    }
    Reply::Check {
        name: fixture.key.to_string(),
        result: match failed {
            Some(e) => Err(e),
            None => Ok(sections),
        },
    }
}

fn post(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(v) = serde_wasm_bindgen::to_value(reply) {
        let _ = scope.post_message(&v);
    }
}

fn main() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let worker = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let scope = worker.clone();
            let request = match serde_wasm_bindgen::from_value::<Request>(e.data()) {
                Ok(r) => r,
                Err(e) => {
                    post(
                        &scope,
                        &Reply::Lesson {
                            result: Err(WorkerError::Crashed(format!("not a request: {e}"))),
                        },
                    );
                    post(&scope, &Reply::Done);
                    return;
                }
            };
            if let Some(reply) = worker::answer(&request) {
                // A pasted Codex .rules file or a lesson's (the page has no Starlark interpreter).
                post(&scope, &reply);
                post(&scope, &Reply::Done);
                return;
            }
            let Request::SelfCheck { base } = request else {
                return;
            };
            wasm_bindgen_futures::spawn_local(async move {
                let global: &web_sys::WorkerGlobalScope = scope.unchecked_ref();
                for fixture in &FIXTURES {
                    let reply = check(global, &base, fixture).await;
                    post(&scope, &reply);
                }
                post(&scope, &Reply::Done);
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // A message posted before the handler existed would be lost: say when to send it.
    post(&scope, &Reply::Ready);
}
