//! The page's side of the on-demand worker: each request the model asks for
//! ([`crate::model::Effect::Ask`], [`crate::model::Effect::SelfCheck`]) runs in a worker and
//! its answers come back as [`Msg`]s through `send` (the widget's `act`).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

use super::ctx::{after_delay, Ctx, Job, JobKind};
use crate::browser::web;
use crate::model::Msg;
use crate::protocol::{Reply, Request, WorkerError};

/// Where a worker's answer goes: the widget's `act`.
pub(crate) type Send = fn(Ctx, Msg) -> bool;

/// Ends the job whose flag is `settled`: its worker is terminated (a no-op for one that has
/// finished) and it leaves the list.
fn end_job(ctx: Ctx, settled: &Rc<Cell<bool>>) {
    settled.set(true);
    ctx.jobs.update_value(|jobs| {
        jobs.retain(|j| {
            let mine = Rc::ptr_eq(&j.settled, settled);
            if mine {
                j.worker.terminate();
            }
            !mine
        })
    });
}

/// The message that hands the worker's failure `e` back, for the request that failed.
fn failed(request: &Request, e: String) -> Msg {
    // The browser's English (`Uncaught RangeError: …`) goes to the console, for the author;
    // the widget words the failure in its own language.
    leptos::logging::warn!("permlab: the worker stopped: {e}");
    let e = WorkerError::Crashed(e);
    match request {
        Request::Import { .. } => Msg::ImportReply(Err(e)),
        Request::Lesson { .. } => Msg::LessonReply(Err(e)),
        Request::Lint { .. } => Msg::LintReply(request.clone(), Err(e)),
        Request::SelfCheck { .. } => Msg::CheckReply(Err(e)),
    }
}

/// Sends `request` (an import, a lesson or a lint) to a worker of its own (it has the
/// Starlark interpreter and the linter the page leaves out) and hands its answer to the
/// widget. Whichever comes first ends the request: the answer, a failure, the time budget
/// ([`worker_seconds`]), or a newer request that supersedes it ([`JobKind::supersedes`]).
pub(crate) fn ask_worker(ctx: Ctx, request: Request, send: Send) {
    let script = web::absolute_url(&ctx.peek(|w| w.config().selfcheck.clone()));
    let kind = JobKind::of(&request);
    ctx.jobs.update_value(|jobs| {
        jobs.retain(|j| {
            let old = kind.supersedes(j.kind);
            if old {
                j.settled.set(true);
                j.worker.terminate();
            }
            !old
        })
    });
    let settled = Rc::new(Cell::new(false));
    let done = settled.clone();
    let wanted = request.clone();
    let answer = Rc::new(move |reply: Result<Reply, String>| {
        if done.get() || !ctx.alive() {
            return;
        }
        let msg = match reply {
            Ok(Reply::Import { result }) => Msg::ImportReply(result),
            Ok(Reply::Lesson { result }) => Msg::LessonReply(result),
            Ok(Reply::Lint { result }) => Msg::LintReply(wanted.clone(), result),
            Ok(_) => return,
            Err(e) => failed(&wanted, e),
        };
        end_job(ctx, &done);
        send(ctx, msg);
    });
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => {
            ctx.workers.update_value(|v| v.push(wk.clone()));
            ctx.jobs.update_value(|jobs| {
                jobs.push(Job {
                    kind,
                    worker: wk,
                    settled: settled.clone(),
                })
            });
            // The page's time budget: a worker that has not answered by then is stopped (a
            // new one starts with the next request) and the widget says so.
            let seconds = worker_seconds(ctx);
            after_delay(
                ctx,
                move || {
                    if settled.get() {
                        return;
                    }
                    end_job(ctx, &settled);
                    send(ctx, Msg::WorkerTimeout { request, seconds });
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

/// Sends the lint request the model asked for ([`model::Effect::Ask`]) to the worker, under the
/// same time budget and superseding as every request ([`ask_worker`]); the model takes its
/// answer only while it still waits for that request (a newer paste replaces it).
pub(crate) fn ask_lint(ctx: Ctx, request: Request, send: Send) {
    ask_worker(ctx, request, send)
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
        if let Err(e) = &reply {
            leptos::logging::warn!("permlab: the self-check's worker stopped: {e}");
        }
        send(ctx, Msg::CheckReply(reply.map_err(WorkerError::Crashed)));
    }) {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => {
            send(ctx, Msg::CheckReply(Err(WorkerError::Crashed(e))));
        }
    }
}
