//! Scenes beyond the rule table (issue 7): each is a small state machine with its own markup,
//! mounted by a placeholder's `data-scene="<slug>"` (see [`crate::mount_all`]). Like the table
//! widget, a scene computes nothing itself: every verdict, stage and count comes from
//! `permlab-core`.
//!
//! A scene renders itself to one HTML string ([`Scene::render`], through [`crate::html::H`],
//! which escapes every dynamic string) and reacts to its controls ([`Scene::act`]): each
//! control carries `data-act` (and `data-arg`, and `data-k` so focus survives a re-render);
//! `dom` calls `act` with the event and renders again when it returns `true`.

use crate::i18n::Lang;

/// One event on a scene's control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// `click`, `change`, `input` or `keydown`.
    pub kind: &'a str,
    /// The control's `data-act`.
    pub act: &'a str,
    /// The control's `data-arg` (empty when absent).
    pub arg: &'a str,
    /// The control's value (`input`/`select`/`textarea`; `"true"`/`"false"` for a checkbox),
    /// or the key for `keydown`.
    pub value: &'a str,
}

/// A scene: state, markup, and what its controls do.
pub trait Scene {
    /// The scene's whole markup (a `<section class="pl-widget pl-scene" …>` is put around it).
    fn render(&self) -> String;
    /// Applies one event; `true` when the scene changed (it is rendered again) — for
    /// `keydown`, also that the key was used (its default action is prevented).
    fn act(&mut self, event: &Event) -> bool;
}

/// The scene named `slug` in `lang`, if there is one. `lesson` is the placeholder's lesson
/// text (`data-lesson`), for scenes that take one.
pub fn build(slug: &str, lang: Lang, lesson: Option<&str>) -> Option<Box<dyn Scene>> {
    let _ = (slug, lang, lesson);
    None
}

/// Every scene slug, in the order a course introduces them.
pub const SLUGS: [&str; 0] = [];
