//! Scenes beyond the rule table: each is a small state machine with its own markup,
//! mounted by a placeholder's `data-scene="<slug>"` (see [`crate::mount_all`]). Like the table
//! widget, a scene computes nothing itself: every verdict, stage and count comes from
//! `permlab-core`.
//!
//! Each scene is a plain-Rust state machine with methods (tested natively, e.g.
//! [`timeline::Timeline`]) and a Leptos component over it ([`timeline::TimelineScene`]): the
//! component holds the state in a signal, derives what it shows through `Memo`s, and wires
//! typed handlers to the state's methods, so a step updates only what changed — a field keeps
//! its caret, undo history and IME composition, a screen reader keeps its place. The `data-`
//! attributes and classes are hooks for tests and course CSS, not dispatch. [`host`] mounts a
//! scene in its frame with one persistent live region that repeats the scene's announced texts.
//!
//! Each scene keeps its words in its own `*_text.rs` file: a zh/en table made with
//! [`texts!`](texts), the same side-by-side shape as [`crate::text::i18n`], so a missing translation
//! is a compile error.

use crate::text::i18n::Lang;

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
            pub fn get(self, lang: $crate::text::i18n::Lang) -> &'static str {
                match self { $(T::$key => if lang == $crate::text::i18n::Lang::Zh { $zh } else { $en },)* }
            }
        }
    };
}

pub mod claude_flow;
pub(crate) mod claude_flow_text;
pub mod codex_approvals;
mod codex_approvals_text;
pub mod comparison;
pub(crate) mod comparison_text;
pub mod design;
mod design_text;
pub mod host;
pub mod keep;
mod lifecycle_text;
pub mod merge;
mod merge_text;
pub mod opencode_lifecycle;
pub mod replay;
mod replay_text;
pub mod timeline;
mod timeline_text;
pub mod ui;

/// A scene ready to mount (see [`host::mount`]): builds its component.
pub type Built = Box<dyn FnOnce() -> leptos::prelude::AnyView>;

/// The scene named `slug` in `lang`, if there is one. `lesson` is the placeholder's lesson
/// text (`data-lesson`): for `replay`, a rule table in the fixtures format.
pub fn build(slug: &str, lang: Lang, lesson: Option<&str>) -> Option<Built> {
    use leptos::prelude::*;
    let view = |f: fn(Lang) -> AnyView| Some(Box::new(move || f(lang)) as Built);
    match slug {
        "timeline" => view(|lang| {
            view! { <timeline::TimelineScene init=timeline::Timeline::new(lang)/> }.into_any()
        }),
        "merge" => {
            view(|lang| view! { <merge::MergeScene init=merge::Merge::new(lang)/> }.into_any())
        }
        "replay" => {
            let init = replay::Replay::new(lang, lesson);
            Some(Box::new(move || view! { <replay::ReplayScene init/> }.into_any()) as Built)
        }
        "claude-flow" => view(|lang| {
            view! { <claude_flow::ClaudeFlowScene init=claude_flow::ClaudeFlow::new(lang)/> }
                .into_any()
        }),
        "opencode-lifecycle" => view(|lang| {
            let init = opencode_lifecycle::OpencodeLifecycle::new(lang);
            view! { <opencode_lifecycle::LifecycleScene init/> }.into_any()
        }),
        "codex-approvals" => view(|lang| {
            let init = codex_approvals::CodexApprovals::new(lang);
            view! { <codex_approvals::CodexApprovalsScene init/> }.into_any()
        }),
        "comparison" => view(|lang| {
            view! { <comparison::ComparisonScene init=comparison::Comparison::new(lang)/> }
                .into_any()
        }),
        "design-evaluator" => {
            view(|lang| view! { <design::DesignScene init=design::Lab::new(lang)/> }.into_any())
        }
        _ => None,
    }
}

/// What a placeholder with an unknown `data-scene` shows: the slugs there are.
#[leptos::component]
pub fn Unknown(
    /// The slug asked for.
    slug: String,
) -> impl leptos::prelude::IntoView {
    use leptos::prelude::*;
    view! {
        <p class="pl-scene-unknown" role="alert">
            {format!("data-scene=\"{slug}\": unknown scene; known: {}", SLUGS.join(", "))}
        </p>
    }
}

/// Every scene slug, in the order a course introduces them.
pub const SLUGS: [&str; 8] = [
    "timeline",
    "claude-flow",
    "opencode-lifecycle",
    "merge",
    "replay",
    "codex-approvals",
    "comparison",
    "design-evaluator",
];

/// A view as HTML, rendered natively (the scenes' unit tests read their markup this way).
#[cfg(test)]
pub(crate) fn html<V: leptos::prelude::IntoView + 'static>(f: impl FnOnce() -> V) -> String {
    use leptos::tachys::view::RenderHtml;
    let owner = leptos::prelude::Owner::new();
    // `<!>` separates adjacent text nodes for hydration; the tests read the text.
    owner.with(|| f().into_view().to_html().replace("<!>", ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slug_builds_in_both_languages() {
        for slug in SLUGS {
            for lang in [Lang::Zh, Lang::En] {
                let html = html(build(slug, lang, None).unwrap_or_else(|| panic!("{slug}")));
                assert!(html.contains("<h2"), "{slug}: a heading");
            }
        }
        assert!(build("nope", Lang::Zh, None).is_none());
        let unknown = html(|| leptos::view! { <Unknown slug="nope".into()/> });
        assert!(
            unknown.contains("data-scene=\"nope\": unknown scene; known: timeline, claude-flow")
        );
    }
}
