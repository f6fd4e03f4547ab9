//! Controls and marks the scenes share: labelled selects and fields, pressed-button groups, a
//! stepper driven by buttons and arrow keys, a live region, verdict badges (an icon and a word,
//! never colour alone). Only markup: what the controls do is each scene's `act`.

use permlab_core::Decision;

use crate::html::H;
use crate::i18n::Lang;

/// A `<label>` around a `<select data-act=act>`: `options` are `(value, text)`.
pub fn select(
    h: &mut H,
    class: &str,
    act: &str,
    label: &str,
    options: &[(&str, &str)],
    selected: &str,
) {
    h.tag("label", &format!("pl-field {class}"));
    h.leaf("span", "", label);
    h.open("select").a("data-act", act).a("data-k", act).gt();
    for (value, text) in options {
        h.open("option")
            .a("value", value)
            .flag("selected", *value == selected)
            .gt()
            .t(text)
            .close("option");
    }
    h.close("select").close("label");
}

/// A `<label>` around a one-line text field (`data-act=act`, rewritten on every render: the
/// page keeps the caret, see `dom::render_scene`).
pub fn field(h: &mut H, class: &str, act: &str, label: &str, value: &str) {
    h.tag("label", &format!("pl-field {class}"));
    h.leaf("span", "", label);
    h.open("input")
        .a("type", "text")
        .a("spellcheck", "false")
        .a("autocomplete", "off")
        .a("data-act", act)
        .a("data-k", act)
        .a("value", value)
        .gt()
        .close("label");
}

/// A `<label>` around a checkbox.
pub fn checkbox(h: &mut H, class: &str, act: &str, label: &str, on: bool) {
    h.tag("label", &format!("pl-checkbox {class}"));
    h.open("input")
        .a("type", "checkbox")
        .a("data-act", act)
        .a("data-k", act)
        .flag("checked", on)
        .gt()
        .t(label)
        .close("label");
}

/// A group of buttons of which one is pressed (`aria-pressed`): `options` are `(arg, text)`.
pub fn choices(
    h: &mut H,
    class: &str,
    act: &str,
    label: &str,
    options: &[(&str, &str)],
    pressed: Option<&str>,
) {
    h.open("div")
        .a("class", &format!("pl-choices {class}"))
        .a("role", "group")
        .a("aria-label", label)
        .gt();
    h.leaf("span", "pl-label", label);
    for (arg, text) in options {
        h.button("pl-choice", act, arg)
            .aria("aria-pressed", pressed == Some(*arg))
            .gt()
            .t(text)
            .close("button");
    }
    h.close("div");
}

/// Which stepper move a click (`arg`) or key means: `-2` first, `-1` previous, `1` next, `2`
/// last.
pub fn step_move(e: &super::Event) -> Option<i8> {
    match e.kind {
        "click" => e.arg.parse().ok(),
        "keydown" => match e.value {
            "ArrowRight" | "ArrowDown" => Some(1),
            "ArrowLeft" | "ArrowUp" => Some(-1),
            "Home" => Some(-2),
            "End" => Some(2),
            _ => None,
        },
        _ => None,
    }
}

/// Position `k` of `0..=last` after move `m` (see [`step_move`]).
pub fn stepped(k: usize, last: usize, m: i8) -> usize {
    match m {
        -2 => 0,
        -1 => k.saturating_sub(1),
        1 => (k + 1).min(last),
        _ => last,
    }
}

/// First / previous / next / last buttons (`data-act=act`; arrow keys on any of them step
/// too) for position `k` of `0..=last`, and a line saying where we are (announced, see
/// [`live`]).
pub fn stepper(h: &mut H, lang: Lang, act: &str, label: &str, k: usize, last: usize, now: &str) {
    h.open("div")
        .a("class", "pl-scene-steps pl-controls")
        .a("role", "group")
        .a("aria-label", label)
        .gt();
    let zh = lang == Lang::Zh;
    for (arg, pre, text, post, off) in [
        ("-2", "« ", if zh { "第一步" } else { "First" }, "", k == 0),
        (
            "-1",
            "◀ ",
            if zh { "上一步" } else { "Previous" },
            "",
            k == 0,
        ),
        ("1", "", if zh { "下一步" } else { "Next" }, " ▶", k >= last),
        (
            "2",
            "",
            if zh { "最后一步" } else { "Last" },
            " »",
            k >= last,
        ),
    ] {
        h.button(&format!("pl-scene-step pl-step-{arg}"), act, arg)
            .a("aria-keyshortcuts", "ArrowLeft ArrowRight Home End")
            .a("aria-disabled", if off { "true" } else { "false" })
            .gt()
            .t(pre)
            .t(text)
            .t(post)
            .close("button");
    }
    h.close("div");
    h.open("p")
        .a("class", "pl-scene-now")
        .a("data-live", "")
        .gt()
        .t(now)
        .raw("<span class=\"pl-hint pl-controls\"> · ")
        .t(if zh {
            "在按钮上用 ← / → 逐步"
        } else {
            "Use ← / → on the buttons to step"
        })
        .raw("</span></p>");
}

/// Opens a stage walk (the decision flow's and the lifecycle's): a `<section class=class>` with
/// its heading, the [`stepper`] and an `<ol class="pl-flow">` for the stages — close it with
/// `</ol></section>`.
pub fn open_stages(
    h: &mut H,
    lang: Lang,
    class: &str,
    title: &str,
    k: usize,
    last: usize,
    now: &str,
) {
    h.open("section")
        .a("class", class)
        .a("aria-label", title)
        .gt();
    h.leaf("h3", "", title);
    stepper(h, lang, "step", title, k, last, now);
    h.tag("ol", "pl-flow");
}

/// Opens a horizontally scrolling wrapper (close with `</div>`): keyboard-focusable and named,
/// so a keyboard user can scroll a wide table.
pub fn scroll(h: &mut H, label: &str) {
    h.open("div")
        .a("class", "pl-scroll")
        .a("tabindex", "0")
        .a("role", "region")
        .a("aria-label", label)
        .gt();
}

/// `<code>text</code>`.
pub fn code(h: &mut H, text: &str) {
    h.raw("<code>").t(text).raw("</code>");
}

/// A line the page announces when its text changes (`data-live`: `dom` repeats it in the
/// scene's one persistent live region).
pub fn live(h: &mut H, class: &str, text: &str) {
    h.open("p")
        .a("class", &format!("pl-live {class}"))
        .a("data-live", "")
        .gt()
        .t(text)
        .close("p");
}

/// The icon of a decision (shape, not colour, tells them apart).
pub fn icon(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    }
}

/// A verdict badge: `<span class="pl-badge pl-v-…" data-verdict=…>✓ 放行</span>`.
pub fn badge(h: &mut H, d: Decision, word: &str) {
    h.open("span")
        .a("class", &format!("pl-badge pl-v-{}", d.as_str()))
        .a("data-verdict", d.as_str())
        .gt()
        .raw("<span aria-hidden=\"true\">")
        .t(icon(d))
        .raw(" </span>")
        .t(word)
        .close("span");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::Event;

    #[test]
    fn arrow_keys_and_buttons_step() {
        assert_eq!(step_move(&Event::key("s", "", "ArrowRight")), Some(1));
        assert_eq!(step_move(&Event::key("s", "", "Home")), Some(-2));
        assert_eq!(step_move(&Event::key("s", "", "Enter")), None);
        assert_eq!(step_move(&Event::click("s", "2")), Some(2));
        assert_eq!(stepped(0, 5, -1), 0);
        assert_eq!(stepped(4, 5, 1), 5);
        assert_eq!(stepped(5, 5, 1), 5);
        assert_eq!(stepped(3, 5, -2), 0);
        assert_eq!(stepped(3, 5, 2), 5);
    }

    #[test]
    fn stepper_disables_the_ends_without_losing_focus() {
        let mut h = H::default();
        stepper(&mut h, Lang::En, "go", "Steps", 0, 3, "Step 0 of 3");
        // aria-disabled, not disabled: a focused button keeps focus at the end of the walk.
        assert!(h.s.contains("data-arg=\"-1\" data-k=\"go--1\" aria-keyshortcuts=\"ArrowLeft ArrowRight Home End\" aria-disabled=\"true\""));
        assert!(!h.s.contains(" disabled"));
        assert!(h.s.contains("data-live"));
    }
}
