//! Controls and marks the scenes share, as Leptos components: labelled selects and fields,
//! pressed-button groups over a typed [`Choices`], a stepper driven by buttons and arrow keys, verdict badges (an icon
//! and a word, never colour alone). What a control does is a typed callback into the scene's
//! state.

use leptos::prelude::*;
use permlab_core::Decision;

use crate::text::i18n::Lang;

/// The icon of a decision (shape, not colour, tells them apart).
pub fn icon(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    }
}

/// A stepper move: the buttons' `data-arg` (`-2` `-1` `1` `2`, kept as hooks) and the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// « First (Home).
    First,
    /// ◀ Previous (←, ↑).
    Prev,
    /// Next ▶ (→, ↓).
    Next,
    /// Last » (End).
    Last,
}

impl Move {
    /// The move a key means, if any.
    pub fn of_key(key: &str) -> Option<Move> {
        Some(match key {
            "ArrowRight" | "ArrowDown" => Move::Next,
            "ArrowLeft" | "ArrowUp" => Move::Prev,
            "Home" => Move::First,
            "End" => Move::Last,
            _ => return None,
        })
    }

    /// Position `k` of `0..=last` after this move.
    pub fn apply(self, k: usize, last: usize) -> usize {
        match self {
            Move::First => 0,
            Move::Prev => k.saturating_sub(1),
            Move::Next => (k + 1).min(last),
            Move::Last => last,
        }
    }

    /// The button's `data-arg` (the e2e tests' hook).
    pub fn arg(self) -> &'static str {
        match self {
            Move::First => "-2",
            Move::Prev => "-1",
            Move::Next => "1",
            Move::Last => "2",
        }
    }
}

/// A keydown handler for anything that steps with ←/→/Home/End: the key is used (no page
/// scroll) even at an end of the walk.
pub fn on_step_key(go: Callback<Move>) -> impl Fn(leptos::ev::KeyboardEvent) + Copy + 'static {
    move |e: leptos::ev::KeyboardEvent| {
        if let Some(m) = Move::of_key(&e.key()) {
            e.prevent_default();
            go.run(m);
        }
    }
}

/// First / previous / next / last buttons (←/→/Home/End on any of them step too) and the line
/// saying where we are (`.pl-scene-now`, `data-live`: the scene announces it, see
/// [`super::host::announce`]). The ends are `aria-disabled`, not `disabled`: a focused button
/// keeps its focus at the end of the walk. The buttons are never re-created, so focus stays.
#[component]
pub fn Stepper(
    /// The page's language (the buttons' words).
    lang: Lang,
    /// The group's name.
    label: &'static str,
    /// The position, `0..=last`.
    #[prop(into)]
    k: Signal<usize>,
    /// The last position (it may follow the state: a walk that waits for an answer).
    #[prop(into)]
    last: Signal<usize>,
    /// "Step k of n: …".
    #[prop(into)]
    now: Signal<String>,
    /// What a move does.
    go: Callback<Move>,
) -> impl IntoView {
    let zh = lang == Lang::Zh;
    let key = on_step_key(go);
    let buttons = [
        (Move::First, "« ", if zh { "第一步" } else { "First" }, ""),
        (Move::Prev, "◀ ", if zh { "上一步" } else { "Previous" }, ""),
        (Move::Next, "", if zh { "下一步" } else { "Next" }, " ▶"),
        (Move::Last, "", if zh { "最后一步" } else { "Last" }, " »"),
    ]
    .map(|(m, pre, text, post)| {
        let off = move || {
            let k = k.get();
            let end = if matches!(m, Move::First | Move::Prev) { k == 0 } else { k >= last.get() };
            if end { "true" } else { "false" }
        };
        view! {
            <button type="button" class=format!("pl-scene-step pl-step-{}", m.arg()) data-arg=m.arg()
                aria-keyshortcuts="ArrowLeft ArrowRight Home End" aria-disabled=off
                on:click=move |_| go.run(m) on:keydown=key>{pre}{text}{post}</button>
        }
    });
    let hint = if zh {
        "在按钮上用 ← / → 逐步"
    } else {
        "Use ← / → on the buttons to step"
    };
    view! {
        <div class="pl-scene-steps pl-controls" role="group" aria-label=label>{buttons}</div>
        <p class="pl-scene-now" data-live="">{move || now.get()}<span class="pl-hint pl-controls">" · "{hint}</span></p>
    }
}

/// A `<label class="pl-field …">` around a one-line text field. Typing never writes the field
/// back (the page only reads it), so the caret, the undo history (Ctrl+Z) and an IME
/// composition (拼音) survive every update the typing causes.
#[component]
pub fn Field(
    /// Extra classes of the label (the tests' hooks, e.g. `pl-tl-command`).
    class: &'static str,
    /// The visible label (it may follow the state, e.g. path or command).
    #[prop(into)]
    label: Signal<&'static str>,
    /// The text, re-read only when it is set from outside the field (a reset button): make it
    /// track a signal that typing does not change.
    #[prop(into)]
    value: Signal<String>,
    /// What typing does (the field's whole text).
    input: Callback<String>,
) -> impl IntoView {
    view! {
        <label class=format!("pl-field {class}")>
            <span>{move || label.get()}</span>
            <input type="text" spellcheck="false" autocomplete="off" prop:value=move || value.get()
                on:input=move |e| input.run(event_target_value(&e))/>
        </label>
    }
}

/// A `<label class="pl-checkbox …">` around a checkbox.
#[component]
pub fn Checkbox(
    /// Extra classes of the label.
    class: &'static str,
    /// The visible label.
    label: &'static str,
    /// Whether it is ticked.
    #[prop(into)]
    on: Signal<bool>,
    /// What a change does.
    set: Callback<bool>,
) -> impl IntoView {
    view! {
        <label class=format!("pl-checkbox {class}")>
            <input type="checkbox" prop:checked=move || on.get()
                on:change=move |e| set.run(event_target_checked(&e))/>
            {label}
        </label>
    }
}

/// A typed choice among options: each option's value, its hook in the page and its text, and
/// the chosen one. A scene's buttons and selects hand back the value `T` itself; the hook (a
/// button's `data-arg`, an `<option>`'s `value`) is only written to the page, for tests and
/// course CSS, and never read back.
///
/// ```
/// use permlab_widget::scenes::ui::Choices;
/// let c = Choices::default().with(1, "one", "One").with(2, "two", "Two").choose(Some(2));
/// assert_eq!((c.chosen(), c.at(0), c.hook()), (Some(2), Some(1), Some("two")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices<T> {
    options: Vec<(T, String, String)>,
    chosen: Option<T>,
}

impl<T> Default for Choices<T> {
    fn default() -> Self {
        Choices {
            options: Vec::new(),
            chosen: None,
        }
    }
}

impl<T: Copy + PartialEq> Choices<T> {
    /// With one more option: its value, its hook in the page and its text.
    pub fn with(mut self, value: T, hook: impl Into<String>, text: impl Into<String>) -> Self {
        self.options.push((value, hook.into(), text.into()));
        self
    }

    /// With `value` chosen (`None`: none is).
    pub fn choose(mut self, value: Option<T>) -> Self {
        self.chosen = value;
        self
    }

    /// The chosen value, if any.
    pub fn chosen(&self) -> Option<T> {
        self.chosen
    }

    /// The value of option `i` (in order), if there is one.
    pub fn at(&self, i: usize) -> Option<T> {
        self.options.get(i).map(|(v, _, _)| *v)
    }

    /// The chosen option's hook.
    pub fn hook(&self) -> Option<&str> {
        let chosen = self.chosen?;
        self.options
            .iter()
            .find(|(v, _, _)| *v == chosen)
            .map(|(_, h, _)| h.as_str())
    }

    /// Whether `value` is the chosen one.
    pub fn is(&self, value: T) -> bool {
        self.chosen == Some(value)
    }
}

/// A `<label class="pl-field …">` around a native `<select>` (keyboard-operable as it is) of
/// `choices`' options.
#[component]
pub fn ChoiceSelect<T>(
    /// Extra classes of the label.
    class: &'static str,
    /// The visible label.
    label: &'static str,
    /// The options (their order is fixed) and the chosen one.
    choices: Signal<Choices<T>>,
    /// What choosing a value does.
    set: Callback<T>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    // Read by every option: derived once per change.
    let choices = Memo::new(move |_| choices.get());
    let options = choices
        .with_untracked(|c| c.options.clone())
        .into_iter()
        .map(|(v, hook, text)| {
            view! { <option value=hook selected=move || choices.with(|c| c.is(v))>{text}</option> }
        })
        .collect_view();
    let current = move || choices.with(|c| c.hook().unwrap_or_default().to_string());
    let change = move |e: leptos::ev::Event| {
        let i = event_target::<web_sys::HtmlSelectElement>(&e).selected_index();
        let chosen = usize::try_from(i)
            .ok()
            .and_then(|i| choices.with_untracked(|c| c.at(i)));
        if let Some(v) = chosen {
            set.run(v);
        }
    };
    view! {
        <label class=format!("pl-field {class}")>
            <span>{label}</span>
            <select prop:value=current on:change=change>
                {options}
            </select>
        </label>
    }
}

/// A group of buttons of which one is pressed (`aria-pressed`): `choices`' options, each
/// option's hook the button's `data-arg`.
#[component]
pub fn ChoiceButtons<T>(
    /// Extra classes of the group.
    class: &'static str,
    /// The group's name.
    label: &'static str,
    /// The options (their order is fixed) and the pressed one.
    choices: Signal<Choices<T>>,
    /// What pressing a button does.
    press: Callback<T>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    // Read by every button: derived once per change.
    let choices = Memo::new(move |_| choices.get());
    let buttons = choices
        .with_untracked(|c| c.options.clone())
        .into_iter()
        .map(|(v, hook, text)| {
            let on = move || {
                if choices.with(|c| c.is(v)) {
                    "true"
                } else {
                    "false"
                }
            };
            view! {
                <button type="button" class="pl-choice" data-arg=hook aria-pressed=on
                    on:click=move |_| press.run(v)>{text}</button>
            }
        })
        .collect_view();
    view! {
        <div class=format!("pl-choices {class}") role="group" aria-label=label>
            <span class="pl-label">{label}</span>
            {buttons}
        </div>
    }
}

/// A verdict badge: `<span class="pl-badge pl-v-…" data-verdict=…>✓ 放行</span>`.
pub fn verdict(d: Decision, word: impl Into<String>) -> impl IntoView {
    let word = word.into();
    view! {
        <span class=format!("pl-badge pl-v-{}", d.as_str()) data-verdict=d.as_str()>
            <span aria-hidden="true">{icon(d)}" "</span>{word}
        </span>
    }
}

/// A horizontally scrolling wrapper: keyboard-focusable and named, so a keyboard user can
/// scroll a wide table.
#[component]
pub fn Scroll(
    /// Its name.
    label: &'static str,
    /// What scrolls.
    children: Children,
) -> impl IntoView {
    view! { <div class="pl-scroll" tabindex="0" role="region" aria-label=label>{children()}</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_of_keys_and_their_positions() {
        assert_eq!(Move::of_key("ArrowRight"), Some(Move::Next));
        assert_eq!(Move::of_key("ArrowUp"), Some(Move::Prev));
        assert_eq!(Move::of_key("Home"), Some(Move::First));
        assert_eq!(Move::of_key("Enter"), None);
        assert_eq!(Move::Prev.apply(0, 5), 0);
        assert_eq!(Move::Next.apply(4, 5), 5);
        assert_eq!(Move::Next.apply(5, 5), 5);
        assert_eq!(Move::First.apply(3, 5), 0);
        assert_eq!(Move::Last.apply(3, 5), 5);
    }

    #[test]
    fn stepper_disables_the_ends_without_losing_focus() {
        let go = Callback::new(|_: Move| {});
        let html = crate::scenes::html(move || {
            view! { <Stepper lang=Lang::En label="Steps" k=0usize last=3 now="Step 1 of 4".to_string() go/> }
        });
        // aria-disabled, not disabled: a focused button keeps focus at the end of the walk.
        assert!(html.contains("data-arg=\"-1\" aria-keyshortcuts=\"ArrowLeft ArrowRight Home End\" aria-disabled=\"true\""), "{html}");
        assert!(html.contains("data-arg=\"1\" aria-keyshortcuts=\"ArrowLeft ArrowRight Home End\" aria-disabled=\"false\""));
        assert!(!html.contains(" disabled"));
        assert!(html.contains("data-live"));
    }
}
