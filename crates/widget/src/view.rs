//! The widget as HTML, one function per region of the page. Pure functions of the [`Widget`]:
//! [`crate::dom`] re-renders a region only when its string changed, and moves focus back to
//! the control with the same `data-k`.
//!
//! Controls say what they do in `data-act` (and `data-arg`): one delegated listener per widget
//! reads them. Test hooks are stable: `data-rule-id`, `data-position`, `data-engine`,
//! `data-verdict`, `data-cursor`.

use permlab_core::analysis::Disagreement;
use permlab_core::claude_code::eval::{Blocker, Decider};
use permlab_core::{claude_code, codex, Action, Decision, EngineId, Reason, RuleTable};

use crate::app::Widget;
use crate::html::H;
use crate::i18n::{one_line, Lang, S};
use crate::presets;
use crate::state::Guess;

/// The regions, in page order; `dom` creates one container per name.
pub const REGIONS: [&str; 18] = [
    "head", "callf", "callm", "now", "tools", "rules", "stepper", "guesses", "log", "disagree",
    "formula", "matrix", "trans", "check", "editf", "editm", "importf", "importm",
];

/// The markup of region `name` (see [`REGIONS`]).
pub fn region(w: &Widget, name: &str) -> String {
    let mut h = H::default();
    match name {
        "head" => head(w, &mut h),
        "callf" => call_fields(w, &mut h),
        "callm" => call_messages(w, &mut h),
        "now" => call_now(w, &mut h),
        "tools" => toolbar(w, &mut h),
        "rules" => rules_table(w, usize::MAX, &mut h),
        "stepper" => stepper(w, &mut h),
        "guesses" => guesses(w, &mut h),
        "log" => log(w, &mut h),
        "disagree" => disagreement(w, &mut h),
        "formula" => formula(w, &mut h),
        "matrix" => matrix(w, &mut h),
        "trans" => translations(w, &mut h),
        "check" => self_check(w, &mut h),
        "editf" => editor_fields(w, &mut h),
        "editm" => editor_message(w, &mut h),
        "importf" => import_fields(w, &mut h),
        "importm" => import_message(w, &mut h),
        _ => {}
    }
    h.s
}

/// The cursor's glyph: a different shape per engine (colour is never the only cue).
pub fn cursor_glyph(e: EngineId) -> &'static str {
    match e {
        EngineId::FirstMatch => "▼",
        EngineId::OpenCode => "▲",
        EngineId::ClaudeCode => "◆",
        EngineId::Codex => "■",
        EngineId::CoreCoder => "●",
    }
}

fn head(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.leaf("h2", "pl-title", &w.title());
    if w.worker_lesson.is_some() {
        h.open("p")
            .a("class", "pl-lesson-pending")
            .a("role", "status")
            .gt()
            .t(lang.s(S::LessonReading))
            .close("p");
    }
    if !w.lesson_problems.is_empty() {
        h.open("div")
            .a("class", "pl-lesson-problems")
            .a("role", "alert")
            .gt()
            .raw("<p>")
            .t(lang.s(S::LessonBroken))
            .raw("</p><ul>");
        for p in &w.lesson_problems {
            h.raw("<li><code>").t(p).raw("</code></li>");
        }
        h.raw("</ul></div>");
    }
    h.open("div")
        .a("class", "pl-presets pl-controls")
        .a("role", "group")
        .a("aria-label", lang.s(S::Preset))
        .gt();
    h.leaf("span", "pl-label", lang.s(S::Preset));
    for (slug, label, on) in w.sources() {
        h.button("pl-preset", "preset", &slug)
            .a("data-preset", &slug)
            .aria("aria-pressed", on)
            .gt()
            .t(&label)
            .close("button");
    }
    h.close("div");
}

fn call_fields(w: &Widget, h: &mut H) {
    let lang = w.lang;
    let current = w.calls.iter().position(|c| c == w.lab.call());
    h.open("label")
        .a("class", "pl-field")
        .a("data-rev", &w.call_rev.to_string())
        .gt();
    h.leaf("span", "", lang.s(S::CallPreset));
    h.open("select")
        .a("class", "pl-call-select")
        .a("data-act", "pick")
        .a("data-k", "pick")
        .gt();
    h.open("option")
        .a("value", "")
        .flag("disabled", true)
        .flag("selected", current.is_none())
        .gt()
        .t("—")
        .close("option");
    for (i, c) in w.calls.iter().enumerate() {
        h.open("option")
            .a("value", &i.to_string())
            .flag("selected", current == Some(i))
            .gt()
            .t(&one_line(&c.to_string()))
            .close("option");
    }
    h.close("select").close("label");
    h.tag("label", "pl-field pl-field-tool");
    h.leaf("span", "", lang.s(S::CallTool));
    h.open("input")
        .a("class", "pl-call-tool-input")
        .a("type", "text")
        .a("spellcheck", "false")
        .a("autocomplete", "off")
        .a("data-act", "tool")
        .a("data-k", "tool")
        .a("value", &w.tool_text)
        .gt()
        .close("label");
    h.tag("label", "pl-field pl-field-input");
    h.leaf("span", "", lang.s(S::CallInput));
    h.open("textarea")
        .a("class", "pl-call-input-text")
        .a("rows", "1")
        .a("spellcheck", "false")
        .a("data-act", "input")
        .a("data-k", "input")
        .gt()
        .t(&w.input_text)
        .close("textarea")
        .close("label");
}

fn call_messages(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.open("p")
        .a("class", "pl-call-error")
        .a("role", "alert")
        .a(
            "data-invalid",
            if w.tool_problem().is_some() {
                "true"
            } else {
                "false"
            },
        )
        .gt()
        .t(w.tool_problem().unwrap_or(""))
        .close("p");
    // What some engine could not take from this input (the engines say so in their reason).
    h.tag("ul", "pl-call-notes");
    for e in &w.evals {
        let note = matches!(
            &e.reason,
            Reason::CodexUnsplittable { .. }
                | Reason::ClaudeCode(Decider::Mode {
                    why: Blocker::Unparseable(_),
                    ..
                })
        );
        if note {
            h.raw("<li><strong>")
                .t(lang.engine(e.engine))
                .raw("</strong>: ")
                .t(&lang.reason(w.table(), e.engine, &e.reason))
                .raw("</li>");
        }
    }
    h.close("ul");
}

fn call_now(w: &Widget, h: &mut H) {
    let c = w.lab.call();
    h.tag("p", "pl-call-now");
    h.leaf("span", "pl-call-label", w.lang.s(S::Call));
    h.leaf("code", "pl-call-tool", &c.tool);
    h.leaf("code", "pl-call-input", &c.input);
    h.close("p");
}

fn toolbar(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.tag("div", "pl-toolbar pl-controls");
    h.button("pl-undo", "undo", "")
        .flag("disabled", !w.lab.can_undo())
        .a("aria-keyshortcuts", "Control+Z Meta+Z")
        .gt()
        .t("↶ ")
        .t(lang.s(S::Undo))
        .close("button");
    h.button("pl-reset", "reset", "")
        .flag("disabled", !w.lab.is_reordered())
        .gt()
        .t(lang.s(S::Reset))
        .close("button");
    h.button("pl-reverse", "reverse", "")
        .gt()
        .t("⇅ ")
        .t(lang.s(S::Reverse))
        .close("button");
    h.button("pl-copy", "copy", "")
        .gt()
        .t(lang.s(S::CopyJson))
        .close("button");
    h.tag("label", "pl-checkbox");
    h.open("input")
        .a("type", "checkbox")
        .a("class", "pl-codex-toggle")
        .a("data-act", "codex")
        .a("data-k", "codex")
        .flag("checked", w.codex)
        .gt()
        .t(lang.s(S::ShowCodex))
        .close("label")
        .close("div");
    match &w.copied {
        Some(Ok(())) => {
            h.open("p")
                .a("class", "pl-copied")
                .a("role", "status")
                .gt()
                .t(lang.s(S::Copied))
                .close("p");
        }
        Some(Err(text)) => {
            h.raw("<div class=\"pl-copy-fallback\"><label>")
                .t(lang.s(S::CopyFallback));
            h.open("textarea")
                .a("class", "pl-copy-text")
                .a("data-act", "select-all")
                .a("data-k", "copy-text")
                .flag("readonly", true)
                .a("rows", "6")
                .gt()
                .t(text)
                .raw("</textarea></label></div>");
        }
        None => {}
    }
}

/// Engines (slugs, space-separated) listed for `row`.
fn at(list: &[(usize, EngineId)], row: usize) -> Option<String> {
    let v: Vec<&str> = list
        .iter()
        .filter(|(r, _)| *r == row)
        .map(|(_, e)| e.slug())
        .collect();
    (!v.is_empty()).then(|| v.join(" "))
}

/// The rule table with its first `limit` rows.
pub fn rules_table(w: &Widget, limit: usize, h: &mut H) {
    let lang = w.lang;
    h.tag("table", "pl-table");
    h.raw("<caption>")
        .t(lang.s(S::Caption))
        .raw("</caption><thead><tr>");
    let th = |h: &mut H, class: &str, label: &str, sr: bool| {
        h.open("th").a("scope", "col");
        if !class.is_empty() {
            h.a("class", class);
        }
        h.gt();
        if sr {
            h.leaf("span", "pl-sr", label);
        } else {
            h.t(label);
        }
        h.close("th");
    };
    th(h, "pl-controls pl-col-grip", lang.s(S::Move), true);
    th(h, "pl-col-pos", "#", false);
    th(h, "pl-cursor-col", lang.s(S::Cursor), true);
    th(h, "pl-col-tool", lang.s(S::Tool), false);
    th(h, "", lang.s(S::Pattern), false);
    th(h, "pl-col-action", lang.s(S::ActionCol), false);
    th(h, "pl-controls pl-col-move", lang.s(S::Move), true);
    h.raw("</tr></thead>");
    h.tag("tbody", "pl-rules");
    rows(w, 0, limit.min(w.table().len()), h);
    h.raw("</tbody></table>");
}

/// The table rows `start..end`. Lift and drag marks are not rendered: they change on every
/// pointer move and are painted on the rows in place (see `dom`), so a drag never replaces
/// the element under the pointer.
pub fn rows(w: &Widget, start: usize, end: usize, h: &mut H) {
    let lang = w.lang;
    let t = w.table();
    let n = t.len();
    let cursors = w.cursors();
    let decisive = w.decisive();
    for (i, rule) in t.rules().iter().enumerate().take(end).skip(start) {
        let id = rule.id.0.to_string();
        let cursor = at(&cursors, i);
        let dec = at(&decisive, i);
        h.open("tr")
            .a(
                "class",
                if dec.is_some() {
                    "pl-rule pl-decisive"
                } else {
                    "pl-rule"
                },
            )
            .a("data-rule-id", &id)
            .a("data-position", &(i + 1).to_string())
            .a_opt("data-cursor", cursor.as_deref())
            .a_opt("data-decisive", dec.as_deref())
            .gt();
        let label = lang.rule(rule);
        h.raw("<td class=\"pl-grip-cell pl-controls\">");
        h.button("pl-grip", "grip", &id)
            .a("aria-label", &format!("{} #{id}: {label}", lang.s(S::Grip)))
            .a("aria-pressed", "false")
            .gt()
            .t("⠿")
            .raw("</button></td><td class=\"pl-pos\">")
            .n(i + 1)
            .raw("</td><td class=\"pl-cursor-cell\" aria-hidden=\"true\">");
        for (_, e) in cursors.iter().filter(|(r, _)| *r == i) {
            h.open("span")
                .a("class", &format!("pl-cur pl-cur-{}", e.slug()))
                .gt()
                .t(cursor_glyph(*e))
                .close("span");
        }
        h.raw("</td><td class=\"pl-tool\"><code>")
            .t(&rule.tool)
            .raw("</code></td><td class=\"pl-pattern\"><code>")
            .t(&rule.pattern)
            .raw("</code></td>");
        h.leaf(
            "td",
            &format!("pl-action pl-action-{}", rule.action.as_str()),
            lang.action(rule.action),
        );
        h.raw("<td class=\"pl-move pl-controls\">");
        h.button("pl-up", "up", &id)
            .a("aria-label", &format!("{} #{id}", lang.s(S::Up)))
            .flag("disabled", i == 0)
            .gt()
            .t("↑")
            .close("button");
        h.button("pl-down", "down", &id)
            .a("aria-label", &format!("{} #{id}", lang.s(S::Down)))
            .flag("disabled", i + 1 == n)
            .gt()
            .t("↓")
            .close("button");
        h.raw("</td></tr>");
    }
}

fn stepper(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.tag("section", "pl-stepper");
    h.button("pl-step-toggle pl-controls", "stepper", "")
        .aria("aria-expanded", w.stepping)
        .gt()
        .t(lang.s(if w.stepping {
            S::StepperClose
        } else {
            S::StepperOpen
        }))
        .close("button");
    if w.stepping {
        let k = w.step();
        h.open("div")
            .a("class", "pl-stepper-body")
            .a("role", "group")
            .a("aria-label", lang.s(S::StepperOpen))
            .a("data-act", "stepkeys")
            .gt();
        h.tag("div", "pl-step-buttons pl-controls");
        for (class, arg, pre, label, post) in [
            ("pl-step-first", "-2", "« ", S::First, ""),
            ("pl-step-prev", "-1", "◀ ", S::Prev, ""),
            ("pl-step-next", "1", "", S::Next, " ▶"),
            ("pl-step-last", "2", "", S::Last, " »"),
        ] {
            h.button(class, "step", arg);
            if arg == "1" {
                h.a("aria-keyshortcuts", "ArrowRight");
            }
            h.gt().t(pre).t(lang.s(label)).t(post).close("button");
        }
        h.close("div");
        h.open("p")
            .a("class", "pl-step-count")
            .a("aria-live", "polite")
            .gt()
            .t(&lang.step_of(k, w.total_steps()))
            .raw("<span class=\"pl-hint\"> · ")
            .t(lang.s(S::StepHint))
            .raw("</span></p>");
        h.tag("ul", "pl-step-lines");
        for id in w.cursor_engines() {
            let Some(e) = w.eval(id) else { continue };
            let text = if k == 0 {
                lang.s(S::NotStarted).to_string()
            } else if e.steps.is_empty() {
                lang.reason(w.table(), id, &e.reason)
            } else {
                lang.step(w.table(), &e.steps[k.min(e.steps.len()) - 1])
            };
            h.open("li")
                .a("class", "pl-step-line")
                .a("data-engine-step", id.slug())
                .gt();
            h.open("span")
                .a("class", &format!("pl-cur pl-cur-{}", id.slug()))
                .a("aria-hidden", "true")
                .gt()
                .t(cursor_glyph(id))
                .close("span");
            h.raw("<strong>")
                .t(lang.engine(id))
                .raw("</strong>: ")
                .leaf("span", "pl-step-text", &text)
                .close("li");
        }
        h.raw("</ul></div>");
    }
    h.close("section");
}

fn guesses(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.tag("section", "pl-guesses");
    h.leaf(
        "h3",
        "",
        lang.s(if w.explore() {
            S::Verdicts
        } else {
            S::GuessTitle
        }),
    );
    if let Some(q) = w.lesson_text("question") {
        h.leaf("p", "pl-question", &q);
    }
    h.tag("div", "pl-engines");
    for id in w.shown() {
        engine_panel(w, id, h);
    }
    h.close("div");
    if !w.explore() {
        h.button("pl-try-again pl-controls", "again", "")
            .gt()
            .t("↺ ")
            .t(lang.s(S::TryAgain))
            .close("button");
    }
    h.close("section");
}

fn engine_panel(w: &Widget, id: EngineId, h: &mut H) {
    let lang = w.lang;
    let revealed = w.revealed(id);
    let explore = w.explore();
    let guess = w.lab.guess(id);
    let eval = w.eval(id);
    let d = eval.map(|e| e.decision).unwrap_or(Decision::Ask);
    let slug = id.slug();
    let heading = w.id(&format!("h-{slug}"));
    // A group, not a landmark: two widgets on a page both have an "OpenCode" panel.
    h.open("div")
        .a("class", "pl-engine")
        .a("role", "group")
        .a("data-engine", slug)
        .a_opt("data-verdict", revealed.then(|| d.as_str()))
        .a("aria-labelledby", &heading)
        .gt();
    h.open("h4")
        .a("id", &heading)
        .gt()
        .t(lang.engine(id))
        .leaf("small", "pl-gist", lang.engine_gist(id))
        .close("h4");
    if !explore {
        h.open("div")
            .a("class", "pl-guess pl-controls")
            .a("role", "group")
            .a(
                "aria-label",
                &format!("{}: {}", lang.s(S::YourGuess), lang.engine(id)),
            )
            .gt();
        for a in [Action::Allow, Action::Ask, Action::Deny] {
            let g = Decision::from(a);
            h.button(
                &format!("pl-guess-btn pl-g-{}", a.as_str()),
                "guess",
                &format!("{slug}:{}", a.as_str()),
            )
            .a("data-guess", a.as_str())
            .aria("aria-pressed", guess == Some(Guess::Verdict(g)))
            .flag("disabled", revealed)
            .gt()
            .t(lang.action(a))
            .close("button");
        }
        h.button("pl-skip", "guess", &format!("{slug}:skip"))
            .aria("aria-pressed", guess == Some(Guess::Skip))
            .flag("disabled", revealed)
            .gt()
            .t(lang.s(S::Skip))
            .raw("</button></div>");
    }
    if !revealed {
        h.button("pl-reveal pl-controls", "reveal", slug)
            .flag("disabled", guess.is_none())
            .gt()
            .t(lang.s(S::Reveal))
            .close("button");
        if guess.is_none() {
            h.leaf("p", "pl-locked pl-controls", lang.s(S::RevealLocked));
        }
    } else {
        let (why, inferred) = eval
            .map(|e| (lang.reason(w.table(), id, &e.reason), e.inferred))
            .unwrap_or_default();
        let (class, mark) = match guess {
            Some(Guess::Verdict(g)) if g == d => ("pl-right", format!("✓ {}", lang.s(S::Right))),
            Some(Guess::Verdict(g)) => (
                "pl-wrong",
                format!(
                    "✗ {}({} {})",
                    lang.s(S::Wrong),
                    lang.s(S::YouGuessed),
                    lang.decision(g)
                ),
            ),
            _ => ("pl-skipped", format!("– {}", lang.s(S::Skipped))),
        };
        h.tag("div", "pl-result");
        h.tag("p", &format!("pl-verdict pl-v-{}", d.as_str()));
        h.raw("<span class=\"pl-label\">")
            .t(lang.s(S::Verdict))
            .raw(": </span><strong>")
            .t(lang.decision(d))
            .raw("</strong></p>");
        if !explore {
            h.leaf("p", &format!("pl-mark {class}"), &mark);
        }
        h.tag("p", "pl-why").t(&why);
        if inferred {
            h.t(lang.s(S::Inferred));
        }
        h.raw("</p></div>");
    }
    h.close("div");
}

fn log(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.tag("section", "pl-log");
    h.leaf("h3", "", lang.s(S::Log));
    if w.lab.log().is_empty() {
        h.leaf("p", "pl-log-empty", lang.s(S::LogEmpty));
    }
    h.tag("ol", "pl-log-list");
    for e in w.lab.log() {
        h.leaf("li", "pl-log-entry", &lang.log_entry(w.table(), e));
    }
    h.raw("</ol></section>");
}

fn disagreement(w: &Widget, h: &mut H) {
    let lang = w.lang;
    // A group, not a landmark: a page may hold several widgets, each with this box.
    h.open("div")
        .a("class", "pl-disagree")
        .a("role", "group")
        .a("aria-labelledby", &w.id("disagree-h"))
        .gt();
    h.open("h3")
        .a("id", &w.id("disagree-h"))
        .gt()
        .t("⚠ ")
        .t(lang.s(S::Disagree))
        .close("h3");
    if let (Some(oc), Some(cc)) = (w.eval(EngineId::OpenCode), w.eval(EngineId::ClaudeCode)) {
        let t = w.table();
        let d = Disagreement::new(t, &oc.matches);
        let show = |x: Option<(usize, Action)>| match x {
            Some((row, a)) => format!("{} ← {}", lang.action(a), lang.row_ref(t, row)),
            None => lang.s(S::NoMatch).to_string(),
        };
        let differ = d.differ();
        h.open("dl")
            .a("class", "pl-disagree-list")
            .aria("data-differ", differ)
            .gt();
        h.raw("<dt>").t(lang.s(S::LastMatch)).raw("</dt>");
        h.leaf("dd", "pl-last", &show(d.last));
        h.raw("<dt>").t(lang.s(S::Strongest)).raw("</dt>");
        h.leaf("dd", "pl-strongest", &show(d.strongest));
        h.close("dl");
        h.raw("<p class=\"pl-disagree-verdict\"><strong>")
            .t(lang.s(if differ { S::Differ } else { S::Coincide }))
            .raw("</strong></p>");
        let actual = format!(
            "{} OpenCode → {}; Claude Code → {}",
            lang.s(S::Actual),
            lang.decision(oc.decision),
            lang.decision(cc.decision)
        );
        h.leaf("p", "pl-disagree-actual", &actual);
        let strong = d.strongest.map(|(_, a)| Decision::from(a));
        if strong.is_some() && strong != Some(cc.decision) {
            h.leaf("p", "pl-disagree-caveat", lang.s(S::Caveat));
        }
    }
    h.close("div");
}

fn term_help(lang: Lang, i: usize) -> &'static str {
    lang.s(match i {
        0 => S::TermFindLast,
        1 => S::TermPermission,
        2 => S::TermPattern,
        3 => S::TermDefault,
        _ => S::TermAnd,
    })
}

fn formula(w: &Widget, h: &mut H) {
    let lang = w.lang;
    let term = |h: &mut H, i: usize, text: &str| {
        h.button("pl-term", "term", &i.to_string())
            .a("data-term", &i.to_string())
            .aria("aria-expanded", w.term == Some(i))
            .a("aria-controls", &w.id("term-help"))
            .gt()
            .t(text)
            .close("button");
    };
    h.tag("section", "pl-formula-box");
    h.leaf("h3", "", lang.s(S::Formula));
    h.raw("<pre class=\"pl-formula\"><code>rules.");
    term(h, 0, "findLast");
    h.raw("(r =&gt; ");
    term(h, 1, "match(permission, r.permission)");
    h.raw(" ");
    term(h, 4, "&&");
    h.raw(" ");
    term(h, 2, "match(pattern, r.pattern)");
    h.raw(") ");
    term(h, 3, "?? ask");
    h.raw("</code></pre>");
    h.leaf("p", "pl-hint", lang.s(S::FormulaHint));
    h.open("p")
        .a("id", &w.id("term-help"))
        .a("class", "pl-term-help")
        .a("aria-live", "polite")
        .gt()
        .t(w.term.map(|i| term_help(lang, i)).unwrap_or(""))
        .raw("</p></section>");
}

fn decision_icon(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    }
}

fn matrix(w: &Widget, h: &mut H) {
    let lang = w.lang;
    if w.quiz() {
        // A quiz keeps the answers folded away until the learner opens the lab view.
        h.open("details")
            .a("class", "pl-matrix-box")
            .a("data-act", "matrix")
            .flag("open", w.matrix_open)
            .gt()
            .raw("<summary>")
            .t(lang.s(S::Matrix))
            .t(" ")
            .t(lang.s(S::MatrixSpoils))
            .raw("</summary>");
    } else {
        h.tag("section", "pl-matrix-box");
        h.leaf("h3", "", lang.s(S::Matrix));
    }
    h.raw("<div class=\"pl-scroll\"><table class=\"pl-matrix\"><thead><tr><th scope=\"col\">")
        .t(lang.s(S::Call))
        .raw("</th>");
    for e in EngineId::ALL {
        h.raw("<th scope=\"col\">").t(lang.engine(e)).raw("</th>");
    }
    h.raw("</tr></thead><tbody>");
    let current = w.lab.call();
    for (i, c) in w.calls.iter().enumerate() {
        let is_current = c == current;
        h.open("tr")
            .a("class", if is_current { "pl-current" } else { "" })
            .a("data-call", &i.to_string())
            .gt();
        h.raw("<th scope=\"row\">");
        h.button("pl-call-pick", "pick", &i.to_string())
            .aria("aria-pressed", is_current)
            .gt()
            .raw("<code>")
            .t(&one_line(&c.to_string()))
            .raw("</code></button></th>");
        for (j, e) in EngineId::ALL.iter().enumerate() {
            let d = w
                .matrix
                .get(i)
                .and_then(|r| r.get(j))
                .copied()
                .unwrap_or(Decision::Ask);
            let changed = w
                .prev_matrix
                .as_ref()
                .and_then(|p| p.get(i)?.get(j).copied())
                .is_some_and(|p| p != d);
            h.open("td")
                .a(
                    "class",
                    &format!(
                        "pl-cell pl-v-{}{}",
                        d.as_str(),
                        if changed { " pl-changed" } else { "" }
                    ),
                )
                .a("data-engine", e.slug())
                .a("data-verdict", d.as_str())
                .a_opt("data-changed", changed.then_some("true"))
                .gt();
            h.raw("<span aria-hidden=\"true\">")
                .t(decision_icon(d))
                .raw(" </span>")
                .t(lang.decision(d));
            if changed {
                h.open("span")
                    .a("class", "pl-changed-mark")
                    .a("title", lang.s(S::ChangedMark))
                    .gt()
                    .t(" ● ")
                    .leaf("span", "pl-sr", lang.s(S::ChangedMark))
                    .close("span");
            }
            h.close("td");
        }
        h.close("tr");
    }
    h.raw("</tbody></table></div>");
    h.close(if w.quiz() { "details" } else { "section" });
}

fn flags(lang: Lang, t: &RuleTable, flags: Vec<(usize, String)>, h: &mut H) {
    h.tag("ul", "pl-flags");
    for (row, why) in flags {
        h.open("li")
            .a("class", "pl-flag")
            .a("data-row", &(row + 1).to_string())
            .gt()
            .raw("<span aria-hidden=\"true\">⚠ </span><code>")
            .t(&lang.row(t, row))
            .raw("</code> — ")
            .t(&why)
            .close("li");
    }
    h.close("ul");
}

fn translations(w: &Widget, h: &mut H) {
    if !w.translations {
        return;
    }
    let lang = w.lang;
    let t = w.table();
    let cc = claude_code::translate(t);
    let mut cc_flags: Vec<(usize, String)> = cc
        .untranslatable
        .iter()
        .map(|u| (u.row, u.reason.clone()))
        .collect();
    for (row, (r, a)) in cc.rules.iter().zip(&cc.actions).enumerate() {
        if let (Some(r), Action::Deny) = (r, a) {
            if !r.contains('(') {
                cc_flags.push((row, format!("deny {r} — {}", lang.s(S::RemovesTool))));
            }
        }
    }
    cc_flags.extend(cc.notes.iter().cloned());
    cc_flags.sort_by_key(|f| f.0);
    let (oc, oc_flags) = presets::opencode_permission(t);
    let (cx, cx_flags) = codex::to_rules(t);
    let block = |h: &mut H, slug: &str, title: &str, text: &str, list: Vec<(usize, String)>| {
        h.open("div")
            .a("class", "pl-translation")
            .a("data-harness", slug)
            .gt()
            .raw("<h4>")
            .t(title)
            .raw("</h4><pre><code>")
            .t(text)
            .raw("</code></pre>");
        flags(lang, t, list, h);
        h.close("div");
    };
    block(
        h,
        "claude-code",
        "Claude Code · .claude/settings.json",
        &cc.to_settings_json(),
        cc_flags,
    );
    block(
        h,
        "opencode",
        "OpenCode · opencode.json",
        &oc,
        oc_flags.into_iter().map(|f| (f.row, f.reason)).collect(),
    );
    block(
        h,
        "codex",
        "Codex · .codex/rules/default.rules",
        &cx,
        cx_flags.into_iter().map(|f| (f.row, f.reason)).collect(),
    );
}

fn self_check(w: &Widget, h: &mut H) {
    if w.config.selfcheck == "none" {
        // An offline page has no fixtures to fetch: no self-check.
        return;
    }
    let lang = w.lang;
    h.tag("section", "pl-selfcheck");
    h.leaf("h3", "", lang.s(S::SelfCheck));
    h.button("pl-run-check pl-controls", "check", "")
        .flag("disabled", w.checking)
        .gt()
        .t(lang.s(if w.checking {
            S::Running
        } else {
            S::RunSelfCheck
        }))
        .close("button");
    h.open("ul")
        .a("class", "pl-check-results")
        .a("aria-live", "polite")
        .gt();
    for (name, r) in &w.checks {
        match r {
            Ok(sections) => {
                let passed: usize = sections.iter().map(|s| s.1).sum();
                let total: usize = sections.iter().map(|s| s.2).sum();
                let ok = passed == total;
                let detail = sections
                    .iter()
                    .map(|(s, p, t)| format!("{s} {p}/{t}"))
                    .collect::<Vec<_>>()
                    .join(" · ");
                h.open("li")
                    .a("class", "pl-check")
                    .a("data-check", name)
                    .aria("data-ok", ok)
                    .gt()
                    .raw("<span aria-hidden=\"true\">")
                    .t(if ok { "✓ " } else { "✗ " })
                    .raw("</span><strong>")
                    .t(name)
                    .raw("</strong>: ")
                    .leaf("span", "pl-check-tally", &format!("{passed}/{total}"))
                    .t(" ")
                    .t(lang.s(S::AgreeWith))
                    .leaf("small", "pl-check-detail", &format!(" ({detail})"))
                    .close("li");
            }
            Err(e) => {
                h.open("li")
                    .a("class", "pl-check")
                    .a("data-check", name)
                    .a("data-ok", "false")
                    .gt()
                    .raw("✗ <strong>")
                    .t(name)
                    .raw("</strong>: ")
                    .t(e)
                    .close("li");
            }
        }
    }
    h.raw("</ul></section>");
}

/// The table editor's text field (rewritten only when its text is replaced from elsewhere).
pub fn editor_fields(w: &Widget, h: &mut H) {
    h.open("label")
        .a("class", "pl-field")
        .a("data-rev", &w.editor_rev.to_string())
        .gt()
        .leaf("span", "pl-sr", w.lang.s(S::EditTable));
    h.open("textarea")
        .a("class", "pl-table-json")
        .a("rows", "8")
        .a("spellcheck", "false")
        .a("data-act", "table")
        .a("data-k", "table")
        .gt()
        .t(&w.editor_text)
        .raw("</textarea></label>");
    h.button("pl-apply", "apply", "")
        .gt()
        .t(w.lang.s(S::Apply))
        .close("button");
}

/// Why the editor's table was not applied.
pub fn editor_message(w: &Widget, h: &mut H) {
    h.open("p")
        .a("class", "pl-table-error")
        .a("role", "alert")
        .gt();
    if let Some(e) = &w.editor_error {
        h.t(w.lang.s(S::TableError)).t(": ").t(e);
    }
    h.close("p");
}

/// The import panel's fields (rewritten only when the text is replaced from elsewhere).
pub fn import_fields(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.open("label")
        .a("class", "pl-field")
        .a("data-rev", &w.import_rev.to_string())
        .gt()
        .leaf("span", "", lang.s(S::ImportFormat));
    h.open("select")
        .a("class", "pl-import-format")
        .a("data-act", "import-format")
        .a("data-k", "import-format")
        .gt();
    for (slug, label) in [
        ("auto", lang.s(S::ImportAuto)),
        ("claude-code", "Claude Code · .claude/settings.json"),
        ("opencode", "OpenCode · opencode.json(c) / agent .md"),
        ("codex", "Codex · .rules"),
    ] {
        h.open("option")
            .a("value", slug)
            .flag("selected", w.import_format == slug)
            .gt()
            .t(label)
            .close("option");
    }
    h.raw("</select></label>");
    h.tag("label", "pl-field pl-field-wide")
        .leaf("span", "", lang.s(S::ImportText));
    h.open("textarea")
        .a("class", "pl-import-text")
        .a("rows", "8")
        .a("spellcheck", "false")
        .a("data-act", "import-text")
        .a("data-k", "import-text")
        .gt()
        .t(&w.import_text)
        .raw("</textarea></label>");
    h.button("pl-import-button", "import", "")
        .gt()
        .t(lang.s(S::ImportButton))
        .close("button");
}

/// What the import read, or why it could not.
pub fn import_message(w: &Widget, h: &mut H) {
    let lang = w.lang;
    h.open("div")
        .a("class", "pl-import-result")
        .a("role", "status")
        .gt();
    if w.worker_import.is_some() {
        h.leaf("p", "pl-import-pending", lang.s(S::ImportReading));
    } else if let Some(e) = &w.import_error {
        h.open("p")
            .a("class", "pl-import-error")
            .a("role", "alert")
            .gt()
            .t(lang.s(S::ImportFailed))
            .t(": ")
            .t(if e == "empty" {
                lang.s(S::ImportEmpty)
            } else {
                e
            })
            .close("p");
    } else if let Some(s) = &w.import_summary {
        let harness = lang.engine(s.format.engine());
        h.open("p")
            .a("class", "pl-import-summary")
            .a("data-format", s.format.slug())
            .a("data-imported", &s.imported.to_string())
            .a("data-dropped", &s.dropped.to_string())
            .gt()
            .t(&lang.import_summary(harness, s.imported, s.dropped))
            .close("p");
        h.tag("ul", "pl-import-warnings");
        for warning in &s.warnings {
            h.leaf("li", "pl-import-warning", warning);
        }
        h.close("ul");
    }
    h.close("div");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Config, Msg};

    fn widget() -> Widget {
        Widget::new(
            Config {
                lang: Lang::En,
                ns: "t".into(),
                fixtures: String::new(),
                selfcheck: String::new(),
                lesson: Some(
                    r#"[{"tool":"bash","pattern":"<img src=x onerror=alert(1)>","action":"deny"}]"#
                        .into(),
                ),
            },
            "",
        )
    }

    #[test]
    fn hostile_patterns_are_text() {
        let w = widget();
        let html = region(&w, "rules");
        assert!(
            html.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{html}"
        );
        assert!(!html.contains("<img"));
    }

    #[test]
    fn rows_carry_the_test_hooks() {
        let mut w = widget();
        w.act(Msg::Source(crate::app::Source::Builtin(
            crate::presets::Preset::Miniagent,
        )));
        let html = region(&w, "rules");
        assert_eq!(html.matches("<tr class=\"pl-rule").count(), 10);
        assert!(html.contains("data-rule-id=\"8\" data-position=\"8\""));
        w.act(Msg::Guess(EngineId::OpenCode, Guess::Skip));
        w.act(Msg::Reveal(EngineId::OpenCode));
        let guesses = region(&w, "guesses");
        assert!(guesses.contains("data-engine=\"opencode\" data-verdict="));
        assert!(region(&w, "rules").contains("data-decisive=\"opencode\""));
    }

    #[test]
    fn a_quiz_folds_the_matrix_and_shows_its_question_and_ids_carry_the_namespace() {
        let lesson = r#"{"title": "t", "language": "en", "mode": "quiz", "engines": ["opencode"],
            "presets": [{"id": "git", "rules": [{"tool": "bash", "pattern": "git *", "action": "allow"}],
                         "calls": [{"tool": "bash", "input": "git status"}]}],
            "texts": {"question": {"zh": "听谁的?", "en": "Which one wins?"}}}"#;
        let mut w = Widget::new(
            Config {
                lang: Lang::En,
                ns: "q1".into(),
                fixtures: String::new(),
                selfcheck: String::new(),
                lesson: Some(lesson.into()),
            },
            "",
        );
        let m = region(&w, "matrix");
        assert!(
            m.starts_with("<details class=\"pl-matrix-box\" data-act=\"matrix\">"),
            "{m}"
        );
        w.act(Msg::Matrix(true));
        assert!(region(&w, "matrix").contains(" open>"));
        assert!(region(&w, "guesses").contains("<p class=\"pl-question\">Which one wins?</p>"));
        assert!(region(&w, "guesses").contains("id=\"q1-h-opencode\""));
        assert!(region(&w, "disagree").contains("id=\"q1-disagree-h\""));
    }

    #[test]
    fn an_explore_lesson_shows_every_verdict_with_nothing_to_guess() {
        let lesson = r#"{"title": "t", "language": "en", "mode": "explore", "engines": ["first-match", "opencode"],
            "presets": [{"id": "a", "rules": [{"tool": "bash", "pattern": "git push *", "action": "deny"}, {"tool": "bash", "pattern": "git *", "action": "allow"}],
                         "calls": [{"tool": "bash", "input": "git push origin main"}]},
                        {"id": "b", "rules": [{"tool": "bash", "pattern": "*", "action": "ask"}],
                         "calls": [{"tool": "bash", "input": "ls"}]}]}"#;
        let mut w = Widget::new(
            Config {
                lang: Lang::En,
                ns: "x".into(),
                fixtures: String::new(),
                selfcheck: String::new(),
                lesson: Some(lesson.into()),
            },
            "",
        );
        let g = region(&w, "guesses");
        assert!(
            g.contains("data-engine=\"first-match\" data-verdict=\"deny\""),
            "{g}"
        );
        assert!(
            g.contains("data-engine=\"opencode\" data-verdict=\"allow\""),
            "{g}"
        );
        assert!(
            !g.contains("pl-guess-btn") && !g.contains("pl-reveal") && !g.contains("pl-mark"),
            "{g}"
        );
        assert!(region(&w, "rules").contains("data-decisive="));
        // Another preset of the lesson: still nothing to guess.
        w.act(Msg::Source(crate::app::Source::Lesson(1)));
        assert!(region(&w, "guesses").contains("data-engine=\"opencode\" data-verdict=\"ask\""));
    }

    #[test]
    fn translations_are_computed_only_when_open() {
        let mut w = widget();
        assert_eq!(region(&w, "trans"), "");
        w.act(Msg::Translations(true));
        assert!(region(&w, "trans").contains("data-harness=\"codex\""));
    }
}
