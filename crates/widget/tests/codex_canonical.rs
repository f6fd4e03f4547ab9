//! A Codex `.rules` file with `canonical_matching=True`, pasted into the import
//! panel, keeps its case folding in the table: the worker's rows carry which rules fold, and
//! the page's Codex engine over those rows folds them (`GIT Push` is caught by
//! `prefix_rule(["git", "push"], forbidden, canonical_matching=True)`), after a reorder too;
//! the rule without it stays exact.

use permlab_core::{Decision, EngineId};
use permlab_widget::model::{Msg, Source};
use permlab_widget::protocol::{Reply, Request};
use permlab_widget::worker;
use permlab_widget::{Config, Lang, Widget};

const RULES: &str = "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\", canonical_matching=True)\nprefix_rule(pattern=[\"rm\", \"-rf\"], decision=\"forbidden\")\n";

fn imported() -> Widget {
    let mut w = Widget::new(
        Config {
            lang: Lang::En,
            ns: "cm".into(),
            fixtures: String::new(),
            selfcheck: "selfcheck/selfcheck-loader.js".into(),
            lesson: None,
            lesson_from: None,
        },
        "",
    );
    w.act(Msg::ImportFormat(
        permlab_widget::model::FormatChoice::from_slug("codex"),
    ));
    w.act(Msg::ImportText(RULES.into()));
    // What the page does (its wasm has no Starlark): the worker reads the file, the page
    // takes its rows.
    let req = Request::Import {
        format: permlab_widget::model::FormatChoice::Is(permlab_core::import::Format::Codex),
        text: RULES.into(),
    };
    match worker::answer(&req) {
        Some(Reply::Import { result }) => {
            assert_eq!(result.as_ref().unwrap().canonical, ["prefix rule #1"]);
            w.act(Msg::ImportReply(result));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.course().source, Source::Import);
    w
}

fn codex(w: &mut Widget, input: &str) -> Decision {
    w.act(Msg::EditTool("bash".into()));
    w.act(Msg::EditInput(input.into()));
    w.eval(EngineId::Codex).unwrap().decision
}

#[test]
fn canonical_matching_survives_the_import_into_the_table() {
    let mut w = imported();
    assert_eq!(codex(&mut w, "git push origin main"), Decision::Deny);
    assert_eq!(
        codex(&mut w, "GIT Push origin main"),
        Decision::Deny,
        "folded like Codex 0.171.0"
    );
    // Nothing but case: a full-width `ＧＩＴ` is another word.
    assert_ne!(codex(&mut w, "ＧＩＴ push"), Decision::Deny);
    // The rule without canonical_matching stays exact.
    assert_eq!(codex(&mut w, "rm -rf /"), Decision::Deny);
    assert_ne!(codex(&mut w, "RM -rf /"), Decision::Deny);
    // The folding follows its row through a reorder.
    w.act(Msg::Reverse);
    assert_eq!(codex(&mut w, "GIT PUSH"), Decision::Deny);
    assert_ne!(codex(&mut w, "RM -rf /"), Decision::Deny);
    // The other engines match the row as written (and the panel says so).
    let s = w.import().summary.clone().unwrap();
    assert!(
        s.warnings
            .iter()
            .any(|m| m.contains("canonical_matching=True")
                && m.contains("its panel keeps that folding")),
        "{:?}",
        s.warnings
    );
}
