//! The import panel on the real configs people committed (`../shared/corpus/`, read in place):
//! every file is pasted into a widget exactly as a learner would (format on "detect"), and
//! either becomes a table the engines judge — with every unusable rule listed — or is refused
//! with a message while the pasted text stays. No panic, no silent drop.

mod common;

use common::corpus;
use permlab_widget::model::{Msg, Source};
use permlab_widget::{Config, Lang, Widget};

fn widget() -> Widget {
    Widget::new(
        Config {
            lang: Lang::Zh,
            ns: "imp".into(),
            fixtures: String::new(),
            selfcheck: "none".into(),
            lesson: None,
            lesson_from: None,
        },
        "",
    )
}

/// (loaded, loaded with warnings, rejected)
fn paste_all(folder: &str, engine: &str) -> (usize, usize, usize) {
    let (mut loaded, mut warned, mut rejected) = (0, 0, 0);
    for (name, text) in corpus(folder) {
        let mut w = widget();
        w.act(Msg::ImportText(text.clone()));
        w.act(Msg::Import);
        match (&w.import().summary, &w.import().error) {
            (Some(s), None) => {
                assert_eq!(w.course().source, Source::Import, "{name}");
                assert_eq!(
                    s.format.engine().slug(),
                    engine,
                    "{name}: detected as {:?}",
                    s.format
                );
                assert_eq!(
                    s.dropped,
                    s.warnings
                        .iter()
                        // A zh widget: the warning is worded in Chinese (12.9).
                        .filter(|w| w.ends_with("(没有导入)"))
                        .count(),
                    "{name}"
                );
                // The imported harness is one of the panels, and every engine judged the call.
                assert!(w.shown().iter().any(|e| e.slug() == engine), "{name}");
                assert_eq!(
                    w.verdicts().evals.len(),
                    permlab_core::EngineId::ALL.len(),
                    "{name}"
                );
                if s.warnings.is_empty() {
                    loaded += 1;
                } else {
                    warned += 1;
                }
            }
            (None, Some(e)) => {
                let words = permlab_widget::text::i18n::Lang::En.import_problem(e);
                assert!(!words.is_empty(), "{name}");
                assert_eq!(w.import().text, text, "{name}: the pasted text must stay");
                assert_ne!(w.course().source, Source::Import, "{name}");
                eprintln!("{name}: refused: {words}");
                rejected += 1;
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    println!("{folder}: {loaded} loaded, {warned} loaded with warnings, {rejected} rejected");
    (loaded, warned, rejected)
}

#[test]
fn claude_code_settings_files() {
    // 37 files carry a note: keys no verdict here takes into account (`hooks`, `model`…),
    // a sandbox without `autoAllowBashIfSandboxed`, a `defaultMode` that does not take effect
    // from project settings — shown, never silently ignored.
    assert_eq!(paste_all("claude", "claude-code"), (41, 37, 2));
}

#[test]
fn opencode_configs_and_agent_files() {
    assert_eq!(paste_all("opencode", "opencode"), (29, 11, 0));
}

#[test]
fn codex_rules_files() {
    assert_eq!(paste_all("codex", "codex"), (16, 2, 2));
}
