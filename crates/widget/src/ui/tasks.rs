//! The lesson's tasks next to the table, each ticked off when the learner has done it.

use leptos::prelude::*;

use super::ctx::Ctx;
use crate::model::Region;
use crate::text::i18n::S;

/// The lesson's `tasks` as a checklist. What counts as done is the core's check
/// ([`permlab_core::tasks`]) over what the learner did ([`crate::model::Widget::task_facts`]); a task once
/// done stays ticked. Nothing here names a verdict: a task says what to do, not what to see.
#[component]
pub(crate) fn Tasks(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let texts = Memo::new(move |_| {
        ctx.read(Region::Tasks, |w| {
            // The lesson's tasks are about its presets: an imported config or another table
            // shows none.
            w.course()
                .lesson
                .as_ref()
                .filter(|_| matches!(w.course().source, crate::model::Source::Lesson(_)))
                .map(|l| {
                    l.tasks
                        .iter()
                        .map(|t| t.text.get(lang.tag_short()).to_string())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    // The model keeps the ticks (a tick stays, across a reload too).
    let done = Memo::new(move |_| ctx.read(Region::TaskProgress, |w| w.progress().tasks.clone()));
    let heading = ctx.peek(|w| w.id("tasks-h"));
    let count = move || {
        done.with(|d| {
            let n = d.iter().filter(|x| **x).count();
            if n == d.len() {
                format!("{n}/{} · {}", d.len(), lang.s(S::TasksAllDone))
            } else {
                format!("{n}/{}", d.len())
            }
        })
    };
    view! {
        <Show when=move || texts.with(|t| !t.is_empty())>
            // A group, not a landmark: two widgets on a page both have their tasks.
            <div class="pl-tasks" role="group" aria-labelledby=heading.clone()>
                <h3 id=heading.clone()>{lang.s(S::TasksTitle)}" "<span class="pl-tasks-count">{count}</span></h3>
                <ol class="pl-task-list">
                    {move || texts.get().into_iter().enumerate().map(|(i, t)| {
                        let ok = move || done.with(|d| d.get(i).copied().unwrap_or(false));
                        view! {
                            <li class="pl-task" data-task=i.to_string() data-done=move || ok().to_string()>
                                <span class="pl-task-mark" aria-hidden="true">{move || if ok() { "✓" } else { "○" }}</span>
                                <span class="pl-task-text">{t}</span>
                                <span class="pl-sr">{move || format!(" ({})", lang.s(if ok() { S::TaskDone } else { S::TaskTodo }))}</span>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </div>
        </Show>
    }
}
