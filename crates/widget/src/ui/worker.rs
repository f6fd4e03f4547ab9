//! The page's side of the on-demand worker: each request the model asks for
//! ([`crate::model::Effect::Ask`], [`crate::model::Effect::SelfCheck`]) runs in a worker and
//! its answers come back as [`Msg`]s through `send` (the widget's `act`).

use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

use super::ctx::{after_delay, Ctx};
use crate::browser::web;
use crate::model::Msg;
use crate::protocol::{Reply, Request, WorkerError};

/// Where a worker's answer goes: the widget's `act`.
pub(crate) type Send = fn(Ctx, Msg) -> bool;

/// Sends `request` to the worker (it has the Starlark interpreter the page leaves out) and
/// hands its answer to the widget: an import's or a lesson's.
pub(crate) fn ask_worker(ctx: Ctx, request: Request, send: Send) {
    let script = web::absolute_url(&ctx.peek(|w| w.config().selfcheck.clone()));
    let import = matches!(request, Request::Import { .. });
    // Whichever comes first, the answer or the time budget, ends the request.
    let settled = std::rc::Rc::new(std::cell::Cell::new(false));
    let done = settled.clone();
    let answer = move |reply: Result<Reply, String>| {
        if done.get() || !ctx.alive() {
            return;
        }
        let msg = match reply {
            Ok(Reply::Import { result }) => Msg::ImportReply(result),
            Ok(Reply::Lesson { result }) => Msg::LessonReply(result),
            Ok(_) => return,
            Err(e) if import => Msg::ImportReply(Err(WorkerError::Crashed(e))),
            Err(e) => Msg::LessonReply(Err(WorkerError::Crashed(e))),
        };
        done.set(true);
        send(ctx, msg);
    };
    let answer = std::rc::Rc::new(answer);
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => {
            ctx.workers.update_value(|v| v.push(wk.clone()));
            // The page's time budget: a worker that has not answered by then is stopped (a
            // new one starts with the next request) and the widget says so.
            let seconds = worker_seconds(ctx);
            after_delay(
                ctx,
                move || {
                    if settled.replace(true) {
                        return;
                    }
                    wk.terminate();
                    send(ctx, Msg::WorkerTimeout { import, seconds });
                },
                Duration::from_secs(u64::from(seconds)),
            );
        }
        Err(e) => answer(Err(e)),
    }
}

/// The worker's time budget: the host's `data-worker-seconds`, else
/// [`crate::text::error_text::WORKER_SECONDS`].
fn worker_seconds(ctx: Ctx) -> u32 {
    ctx.root
        .get_untracked()
        .and_then(|r| r.parent_element())
        .and_then(|h| h.get_attribute("data-worker-seconds"))
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(crate::text::error_text::WORKER_SECONDS)
}

/// Sends the lint request the model asked for ([`model::Effect::Ask`]) to the worker; the model
/// takes its answer only while it still waits for that request (a newer paste replaces it).
pub(crate) fn ask_lint(ctx: Ctx, request: Request, send: Send) {
    let script = web::absolute_url(&ctx.peek(|w| w.config().selfcheck.clone()));
    let wanted = request.clone();
    let answer = Rc::new(move |reply: Result<Reply, String>| {
        let result = match reply {
            Ok(Reply::Lint { result }) => result,
            Ok(_) => return,
            Err(e) => Err(WorkerError::Crashed(e)),
        };
        send(ctx, Msg::LintReply(wanted.clone(), result));
    });
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => answer(Err(e)),
    }
}

/// Runs the self-check's worker the model asked for ([`model::Effect::SelfCheck`]): each answer goes
/// back as [`Msg::CheckReply`].
pub(crate) fn self_check(ctx: Ctx, send: Send) {
    let (base, script) = ctx.peek(|w| {
        (
            web::absolute_url(&w.config().fixtures),
            web::absolute_url(&w.config().selfcheck),
        )
    });
    let request = Request::SelfCheck { base };
    match web::run_worker(&script, &request, move |reply| {
        send(ctx, Msg::CheckReply(reply.map_err(WorkerError::Crashed)));
    }) {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => {
            send(ctx, Msg::CheckReply(Err(WorkerError::Crashed(e))));
        }
    }
}
