use super::*;
use crate::state::Guess;
use crate::worker::read_lesson_configs;
use permlab_core::Decision;

fn widget(hash: &str) -> Widget {
    Widget::new(
        Config {
            lang: Lang::Zh,
            ns: "a3".into(),
            fixtures: "conformance/".into(),
            selfcheck: "selfcheck-loader.js".into(),
            lesson: None,
            lesson_from: None,
        },
        hash,
    )
}

fn ids(w: &Widget) -> Vec<u32> {
    w.table().rules().iter().map(|r| r.id.0).collect()
}

#[test]
fn keyboard_lift_carry_drop_moves_and_announces() {
    let mut w = widget("");
    let id = RuleId(8);
    let lifted = w.act(Msg::GripKey(id, GripKey::Toggle, false));
    assert!(lifted.handled);
    let said = lifted.announced().unwrap();
    assert!(said.contains("#8"), "{said}");
    w.act(Msg::GripKey(id, GripKey::Down, false));
    w.act(Msg::GripKey(id, GripKey::Down, false));
    assert_eq!(w.target(), Some((7, 9)));
    let dropped = w.act(Msg::GripKey(id, GripKey::Toggle, false));
    assert_eq!(ids(&w), [1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
    let said = dropped.announced().unwrap();
    assert!(said.contains("10"), "{said}");
    assert!(dropped.effects.contains(&Effect::Logged));
    assert_eq!(
        dropped.focus(),
        Some(Focus {
            rule: RuleId(8),
            control: Control::Grip
        })
    );
    assert_eq!(w.lab.log().len(), 1);
    // The matrix remembers the verdicts before the move, for the changed-cell marks.
    assert!(w
        .verdicts
        .before
        .as_ref()
        .is_some_and(|p| *p != w.verdicts.matrix));
}

#[test]
fn plain_arrows_without_a_lift_are_left_to_the_browser() {
    let mut w = widget("");
    assert!(!w.act(Msg::GripKey(RuleId(3), GripKey::Down, false)).handled);
    assert!(w.act(Msg::GripKey(RuleId(3), GripKey::Down, true)).handled);
    assert_eq!(ids(&w)[..4], [1, 2, 4, 3]);
}

#[test]
fn moving_to_the_edge_focuses_the_grip_not_a_disabled_button() {
    let mut w = widget("");
    let out = w.act(Msg::Step(RuleId(9), true));
    assert_eq!(
        out.focus(),
        Some(Focus {
            rule: RuleId(9),
            control: Control::Grip
        })
    );
    let out = w.act(Msg::Step(RuleId(2), false));
    assert_eq!(
        out.focus(),
        Some(Focus {
            rule: RuleId(2),
            control: Control::Grip
        })
    );
    let out = w.act(Msg::Step(RuleId(5), true));
    assert_eq!(
        out.focus(),
        Some(Focus {
            rule: RuleId(5),
            control: Control::Down
        })
    );
}

#[test]
fn typing_an_invalid_tool_keeps_the_last_valid_call() {
    let mut w = widget("");
    let before = w.lab.call().clone();
    w.act(Msg::EditTool("two words".into()));
    assert!(w.tool_problem().is_some());
    assert_eq!(w.lab.call(), &before);
    w.act(Msg::EditTool("read_file".into()));
    assert_eq!(w.lab.call().tool, "read_file");
    // Typing never rewrites the fields under the caret.
    assert_eq!(w.fields.tool, "read_file");
}

#[test]
fn a_bad_pasted_table_is_reported_and_nothing_is_lost() {
    let mut w = widget("");
    w.act(Msg::Editor(true));
    assert!(w.editor.text.contains("\"bash\""));
    w.act(Msg::EditTable("[{\"tool\": \"bash\",".into()));
    w.act(Msg::Apply);
    assert!(w.editor.error.is_some());
    assert_eq!(w.editor.text, "[{\"tool\": \"bash\",");
    assert_eq!(w.table().len(), 10);
}

fn with_lesson(text: &str) -> Widget {
    Widget::new(
        Config {
            lang: Lang::En,
            ns: "l".into(),
            fixtures: String::new(),
            selfcheck: String::new(),
            lesson: Some(text.to_string()),
            lesson_from: None,
        },
        "",
    )
}

/// Every author answer of the lesson files, checked through the widget's own engines
/// (after a reorder too: the answers of order-insensitive engines must not move).
#[test]
fn lesson_files_drive_the_widget_and_its_engines_agree_with_the_answer_keys() {
    for name in ["a3-2-conflict.json", "claude-code-settings.json"] {
        let path = format!(
            "{}/../../fixtures/lessons/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut w = with_lesson(&text);
        assert!(
            w.course.lesson_error.is_none(),
            "{:?}",
            w.course.lesson_error
        );
        let lesson = w.course.lesson.clone().unwrap();
        assert_eq!(w.title(), lesson.title.get("en"));
        assert_eq!(w.shown(), lesson.engines);
        let mut checked = 0;
        for (i, preset) in lesson.presets.iter().enumerate() {
            assert!(w.load_source(Source::Lesson(i), &mut Vec::new()));
            for (k, call) in preset.calls.iter().enumerate() {
                w.act(Msg::PickCall(k));
                for (engine, want) in &call.expect {
                    assert_eq!(
                        w.eval(*engine).unwrap().decision,
                        *want,
                        "{name} {} {}",
                        preset.id,
                        call.call
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 5, "{name}: {checked}");
    }
}

#[test]
fn an_imported_claude_config_is_judged_natively_and_rows_follow_a_reorder() {
    let mut w = widget("");
    w.act(Msg::ImportText(
            r#"{"permissions": {"allow": ["Bash(git status)", "Bash(git *)"], "deny": ["Bash(git push *)", "Bash(curl *)"]}}"#.into(),
        ));
    w.act(Msg::Import);
    assert_eq!(w.course.source, Source::Import);
    let s = w.import.summary.clone().unwrap();
    assert_eq!(
        (s.format, s.imported, s.dropped),
        (Format::ClaudeCode, 4, 0)
    );
    w.fields.tool = "bash".into();
    w.act(Msg::EditInput("git push origin main".into()));
    let row = |w: &Widget| {
        let e = w.eval(EngineId::ClaudeCode).unwrap();
        assert_eq!(e.decision, Decision::Deny);
        w.table().rules()[e.rule.unwrap()].pattern.clone()
    };
    assert_eq!(row(&w), "git push *");
    w.act(Msg::Reverse);
    assert_eq!(row(&w), "git push *");
    // An old-format link keeps the pasted config.
    let hash = crate::persist::hash::write("", "a3", &w.snapshot().to_entries());
    let w2 = widget(&format!("#{hash}"));
    assert_eq!(w2.course.source, Source::Import);
    assert_eq!(w2.table().len(), 4);
}

#[test]
fn a_rules_file_goes_through_the_worker_protocol_unchanged() {
    let text = "prefix_rule(pattern=[\"git\", [\"push\", \"fetch\"]], decision=\"prompt\")\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n";
    let direct = import_config("auto", text).unwrap();
    let reply = |text: &str| match crate::worker::answer(&Request::Import {
        format: FormatChoice::Is(Format::Codex),
        text: text.into(),
    }) {
        Some(crate::protocol::Reply::Import { result }) => result,
        other => panic!("{other:?}"),
    };
    let mut w = widget("");
    w.act(Msg::ImportReply(reply(text)));
    assert_eq!(w.course.source, Source::Import);
    assert_eq!(w.table().len(), direct.table.len());
    assert_eq!(w.table().to_json(), direct.table.to_json());
    assert!(w.shown().contains(&EngineId::Codex));
    w.act(Msg::ImportReply(reply(
        "prefix_rule(pattern=[], decision=\"x\")",
    )));
    assert!(w.import.error.is_some());
}

#[test]
fn a_lesson_with_a_codex_rules_config_is_read_through_the_worker_protocol() {
    let lesson = r#"{"title": "codex", "language": "en", "mode": "quiz", "engines": ["codex", "opencode"],
            "presets": [{"id": "rules", "config": {"format": "codex", "text": "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\")\nprefix_rule(pattern=[\"git\"], decision=\"allow\")\n"},
                         "calls": [{"tool": "bash", "input": "git push origin main", "expect": {"codex": "deny"}},
                                   {"tool": "bash", "input": "git status", "expect": {"codex": "allow"}}]}]}"#;
    assert!(has_codex_config(lesson));
    let reply = read_lesson_configs(lesson);
    let mut w = widget("");
    w.waiting.lesson = Some(Request::Lesson {
        text: String::new(),
    });
    w.act(Msg::LessonReply(reply));
    assert!(w.waiting.lesson.is_none());
    assert!(
        w.course.lesson_error.is_none(),
        "{:?}",
        w.course.lesson_error
    );
    assert_eq!(w.course.source, Source::Lesson(0));
    assert_eq!(w.table().len(), 2);
    let calls = w.course.lesson.clone().unwrap().presets[0].calls.clone();
    for (k, c) in calls.iter().enumerate() {
        w.act(Msg::PickCall(k));
        for (e, want) in &c.expect {
            assert_eq!(w.eval(*e).unwrap().decision, *want, "{}", c.call);
        }
    }
    // A broken .rules file in a lesson is reported, not half-applied.
    let bad = lesson.replace("forbidden", "Forbidden");
    let mut w = widget("");
    w.act(Msg::LessonReply(read_lesson_configs(&bad)));
    assert!(
        matches!(
            &w.course.lesson_error,
            Some(LessonError::Worker(crate::protocol::WorkerError::Lesson {
                preset: 0,
                ..
            }))
        ),
        "{:?}",
        w.course.lesson_error
    );
    assert_eq!(w.course.source, Source::Builtin(Preset::Miniagent));
}

/// A lesson preset that is a Codex `.rules` file with
/// `canonical_matching=True` keeps Codex's case folding on the page too (the worker turns the
/// file into rows and marks the folded ones), also after a reorder; the other rows and the
/// other engines match as written.
#[test]
fn a_lesson_codex_config_keeps_canonical_matching_on_the_page() {
    let lesson = r#"{"title": "codex", "language": "en", "mode": "explore", "engines": ["codex", "opencode"],
            "presets": [{"id": "rules", "config": {"format": "codex", "text": "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\", canonical_matching=True)\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n"},
                         "calls": [{"tool": "bash", "input": "GIT Push origin main"}]}]}"#;
    let reply = read_lesson_configs(lesson);
    assert!(
        reply.as_ref().unwrap().contains("\"canonical\":true"),
        "{reply:?}"
    );
    let mut w = widget("");
    w.act(Msg::LessonReply(reply));
    assert!(
        w.course.lesson_error.is_none(),
        "{:?}",
        w.course.lesson_error
    );
    let codex = |w: &Widget| w.eval(EngineId::Codex).unwrap().decision;
    let set = |w: &mut Widget, input: &str| {
        w.act(Msg::EditTool("bash".into()));
        w.act(Msg::EditInput(input.into()));
    };
    set(&mut w, "GIT Push origin main");
    assert_eq!(codex(&w), Decision::Deny, "folded, as Codex 0.171.0 does");
    assert_ne!(w.eval(EngineId::OpenCode).unwrap().decision, Decision::Deny);
    w.act(Msg::Reverse);
    assert_eq!(codex(&w), Decision::Deny, "still folded after a reorder");
    set(&mut w, "RM -rf x");
    assert_ne!(
        codex(&w),
        Decision::Deny,
        "a rule without the flag matches as written"
    );
}

#[test]
fn a_broken_import_keeps_the_text_and_the_table() {
    let mut w = widget("");
    w.act(Msg::ImportText("{\"permissions\": {\"allow\": [".into()));
    w.act(Msg::Import);
    assert!(w.import.error.is_some());
    assert_eq!(w.import.text, "{\"permissions\": {\"allow\": [");
    assert_eq!(w.course.source, Source::Builtin(Preset::Miniagent));
}

#[test]
fn a_broken_lesson_is_reported_and_the_built_ins_remain() {
    let w = with_lesson(
        r#"{"title": "x", "language": "fr", "mode": "quiz", "engines": [], "presets": [{}]}"#,
    );
    assert!(matches!(w.course.lesson_error, Some(LessonError::Checks(ref p)) if !p.is_empty()));
    assert_eq!(w.course.source, Source::Builtin(Preset::Miniagent));
}

/// Where a move's time goes on a 10 000-row table (run with `--release --ignored --nocapture`).
#[test]
#[ignore]
fn big_table_move_timing() {
    let rules: Vec<String> = (0..10_000)
        .map(|i| {
            format!(
                "{{\"tool\": \"bash\", \"pattern\": \"cmd{} *\", \"action\": \"{}\"}}",
                i % 13,
                ["allow", "ask", "deny"][i % 3]
            )
        })
        .collect();
    let mut w = widget("");
    w.act(Msg::EditTable(format!("[{}]", rules.join(","))));
    let t0 = std::time::Instant::now();
    w.act(Msg::Apply);
    eprintln!("apply {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    w.act(Msg::GripKey(RuleId(1), GripKey::Down, true));
    eprintln!("move {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    let _ = w.snapshot();
    eprintln!("snapshot {:?}", t0.elapsed());
}

#[test]
fn a_revealed_verdict_stays_through_a_reorder_graded_on_the_order_it_was_guessed_on() {
    let mut w = widget("");
    w.act(Msg::Source(Source::Builtin(Preset::Git)));
    let deny = Guess::Verdict(Decision::Deny);
    w.act(Msg::Guess(EngineId::ClaudeCode, deny));
    w.act(Msg::Guess(EngineId::OpenCode, deny));
    w.act(Msg::Reveal(EngineId::ClaudeCode));
    w.act(Msg::Reveal(EngineId::OpenCode));
    assert_eq!(
        w.lab.guess_was_right(
            EngineId::ClaudeCode,
            w.eval(EngineId::ClaudeCode).unwrap().decision
        ),
        Some(true)
    );
    let reversed = w.act(Msg::Reverse);
    let said = reversed.announced().unwrap();
    // The log words the new verdicts of the revealed engines: they stay revealed (asking for a
    // new guess would ask for what the page already says), with their guesses.
    for e in [EngineId::ClaudeCode, EngineId::OpenCode] {
        assert!(w.revealed(e), "{e}");
        assert_eq!(w.lab.guess(e), Some(deny));
    }
    let cc = w.lab.earlier(EngineId::ClaudeCode).unwrap();
    assert_eq!((cc.guess, cc.verdict), (deny, Decision::Deny));
    let oc = w.lab.earlier(EngineId::OpenCode).unwrap();
    assert_eq!((oc.guess, oc.verdict), (deny, Decision::Allow));
    // OpenCode now says deny: the old wrong guess is not turned into a right one.
    assert_eq!(w.eval(EngineId::OpenCode).unwrap().decision, Decision::Deny);
    assert_eq!(
        w.lab.guess_was_right(EngineId::OpenCode, Decision::Deny),
        Some(false)
    );
    let entry = w.lab.log().last().unwrap();
    assert_eq!(entry.known, [EngineId::ClaudeCode, EngineId::OpenCode]);
    assert!(said.contains("OpenCode: 放行 → 拒绝"), "{said}");
    assert!(said.contains("first-match 改判了"), "{said}");
    // Back to the lesson's order: nothing revealed is hidden, the grade is still the first's.
    w.act(Msg::Reset);
    assert!(w.revealed(EngineId::OpenCode));
    assert_eq!(w.lab.earlier(EngineId::OpenCode), Some(oc));
    // first-match was never revealed: it still waits for its guess.
    assert!(!w.revealed(EngineId::FirstMatch));
}

#[test]
fn the_stepper_walks_an_unrevealed_engine_blind_over_the_whole_table() {
    let mut w = widget("");
    let rows = w.table().len();
    w.act(Msg::ToggleStepper);
    // Every cursor engine's walk before its reveal: every row of its scan order, then a last
    // step off the table, whatever it decides — the same length for all.
    for e in w.cursor_engines() {
        assert_eq!(w.walk(e).len(), rows + 1, "{e}");
        assert!(w.withholds_step(e, 1), "{e}");
    }
    assert_eq!(w.total_steps(), rows + 1);
    let at = |w: &Widget, e: EngineId| {
        w.cursors()
            .into_iter()
            .filter(|c| c.1 == e)
            .map(|c| c.0)
            .collect::<Vec<_>>()
    };
    let mut fm = Vec::new();
    let mut oc = Vec::new();
    for k in 1..=rows + 1 {
        w.act(Msg::GoStep(k));
        fm.extend(at(&w, EngineId::FirstMatch));
        oc.extend(at(&w, EngineId::OpenCode));
    }
    // first-match down over every row (past #8, where it stops), OpenCode up over every row.
    assert_eq!(fm, (0..rows).collect::<Vec<_>>());
    assert_eq!(oc, (0..rows).rev().collect::<Vec<_>>());
    // The last step: no cursor on the table, for any unrevealed engine.
    assert!(w.cursors().is_empty(), "{:?}", w.cursors());
    w.act(Msg::Guess(EngineId::FirstMatch, Guess::Skip));
    w.act(Msg::Reveal(EngineId::FirstMatch));
    assert!(!w.withholds_step(EngineId::FirstMatch, 1));
    // Revealed: its own steps, stopping at #8 (a rule decided: no step after it).
    assert_eq!(w.walk(EngineId::FirstMatch).len(), 8);
    assert!(w.cursors().contains(&(7, EngineId::FirstMatch)));
    // The others still walk blind, so the count tells nothing of them.
    assert_eq!(w.total_steps(), rows + 1);
}

#[test]
fn a_revealed_engine_no_rule_decided_for_ends_on_its_fallback_step() {
    let mut w = widget("");
    w.act(Msg::EditTool("web_fetch".into()));
    w.act(Msg::EditInput("https://example.com".into()));
    let rows = w.table().len();
    for e in w.shown() {
        w.act(Msg::Guess(e, Guess::Skip));
        w.act(Msg::Reveal(e));
    }
    let fm = w.walk(EngineId::FirstMatch);
    assert_eq!(fm.len(), rows + 1);
    assert_eq!(fm.last(), Some(&WalkStep::End));
    assert_eq!(w.eval(EngineId::FirstMatch).unwrap().rule, None);
    w.act(Msg::ToggleStepper);
    w.act(Msg::StepBy(2));
    assert_eq!(
        w.walk_step(EngineId::FirstMatch, w.step()),
        Some(WalkStep::End)
    );
    assert!(w.cursors().is_empty(), "{:?}", w.cursors());
}

const SPLIT: &str = r#"{"title": "split", "language": "en", "mode": "quiz", "engines": ["codex"],
        "presets": [{"id": "s", "rules": [{"tool": "bash", "pattern": "git *", "action": "allow"},
                     {"tool": "bash", "pattern": "curl *", "action": "deny"}],
                     "calls": [{"tool": "bash", "input": "curl https://x.example; git status"}]}]}"#;

#[test]
fn a_split_call_walks_blind_once_until_revealed_then_once_per_part() {
    let mut w = with_lesson(SPLIT);
    let e = w.eval(EngineId::Codex).unwrap().clone();
    assert_eq!(e.parts.len(), 2, "{e:?}");
    w.act(Msg::ToggleStepper);
    // Before the reveal: one pass over the two rows and the last step, parts unsaid.
    assert_eq!(w.walk(EngineId::Codex).len(), 3);
    for k in 1..=3 {
        assert!(w.withholds_step(EngineId::Codex, k), "step {k}");
    }
    w.act(Msg::Guess(EngineId::Codex, Guess::Skip));
    w.act(Msg::Reveal(EngineId::Codex));
    assert!(!w.withholds_step(EngineId::Codex, 1));
    assert_eq!(w.walk(EngineId::Codex).len(), e.steps.len());
}

const NAIVE: &str = r#"{"title": "naive", "language": "zh", "mode": "quiz", "engines": ["first-match", "opencode"],
        "presets": [{"id": "m", "rules": [{"tool": "bash", "pattern": "*", "action": "deny"},
                     {"tool": "bash", "pattern": "python -m unittest*", "action": "allow"}],
                     "calls": [{"tool": "bash", "input": "python -m unittest -v t.py"}]}]}"#;

#[test]
fn exactly_the_lessons_engines_and_the_others_only_on_request() {
    let mut w = with_lesson(NAIVE);
    assert_eq!(w.shown(), [EngineId::FirstMatch, EngineId::OpenCode]);
    assert_eq!(w.cursor_engines(), w.shown());
    assert_eq!(
        w.others(),
        [EngineId::ClaudeCode, EngineId::CoreCoder, EngineId::Codex]
    );
    assert!(!w.compares_opencode_claude());
    w.act(Msg::Codex(true));
    assert_eq!(w.shown().len(), 5);
    assert!(w.compares_opencode_claude());
    // CoreCoder reads no rule: a stepper line, no cursor.
    assert!(!w.cursor_engines().contains(&EngineId::CoreCoder));
    let all = NAIVE.replace(
        r#"["first-match", "opencode"]"#,
        r#"["first-match", "opencode", "claude-code", "corecoder", "codex"]"#,
    );
    assert!(with_lesson(&all).others().is_empty());
    // The built-in rule sets: four engines, Codex on request.
    assert_eq!(widget("").others(), [EngineId::Codex]);
}

/// Texts that state outcomes ("only OpenCode changes its verdict") are checked against the
/// engines the lesson shows: the engines the text names as changing are exactly the ones
/// whose verdict the reorder flips.
#[test]
fn lesson_texts_that_state_outcomes_match_the_shown_engines() {
    let path = format!(
        "{}/../../fixtures/lessons/a3-2-conflict.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut w = with_lesson(&std::fs::read_to_string(path).unwrap());
    let git = w.source_of("l-git").unwrap();
    w.load_source(git, &mut Vec::new());
    for e in w.shown() {
        w.act(Msg::Guess(e, Guess::Skip));
        w.act(Msg::Reveal(e));
    }
    w.act(Msg::Reverse);
    let flipped: Vec<EngineId> = w.lab.log()[0].flipped.iter().map(|f| f.engine).collect();
    for lang in [Lang::Zh, Lang::En] {
        w.config.lang = lang;
        let text = w.lesson_text("try").unwrap();
        let (only, rest) = match lang {
            Lang::Zh => ("只有", "改判"),
            Lang::En => ("only", "change"),
        };
        let claim = text
            .split(only)
            .nth(1)
            .and_then(|t| t.split(rest).next())
            .unwrap_or("");
        let named: Vec<EngineId> = w
            .shown()
            .into_iter()
            .filter(|e| claim.contains(lang.engine(*e)))
            .collect();
        assert_eq!(named, flipped, "{lang:?}: {text}");
    }
}

#[test]
fn an_old_format_link_round_trips_the_state() {
    let mut w = widget("");
    w.act(Msg::Reverse);
    w.act(Msg::Guess(EngineId::OpenCode, Guess::Skip));
    w.act(Msg::Reveal(EngineId::OpenCode));
    w.act(Msg::ToggleStepper);
    w.act(Msg::StepBy(1));
    let hash = crate::persist::hash::write("", "a3", &w.snapshot().to_entries());
    let w2 = widget(&format!("#{hash}"));
    assert_eq!(ids(&w2), ids(&w));
    assert!(w2.lab.is_revealed(EngineId::OpenCode));
    assert!(w2.panels.stepping);
    assert_eq!(w2.step(), 2);
}

#[test]
fn an_import_shows_neither_the_lessons_question_nor_its_tasks() {
    let lesson = r#"{"title": "t", "language": "zh", "mode": "quiz", "engines": ["opencode"],
        "tasks": [{"text": "先猜再揭示", "check": {"revealed": ["opencode"]}}],
        "texts": {"question": "git push 听谁的?"},
        "presets": [{"id": "git", "rules": [{"tool": "bash", "pattern": "git *", "action": "allow"}],
                     "calls": ["bash: git push"]}]}"#;
    let mut w = Widget::new(
        Config {
            lang: Lang::Zh,
            ns: "a3".into(),
            fixtures: String::new(),
            selfcheck: "none".into(),
            lesson: Some(lesson.into()),
            lesson_from: None,
        },
        "",
    );
    assert_eq!(
        w.lesson_text("question").as_deref(),
        Some("git push 听谁的?")
    );
    w.act(Msg::ImportText(
        r#"{"permissions": {"allow": ["Bash(ls *)"]}}"#.into(),
    ));
    w.act(Msg::Import);
    assert_eq!(w.course.source, Source::Import);
    assert_eq!(w.lesson_text("question"), None);
    // Back on the lesson's preset, its question is back.
    w.act(Msg::Source(Source::Lesson(0)));
    assert!(w.lesson_text("question").is_some());
}

#[test]
fn try_again_is_offered_only_once_there_is_a_guess_or_a_reveal_to_clear() {
    let mut w = widget("");
    assert!(!w.can_try_again(), "nothing guessed yet");
    w.act(Msg::Guess(EngineId::OpenCode, Guess::Skip));
    assert!(w.can_try_again());
    w.act(Msg::TryAgain);
    assert!(!w.can_try_again(), "cleared: nothing left to try again");
    w.act(Msg::Guess(EngineId::FirstMatch, Guess::Skip));
    w.act(Msg::Reveal(EngineId::FirstMatch));
    assert!(w.can_try_again());
}

#[test]
fn a_step_asks_the_page_to_show_the_cursor_rows() {
    let mut w = widget("");
    assert!(!w
        .act(Msg::ToggleStepper)
        .effects
        .contains(&Effect::ShowCursors));
    for by in [1, 1, -1, 2, -2] {
        assert!(
            w.act(Msg::StepBy(by))
                .effects
                .contains(&Effect::ShowCursors),
            "{by}"
        );
    }
}
