//! One Tab stop for the whole rule table (a roving tabindex, as the APG grid pattern does).
//!
//! Every row has three controls (grip, ↑, ↓); with each one a Tab stop, a 10-row table cost
//! 30 Tabs to get past. Now every control is `tabindex="-1"` except one, the table's entry:
//! the control focused last (or the first row's grip). Inside the table, ↑/↓ go to the same
//! control of the row above/below, ←/→ along the row, Home/End to the first/last row. A lifted
//! row keeps ↑/↓ for carrying it and Alt+↑/↓ still move a row at once: the grip's own handler
//! runs first and takes those keys (`default_prevented`). Focus, a DOM matter, stays here; the
//! model does not know about it.

use super::*;

/// The columns of a row's controls, in Tab order.
const CONTROLS: [&str; 3] = ["pl-grip", "pl-up", "pl-down"];

fn focusable(el: &web_sys::Element) -> bool {
    !el.has_attribute("disabled")
}

/// The control in column `col` of `row`, or the grip when that one is disabled.
fn control(row: &web_sys::Element, col: usize) -> Option<web_sys::Element> {
    let pick = |c: &str| row.query_selector(&format!(".{c}")).ok().flatten();
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

/// A control got focus (by click, by Tab, by the widget after a move): it is the entry now.
pub(crate) fn on_focusin(e: &ev::FocusEvent) {
    let (Some(tbody), Some(el)) = (
        e.current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
        e.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
    ) else {
        return;
    };
    if CONTROLS.iter().any(|c| el.class_list().contains(c)) {
        enter(&tbody, &el);
    }
}

/// Arrow keys, Home and End between the table's controls.
pub(crate) fn on_keydown(e: &ev::KeyboardEvent) {
    if e.default_prevented() || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let Some(col) = CONTROLS.iter().position(|c| el.class_list().contains(c)) else {
        return;
    };
    let Some(row) = el.closest("tr").ok().flatten() else {
        return;
    };
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
                    .query_selector(&format!(".{}", CONTROLS[c as usize]))
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
