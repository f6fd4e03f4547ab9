//! Why the host's lesson is not shown: the message above the widget.

use leptos::prelude::*;

use super::ctx::Ctx;
use crate::model::Region;

/// The lesson's load error, if any, worded in the widget's language: a headline that says the
/// built-in rule sets below still work, then where each problem is and what to fix. The
/// texts are shown as text (a hostile selector or lesson stays inert).
#[component]
pub(crate) fn LessonProblems(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let lines = Memo::new(move |_| {
        ctx.read(Region::LessonProblems, |w| {
            w.course().lesson_error.as_ref().map(|e| e.lines(lang))
        })
    });
    view! {
        <Show when=move || lines.with(Option::is_some)>
            <div class="pl-lesson-problems" role="alert">
                <p class="pl-lesson-problems-head">{move || lines.get().map(|l| l.0)}</p>
                <ul>
                    {move || {
                        lines.get().map(|l| l.1).unwrap_or_default().into_iter()
                            .map(|p| view! { <li><code>{p}</code></li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
