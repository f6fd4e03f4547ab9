//! The import panel's lint findings (issue 16): "你的配置里有 3 处问题", each finding worded in
//! the widget's language ([`crate::lint_text`]) with its demonstrating call one click away.
//!
//! The linter runs in the on-demand worker for every format (`Request::Lint`), so the page's
//! wasm carries none of it; this component's effect sends the request the model asks for
//! (`Widget::worker_lint`) and hands the answer back as `Msg::LintReply`. "Load this call"
//! (`Msg::FindingCall`) puts the call into the call fields and opens the stepper on it; the
//! verdict and the fix stay folded (guess, then reveal).

use std::rc::Rc;

use super::*;
use crate::app::Source;
use crate::lint_text;
use crate::protocol::LintFinding;

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

/// Sends the lint request to the worker; its answer counts only while it is still the request
/// the model waits for (a newer paste replaces it).
fn ask(ctx: Ctx, request: Request) {
    let script = web::absolute_url(&ctx.w.with_untracked(|w| w.config.selfcheck.clone()));
    let wanted = request.clone();
    let answer = Rc::new(move |reply: Result<Reply, String>| {
        let result = match reply {
            Ok(Reply::Lint { result }) => result,
            Ok(_) => return,
            Err(e) => Err(crate::protocol::WorkerError::Crashed(e)),
        };
        if ctx
            .w
            .with_untracked(|w| w.worker_lint.as_ref() == Some(&wanted))
        {
            act(ctx, Msg::LintReply(result));
        }
    });
    let a = answer.clone();
    match web::run_worker(&script, &request, move |r| a(r)) {
        Ok(wk) => ctx.workers.update_value(|v| v.push(wk)),
        Err(e) => answer(Err(e)),
    }
}

/// The findings of the imported config, below the import's summary.
#[component]
pub(crate) fn Findings(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let pending = Memo::new(move |_| ctx.w.with(|w| w.worker_lint.clone()));
    Effect::new(move |_| {
        if let Some(request) = pending.get() {
            ask(ctx, request);
        }
    });
    let shown = Memo::new(move |_| {
        ctx.w.with(|w| {
            if w.source != Source::Import {
                FindingsView::Nothing
            } else if w.worker_lint.is_some() {
                FindingsView::Running
            } else {
                match &w.findings {
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
