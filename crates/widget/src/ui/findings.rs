//! The import panel's lint findings: "你的配置里有 3 处问题", each finding worded in
//! the widget's language ([`crate::text::lint_text`]) with its demonstrating call one click away.
//!
//! The linter runs in the on-demand worker for every format (`Request::Lint`), so the page's
//! wasm carries none of it; the page sends the request the model asks for
//! (`Effect::Ask`) and hands the answer back as `Msg::LintReply`. "Load this call"
//! (`Msg::FindingCall`) puts the call into the call fields and opens the stepper on it; the
//! verdict and the fix stay folded (guess, then reveal).

use leptos::prelude::*;

use super::act::act;
use super::ctx::Ctx;
use crate::model::Source;
use crate::model::{Msg, Region};
use crate::protocol::LintFinding;
use crate::text::i18n::S;
use crate::text::lint_text;

/// What the findings region shows.
#[derive(Clone, PartialEq)]
enum FindingsView {
    Nothing,
    Running,
    Failed(String),
    List(Vec<LintFinding>),
}

/// Text with `` `code` `` spans as `<code>` elements (always as text, never as HTML).
fn rich(text: &str) -> impl IntoView {
    text.split('`')
        .enumerate()
        .map(|(k, part)| {
            if k % 2 == 1 {
                view! { <code>{part.to_string()}</code> }.into_any()
            } else {
                part.to_string().into_any()
            }
        })
        .collect_view()
}

/// The findings of the imported config, below the import's summary.
#[component]
pub(crate) fn Findings(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let shown = Memo::new(move |_| {
        ctx.read(Region::Findings, |w| {
            if w.course().source != Source::Import {
                FindingsView::Nothing
            } else if w.waiting().lint.is_some() {
                FindingsView::Running
            } else {
                match &w.lint().findings {
                    None => FindingsView::Nothing,
                    Some(Err(e)) => FindingsView::Failed(e.clone()),
                    Some(Ok(f)) => FindingsView::List(f.clone()),
                }
            }
        })
    });
    view! {
        <div class="pl-findings" aria-live="polite">
            {move || match shown.get() {
                FindingsView::Nothing => ().into_any(),
                FindingsView::Running => view! {
                    <p class="pl-findings-running">{lang.s(S::LintRunning)}</p>
                }.into_any(),
                FindingsView::Failed(e) => view! {
                    <p class="pl-findings-error">{lang.s(S::LintFailed)}": "{e}</p>
                }.into_any(),
                FindingsView::List(found) => {
                    let n = found.len();
                    view! {
                        <p class="pl-findings-headline" data-count=n.to_string()>
                            <strong>{lint_text::headline(lang, n)}</strong>
                        </p>
                        <ol class="pl-findings-list" aria-label=lang.s(S::FindingsTitle)>
                            {found.into_iter().enumerate().map(|(i, f)| view! {
                                <FindingItem ctx i f/>
                            }).collect_view()}
                        </ol>
                    }.into_any()
                }
            }}
        </div>
    }
}

/// One finding: what the trap is, the rules with their places, the call button, and the
/// folded answer and fix.
#[component]
fn FindingItem(ctx: Ctx, i: usize, f: LintFinding) -> impl IntoView {
    let lang = ctx.lang;
    let t = lint_text::word(lang, &f);
    let rules = f
        .rules
        .iter()
        .map(|r| {
            let place = format!("{} {}:{}", lang.s(S::FindingLine), r.line, r.column);
            view! {
                <li class="pl-finding-rule" data-line=r.line.to_string()>
                    <span class="pl-finding-place">{place}</span>" "<code>{r.text.clone()}</code>
                </li>
            }
        })
        .collect_view();
    let action = match &f.agent {
        Some(agent) => view! {
            <p class="pl-finding-agent">{rich(&lint_text::agent_note(lang, agent))}</p>
        }
        .into_any(),
        None => view! {
            <button type="button" class="pl-finding-call" data-tool=f.tool.clone() data-input=f.input.clone()
                on:click=move |_| { act(ctx, Msg::FindingCall(i)); }>
                {lang.s(S::FindingTry)}": "<code>{f.native.clone()}</code>
            </button>
        }
        .into_any(),
    };
    view! {
        <li class="pl-finding" data-kind=f.kind.slug() data-severity=f.severity.as_str() data-harness=f.harness.slug()>
            <p class="pl-finding-message">{rich(&t.message)}</p>
            <ul class="pl-finding-rules">{rules}</ul>
            {action}
            <details class="pl-finding-answer">
                <summary>{lang.s(S::FindingAnswer)}</summary>
                <p class="pl-finding-verdict" data-verdict=f.verdict.as_str()>{rich(&t.answer)}</p>
                <p class="pl-finding-fix">{lang.s(S::FindingFix)}": "{rich(&t.fix)}</p>
            </details>
        </li>
    }
}
