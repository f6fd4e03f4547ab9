//! Where a learner's action goes: into the model ([`Widget::act`]), then out to the page —
//! the regions that read the changed parts, the rows, the live region, the focus, the worker,
//! the host's events.

use leptos::prelude::*;
use permlab_core::{Decision, EngineId};

use super::ctx::{Ctx, CHUNK};
use super::focus::refocus;
use super::rows::{show_position, sync_rows};
use super::worker::{ask_lint, ask_worker, self_check};
use crate::api::Event;
use crate::model::{self, Msg, Widget};
use crate::protocol::Request;
use crate::state::{Change, Guess};

/// Applies one action, wakes the regions that read the parts it changed and does its
/// effects (live region, focus, the worker, the host's events, the reorder benchmark's frame
/// mark). Returns whether the widget handled it (`false`: the key was not for the widget).
pub fn act(ctx: Ctx, msg: Msg) -> bool {
    if !ctx.alive() {
        // An answer (worker, clipboard, timer) that arrives after `unmount`.
        return false;
    }
    let Some(out) = ctx.w.try_update_value(|w| w.act(msg)) else {
        return false;
    };
    for p in out.changed.iter() {
        ctx.parts[p.index()].notify();
    }
    after(ctx, &out.effects);
    out.handled
}

fn guess_slug(g: Guess) -> &'static str {
    match g {
        Guess::Skip => "skip",
        Guess::Verdict(d) => d.as_str(),
    }
}

/// What the host page hears about an action's effects (see [`crate::api::Event`]).
fn events_of(ctx: Ctx, w: &Widget, effects: &[model::Effect]) -> Vec<Event> {
    let mut out = Vec::new();
    for effect in effects {
        match effect {
            model::Effect::Guessed(e, g) => out.push(Event::Guess {
                engine: e.slug(),
                guess: guess_slug(*g),
            }),
            model::Effect::Revealed(e) => {
                let verdict = w.eval(*e).map(|v| v.decision).unwrap_or(Decision::Ask);
                let guess = w.lab().guess(*e);
                out.push(Event::Reveal {
                    engine: e.slug(),
                    guess: guess.map_or("skip", guess_slug),
                    verdict: verdict.as_str(),
                    correct: guess == Some(Guess::Verdict(verdict)),
                });
                if w.quiz() {
                    out.extend(completed(ctx, w, *e));
                }
            }
            model::Effect::Logged => {
                if let Some(entry) = w.lab().log().last() {
                    let (change, from, to) = match entry.change {
                        Change::Move { from, to, .. } => ("move", Some(from), Some(to)),
                        Change::Reverse => ("reverse", None, None),
                        Change::Undo => ("undo", None, None),
                        Change::Reset => ("reset", None, None),
                    };
                    out.push(Event::Reorder {
                        change,
                        from,
                        to,
                        flipped: entry.flipped.iter().map(|f| f.engine.slug()).collect(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// `permlab:complete` the first time a quiz has every (call, engine) revealed.
fn completed(ctx: Ctx, w: &Widget, e: EngineId) -> Option<Event> {
    let calls = &w.course().calls;
    let call = calls.iter().position(|c| c == w.lab().call());
    let shown = w.shown();
    let complete = ctx.done.try_update_value(|done| {
        if let Some(i) = call {
            done.0.insert((i, e));
        }
        let all = (0..calls.len()).all(|i| shown.iter().all(|e| done.0.contains(&(i, *e))));
        let first = all && !done.1;
        done.1 |= all;
        first
    });
    (complete == Some(true)).then_some(Event::Complete {
        calls: calls.len(),
        engines: shown.len(),
    })
}

/// Does an action's effects, after the rows are in step with the model.
pub(crate) fn after(ctx: Ctx, effects: &[model::Effect]) {
    let load_rev = ctx.peek(|w| w.course().loads);
    let reloaded = ctx.shown.with_value(|s| s.load_rev != load_rev);
    sync_rows(ctx);
    if reloaded {
        ctx.limit.set(CHUNK);
        ctx.first.set(0);
    }
    let focus = effects.iter().rev().find_map(|e| match e {
        model::Effect::Focus(f) => Some(*f),
        _ => None,
    });
    // The row being carried (its drop target) or just moved comes into view (a windowed
    // table first moves its window there).
    let keep = ctx.peek(|w| {
        w.target()
            .map(|(_, to)| to)
            .or_else(|| w.position(focus?.rule))
    });
    if let Some(pos) = keep {
        show_position(ctx, pos);
    }
    for effect in effects {
        match effect {
            model::Effect::Announce(text) => {
                if ctx.announce.with_untracked(|a| a != text) {
                    ctx.announce.set(text.clone());
                }
            }
            model::Effect::Focus(f) => refocus(ctx, *f),
            model::Effect::Reordered => {
                // The verdicts are in: measure up to the frame that shows them.
                request_animation_frame(|| crate::browser::perf::mark_end("pl-reorder-frame"));
            }
            model::Effect::Ask(request @ Request::Lint { .. }) => {
                ask_lint(ctx, request.clone(), act)
            }
            model::Effect::Ask(request) => ask_worker(ctx, request.clone(), act),
            model::Effect::SelfCheck => self_check(ctx, act),
            model::Effect::Guessed(..) | model::Effect::Revealed(_) | model::Effect::Logged => {}
        }
    }
    let events = ctx.peek(|w| events_of(ctx, w, effects));
    if let Some(host) = ctx.root.get_untracked().and_then(|r| r.parent_element()) {
        for e in events {
            e.dispatch(&host);
        }
    }
}
