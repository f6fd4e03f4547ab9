//! One Tab stop for the whole rule table (a roving tabindex, as the APG grid pattern does).
//!
//! Every row has three controls (grip, ↑, ↓); with each one a Tab stop, a 10-row table cost
//! 30 Tabs to get past. Now every control is `tabindex="-1"` except one, the table's entry:
//! the control focused last (or the first row's grip). Inside the table, ↑/↓ go to the same
//! control of the row above/below, ←/→ along the row, Home/End to the first/last row. A lifted
//! row keeps ↑/↓ for carrying it and Alt+↑/↓ still move a row at once: the grip's own handler
//! runs first and takes those keys (`default_prevented`). Focus, a DOM matter, stays here; the
//! model does not know about it.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx::{next_frame, Ctx};
use super::focus::rule_of;
use super::rows::show_position;
use crate::model::Control;
use crate::rows_window;

/// The columns of a row's controls, in Tab order.
const CONTROLS: [Control; 3] = Control::ALL;

fn focusable(el: &web_sys::Element) -> bool {
    !el.has_attribute("disabled")
}

/// The control in column `col` of `row`, or the grip when that one is disabled.
fn control(row: &web_sys::Element, col: usize) -> Option<web_sys::Element> {
    let pick = |c: Control| {
        row.query_selector(&format!(".{}", c.class()))
            .ok()
            .flatten()
    };
    pick(CONTROLS[col])
        .filter(focusable)
        .or_else(|| pick(CONTROLS[0]))
}

fn focus(el: &web_sys::Element) {
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    }
}

/// Makes `el` the table's one Tab stop.
fn enter(tbody: &web_sys::Element, el: &web_sys::Element) {
    if let Ok(list) = tbody.query_selector_all("[tabindex=\"0\"]") {
        for i in 0..list.length() {
            if let Some(other) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                if &other != el {
                    let _ = other.set_attribute("tabindex", "-1");
                }
            }
        }
    }
    let _ = el.set_attribute("tabindex", "0");
}

/// An event's target (or related target) as `T`.
fn cast<T: JsCast>(t: Option<web_sys::EventTarget>) -> Option<T> {
    t?.dyn_into().ok()
}

/// Focus left the table (not for another of its controls): no row needs keeping.
pub(crate) fn on_focusout(ctx: Ctx, e: &ev::FocusEvent) {
    let Some(tbody) = cast::<web_sys::Node>(e.current_target()) else {
        return;
    };
    // Focus that goes nowhere (a click on the page, or the row re-inserted by the keyed list
    // while the window moves, see `set_first`) keeps the row: only focus that moved to
    // something else outside the table lets it go.
    let Some(to) = cast::<web_sys::Node>(e.related_target()) else {
        return;
    };
    if !tbody.contains(Some(&to)) && ctx.focused.get_untracked().is_some() {
        ctx.focused.set(None);
    }
}

/// A control got focus (by click, by Tab, by the widget after a move): it is the entry now,
/// and its row stays in the page while it has the focus (see [`crate::rows_window`]).
pub(crate) fn on_focusin(ctx: Ctx, e: &ev::FocusEvent) {
    let (Some(tbody), Some(el)) = (
        cast::<web_sys::Element>(e.current_target()),
        cast::<web_sys::Element>(e.target()),
    ) else {
        return;
    };
    if CONTROLS.iter().any(|c| el.class_list().contains(c.class())) {
        enter(&tbody, &el);
        let id = rule_of(&el);
        if ctx.focused.get_untracked() != id {
            ctx.focused.set(id);
        }
    }
}

/// Arrow keys, Home and End between the table's controls.
pub(crate) fn on_keydown(ctx: Ctx, e: &ev::KeyboardEvent) {
    if e.default_prevented() || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    let Some(el) = cast::<web_sys::Element>(e.target()) else {
        return;
    };
    let Some(col) = CONTROLS
        .iter()
        .position(|c| el.class_list().contains(c.class()))
    else {
        return;
    };
    let Some(row) = el.closest("tr").ok().flatten() else {
        return;
    };
    let n = ctx.peek(|w| w.table().len());
    if rows_window::is_virtual(n) && !matches!(e.key().as_str(), "ArrowLeft" | "ArrowRight") {
        // A windowed table: the row above/below may not be rendered (or be a pinned row's
        // neighbour in the page only), so go by position.
        let Some(pos) = row
            .get_attribute("data-position")
            .and_then(|p| p.parse::<usize>().ok())
            .map(|p| p - 1)
        else {
            return;
        };
        let to = match e.key().as_str() {
            "ArrowUp" => pos.checked_sub(1),
            "ArrowDown" => (pos + 1 < n).then_some(pos + 1),
            "Home" => Some(0),
            "End" => Some(n - 1),
            _ => return,
        };
        e.prevent_default();
        if let Some(to) = to {
            focus_position(ctx, to, col);
        }
        return;
    }
    let next = match e.key().as_str() {
        "ArrowUp" => row
            .previous_element_sibling()
            .and_then(|r| control(&r, col)),
        "ArrowDown" => row.next_element_sibling().and_then(|r| control(&r, col)),
        "Home" | "End" => {
            let body = row.parent_element();
            let r = if e.key() == "Home" {
                body.and_then(|b| b.first_element_child())
            } else {
                body.and_then(|b| b.last_element_child())
            };
            r.and_then(|r| control(&r, col))
        }
        "ArrowLeft" | "ArrowRight" => {
            let step: isize = if e.key() == "ArrowRight" { 1 } else { -1 };
            let mut c = col as isize + step;
            let mut found = None;
            while (0..CONTROLS.len() as isize).contains(&c) {
                if let Some(x) = row
                    .query_selector(&format!(".{}", CONTROLS[c as usize].class()))
                    .ok()
                    .flatten()
                    .filter(focusable)
                {
                    found = Some(x);
                    break;
                }
                c += step;
            }
            found
        }
        _ => return,
    };
    // At an edge the key does nothing (and does not scroll the page either).
    e.prevent_default();
    if let Some(n) = next {
        focus(&n);
    }
}

/// Focuses the control in column `col` of the row at position `to` of a windowed table,
/// once the window has it.
fn focus_position(ctx: Ctx, to: usize, col: usize) {
    show_position(ctx, to);
    let go = move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        let sel = format!("tr[data-position=\"{}\"]", to + 1);
        if let Some(c) = root
            .query_selector(&sel)
            .ok()
            .flatten()
            .and_then(|r| control(&r, col))
        {
            focus(&c);
        }
    };
    leptos::prelude::queue_microtask(move || {
        if ctx.alive() {
            go();
        }
    });
    next_frame(ctx, go);
}

/// After the rows change (a new table, a reorder, a chunk of rows): if the entry is gone or
/// disabled, the first row's grip is the entry, so the table always has its one Tab stop.
pub(crate) fn keep_entry(tbody: &web_sys::Element) {
    let entry = tbody.query_selector("[tabindex=\"0\"]").ok().flatten();
    if entry.as_ref().is_some_and(focusable) {
        return;
    }
    let row_of = entry.as_ref().and_then(|e| e.closest("tr").ok().flatten());
    let fallback = row_of
        .and_then(|r| control(&r, 0))
        .or_else(|| tbody.query_selector(".pl-grip").ok().flatten());
    if let Some(f) = fallback {
        enter(tbody, &f);
    }
}
