//! A sentence whose backticked parts show as `<code>` (see [`crate::text::spans`]).

use leptos::prelude::*;

use crate::text::spans::code_spans;

/// `text` with its backticked parts as `<code>`.
#[component]
pub(crate) fn Marked(text: String) -> impl IntoView {
    code_spans(&text)
        .into_iter()
        .map(|(code, s)| {
            let s = s.to_string();
            if code {
                view! { <code>{s}</code> }.into_any()
            } else {
                s.into_any()
            }
        })
        .collect_view()
}
