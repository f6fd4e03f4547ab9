//! The secondary panels (formula, matrix, translations, self-check, JSON editor, import) in
//! one "more" menu: in a lesson they are folded away, so the lesson's own controls — call,
//! table, stepper, guesses, tasks — fit on one screen. Without a lesson (the lab page) they
//! stay open, as before.

use leptos::prelude::*;

use super::ctx::Ctx;
use crate::text::i18n::S;

/// Folds `children` into one disclosure when the widget shows a lesson.
#[component]
pub(crate) fn More(ctx: Ctx, children: Children) -> impl IntoView {
    let lang = ctx.lang;
    let lesson = ctx.peek(|w| w.course().lesson.is_some() || w.waiting().lesson.is_some());
    // A page without the self-check (an offline file made without the worker) does not list it.
    let list = if ctx.peek(|w| !w.config().has_worker()) {
        S::MoreListNoCheck
    } else {
        S::MoreList
    };
    if lesson {
        view! {
            <details class="pl-more">
                <summary>{lang.s(S::More)}<span class="pl-more-list">": "{lang.s(list)}</span></summary>
                {children()}
            </details>
        }
        .into_any()
    } else {
        view! { <div class="pl-more-panels">{children()}</div> }.into_any()
    }
}
