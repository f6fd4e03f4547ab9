//! The secondary panels: formula, matrix, translations and the self-check.

use leptos::prelude::*;
use permlab_core::{claude_code, codex, Action, Decision, EngineId};
use wasm_bindgen::JsCast;

use super::act::act;
use super::ctx::Ctx;
use super::focus;
use crate::model::{Msg, Region, Widget};
use crate::presets;
use crate::text::i18n::{one_line, Lang, S};

pub(crate) fn term_help(lang: Lang, i: usize) -> &'static str {
    lang.s(match i {
        0 => S::TermFindLast,
        1 => S::TermPermission,
        2 => S::TermPattern,
        3 => S::TermDefault,
        _ => S::TermAnd,
    })
}

/// OpenCode's rule as a formula whose terms explain themselves when clicked.
#[component]
pub(crate) fn Formula(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let open = Memo::new(move |_| ctx.read(Region::Formula, |w| w.panels().term));
    let help = ctx.peek(|w| w.id("term-help"));
    let term = {
        let help = help.clone();
        move |i: usize, text: &'static str| {
            view! {
                <button type="button" class="pl-term" data-term=i.to_string()
                    aria-expanded=move || (open.get() == Some(i)).to_string()
                    aria-controls=help.clone()
                    on:click=move |_| { act(ctx, Msg::Term(i)); }>{text}</button>
            }
        }
    };
    view! {
        <section class="pl-formula-box">
            <h3>{lang.s(S::Formula)}</h3>
            <pre class="pl-formula"><code>"rules."{term(0, "findLast")}"(r => "{term(1, "match(permission, r.permission)")}" "{term(4, "&&")}" "{term(2, "match(pattern, r.pattern)")}") "{term(3, "?? ask")}</code></pre>
            <p class="pl-hint">{lang.s(S::FormulaHint)}</p>
            <p id=help class="pl-term-help" aria-live="polite">{move || open.get().map(|i| term_help(lang, i))}</p>
        </section>
    }
}

pub(crate) fn decision_icon(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    }
}

/// One matrix row: the call, whether it is the current one, and each shown engine's verdict
/// (with whether the last reorder changed it; `None`: the current call's verdict of an engine
/// not revealed yet).
pub(crate) type MatrixRow = (String, bool, Vec<(EngineId, Option<(Decision, bool)>)>);

/// Every call of the lesson × the shown engines; folded away until asked for, except in an
/// explore lesson. The current call's cells wait for each engine's reveal.
#[component]
pub(crate) fn Matrix(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let quiz = Memo::new(move |_| ctx.read(Region::MatrixPanel, |w| !w.explore()));
    let open = Memo::new(move |_| ctx.read(Region::MatrixPanel, |w| w.panels().matrix));
    let engines = Memo::new(move |_| ctx.read(Region::Engines, Widget::shown));
    let rows = Memo::new(move |_| {
        ctx.read(Region::Matrix, |w| {
            let current = w.lab().call();
            let shown = w.shown();
            w.course()
                .calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let now = c == current;
                    let cells = shown
                        .iter()
                        .map(|e| {
                            let j = EngineId::ALL.iter().position(|x| x == e).unwrap_or(0);
                            if now && !w.revealed(*e) {
                                return (*e, None);
                            }
                            let d = w
                                .verdicts()
                                .matrix
                                .get(i)
                                .and_then(|r| r.get(j))
                                .copied()
                                .unwrap_or(Decision::Ask);
                            let changed = w
                                .verdicts()
                                .before
                                .as_ref()
                                .and_then(|p| p.get(i)?.get(j).copied())
                                .is_some_and(|p| p != d);
                            (*e, Some((d, changed)))
                        })
                        .collect();
                    (one_line(&c.to_string()), now, cells)
                })
                .collect::<Vec<MatrixRow>>()
        })
    });
    let table = move || {
        view! {
            <div class="pl-scroll">
                <table class="pl-matrix">
                    <thead><tr>
                        <th scope="col">{lang.s(S::Call)}</th>
                        {move || engines.get().into_iter().map(|e| view! { <th scope="col">{lang.engine(e)}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        // Keyed by the row's content: a reorder replaces only the rows it changed.
                        <For each=move || { rows.get().into_iter().enumerate().collect::<Vec<_>>() }
                            key=|row: &(usize, MatrixRow)| row.clone()
                            children=move |(i, (label, current, cells)): (usize, MatrixRow)| view! {
                            <tr class=if current { "pl-current" } else { "" } data-call=i.to_string()>
                                <th scope="row">
                                    <button type="button" class="pl-call-pick" aria-pressed=current.to_string()
                                        on:click=move |_| { act(ctx, Msg::PickCall(i)); }><code>{label}</code></button>
                                </th>
                                {cells.into_iter().map(|(e, cell)| match cell {
                                    None => view! {
                                        <td class="pl-cell pl-cell-locked" data-engine=e.slug()>
                                            <span aria-hidden="true">"? "</span>{lang.s(S::CellLocked)}
                                        </td>
                                    }.into_any(),
                                    Some((d, changed)) => view! {
                                    <td class=format!("pl-cell pl-v-{}{}", d.as_str(), if changed { " pl-changed" } else { "" })
                                        data-engine=e.slug() data-verdict=d.as_str() data-changed=changed.then_some("true")>
                                        <span aria-hidden="true">{decision_icon(d)}" "</span>{lang.decision(d)}
                                        {changed.then(|| view! {
                                            <span class="pl-changed-mark" title=lang.s(S::ChangedMark)>" ● "<span class="pl-sr">{lang.s(S::ChangedMark)}</span></span>
                                        })}
                                    </td>
                                    }.into_any(),
                                }).collect_view()}
                            </tr>
                        }/>
                    </tbody>
                </table>
                <p class="pl-legend pl-matrix-legend" data-mark="changed">
                    <span class="pl-changed-mark" aria-hidden="true">"●"</span>" "{lang.s(S::LegendChanged)}
                </p>
            </div>
        }
    };
    move || {
        if quiz.get() {
            // A quiz keeps the answers folded away until the learner opens the lab view.
            view! {
                <details class="pl-matrix-box" prop:open=move || open.get() on:toggle=move |e| {
                    if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                        if d.open() != open.get_untracked() {
                            act(ctx, Msg::Matrix(d.open()));
                            // The learner's toggle: focus stays on the summary they pressed.
                            focus::later(ctx, ".pl-matrix-box > summary".into());
                        }
                    }
                }>
                    <summary>{lang.s(S::Matrix)}" "{lang.s(S::MatrixSpoils)}</summary>
                    {table()}
                </details>
            }
            .into_any()
        } else {
            view! {
                <section class="pl-matrix-box">
                    <h3>{lang.s(S::Matrix)}</h3>
                    {table()}
                </section>
            }
            .into_any()
        }
    }
}

/// One translated config: the file and its flagged rows.
pub(crate) type Translated = (
    &'static str,
    &'static str,
    String,
    Vec<(usize, String, String)>,
);

/// The table as each harness's own config, with what does not translate (computed only while
/// the panel is open).
#[component]
pub(crate) fn Translations(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let blocks = Memo::new(move |_| {
        ctx.read(Region::Translations, |w| {
            if !w.panels().translations {
                return Vec::new();
            }
            let t = w.table();
            let cc = claude_code::translate(t);
            use crate::text::warning_text::Untranslated;
            let mut cc_flags: Vec<(usize, String)> = cc
                .untranslatable
                .iter()
                .map(|u| (u.row, lang.untranslated(Untranslated::Claude(&u.why))))
                .collect();
            for (row, (r, a)) in cc.rules.iter().zip(&cc.actions).enumerate() {
                if let (Some(r), Action::Deny) = (r, a) {
                    if !r.contains('(') {
                        cc_flags.push((row, format!("deny {r} — {}", lang.s(S::RemovesTool))));
                    }
                }
            }
            cc_flags.extend(
                cc.notes
                    .iter()
                    .map(|(row, n)| (*row, lang.untranslated(Untranslated::Claude(n)))),
            );
            permlab_core::sort::by_rank(&mut cc_flags, |f| f.0 as u64);
            let (oc, oc_flags) = presets::opencode_permission(t);
            let why = |w: &codex::NoPrefix| lang.untranslated(Untranslated::Codex(w));
            let words = codex::Comments {
                header: lang.s(S::CodexHeader),
                row: lang.s(S::CodexRow),
                not_expressible: lang.s(S::CodexNotExpressible),
                why: &why,
            };
            let (cx, cx_flags) = codex::to_rules_worded(t, &words);
            let rows = |flags: Vec<(usize, String)>| {
                flags
                    .into_iter()
                    .map(|(row, why)| (row, lang.row(t, row), why))
                    .collect::<Vec<_>>()
            };
            vec![
                (
                    "claude-code",
                    "Claude Code · .claude/settings.json",
                    cc.to_settings_json(),
                    rows(cc_flags),
                ),
                (
                    "opencode",
                    "OpenCode · opencode.json",
                    oc,
                    rows(
                        oc_flags
                            .iter()
                            .map(|f| (f.row, lang.untranslated(Untranslated::Opencode(&f.why))))
                            .collect(),
                    ),
                ),
                (
                    "codex",
                    "Codex · .codex/rules/default.rules",
                    cx,
                    rows(
                        cx_flags
                            .iter()
                            .map(|f| (f.row, lang.untranslated(Untranslated::Codex(&f.why))))
                            .collect(),
                    ),
                ),
            ] as Vec<Translated>
        })
    });
    view! {
        <details class="pl-translations" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                act(ctx, Msg::Translations(d.open()));
            }
        }>
            <summary>{lang.s(S::Translations)}</summary>
            {move || blocks.get().into_iter().map(|(slug, title, text, flags)| view! {
                <div class="pl-translation" data-harness=slug>
                    <h4>{title}</h4>
                    <pre><code>{text}</code></pre>
                    <ul class="pl-flags">
                        {flags.into_iter().map(|(row, r, why)| view! {
                            <li class="pl-flag" data-row=(row + 1).to_string()><span aria-hidden="true">"⚠ "</span><code>{r}</code>" — "<super::marked::Marked text=why/></li>
                        }).collect_view()}
                    </ul>
                </div>
            }).collect_view()}
        </details>
    }
}

/// Runs the conformance fixtures (the real harnesses' recorded answers) in the worker.
#[component]
pub(crate) fn SelfCheck(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let offline = ctx.peek(|w| !w.config().has_worker());
    let running = Memo::new(move |_| ctx.read(Region::SelfCheck, |w| w.selfcheck().running));
    let results = Memo::new(move |_| ctx.read(Region::SelfCheck, |w| w.selfcheck().checks.clone()));
    let run = move |_| {
        act(ctx, Msg::SelfCheck);
    };
    // An offline page has no fixtures to fetch: no self-check.
    (!offline).then(|| view! {
        <section class="pl-selfcheck">
            <h3>{lang.s(S::SelfCheck)}</h3>
            <button type="button" class="pl-run-check pl-controls" disabled=move || running.get() on:click=run>
                {move || lang.s(if running.get() { S::Running } else { S::RunSelfCheck })}</button>
            <ul class="pl-check-results" aria-live="polite">
                {move || results.get().into_iter().map(|(name, r)| match r {
                    Ok(sections) => {
                        let line = lang.check_line(&name, &sections);
                        let ok = line.passed == line.total;
                        let drift = line.drift.map(|d| view! { <small class="pl-check-drift">{format!(" ({d})")}</small> });
                        view! {
                            <li class="pl-check" data-check=name.clone() data-ok=ok.to_string()>
                                <span aria-hidden="true">{if ok { "✓ " } else { "✗ " }}</span>
                                <strong>{line.label}</strong>": "
                                <span class="pl-check-tally">{format!("{}/{}", line.passed, line.total)}</span>" "{line.agree}
                                {drift}
                            </li>
                        }.into_any()
                    }
                    Err(e) => view! {
                        <li class="pl-check" data-check=name.clone() data-ok="false">"✗ "<strong>{lang.check_line(&name, &[]).label}</strong>": "{e}</li>
                    }.into_any(),
                }).collect_view()}
            </ul>
        </section>
    })
}
