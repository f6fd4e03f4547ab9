//! Reading a rule set into the widget: the host's lesson, a pasted config (here, or by the
//! worker for Codex `.rules` files), the calls an imported config comes with.

use std::rc::Rc;

use permlab_core::import::{self, Format};
use permlab_core::lesson::{Lesson, Preset as Native};
use permlab_core::{Call, RuleTable};

use super::format::FormatChoice;
use super::types::CheckResult;
use crate::presets::Preset;
use crate::text::lesson_error::LessonError;

/// The host's lesson, when its text is in the lesson format (an object with `presets`), and
/// why it cannot be used (see [`crate::text::lesson_error::read`]; a bare table is no error).
pub(super) fn read_lesson(
    text: Option<&str>,
    selector: Option<&str>,
) -> (Option<Rc<Lesson>>, Option<LessonError>) {
    match crate::text::lesson_error::read(text, selector) {
        Ok(lesson) => (lesson.map(Rc::new), None),
        Err(e) => (None, Some(e)),
    }
}

/// Whether this build reads Codex `.rules` files itself: the worker's does, the page's does
/// not (it hands them to the worker). Native tests build with the interpreter; they play the
/// page's build with [`as_page`].
pub(crate) fn rules_here() -> bool {
    #[cfg(test)]
    if AS_PAGE.with(std::cell::Cell::get) {
        return false;
    }
    import::RULES_FILES
}

#[cfg(test)]
thread_local! {
    static AS_PAGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes this test thread's widgets behave as the page's build: `.rules` files go to the
/// worker.
#[cfg(test)]
pub(crate) fn as_page() {
    AS_PAGE.with(|c| c.set(true));
}

/// Reads a pasted config as the import panel's `format` says (`auto`: see [`detect`]).
pub fn import_config(format: &str, text: &str) -> Result<import::Imported, String> {
    if text.trim().is_empty() {
        return Err("empty".into());
    }
    import_config_error(FormatChoice::from_slug(format), text).map_err(|e| e.to_string())
}

/// [`import_config`] with the core's error as data (the page words it in its language, see
/// [`Lang::import_error`]).
pub fn import_config_error(
    format: FormatChoice,
    text: &str,
) -> Result<import::Imported, permlab_core::Error> {
    import::import(format.resolve(text), text)
}

/// A call each of the first rows would match (`*` as `x`, `?` as `a`), so an imported config
/// comes with calls about its own rules; then the seed's calls.
pub(super) fn sample_calls(table: &RuleTable) -> Vec<Call> {
    let mut calls: Vec<Call> = Vec::new();
    for r in table.rules() {
        if calls.len() == 8 {
            break;
        }
        if r.tool.contains('*') || r.pattern.trim().is_empty() {
            continue;
        }
        let input = r.pattern.replace('*', "x").replace('?', "a");
        let call = Call::new(r.tool.clone(), input);
        if !calls.contains(&call) {
            calls.push(call);
        }
    }
    for c in Preset::Miniagent.calls() {
        if !calls.contains(&c) {
            calls.push(c);
        }
    }
    calls
}

/// An imported config as a preset whose engines read it natively, with calls about its rules.
pub(super) fn native_of(imported: import::Imported) -> Native {
    let calls = sample_calls(&imported.table)
        .into_iter()
        .map(|call| permlab_core::lesson::LessonCall {
            call,
            expect: Vec::new(),
        })
        .collect();
    Native {
        id: "import".into(),
        title: None,
        table: imported.table.clone(),
        imported: Some(imported),
        claude: Default::default(),
        calls,
        calls_at: String::new(),
        texts: Vec::new(),
        context: Default::default(),
    }
}

/// Whether a lesson's text has a preset whose `config` is a Codex `.rules` file.
pub(super) fn has_codex_config(text: &str) -> bool {
    use permlab_core::json::{self, Value};
    let Ok(v) = json::parse(text) else {
        return false;
    };
    v.get("presets")
        .and_then(Value::as_array)
        .unwrap_or(&[])
        .iter()
        .any(|p| {
            p.get("config")
                .and_then(|c| c.get("format"))
                .and_then(Value::as_str)
                == Some("codex")
        })
}

/// The page's side of a lesson the worker read: a preset whose rows came from a Codex `.rules`
/// file with `canonical_matching=True` rules (rows marked `"canonical": true`) gets an import
/// record naming those rows, so its Codex engine folds case on them as Codex does (the table's
/// patterns cannot say it).
pub(super) fn keep_canonical(mut lesson: Lesson, text: &str) -> Lesson {
    use permlab_core::json::{self, Value};
    let Ok(v) = json::parse(text) else {
        return lesson;
    };
    let presets = v.get("presets").and_then(Value::as_array).unwrap_or(&[]);
    for (preset, p) in lesson.presets.iter_mut().zip(presets) {
        let rows = p.get("rules").and_then(Value::as_array).unwrap_or(&[]);
        let marked: Vec<bool> = rows
            .iter()
            .map(|r| r.get("canonical") == Some(&Value::Bool(true)))
            .collect();
        if preset.imported.is_some() || !marked.contains(&true) {
            continue;
        }
        let origin = |k: usize| format!("prefix rule row {}", k + 1);
        preset.imported = Some(import::Imported {
            format: Format::Codex,
            table: preset.table.clone(),
            origins: (0..rows.len()).map(origin).collect(),
            warnings: Vec::new(),
            rules_in: rows.len(),
            claude_settings: None,
            canonical: (0..rows.len()).filter(|&k| marked[k]).map(origin).collect(),
        });
    }
    lesson
}

/// One self-check result as the panel keeps it.
pub(super) fn check_result(
    name: String,
    result: Result<Vec<crate::protocol::Section>, String>,
) -> CheckResult {
    (
        name,
        result.map(|v| v.into_iter().map(|s| (s.name, s.passed, s.total)).collect()),
    )
}
