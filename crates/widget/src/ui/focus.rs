//! Focus that must survive a re-render: a control that disappears when pressed (揭示 is
//! replaced by the verdict) would drop focus to `<body>`, so the widget moves it to what the
//! press revealed, once that is on the page.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx::{next_frame, Ctx};
use permlab_core::RuleId;

use crate::model::{Control, Focus};

/// Focuses the first element under the widget's root matching `selector` on the next frame
/// (after the view has updated).
pub(crate) fn later(ctx: Ctx, selector: String) {
    next_frame(ctx, move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        if let Some(el) = root
            .query_selector(&selector)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// Focuses the moved row's control (its grip, ↑ or ↓) once the keyed list has put
/// the row in place: moving a row re-inserts it, and an inserted node loses focus. On the next
/// frame, where the page is laid out anyway: focusing right after the move (in a microtask)
/// laid it out once more, 8 ms a move on 200 rows. A key pressed before that frame — a second
/// Alt+↓ — finds the focus on `<body>`; [`route_key`] gives it to the control being refocused.
pub(crate) fn refocus(ctx: Ctx, f: Focus) {
    ctx.refocusing.set_value(Some(f));
    next_frame(ctx, move || {
        ctx.refocusing.set_value(None);
        focus_control(ctx, f);
    });
}

pub(crate) fn focus_control(ctx: Ctx, f: Focus) {
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let sel = format!("tr[data-rule-id=\"{}\"] .{}", f.rule.0, f.control.class());
    if let Some(el) = root
        .query_selector(&sel)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let active = el.owner_document().and_then(|d| d.active_element());
        if active.as_ref() != Some(el.as_ref()) {
            // Without scrolling: `show_position` scrolls the row into view, the least that
            // shows it, in the same frame.
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = el.focus_with_options(&opts);
        }
    }
}

/// The row control `el` is (see [`refocus`]).
pub(crate) fn focus_of(el: &web_sys::Element) -> Option<Focus> {
    let control = *Control::ALL
        .iter()
        .find(|c| el.class_list().contains(c.class()))?;
    Some(Focus {
        rule: rule_of(el)?,
        control,
    })
}

/// The rule of the row `el` is in.
pub(crate) fn rule_of(el: &web_sys::Element) -> Option<RuleId> {
    let row = el.closest("tr[data-rule-id]").ok().flatten()?;
    Some(RuleId(row.get_attribute("data-rule-id")?.parse().ok()?))
}
