//! Where Claude Code's docs and the recorded CLI disagree on the current call: once
//! the learner has revealed Claude Code's verdict, its panel shows both answers with the
//! version ("文档:放行 · CLI 2.1.332 实测:拒绝"), as the claude-flow scene does. The
//! record comes from the core (`lesson::Preset::claude_drift`, `claude_code::drift`): only a
//! lesson whose settings are a recorded case's, on that case's call, has one.

use leptos::prelude::*;
use permlab_core::EngineId;

use super::ctx::Ctx;
use crate::model::Region;
use crate::text::i18n::S;

/// The drift line under an engine panel's verdict (Claude Code only, after the reveal).
#[component]
pub(crate) fn DriftNote(ctx: Ctx, id: EngineId) -> impl IntoView {
    let lang = ctx.lang;
    let drift = Memo::new(move |_| {
        ctx.read(Region::Drift, |w| {
            if id != EngineId::ClaudeCode || !w.revealed(id) {
                return None;
            }
            w.course().native.as_deref()?.claude_drift(w.lab().call())
        })
    });
    move || {
        drift.get().map(|d| {
            let label = lang.drift_label(d);
            view! {
                <p class="pl-drift" data-docs=d.docs.as_str() data-cli=d.cli.as_str() data-case=d.id>
                    {lang.s(S::DriftLead)}" "<strong>{label}</strong>
                </p>
            }
        })
    }
}
