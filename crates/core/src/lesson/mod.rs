//! # Lessons: a course author's JSON, read with every problem reported at once
//!
//! A lesson names a title, a language, a mode, the engines shown, one or more presets (a rule
//! table written out, or a harness's own config to import) with their calls, optional answers
//! the author expects per call and engine, and texts. The format is described by
//! `fixtures/lesson.schema.json`; this module reads it and says, for every problem, where
//! (a JSON path, or line and column for a syntax error) and what to write instead.
//!
//! ```
//! use permlab_core::lesson::Lesson;
//! use permlab_core::{Decision, EngineId};
//! let loaded = Lesson::parse(r#"{
//!   "title": {"zh": "规则冲突", "en": "Conflicting rules"},
//!   "language": "en", "mode": "quiz",
//!   "engines": ["first-match", "opencode", "claude-code"],
//!   "presets": [{"id": "git", "rules": [
//!       {"tool": "bash", "pattern": "git push *", "action": "deny"},
//!       {"tool": "bash", "pattern": "git *", "action": "allow"}],
//!     "calls": [{"tool": "bash", "input": "git push origin main",
//!                "expect": {"first-match": "deny", "opencode": "allow", "claude-code": "deny"}}]}]
//! }"#);
//! assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
//! let lesson = loaded.lesson.unwrap();
//! let preset = &lesson.presets[0];
//! let call = &preset.calls[0];
//! for (engine, want) in &call.expect {
//!     assert_eq!(preset.evaluate(*engine, &call.call).decision, *want);
//! }
//! let bad = Lesson::parse(r#"{"title": "x", "language": "fr", "mode": "explore", "engines": ["opencod"], "presets": []}"#);
//! let msgs: Vec<String> = bad.problems.iter().map(|p| p.to_string()).collect();
//! assert!(msgs[0].starts_with("error at language (line 1, column 28): "), "{msgs:?}");
//! assert!(msgs.iter().any(|m| m.contains("engines[0]") && m.contains("opencode")));
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::claude_code::eval::{self, Context};
use crate::claude_code::table::{context_in, evaluation_from_verdict, to_tool_call};
use crate::claude_code::{ClaudeCodeEngine, Mode, Policy};
use crate::context::CallContext;
use crate::engines;
use crate::evaluation::{Decision, Engine, EngineId, Evaluation};
use crate::import::{self, Format, Imported};
use crate::json::{self, Value};
use crate::table::{Call, RuleTable};

/// The tools the lesson's common table uses.
pub const COMMON_TOOLS: [&str; 8] = [
    "read_file",
    "list_dir",
    "grep",
    "glob",
    "edit_file",
    "write_file",
    "bash",
    "todo_write",
];

/// OpenCode's permission names (what an imported `opencode.json` table holds).
pub const OPENCODE_TOOLS: [&str; 15] = [
    "read",
    "edit",
    "glob",
    "grep",
    "list",
    "bash",
    "task",
    "external_directory",
    "todowrite",
    "question",
    "webfetch",
    "websearch",
    "lsp",
    "doom_loop",
    "skill",
];

/// Whether some engine knows `tool`: a common tool, a Claude Code tool (MCP tools included) or
/// an OpenCode permission. `*`-patterns (OpenCode rows such as `edit*`) count as known.
///
/// ```
/// use permlab_core::lesson::known_tool;
/// assert!(known_tool("bash") && known_tool("WebFetch") && known_tool("mcp__github__x"));
/// assert!(!known_tool("bsh"));
/// ```
pub fn known_tool(tool: &str) -> bool {
    COMMON_TOOLS.contains(&tool)
        || OPENCODE_TOOLS.contains(&tool)
        || crate::claude_code::rule::known_tool(tool)
        || tool.contains('*')
}

/// A text in one language or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// Chinese.
    pub zh: Option<String>,
    /// English.
    pub en: Option<String>,
}

impl Text {
    /// The text in `lang` (`zh`/`en`), else the other one.
    pub fn get(&self, lang: &str) -> &str {
        let (a, b) = if lang == "en" {
            (&self.en, &self.zh)
        } else {
            (&self.zh, &self.en)
        };
        a.as_deref().or(b.as_deref()).unwrap_or("")
    }
}

/// `explore` (the learner plays) or `quiz` (guess, then reveal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonMode {
    /// The learner explores freely.
    Explore,
    /// Verdicts are hidden until the learner guesses.
    Quiz,
}

/// Claude Code session facts a preset may set (a settings file's `defaultMode` is read from the
/// file; `mode` here overrides it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaudeOptions {
    /// The permission mode; `None`: the settings' `defaultMode`, else `default`.
    pub mode: Option<Mode>,
    /// The workspace trust dialog was accepted (default true): project allow rules apply.
    pub trusted: Option<bool>,
    /// An interactive session (default true); false is `-p`.
    pub interactive: Option<bool>,
    /// Whether the Bash commands can run inside the sandbox (default true; matters only when
    /// the settings enable it).
    pub sandboxable: Option<bool>,
}

/// One call of a preset, with the answers the author expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonCall {
    /// The call.
    pub call: Call,
    /// Author's answers, by engine, in written order.
    pub expect: Vec<(EngineId, Decision)>,
}

/// A rule table (written or imported) and the calls shown with it.
#[derive(Clone, Debug)]
pub struct Preset {
    /// The preset's id (for messages and URLs).
    pub id: String,
    /// Its title, if any.
    pub title: Option<Text>,
    /// The table every engine evaluates.
    pub table: RuleTable,
    /// When the preset is a native config: the import (format, warnings, settings).
    pub imported: Option<Imported>,
    /// Claude Code options.
    pub claude: ClaudeOptions,
    /// The calls.
    pub calls: Vec<LessonCall>,
    /// Where the calls are written: `presets[N].calls`, or `calls` when the preset uses the
    /// lesson's shared calls (for pointing at an answer: `{calls_at}[i].expect.{engine}`).
    pub calls_at: String,
    /// The preset's own texts (`question`, …) by key: shown instead of the lesson's while the
    /// preset is the table shown.
    pub texts: Vec<(String, Text)>,
    /// Where its calls run: the lesson's `"context"`, with the preset's own written over it.
    pub context: CallContext,
}

impl Preset {
    /// The engine `id` for this preset. A native Claude Code config runs natively (its mode,
    /// sandbox and every rule as Claude Code read them); everything else runs on the table
    /// through [`engines::build`].
    pub fn engine(&self, id: EngineId) -> Box<dyn Engine> {
        if id == EngineId::OpenCode {
            return Box::new(
                crate::opencode::OpenCodeEngine::new(&self.table)
                    .in_place(crate::opencode::Place::of(&self.context)),
            );
        }
        if id == EngineId::ClaudeCode {
            let mut ctx = context_in(&self.context);
            if let Some(i) = self.claude.interactive {
                ctx.interactive = i;
            }
            if let Some(s) = self.claude.sandboxable {
                ctx.sandboxable = s;
            }
            if let Some(imp) = &self.imported {
                if let Some(settings) = &imp.claude_settings {
                    let policy = Policy::merge(
                        std::slice::from_ref(settings),
                        self.claude.trusted.unwrap_or(true),
                    );
                    let mode = self.claude.mode.unwrap_or_else(|| policy.session_mode());
                    let rows = policy
                        .rules
                        .iter()
                        .map(|r| {
                            let at = format!("permissions.{}[{}]", r.group.as_str(), r.index);
                            imp.origins
                                .iter()
                                .position(|o| *o == at)
                                .unwrap_or(usize::MAX)
                        })
                        .collect();
                    return Box::new(NativeClaude {
                        policy,
                        mode,
                        ctx,
                        rows,
                    });
                }
            }
            if self.claude != ClaudeOptions::default() || self.context != CallContext::default() {
                return Box::new(ClaudeCodeEngine::with(
                    &self.table,
                    self.claude.mode.unwrap_or(Mode::Default),
                    ctx,
                ));
            }
        }
        if let (EngineId::Codex, Some(imp)) = (id, &self.imported) {
            if !imp.canonical.is_empty() {
                // Rows of `canonical_matching=True` rules keep Codex's case folding.
                let rows: Vec<bool> = (0..self.table.len())
                    .map(|r| {
                        imp.origins
                            .get(r)
                            .is_some_and(|o| imp.canonical.contains(o))
                    })
                    .collect();
                return Box::new(crate::codex::CodexEngine::with_canonical(
                    &self.table,
                    &rows,
                ));
            }
        }
        engines::build(id, &self.table)
    }

    /// For a native Claude Code settings preset: where Claude Code's docs and the recorded
    /// CLI disagree on this `bash` call under exactly these settings' rules, mode and sandbox (a recorded case,
    /// [`crate::claude_code::drift`]), so the lesson can show both answers.
    pub fn claude_drift(
        &self,
        call: &Call,
    ) -> Option<&'static crate::claude_code::drift::DocDrift> {
        use crate::claude_code::drift;
        if call.tool != "bash" {
            return None;
        }
        let settings = self.imported.as_ref()?.claude_settings.as_ref()?;
        let policy = Policy::merge(
            std::slice::from_ref(settings),
            self.claude.trusted.unwrap_or(true),
        );
        let mode = self.claude.mode.unwrap_or_else(|| policy.session_mode());
        drift::for_settings(&policy, mode, &call.input)
    }

    /// One evaluation (builds the engine; for many calls keep [`Preset::engine`]).
    pub fn evaluate(&self, id: EngineId, call: &Call) -> Evaluation {
        self.engine(id).evaluate(call)
    }
}

/// Claude Code over a native settings file: the same procedure as
/// [`ClaudeCodeEngine`], with the file's own mode and sandbox, rows mapped to the import.
struct NativeClaude {
    policy: Policy,
    mode: Mode,
    ctx: Context,
    rows: Vec<usize>,
}

impl Engine for NativeClaude {
    fn id(&self) -> EngineId {
        EngineId::ClaudeCode
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        let v = eval::evaluate(&self.policy, self.mode, &self.ctx, &to_tool_call(call));
        evaluation_from_verdict(&v, self.mode, |r| {
            self.rows.get(r).copied().unwrap_or(usize::MAX)
        })
    }
}

/// A whole lesson.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// Title.
    pub title: Text,
    /// `zh` or `en`.
    pub language: String,
    /// Explore or quiz.
    pub mode: LessonMode,
    /// Engines shown, in order.
    pub engines: Vec<EngineId>,
    /// Presets, in order.
    pub presets: Vec<Preset>,
    /// Texts by key, in written order.
    pub texts: Vec<(String, Text)>,
    /// The learner's tasks, in written order (see [`crate::tasks`]).
    pub tasks: Vec<crate::tasks::Task>,
    /// Where the calls run, unless a preset says otherwise (`"context"`).
    pub context: CallContext,
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The lesson cannot be used.
    Error,
    /// Probably a mistake (an unknown tool, a rule an import skipped).
    Warning,
}

/// One problem in a lesson, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// JSON path (`presets[0].calls[2].expect.opencode`), or `line L, column C` for syntax.
    pub path: String,
    /// What is wrong and what to write instead.
    pub message: String,
    /// Where in the text the path points (when the lesson was read from text and the path
    /// could be found there).
    pub position: Option<json::Position>,
    /// The problem as data, so a page can word it in its own language (`message` is the
    /// CLI's English).
    pub check: Check,
}

/// What a lesson check found, as data ([`Problem::check`]). Kinds not listed yet are
/// [`Check::Other`] (then only the English `message` says what).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Check {
    /// A key the lesson format does not have here.
    UnknownKey {
        /// The key.
        key: String,
        /// The keys allowed here.
        allowed: Vec<String>,
    },
    /// A required value is missing.
    Missing,
    /// `language` is neither `zh` nor `en`.
    UnknownLanguage(String),
    /// `mode` is neither `explore` nor `quiz`.
    UnknownMode(String),
    /// An engine slug no engine has.
    UnknownEngine(String),
    /// An engine listed twice in `engines`.
    DuplicateEngine(String),
    /// An expected answer that is not `allow`, `ask`, `deny` or `unavailable`.
    UnknownAnswer,
    /// A call's tool no engine knows.
    UnknownTool(String),
    /// Two presets with the same id.
    DuplicateId(String),
    /// A preset with both `rules` and `config`.
    RulesAndConfig,
    /// A preset with neither `rules` nor `config`.
    NoRulesOrConfig,
    /// A `config.format` that is not a harness's.
    UnknownFormat(String),
    /// The text is not JSON.
    Syntax(json::SyntaxKind),
    /// A preset's rule table, call or config that its reader could not read: the reader's
    /// error as data (its own path is already part of the problem's path).
    Read(crate::Error),
    /// What the import of a preset's config says about one of its rules (a warning).
    Imported(crate::import::ImportWarning),
    /// A value of the wrong JSON type (`found`: its kind as `Value::kind` says it), or — with
    /// `found` `None` — a value that is not one of those `expected` allows.
    Expected {
        /// What belongs there.
        expected: Expect,
        /// What is there.
        found: Option<&'static str>,
    },
    /// More of something than permlab reads (`what`: `bytes`, `presets`, `calls`, or
    /// `problems` — those past the limit are not shown).
    TooMany {
        /// What.
        what: &'static str,
        /// How many there are.
        n: usize,
        /// The limit.
        limit: usize,
    },
    /// An answer for an engine the lesson does not show (a warning).
    AnswerNotShown(String),
    /// A rule whose tool no engine knows (a warning: it never matches a lesson call).
    RowToolUnknown(String),
    /// A task's `preset` that no preset has.
    UnknownPreset {
        /// The id written.
        id: String,
        /// The presets' ids.
        known: Vec<String>,
    },
    /// A task check with other than one condition (how many).
    OneCondition(usize),
    /// A task checks an engine the lesson does not show.
    EngineNotShown(String),
    /// A task names a rule number no preset has.
    NoSuchRule(u32),
    /// Anything else: see the message.
    Other,
}

/// What belongs at a place of a lesson (see [`Check::Expected`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expect {
    /// A lesson: a JSON object.
    Lesson,
    /// A text: a string or `{"zh", "en"}`.
    Text,
    /// A `{"zh", "en"}` text with at least one of the two.
    TextLanguage,
    /// A string.
    String,
    /// An engine slug.
    EngineSlug,
    /// A non-empty array of engine slugs.
    Engines,
    /// A non-empty array of presets.
    Presets,
    /// A preset object.
    Preset,
    /// An object of key → text.
    Texts,
    /// An array of calls.
    Calls,
    /// A call `{"tool", "input"}` or `"tool: input"`.
    Call,
    /// An object engine → answer.
    Answers,
    /// A config's text: a string (or, for a JSON format, the object).
    ConfigText,
    /// A Claude Code mode.
    Mode,
    /// `true` or `false`.
    Bool,
    /// The preset's calls (or the lesson's top-level `calls`).
    PresetCalls,
    /// An array of tasks.
    Tasks,
    /// A task object.
    Task,
    /// A task's check: an object with one condition.
    TaskCheck,
    /// A preset id.
    PresetId,
    /// A whole number ≥ 1.
    Count,
    /// `"last"` (the stepper walked to its end).
    StepperLast,
    /// Where the calls run: `{"project", "cwd", "home"}`.
    Context,
    /// An absolute path (`/…`).
    AbsolutePath,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match (&self.path, &self.position) {
            (p, _) if p.is_empty() => write!(f, "{s}: {}", self.message),
            (p, Some(pos)) if !p.starts_with("line ") => {
                write!(f, "{s} at {p} ({pos}): {}", self.message)
            }
            (p, _) => write!(f, "{s} at {p}: {}", self.message),
        }
    }
}

/// The result of reading a lesson: the lesson when it has no errors, and every problem.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The lesson, unless some problem is an error.
    pub lesson: Option<Lesson>,
    /// Errors and warnings, in document order.
    pub problems: Vec<Problem>,
}

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
                "title", "language", "mode", "engines", "presets", "calls", "texts", "tasks",
                "context",
            ],
        );
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
            Some(t) => crate::tasks::read(&mut c, t, &engines, &presets),
            None => Vec::new(),
        };
        let ok = !c.problems.iter().any(|p| p.severity == Severity::Error);
        let lesson = match (ok, title, language, mode) {
            (true, Some(title), Some(language), Some(mode)) => Some(Lesson {
                title,
                language,
                mode,
                engines,
                presets,
                texts,
                tasks,
                context,
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

/// One step of a problem's JSON path.
enum Seg {
    Key(String),
    Index(usize),
}

/// `presets[0].calls[2].tool` → steps. Keys holding `.` or `[` cannot be told apart from steps;
/// such a path is located as far as it can be.
fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Seg::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else { break };
            if let Ok(n) = r[..close].parse() {
                out.push(Seg::Index(n));
            }
            rest = &r[close + 1..];
        }
    }
    out
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The index just past the string starting at `i` (a `"`), and its raw content.
fn skip_string(b: &[u8], i: usize) -> (usize, &[u8]) {
    let mut j = i + 1;
    while j < b.len() && b[j] != b'"' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    let end = j.min(b.len());
    (end + 1, &b[(i + 1).min(end)..end])
}

/// The index just past the value starting at `i` (iterative: no recursion on deep input).
fn skip_value(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i).0;
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' | b':' if depth == 0 => return i,
            c if depth == 0 && c.is_ascii_whitespace() => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Where `path` (as in [`Problem::path`]) points in the JSON `text`: the value's first
/// character, or the innermost container found when the last steps are missing.
///
/// For many paths in one text, build a [`Locator`] once: this function indexes the text
/// anew on every call.
///
/// ```
/// let p = permlab_core::lesson::locate("{\"a\": [1,\n  {\"b\": 2}]}", "a[1].b").unwrap();
/// assert_eq!((p.line, p.column), (2, 9));
/// ```
pub fn locate(text: &str, path: &str) -> Option<json::Position> {
    Locator::new(text).locate(path)
}

/// Bytes per block of the character-count index of a [`Locator`].
const CHAR_BLOCK: usize = 1024;

/// Answers [`locate`] for many paths in one text, in time linear in the text overall: each
/// object's keys and each array's elements are listed once, the first time a path goes
/// through it, and line and column come from an index of the line starts (and of the
/// character counts, per block of [`CHAR_BLOCK`] bytes) instead of a count from the top.
/// `permlab check` locates every wrong answer of a lesson with one `Locator`.
///
/// ```
/// use permlab_core::lesson::Locator;
/// let text = "{\"calls\": [\n {\"x\": 1},\n {\"x\": 2}]}";
/// let at = Locator::new(text);
/// assert_eq!(at.locate("calls[1].x").map(|p| (p.line, p.column)), Some((3, 8)));
/// assert_eq!(at.locate("calls[0]").map(|p| (p.line, p.column)), Some((2, 2)));
/// ```
pub struct Locator<'t> {
    text: &'t str,
    /// Byte offsets of the `\n`s.
    newlines: Vec<usize>,
    /// Characters before each block of [`CHAR_BLOCK`] bytes.
    chars_before_block: Vec<usize>,
    /// Per object (by the offset of its `{`): its keys (raw bytes; the first of equal ones)
    /// and where their values start, up to the first malformed entry.
    objects: std::cell::RefCell<HashMap<usize, HashMap<&'t [u8], usize>>>,
    /// Per array (by the offset of its `[`): where its elements start, up to the first
    /// malformed one.
    arrays: std::cell::RefCell<HashMap<usize, Vec<usize>>>,
}

impl<'t> Locator<'t> {
    /// Indexes the lines of `text` (containers are listed lazily, on first use).
    pub fn new(text: &'t str) -> Self {
        let b = text.as_bytes();
        let newlines = b
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .map(|(i, _)| i)
            .collect();
        let mut chars_before_block = Vec::with_capacity(b.len() / CHAR_BLOCK + 1);
        let mut n = 0;
        for block in b.chunks(CHAR_BLOCK) {
            chars_before_block.push(n);
            n += block.iter().filter(|&&c| c & 0xC0 != 0x80).count();
        }
        chars_before_block.push(n);
        Locator {
            text,
            newlines,
            chars_before_block,
            objects: Default::default(),
            arrays: Default::default(),
        }
    }

    /// Characters in `text[..i]` (`i` on a character boundary).
    fn chars_before(&self, i: usize) -> usize {
        let k = i / CHAR_BLOCK;
        let from = k * CHAR_BLOCK;
        self.chars_before_block[k]
            + self.text.as_bytes()[from..i]
                .iter()
                .filter(|&&c| c & 0xC0 != 0x80)
                .count()
    }

    /// Where `path` points (see [`locate`]).
    pub fn locate(&self, path: &str) -> Option<json::Position> {
        if path.is_empty() || path.starts_with("line ") {
            return None;
        }
        let b = self.text.as_bytes();
        let mut i = skip_ws(b, 0);
        for seg in segments(path) {
            match seg {
                Seg::Key(k) => {
                    if b.get(i) != Some(&b'{') {
                        break;
                    }
                    let mut objects = self.objects.borrow_mut();
                    let keys = objects.entry(i).or_insert_with(|| object_keys(b, i));
                    match keys.get(k.as_bytes()) {
                        Some(&value) => i = value,
                        None => break,
                    }
                }
                Seg::Index(n) => {
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let mut arrays = self.arrays.borrow_mut();
                    let elements = arrays.entry(i).or_insert_with(|| array_elements(b, i));
                    match elements.get(n) {
                        Some(&at) => i = at,
                        None => break,
                    }
                }
            }
        }
        let i = i.min(self.text.len());
        if !self.text.is_char_boundary(i) {
            return None;
        }
        let before = self.newlines.partition_point(|&nl| nl < i);
        let line_start = match before {
            0 => 0,
            k => self.newlines[k - 1] + 1,
        };
        Some(json::Position {
            line: before + 1,
            column: self.chars_before(i) - self.chars_before(line_start) + 1,
            offset: i,
        })
    }
}

/// The keys of the object whose `{` is at `container` (raw, the first of equal ones) and where
/// their values start, up to the first entry that is not `"key": value` followed by `,`.
fn object_keys(b: &[u8], container: usize) -> HashMap<&[u8], usize> {
    let mut keys = HashMap::new();
    let mut i = container + 1;
    loop {
        i = skip_ws(b, i);
        if b.get(i) != Some(&b'"') {
            return keys;
        }
        let (after, raw) = skip_string(b, i);
        i = skip_ws(b, after);
        if b.get(i) != Some(&b':') {
            return keys;
        }
        i = skip_ws(b, i + 1);
        keys.entry(raw).or_insert(i);
        i = skip_ws(b, skip_value(b, i));
        if b.get(i) != Some(&b',') {
            return keys;
        }
        i += 1;
    }
}

/// Where the elements of the array whose `[` is at `container` start, up to the first one
/// not followed by `,` (the first "element" of `[]` is its `]`, as [`locate`] always read it).
fn array_elements(b: &[u8], container: usize) -> Vec<usize> {
    let mut i = skip_ws(b, container + 1);
    let mut elements = vec![i];
    loop {
        i = skip_ws(b, skip_value(b, i));
        if b.get(i) != Some(&b',') {
            return elements;
        }
        i = skip_ws(b, i + 1);
        elements.push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_point_at_their_line() {
        let text = "{\n  \"title\": \"t\", \"language\": \"zh\", \"mode\": \"quiz\",\n  \"engines\": [\"opencode\"],\n  \"presets\": [{\"id\": \"a\", \"rules\": [],\n    \"calls\": [\"bash: ls\",\n      {\"tool\": \"bsh\", \"input\": \"x\"}]}]\n}";
        let loaded = Lesson::parse(text);
        let p = &loaded.problems[0];
        assert_eq!(p.path, "presets[0].calls[1].tool");
        let pos = p.position.unwrap();
        assert_eq!((pos.line, pos.column), (6, 16));
        assert!(p
            .to_string()
            .starts_with("error at presets[0].calls[1].tool (line 6, column 16): "));
    }

    /// A lesson where the calls run in `/srv/app` (the lesson's context) or, for preset `b`,
    /// in its `web` directory with home `/home/dev`.
    const PLACED: &str = r#"{"title": "t", "language": "en", "mode": "quiz",
        "engines": ["opencode", "claude-code"], "context": {"project": "/srv/app"},
        "presets": [{"id": "a", "rules": [{"tool": "bash", "pattern": "rm *", "action": "allow"}],
                     "calls": ["bash: rm -rf /home/learner/miniagent/build"]},
                    {"id": "b", "context": {"cwd": "web", "home": "/home/dev"},
                     "rules": [{"tool": "bash", "pattern": "rm *", "action": "allow"}],
                     "calls": ["bash: rm -rf ~/old"]}]}"#;

    #[test]
    fn a_lessons_context_moves_the_project_for_every_engine() {
        let lesson = Lesson::parse(PLACED).lesson.unwrap();
        assert_eq!(lesson.context.project, "/srv/app");
        let a = &lesson.presets[0];
        assert_eq!(a.context.cwd, "/srv/app");
        // miniagent is outside /srv/app: OpenCode asks external_directory before `rm *` allows.
        let call = &a.calls[0].call;
        let e = a.evaluate(EngineId::OpenCode, call);
        assert_eq!(e.decision, Decision::Ask, "{e:?}");
        assert_eq!(
            e.parts[0].subject,
            crate::evaluation::Subject::OutsideDirectory("/home/learner/miniagent/*".into())
        );
        // The default context has it inside: allowed by `rm *` alone.
        let default = crate::engines::build(EngineId::OpenCode, &a.table).evaluate(call);
        assert_eq!(default.decision, Decision::Allow);
        // Preset b: the lesson's project, its own cwd and home (`~/old` is /home/dev/old).
        let b = &lesson.presets[1];
        assert_eq!(
            (
                b.context.project.as_str(),
                b.context.cwd.as_str(),
                b.context.home.as_str()
            ),
            ("/srv/app", "/srv/app/web", "/home/dev")
        );
        let e = b.evaluate(EngineId::OpenCode, &b.calls[0].call);
        assert_eq!(
            e.parts[0].subject,
            crate::evaluation::Subject::OutsideDirectory("/home/dev/*".into())
        );
    }

    #[test]
    fn a_context_that_is_not_absolute_is_an_error_at_its_key() {
        let text = PLACED.replace("\"project\": \"/srv/app\"", "\"project\": \"srv\"");
        let loaded = Lesson::parse(&text);
        assert!(loaded.lesson.is_none());
        let p = &loaded.problems[0];
        assert_eq!(p.path, "context.project");
        assert_eq!(
            p.check,
            Check::Expected {
                expected: Expect::AbsolutePath,
                found: None
            }
        );
        let text = PLACED.replace("\"cwd\": \"web\"", "\"cwd\": 3, \"dir\": \"x\"");
        let paths: Vec<String> = Lesson::parse(&text)
            .problems
            .into_iter()
            .map(|p| p.path)
            .collect();
        assert_eq!(paths, ["presets[1].context.dir", "presets[1].context.cwd"]);
    }

    /// The former [`locate`] (a scan from the top per path), the oracle of [`Locator`].
    fn locate_by_scanning(text: &str, path: &str) -> Option<json::Position> {
        if path.is_empty() || path.starts_with("line ") {
            return None;
        }
        let b = text.as_bytes();
        let mut i = skip_ws(b, 0);
        'steps: for seg in segments(path) {
            match seg {
                Seg::Key(k) => {
                    if b.get(i) != Some(&b'{') {
                        break;
                    }
                    let container = i;
                    i += 1;
                    loop {
                        i = skip_ws(b, i);
                        if b.get(i) != Some(&b'"') {
                            i = container;
                            break 'steps;
                        }
                        let (after, raw) = skip_string(b, i);
                        i = skip_ws(b, after);
                        if b.get(i) != Some(&b':') {
                            i = container;
                            break 'steps;
                        }
                        i = skip_ws(b, i + 1);
                        if raw == k.as_bytes() {
                            continue 'steps;
                        }
                        i = skip_ws(b, skip_value(b, i));
                        if b.get(i) != Some(&b',') {
                            i = container;
                            break 'steps;
                        }
                        i += 1;
                    }
                }
                Seg::Index(n) => {
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let container = i;
                    i = skip_ws(b, i + 1);
                    for _ in 0..n {
                        i = skip_ws(b, skip_value(b, i));
                        if b.get(i) != Some(&b',') {
                            i = container;
                            break 'steps;
                        }
                        i = skip_ws(b, i + 1);
                    }
                }
            }
        }
        let i = i.min(text.len());
        let before = text.get(..i)?;
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        Some(json::Position {
            line,
            column,
            offset: i,
        })
    }

    #[test]
    fn locator_agrees_with_scanning() {
        let texts = [
            "",
            "{",
            "[[[[",
            "{\"a\": [1, {\"b\": \"\\\"\"}]}",
            "\"\\",
            "{\"a\": [1,\n  {\"b\": 2}]}",
            "{\"a\": {\"b\": 1}}",
            "{\"a\": 1, \"a\": 2, \"é\": [\"ü\",\n\"ß\", [], {}]}",
            "{\"x\": [ ], \"y\" 1, \"z\": 2}",
            "{\"p\": [{\"c\": [1, 2,, 3]}, {\"c\": []}]}",
            " \n [ {\"k\":\n\n\"v\"} , 2 ]",
        ];
        let paths = [
            "a",
            "a[0]",
            "a[1]",
            "a[1].b",
            "a[2]",
            "[0]",
            "[1]",
            "[0].k",
            "x.y.z[9]",
            "é[0]",
            "é[1]",
            "é[2]",
            "é[3]",
            "x",
            "x[0]",
            "y",
            "z",
            "p[0].c[2]",
            "p[0].c[3]",
            "p[1].c[0]",
            "line 3",
            "",
        ];
        for text in texts {
            let at = Locator::new(text);
            for path in paths {
                assert_eq!(
                    at.locate(path),
                    locate_by_scanning(text, path),
                    "{text:?} {path}"
                );
            }
        }
        // Every path into the shipped lessons.
        let text = include_str!("../../../fixtures/lessons/claude-code-settings.json");
        let at = Locator::new(text);
        for p in 0..3 {
            for c in 0..12 {
                for tail in ["", ".tool", ".input", ".expect", ".expect.claude-code"] {
                    let path = format!("presets[{p}].calls[{c}]{tail}");
                    assert_eq!(at.locate(&path), locate_by_scanning(text, &path), "{path}");
                }
            }
        }
    }

    #[test]
    fn locate_survives_odd_input() {
        for path in ["a", "a[3].b", "[0]", "x.y.z[9]"] {
            for text in ["", "{", "[[[[", "{\"a\": [1, {\"b\": \"\\\"\"}]}", "\"\\"] {
                let _ = locate(text, path);
            }
        }
        assert_eq!(locate("{\"a\": {\"b\": 1}}", "a.c").unwrap().column, 7);
    }

    /// Seed 001's verdict table rests on the settings' mode: in default mode the edit asks.
    /// The sandbox (`enabled` without `autoAllowBashIfSandboxed: true`) auto-allows nothing in
    /// CLI 2.1.332 (recorded), so `node scripts/sync.js` asks whether it can run sandboxed or not.
    #[test]
    fn seed_001_options_matter() {
        let text = include_str!("../../../fixtures/lessons/claude-code-settings.json");
        let lesson = Lesson::parse(text).lesson.unwrap();
        let mut preset = lesson.presets[0].clone();
        let edit = Call::new("edit_file", "src/auth.ts");
        let node = Call::new("bash", "node scripts/sync.js");
        assert_eq!(
            preset.evaluate(EngineId::ClaudeCode, &edit).decision,
            Decision::Allow
        );
        assert_eq!(
            preset.evaluate(EngineId::ClaudeCode, &node).decision,
            Decision::Ask
        );
        preset.claude.mode = Some(Mode::Default);
        assert_eq!(
            preset.evaluate(EngineId::ClaudeCode, &edit).decision,
            Decision::Ask
        );
        preset.claude.sandboxable = Some(false);
        assert_eq!(
            preset.evaluate(EngineId::ClaudeCode, &node).decision,
            Decision::Ask
        );
    }
}
