//! The import panel's lint findings on the real configs of `../shared/corpus/` (read in place):
//! every file is pasted and imported as a learner would, the worker's side of the protocol
//! lints it (`protocol::answer`, as `src/bin/selfcheck.rs` does), and every finding's "load
//! this call" button is pressed. The call fields then show the finding's call, the stepper is
//! open, and the harness's own panel gives the verdict the finding states: the widget's
//! engines and the linter's agree on every finding of the corpus.

mod common;

use common::corpus;
use permlab_core::EngineId;
use permlab_widget::model::{Msg, Source};
use permlab_widget::protocol::{Reply, Request};
use permlab_widget::text::lint_text;
use permlab_widget::worker;
use permlab_widget::{Config, Lang, Widget};

fn widget(lang: Lang, selfcheck: &str) -> Widget {
    Widget::new(
        Config {
            lang,
            ns: "lint".into(),
            fixtures: String::new(),
            selfcheck: selfcheck.into(),
            lesson: None,
            lesson_from: None,
        },
        "",
    )
}

/// What the page's effects do with a pending worker request: the worker's answer, handed back.
fn work(w: &mut Widget) {
    if let Some(req) = w.waiting().import.clone() {
        match worker::answer(&req) {
            Some(Reply::Import { result }) => {
                w.act(Msg::ImportReply(result));
            }
            other => panic!("{other:?}"),
        }
    }
    if let Some(req) = w.waiting().lint.clone() {
        assert!(matches!(req, Request::Lint { .. }));
        match worker::answer(&req) {
            Some(Reply::Lint { result }) => {
                w.act(Msg::LintReply(req.clone(), result));
            }
            other => panic!("{other:?}"),
        }
    }
}

fn paste(lang: Lang, text: &str) -> Widget {
    let mut w = widget(lang, "selfcheck/selfcheck-loader.js");
    w.act(Msg::ImportText(text.to_string()));
    w.act(Msg::Import);
    work(&mut w);
    w
}

fn engine_of(harness: &str) -> EngineId {
    permlab_core::import::Format::from_slug(harness)
        .unwrap()
        .engine()
}

#[test]
fn every_corpus_finding_loads_its_call_and_the_widget_agrees_with_its_verdict() {
    let mut tally = std::collections::BTreeMap::<(String, String), usize>::new();
    let mut files_with = 0;
    let mut agents = 0;
    for folder in ["claude", "opencode", "codex"] {
        for (name, text) in corpus(folder) {
            let mut w = paste(Lang::En, &text);
            if w.course().source != Source::Import {
                // Refused by the import (the harness would refuse it too): no findings shown.
                assert!(w.import().error.is_some(), "{name}");
                continue;
            }
            assert!(
                w.waiting().lint.is_none(),
                "{name}: the lint request was answered"
            );
            let found = match w.lint().findings.clone() {
                Some(Ok(f)) => f,
                // The harness refuses the file (e.g. a failing Codex example elsewhere): said so.
                Some(Err(e)) => {
                    assert!(!e.is_empty(), "{name}");
                    continue;
                }
                None => panic!("{name}: no lint result"),
            };
            files_with += usize::from(!found.is_empty());
            for (i, f) in found.iter().enumerate() {
                *tally
                    .entry((f.harness.slug().to_string(), f.kind.slug().to_string()))
                    .or_default() += 1;
                if f.agent.is_some() {
                    // About an agent's rules, which the table does not hold: nothing loads.
                    let before = (w.fields().input.clone(), w.panels().stepping);
                    w.act(Msg::FindingCall(i));
                    assert_eq!(
                        (w.fields().input.clone(), w.panels().stepping),
                        before,
                        "{name} #{i}"
                    );
                    agents += 1;
                    continue;
                }
                w.act(Msg::FindingCall(i));
                assert_eq!(
                    (w.fields().tool.as_str(), w.fields().input.as_str()),
                    (f.tool.as_str(), f.input.as_str()),
                    "{name} #{i}"
                );
                assert!(
                    w.panels().stepping,
                    "{name} #{i}: the stepper opens on the call"
                );
                let got = w.eval(engine_of(f.harness.slug())).unwrap().decision;
                assert_eq!(
                    got,
                    f.verdict,
                    "{name} #{i} {} `{}`: the widget's {} panel disagrees with the finding",
                    f.kind.slug(),
                    f.native,
                    f.harness.slug()
                );
                // Worded in both languages, with no English left in the zh message.
                for lang in [Lang::Zh, Lang::En] {
                    let t = lint_text::word(lang, f);
                    assert!(!t.message.is_empty() && !t.fix.is_empty(), "{name} #{i}");
                }
                let zh = lint_text::word(Lang::Zh, f);
                assert!(
                    !zh.message.contains(" never ") && !zh.fix.contains("Delete"),
                    "{name} #{i}: {}",
                    zh.message
                );
            }
        }
    }
    println!(
        "{files_with} corpus files with findings ({agents} findings about OpenCode agents' rules); by harness and kind: {tally:?}"
    );
    assert!(files_with >= 10, "{files_with}");
    let total: usize = tally.values().sum();
    assert!(total >= 20, "{total}");
}

/// A clean config shows no findings (the headline says so), and a new import forgets the old
/// findings until the worker answers again.
#[test]
fn a_clean_config_has_no_findings_and_a_new_paste_clears_the_old_ones() {
    let mut w = paste(
        Lang::Zh,
        r#"{"permission": {"bash": {"*": "ask", "rm *": "deny", "git status *": "allow"}}}"#,
    );
    assert_eq!(w.lint().findings, Some(Ok(Vec::new())));
    assert_eq!(lint_text::headline(Lang::Zh, 0), "你的配置里没有发现问题");
    w.act(Msg::ImportText(
        r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#.into(),
    ));
    w.act(Msg::Import);
    assert_eq!(
        w.lint().findings,
        None,
        "the old result is gone while the worker works"
    );
    assert!(matches!(w.waiting().lint, Some(Request::Lint { .. })));
    work(&mut w);
    let found = w.lint().findings.clone().unwrap().unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(
        lint_text::headline(Lang::Zh, found.len()),
        "你的配置里有 1 处问题"
    );
    w.act(Msg::FindingCall(0));
    assert_eq!(w.fields().input, "rm");
    assert_eq!(
        w.eval(EngineId::OpenCode).unwrap().decision.as_str(),
        "allow"
    );
    // A finding's call applies to the imported table only.
    w.act(Msg::Source(Source::Builtin(
        permlab_widget::presets::Preset::Git,
    )));
    let before = w.fields().input.clone();
    w.act(Msg::FindingCall(0));
    assert_eq!(w.fields().input, before);
}

/// An offline page (no worker) says why it cannot check the config.
#[test]
fn without_the_worker_the_panel_says_the_checker_is_missing() {
    let mut w = widget(Lang::En, "none");
    w.act(Msg::ImportText(
        r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#.into(),
    ));
    w.act(Msg::Import);
    assert_eq!(w.course().source, Source::Import);
    assert!(w.waiting().lint.is_none());
    assert!(matches!(&w.lint().findings, Some(Err(e)) if e.contains("offline")));
}

/// Every kind the panel can show (the ones the corpus lacks included) is worded in zh and en
/// with all its parts filled: no empty `` `…` `` where a rule, a call or a fix goes.
#[test]
fn every_kind_is_worded_in_both_languages_with_its_parts() {
    let cases = [
        ("opencode", r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#, "dead-rule"),
        ("opencode", r#"{"permission": {"bash": {"yarn": "deny"}}}"#, "no-space-star"),
        ("opencode", r#"{"permission": {"read": {"src/*": "allow"}}}"#, "star-crosses-slash"),
        ("opencode", r#"{"permission": {"read": {"**/.env": "deny"}}}"#, "globstar"),
        ("opencode", r#"{"permission": {"read": {"a?.txt": "deny"}}}"#, "question-mark"),
        ("opencode", r#"{"permission": {"bash": {"git *": "deny", "* push": "allow"}}}"#, "order-fragile"),
        ("claude-code", r#"{"permissions": {"deny": ["Bash(git:* push)"]}}"#, "colon-star"),
        ("claude-code", r#"{"permissions": {"deny": ["Bash(ssh * uptime *)"]}}"#, "trailing-star"),
        ("claude-code", r#"{"permissions": {"deny": ["Bash"], "allow": ["Bash(git status)"]}}"#, "bare-deny"),
        ("claude-code", r#"{"permissions": {"deny": ["Read(/etc/passwd)"]}}"#, "path-anchor"),
        ("claude-code", r#"{"permissions": {"deny": ["Read(**/.env)"]}}"#, "outside-cwd"),
        ("claude-code", r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#, "wrapper-bypass"),
        ("claude-code", r#"{"permissions": {"deny": ["Bash(git *)"], "allow": ["Bash(git status)"]}}"#, "dead-rule"),
        ("codex", "prefix_rule(pattern=[\"git\", \"push\", \"--force\"], decision=\"forbidden\")\n", "flag-after-prefix"),
        ("codex", "prefix_rule(pattern=[\"git push\"], decision=\"forbidden\")\n", "token-with-space"),
        ("codex", "prefix_rule(pattern=[\"git\", \"push\"], decision=\"prompt\", match=[\"git pull\"])\n", "failing-example"),
        ("codex", "prefix_rule(pattern=[\"git\"], decision=\"forbidden\")\nprefix_rule(pattern=[\"git\", \"push\"], decision=\"prompt\")\n", "dead-rule"),
    ];
    for (format, text, kind) in cases {
        let format = permlab_core::import::Format::from_slug(format).unwrap();
        let found = worker::lint(format, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .findings;
        let f = found
            .iter()
            .find(|f| f.kind.slug() == kind)
            .unwrap_or_else(|| panic!("{text}: no {kind} in {found:?}"));
        let zh = lint_text::word(Lang::Zh, f);
        let en = lint_text::word(Lang::En, f);
        for s in [
            &zh.message,
            &zh.fix,
            &zh.answer,
            &en.message,
            &en.fix,
            &en.answer,
        ] {
            assert!(!s.contains("``") && !s.contains("` `"), "{kind}: {s}");
        }
        assert_ne!(zh.message, en.message, "{kind}");
        assert!(
            zh.message
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{kind}: {}",
            zh.message
        );
    }
}
