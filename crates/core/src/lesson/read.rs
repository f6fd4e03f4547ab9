//! The lesson reader: every problem of a lesson's JSON, collected with its path.

use crate::claude_code::Mode;
use crate::context::CallContext;
use crate::evaluation::{Decision, EngineId};
use crate::import::{self, Format};
use crate::json::{self, Value};
use crate::table::{Call, RuleId, RuleTable};

use super::tasks::{CheckKind, Task, TaskCheck};
use super::{
    known_tool, Check, ClaudeOptions, Expect, Lesson, LessonCall, LessonMode, Loaded, Preset,
    Problem, Severity, Text, COMMON_TOOLS, DEFAULT_PASSING,
};
use crate::json::locate::Locator;

/// The tools the lesson's common table uses.
pub(crate) struct Ctx {
    problems: Vec<Problem>,
    limits: Limits,
}

/// How large a lesson may be ([`Lesson::parse_with_limits`]).
///
/// A lesson is written by hand: the shipped ones are a few KB with a dozen calls. The
/// defaults (4 MiB, 10 000 calls per list, 1 000 presets, 200 problems reported) are far
/// above that and keep a pasted or generated file from freezing the page.
///
/// ```
/// use permlab_core::lesson::{Lesson, Limits};
/// let calls: Vec<String> = (0..3).map(|i| format!("\"bash: echo {i}\"")).collect();
/// let text = format!(r#"{{"title": "t", "engines": ["opencode"], "presets": [{{"id": "p", "rules": [], "calls": [{}]}}]}}"#, calls.join(","));
/// let loaded = Lesson::parse_with_limits(&text, &Limits { calls: 2, ..Limits::default() });
/// assert!(loaded.problems.iter().any(|p| p.message.contains("lesson::Limits::calls")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest lesson text, in bytes.
    pub bytes: usize,
    /// Most calls in one `calls` list (a preset's or the shared one); the rest are not read.
    pub calls: usize,
    /// Most presets; the rest are not read.
    pub presets: usize,
    /// Most problems reported (and located in the text); the rest are counted in one line.
    pub problems: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bytes: 4 << 20,
            calls: 10_000,
            presets: 1_000,
            problems: 200,
        }
    }
}

impl Ctx {
    /// An error: `expected` belongs at `path`, `found` (a JSON kind) is there.
    pub(crate) fn expected(
        &mut self,
        path: &str,
        expected: Expect,
        found: Option<&'static str>,
        message: impl Into<String>,
    ) {
        self.error_as(path, Check::Expected { expected, found }, message);
    }
    pub(crate) fn error_as(&mut self, path: &str, check: Check, message: impl Into<String>) {
        self.problems.push(Problem {
            severity: Severity::Error,
            path: path.to_string(),
            message: message.into(),
            position: None,
            check,
        });
    }
    pub(crate) fn warn_as(&mut self, path: &str, check: Check, message: impl Into<String>) {
        self.problems.push(Problem {
            severity: Severity::Warning,
            path: path.to_string(),
            message: message.into(),
            position: None,
            check,
        });
    }
    pub(crate) fn unknown_keys(&mut self, v: &Value, path: &str, allowed: &[&str]) {
        for (k, _) in v.as_object().unwrap_or_default() {
            if !allowed.contains(&k.as_str()) && (!path.is_empty() || k != "$schema") {
                self.error_as(
                    &join(path, k),
                    Check::UnknownKey {
                        key: k.clone(),
                        allowed: allowed.iter().map(|a| a.to_string()).collect(),
                    },
                    format!(
                        "unknown key \"{k}\": the keys here are {}",
                        allowed.join(", ")
                    ),
                );
            }
        }
    }
    pub(crate) fn text(&mut self, v: Option<&Value>, path: &str, required: bool) -> Option<Text> {
        match v {
            None if required => {
                self.error_as(
                    path,
                    Check::Missing,
                    "missing: write a string or {\"zh\": …, \"en\": …}",
                );
                None
            }
            None => None,
            Some(Value::String(s)) => Some(Text {
                zh: Some(s.clone()),
                en: Some(s.clone()),
            }),
            Some(o @ Value::Object(_)) => {
                self.unknown_keys(o, path, &["zh", "en"]);
                let mut t = Text { zh: None, en: None };
                for (lang, slot) in [("zh", &mut t.zh), ("en", &mut t.en)] {
                    match o.get(lang) {
                        None => {}
                        Some(Value::String(s)) => *slot = Some(s.clone()),
                        Some(other) => self.expected(
                            &join(path, lang),
                            Expect::String,
                            Some(other.kind()),
                            format!("expected a string, found {}", other.kind()),
                        ),
                    }
                }
                if t.zh.is_none() && t.en.is_none() {
                    self.expected(
                        path,
                        Expect::TextLanguage,
                        None,
                        "give at least one of \"zh\" and \"en\"",
                    );
                }
                Some(t)
            }
            Some(other) => {
                self.expected(
                    path,
                    Expect::Text,
                    Some(other.kind()),
                    format!(
                        "expected a string or {{\"zh\": …, \"en\": …}}, found {}",
                        other.kind()
                    ),
                );
                None
            }
        }
    }
    fn string<'v>(&mut self, v: Option<&'v Value>, path: &str, example: &str) -> Option<&'v str> {
        match v {
            Some(Value::String(s)) => Some(s),
            None => {
                self.error_as(
                    path,
                    Check::Missing,
                    format!("missing: write e.g. {example}"),
                );
                None
            }
            Some(other) => {
                self.expected(
                    path,
                    Expect::String,
                    Some(other.kind()),
                    format!(
                        "expected a string, found {}: write e.g. {example}",
                        other.kind()
                    ),
                );
                None
            }
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

const SLUGS: &str = "first-match, opencode, claude-code, corecoder, codex";

impl Lesson {
    /// Reads a lesson's JSON text, collecting every problem (within the default [`Limits`]).
    pub fn parse(text: &str) -> Loaded {
        Self::parse_with_limits(text, &Limits::default())
    }

    /// [`Lesson::parse`] within `limits`.
    pub fn parse_with_limits(text: &str, limits: &Limits) -> Loaded {
        if text.len() > limits.bytes {
            return Loaded {
                lesson: None,
                problems: vec![Problem {
                    severity: Severity::Error,
                    path: String::new(),
                    message: format!(
                        "this lesson is {} bytes, more than permlab's limit of {} bytes (lesson::Limits::bytes): \
                         split it into several lessons, or raise the limit",
                        text.len(),
                        limits.bytes
                    ),
                    position: None,
                    check: Check::TooMany {
                        what: "bytes",
                        n: text.len(),
                        limit: limits.bytes,
                    },
                }],
            };
        }
        match json::parse(text) {
            Ok(v) => {
                let mut loaded = Self::from_value_with_limits(&v, limits);
                let at = Locator::new(text);
                for p in &mut loaded.problems {
                    p.position = at.locate(&p.path);
                }
                loaded
            }
            Err(e) => Loaded {
                lesson: None,
                problems: vec![Problem {
                    severity: Severity::Error,
                    path: e.position.to_string(),
                    message: format!("invalid JSON: {}", e.message),
                    position: Some(e.position),
                    check: Check::Syntax(e.kind.clone()),
                }],
            },
        }
    }

    /// Reads a parsed lesson.
    pub fn from_value(v: &Value) -> Loaded {
        Self::from_value_with_limits(v, &Limits::default())
    }

    /// [`Lesson::from_value`] within `limits`.
    pub fn from_value_with_limits(v: &Value, limits: &Limits) -> Loaded {
        let mut loaded = Self::from_value_inner(v, limits);
        let n = loaded.problems.len();
        if n > limits.problems {
            loaded.problems.truncate(limits.problems);
            loaded.problems.push(Problem {
                severity: Severity::Error,
                path: String::new(),
                message: format!(
                    "{} more problems not shown (lesson::Limits::problems is {}): fix these first",
                    n - limits.problems,
                    limits.problems
                ),
                position: None,
                check: Check::TooMany {
                    what: "problems",
                    n,
                    limit: limits.problems,
                },
            });
        }
        loaded
    }

    fn from_value_inner(v: &Value, limits: &Limits) -> Loaded {
        let mut c = Ctx {
            problems: Vec::new(),
            limits: *limits,
        };
        if v.as_object().is_none() {
            c.expected(
                "",
                Expect::Lesson,
                Some(v.kind()),
                format!("a lesson is a JSON object, found {}", v.kind()),
            );
            return Loaded {
                lesson: None,
                problems: c.problems,
            };
        }
        c.unknown_keys(
            v,
            "",
            &[
                "id", "title", "language", "mode", "engines", "presets", "calls", "texts", "tasks",
                "context", "passing",
            ],
        );
        let id = v
            .get("id")
            .and_then(|id| c.string(Some(id), "id", "\"a3-2\""))
            .map(str::to_string);
        let passing = match v.get("passing") {
            None => DEFAULT_PASSING,
            Some(p) => match p.as_f64().filter(|n| (0.0..=1.0).contains(n)) {
                Some(n) => n,
                None => {
                    c.expected(
                        "passing",
                        Expect::Fraction,
                        Some(p.kind()),
                        format!(
                            "expected the share of points that passes, a number from 0 to 1 (e.g. 0.8), found {}",
                            p.kind()
                        ),
                    );
                    DEFAULT_PASSING
                }
            },
        };
        let context = read_context(&mut c, v.get("context"), "context", &CallContext::default());
        let title = c.text(v.get("title"), "title", true);
        let language = c
            .string(v.get("language"), "language", "\"zh\"")
            .map(str::to_string);
        if let Some(l) = &language {
            if l != "zh" && l != "en" {
                c.error_as(
                    "language",
                    Check::UnknownLanguage(l.clone()),
                    format!("\"{l}\" is not a lesson language: write \"zh\" or \"en\""),
                );
            }
        }
        let mode = match c.string(v.get("mode"), "mode", "\"explore\"") {
            Some("explore") => Some(LessonMode::Explore),
            Some("quiz") => Some(LessonMode::Quiz),
            Some(other) => {
                c.error_as(
                    "mode",
                    Check::UnknownMode(other.to_string()),
                    format!("unknown mode \"{other}\": write \"explore\" or \"quiz\""),
                );
                None
            }
            None => None,
        };
        let mut engines = Vec::new();
        match v.get("engines") {
            Some(Value::Array(items)) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    let at = format!("engines[{i}]");
                    match item.as_str().map(|s| (s, EngineId::from_slug(s))) {
                        Some((_, Some(e))) if engines.contains(&e) => {
                            c.error_as(&at, Check::DuplicateEngine(e.slug().to_string()), format!("\"{e}\" is listed twice"))
                        }
                        Some((_, Some(e))) => engines.push(e),
                        Some((s, None)) => c.error_as(
                            &at,
                            Check::UnknownEngine(s.to_string()),
                            format!("unknown engine \"{s}\": use one of {SLUGS}"),
                        ),
                        None => c.expected(
                            &at,
                            Expect::EngineSlug,
                            Some(item.kind()),
                            format!("expected an engine slug ({SLUGS})"),
                        ),
                    }
                }
            }
            other => c.expected(
                "engines",
                Expect::Engines,
                other.map(Value::kind),
                format!("expected a non-empty array of engine slugs, e.g. [\"first-match\", \"opencode\"] ({SLUGS})"),
            ),
        }
        let shared_calls = v
            .get("calls")
            .map(|calls| read_calls(&mut c, calls, "calls", &engines));
        let mut presets = Vec::new();
        match v.get("presets") {
            Some(Value::Array(items)) if !items.is_empty() => {
                if items.len() > c.limits.presets {
                    let (n, limit) = (items.len(), c.limits.presets);
                    c.error_as(
                        "presets",
                        Check::TooMany {
                            what: "presets",
                            n,
                            limit,
                        },
                        format!(
                            "{n} presets, more than permlab's limit of {limit} (lesson::Limits::presets): \
                             only the first are read; split the lesson, or raise the limit"
                        ),
                    );
                }
                for (i, p) in items.iter().take(c.limits.presets).enumerate() {
                    if let Some(p) = read_preset(
                        &mut c,
                        p,
                        &format!("presets[{i}]"),
                        &engines,
                        &shared_calls,
                        &context,
                    ) {
                        if presets.iter().any(|q: &Preset| q.id == p.id) {
                            c.error_as(&format!("presets[{i}].id"), Check::DuplicateId(p.id.clone()), format!("\"{}\" is used twice: give each preset its own id", p.id));
                        }
                        presets.push(p);
                    }
                }
            }
            other => c.expected(
                "presets",
                Expect::Presets,
                other.map(Value::kind),
                "expected a non-empty array of presets, e.g. [{\"id\": \"main\", \"rules\": […], \"calls\": […]}]",
            ),
        }
        let texts = read_texts(&mut c, v.get("texts"), "texts");
        let tasks = match v.get("tasks") {
            Some(t) => read_tasks(&mut c, t, &engines, &presets),
            None => Vec::new(),
        };
        let ok = !c.problems.iter().any(|p| p.severity == Severity::Error);
        let lesson = match (ok, title, language, mode) {
            (true, Some(title), Some(language), Some(mode)) => Some(Lesson {
                id,
                title,
                language,
                mode,
                engines,
                presets,
                texts,
                tasks,
                context,
                passing,
            }),
            _ => None,
        };
        Loaded {
            lesson,
            problems: c.problems,
        }
    }
}

/// `texts`: an object of key → text (a string or `{"zh", "en"}`).
fn read_texts(c: &mut Ctx, v: Option<&Value>, at: &str) -> Vec<(String, Text)> {
    let mut texts = Vec::new();
    match v {
        None => {}
        Some(Value::Object(entries)) => {
            for (k, t) in entries {
                if let Some(t) = c.text(Some(t), &join(at, k), true) {
                    texts.push((k.clone(), t));
                }
            }
        }
        Some(other) => c.expected(
            at,
            Expect::Texts,
            Some(other.kind()),
            format!("expected an object of key → text, found {}", other.kind()),
        ),
    }
    texts
}

fn read_calls(c: &mut Ctx, v: &Value, path: &str, engines: &[EngineId]) -> Vec<LessonCall> {
    let Some(items) = v.as_array() else {
        c.expected(
            path,
            Expect::Calls,
            None,
            "expected an array of calls, e.g. [{\"tool\": \"bash\", \"input\": \"git status\"}]",
        );
        return Vec::new();
    };
    if items.len() > c.limits.calls {
        let (n, limit) = (items.len(), c.limits.calls);
        c.error_as(
            path,
            Check::TooMany {
                what: "calls",
                n,
                limit,
            },
            format!(
                "{n} calls, more than permlab's limit of {limit} in one list (lesson::Limits::calls): \
                 only the first are read; split the list, or raise the limit"
            ),
        );
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().take(c.limits.calls).enumerate() {
        let at = format!("{path}[{i}]");
        let call = match item {
            Value::String(s) => match Call::parse(s) {
                Ok(call) => call,
                Err(e) => {
                    c.error_as(&at, Check::Read(e.clone()), e.to_string());
                    continue;
                }
            },
            Value::Object(_) => {
                c.unknown_keys(item, &at, &["tool", "input", "expect", "note"]);
                let tool = c.string(item.get("tool"), &join(&at, "tool"), "\"bash\"");
                let input = c.string(item.get("input"), &join(&at, "input"), "\"git status\"");
                match (tool, input) {
                    (Some(t), Some(i)) => Call::new(t, i),
                    _ => continue,
                }
            }
            other => {
                c.expected(
                    &at,
                    Expect::Call,
                    Some(other.kind()),
                    format!(
                        "expected a call {{\"tool\", \"input\"}} or \"tool: input\", found {}",
                        other.kind()
                    ),
                );
                continue;
            }
        };
        if !known_tool(&call.tool) {
            c.error_as(
                &join(&at, "tool"),
                Check::UnknownTool(call.tool.clone()),
                format!(
                    "no engine knows the tool \"{}\": use one of {} (or a Claude Code / OpenCode tool name)",
                    call.tool,
                    COMMON_TOOLS.join(", ")
                ),
            );
        }
        let mut expect = Vec::new();
        match item.get("expect") {
            None => {}
            Some(e @ Value::Object(entries)) => {
                let _ = e;
                for (slug, d) in entries {
                    let p = join(&join(&at, "expect"), slug);
                    let Some(engine) = EngineId::from_slug(slug) else {
                        c.error_as(&p, Check::UnknownEngine(slug.clone()), format!("unknown engine \"{slug}\": use one of {SLUGS}"));
                        continue;
                    };
                    if !engines.contains(&engine) {
                        c.warn_as(&p, Check::AnswerNotShown(slug.to_string()), format!("\"{slug}\" is not in the lesson's \"engines\": this answer is checked but never shown"));
                    }
                    let decision = match d.as_str() {
                        Some("allow") => Decision::Allow,
                        Some("ask") => Decision::Ask,
                        Some("deny") => Decision::Deny,
                        Some("unavailable") => Decision::Unavailable,
                        _ => {
                            c.error_as(&p, Check::UnknownAnswer, "write \"allow\", \"ask\", \"deny\" or \"unavailable\"");
                            continue;
                        }
                    };
                    expect.push((engine, decision));
                }
            }
            Some(other) => c.expected(
                &join(&at, "expect"),
                Expect::Answers,
                Some(other.kind()),
                format!("expected an object engine → answer, e.g. {{\"opencode\": \"allow\"}}, found {}", other.kind()),
            ),
        }
        out.push(LessonCall { call, expect });
    }
    out
}

fn read_preset(
    c: &mut Ctx,
    v: &Value,
    at: &str,
    engines: &[EngineId],
    shared: &Option<Vec<LessonCall>>,
    context: &CallContext,
) -> Option<Preset> {
    if v.as_object().is_none() {
        c.expected(
            at,
            Expect::Preset,
            Some(v.kind()),
            format!("expected a preset object, found {}", v.kind()),
        );
        return None;
    }
    c.unknown_keys(
        v,
        at,
        &[
            "id",
            "title",
            "rules",
            "config",
            "calls",
            "claude-code",
            "context",
            "note",
            "texts",
        ],
    );
    let id = c
        .string(v.get("id"), &join(at, "id"), "\"main\"")?
        .to_string();
    let title = c.text(v.get("title"), &join(at, "title"), false);
    let texts = read_texts(c, v.get("texts"), &join(at, "texts"));
    let mut imported = None;
    let table = match (v.get("rules"), v.get("config")) {
        (Some(_), Some(_)) => {
            c.error_as(
                at,
                Check::RulesAndConfig,
                "give either \"rules\" or \"config\", not both",
            );
            return None;
        }
        (None, None) => {
            c.error_as(at, Check::NoRulesOrConfig, "missing \"rules\" (a table [{\"tool\", \"pattern\", \"action\"}]) or \"config\" ({\"format\", \"text\"})");
            return None;
        }
        (Some(rules), None) => match RuleTable::from_value(rules) {
            Ok(t) => t,
            Err(e) => {
                let (path, msg) = match e.kind() {
                    crate::ErrorKind::Shape { path, message, .. } => {
                        (format!("{}{}", join(at, "rules"), path), message.clone())
                    }
                    _ => (join(at, "rules"), e.to_string()),
                };
                c.error_as(&path, Check::Read(e), msg);
                return None;
            }
        },
        (None, Some(config)) => {
            let cat = join(at, "config");
            c.unknown_keys(config, &cat, &["format", "text"]);
            let format = match c.string(
                config.get("format"),
                &join(&cat, "format"),
                "\"claude-code\"",
            ) {
                Some(f) => match Format::from_slug(f) {
                    Some(f) => f,
                    None => {
                        c.error_as(&join(&cat, "format"), Check::UnknownFormat(f.to_string()), format!("unknown format \"{f}\": write \"claude-code\", \"opencode\" or \"codex\""));
                        return None;
                    }
                },
                None => return None,
            };
            let result = match config.get("text") {
                Some(Value::String(s)) => import::import(format, s),
                Some(o @ Value::Object(_)) => import::import_value(format, o),
                _ => {
                    c.expected(&join(&cat, "text"), Expect::ConfigText, None, "give the file's text as a string (or, for a JSON format, the object itself)");
                    return None;
                }
            };
            match result {
                Ok(i) => {
                    for w in &i.warnings {
                        c.warn_as(
                            &join(&cat, "text"),
                            Check::Imported(w.clone()),
                            w.to_string(),
                        );
                    }
                    let t = i.table.clone();
                    imported = Some(i);
                    t
                }
                Err(e) => {
                    let message = format!("the {} config cannot be imported: {e}", format.slug());
                    c.error_as(&join(&cat, "text"), Check::Read(e), message);
                    return None;
                }
            }
        }
    };
    for (i, r) in table.rules().iter().enumerate() {
        if !known_tool(&r.tool) {
            c.warn_as(
                &format!("{}[{i}].tool", join(at, "rules")),
                Check::RowToolUnknown(r.tool.clone()),
                format!(
                    "no engine knows the tool \"{}\": the row never matches a lesson call",
                    r.tool
                ),
            );
        }
    }
    let mut claude = ClaudeOptions::default();
    if let Some(o) = v.get("claude-code") {
        let oat = join(at, "claude-code");
        c.unknown_keys(o, &oat, &["mode", "trusted", "interactive", "sandboxable"]);
        if let Some(m) = o.get("mode") {
            match m.as_str().and_then(Mode::parse) {
                Some(m) => claude.mode = Some(m),
                None => c.expected(
                    &join(&oat, "mode"),
                    Expect::Mode,
                    None,
                    "write default, acceptEdits, plan, auto, dontAsk or bypassPermissions",
                ),
            }
        }
        for (key, slot) in [
            ("trusted", &mut claude.trusted),
            ("interactive", &mut claude.interactive),
            ("sandboxable", &mut claude.sandboxable),
        ] {
            match o.get(key) {
                None => {}
                Some(Value::Bool(b)) => *slot = Some(*b),
                Some(o) => c.expected(
                    &join(&oat, key),
                    Expect::Bool,
                    Some(o.kind()),
                    "write true or false",
                ),
            }
        }
    }
    let mut calls_at = join(at, "calls");
    let calls = match v.get("calls") {
        Some(calls) => read_calls(c, calls, &join(at, "calls"), engines),
        None => match shared {
            Some(s) => {
                calls_at = "calls".into();
                s.clone()
            }
            None => {
                c.expected(
                    &join(at, "calls"),
                    Expect::PresetCalls,
                    None,
                    "missing: give the preset its calls (or the lesson a top-level \"calls\")",
                );
                Vec::new()
            }
        },
    };
    let context = read_context(c, v.get("context"), &join(at, "context"), context);
    Some(Preset {
        id,
        title,
        table,
        imported,
        claude,
        calls,
        calls_at,
        texts,
        context,
    })
}

/// `"context": {"project", "cwd", "home"}` written over `base` (an error keeps `base`).
fn read_context(c: &mut Ctx, v: Option<&Value>, at: &str, base: &CallContext) -> CallContext {
    let Some(v) = v else {
        return base.clone();
    };
    if v.as_object().is_none() {
        c.expected(
            at,
            Expect::Context,
            Some(v.kind()),
            "expected {\"project\": \"/home/learner/miniagent\", \"cwd\": \"src\", \"home\": \"/home/learner\"} (each optional)",
        );
        return base.clone();
    }
    c.unknown_keys(v, at, &["project", "cwd", "home"]);
    let mut field = |key: &str| match v.get(key) {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(other) => {
            c.expected(
                &join(at, key),
                Expect::String,
                Some(other.kind()),
                format!("expected a path, found {}", other.kind()),
            );
            None
        }
    };
    let (project, cwd, home) = (field("project"), field("cwd"), field("home"));
    match base.with(project, cwd, home) {
        Ok(ctx) => ctx,
        Err(key) => {
            c.expected(
                &join(at, key),
                Expect::AbsolutePath,
                None,
                "expected an absolute path (starting with /)",
            );
            base.clone()
        }
    }
}

const KINDS: &str = "\"revealed\": [engines], \"stepped\": \"last\", \"last\": N (a rule's number), \"reversed\": N";

/// Reads `tasks` (an array) and reports every problem with its path: unknown keys, an engine
/// the lesson does not show, a preset that does not exist, a rule number no preset has.
fn read_tasks(c: &mut Ctx, v: &Value, engines: &[EngineId], presets: &[Preset]) -> Vec<Task> {
    let Some(items) = v.as_array() else {
        c.expected(
            "tasks",
            Expect::Tasks,
            Some(v.kind()),
            format!(
                "expected an array of tasks, e.g. [{{\"text\": {{\"zh\": …, \"en\": …}}, \"check\": {{\"revealed\": [\"opencode\"]}}}}], found {}",
                v.kind()
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, t) in items.iter().enumerate() {
        let at = format!("tasks[{i}]");
        if t.as_object().is_none() {
            c.expected(
                &at,
                Expect::Task,
                Some(t.kind()),
                format!("expected a task object, found {}", t.kind()),
            );
            continue;
        }
        c.unknown_keys(t, &at, &["text", "check"]);
        let text = c.text(t.get("text"), &format!("{at}.text"), true);
        let check = read_check(c, t.get("check"), &format!("{at}.check"), engines, presets);
        if let (Some(text), Some(check)) = (text, check) {
            out.push(Task { text, check });
        }
    }
    out
}

fn read_check(
    c: &mut Ctx,
    v: Option<&Value>,
    at: &str,
    engines: &[EngineId],
    presets: &[Preset],
) -> Option<TaskCheck> {
    let Some(v) = v.filter(|v| v.as_object().is_some()) else {
        c.expected(
            at,
            Expect::TaskCheck,
            None,
            format!(
                "missing or not an object: write one or more of {{{KINDS}}}, with an optional \"preset\""
            ),
        );
        return None;
    };
    c.unknown_keys(
        v,
        at,
        &["preset", "revealed", "stepped", "last", "reversed"],
    );
    let preset = match v.get("preset") {
        None => None,
        Some(Value::String(p)) if presets.iter().any(|q| &q.id == p) => Some(p.clone()),
        Some(Value::String(p)) => {
            let ids: Vec<&str> = presets.iter().map(|q| q.id.as_str()).collect();
            c.error_as(
                &format!("{at}.preset"),
                Check::UnknownPreset {
                    id: p.clone(),
                    known: ids.iter().map(|i| i.to_string()).collect(),
                },
                format!(
                    "no preset has the id \"{p}\": use one of {}",
                    ids.join(", ")
                ),
            );
            return None;
        }
        Some(other) => {
            c.expected(
                &format!("{at}.preset"),
                Expect::PresetId,
                Some(other.kind()),
                format!("expected a preset id, found {}", other.kind()),
            );
            return None;
        }
    };
    let kinds: Vec<&str> = ["revealed", "stepped", "last", "reversed"]
        .into_iter()
        .filter(|k| v.get(k).is_some())
        .collect();
    if kinds.is_empty() {
        c.error_as(
            at,
            Check::NoCondition,
            format!("give at least one condition: {KINDS}"),
        );
        return None;
    }
    // Every condition is read (each says where it is wrong); the task counts when all hold.
    let all: Vec<Option<CheckKind>> = kinds
        .into_iter()
        .map(|key| read_condition(c, v, at, key, engines, presets, preset.as_deref()))
        .collect();
    let all = all.into_iter().collect::<Option<Vec<_>>>()?;
    Some(TaskCheck { preset, all })
}

/// One condition of a task's check (`key` is present in `v`).
fn read_condition(
    c: &mut Ctx,
    v: &Value,
    at: &str,
    key: &str,
    engines: &[EngineId],
    presets: &[Preset],
    preset: Option<&str>,
) -> Option<CheckKind> {
    let path = format!("{at}.{key}");
    let val = v.get(key)?;
    let count = |c: &mut Ctx, what: &str| -> Option<u32> {
        match val.as_f64() {
            Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Some(n as u32),
            _ => {
                c.expected(
                    &path,
                    Expect::Count,
                    Some(val.kind()),
                    format!("expected {what} (a whole number ≥ 1), found {}", val.kind()),
                );
                None
            }
        }
    };
    let kind = match key {
        "revealed" => {
            let Some(items) = val.as_array().filter(|a| !a.is_empty()) else {
                c.expected(
                    &path,
                    Expect::Engines,
                    None,
                    "expected a non-empty array of engine slugs, e.g. [\"opencode\"]",
                );
                return None;
            };
            let mut es = Vec::new();
            for (j, item) in items.iter().enumerate() {
                match item.as_str().and_then(EngineId::from_slug) {
                    Some(e) if engines.contains(&e) => es.push(e),
                    Some(e) => c.error_as(
                        &format!("{path}[{j}]"),
                        Check::EngineNotShown(e.slug().to_string()),
                        format!("the lesson does not show \"{e}\": add it to \"engines\" or check another engine"),
                    ),
                    None => c.expected(&format!("{path}[{j}]"), Expect::EngineSlug, None, "expected an engine slug the lesson shows"),
                }
            }
            (es.len() == items.len()).then_some(CheckKind::Revealed(es))?
        }
        "stepped" => {
            if val.as_str() != Some("last") {
                c.expected(
                    &path,
                    Expect::StepperLast,
                    None,
                    "write \"last\": the stepper walked to its last step",
                );
                return None;
            }
            CheckKind::SteppedToEnd
        }
        "last" => {
            let n = count(c, "a rule's number")?;
            let has = |p: &Preset| p.table.rules().iter().any(|r| r.id == RuleId(n));
            let ok = match preset {
                Some(id) => presets.iter().filter(|p| p.id == id).all(has),
                None => presets.iter().any(has),
            };
            if !ok {
                c.error_as(
                    &path,
                    Check::NoSuchRule(n),
                    format!(
                        "no rule #{n} in the preset{}: rules are numbered from 1 in written order",
                        preset
                            .map(|p| format!(" \"{p}\""))
                            .unwrap_or_else(|| "s".into())
                    ),
                );
                return None;
            }
            CheckKind::Last(RuleId(n))
        }
        _ => CheckKind::Reversed(count(c, "how many reversals")? as usize),
    };
    Some(kind)
}
