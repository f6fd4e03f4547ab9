//! Where the widget keeps what the learner did (`sessionStorage`): the effect that stores it,
//! and the notes that say what could not be kept or restored.

use leptos::prelude::*;

use super::ctx::Ctx;
use crate::browser::web;
use crate::model::Region;

/// Stores the widget's state (every text as typed) in `sessionStorage` whenever it changes —
/// not on load: a widget the learner has not touched writes nothing. The first write also
/// removes an old-format link's entries from the URL hash, leaving the host's fragment alone.
/// `refused` is set when the browser does not take the item.
pub(crate) fn keep_state(ctx: Ctx, ns: String, refused: RwSignal<bool>) {
    let key = crate::persist::store::key(&web::page_path(), &ns);
    let kept = Memo::new(move |_| ctx.read(Region::Stored, |w| w.snapshot().to_stored()));
    let from_hash = StoredValue::new(ctx.peek(|w| w.kept().from_hash));
    Effect::new(move |first: Option<()>| {
        kept.with(|entries| {
            if first.is_none() {
                // What the widget starts with is not a change.
                return;
            }
            let ok = web::session_set(&key, &crate::persist::store::encode(&ns, entries));
            if refused.get_untracked() == ok {
                refused.set(!ok);
            }
            if from_hash.get_value() {
                from_hash.set_value(false);
                web::strip_hash(&ns);
            }
        });
    });
}

/// The state notes: a stored state that was ignored, a link too long to read, texts too long
/// to keep across a reload, a browser that refused to store. Nothing when all is well.
#[component]
pub(crate) fn StateNotes(ctx: Ctx, refused: RwSignal<bool>) -> impl IntoView {
    let lang = ctx.lang;
    let notes = Memo::new(move |_| {
        let mut v: Vec<String> = ctx.read(Region::StateNotes, |w| {
            w.kept()
                .notes
                .iter()
                .chain(w.unkept().iter())
                .map(|n| lang.state_note(n))
                .collect()
        });
        if refused.get() {
            v.push(lang.state_note(&crate::persist::store::Note::StorageRefused));
        }
        v
    });
    view! {
        <Show when=move || notes.with(|n| !n.is_empty())>
            <div class="pl-state-notes" role="status">
                {move || notes.get().into_iter().map(|n| view! { <p class="pl-state-note">{n}</p> }).collect_view()}
            </div>
        </Show>
    }
}
