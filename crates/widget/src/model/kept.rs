//! The texts a learner typed, kept as typed: what of them goes into the stored
//! state, how they come back on a reload, and the call fields of a preset the learner left
//! (so switching presets and back finds them as they were, valid or not).

use permlab_core::import::Format;

use super::{import_config_error, Source, Widget};
use crate::persist::store::{self, Field, Note};
use crate::persist::Snapshot;
use crate::presets;

impl Widget {
    /// The call fields and the editor's text, each only when it fits [`store::FIELD_LIMIT`].
    /// The editor's text is not stored twice when it is the applied custom table (a 10 000-rule
    /// table is 600 KB): [`Widget::restore_texts`] puts the custom table back into the editor.
    pub(super) fn kept_texts(&self) -> (Option<String>, Option<String>, Option<String>) {
        let fits = |t: &String| (t.len() <= store::FIELD_LIMIT).then(|| t.clone());
        let applied = self.course.source == Source::Builtin(presets::Preset::Custom)
            && self.editor.text == self.course.custom;
        (
            fits(&self.fields.tool),
            fits(&self.fields.input),
            fits(&self.editor.text).filter(|t| !t.is_empty() && !applied),
        )
    }

    /// The texts that are kept while the page is open but not across a reload: each longer
    /// than [`store::FIELD_LIMIT`] (the widget says so next to its state notes).
    pub fn unkept(&self) -> Vec<Note> {
        let custom = if self.course.source == Source::Builtin(presets::Preset::Custom) {
            self.course.custom.as_str()
        } else {
            ""
        };
        let mut notes = store::too_long(&[
            (Field::Tool, &self.fields.tool),
            (Field::Input, &self.fields.input),
            (Field::Editor, &self.editor.text),
            (Field::Import, &self.import.text),
        ]);
        // The applied table is the editor's text most of the time: one note for one text.
        if custom != self.editor.text {
            notes.extend(store::too_long(&[(Field::Custom, custom)]));
        }
        notes
    }

    /// Puts the typed texts back (after the state they belong to is restored): the call
    /// fields (the engines keep reading the last call they could take), the editor, and the
    /// messages an editor or import text had, read again from the same text.
    pub(super) fn restore_texts(&mut self, snap: &Snapshot, fx: &mut Vec<super::Effect>) {
        if snap.tool_text.is_some() || snap.input_text.is_some() {
            if let Some(t) = &snap.tool_text {
                self.fields.tool = t.clone();
            }
            if let Some(i) = &snap.input_text {
                self.fields.input = i.clone();
            }
            self.fields.started = true;
            self.apply_fields();
        }
        if let Some(e) = &snap.editor {
            self.editor.text = e.clone();
            if snap.editor_error {
                self.editor.error = presets::parse_custom(e).err();
            }
        } else if snap.custom.is_some()
            && self.course.source == Source::Builtin(presets::Preset::Custom)
            && snap.custom.as_ref() == Some(&self.course.custom)
        {
            // The editor held the applied table (stored once, as the table).
            self.editor.text = self.course.custom.clone();
        }
        let codex = self.import.format.resolve(&self.import.text) == Format::Codex;
        // A `.rules` file is read again only where the page has the Starlark interpreter.
        let readable_here = !codex || super::rules_here();
        if snap.import_error && self.import.error.is_none() && readable_here {
            // Worded in the widget's language, as the first time (an empty text is "empty").
            self.import.error = if self.import.text.trim().is_empty() {
                Some(super::ImportError::Empty)
            } else {
                import_config_error(self.import.format, &self.import.text)
                    .err()
                    .map(super::ImportError::Read)
            };
        } else if snap.import_error && self.import.error.is_none() && self.waiting.import.is_none()
        {
            if !self.config.has_worker() {
                self.import.error = Some(super::ImportError::NeedsWorker);
            } else {
                // The `.rules` text goes to the worker again, for its message only.
                let request = crate::protocol::Request::Import {
                    format: super::FormatChoice::Is(Format::Codex),
                    text: self.import.text.clone(),
                };
                self.waiting.import = Some(request.clone());
                fx.push(super::Effect::Ask(request));
                self.import.recheck = true;
            }
        }
    }

    /// Before a new table replaces the current one: the call fields as typed, when they are
    /// not just the preset's first call, become the draft of the preset being left.
    pub(super) fn keep_draft(&mut self, to: Source) {
        if !self.fields.started || to == self.course.source {
            // Starting up, or the same preset read again (a new table: a fresh start).
            return;
        }
        let from = self.slug_of(self.course.source);
        self.fields.drafts.retain(|d| d.0 != from);
        let first = self.course.calls.first();
        let plain =
            first.is_some_and(|c| c.tool == self.fields.tool && c.input == self.fields.input);
        if !plain {
            let draft = (from, self.fields.tool.clone(), self.fields.input.clone());
            self.fields.drafts.push(draft);
        }
    }

    /// After a new table is loaded: the draft of that preset, if the learner left one, goes
    /// back into the call fields (and becomes the call when the engines can take it).
    pub(super) fn take_draft(&mut self) {
        let slug = self.slug_of(self.course.source);
        let Some(k) = self.fields.drafts.iter().position(|d| d.0 == slug) else {
            return;
        };
        let (_, tool, input) = self.fields.drafts.remove(k);
        self.fields.tool = tool;
        self.fields.input = input;
        self.fields.started = true;
        self.apply_fields();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Msg};
    use super::*;
    use crate::presets::Preset;
    use crate::text::i18n::Lang;

    fn config(ns: &str) -> Config {
        Config {
            lang: Lang::Zh,
            ns: ns.into(),
            fixtures: "conformance/".into(),
            selfcheck: "selfcheck-loader.js".into(),
            lesson_from: None,
            lesson: None,
        }
    }

    /// A reload: what the widget stores, read back by a new widget of the same id.
    fn reload(w: &Widget) -> Widget {
        let ns = &w.config.ns;
        let text = store::encode(ns, &w.snapshot().to_stored());
        Widget::with_stored(config(ns), "", Some(&text))
    }

    const HOSTILE: [&str; 9] = [
        "<img src=x onerror=alert(1)>",
        "</textarea><script>alert(1)</script>",
        "javascript:alert(1)",
        "&amp;&lt;",
        "\u{202e}abc",
        "a\u{200b}b",
        "👩\u{200d}💻🚀",
        "one\ntwo\n",
        "bad tool name",
    ];

    #[test]
    fn every_field_comes_back_as_typed_valid_or_not() {
        for ns in ["a3", "a\"b&c#d<e f日"] {
            for text in HOSTILE {
                let mut w = Widget::with_stored(config(ns), "", None);
                let call = w.lab.call().clone();
                w.act(Msg::EditTool(text.into()));
                w.act(Msg::EditInput(text.into()));
                w.act(Msg::Editor(true));
                w.act(Msg::EditTable(text.into()));
                w.act(Msg::Apply);
                w.act(Msg::ImportText(text.into()));
                w.act(Msg::Import);
                let w2 = reload(&w);
                assert_eq!(w2.fields.tool, text, "{ns:?} {text:?}");
                assert_eq!(w2.fields.input, text);
                assert_eq!(w2.editor.text, text);
                assert_eq!(w2.import.text, text);
                // The messages come back with the texts.
                assert_eq!(w2.tool_problem(), w.tool_problem());
                assert!(w2.editor.error.is_some(), "{text:?}");
                assert!(w2.import.error.is_some(), "{text:?}");
                if w.tool_problem().is_some() {
                    assert_eq!(w2.lab.call(), &call, "the engines keep the last valid call");
                }
            }
        }
    }

    #[test]
    fn a_failed_import_and_an_applied_table_survive_a_reload() {
        let mut w = Widget::with_stored(config("a3"), "", None);
        // Over the old 8 000-byte cap.
        let big = format!(
            "{{\"permissions\": {{\"allow\": [{}\"Bash(x)\"",
            "\"Bash(git status)\", ".repeat(600)
        );
        assert!(big.len() > 8_000);
        w.act(Msg::ImportText(big.clone()));
        w.act(Msg::Import);
        assert!(w.import.error.is_some());
        let w2 = reload(&w);
        assert_eq!(w2.import.text, big);
        assert!(w2.import.error.is_some(), "its message too");
        // Apply: the editor shows the applied table after a reload, and the table is applied.
        let table = r#"[{"tool": "bash", "pattern": "ls *", "action": "allow"}]"#;
        let mut w = w2;
        w.act(Msg::Editor(true));
        w.act(Msg::EditTable(table.into()));
        w.act(Msg::Apply);
        let w3 = reload(&w);
        assert_eq!(w3.editor.text, table);
        assert_eq!(w3.course.source, Source::Builtin(Preset::Custom));
        assert_eq!(w3.table().len(), 1);
        assert!(w3.editor.error.is_none());
    }

    /// A failed import's message comes back after a reload in the widget's language, the
    /// same words as the first time; a failed Codex `.rules` import (read by the worker) is
    /// sent to the worker again for its message, and a success then changes nothing.
    #[test]
    fn a_failed_imports_message_comes_back_worded_as_before() {
        let mut w = Widget::with_stored(config("a3"), "", None);
        w.act(Msg::ImportFormat(super::super::FormatChoice::from_slug(
            "claude-code",
        )));
        w.act(Msg::ImportText("{\"permissions\": {\"allow\": [".into()));
        w.act(Msg::Import);
        let first = w.import.error.clone().unwrap();
        let words = Lang::Zh.import_problem(&first);
        assert!(words.starts_with("第 1 行第 28 列:"), "{words}");
        assert_eq!(reload(&w).import.error, Some(first));

        // The page's build hands `.rules` files to the worker; natively the worker's answer is
        // the same code the worker runs.
        super::super::as_page();
        let worker = |r: &crate::protocol::Request| match crate::worker::answer(r) {
            Some(crate::protocol::Reply::Import { result }) => result,
            _ => panic!("no import reply"),
        };
        let rules = "prefix_rule(pattern=[], decision=\"x\")";
        let mut w = Widget::with_stored(config("a3"), "", None);
        w.act(Msg::ImportFormat(super::super::FormatChoice::from_slug(
            "codex",
        )));
        w.act(Msg::ImportText(rules.into()));
        w.act(Msg::Import);
        let sent = w.waiting.import.clone().expect("the worker reads .rules");
        w.act(Msg::ImportReply(worker(&sent)));
        let first = w.import.error.clone().expect("a message");
        let table = w.table().to_json();
        let mut w2 = reload(&w);
        assert_eq!(w2.import.text, rules);
        assert_eq!(w2.import.error, None, "not yet: the worker reads it again");
        assert_eq!(w2.waiting.import.as_ref(), Some(&sent));
        assert!(w2.import.recheck);
        w2.act(Msg::ImportReply(worker(&sent)));
        assert_eq!(w2.import.error, Some(first));
        assert!(!w2.import.recheck && w2.waiting.import.is_none());
        assert_eq!(w2.table().to_json(), table, "nothing applied");
        // A re-read that now succeeds (say the first try had run out of time) applies nothing.
        let mut w3 = reload(&w);
        let good = crate::protocol::Request::Import {
            format: super::super::FormatChoice::Is(Format::Codex),
            text: "prefix_rule(pattern=[\"rm\"], decision=\"forbidden\")".into(),
        };
        w3.act(Msg::ImportReply(worker(&good)));
        assert_eq!(w3.import.error, None);
        assert_eq!(w3.table().to_json(), table, "nothing applied");
        assert_ne!(w3.course.source, Source::Import);
    }

    #[test]
    fn switching_presets_and_back_keeps_the_typed_call() {
        let mut w = Widget::with_stored(config("a3"), "", None);
        w.act(Msg::EditTool("<img src=x onerror=alert(1)>".into()));
        w.act(Msg::EditInput("a\u{200b}b".into()));
        w.act(Msg::Source(Source::Builtin(Preset::Git)));
        assert_eq!(
            w.fields.tool, "bash",
            "the git preset starts with its own call"
        );
        w.act(Msg::Source(Source::Builtin(Preset::Miniagent)));
        assert_eq!(w.fields.tool, "<img src=x onerror=alert(1)>");
        assert_eq!(w.fields.input, "a\u{200b}b");
        assert!(w.tool_problem().is_some(), "with its message");
        // Left again, then reloaded on the other preset: the draft is stored too.
        w.act(Msg::Source(Source::Builtin(Preset::Aws)));
        let mut w2 = reload(&w);
        assert_eq!(w2.course.source, Source::Builtin(Preset::Aws));
        w2.act(Msg::Source(Source::Builtin(Preset::Miniagent)));
        assert_eq!(w2.fields.tool, "<img src=x onerror=alert(1)>");
        // A preset left untouched keeps no draft.
        let mut w = Widget::with_stored(config("a3"), "", None);
        w.act(Msg::Source(Source::Builtin(Preset::Git)));
        assert!(w.fields.drafts.is_empty());
    }

    #[test]
    fn past_the_limit_a_text_is_kept_for_the_session_only() {
        let mut w = Widget::with_stored(config("a3"), "", None);
        let big = "x".repeat(store::FIELD_LIMIT + 1);
        w.act(Msg::ImportText(big.clone()));
        assert_eq!(w.unkept(), [Note::NotKept(Field::Import, big.len())]);
        assert_eq!(w.import.text, big, "kept while the page is open");
        assert_eq!(w.snapshot().import, None, "not stored");
        let w2 = reload(&w);
        assert_eq!(w2.import.text, "");
        assert!(w2.kept.notes.is_empty());
    }

    #[test]
    fn corrupt_or_foreign_storage_gives_a_working_widget_and_a_note() {
        let other = store::encode("b", &[("p", "git".to_string())]);
        for stored in [
            "garbage",
            "permlab-state 1 a3\nt 9\nbash\nend\n",
            "permlab-state 0 a3\nend\n",
            other.as_str(),
            "a3.p=git&a3.t=bash",
        ] {
            let w = Widget::with_stored(config("a3"), "", Some(stored));
            assert_eq!(w.kept.notes.len(), 1, "{stored:?}");
            assert!(matches!(w.kept.notes[0], Note::Ignored(_)));
            assert_eq!(
                w.table().len(),
                10,
                "the lesson's table, not a blank widget"
            );
        }
    }

    #[test]
    fn a_large_table_and_its_order_are_kept() {
        let rules: Vec<String> = (0..10_000)
            .map(|i| {
                format!("{{\"tool\": \"bash\", \"pattern\": \"c{i} *\", \"action\": \"deny\"}}")
            })
            .collect();
        let text = format!("[{}]", rules.join(", "));
        let mut w = Widget::with_stored(config("a3"), "", None);
        w.act(Msg::Editor(true));
        w.act(Msg::EditTable(text.clone()));
        w.act(Msg::Apply);
        w.act(Msg::Reverse);
        let w2 = reload(&w);
        assert_eq!(w2.editor.text, text);
        assert_eq!(w2.table().len(), 10_000);
        assert_eq!(w2.table().rules()[0].id, w.table().rules()[0].id);
    }

    /// Across a reload: a guess revealed on the order a reorder left stays graded against that
    /// order's verdict, and stays revealed.
    #[test]
    fn results_of_an_earlier_order_survive_a_reload() {
        use crate::state::{Earlier, Guess};
        use permlab_core::{Decision, EngineId};
        let mut w = Widget::with_stored(config("a3"), "", None);
        let fm = EngineId::FirstMatch;
        let verdict = w
            .verdicts
            .evals
            .iter()
            .find(|e| e.engine == fm)
            .map(|e| e.decision);
        w.act(Msg::Guess(fm, Guess::Verdict(Decision::Deny)));
        w.act(Msg::Reveal(fm));
        w.act(Msg::Reverse);
        let before = w.lab.earlier(fm).expect("kept after the reorder");
        assert_eq!(Some(before.verdict), verdict);
        assert!(w.lab.is_revealed(fm), "a reorder hides nothing revealed");
        let w2 = reload(&w);
        assert_eq!(w2.lab.earlier(fm), Some(before));
        assert_eq!(w2.lab.earlier(EngineId::OpenCode), None::<Earlier>);
        assert!(w2.lab.is_revealed(fm));
        assert_eq!(w2.lab.order(), w.lab.order());
    }

    /// A reload keeps the reorder log (which engines flipped) and the undo history: Undo
    /// still steps back to the order before.
    #[test]
    fn the_reorder_log_and_undo_survive_a_reload() {
        let mut w = Widget::with_stored(config("a3"), "", None);
        let lesson = w.lab.order();
        w.act(Msg::Reverse);
        let reversed = w.lab.order();
        w.act(Msg::Reverse);
        w.act(Msg::Reverse);
        assert_eq!(w.lab.log().len(), 3);
        let mut w2 = reload(&w);
        assert_eq!(w2.lab.log(), w.lab.log());
        assert_eq!(w2.lab.order(), reversed);
        assert!(w2.lab.can_undo());
        w2.act(Msg::Undo);
        assert_eq!(w2.lab.order(), lesson);
        assert_eq!(w2.lab.log().len(), 4, "the undo is logged too");
        w2.act(Msg::Undo);
        assert_eq!(w2.lab.order(), reversed);
    }
}
