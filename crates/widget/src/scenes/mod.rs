//! Scenes beyond the rule table (issue 7): each is a small state machine with its own markup,
//! mounted by a placeholder's `data-scene="<slug>"` (see [`crate::mount_all`]). Like the table
//! widget, a scene computes nothing itself: every verdict, stage and count comes from
//! `permlab-core`.
//!
//! A scene renders itself to one HTML string ([`Scene::render`], through [`crate::html::H`],
//! which escapes every dynamic string) and reacts to its controls ([`Scene::act`]): each
//! control carries `data-act` (and `data-arg`, and `data-k` so focus survives a re-render);
//! `dom` calls `act` with the event and renders again when it returns `true`. Elements marked
//! `data-live` are announced when their text changes: `dom` keeps one live region per scene
//! outside the re-rendered markup and repeats their changed texts there.
//!
//! Each scene keeps its words in its own `*_text.rs` file: a zh/en table made with
//! [`texts!`](texts), the same side-by-side shape as [`crate::i18n`], so a missing translation
//! is a compile error.

use crate::i18n::Lang;

/// A scene's zh/en table: `texts! { Key => "中文", "English"; … }` makes an enum `T` whose
/// [`get`](T::get) returns the text in a language.
macro_rules! texts {
    ($($key:ident => $zh:expr, $en:expr;)*) => {
        /// Keys of this scene's fixed texts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum T { $($key,)* }
        impl T {
            /// The text in `lang`.
            pub fn get(self, lang: $crate::i18n::Lang) -> &'static str {
                match self { $(T::$key => if lang == $crate::i18n::Lang::Zh { $zh } else { $en },)* }
            }
        }
    };
}

pub mod claude_flow;
mod claude_flow_text;
mod lifecycle_text;
pub mod merge;
mod merge_text;
pub mod opencode_lifecycle;
pub mod replay;
mod replay_text;
pub mod timeline;
mod timeline_text;
pub mod ui;

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

impl<'a> Event<'a> {
    /// A click on a control (tests and keyboard shortcuts build events this way).
    pub fn click(act: &'a str, arg: &'a str) -> Self {
        Event {
            kind: "click",
            act,
            arg,
            value: "",
        }
    }

    /// A value change (`change` for selects and checkboxes, `input` for text).
    pub fn value(kind: &'a str, act: &'a str, arg: &'a str, value: &'a str) -> Self {
        Event {
            kind,
            act,
            arg,
            value,
        }
    }

    /// A key pressed on a control.
    pub fn key(act: &'a str, arg: &'a str, key: &'a str) -> Self {
        Event {
            kind: "keydown",
            act,
            arg,
            value: key,
        }
    }
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
/// text (`data-lesson`): for `replay`, a rule table in the fixtures format.
pub fn build(slug: &str, lang: Lang, lesson: Option<&str>) -> Option<Box<dyn Scene>> {
    if !cfg!(feature = "scenes") {
        // The table widget's bundle: no scene is linked in.
        return None;
    }
    Some(match slug {
        "merge" => Box::new(merge::Merge::new(lang)),
        "timeline" => Box::new(timeline::Timeline::new(lang)),
        "replay" => Box::new(replay::Replay::new(lang, lesson)),
        "claude-flow" => Box::new(claude_flow::ClaudeFlow::new(lang)),
        "opencode-lifecycle" => Box::new(opencode_lifecycle::OpencodeLifecycle::new(lang)),
        _ => return None,
    })
}

/// What a placeholder with an unknown `data-scene` shows: the slugs there are.
pub struct Unknown(pub String);

impl Scene for Unknown {
    fn render(&self) -> String {
        let mut h = crate::html::H::default();
        h.open("p")
            .a("class", "pl-scene-unknown")
            .a("role", "alert")
            .gt()
            .t("data-scene=\"")
            .t(&self.0)
            .t("\": unknown scene; known: ")
            .t(&SLUGS.join(", "))
            .close("p");
        h.s
    }

    fn act(&mut self, _: &Event) -> bool {
        false
    }
}

/// Every scene slug, in the order a course introduces them.
pub const SLUGS: [&str; 5] = [
    "timeline",
    "claude-flow",
    "opencode-lifecycle",
    "merge",
    "replay",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slug_builds_in_both_languages() {
        for slug in SLUGS {
            for lang in [Lang::Zh, Lang::En] {
                let s = build(slug, lang, None).unwrap_or_else(|| panic!("{slug}"));
                let html = s.render();
                assert!(html.contains("<h2"), "{slug}: a heading");
            }
        }
        assert!(build("nope", Lang::Zh, None).is_none());
    }
}
