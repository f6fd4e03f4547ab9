//! # Lessons: a course author's JSON, read with every problem reported at once
//!
//! A lesson names a title, a language, a mode, the engines shown, one or more presets (a rule
//! table written out, or a harness's own config to import) with their calls, optional answers
//! the author expects per call and engine, and texts. The format is described by
//! `fixtures/lesson.schema.json`; this module reads it and says, for every problem, where
//! (a JSON path, or line and column for a syntax error) and what to write instead.
//!
//! Here: the lesson's types and how a preset builds each engine. `read` is the reader that
//! collects the problems, [`tasks`] the learner's tasks and their checks, `text` a text in
//! one or both languages; where a problem's path is in the text is [`crate::json::locate`].
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

use std::fmt;

use crate::claude_code::eval::{self, Context};
use crate::claude_code::table::{context_in, evaluation_from_verdict, to_tool_call};
use crate::claude_code::{ClaudeCodeEngine, Mode, Policy};
use crate::context::CallContext;
use crate::engines;
use crate::evaluation::{Decision, Engine, EngineId, Evaluation};
use crate::import::Imported;
use crate::json;
use crate::table::{Call, RuleTable};

mod read;
pub mod tasks;
mod text;

pub use crate::json::locate::{locate, Locator};
pub use read::Limits;
pub use text::Text;

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
                    // Each rule's row, by its origin (one lookup each: a search of the
                    // origins per rule made 20 000 imported rules take seconds).
                    let row_of: std::collections::HashMap<&str, usize> = imp
                        .origins
                        .iter()
                        .enumerate()
                        .rev()
                        .map(|(i, o)| (o.as_str(), i))
                        .collect();
                    let rows = policy
                        .rules
                        .iter()
                        .map(|r| {
                            let at = format!("permissions.{}[{}]", r.group.as_str(), r.index);
                            row_of.get(at.as_str()).copied().unwrap_or(usize::MAX)
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
    /// The lesson's own name for a course's records (`"id"`), if the author gave one: the
    /// host's events carry it, so a gradebook can tell two lessons on one page apart.
    pub id: Option<String>,
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
    /// The learner's tasks, in written order (see [`tasks`]).
    pub tasks: Vec<tasks::Task>,
    /// Where the calls run, unless a preset says otherwise (`"context"`).
    pub context: CallContext,
    /// The share of a quiz's points that passes it (`"passing"`, 0 to 1; default
    /// [`DEFAULT_PASSING`]).
    pub passing: f64,
}

/// A quiz passes with half its points unless the lesson says otherwise (`"passing"`): the
/// default of H5P's question sets, a common gradebook's expectation.
pub const DEFAULT_PASSING: f64 = 0.5;

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
    /// A task check with no condition (only a `preset`, or nothing).
    NoCondition,
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
    /// A number from 0 to 1.
    Fraction,
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
    fn a_lesson_may_name_itself_and_its_passing_share() {
        let named = PLACED.replacen("{", r#"{"id": "a3-2", "passing": 0.8, "#, 1);
        let lesson = Lesson::parse(&named).lesson.unwrap();
        assert_eq!((lesson.id.as_deref(), lesson.passing), (Some("a3-2"), 0.8));
        let plain = Lesson::parse(PLACED).lesson.unwrap();
        assert_eq!((plain.id, plain.passing), (None, DEFAULT_PASSING));
        for bad in ["1.5", "-0.1", "\"80%\""] {
            let text = PLACED.replacen("{", &format!(r#"{{"passing": {bad}, "#), 1);
            let loaded = Lesson::parse(&text);
            assert!(loaded.lesson.is_none(), "{bad}");
            let p = &loaded.problems[0];
            assert_eq!(p.path, "passing");
            assert!(p.message.contains("from 0 to 1"), "{}", p.message);
        }
    }

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

    /// Seed 001's verdict table rests on the settings' mode: in default mode the edit asks.
    /// The sandbox (`enabled` without `autoAllowBashIfSandboxed: true`) auto-allows nothing in
    /// CLI 2.1.332 (recorded), so `node scripts/sync.js` asks whether it can run sandboxed or not.
    #[test]
    fn seed_001_options_matter() {
        let text = include_str!("../../../../fixtures/lessons/claude-code-settings.json");
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
