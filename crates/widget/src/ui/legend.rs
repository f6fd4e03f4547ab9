//! What the table's markers mean: each cursor shape with its engine, and ★ with the engines
//! whose deciding rule it marks. Shapes differ per engine (colour is never the only cue), so a
//! learner needs the key on screen, not in the documentation.

use leptos::prelude::*;
use permlab_core::EngineId;

use super::ctx::{cursor_glyph, Ctx};
use crate::model::Region;
use crate::text::i18n::S;

/// The table's legend: ★ (the rule that decided, per revealed engine) and, while the stepper
/// is open, each cursor's shape and engine.
#[component]
pub(crate) fn Legend(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let data = Memo::new(move |_| {
        ctx.read(Region::Legend, |w| {
            let mut decided: Vec<EngineId> = Vec::new();
            for (_, e) in w.decisive() {
                if !decided.contains(&e) {
                    decided.push(e);
                }
            }
            let cursors = if w.panels().stepping {
                w.cursor_engines()
            } else {
                Vec::new()
            };
            (decided, cursors)
        })
    });
    view! {
        <p class="pl-legend">
            <span class="pl-label">{lang.s(S::Legend)}": "</span>
            // ★ with each engine's shape, as the rows show it.
            <span class="pl-legend-item" data-mark="decisive">
                <span class="pl-legend-star" aria-hidden="true">"★"</span>" "
                {move || data.with(|(d, _)| if d.is_empty() {
                    lang.s(S::LegendDecisiveNone).to_string()
                } else {
                    lang.s(S::LegendDecisive).to_string()
                })}
                {move || data.get().0.into_iter().map(|e| view! {
                    " "<span class="pl-star" data-engine=e.slug()>
                        <span aria-hidden="true">"★"<span class=format!("pl-cur pl-cur-{}", e.slug())>{cursor_glyph(e)}</span>" "</span>
                        {lang.engine(e)}
                    </span>
                }).collect_view()}
            </span>
            {move || data.get().1.into_iter().map(|e| view! {
                <span class="pl-legend-item" data-mark="cursor" data-engine=e.slug()>
                    <span class=format!("pl-cur pl-cur-{}", e.slug()) aria-hidden="true">{cursor_glyph(e)}</span>
                    " "{lang.engine(e)}" "{lang.s(S::LegendCursor)}
                </span>
            }).collect_view()}
        </p>
    }
}
