//! The import panel's lint findings: "你的配置里有 3 处问题", each finding worded in
//! the widget's language ([`crate::text::lint_text`]) with its demonstrating call one click away.
//!
//! The linter runs in the on-demand worker for every format (`Request::Lint`), so the page's
//! wasm carries none of it; the page sends the request the model asks for
//! (`Effect::Ask`) and hands the answer back as `Msg::LintReply`. "Load this call"
//! (`Msg::FindingCall`) puts the call into the call fields and opens the stepper on it; the
//! verdict and the fix stay folded (guess, then reveal).

use leptos::prelude::*;

use wasm_bindgen::JsCast;

use super::act::act;
use super::ctx::{next_frame, Ctx};
use crate::model::Source;
use crate::model::{Msg, Region};
use crate::protocol::LintFinding;
use crate::text::i18n::S;
use crate::text::lint_text;

/// What the findings region shows (the findings themselves are a keyed list of their own, so
/// "show more" adds rows without rendering the shown ones again).
#[derive(Clone, PartialEq)]
enum FindingsView {
    Nothing,
    Running,
    Failed(String),
    /// How many findings there are in all.
    List(usize),
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

/// The findings of the imported config, below the import's summary: the first page of them
/// ([`crate::model::FINDINGS_PAGE`]), a "show more" button for the rest, and the patterns the
/// linter did not check.
#[component]
pub(crate) fn Findings(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let state = Memo::new(move |_| {
        ctx.read(Region::Findings, |w| {
            if w.course().source != Source::Import {
                FindingsView::Nothing
            } else if w.waiting().lint.is_some() {
                FindingsView::Running
            } else {
                match &w.lint().findings {
                    None => FindingsView::Nothing,
                    Some(Err(e)) => FindingsView::Failed(e.clone()),
                    Some(Ok(f)) => FindingsView::List(f.len()),
                }
            }
        })
    });
    view! {
        <div class="pl-findings" aria-live="polite">
            {move || match state.get() {
                FindingsView::Nothing => ().into_any(),
                FindingsView::Running => view! {
                    <p class="pl-findings-running">{lang.s(S::LintRunning)}</p>
                }.into_any(),
                FindingsView::Failed(e) => view! {
                    <p class="pl-findings-error">{lang.s(S::LintFailed)}": "{e}</p>
                }.into_any(),
                FindingsView::List(n) => view! {
                    <p class="pl-findings-headline" data-count=n.to_string()>
                        <strong>{lint_text::headline(lang, n)}</strong>
                    </p>
                    <Skipped ctx/>
                    <FindingList ctx/>
                }.into_any(),
            }}
        </div>
    }
}

/// The patterns the linter skipped as too complex: findings about them may be missing.
#[component]
fn Skipped(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let notes = Memo::new(move |_| ctx.read(Region::Findings, |w| w.lint().not_checked.clone()));
    view! {
        <Show when=move || notes.with(|n| !n.is_empty())>
            <ul class="pl-findings-skipped">
                {move || notes.get().iter().map(|n| view! {
                    <li class="pl-finding-skipped" data-line=n.line.to_string()>
                        {rich(&lint_text::not_checked(lang, n))}
                    </li>
                }).collect_view()}
            </ul>
        </Show>
    }
}

/// The shown page of findings, keyed by their index, and "show more" while some are not shown.
/// After a click the focus moves to the first finding it added, so a keyboard reader goes on
/// reading where the list grew (the button itself may be gone).
#[component]
fn FindingList(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let page = Memo::new(move |_| {
        ctx.read(Region::Findings, |w| {
            w.lint()
                .page()
                .map(|(page, all)| (page.to_vec(), all))
                .unwrap_or_default()
        })
    });
    let list = NodeRef::<leptos::html::Ol>::new();
    let more = move |_| {
        let first_new = page.with_untracked(|(p, _)| p.len());
        act(ctx, Msg::MoreFindings);
        next_frame(ctx, move || {
            let sel = format!(".pl-finding[data-index=\"{first_new}\"]");
            if let Some(el) = list
                .get_untracked()
                .and_then(|l| l.query_selector(&sel).ok().flatten())
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
        });
    };
    view! {
        <ol class="pl-findings-list" aria-label=lang.s(S::FindingsTitle) node_ref=list>
            <For
                each=move || page.get().0.into_iter().enumerate()
                key=|(i, _)| *i
                children=move |(i, f)| view! { <FindingItem ctx i f/> }
            />
        </ol>
        {move || {
            let (shown, all) = page.with(|(p, all)| (p.len(), *all));
            (shown < all).then(|| {
                let next = (all - shown).min(crate::model::FINDINGS_PAGE);
                view! {
                    <button type="button" class="pl-findings-more" data-shown=shown.to_string()
                        on:click=more>
                        {lint_text::show_more(lang, next, all - shown)}
                    </button>
                }
            })
        }}
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
        <li class="pl-finding" tabindex="-1" data-index=i.to_string() data-kind=f.kind.slug() data-severity=f.severity.as_str() data-harness=f.harness.slug()>
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
