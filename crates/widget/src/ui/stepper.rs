//! The stepper: a first-match cursor down and a last-match cursor up the table.

use leptos::ev;
use leptos::prelude::*;
use permlab_core::EngineId;

use super::act::act;
use super::ctx::{cursor_glyph, Ctx};
use crate::browser::web;
use crate::model::{Msg, Region, WalkStep};
use crate::text::i18n::S;

/// What the stepper's box shows: open, and one line per shown engine (`true`: withheld until
/// the engine is revealed). The step and its count are the dock's ([`StepDock`]).
#[derive(Clone, PartialEq)]
pub(crate) struct StepperView {
    open: bool,
    lines: Vec<(EngineId, String, bool)>,
}

/// The stepper: walks every cursor engine through the table, one step at a time.
#[component]
pub(crate) fn Stepper(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let data = Memo::new(move |_| {
        ctx.read(Region::Stepper, |w| {
            let k = w.step();
            // Exactly the shown engines: those that read the table draw a cursor, the others
            // (CoreCoder) get their one-line reason. An unrevealed engine walks its whole scan
            // order blind (the same walk whatever it decides); a revealed one its own steps and,
            // when no rule decided, a last step that says what did.
            let lines = if w.panels().stepping {
                w.shown()
                    .into_iter()
                    .filter_map(|id| {
                        let e = w.eval(id)?;
                        let locked = w.withholds_step(id, k);
                        let text = if k == 0 {
                            lang.s(S::NotStarted).to_string()
                        } else if !id.reads_rules() {
                            if locked {
                                lang.step_locked(id)
                            } else {
                                lang.explain(w.table(), e)
                            }
                        } else {
                            match w.walk_step(id, k) {
                                Some(WalkStep::Step(i)) => {
                                    lang.part_step(w.table(), e, &e.steps[i])
                                }
                                Some(WalkStep::Unseen { row, group }) => {
                                    lang.step_unseen(w.table(), row, group)
                                }
                                Some(WalkStep::End) if locked => lang.step_end_waits(id),
                                Some(WalkStep::End) | None => lang.step_end(w.table(), e),
                            }
                        };
                        Some((id, text, locked))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            StepperView {
                open: w.panels().stepping,
                lines,
            }
        })
    });
    let open = Memo::new(move |_| data.with(|d| d.open));
    let on_key = step_keys(ctx);
    view! {
        <section class="pl-stepper">
            <button type="button" class="pl-step-toggle pl-controls" aria-expanded=move || open.get().to_string()
                aria-keyshortcuts="ArrowLeft ArrowRight"
                // ←/→ step from the toggle too, once the stepper is open.
                on:keydown=move |e| if open.get_untracked() { on_key(e) }
                on:click=move |_| { act(ctx, Msg::ToggleStepper); }>
                {move || lang.s(if open.get() { S::StepperClose } else { S::StepperOpen })}
            </button>
            <Show when=move || open.get()>
                <div class="pl-stepper-body" role="group" aria-label=lang.s(S::StepperOpen) on:keydown=on_key>
                    <ul class="pl-step-lines">
                        {move || data.get().lines.into_iter().map(|(id, text, locked)| view! {
                            <li class="pl-step-line" data-engine-step=id.slug() data-locked=locked.then_some("true")>
                                <span class=format!("pl-cur pl-cur-{}", id.slug()) aria-hidden="true">{cursor_glyph(id)}</span>
                                <strong>{lang.engine(id)}</strong>": "<span class="pl-step-text">{text}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                </div>
            </Show>
        </section>
    }
}

/// ←/→ step, from any stepper control (not while typing in a field).
fn step_keys(ctx: Ctx) -> impl Fn(ev::KeyboardEvent) + Copy + 'static {
    move |e: ev::KeyboardEvent| {
        if web::in_text_field(&e) {
            return;
        }
        let msg = match e.key().as_str() {
            "ArrowLeft" | "Left" => Msg::StepBy(-1),
            "ArrowRight" | "Right" => Msg::StepBy(1),
            _ => return,
        };
        if act(ctx, msg) {
            e.prevent_default();
        }
    }
}

/// The step buttons and "第 k 步", right under the table, while the stepper is open. On a
/// screen too narrow for the side column (a phone) the stepper's box is far below the table:
/// the dock sticks to the bottom of the screen while the table is in view, so the cursors and
/// the buttons that move them are seen together.
#[component]
pub(crate) fn StepDock(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    // Only what the dock shows: open, the step and the total once nothing is left to guess.
    let data = Memo::new(move |_| {
        ctx.read(Region::Stepper, |w| {
            let open = w.panels().stepping;
            let total = (open && w.shown().iter().all(|e| w.revealed(*e))).then(|| w.total_steps());
            (open, w.step(), total)
        })
    });
    let on_key = step_keys(ctx);
    let step = move |class: &'static str,
                     by: i8,
                     pre: &'static str,
                     label: S,
                     post: &'static str| {
        view! {
            <button type="button" class=class aria-keyshortcuts=(by == 1).then_some("ArrowRight")
                on:click=move |_| { act(ctx, Msg::StepBy(by)); }>{pre}{lang.s(label)}{post}</button>
        }
    };
    view! {
        <Show when=move || data.with(|d| d.0)>
            <div class="pl-step-dock pl-controls" role="group" aria-label=lang.s(S::StepperOpen) on:keydown=on_key>
                <div class="pl-step-buttons">
                    {step("pl-step-first", -2, "« ", S::First, "")}
                    {step("pl-step-prev", -1, "◀ ", S::Prev, "")}
                    {step("pl-step-next", 1, "", S::Next, " ▶")}
                    {step("pl-step-last", 2, "", S::Last, " »")}
                </div>
                <p class="pl-step-count" aria-live="polite">
                    {move || data.with(|&(_, k, total)| match total {
                        Some(n) => lang.step_of(k, n),
                        None => lang.step_at(k),
                    })}
                    <span class="pl-hint">" · "{lang.s(S::StepHint)}</span>
                </p>
            </div>
        </Show>
    }
}
