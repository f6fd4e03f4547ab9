//! Where a learner's action goes: into the model ([`Widget::act`]), then out to the page —
//! the regions that read the changed parts, the rows, the live region, the focus, the worker,
//! the host's events.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx::{next_frame, Ctx, CHUNK};
use super::focus::refocus;
use super::rows::{show_position, sync_rows};
use super::worker::{ask_lint, ask_worker, self_check};
use crate::model::{self, Msg};
use crate::protocol::Request;

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
            model::Effect::ShowCursors => next_frame(ctx, move || show_cursors(ctx)),
            model::Effect::Guessed(..)
            | model::Effect::Revealed(..)
            | model::Effect::Completed(_)
            | model::Effect::Ready
            | model::Effect::Logged => {}
        }
    }
    let events = ctx.peek(|w| w.events(effects));
    if let Some(host) = ctx.root.get_untracked().and_then(|r| r.parent_element()) {
        for e in &events {
            crate::api::dispatch(e, &host);
        }
    }
}

/// Brings the rows the cursors are on into view, the lower one last (a row already in view
/// stays put; the rows' `scroll-margin` keeps them clear of the sticky step buttons).
fn show_cursors(ctx: Ctx) {
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let Ok(rows) = root.query_selector_all("tbody.pl-rules tr[data-cursor]:not([data-cursor=''])")
    else {
        return;
    };
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
    for i in 0..rows.length() {
        if let Some(el) = rows
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    }
}
