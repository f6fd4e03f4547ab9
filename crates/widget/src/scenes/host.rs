//! Mounting a scene: the `<section class="pl-widget pl-scene">` around the scene's component,
//! and the one live region every scene shares (see [`announce`]).
//!
//! The placeholder's own content is moved aside into a fragment while the scene is mounted and
//! moved back by [`unmount`] (nodes, not markup: nothing is parsed again, listeners on it
//! survive).

use leptos::prelude::*;
use web_sys::{DocumentFragment, HtmlElement};

use crate::text::i18n::Lang;

/// The scene's live region: the text the `role="status"` paragraph says (see [`announce`]).
#[derive(Clone, Copy)]
pub struct Live(pub RwSignal<String>);

/// Says, in the scene's one persistent live region, the texts of `texts` that changed since the
/// last time (index by index; nothing on the first run). A scene passes the texts it marks
/// `data-live` (the stepper's "step k of n", a result line): a live region inserted anew is not
/// reliably announced, a persistent one is.
pub fn announce(texts: Memo<Vec<String>>) {
    let Some(Live(live)) = use_context::<Live>() else {
        return;
    };
    Effect::new(move |before: Option<Vec<String>>| {
        let now = texts.get();
        if let Some(before) = before {
            let changed: Vec<&str> = now
                .iter()
                .enumerate()
                .filter(|(i, t)| before.get(*i) != Some(*t))
                .map(|(_, t)| t.as_str())
                .collect();
            if !changed.is_empty() {
                live.set(changed.join(" · "));
            }
        }
        now
    });
}

/// A mounted scene (see [`mount`]).
pub struct MountedScene {
    host: HtmlElement,
    /// The placeholder's own nodes, while the scene is shown.
    original: Option<DocumentFragment>,
    /// Dropping it unmounts the view and disposes of its signals and effects.
    view: Option<Box<dyn std::any::Any>>,
}

/// Mounts `scene` (a component, see [`super::view`]) into `host`, whose content comes back on
/// [`unmount`].
pub fn mount<V: IntoView + 'static>(
    host: HtmlElement,
    slug: &str,
    lang: Lang,
    scene: impl FnOnce() -> V + 'static,
) -> MountedScene {
    let original = host.owner_document().and_then(|d| {
        let frag = d.create_document_fragment();
        while let Some(child) = host.first_child() {
            frag.append_child(&child).ok()?;
        }
        Some(frag)
    });
    let slug = slug.to_string();
    // The scene's fields are kept under the placeholder's id (see `super::keep`), or its kind's
    // name without one. Two placeholders with one name each keep their own (the later ones
    // under a key of their own), and the author is told, on the page and in the console.
    let (ns, same) = if host.id().is_empty() {
        let name = format!("scene-{slug}");
        let same = crate::browser::web::rank_among(&host, "[data-permlab][data-scene]", |el| {
            el.id().is_empty() && el.get_attribute("data-scene").as_deref() == Some(slug.as_str())
        })
        .map(|(count, rank)| crate::persist::store::Note::NoId {
            scene: slug.clone(),
            count,
            key: crate::persist::store::same_id_ns(&name, rank),
        });
        (name, same)
    } else {
        (host.id(), crate::browser::web::same_id(&host))
    };
    let ns = match &same {
        Some(
            crate::persist::store::Note::SameId { key, .. }
            | crate::persist::store::Note::NoId { key, .. },
        ) => key.clone(),
        _ => ns,
    };
    if let Some(n) = &same {
        leptos::logging::warn!("permlab: {}", Lang::En.state_note(n));
    }
    // The scene's frame: `<section class="pl-widget pl-scene" lang data-scene>`, the scene in
    // `.pl-scene-body`, the live region after it (the scene's texts reach it through `Live`).
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let live = RwSignal::new(String::new());
        provide_context(Live(live));
        let notes = RwSignal::new(same.into_iter().collect::<Vec<_>>());
        provide_context(super::keep::SceneStore {
            key: crate::persist::store::scene_key(&crate::browser::web::page_path(), &ns),
            ns,
            notes,
        });
        let body = scene();
        view! {
            <section class="pl-widget pl-scene" lang=lang.tag() data-scene=slug>
                <Show when=move || notes.with(|n: &Vec<crate::persist::store::Note>| !n.is_empty())>
                    <div class="pl-state-notes" role="status">
                        {move || notes.get().iter().map(|n| view! { <p class="pl-state-note">{lang.state_note(n)}</p> }).collect_view()}
                    </div>
                </Show>
                <div class="pl-scene-body">{body}</div>
                <p class="pl-sr pl-scene-live" role="status" aria-live="polite">{move || live.get()}</p>
            </section>
        }
    });
    MountedScene {
        host,
        original,
        view: Some(Box::new(handle)),
    }
}

/// Removes a scene and puts the placeholder's content back.
pub fn unmount(m: &mut MountedScene) {
    drop(m.view.take());
    while let Some(child) = m.host.first_child() {
        let _ = m.host.remove_child(&child);
    }
    if let Some(frag) = m.original.take() {
        let _ = m.host.append_child(&frag);
    }
}
