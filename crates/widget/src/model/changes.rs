//! What each action changes, part by part, and which regions of the page it wakes: one test
//! per part of the widget, written as the spec of its subscriptions.

use super::*;
use crate::protocol::{LintSkipped, Linted, TooComplex, WorkerError};
use crate::state::Guess;
use permlab_core::Decision;

fn widget() -> Widget {
    Widget::new(
        Config {
            lang: Lang::Zh,
            ns: "w".into(),
            fixtures: "conformance/".into(),
            selfcheck: "selfcheck-loader.js".into(),
            lesson: None,
            lesson_from: None,
        },
        "",
    )
}

/// A pointer going down on rule #2's grip (mouse and touch alike drag at once).
fn grip_down() -> Drag {
    Drag {
        id: RuleId(2),
        from: 1,
        to: 1,
        pointer: 7,
        y0: 0.0,
        moved: false,
    }
}

fn parts(out: &Outcome) -> Vec<Part> {
    out.changed.iter().collect()
}

#[test]
fn typing_in_the_call_field_changes_the_fields_the_lab_and_the_verdicts_only() {
    let mut w = widget();
    let out = w.act(Msg::EditInput("git status".into()));
    assert_eq!(parts(&out), [Part::Lab, Part::Verdicts, Part::Fields]);
    // A text the engines cannot take yet (an empty tool) changes the fields alone.
    let out = w.act(Msg::EditTool(String::new()));
    assert_eq!(parts(&out), [Part::Fields]);
}

#[test]
fn typing_one_character_wakes_only_the_regions_that_show_the_call() {
    let mut w = widget();
    let out = w.act(Msg::EditInput("git statu".into()));
    let woken = Region::woken(out.changed);
    assert_eq!(
        woken,
        [
            Region::CallSelect,
            Region::CallFields,
            Region::CallNotes,
            Region::CallNow,
            Region::Legend,
            Region::Stepper,
            Region::EnginePanel,
            Region::Drift,
            Region::Disagreement,
            Region::Matrix,
            Region::Stored,
            Region::StateNotes,
        ]
    );
    // Not the table, the toolbar, the log, the panels, the import, the self-check, or the
    // tasks (the model ticks them; their region reads the ticks only).
    for r in [
        Region::TaskProgress,
        Region::Rows,
        Region::RowCount,
        Region::Toolbar,
        Region::ReorderLog,
        Region::Translations,
        Region::Head,
        Region::ImportResult,
        Region::SelfCheck,
        Region::Editor,
    ] {
        assert!(!r.wakes(out.changed), "{r:?}");
    }
}

#[test]
fn a_reorder_changes_the_order_and_the_verdicts_and_says_what_happened() {
    let mut w = widget();
    let out = w.act(Msg::Step(RuleId(8), true));
    assert_eq!(parts(&out), [Part::Lab, Part::Order, Part::Verdicts]);
    assert!(out.effects.contains(&Effect::Reordered));
    assert!(out.effects.contains(&Effect::Logged));
    assert!(out.focus().is_some() && out.announced().is_some());
    assert!(Region::ReorderLog.wakes(out.changed) && Region::Rows.wakes(out.changed));
}

#[test]
fn a_guess_and_a_reveal_change_the_lab_and_tell_the_host_once() {
    let mut w = widget();
    let g = Guess::Verdict(Decision::Deny);
    let out = w.act(Msg::Guess(EngineId::OpenCode, g));
    assert_eq!(parts(&out), [Part::Lab]);
    assert_eq!(out.effects, [Effect::Guessed(EngineId::OpenCode, g)]);
    assert_eq!(w.act(Msg::Guess(EngineId::OpenCode, g)).effects, []);
    let out = w.act(Msg::Reveal(EngineId::OpenCode));
    let first = crate::model::record::Answered {
        attempt: 1,
        correct: w.eval(EngineId::OpenCode).unwrap().decision == Decision::Deny,
    };
    assert_eq!(out.effects, [Effect::Revealed(EngineId::OpenCode, first)]);
    assert_eq!(parts(&out), [Part::Lab, Part::Progress]);
    assert_eq!(w.act(Msg::Reveal(EngineId::OpenCode)).effects, []);
}

#[test]
fn carrying_a_row_by_pointer_changes_the_carry_alone_until_it_drops() {
    let mut w = widget();
    let drag = grip_down();
    assert_eq!(parts(&w.act(Msg::DragStart(drag))), [Part::Carry]);
    let over = w.act(Msg::DragOver(4));
    assert_eq!(parts(&over), [Part::Carry]);
    assert_eq!(Region::woken(over.changed), [Region::Carried]);
    assert_eq!(w.target(), Some((1, 4)));
    let drop = w.act(Msg::DragEnd(true));
    assert!(drop.changed.has(Part::Order));
    assert_eq!(w.table().rules()[4].id, RuleId(2));
    assert_eq!(w.carry().drag, None);
}

#[test]
fn a_cancelled_drag_moves_nothing() {
    let mut w = widget();
    w.act(Msg::DragStart(grip_down()));
    w.act(Msg::DragOver(4));
    assert_eq!(w.target(), Some((1, 4)));
    let out = w.act(Msg::DragEnd(false));
    assert_eq!(parts(&out), [Part::Carry]);
    assert_eq!(w.table().rules()[1].id, RuleId(2));
}

#[test]
fn opening_a_panel_changes_the_panels_alone() {
    let mut w = widget();
    for msg in [
        Msg::Translations(true),
        Msg::Matrix(true),
        Msg::Term(2),
        Msg::Copied(Err("[]".into())),
    ] {
        assert_eq!(parts(&w.act(msg.clone())), [Part::Panels], "{msg:?}");
    }
    assert_eq!(w.panels().copied, Some(Err("[]".into())));
}

#[test]
fn the_editor_changes_the_editor_until_its_table_is_applied() {
    let mut w = widget();
    assert_eq!(parts(&w.act(Msg::Editor(true))), [Part::Editor]);
    assert_eq!(parts(&w.act(Msg::EditTable("[".into()))), [Part::Editor]);
    let out = w.act(Msg::Apply);
    assert_eq!(parts(&out), [Part::Editor]);
    assert!(w.editor().error.is_some());
}

#[test]
fn the_import_panel_changes_the_import_until_a_config_is_read() {
    let mut w = widget();
    let out = w.act(Msg::ImportText("{}".into()));
    assert_eq!(parts(&out), [Part::Import]);
    let out = w.act(Msg::ImportFormat(FormatChoice::Is(Format::ClaudeCode)));
    assert_eq!(parts(&out), [Part::Import]);
}

#[test]
fn an_import_asks_the_worker_for_its_lint_and_only_that_answer_counts() {
    let mut w = widget();
    w.act(Msg::ImportText(
        r#"{"permissions": {"allow": ["Bash(git status)"]}}"#.into(),
    ));
    let out = w.act(Msg::Import);
    let asked: Vec<Request> = out.asked().cloned().collect();
    assert!(
        matches!(asked.as_slice(), [Request::Lint { .. }]),
        "{asked:?}"
    );
    assert!(out.changed.has(Part::Waiting) && out.changed.has(Part::Course));
    let stale = Request::Lint {
        format: Format::ClaudeCode,
        text: "an older paste".into(),
    };
    let out = w.act(Msg::LintReply(stale, Ok(Linted::default())));
    assert_eq!(parts(&out), []);
    let out = w.act(Msg::LintReply(asked[0].clone(), Ok(Linted::default())));
    assert_eq!(parts(&out), [Part::Lint, Part::Waiting]);
    assert_eq!(w.lint().findings, Some(Ok(Vec::new())));
}

#[test]
fn the_self_check_starts_once_and_collects_its_answers() {
    let mut w = widget();
    let out = w.act(Msg::SelfCheck);
    assert_eq!(parts(&out), [Part::SelfCheck]);
    assert_eq!(out.effects, [Effect::SelfCheck]);
    assert_eq!(w.act(Msg::SelfCheck).effects, []);
    w.act(Msg::CheckReply(Ok(Reply::Check {
        name: "opencode".into(),
        result: Ok(Vec::new()),
    })));
    let out = w.act(Msg::CheckReply(Ok(Reply::Done)));
    assert_eq!(parts(&out), [Part::SelfCheck]);
    assert!(!w.selfcheck().running);
    assert_eq!(w.selfcheck().checks.len(), 1);
}

#[test]
fn a_new_rule_set_changes_the_course_and_clears_the_status_line() {
    let mut w = widget();
    w.act(Msg::Reverse);
    let out = w.act(Msg::Source(Source::Builtin(Preset::Git)));
    for p in [
        Part::Course,
        Part::Lab,
        Part::Order,
        Part::Verdicts,
        Part::Carry,
    ] {
        assert!(out.changed.has(p), "{p:?}");
    }
    assert_eq!(out.announced(), Some(""));
    assert!(!out.changed.has(Part::Kept) && !out.changed.has(Part::SelfCheck));
}

#[test]
fn a_widget_waiting_for_the_worker_asks_again_when_it_starts() {
    // The page's build hands a lesson's Codex `.rules` config to the worker.
    super::as_page();
    let lesson = r#"{"presets": [{"id": "c", "config": {"format": "codex",
        "text": "prefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n"}}]}"#;
    let w = Widget::new(
        Config {
            lesson: Some(lesson.into()),
            ..widget().config.clone()
        },
        "",
    );
    assert_eq!(
        w.resume(),
        [Effect::Ask(Request::Lesson {
            text: lesson.into()
        })]
    );
}

/// A widget that imported a Claude Code config and waits for its lint: the request asked.
fn imported_waiting_for_lint(w: &mut Widget, text: &str) -> Request {
    w.act(Msg::ImportText(text.into()));
    let out = w.act(Msg::Import);
    let asked: Vec<Request> = out.asked().cloned().collect();
    assert!(
        matches!(asked.as_slice(), [Request::Lint { .. }]),
        "{asked:?}"
    );
    asked[0].clone()
}

#[test]
fn a_lint_past_its_time_budget_says_so_in_the_widgets_language_and_a_stale_one_changes_nothing() {
    let mut w = widget();
    let first = imported_waiting_for_lint(&mut w, r#"{"permissions": {"allow": ["Bash(ls)"]}}"#);
    // A newer paste supersedes the first lint: its timeout (the page stopped its worker) and
    // its late answer change nothing.
    let second = imported_waiting_for_lint(&mut w, r#"{"permissions": {"deny": ["Bash(rm)"]}}"#);
    assert_ne!(first, second);
    let out = w.act(Msg::WorkerTimeout {
        request: first.clone(),
        seconds: 20,
    });
    assert_eq!(parts(&out), []);
    assert_eq!(w.waiting().lint.as_ref(), Some(&second));
    let out = w.act(Msg::WorkerTimeout {
        request: second,
        seconds: 20,
    });
    assert_eq!(parts(&out), [Part::Lint, Part::Waiting]);
    assert!(w.waiting().lint.is_none());
    let Some(Err(said)) = &w.lint().findings else {
        panic!("{:?}", w.lint())
    };
    assert!(said.contains("检查超过了 20 秒"), "{said}");
    // The imported table stays.
    assert_eq!(w.course().source, Source::Import);
    assert_eq!(
        parts(&w.act(Msg::LintReply(first, Ok(Linted::default())))),
        []
    );
}

#[test]
fn a_crashed_lint_worker_is_worded_never_the_browsers_english() {
    let mut w = widget();
    let asked = imported_waiting_for_lint(&mut w, r#"{"permissions": {"allow": ["Bash(ls)"]}}"#);
    let crash =
        WorkerError::Crashed("Uncaught RangeError: Maximum call stack size exceeded".into());
    w.act(Msg::LintReply(asked, Err(crash)));
    let Some(Err(said)) = &w.lint().findings else {
        panic!("{:?}", w.lint())
    };
    assert!(
        !said.contains("RangeError") && said.contains("读取器意外停止"),
        "{said}"
    );
}

#[test]
fn an_import_past_its_time_budget_is_told_by_its_request() {
    let mut w = widget();
    let old = Request::Import {
        format: FormatChoice::Is(Format::Codex),
        text: "an older paste".into(),
    };
    let out = w.act(Msg::WorkerTimeout {
        request: old,
        seconds: 5,
    });
    assert_eq!(parts(&out), []);
    assert!(w.import().error.is_none());
}

#[test]
fn findings_come_in_pages_and_show_more_adds_one_page_until_all_are_shown() {
    let mut w = widget();
    let asked = imported_waiting_for_lint(&mut w, r#"{"permissions": {"allow": ["Bash(ls)"]}}"#);
    let one = crate::worker::lint(
        Format::OpenCode,
        r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#,
    )
    .unwrap()
    .findings
    .remove(0);
    let total = FINDINGS_PAGE * 2 + 7;
    let skipped = LintSkipped {
        line: 2,
        column: 19,
        pattern: "x* ".repeat(500),
        why: TooComplex::Pattern,
    };
    let out = w.act(Msg::LintReply(
        asked,
        Ok(Linted {
            findings: vec![one; total],
            not_checked: vec![skipped.clone()],
        }),
    ));
    assert_eq!(parts(&out), [Part::Lint, Part::Waiting]);
    assert_eq!(w.lint().not_checked, [skipped]);
    let shown = |w: &Widget| w.lint().page().map(|(p, all)| (p.len(), all));
    assert_eq!(shown(&w), Some((FINDINGS_PAGE, total)));
    let out = w.act(Msg::MoreFindings);
    assert_eq!(parts(&out), [Part::Lint]);
    assert_eq!(Region::woken(out.changed), [Region::Findings]);
    assert_eq!(shown(&w), Some((FINDINGS_PAGE * 2, total)));
    w.act(Msg::MoreFindings);
    assert_eq!(shown(&w), Some((total, total)));
    // Everything is shown: nothing changes.
    assert_eq!(parts(&w.act(Msg::MoreFindings)), []);
    // A new paste starts again at the first page, with no notes.
    imported_waiting_for_lint(&mut w, r#"{"permissions": {"deny": ["Bash(rm)"]}}"#);
    assert_eq!(w.lint(), &Lint::default());
}

#[test]
fn a_second_widget_with_the_same_id_keeps_its_state_apart_and_says_so() {
    use crate::persist::store::{key, same_id_ns, Note};
    let first = same_id_ns("a3", 0);
    let second = same_id_ns("a3", 1);
    assert_ne!(key("/p", &first), key("/p", &second));
    let note = Note::SameId {
        id: "a3".into(),
        count: 2,
        key: second.clone(),
    };
    let w = widget().with_note(note.clone());
    assert_eq!(w.kept().notes, std::slice::from_ref(&note));
    let zh = Lang::Zh.state_note(&note);
    assert!(
        zh.contains("2 个组件的 id 都是 “a3”") && zh.contains("“a3~2”"),
        "{zh}"
    );
    let en = Lang::En.state_note(&note);
    assert!(
        en.contains("2 widgets on this page have the id “a3”"),
        "{en}"
    );
    // What the second one types is stored under its own key and read back by it alone.
    let mut typed = Widget::new(
        Config {
            ns: second.clone(),
            ..widget().config().clone()
        },
        "",
    );
    typed.act(Msg::EditInput("echo second".into()));
    let stored = crate::persist::store::encode(&second, &typed.snapshot().to_stored());
    let back = Widget::with_stored(
        Config {
            ns: second,
            ..widget().config().clone()
        },
        "",
        Some(&stored),
    );
    assert_eq!(back.fields().input, "echo second");
    let other = Widget::with_stored(
        Config {
            ns: first,
            ..widget().config().clone()
        },
        "",
        Some(&stored),
    );
    assert_ne!(other.fields().input, "echo second");
}
