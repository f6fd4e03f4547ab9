//! The table editor and the import panel.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::act::act;
use super::ctx::Ctx;
use super::findings::*;
use crate::model::FormatChoice;
use crate::model::{Msg, Region};
use crate::text::i18n::S;
use permlab_core::import::Format;

/// The table as editable JSON (fixtures format).
#[component]
pub(crate) fn TableEditor(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let error = Memo::new(move |_| ctx.read(Region::Editor, |w| w.editor().error.clone()));
    view! {
        <details class="pl-editor pl-controls" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                act(ctx, Msg::Editor(d.open()));
            }
        }>
            // The text is put in on the click itself (the `toggle` event comes a task later): a
            // learner who types at once types into the table, not before it.
            <summary on:click=move |_| { act(ctx, Msg::Editor(true)); }>{lang.s(S::EditTable)}</summary>
            <label class="pl-field">
                <span class="pl-sr">{lang.s(S::EditTable)}</span>
                <textarea class="pl-table-json" rows="8" spellcheck="false"
                    prop:value=move || ctx.read(Region::Editor, |w| w.editor().text.clone())
                    on:input=move |e| { act(ctx, Msg::EditTable(event_target_value(&e))); }></textarea>
            </label>
            <button type="button" class="pl-apply" on:click=move |_| { act(ctx, Msg::Apply); }>{lang.s(S::Apply)}</button>
            <p class="pl-table-error" role="alert">
                {move || error.get().map(|e| format!("{}: {}", lang.s(S::TableError), lang.import_error(&e)))}
            </p>
        </details>
    }
}

/// What the import panel says.
#[derive(Clone, PartialEq)]
pub(crate) enum ImportView {
    Nothing,
    Pending,
    Error(String),
    Summary {
        format: &'static str,
        imported: usize,
        dropped: usize,
        text: String,
        warnings: Vec<String>,
    },
}

/// A harness's own config pasted in (Claude Code settings, opencode.json, Codex `.rules`).
#[component]
pub(crate) fn ImportPanel(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let message = Memo::new(move |_| {
        ctx.read(Region::ImportResult, |w| {
            if w.waiting().import.is_some() {
                ImportView::Pending
            } else if let Some(e) = &w.import().error {
                ImportView::Error(lang.import_problem(e))
            } else if let Some(s) = &w.import().summary {
                let harness = lang.engine(s.format.engine());
                ImportView::Summary {
                    format: s.format.slug(),
                    imported: s.imported,
                    dropped: s.dropped,
                    text: lang.import_summary(harness, s.imported, s.dropped),
                    warnings: s.warnings.clone(),
                }
            } else {
                ImportView::Nothing
            }
        })
    });
    let format0 = ctx.peek(|w| w.import().format);
    view! {
        <details class="pl-import pl-controls">
            <summary>{lang.s(S::ImportTitle)}</summary>
            <label class="pl-field">
                <span>{lang.s(S::ImportFormat)}</span>
                <select class="pl-import-format" on:change=move |e| {
                    act(ctx, Msg::ImportFormat(FormatChoice::from_slug(&event_target_value(&e))));
                }>
                    {FormatChoice::ALL.into_iter().map(|choice| {
                        let label = match choice {
                            FormatChoice::Auto => lang.s(S::ImportAuto),
                            FormatChoice::Is(Format::ClaudeCode) => "Claude Code · .claude/settings.json",
                            FormatChoice::Is(Format::OpenCode) => "OpenCode · opencode.json(c) / agent .md",
                            FormatChoice::Is(Format::Codex) => "Codex · .rules",
                        };
                        view! { <option value=choice.slug() selected=format0 == choice>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label class="pl-field pl-field-wide">
                <span>{lang.s(S::ImportText)}</span>
                <textarea class="pl-import-text" rows="8" spellcheck="false"
                    prop:value=move || ctx.read(Region::ImportText, |w| w.import().text.clone())
                    on:input=move |e| { act(ctx, Msg::ImportText(event_target_value(&e))); }></textarea>
            </label>
            <button type="button" class="pl-import-button" on:click=move |_| { act(ctx, Msg::Import); }>{lang.s(S::ImportButton)}</button>
            <div class="pl-import-result" role="status">
                {move || match message.get() {
                    ImportView::Nothing => ().into_any(),
                    ImportView::Pending => view! { <p class="pl-import-pending">{lang.s(S::ImportReading)}</p> }.into_any(),
                    ImportView::Error(e) => view! {
                        <p class="pl-import-error" role="alert">{lang.s(S::ImportFailed)}": "{e}</p>
                    }.into_any(),
                    ImportView::Summary { format, imported, dropped, text, warnings } => view! {
                        <p class="pl-import-summary" data-format=format data-imported=imported.to_string() data-dropped=dropped.to_string()>{text}</p>
                        <ul class="pl-import-warnings">
                            {warnings.into_iter().map(|w| view! { <li class="pl-import-warning">{w}</li> }).collect_view()}
                        </ul>
                    }.into_any(),
                }}
            </div>
            <Findings ctx/>
        </details>
    }
}
