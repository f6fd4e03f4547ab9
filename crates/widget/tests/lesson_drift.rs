//! The table widget's lesson built from seed 001 (`fixtures/lessons/
//! claude-code-settings.json`) shows the `/usr/bin/curl` drift with both answers. The lesson's
//! rules are exactly the recorded case's (`seed001-usr-bin-curl` in
//! `claude-code-recorded.json`), so the core's drift record applies; the Claude Code panel
//! gives the CLI's verdict, and only that call has a drift line.

use permlab_core::claude_code::{drift, Policy};
use permlab_core::{Decision, EngineId};
use permlab_widget::model::{Msg, Source};
use permlab_widget::{Config, Lang, Widget};

fn lesson_widget() -> Widget {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/lessons/claude-code-settings.json"
    ))
    .unwrap();
    Widget::new(
        Config {
            lang: Lang::Zh,
            ns: "d".into(),
            fixtures: String::new(),
            selfcheck: String::new(),
            lesson: Some(text),
            lesson_from: None,
        },
        "",
    )
}

#[test]
fn the_seed_001_lesson_has_the_recorded_cases_rules_and_shows_the_usr_bin_curl_drift() {
    let mut w = lesson_widget();
    assert!(
        w.course().lesson_error.is_none(),
        "{:?}",
        w.course().lesson_error
    );
    w.act(Msg::Source(Source::Lesson(0)));
    assert_eq!(w.course().source, Source::Lesson(0));
    let case = drift::find("seed001-usr-bin-curl").unwrap();
    assert_eq!((case.docs, case.cli), (Decision::Allow, Decision::Deny));
    // The lesson's rules are the drift case's rules.
    let native = w.course().native.clone().unwrap();
    let settings = native
        .imported
        .as_ref()
        .unwrap()
        .claude_settings
        .clone()
        .unwrap();
    let policy = Policy::merge(std::slice::from_ref(&settings), true);
    assert_eq!(drift::rules_text(&policy), case.rules);
    // The lesson has the call, the engine answers as the CLI did, and the drift is found.
    let i = w
        .course()
        .calls
        .iter()
        .position(|c| format!("Bash: {}", c.input) == case.call)
        .expect("the lesson has the /usr/bin/curl call");
    w.act(Msg::PickCall(i));
    assert_eq!(w.eval(EngineId::ClaudeCode).unwrap().decision, case.cli);
    let found = native.claude_drift(&w.course().calls[i]).unwrap();
    assert_eq!(found.id, case.id);
    assert_eq!(found.label_zh(), "文档写的是 allow · CLI 2.1.332 实测 deny");
    assert_eq!(found.label(), "docs: allow · CLI 2.1.332: deny");
    // The lesson's other calls have no drift line except where a recording says so.
    for (k, c) in w.course().calls.iter().enumerate() {
        if let Some(d) = native.claude_drift(c) {
            assert_eq!(format!("Bash: {}", c.input), d.call, "call #{k}");
            assert_eq!(d.rules, case.rules);
        }
    }
}
