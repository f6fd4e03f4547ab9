//! Guess, then reveal: the engine panels, the reorder log and the disagreement box.

use leptos::prelude::*;
use permlab_core::analysis::Disagreement;
use permlab_core::{Action, Decision, EngineId};

use super::act::act;
use super::ctx::Ctx;
use super::drift::*;
use super::focus;
use crate::model::{Msg, Region, Widget};
use crate::state::Guess;
use crate::text::i18n::S;

/// The guess panels: the lesson's question and one [`EnginePanel`] per shown engine.
#[component]
pub(crate) fn Guesses(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let head = Memo::new(move |_| {
        ctx.read(Region::Question, |w| {
            (w.explore(), w.lesson_text("question"))
        })
    });
    let shown = Memo::new(move |_| ctx.read(Region::Engines, Widget::shown));
    let again = Memo::new(move |_| ctx.read(Region::EnginePanel, Widget::can_try_again));
    view! {
        <section class="pl-guesses">
            <h3>{move || lang.s(if head.get().0 { S::Verdicts } else { S::GuessTitle })}</h3>
            {move || head.get().1.map(|q| view! { <p class="pl-question">{q}</p> })}
            <div class="pl-engines">
                <For each=move || shown.get() key=|e| *e children=move |id| view! { <EnginePanel ctx id/> }/>
            </div>
            <Show when=move || again.get()>
                <button type="button" class="pl-try-again pl-controls" on:click=move |_| { act(ctx, Msg::TryAgain); }>
                    "↺ "{lang.s(S::TryAgain)}</button>
            </Show>
        </section>
    }
}

/// What one engine panel shows.
#[derive(Clone, PartialEq)]
pub(crate) struct PanelView {
    explore: bool,
    revealed: bool,
    guess: Option<Guess>,
    decision: Decision,
    why: String,
    /// The order the guess was made on, when a reorder since changed the verdict: the guess
    /// is graded there (never re-graded against the new verdict).
    earlier: Option<crate::state::Earlier>,
}

/// One engine: the learner's guess (allow / ask / deny / skip), then its verdict and why.
///
/// `id` is the engine.
#[component]
pub(crate) fn EnginePanel(ctx: Ctx, id: EngineId) -> impl IntoView {
    let lang = ctx.lang;
    let data = Memo::new(move |_| {
        ctx.read(Region::EnginePanel, |w| {
            let revealed = w.revealed(id);
            let eval = w.eval(id);
            let why = match eval {
                Some(e) if revealed => {
                    let mut s = lang.explain(w.table(), e);
                    if !e.always.is_empty() {
                        s.push_str(&lang.always(&e.always));
                    }
                    if e.inferred {
                        s.push_str(lang.s(S::Inferred));
                    }
                    s
                }
                _ => String::new(),
            };
            PanelView {
                explore: w.explore(),
                revealed,
                guess: w.lab().guess(id),
                decision: eval.map(|e| e.decision).unwrap_or(Decision::Ask),
                why,
                earlier: w.lab().earlier(id).filter(|e| {
                    !w.explore() && revealed && eval.is_some_and(|v| v.decision != e.verdict)
                }),
            }
        })
    });
    let slug = id.slug();
    let heading = ctx.peek(|w| w.id(&format!("h-{slug}")));
    let revealed = move || data.with(|d| d.revealed);
    let guess = move || data.with(|d| d.guess);
    let guess_button = move |a: Action| {
        let g = Decision::from(a);
        view! {
            <button type="button" class=format!("pl-guess-btn pl-g-{}", a.as_str()) data-guess=a.as_str()
                aria-pressed=move || (guess() == Some(Guess::Verdict(g))).to_string()
                disabled=revealed
                on:click=move |_| { act(ctx, Msg::Guess(id, Guess::Verdict(g))); }>{lang.action(a)}</button>
        }
    };
    let grade = move |guess: Option<Guess>, decision: Decision| match guess {
        Some(Guess::Verdict(g)) if g == decision => ("pl-right", format!("✓ {}", lang.s(S::Right))),
        Some(Guess::Verdict(g)) => ("pl-wrong", lang.wrong_guess(g)),
        _ => ("pl-skipped", format!("– {}", lang.s(S::Skipped))),
    };
    // A reorder changed the verdict since the guess: the guess keeps its grade on the order it
    // was made on, shown as such; the verdict below is the new order's.
    let earlier = move || {
        let d = data.get();
        let e = d.earlier?;
        let (class, mark) = grade(Some(e.guess), e.verdict);
        Some(view! {
            <div class="pl-earlier" data-verdict=e.verdict.as_str()>
                <p class="pl-earlier-head">{lang.s(S::EarlierOrder)}": "
                    <span class=format!("pl-v-{}", e.verdict.as_str())>{lang.decision(e.verdict)}</span>
                    " · "<span class=format!("pl-mark {class}")>{mark}</span></p>
            </div>
        })
    };
    let result = move || {
        let d = data.get();
        if !d.revealed {
            return None;
        }
        let (class, mark) = grade(d.guess, d.decision);
        Some(view! {
            <div class="pl-result" tabindex="-1">
                <p class=format!("pl-verdict pl-v-{}", d.decision.as_str())>
                    <span class="pl-label">{lang.s(S::Verdict)}": "</span><strong>{lang.decision(d.decision)}</strong>
                </p>
                {(!d.explore && d.earlier.is_none()).then(|| view! { <p class=format!("pl-mark {class}")>{mark}</p> })}
                <p class="pl-why">{d.why}</p>
            </div>
        })
    };
    // A group, not a landmark: two widgets on a page both have an "OpenCode" panel.
    view! {
        <div class="pl-engine" role="group" data-engine=slug
            data-verdict=move || data.with(|d| d.revealed.then(|| d.decision.as_str()))
            aria-labelledby=heading.clone()>
            <h4 id=heading.clone()>{lang.engine(id)}<small class="pl-gist">{lang.engine_gist(id)}</small></h4>
            {lang.pin(id).map(|p| view! { <p class="pl-pin">{p}</p> })}
            {earlier}
            <Show when=move || !data.with(|d| d.explore)>
                <div class="pl-guess pl-controls" role="group" aria-label=format!("{}: {}", lang.s(S::YourGuess), lang.engine(id))>
                    {guess_button(Action::Allow)}
                    {guess_button(Action::Ask)}
                    {guess_button(Action::Deny)}
                    // A product that can take a tool away from the model has a fourth answer.
                    {id.can_hide_tools().then(|| view! {
                        <button type="button" class="pl-guess-btn pl-g-unavailable" data-guess="unavailable"
                            aria-pressed=move || (guess() == Some(Guess::Verdict(Decision::Unavailable))).to_string()
                            disabled=revealed
                            on:click=move |_| { act(ctx, Msg::Guess(id, Guess::Verdict(Decision::Unavailable))); }>
                            {lang.decision(Decision::Unavailable)}</button>
                    })}
                    <button type="button" class="pl-skip" disabled=revealed
                        aria-pressed=move || (guess() == Some(Guess::Skip)).to_string()
                        on:click=move |_| { act(ctx, Msg::Guess(id, Guess::Skip)); }>{lang.s(S::Skip)}</button>
                </div>
            </Show>
            <Show when=move || !revealed()>
                <button type="button" class="pl-reveal pl-controls" disabled=move || guess().is_none()
                    on:click=move |_| {
                        act(ctx, Msg::Reveal(id));
                        // The button is gone now: focus goes to the verdict it revealed.
                        focus::later(ctx, format!(".pl-engine[data-engine=\"{slug}\"] .pl-result"));
                    }>{lang.s(S::Reveal)}</button>
                <Show when=move || guess().is_none()>
                    <p class="pl-locked pl-controls">{lang.s(S::RevealLocked)}</p>
                </Show>
            </Show>
            {result}
            <DriftNote ctx id/>
        </div>
    }
}

/// Every reorder, newest last, with the verdicts it flipped.
#[component]
pub(crate) fn ReorderLog(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let entries = Memo::new(move |_| {
        ctx.read(Region::ReorderLog, |w| {
            w.lab()
                .log()
                .iter()
                .map(|e| lang.log_entry(w.table(), e))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="pl-log">
            <h3>{lang.s(S::Log)}</h3>
            <Show when=move || entries.with(Vec::is_empty)>
                <p class="pl-log-empty">{lang.s(S::LogEmpty)}</p>
            </Show>
            <ol class="pl-log-list">
                <For each=move || { entries.get().into_iter().enumerate().collect::<Vec<_>>() }
                    key=|e: &(usize, String)| e.clone()
                    children=|(_, t): (usize, String)| view! { <li class="pl-log-entry"><super::marked::Marked text=t/></li> }/>
            </ol>
        </section>
    }
}

/// What the disagreement box shows.
#[derive(Clone, PartialEq)]
pub(crate) struct DisagreeView {
    last: String,
    strongest: String,
    differ: bool,
    actual: String,
    caveat: bool,
    /// The part both readings are about, when OpenCode split the call.
    part: Option<String>,
    /// The same two readings on the order before the last reorder (the rules that match do
    /// not depend on the order, only which of them is last): (last, strongest, differ).
    before: Option<(String, String, bool)>,
}

/// OpenCode's last match against Claude Code's strongest match.
#[component]
pub(crate) fn DisagreementBox(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let heading = ctx.peek(|w| w.id("disagree-h"));
    let present = Memo::new(move |_| ctx.read(Region::Engines, Widget::compares_opencode_claude));
    let locked = Memo::new(move |_| {
        ctx.read(Region::Disagreement, |w| {
            !(w.revealed(EngineId::OpenCode) && w.revealed(EngineId::ClaudeCode))
        })
    });
    let data = Memo::new(move |_| {
        ctx.read(Region::Disagreement, |w| {
            // Both readings give the two verdicts away: nothing until both are revealed.
            if !(w.compares_opencode_claude()
                && w.revealed(EngineId::OpenCode)
                && w.revealed(EngineId::ClaudeCode))
            {
                return None;
            }
            let oc = w.eval(EngineId::OpenCode)?;
            let cc = w.eval(EngineId::ClaudeCode)?;
            let t = w.table();
            let d = Disagreement::new(t, &oc.matches);
            let show = |x: Option<(usize, Action)>| match x {
                Some((row, a)) => format!("{} ← {}", lang.action(a), lang.row_ref(t, row)),
                None => lang.s(S::NoMatch).to_string(),
            };
            let strong = d.strongest.map(|(_, a)| Decision::from(a));
            // The last change a reorder that Undo can take back: its order before is on the
            // undo stack (an Undo's own "before" is gone from it).
            let last_change = w.lab().log().last().map(|e| &e.change);
            let before = match (last_change, w.lab().undo_orders().last()) {
                (Some(c), Some(order)) if !matches!(c, crate::state::Change::Undo) => {
                    let mut prev = t.clone();
                    prev.reorder(order);
                    let ids: Vec<_> = oc
                        .matches
                        .iter()
                        .filter_map(|&i| t.rules().get(i).map(|r| r.id))
                        .collect();
                    let mut at: Vec<usize> = prev
                        .rules()
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| ids.contains(&r.id))
                        .map(|(i, _)| i)
                        .collect();
                    at.sort_unstable();
                    let b = Disagreement::new(&prev, &at);
                    let show = |x: Option<(usize, Action)>| match x {
                        Some((row, a)) => {
                            format!("{} ← {}", lang.action(a), lang.row_ref(&prev, row))
                        }
                        None => lang.s(S::NoMatch).to_string(),
                    };
                    Some((show(b.last), show(b.strongest), b.differ()))
                }
                _ => None,
            };
            Some(DisagreeView {
                last: show(d.last),
                strongest: show(d.strongest),
                differ: d.differ(),
                actual: format!(
                    "{} OpenCode → {}; Claude Code → {}",
                    lang.s(S::Actual),
                    lang.decision(oc.decision),
                    lang.decision(cc.decision)
                ),
                caveat: strong.is_some() && strong != Some(cc.decision),
                part: oc.decided_by.map(|(k, _)| lang.part_label(oc, k)),
                before,
            })
        })
    });
    // A group, not a landmark: a page may hold several widgets, each with this box. Only a
    // lesson that shows both engines has it.
    let heading2 = heading.clone();
    move || {
        present.get().then(|| { let heading = heading2.clone(); view! {
        <div class="pl-disagree" role="group" aria-labelledby=heading.clone()>
            <h3 id=heading.clone()>"⚠ "{lang.s(S::Disagree)}</h3>
            <Show when=move || locked.get()>
                <p class="pl-disagree-locked">{lang.s(S::DisagreeLocked)}</p>
            </Show>
            {move || data.get().map(|d| view! {
                {d.part.map(|p| view! { <p class="pl-disagree-part">{lang.s(S::DisagreePart)}{p}</p> })}
                <dl class="pl-disagree-list" data-differ=d.differ.to_string()>
                    <dt>{lang.s(S::LastMatch)}</dt><dd class="pl-last">{d.last}</dd>
                    <dt>{lang.s(S::Strongest)}</dt><dd class="pl-strongest">{d.strongest}</dd>
                </dl>
                <p class="pl-disagree-verdict"><strong>{lang.s(if d.differ { S::Differ } else { S::Coincide })}</strong></p>
                {d.before.map(|(last, strongest, differ)| view! {
                    <div class="pl-disagree-before" data-differ=differ.to_string()>
                        <p class="pl-disagree-before-head">{lang.s(S::DisagreeBefore)}</p>
                        <dl class="pl-disagree-before-list">
                            <dt>{lang.s(S::LastMatch)}</dt><dd class="pl-before-last">{last}</dd>
                            <dt>{lang.s(S::Strongest)}</dt><dd class="pl-before-strongest">{strongest}</dd>
                        </dl>
                        <p>{lang.s(if differ { S::Differ } else { S::Coincide })}</p>
                    </div>
                })}
                <p class="pl-disagree-actual">{d.actual}</p>
                {d.caveat.then(|| view! { <p class="pl-disagree-caveat">{lang.s(S::Caveat)}</p> })}
            })}
        </div>
    }})
    }
}
