//! Focus that must survive a re-render: a control that disappears when pressed (揭示 is
//! replaced by the verdict) would drop focus to `<body>`, so the widget moves it to what the
//! press revealed, once that is on the page.

use super::*;

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
