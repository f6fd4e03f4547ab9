//! The call: its fields, its messages and the one-line summary.

use leptos::prelude::*;
use permlab_core::claude_code::eval::{Blocker, Decider};
use permlab_core::Reason;

use super::act::act;
use super::ctx::{after_delay, Ctx};
use crate::model::{Msg, Region};
use crate::text::i18n::{one_line, S};

/// The call's fields: the lesson's calls, the tool and the input. Each field's value is the
/// model's text, kept exactly as typed: while typing it equals what the field holds (setting a
/// field to its own value moves no caret), and a call set from elsewhere (a pick, a lint
/// finding, a restore) rewrites it. (Rewriting only on a revision counter through a memo left the
/// fields showing the previous call after a pick.)
#[component]
pub(crate) fn CallFields(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let options = Memo::new(move |_| {
        ctx.read(Region::CallSelect, |w| {
            let current = w.course().calls.iter().position(|c| c == w.lab().call());
            let labels: Vec<String> = w
                .course()
                .calls
                .iter()
                .map(|c| one_line(&c.to_string()))
                .collect();
            (labels, current)
        })
    });
    let invalid = Memo::new(move |_| ctx.read(Region::CallFields, |w| w.tool_problem().is_some()));
    let typing = StoredValue::new_local(Typing::default());
    // A long input neither wraps nor sizes the field to its content: the browser would lay out
    // every line of it at each keystroke (60–200 ms a key for 400 KB).
    let long = Memo::new(move |_| {
        ctx.read(Region::CallFields, |w| {
            crate::model::typing_pause(w.fields().input.len()).is_some()
        })
    });
    view! {
        <label class="pl-field">
            <span>{lang.s(S::CallPreset)}</span>
            <select class="pl-call-select" on:change=move |e| {
                if let Ok(i) = event_target_value(&e).parse() {
                    act(ctx, Msg::PickCall(i));
                }
            }>
                {move || {
                    let (labels, current) = options.get();
                    let none = current.is_none();
                    let first = view! { <option value="" disabled=true prop:selected=none>"—"</option> };
                    let rest = labels.into_iter().enumerate().map(|(i, l)| view! {
                        <option value=i.to_string() prop:selected=current == Some(i)>{l}</option>
                    }).collect_view();
                    (first, rest)
                }}
            </select>
        </label>
        <label class="pl-field pl-field-tool">
            <span>{lang.s(S::CallTool)}</span>
            <input class="pl-call-tool-input" type="text" spellcheck="false" autocomplete="off"
                aria-invalid=move || invalid.get().to_string()
                prop:value=move || ctx.read(Region::CallFields, |w| w.fields().tool.clone())
                on:input=move |e| { act(ctx, Msg::EditTool(event_target_value(&e))); }/>
        </label>
        <label class="pl-field pl-field-input">
            <span>{lang.s(S::CallInput)}</span>
            <textarea class="pl-call-input-text" rows="1" spellcheck="false"
                class:pl-call-input-long=move || long.get()
                wrap=move || if long.get() { "off" } else { "soft" }
                prop:value=move || ctx.read(Region::CallFields, |w| w.fields().input.clone())
                on:input=move |e| typed(ctx, typing, event_target(&e))
                on:blur=move |e| flush(ctx, typing, event_target(&e))></textarea>
        </label>
    }
}

/// The input field's keystrokes not yet handed to the model (a long input, while typing).
#[derive(Default)]
struct Typing {
    /// Counts keystrokes: a pause's timer hands the text over only if no key came since.
    generation: u32,
    /// A keystroke waits for its pause.
    pending: bool,
}

/// A keystroke in the input field: the text goes to the model now, or once typing pauses
/// (a long input, see [`crate::model::typing_pause`]). The field keeps what was typed either way.
fn typed(ctx: Ctx, typing: StoredValue<Typing, LocalStorage>, field: web_sys::HtmlTextAreaElement) {
    let generation = typing.with_value(|t| t.generation.wrapping_add(1));
    match crate::model::typing_pause(field.text_length() as usize) {
        None => {
            typing.set_value(Typing {
                generation,
                pending: false,
            });
            act(ctx, Msg::EditInput(field.value()));
        }
        Some(pause) => {
            typing.set_value(Typing {
                generation,
                pending: true,
            });
            after_delay(
                ctx,
                move || {
                    if typing.with_value(|t| t.pending && t.generation == generation) {
                        flush(ctx, typing, field);
                    }
                },
                pause,
            );
        }
    }
}

/// Hands a waiting text to the model now (the pause came, or the field lost the focus).
fn flush(ctx: Ctx, typing: StoredValue<Typing, LocalStorage>, field: web_sys::HtmlTextAreaElement) {
    if typing.with_value(|t| t.pending) {
        typing.update_value(|t| t.pending = false);
        act(ctx, Msg::EditInput(field.value()));
    }
}

/// Why the typed tool cannot be used, and what some engine could not take from the input.
#[component]
pub(crate) fn CallMessages(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let problem = Memo::new(move |_| ctx.read(Region::CallFields, |w| w.tool_problem()));
    let notes = Memo::new(move |_| {
        ctx.read(Region::CallNotes, |w| {
            w.verdicts()
                .evals
                .iter()
                .filter(|e| {
                    matches!(
                        &e.reason,
                        Reason::CodexUnsplittable { .. }
                            | Reason::ClaudeCode(Decider::Mode {
                                why: Blocker::Unparseable(_),
                                ..
                            })
                    )
                })
                .map(|e| {
                    (
                        lang.engine(e.engine),
                        lang.reason(w.table(), e.engine, &e.reason),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <p class="pl-call-error" role="alert" data-invalid=move || problem.get().is_some().to_string()>
            {move || problem.get().unwrap_or("")}
        </p>
        <ul class="pl-call-notes">
            {move || notes.get().into_iter().map(|(e, why)| view! { <li><strong>{e}</strong>": "{why}</li> }).collect_view()}
        </ul>
    }
}

/// The call as the engines read it.
#[component]
pub(crate) fn CallNow(ctx: Ctx) -> impl IntoView {
    let call = Memo::new(move |_| ctx.read(Region::CallNow, |w| w.lab().call().clone()));
    // A long input shows its start and end only (see `shown_input`); `data-length` has its
    // length in characters.
    let shown = Memo::new(move |_| {
        call.with(|c| {
            let (text, note) = crate::text::i18n::shown_input(ctx.lang, &c.input);
            (c.input.chars().count(), text, note)
        })
    });
    // Where it runs: what is outside the project, and what `~` means, depend on it.
    let place = Memo::new(move |_| {
        ctx.read(Region::CallPlace, |w| {
            ctx.lang.call_place(&w.call_context())
        })
    });
    view! {
        <p class="pl-call-now">
            <span class="pl-call-label">{ctx.lang.s(S::Call)}</span>
            <code class="pl-call-tool">{move || call.with(|c| c.tool.clone())}</code>
            <code class="pl-call-input" data-length=move || shown.with(|s| s.0.to_string())>
                {move || shown.with(|s| s.1.clone())}
            </code>
            {move || shown.with(|s| s.2.clone()).map(|note| view! { <span class="pl-call-cut">{note}</span> })}
            <span class="pl-call-place">{move || place.get()}</span>
        </p>
    }
}
