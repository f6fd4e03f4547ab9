//! The JavaScript API for course pages, through `serde-wasm-bindgen` (with
//! `Serializer::json_compatible()`, so page scripts get plain objects and arrays):
//!
//! - [`evaluate`]`({engine, rules | config, call, context, lang})` → `{decision, rule, matched,
//!   steps, reason}`: any engine's verdict, computed by `permlab-core`, so an author can check
//!   a lesson's answer in page script;
//! - the events a mounted table widget dispatches on its host element (bubbling
//!   `CustomEvent`s, see [`Event`]): `permlab:guess`, `permlab:reveal`, `permlab:reorder`,
//!   `permlab:complete`.
//!
//! `mount(element, lesson)` (in the crate root) takes a lesson object or its JSON text.

use permlab_core::json::Value;
use permlab_core::lesson::Lesson;
use permlab_core::{Call, EngineId};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::text::i18n::Lang;

/// `evaluate`'s argument.
#[derive(Deserialize)]
struct Input {
    /// An engine slug: `first-match`, `opencode`, `claude-code`, `corecoder`, `codex`.
    engine: String,
    /// A rule table: `[{tool, pattern, action}]` (or use `config`).
    #[serde(default)]
    rules: Option<Vec<RuleIn>>,
    /// A harness's own config: `{format, text}` (`claude-code`, `opencode`; `codex` needs the
    /// worker, which the page does not have).
    #[serde(default)]
    config: Option<ConfigIn>,
    /// The call: `{tool, input}` or `"tool: input"`.
    call: CallIn,
    /// Claude Code's session: `{mode, trusted, interactive, sandboxable}`.
    #[serde(default)]
    context: Option<ContextIn>,
    /// The language of `reason` (`en` by default).
    #[serde(default)]
    lang: Option<String>,
}

#[derive(Deserialize)]
struct RuleIn {
    tool: String,
    pattern: String,
    action: String,
}

#[derive(Deserialize)]
struct ConfigIn {
    format: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CallIn {
    Object { tool: String, input: String },
    Text(String),
}

#[derive(Deserialize)]
struct ContextIn {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    trusted: Option<bool>,
    #[serde(default)]
    interactive: Option<bool>,
    #[serde(default)]
    sandboxable: Option<bool>,
}

/// `evaluate`'s answer. Positions are 1-based, as the widget shows them.
#[derive(Serialize)]
struct Output {
    /// `allow`, `ask`, `deny` or `unavailable`.
    decision: &'static str,
    /// The decisive row, or `null`.
    rule: Option<usize>,
    /// Every row whose tool and pattern match the call.
    matched: Vec<usize>,
    /// The rows the engine examined, in order.
    steps: Vec<StepOut>,
    /// Why, in words (the widget's sentence; for a split call, how it was split and which
    /// part decided).
    reason: String,
    /// The parts the product split the call into (empty: checked as one piece), in the
    /// order it checked them.
    parts: Vec<PartOut>,
    /// The index (0-based, into `parts`) of the part that decided, or `null`.
    decided_by: Option<usize>,
    /// OpenCode, when the call asks: what "Allow always" on its prompt would save.
    always: Vec<String>,
}

/// One part of a split call.
#[derive(Serialize)]
struct PartOut {
    /// `command` or `outside-directory` (OpenCode's `external_directory`).
    kind: &'static str,
    /// The text checked: the command, or the directory pattern.
    text: String,
    /// The part's own verdict.
    decision: &'static str,
    /// The row that decided the part (1-based), or `null`.
    rule: Option<usize>,
}

#[derive(Serialize)]
struct StepOut {
    /// The part this step belongs to (0-based index into `parts`), or `null`.
    part: Option<usize>,
    row: usize,
    /// The group searched (Claude Code: `deny`, `ask`, `allow`), else `null`.
    group: Option<&'static str>,
    tool: bool,
    pattern: Option<bool>,
    stop: bool,
}

fn json_out<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The lesson (lesson format) with one preset and one call that [`evaluate`] reads: the
/// lesson reader checks the input and says where it is wrong.
fn lesson_of(input: &Input) -> Result<String, String> {
    let s = |t: &str| Value::from(t);
    let (tool, text) = match &input.call {
        CallIn::Object { tool, input } => (tool.clone(), input.clone()),
        CallIn::Text(t) => {
            let call = Call::parse(t).map_err(|e| format!("call: {e}"))?;
            (call.tool, call.input)
        }
    };
    let mut preset = vec![("id".to_string(), s("evaluate"))];
    match (&input.rules, &input.config) {
        (Some(rules), None) => preset.push((
            "rules".into(),
            Value::Array(
                rules
                    .iter()
                    .map(|r| {
                        Value::Object(vec![
                            ("tool".into(), s(&r.tool)),
                            ("pattern".into(), s(&r.pattern)),
                            ("action".into(), s(&r.action)),
                        ])
                    })
                    .collect(),
            ),
        )),
        (None, Some(c)) => preset.push((
            "config".into(),
            Value::Object(vec![
                ("format".into(), s(&c.format)),
                ("text".into(), s(&c.text)),
            ]),
        )),
        _ => {
            return Err(
                "give either `rules` ([{tool, pattern, action}]) or `config` ({format, text})"
                    .into(),
            )
        }
    }
    if let Some(c) = &input.context {
        let mut o = Vec::new();
        if let Some(m) = &c.mode {
            o.push(("mode".into(), s(m)));
        }
        for (k, v) in [
            ("trusted", c.trusted),
            ("interactive", c.interactive),
            ("sandboxable", c.sandboxable),
        ] {
            if let Some(v) = v {
                o.push((k.into(), Value::from(v)));
            }
        }
        preset.push(("claude-code".into(), Value::Object(o)));
    }
    preset.push((
        "calls".into(),
        Value::Array(vec![Value::Object(vec![
            ("tool".into(), s(&tool)),
            ("input".into(), s(&text)),
        ])]),
    ));
    Ok(Value::Object(vec![
        ("title".into(), s("evaluate")),
        ("language".into(), s("en")),
        ("mode".into(), s("explore")),
        ("engines".into(), Value::Array(vec![s(&input.engine)])),
        ("presets".into(), Value::Array(vec![Value::Object(preset)])),
    ])
    .to_json())
}

/// What is wrong with `evaluate`'s input, named by its field (serde's message names our
/// Rust types for an untagged enum).
fn input_error(serde: &str) -> String {
    if serde.contains("CallIn") {
        "evaluate: call: write {tool, input} or \"tool: input\"".into()
    } else {
        format!("evaluate: {serde}")
    }
}

/// Any engine's verdict for a call, computed by `permlab-core` (the same engines the widget
/// runs): `evaluate({engine, rules | config, call, context, lang})` →
/// `{decision, rule, matched, steps, reason}`. Throws an `Error` saying what is wrong with the
/// input, and where.
#[wasm_bindgen]
pub fn evaluate(input: JsValue) -> Result<JsValue, JsError> {
    if !input.is_object() {
        return Err(JsError::new(
            "evaluate: expected an object {engine, rules | config, call, context, lang}",
        ));
    }
    let input: Input = serde_wasm_bindgen::from_value(input)
        .map_err(|e| JsError::new(&input_error(&e.to_string())))?;
    let engine = EngineId::from_slug(&input.engine).ok_or_else(|| {
        JsError::new(&format!(
            "evaluate: engine: unknown {:?}; write one of {}",
            input.engine,
            EngineId::ALL.map(|e| e.slug()).join(", ")
        ))
    })?;
    // English unless Chinese is asked for (the documented default, also for `fr`).
    let lang = match input.lang.as_deref() {
        Some(tag) if tag.trim().to_ascii_lowercase().starts_with("zh") => Lang::Zh,
        _ => Lang::En,
    };
    let text = lesson_of(&input).map_err(|e| JsError::new(&format!("evaluate: {e}")))?;
    let loaded = Lesson::parse(&text);
    let errors: Vec<String> = loaded
        .problems
        .iter()
        .filter(|p| p.severity == permlab_core::lesson::Severity::Error)
        .map(|p| p.to_string())
        .collect();
    let preset = match loaded.lesson {
        Some(l) if errors.is_empty() => l.presets.into_iter().next(),
        _ => None,
    }
    .ok_or_else(|| JsError::new(&format!("evaluate: {}", errors.join("; "))))?;
    let call = preset
        .calls
        .first()
        .map(|c| c.call.clone())
        .ok_or_else(|| JsError::new("evaluate: no call"))?;
    let e = preset.engine(engine).evaluate(&call);
    let out = Output {
        decision: e.decision.as_str(),
        rule: e.rule.map(|r| r + 1),
        matched: e.matches.iter().map(|r| r + 1).collect(),
        steps: e
            .steps
            .iter()
            .map(|s| StepOut {
                part: s.part,
                row: s.row + 1,
                group: s.group.map(|g| g.as_str()),
                tool: s.tool_matched,
                pattern: s.pattern_matched,
                stop: s.stop,
            })
            .collect(),
        reason: lang.explain(&preset.table, &e),
        parts: e
            .parts
            .iter()
            .map(|p| PartOut {
                kind: match p.subject {
                    permlab_core::evaluation::Subject::Command(_) => "command",
                    permlab_core::evaluation::Subject::OutsideDirectory(_) => "outside-directory",
                },
                text: p.subject.text().to_string(),
                decision: p.decision.as_str(),
                rule: p.rule.map(|r| r + 1),
            })
            .collect(),
        decided_by: e.decided_by.map(|(k, _)| k),
        always: e.always.clone(),
    };
    json_out(&out)
}

/// Dispatches a `permlab:*` event (see [`crate::model::HostEvent`]) on `host`, bubbling, so a
/// page can listen on `document`.
pub fn dispatch(event: &crate::model::HostEvent, host: &web_sys::EventTarget) {
    let Ok(detail) = json_out(event) else { return };
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    init.set_detail(&detail);
    if let Ok(e) = web_sys::CustomEvent::new_with_event_init_dict(event.name(), &init) {
        let _ = host.dispatch_event(&e);
    }
}

/// How many times the regions of every table widget on the page have read the model so far
/// (each memo run, see `ui::ctx::Ctx::read`): a benchmark's measure of what one action re-runs.
#[wasm_bindgen(js_name = regionReads)]
pub fn region_reads() -> u32 {
    crate::ui::region_reads()
}
