//! One widget instance as plain Rust: what the learner sees ([`Widget`]) and what each of their
//! actions does to it ([`Widget::act`]). No DOM here: [`crate::ui`]'s components turn clicks
//! and keys into [`Msg`]s and show the widget region by region, so everything between is tested
//! natively. Every verdict comes from [`compute`] (the core's engines).

use std::rc::Rc;

use permlab_core::import::{self, Format};
use permlab_core::lesson::{Lesson, LessonMode, Preset as Native};
use permlab_core::{Call, Decision, EngineId, Evaluation, RuleId, RuleTable};

use crate::compute;
use crate::i18n::{Lang, S};
use crate::lesson_error::LessonError;
use crate::persist::Snapshot;
use crate::presets::{self, Preset};
use crate::protocol::{ImportedRows, LintFinding, Request, WorkerError};
use crate::state::{Guess, Lab};

/// How one widget instance is configured by its host element.
#[derive(Clone, Debug)]
pub struct Config {
    /// Page language.
    pub lang: Lang,
    /// URL-hash namespace (the host element's id).
    pub ns: String,
    /// Where the conformance fixtures are served (a URL prefix).
    pub fixtures: String,
    /// URL of the self-check worker's loader (a separate wasm, fetched on demand).
    pub selfcheck: String,
    /// A lesson table given by the host page (fixtures format), shown as the custom preset.
    pub lesson: Option<String>,
    /// The host's `data-lesson` selector, when it has one (so a selector that finds nothing is
    /// reported, not ignored).
    pub lesson_from: Option<String>,
}

/// A keyboard lift (Space on a grip): the row at `from` is carried to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lift {
    /// The lifted rule.
    pub id: RuleId,
    /// Where it was lifted (0-based).
    pub from: usize,
    /// Where it would land (0-based).
    pub to: usize,
}

/// A pointer drag on a grip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The dragged rule.
    pub id: RuleId,
    /// Where it started (0-based).
    pub from: usize,
    /// Where it would land (0-based).
    pub to: usize,
    /// The pointer that drags.
    pub pointer: i32,
    /// Where the pointer went down (viewport y).
    pub y0: f64,
    /// A touch becomes a drag only after a hold; before that a move is a scroll.
    pub active: bool,
    /// Whether it moved far enough to be a drag rather than a click.
    pub moved: bool,
}

/// Where the table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A built-in rule set, or the table pasted into the editor ([`Preset::Custom`]).
    Builtin(Preset),
    /// The host lesson's preset at this index.
    Lesson(usize),
    /// A harness's config pasted into the import panel.
    Import,
}

/// What the import panel read from a pasted config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportSummary {
    /// Whose config it was.
    pub format: Format,
    /// Rules that became rows.
    pub imported: usize,
    /// Rules that could not (listed in `warnings` with the reason).
    pub dropped: usize,
    /// Every warning, as the core words it.
    pub warnings: Vec<String>,
}

/// One engine's self-check result: sections (name, passed, total) or why it could not run.
pub type CheckResult = (String, Result<Vec<(String, usize, usize)>, String>);

/// What a learner did, as the widget understands it.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A rule-set button.
    Source(Source),
    /// One of the lesson's calls, by index (the select or a matrix row).
    PickCall(usize),
    /// The tool field was edited.
    EditTool(String),
    /// The input field was edited.
    EditInput(String),
    /// Undo the last reorder.
    Undo,
    /// Back to the lesson's order.
    Reset,
    /// 整表倒序.
    Reverse,
    /// Show or hide Codex.
    Codex(bool),
    /// Move a rule one step with the visible ↑/↓ buttons (`true` = down).
    Step(RuleId, bool),
    /// A key on a grip: `(rule, key, alt)` (the view reads the DOM's key names).
    GripKey(RuleId, GripKey, bool),
    /// Drag the rule (from a committed pointer drag) from one position to another.
    Drop(usize, usize),
    /// Open or close the stepper.
    ToggleStepper,
    /// Go to stepper position k (clamped).
    GoStep(usize),
    /// First / previous / next / last (-2, -1, +1, +2).
    StepBy(i8),
    /// A guess for an engine.
    Guess(EngineId, Guess),
    /// Reveal an engine's verdict.
    Reveal(EngineId),
    /// Clear guesses and reveals.
    TryAgain,
    /// Open (or close) the explanation of a formula term.
    Term(usize),
    /// The translations panel opened or closed.
    Translations(bool),
    /// The quiz's folded matrix opened or closed.
    Matrix(bool),
    /// The table editor opened or closed.
    Editor(bool),
    /// The table editor's text changed.
    EditTable(String),
    /// Apply the table editor's text.
    Apply,
    /// The import panel's format choice.
    ImportFormat(FormatChoice),
    /// The import panel's text changed.
    ImportText(String),
    /// Import the pasted config.
    Import,
    /// The worker's answer to a `.rules` import (see [`crate::protocol::answer`]).
    ImportReply(Result<ImportedRows, WorkerError>),
    /// The worker's answer for a lesson with Codex `.rules` configs: the lesson with rows.
    LessonReply(Result<String, WorkerError>),
    /// The page stopped the worker after `seconds` without an answer (an import's when
    /// `import`, else the lesson's).
    WorkerTimeout {
        /// Which request.
        import: bool,
        /// The time budget it went over.
        seconds: u32,
    },
    /// The worker's lint findings for the imported config (see [`crate::protocol::lint`]).
    LintReply(Result<Vec<LintFinding>, WorkerError>),
    /// Load lint finding `i`'s demonstrating call into the call fields and open the stepper
    /// on it.
    FindingCall(usize),
}

/// Which stepper move [`Msg::StepBy`] means.
const FIRST: i8 = -2;
const LAST: i8 = 2;

/// One widget instance.
pub struct Widget {
    /// How the host configured it.
    pub config: Config,
    /// Its language.
    pub lang: Lang,
    /// Order, call, guesses, stepper, log.
    pub lab: Lab,
    /// Where the table comes from.
    pub source: Source,
    /// The host's lesson (`data-lesson` in the lesson format), if any.
    pub lesson: Option<Rc<Lesson>>,
    /// Why the host's lesson could not be used (shown above the widget, in its language).
    pub lesson_error: Option<LessonError>,
    /// The current preset as the core's lesson preset, when it carries more than a table (a
    /// lesson preset, an imported config): its engines read the harness's own config.
    pub native: Option<Rc<Native>>,
    /// The lesson's calls (the matrix rows).
    pub calls: Vec<Call>,
    /// The custom table's text (fixtures format).
    pub custom: String,
    /// Codex shown.
    pub codex: bool,
    /// The stepper is open.
    pub stepping: bool,
    /// Every engine's evaluation of the current call (engine order of [`EngineId::ALL`]).
    pub evals: Vec<Evaluation>,
    /// `calls` × every engine.
    pub matrix: Vec<Vec<Decision>>,
    /// The matrix before the last reorder (its changed cells are marked).
    pub prev_matrix: Option<Vec<Vec<Decision>>>,
    /// A keyboard lift in progress.
    pub lift: Option<Lift>,
    /// A pointer drag in progress.
    pub drag: Option<Drag>,
    /// The live region's text.
    pub announce: String,
    /// Result of "copy as JSON": `Err(text)` shows the text to copy by hand.
    pub copied: Option<Result<(), String>>,
    /// The formula term whose explanation is open.
    pub term: Option<usize>,
    /// The translations panel is open (computed only then).
    pub translations: bool,
    /// The lab matrix is unfolded (a quiz folds it).
    pub matrix_open: bool,
    /// The call fields' text as typed (the call itself changes only when valid).
    pub tool_text: String,
    /// See `tool_text`.
    pub input_text: String,
    /// The fields have been set once (from the first table's call, a restore or a draft):
    /// until then, loading a table keeps no draft of the call fields.
    started: bool,
    /// The table editor's text.
    pub editor_text: String,
    /// Why the editor's text was not applied.
    pub editor_error: Option<permlab_core::Error>,
    /// The import panel's text.
    pub import_text: String,
    /// The format chosen in the import panel.
    pub import_format: FormatChoice,
    /// Why the pasted config could not be read.
    pub import_error: Option<ImportError>,
    /// What the last import read.
    pub import_summary: Option<ImportSummary>,
    /// A Codex `.rules` file waits for the worker (which has the Starlark interpreter): the
    /// request `dom` sends it.
    pub worker_import: Option<Request>,
    /// The pending [`Widget::worker_import`] only re-reads a failed import's text after a
    /// reload, for its message: a success then changes nothing (the learner never applied it).
    pub import_recheck: bool,
    /// A lesson with a Codex `.rules` config waits for the worker to read it (the request).
    pub worker_lesson: Option<Request>,
    /// The imported config waits for the worker's linter (the request; the page's wasm has
    /// no linter, see [`crate::ui::findings`]).
    pub worker_lint: Option<Request>,
    /// The imported config's lint findings, or why there are none to show.
    pub findings: Option<Result<Vec<LintFinding>, String>>,
    /// The URL hash's state, kept until the worker's table arrives.
    pending: Option<Snapshot>,
    /// Self-check results so far.
    pub checks: Vec<CheckResult>,
    /// The self-check is running.
    pub checking: bool,
    /// Bumped when a new table is loaded (not when it is reordered): a reorder of the same
    /// rows can be patched into the page row by row.
    pub load_rev: u32,
    /// The row control to focus after the next render.
    pub focus: Option<Focus>,
    /// A reorder's verdicts were measured (`pl-reorder`); the page measures the next frame.
    pub reorder_marked: bool,
    /// What the learner should know about the state restored at the start (an ignored stored
    /// item, a link too long to read): see [`crate::store`].
    pub state_notes: Vec<crate::store::Note>,
    /// The state came from an old-format URL hash (the first write removes those entries).
    pub from_hash: bool,
    /// The call fields as typed in presets the learner left: (slug, tool, input).
    pub drafts: Vec<(String, String, String)>,
}

impl Widget {
    /// A widget as `config` and the URL hash `hash` say.
    pub fn new(config: Config, hash: &str) -> Widget {
        Widget::with_stored(config, hash, None)
    }

    /// A widget as `config` says, where the learner was: the widget's stored item `stored`
    /// (see [`crate::store`]) when it is usable, else an old-format link's hash.
    pub fn with_stored(config: Config, hash: &str, stored: Option<&str>) -> Widget {
        let start = crate::store::start(&config.ns, hash, stored);
        let snap = start.snap;
        // A Codex `.rules` config in the lesson is read by the worker (the page has no Starlark);
        // the built-in rule sets show meanwhile.
        let worker_lesson = config
            .lesson
            .as_deref()
            .filter(|t| !rules_here() && has_codex_config(t))
            .map(|t| Request::Lesson {
                text: t.to_string(),
            });
        let (lesson, lesson_error) = match worker_lesson {
            Some(_) => (None, None),
            None => read_lesson(config.lesson.as_deref(), config.lesson_from.as_deref()),
        };
        let custom = snap
            .custom
            .clone()
            .or_else(|| {
                config
                    .lesson
                    .clone()
                    .filter(|_| lesson.is_none() && lesson_error.is_none())
            })
            .unwrap_or_else(|| Preset::Miniagent.table().to_json());
        let (import_format, import_text) = snap
            .import
            .clone()
            .map(|(f, t)| (FormatChoice::from_slug(&f), t))
            .unwrap_or((FormatChoice::Auto, String::new()));
        let mut w = Widget {
            lang: config.lang,
            config,
            lab: Lab::new(RuleTable::default(), Call::new("bash", "ls")),
            source: Source::Builtin(Preset::Miniagent),
            lesson,
            lesson_error,
            native: None,
            calls: Vec::new(),
            custom,
            codex: snap.codex,
            stepping: snap.stepping,
            evals: Vec::new(),
            matrix: Vec::new(),
            prev_matrix: None,
            lift: None,
            drag: None,
            announce: String::new(),
            copied: None,
            term: None,
            translations: false,
            matrix_open: false,
            tool_text: String::new(),
            input_text: String::new(),
            started: false,
            editor_text: String::new(),
            editor_error: None,
            import_text,
            import_format,
            import_error: None,
            import_summary: None,
            worker_import: None,
            import_recheck: false,
            worker_lesson,
            worker_lint: None,
            findings: None,
            pending: None,
            checks: Vec::new(),
            checking: false,
            load_rev: 0,
            focus: None,
            reorder_marked: false,
            state_notes: start.notes,
            from_hash: start.from_hash,
            drafts: snap.drafts.clone(),
        };
        // Where the hash says, else the lesson's first preset, else the host's table, else
        // the seed's miniagent table; anything that no longer loads falls back in that order.
        let wanted = snap.preset.as_deref().and_then(|s| w.source_of(s));
        let default = if w.lesson.is_some() {
            Source::Lesson(0)
        } else if w.config.lesson.is_some() && w.lesson_error.is_none() {
            Source::Builtin(Preset::Custom)
        } else {
            Source::Builtin(Preset::Miniagent)
        };
        let loaded = wanted.is_some_and(|s| w.load_source(s)) || w.load_source(default);
        if !loaded {
            w.load_source(Source::Builtin(Preset::Miniagent));
        }
        if w.worker_import.is_some() || w.worker_lesson.is_some() {
            // Where the learner was applies to the table the worker is about to give.
            w.pending = Some(snap);
        } else {
            w.restore(&snap);
        }
        w
    }

    /// The table in its current order.
    pub fn table(&self) -> &RuleTable {
        self.lab.table()
    }

    /// The engines with guess panels: the lesson's (exactly its `engines`), or the built-in
    /// four (plus the imported config's own harness); the others only while the learner asks
    /// for them ("show other harnesses", [`Msg::Codex`]).
    pub fn shown(&self) -> Vec<EngineId> {
        let mut v = self.base_engines();
        if self.codex {
            v.extend(self.others());
        }
        v
    }

    /// The engines the lesson (or the built-in rule sets) names, before the learner asks for
    /// more.
    fn base_engines(&self) -> Vec<EngineId> {
        let mut v = match (&self.lesson, self.source) {
            (Some(l), Source::Lesson(_)) => l.engines.clone(),
            _ => Preset::Miniagent.engines(false),
        };
        if let (Source::Import, Some(s)) = (self.source, &self.import_summary) {
            if !v.contains(&s.format.engine()) {
                v.push(s.format.engine());
            }
        }
        v
    }

    /// The engines "show other harnesses" adds: every engine the lesson does not name (empty:
    /// no such offer).
    pub fn others(&self) -> Vec<EngineId> {
        let base = self.base_engines();
        EngineId::ALL
            .iter()
            .copied()
            .filter(|e| !base.contains(e))
            .collect()
    }

    /// Whether the disagreement box (OpenCode's last match against Claude Code's strongest
    /// match) belongs on screen: only when both engines are shown.
    pub fn compares_opencode_claude(&self) -> bool {
        let v = self.shown();
        v.contains(&EngineId::OpenCode) && v.contains(&EngineId::ClaudeCode)
    }

    /// An element id unique on the page: the widget's namespace (its placeholder's id) first,
    /// percent-encoded (an id with a space would be two ids in `aria-labelledby`).
    pub fn id(&self, name: &str) -> String {
        format!("{}-{name}", crate::hash::encode(&self.config.ns))
    }

    /// Puts back where the learner was (order, call, guesses, reveals, step) on this table.
    fn restore(&mut self, snap: &Snapshot) {
        let lab = &mut self.lab;
        if let Some(order) = &snap.order {
            lab.restore_order(order);
        }
        if let Some(c) = &snap.call {
            lab.set_call(c.clone());
        }
        for (e, g) in &snap.guesses {
            lab.set_guess(*e, *g);
        }
        for e in &snap.revealed {
            lab.reveal(*e);
        }
        if snap.log.is_some() || snap.undo.is_some() {
            let ids: Vec<permlab_core::RuleId> = lab.table().rules().iter().map(|r| r.id).collect();
            lab.restore_history(
                snap.log
                    .as_deref()
                    .map(crate::history::read_log)
                    .unwrap_or_default(),
                snap.undo
                    .as_deref()
                    .map(|u| crate::history::read_undo(u, &ids))
                    .unwrap_or_default(),
            );
        }
        for (e, guess, verdict) in &snap.earlier {
            lab.restore_earlier(
                *e,
                crate::state::Earlier {
                    guess: *guess,
                    verdict: *verdict,
                },
            );
        }
        self.recompute();
        self.sync_fields();
        let total = self.total_steps();
        self.lab.set_step(snap.step, total);
        self.restore_texts(snap);
    }

    /// Whether the lesson is for exploring: every verdict shows at once, nothing to guess.
    pub fn explore(&self) -> bool {
        self.lesson
            .as_ref()
            .is_some_and(|l| l.mode == LessonMode::Explore)
            && matches!(self.source, Source::Lesson(_))
    }

    /// Whether an engine's verdict shows: revealed after a guess, or an explore lesson.
    pub fn revealed(&self, e: EngineId) -> bool {
        self.explore() || self.lab.is_revealed(e)
    }

    /// Whether the lesson is a quiz (answers stay folded until asked for).
    pub fn quiz(&self) -> bool {
        self.lesson
            .as_ref()
            .is_some_and(|l| l.mode == LessonMode::Quiz)
            && matches!(self.source, Source::Lesson(_))
    }

    /// One of the lesson's named texts, in the widget's language: the shown preset's own
    /// (`presets[i].texts`) first, else the lesson's.
    pub fn lesson_text(&self, name: &str) -> Option<String> {
        let l = self.lesson.as_ref()?;
        let preset = match self.source {
            Source::Lesson(i) => l.presets.get(i).map(|p| p.texts.as_slice()),
            _ => None,
        };
        let find = |texts: &[(String, permlab_core::lesson::Text)]| {
            texts.iter().find(|(n, _)| n == name).map(|t| t.1.clone())
        };
        let t = preset.and_then(find).or_else(|| find(&l.texts))?;
        let t = t.get(self.lang.tag_short());
        (!t.is_empty()).then(|| t.to_string())
    }

    /// The widget's heading: the lesson's title, else the built-in one.
    pub fn title(&self) -> String {
        match &self.lesson {
            Some(l) if !l.title.get(self.lang.tag_short()).is_empty() => {
                l.title.get(self.lang.tag_short()).to_string()
            }
            _ => self.lang.s(S::Title).to_string(),
        }
    }

    /// The rule sets offered: (slug, label, current).
    pub fn sources(&self) -> Vec<(String, String, bool)> {
        let mut v = Vec::new();
        let short = self.lang.tag_short();
        match &self.lesson {
            Some(l) => {
                for (i, p) in l.presets.iter().enumerate() {
                    let label = p
                        .title
                        .as_ref()
                        .map(|t| t.get(short).to_string())
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| p.id.clone());
                    v.push((
                        self.slug_of(Source::Lesson(i)),
                        label,
                        self.source == Source::Lesson(i),
                    ));
                }
            }
            None => {
                for p in Preset::BUILT_IN {
                    let name = match p {
                        Preset::Miniagent => S::PresetMiniagent,
                        Preset::Git => S::PresetGit,
                        _ => S::PresetAws,
                    };
                    let s = Source::Builtin(p);
                    v.push((
                        self.slug_of(s),
                        self.lang.s(name).to_string(),
                        self.source == s,
                    ));
                }
            }
        }
        let c = Source::Builtin(Preset::Custom);
        v.push((
            self.slug_of(c),
            self.lang.s(S::PresetCustom).to_string(),
            self.source == c,
        ));
        if self.source == Source::Import {
            v.push((
                self.slug_of(Source::Import),
                self.lang.s(S::PresetImport).to_string(),
                true,
            ));
        }
        v
    }

    /// The URL-hash slug of a source.
    pub fn slug_of(&self, s: Source) -> String {
        match s {
            Source::Builtin(p) => p.slug().to_string(),
            Source::Lesson(i) => match self.lesson.as_ref().and_then(|l| l.presets.get(i)) {
                Some(p) => format!("l-{}", p.id),
                None => String::new(),
            },
            Source::Import => "import".into(),
        }
    }

    /// The source with this slug.
    pub fn source_of(&self, slug: &str) -> Option<Source> {
        if slug == "import" {
            return Some(Source::Import);
        }
        if let Some(id) = slug.strip_prefix("l-") {
            let i = self
                .lesson
                .as_ref()?
                .presets
                .iter()
                .position(|p| p.id == id)?;
            return Some(Source::Lesson(i));
        }
        Preset::from_slug(slug).map(Source::Builtin)
    }

    /// The engines that draw a cursor in the stepper: the shown engines that walk the table
    /// (CoreCoder reads no rule; the stepper gives it a line, not a cursor).
    pub fn cursor_engines(&self) -> Vec<EngineId> {
        self.shown()
            .into_iter()
            .filter(|e| self.eval(*e).is_some_and(|v| !v.steps.is_empty()))
            .collect()
    }

    /// Where the current call runs: the lesson preset's or imported config's context, else the
    /// default one every engine shares.
    pub fn call_context(&self) -> permlab_core::context::CallContext {
        self.native
            .as_ref()
            .map(|n| n.context.clone())
            .unwrap_or_default()
    }

    /// Whether the stepper at step `k` would show something that tells `engine`'s verdict:
    /// that waits until the engine is revealed. Where an engine stops tells it, and so does
    /// any row it finds matching: Codex takes the strictest match without stopping (a match
    /// on a forbidden row is the answer), and a split call stops once per part. So every
    /// step from the first match or stop on waits, and the last step always does.
    pub fn withholds_step(&self, engine: EngineId, k: usize) -> bool {
        !self.revealed(engine)
            && self.eval(engine).is_some_and(|e| {
                let telling = e
                    .steps
                    .iter()
                    .position(|s| s.stop || s.pattern_matched == Some(true))
                    .map_or(e.steps.len(), |i| i + 1);
                k >= telling.min(e.steps.len())
            })
    }

    /// The engine's evaluation of the current call.
    pub fn eval(&self, id: EngineId) -> Option<&Evaluation> {
        compute::find(&self.evals, id)
    }

    /// Steps of the longest cursor walk.
    pub fn total_steps(&self) -> usize {
        self.cursor_engines()
            .iter()
            .filter_map(|e| self.eval(*e))
            .map(|e| e.steps.len())
            .max()
            .unwrap_or(0)
    }

    /// The stepper position, clamped.
    pub fn step(&self) -> usize {
        self.lab.step().min(self.total_steps())
    }

    /// Rows under a cursor: (row, engine).
    pub fn cursors(&self) -> Vec<(usize, EngineId)> {
        let k = self.step();
        if !self.stepping || k == 0 {
            return Vec::new();
        }
        self.cursor_engines()
            .iter()
            .filter(|e| !self.withholds_step(**e, k))
            .filter_map(|e| self.eval(*e))
            .filter_map(|e| {
                let s = e.steps.get(k.min(e.steps.len()).checked_sub(1)?)?;
                Some((s.row, e.engine))
            })
            .collect()
    }

    /// Decisive rows of the revealed engines: (row, engine).
    pub fn decisive(&self) -> Vec<(usize, EngineId)> {
        self.shown()
            .iter()
            .filter(|e| self.revealed(**e))
            .filter_map(|e| self.eval(*e))
            .filter_map(|e| Some((e.rule?, e.engine)))
            .collect()
    }

    /// The row being carried and where it would land, during a lift or a drag.
    pub fn target(&self) -> Option<(usize, usize)> {
        if let Some(l) = self.lift {
            return Some((l.from, l.to));
        }
        self.drag
            .filter(|d| d.active && d.moved)
            .map(|d| (d.from, d.to))
    }

    /// Why the typed tool name cannot be used, if it cannot.
    pub fn tool_problem(&self) -> Option<&'static str> {
        let t = &self.tool_text;
        if t.trim().is_empty() {
            Some(self.lang.s(S::ToolEmpty))
        } else if t.chars().any(char::is_whitespace) {
            Some(self.lang.s(S::ToolSpace))
        } else {
            None
        }
    }

    /// What is kept of this state (see [`crate::store`]): every text as typed, up to
    /// [`crate::store::FIELD_LIMIT`] each.
    pub fn snapshot(&self) -> Snapshot {
        let l = &self.lab;
        let fits = |t: &String| t.len() <= crate::store::FIELD_LIMIT;
        let (tool_text, input_text, editor) = self.kept_texts();
        Snapshot {
            preset: Some(self.slug_of(self.source)),
            custom: (self.source == Source::Builtin(Preset::Custom))
                .then(|| self.custom.clone())
                .filter(fits),
            import: (fits(&self.import_text)
                && (self.source == Source::Import || !self.import_text.is_empty()))
            .then(|| {
                (
                    self.import_format.slug().to_string(),
                    self.import_text.clone(),
                )
            }),
            tool_text,
            input_text,
            editor,
            editor_error: self.editor_error.is_some(),
            import_error: self.import_error.is_some(),
            drafts: self.drafts.clone(),
            order: (l.is_reordered() && l.table().len() <= 200_000).then(|| l.order()),
            call: (self.calls.first() != Some(l.call())).then(|| l.call().clone()),
            guesses: l.guesses().map(|(e, g, _)| (e, g)).collect(),
            revealed: l.guesses().filter(|g| g.2).map(|g| g.0).collect(),
            stepping: self.stepping,
            step: l.step(),
            codex: self.codex,
            earlier: l
                .earlier_results()
                .map(|(e, r)| (e, r.guess, r.verdict))
                .collect(),
            log: (!l.log().is_empty()).then(|| crate::history::write_log(l.log())),
            undo: Some(crate::history::write_undo(l.undo_orders(), l.table().len()))
                .filter(|u| !u.is_empty()),
        }
    }

    /// Applies one learner action. Returns `false` when a key was not for the widget (the
    /// browser keeps its default).
    pub fn act(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::Source(s) => {
                self.load_source(s);
            }
            Msg::PickCall(i) => {
                if let Some(c) = self.calls.get(i).cloned() {
                    self.set_call(c);
                    self.sync_fields();
                }
            }
            Msg::EditTool(t) => {
                self.tool_text = t;
                self.apply_fields();
            }
            Msg::EditInput(t) => {
                self.input_text = t;
                self.apply_fields();
            }
            Msg::Undo => {
                self.reorder(Op::Undo);
            }
            Msg::Reset => {
                self.reorder(Op::Reset);
            }
            Msg::Reverse => {
                self.reorder(Op::Reverse);
            }
            Msg::Codex(on) => self.codex = on,
            Msg::Step(id, down) => {
                let (Some(p), n) = (self.position(id), self.table().len()) else {
                    return true;
                };
                let key = if down { Control::Down } else { Control::Up };
                if down && p + 1 < n {
                    self.move_row(p, p + 1, key);
                } else if !down && p > 0 {
                    self.move_row(p, p - 1, key);
                }
            }
            Msg::GripKey(id, key, alt) => return self.grip_key(id, key, alt),
            Msg::Drop(from, to) => self.move_row(from, to, Control::Grip),
            Msg::ToggleStepper => {
                self.stepping = !self.stepping;
                if self.stepping {
                    self.go_step(1);
                }
            }
            Msg::GoStep(k) => self.go_step(k),
            Msg::StepBy(d) => {
                let k = self.step();
                let to = match d {
                    FIRST => 1,
                    LAST => self.total_steps(),
                    -1 => k.saturating_sub(1).max(1),
                    _ => k + 1,
                };
                self.go_step(to);
            }
            Msg::Guess(e, g) => self.lab.set_guess(e, g),
            Msg::Reveal(e) => {
                self.lab.reveal(e);
            }
            Msg::TryAgain => self.lab.try_again(),
            Msg::Term(i) => self.term = if self.term == Some(i) { None } else { Some(i) },
            Msg::Translations(open) => self.translations = open,
            Msg::Matrix(open) => self.matrix_open = open,
            Msg::Editor(open) => {
                if open && self.editor_text.is_empty() {
                    self.editor_text = self.table().to_json();
                }
            }
            Msg::EditTable(t) => self.editor_text = t,
            Msg::Apply => {
                crate::web::mark_start("pl-parse");
                let r = presets::parse_custom(&self.editor_text);
                crate::web::mark_end("pl-parse");
                match r {
                    Ok((table, calls)) => {
                        self.editor_error = None;
                        self.custom = self.editor_text.clone();
                        self.load(Source::Builtin(Preset::Custom), table, calls, None);
                    }
                    Err(e) => self.editor_error = Some(e),
                }
            }
            Msg::ImportFormat(f) => self.import_format = f,
            Msg::ImportText(t) => self.import_text = t,
            Msg::Import => {
                self.findings = None;
                self.worker_lint = None;
                self.load_source(Source::Import);
            }
            Msg::LintReply(result) => {
                self.worker_lint = None;
                self.findings = Some(result.map_err(|e| self.lang.worker_error(&e)));
            }
            Msg::FindingCall(i) => self.finding_call(i),
            Msg::LessonReply(reply) => {
                self.worker_lesson = None;
                match reply {
                    Ok(text) => {
                        let (lesson, problem) = read_lesson(Some(&text), None);
                        let lesson =
                            lesson.map(|l| Rc::new(keep_canonical(Rc::unwrap_or_clone(l), &text)));
                        self.lesson = lesson;
                        self.lesson_error = problem;
                        if let Some(l) = &self.lesson {
                            let wanted = self.pending.as_ref().and_then(|s| {
                                let id = s.preset.as_deref()?.strip_prefix("l-")?;
                                l.presets.iter().position(|p| p.id == id)
                            });
                            self.load_source(Source::Lesson(wanted.unwrap_or(0)));
                            if let Some(snap) = self.pending.take().filter(|_| wanted.is_some()) {
                                self.restore(&snap);
                            }
                        }
                    }
                    Err(e) => self.lesson_error = Some(LessonError::Worker(e)),
                }
            }
            Msg::ImportReply(reply) => {
                self.worker_import = None;
                if std::mem::take(&mut self.import_recheck) {
                    // A failed import's message, read again after a reload.
                    self.import_error = reply.err().map(ImportError::Worker);
                    return true;
                }
                match reply.map(ImportedRows::imported) {
                    Ok(imported) => {
                        self.load_imported(imported);
                        let snap = self.pending.take();
                        if let Some(snap) = snap.filter(|s| s.preset.as_deref() == Some("import")) {
                            self.restore(&snap);
                        }
                    }
                    Err(e) => {
                        self.import_error = Some(ImportError::Worker(e));
                        self.import_summary = None;
                    }
                }
            }
            Msg::WorkerTimeout { import, seconds } => {
                // The pasted text stays (`import_text` is untouched); the table shown stays.
                if import && self.worker_import.take().is_some() {
                    self.import_recheck = false;
                    self.import_error = Some(ImportError::Timeout { seconds });
                    self.import_summary = None;
                }
                if !import && self.worker_lesson.take().is_some() {
                    self.lesson_error = Some(LessonError::WorkerTimeout { seconds });
                    self.pending = None;
                }
            }
        }
        true
    }

    /// Switches to `source`; `false` (and nothing changes but the import panel's message, or a
    /// `.rules` file handed to the worker) when it cannot be read here.
    pub fn load_source(&mut self, source: Source) -> bool {
        match source {
            Source::Builtin(Preset::Custom) => match presets::parse_custom(&self.custom) {
                Ok((table, calls)) => self.load(source, table, calls, None),
                Err(_) => return false,
            },
            Source::Builtin(p) => self.load(source, p.table(), p.calls(), None),
            Source::Lesson(i) => {
                let Some(p) = self.lesson.as_ref().and_then(|l| l.presets.get(i)).cloned() else {
                    return false;
                };
                let calls = p.calls.iter().map(|c| c.call.clone()).collect();
                self.load(source, p.table.clone(), calls, Some(Rc::new(p)));
            }
            Source::Import => {
                let format = self.import_format.resolve(&self.import_text);
                if format == Format::Codex && !rules_here() {
                    // The page's wasm has no Starlark: the worker reads the file (and the table
                    // shown meanwhile stays). An offline page has no worker file to start.
                    self.import_summary = None;
                    if self.config.selfcheck == "none" {
                        self.import_error = Some(ImportError::NeedsWorker);
                    } else {
                        self.import_error = None;
                        self.worker_import = Some(Request::Import {
                            format: FormatChoice::Is(Format::Codex),
                            text: self.import_text.clone(),
                        });
                    }
                    return false;
                }
                if self.import_text.trim().is_empty() {
                    self.import_error = Some(ImportError::Empty);
                    self.import_summary = None;
                    return false;
                }
                match import_config_error(self.import_format, &self.import_text) {
                    Ok(imported) => self.load_imported(imported),
                    Err(e) => {
                        self.import_error = Some(ImportError::Read(e));
                        self.import_summary = None;
                        return false;
                    }
                }
            }
        }
        true
    }

    /// An imported config becomes the table, judged natively.
    fn load_imported(&mut self, imported: import::Imported) {
        self.import_summary = Some(ImportSummary {
            format: imported.format,
            imported: imported.rules_imported(),
            dropped: imported.rules_dropped(),
            warnings: imported
                .warnings
                .iter()
                .map(|w| self.lang.import_warning(w))
                .collect(),
        });
        self.import_error = None;
        self.ask_lint(imported.format);
        let native = native_of(imported);
        let calls = native.calls.iter().map(|c| c.call.clone()).collect();
        self.load(
            Source::Import,
            native.table.clone(),
            calls,
            Some(Rc::new(native)),
        );
    }

    /// Hands the imported text to the worker's linter (the page's wasm has none); an offline
    /// page, which has no worker, says so instead.
    fn ask_lint(&mut self, format: Format) {
        self.findings = None;
        self.worker_lint = None;
        if self.config.selfcheck == "none" {
            self.findings = Some(Err(self.lang.s(S::LintNeedsWorker).to_string()));
        } else {
            self.worker_lint = Some(Request::Lint {
                format,
                text: self.import_text.clone(),
            });
        }
    }

    /// Loads lint finding `i`'s demonstrating call (the imported table is still shown) and
    /// opens the stepper on it, so the learner sees why the engine answers as the finding says.
    fn finding_call(&mut self, i: usize) {
        let Some(Ok(found)) = &self.findings else {
            return;
        };
        let Some(f) = found.get(i) else {
            return;
        };
        // An agent's rules are not in the table (only the top level is imported).
        if self.source != Source::Import || f.agent.is_some() {
            return;
        }
        let call = Call::new(f.tool.clone(), f.input.clone());
        self.announce = crate::lint_text::loaded(self.lang, &call);
        self.set_call(call);
        self.sync_fields();
        self.stepping = true;
        self.go_step(1);
    }

    /// A new table (preset or pasted): a fresh lab, nothing carried over.
    fn load(
        &mut self,
        source: Source,
        table: RuleTable,
        calls: Vec<Call>,
        native: Option<Rc<Native>>,
    ) {
        let first = calls
            .first()
            .cloned()
            .unwrap_or_else(|| Call::new("bash", "ls"));
        self.keep_draft(source);
        self.lift = None;
        self.drag = None;
        self.prev_matrix = None;
        // The previous table's status (its last reorder's line, a copy result, an open term)
        // says nothing about this one.
        self.announce.clear();
        self.copied = None;
        self.term = None;
        self.calls = calls;
        self.lab = Lab::new(table, first);
        self.source = source;
        self.native = native;
        self.load_rev += 1;
        self.recompute();
        self.sync_fields();
        self.take_draft();
    }

    fn set_call(&mut self, c: Call) {
        self.lab.set_call(c);
        self.recompute();
    }

    /// The fields show the current call (after a change from elsewhere).
    fn sync_fields(&mut self) {
        self.tool_text = self.lab.call().tool.clone();
        self.input_text = self.lab.call().input.clone();
        self.started = true;
    }

    fn apply_fields(&mut self) {
        if self.tool_problem().is_none() {
            let c = Call::new(self.tool_text.clone(), self.input_text.clone());
            if &c != self.lab.call() {
                self.set_call(c);
            }
        }
    }

    fn go_step(&mut self, k: usize) {
        let n = self.total_steps();
        self.lab.set_step(k, n);
    }

    /// Current position of a rule.
    pub fn position(&self, id: RuleId) -> Option<usize> {
        self.table().rules().iter().position(|r| r.id == id)
    }

    fn recompute(&mut self) {
        let native = self.native.as_deref();
        self.evals = compute::evaluate_all(self.lab.table(), native, self.lab.call());
        self.matrix = compute::matrix(self.lab.table(), native, &self.calls);
    }

    /// Applies a reorder and records what the reorder log and the matrix need.
    fn reorder(&mut self, op: Op) -> bool {
        crate::web::mark_start("pl-reorder");
        let shown = self.shown();
        let native = self.native.clone();
        let judge = move |t: &RuleTable, c: &Call| compute::judge(&shown, native.as_deref(), t, c);
        let changed = match op {
            Op::Move(from, to) => self.lab.move_rule(from, to, &judge),
            Op::Reverse => {
                let n = self.lab.table().len();
                self.lab.reverse(&judge);
                n > 1
            }
            Op::Undo => self.lab.undo(&judge),
            Op::Reset => {
                let r = self.lab.is_reordered();
                self.lab.reset(&judge);
                r
            }
        };
        if changed {
            let before = std::mem::take(&mut self.matrix);
            self.recompute();
            crate::web::mark_end("pl-reorder");
            self.reorder_marked = true;
            self.prev_matrix = Some(before);
            if self.stepping {
                // New order, new cursor paths: an open stepper starts again at step 1.
                self.go_step(1);
            }
            if !matches!(op, Op::Move(..)) {
                // What happened and which verdicts flipped: the reorder log's newest line.
                self.announce = self
                    .lab
                    .log()
                    .last()
                    .map(|e| self.lang.log_entry(self.lab.table(), e))
                    .unwrap_or_default();
            }
        }
        changed
    }

    /// Moves the row at `from` to `to` (0-based), announces it and keeps focus on the moved
    /// row's `focus` control (the grip when that one is disabled at the row's new place).
    fn move_row(&mut self, from: usize, to: usize, focus: Control) {
        let Some(rule) = self.table().rules().get(from).cloned() else {
            return;
        };
        let n = self.table().len();
        if self.reorder(Op::Move(from, to)) {
            self.announce = self.lang.moved(&rule, from + 1, to + 1, n);
        }
        let disabled = (focus == Control::Up && to == 0) || (focus == Control::Down && to + 1 == n);
        let control = if disabled { Control::Grip } else { focus };
        self.focus = Some(Focus {
            rule: rule.id,
            control,
        });
    }

    fn grip_key(&mut self, id: RuleId, key: GripKey, alt: bool) -> bool {
        let Some(p) = self.position(id) else {
            return false;
        };
        let n = self.table().len();
        let lang = self.lang;
        let lifted = self.lift.filter(|l| l.id == id);
        match key {
            GripKey::Toggle => match lifted {
                Some(l) => {
                    self.lift = None;
                    if l.to != l.from {
                        self.move_row(l.from, l.to, Control::Grip);
                    } else {
                        self.announce = lang.s(S::Dropped).to_string();
                    }
                }
                None => {
                    self.lift = Some(Lift { id, from: p, to: p });
                    if let Some(r) = self.table().rules().get(p) {
                        self.announce = lang.lifted(r, p + 1, n);
                    }
                }
            },
            GripKey::Up | GripKey::Down => {
                let down = key == GripKey::Down;
                if let Some(l) = lifted {
                    let to = if down {
                        (l.to + 1).min(n.saturating_sub(1))
                    } else {
                        l.to.saturating_sub(1)
                    };
                    self.lift = Some(Lift { to, ..l });
                    self.announce = lang.target(to + 1, n);
                } else if alt {
                    let to = if down { p + 1 } else { p.wrapping_sub(1) };
                    if to < n {
                        self.move_row(p, to, Control::Grip);
                    }
                } else {
                    return false;
                }
            }
            GripKey::Cancel if lifted.is_some() => {
                self.lift = None;
                self.announce = lang.s(S::Cancelled).to_string();
            }
            GripKey::Cancel => return false,
        }
        true
    }
}

mod kept;

/// Why a pasted config is not the table: data, worded by the view in the page's language.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// Nothing was pasted.
    Empty,
    /// A Codex `.rules` file, on a page without the worker that reads them.
    NeedsWorker,
    /// The core could not read the text.
    Read(permlab_core::Error),
    /// The worker's answer.
    Worker(WorkerError),
    /// The worker ran out of its time budget and was stopped.
    Timeout {
        /// The budget.
        seconds: u32,
    },
}

/// A row's controls that can hold the focus: the grip, ↑ and ↓.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The drag handle ⠿ (the keyboard lifts and carries the row with it).
    Grip,
    /// The ↑ button.
    Up,
    /// The ↓ button.
    Down,
}

impl Control {
    /// In Tab order along a row.
    pub const ALL: [Control; 3] = [Control::Grip, Control::Up, Control::Down];

    /// The control's class in the page.
    pub fn class(self) -> &'static str {
        match self {
            Control::Grip => "pl-grip",
            Control::Up => "pl-up",
            Control::Down => "pl-down",
        }
    }
}

/// A control of one rule's row: where the focus goes after a render (a moved row is
/// re-inserted by the keyed list, and an inserted node loses the focus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Focus {
    /// The rule whose row it is.
    pub rule: RuleId,
    /// Which of its controls.
    pub control: Control,
}

/// A key pressed on a grip, as the model reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GripKey {
    /// Space or Enter: lift the row, or drop the lifted row.
    Toggle,
    /// ↑: carry the lifted row up (with Alt: move the row up at once).
    Up,
    /// ↓: carry it down (with Alt: move it down at once).
    Down,
    /// Escape: put the lifted row back.
    Cancel,
}

impl GripKey {
    /// The DOM's `KeyboardEvent.key` (older browsers' names too), `None` for any other key.
    ///
    /// ```
    /// use permlab_widget::app::GripKey;
    /// assert_eq!(GripKey::from_dom("Spacebar"), Some(GripKey::Toggle));
    /// assert_eq!(GripKey::from_dom("ArrowDown"), Some(GripKey::Down));
    /// assert_eq!(GripKey::from_dom("a"), None);
    /// ```
    pub fn from_dom(key: &str) -> Option<GripKey> {
        Some(match key {
            " " | "Enter" | "Spacebar" => GripKey::Toggle,
            "ArrowUp" | "Up" => GripKey::Up,
            "ArrowDown" | "Down" => GripKey::Down,
            "Escape" | "Esc" => GripKey::Cancel,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy)]
enum Op {
    Move(usize, usize),
    Reverse,
    Undo,
    Reset,
}

/// The host's lesson, when its text is in the lesson format (an object with `presets`), and
/// why it cannot be used (see [`crate::lesson_error::read`]; a bare table is no error).
fn read_lesson(
    text: Option<&str>,
    selector: Option<&str>,
) -> (Option<Rc<Lesson>>, Option<LessonError>) {
    match crate::lesson_error::read(text, selector) {
        Ok(lesson) => (lesson.map(Rc::new), None),
        Err(e) => (None, Some(e)),
    }
}

/// Whose config `text` is: Codex when it calls `prefix_rule`, Claude Code when it is a JSON
/// object with a top-level `permissions` key, else OpenCode (an `opencode.json(c)` with
/// `permission`, or an agent file's front matter).
fn detect(text: &str) -> Format {
    if text.contains("prefix_rule") {
        return Format::Codex;
    }
    let claude = permlab_core::json::parse_jsonc(text)
        .ok()
        .is_some_and(|v| v.get("permissions").is_some());
    if claude {
        Format::ClaudeCode
    } else {
        Format::OpenCode
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

/// The import panel's format: detected from the text, or chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatChoice {
    /// Detected from the text ([`detect`]).
    Auto,
    /// This one.
    Is(Format),
}

impl FormatChoice {
    /// Every choice, in the panel's order.
    pub const ALL: [FormatChoice; 4] = [
        FormatChoice::Auto,
        FormatChoice::Is(Format::ClaudeCode),
        FormatChoice::Is(Format::OpenCode),
        FormatChoice::Is(Format::Codex),
    ];

    /// A format's slug, else auto (what the page's select and the kept state write).
    ///
    /// ```
    /// use permlab_widget::app::FormatChoice;
    /// use permlab_core::import::Format;
    /// assert_eq!(FormatChoice::from_slug("codex"), FormatChoice::Is(Format::Codex));
    /// assert_eq!(FormatChoice::from_slug("auto").slug(), "auto");
    /// ```
    pub fn from_slug(slug: &str) -> FormatChoice {
        Format::from_slug(slug).map_or(FormatChoice::Auto, FormatChoice::Is)
    }

    /// `auto` or the format's slug.
    pub fn slug(self) -> &'static str {
        match self {
            FormatChoice::Auto => "auto",
            FormatChoice::Is(f) => f.slug(),
        }
    }

    /// The format `text` is read as.
    pub fn resolve(self, text: &str) -> Format {
        match self {
            FormatChoice::Auto => detect(text),
            FormatChoice::Is(f) => f,
        }
    }
}

/// A call each of the first rows would match (`*` as `x`, `?` as `a`), so an imported config
/// comes with calls about its own rules; then the seed's calls.
fn sample_calls(table: &RuleTable) -> Vec<Call> {
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
fn native_of(imported: import::Imported) -> Native {
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
fn has_codex_config(text: &str) -> bool {
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

/// The worker's side of a lesson with Codex `.rules` configs: each such preset's `config` read
/// (with the Starlark interpreter) and turned into `rules` rows, the lesson's own text otherwise
/// unchanged; or why a config cannot be read (`presets[i].config: …`).
pub fn read_lesson_configs(text: &str) -> Result<String, WorkerError> {
    use permlab_core::json::{self, Value};
    let mut lesson = json::parse(text).map_err(|e| WorkerError::Read(e.to_string()))?;
    if let Value::Object(fields) = &mut lesson {
        for (key, presets) in fields.iter_mut() {
            let (true, Value::Array(presets)) = (key == "presets", presets) else {
                continue;
            };
            for (i, preset) in presets.iter_mut().enumerate() {
                let Value::Object(p) = preset else { continue };
                let codex = p.iter().find(|(k, _)| k == "config").and_then(|(_, c)| {
                    (c.get("format").and_then(Value::as_str) == Some("codex")).then(|| {
                        c.get("text")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    })
                });
                let Some(rules_text) = codex else { continue };
                match import::import(Format::Codex, &rules_text) {
                    Ok(imp) => {
                        let rows = imp
                            .table
                            .rules()
                            .iter()
                            .enumerate()
                            .map(|(k, r)| {
                                let mut row = vec![
                                    ("tool".into(), Value::from(r.tool.as_str())),
                                    ("pattern".into(), Value::from(r.pattern.as_str())),
                                    ("action".into(), Value::from(r.action.as_str())),
                                ];
                                // A row of a `canonical_matching=True` rule: the page's Codex
                                // engine keeps its case folding (see `keep_canonical`).
                                if imp
                                    .origins
                                    .get(k)
                                    .is_some_and(|o| imp.canonical.contains(o))
                                {
                                    row.push(("canonical".into(), Value::from(true)));
                                }
                                Value::Object(row)
                            })
                            .collect();
                        p.retain(|(k, _)| k != "config");
                        p.push(("rules".into(), Value::Array(rows)));
                    }
                    Err(e) => {
                        return Err(WorkerError::Lesson {
                            preset: i,
                            error: Box::new(WorkerError::of_config(Format::Codex, &rules_text, &e)),
                        })
                    }
                }
            }
        }
    }
    Ok(lesson.to_json())
}

/// The page's side of a lesson the worker read: a preset whose rows came from a Codex `.rules`
/// file with `canonical_matching=True` rules (rows marked `"canonical": true`) gets an import
/// record naming those rows, so its Codex engine folds case on them as Codex does (the table's
/// patterns cannot say it).
fn keep_canonical(mut lesson: Lesson, text: &str) -> Lesson {
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
pub fn check_result(
    name: String,
    result: Result<Vec<crate::protocol::Section>, String>,
) -> CheckResult {
    (
        name,
        result.map(|v| v.into_iter().map(|s| (s.name, s.passed, s.total)).collect()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widget(hash: &str) -> Widget {
        Widget::new(
            Config {
                lang: Lang::Zh,
                ns: "a3".into(),
                fixtures: "conformance/".into(),
                selfcheck: "selfcheck-loader.js".into(),
                lesson: None,
                lesson_from: None,
            },
            hash,
        )
    }

    fn ids(w: &Widget) -> Vec<u32> {
        w.table().rules().iter().map(|r| r.id.0).collect()
    }

    #[test]
    fn keyboard_lift_carry_drop_moves_and_announces() {
        let mut w = widget("");
        let id = RuleId(8);
        assert!(w.act(Msg::GripKey(id, GripKey::Toggle, false)));
        assert!(w.announce.contains("#8"), "{}", w.announce);
        w.act(Msg::GripKey(id, GripKey::Down, false));
        w.act(Msg::GripKey(id, GripKey::Down, false));
        assert_eq!(w.target(), Some((7, 9)));
        w.act(Msg::GripKey(id, GripKey::Toggle, false));
        assert_eq!(ids(&w), [1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
        assert!(w.announce.contains("10"), "{}", w.announce);
        assert_eq!(
            w.focus,
            Some(Focus {
                rule: RuleId(8),
                control: Control::Grip
            })
        );
        assert_eq!(w.lab.log().len(), 1);
        // The matrix remembers the verdicts before the move, for the changed-cell marks.
        assert!(w.prev_matrix.as_ref().is_some_and(|p| *p != w.matrix));
    }

    #[test]
    fn plain_arrows_without_a_lift_are_left_to_the_browser() {
        let mut w = widget("");
        assert!(!w.act(Msg::GripKey(RuleId(3), GripKey::Down, false)));
        assert!(w.act(Msg::GripKey(RuleId(3), GripKey::Down, true)));
        assert_eq!(ids(&w)[..4], [1, 2, 4, 3]);
    }

    #[test]
    fn moving_to_the_edge_focuses_the_grip_not_a_disabled_button() {
        let mut w = widget("");
        w.act(Msg::Step(RuleId(9), true));
        assert_eq!(
            w.focus,
            Some(Focus {
                rule: RuleId(9),
                control: Control::Grip
            })
        );
        w.act(Msg::Step(RuleId(2), false));
        assert_eq!(
            w.focus,
            Some(Focus {
                rule: RuleId(2),
                control: Control::Grip
            })
        );
        w.act(Msg::Step(RuleId(5), true));
        assert_eq!(
            w.focus,
            Some(Focus {
                rule: RuleId(5),
                control: Control::Down
            })
        );
    }

    #[test]
    fn typing_an_invalid_tool_keeps_the_last_valid_call() {
        let mut w = widget("");
        let before = w.lab.call().clone();
        w.act(Msg::EditTool("two words".into()));
        assert!(w.tool_problem().is_some());
        assert_eq!(w.lab.call(), &before);
        w.act(Msg::EditTool("read_file".into()));
        assert_eq!(w.lab.call().tool, "read_file");
        // Typing never rewrites the fields under the caret.
        assert_eq!(w.tool_text, "read_file");
    }

    #[test]
    fn a_bad_pasted_table_is_reported_and_nothing_is_lost() {
        let mut w = widget("");
        w.act(Msg::Editor(true));
        assert!(w.editor_text.contains("\"bash\""));
        w.act(Msg::EditTable("[{\"tool\": \"bash\",".into()));
        w.act(Msg::Apply);
        assert!(w.editor_error.is_some());
        assert_eq!(w.editor_text, "[{\"tool\": \"bash\",");
        assert_eq!(w.table().len(), 10);
    }

    fn with_lesson(text: &str) -> Widget {
        Widget::new(
            Config {
                lang: Lang::En,
                ns: "l".into(),
                fixtures: String::new(),
                selfcheck: String::new(),
                lesson: Some(text.to_string()),
                lesson_from: None,
            },
            "",
        )
    }

    /// Every author answer of the lesson files, checked through the widget's own engines
    /// (after a reorder too: the answers of order-insensitive engines must not move).
    #[test]
    fn lesson_files_drive_the_widget_and_its_engines_agree_with_the_answer_keys() {
        for name in ["a3-2-conflict.json", "claude-code-settings.json"] {
            let path = format!(
                "{}/../../fixtures/lessons/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(path).unwrap();
            let mut w = with_lesson(&text);
            assert!(w.lesson_error.is_none(), "{:?}", w.lesson_error);
            let lesson = w.lesson.clone().unwrap();
            assert_eq!(w.title(), lesson.title.get("en"));
            assert_eq!(w.shown(), lesson.engines);
            let mut checked = 0;
            for (i, preset) in lesson.presets.iter().enumerate() {
                assert!(w.load_source(Source::Lesson(i)));
                for (k, call) in preset.calls.iter().enumerate() {
                    w.act(Msg::PickCall(k));
                    for (engine, want) in &call.expect {
                        assert_eq!(
                            w.eval(*engine).unwrap().decision,
                            *want,
                            "{name} {} {}",
                            preset.id,
                            call.call
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 5, "{name}: {checked}");
        }
    }

    #[test]
    fn an_imported_claude_config_is_judged_natively_and_rows_follow_a_reorder() {
        let mut w = widget("");
        w.act(Msg::ImportText(
            r#"{"permissions": {"allow": ["Bash(git status)", "Bash(git *)"], "deny": ["Bash(git push *)", "Bash(curl *)"]}}"#.into(),
        ));
        w.act(Msg::Import);
        assert_eq!(w.source, Source::Import);
        let s = w.import_summary.clone().unwrap();
        assert_eq!(
            (s.format, s.imported, s.dropped),
            (Format::ClaudeCode, 4, 0)
        );
        w.tool_text = "bash".into();
        w.act(Msg::EditInput("git push origin main".into()));
        let row = |w: &Widget| {
            let e = w.eval(EngineId::ClaudeCode).unwrap();
            assert_eq!(e.decision, Decision::Deny);
            w.table().rules()[e.rule.unwrap()].pattern.clone()
        };
        assert_eq!(row(&w), "git push *");
        w.act(Msg::Reverse);
        assert_eq!(row(&w), "git push *");
        // The hash keeps the pasted config.
        let hash = crate::hash::write("", "a3", &w.snapshot().to_entries());
        let w2 = widget(&format!("#{hash}"));
        assert_eq!(w2.source, Source::Import);
        assert_eq!(w2.table().len(), 4);
    }

    #[test]
    fn a_rules_file_goes_through_the_worker_protocol_unchanged() {
        let text = "prefix_rule(pattern=[\"git\", [\"push\", \"fetch\"]], decision=\"prompt\")\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n";
        let direct = import_config("auto", text).unwrap();
        let reply = |text: &str| match crate::protocol::answer(&Request::Import {
            format: FormatChoice::Is(Format::Codex),
            text: text.into(),
        }) {
            Some(crate::protocol::Reply::Import { result }) => result,
            other => panic!("{other:?}"),
        };
        let mut w = widget("");
        w.act(Msg::ImportReply(reply(text)));
        assert_eq!(w.source, Source::Import);
        assert_eq!(w.table().len(), direct.table.len());
        assert_eq!(w.table().to_json(), direct.table.to_json());
        assert!(w.shown().contains(&EngineId::Codex));
        w.act(Msg::ImportReply(reply(
            "prefix_rule(pattern=[], decision=\"x\")",
        )));
        assert!(w.import_error.is_some());
    }

    #[test]
    fn a_lesson_with_a_codex_rules_config_is_read_through_the_worker_protocol() {
        let lesson = r#"{"title": "codex", "language": "en", "mode": "quiz", "engines": ["codex", "opencode"],
            "presets": [{"id": "rules", "config": {"format": "codex", "text": "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\")\nprefix_rule(pattern=[\"git\"], decision=\"allow\")\n"},
                         "calls": [{"tool": "bash", "input": "git push origin main", "expect": {"codex": "deny"}},
                                   {"tool": "bash", "input": "git status", "expect": {"codex": "allow"}}]}]}"#;
        assert!(has_codex_config(lesson));
        let reply = read_lesson_configs(lesson);
        let mut w = widget("");
        w.worker_lesson = Some(Request::Lesson {
            text: String::new(),
        });
        w.act(Msg::LessonReply(reply));
        assert!(w.worker_lesson.is_none());
        assert!(w.lesson_error.is_none(), "{:?}", w.lesson_error);
        assert_eq!(w.source, Source::Lesson(0));
        assert_eq!(w.table().len(), 2);
        let calls = w.lesson.clone().unwrap().presets[0].calls.clone();
        for (k, c) in calls.iter().enumerate() {
            w.act(Msg::PickCall(k));
            for (e, want) in &c.expect {
                assert_eq!(w.eval(*e).unwrap().decision, *want, "{}", c.call);
            }
        }
        // A broken .rules file in a lesson is reported, not half-applied.
        let bad = lesson.replace("forbidden", "Forbidden");
        let mut w = widget("");
        w.act(Msg::LessonReply(read_lesson_configs(&bad)));
        assert!(
            matches!(
                &w.lesson_error,
                Some(LessonError::Worker(WorkerError::Lesson { preset: 0, .. }))
            ),
            "{:?}",
            w.lesson_error
        );
        assert_eq!(w.source, Source::Builtin(Preset::Miniagent));
    }

    /// Issue 13's remainder: a lesson preset that is a Codex `.rules` file with
    /// `canonical_matching=True` keeps Codex's case folding on the page too (the worker turns the
    /// file into rows and marks the folded ones), also after a reorder; the other rows and the
    /// other engines match as written.
    #[test]
    fn a_lesson_codex_config_keeps_canonical_matching_on_the_page() {
        let lesson = r#"{"title": "codex", "language": "en", "mode": "explore", "engines": ["codex", "opencode"],
            "presets": [{"id": "rules", "config": {"format": "codex", "text": "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\", canonical_matching=True)\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n"},
                         "calls": [{"tool": "bash", "input": "GIT Push origin main"}]}]}"#;
        let reply = read_lesson_configs(lesson);
        assert!(
            reply.as_ref().unwrap().contains("\"canonical\":true"),
            "{reply:?}"
        );
        let mut w = widget("");
        w.act(Msg::LessonReply(reply));
        assert!(w.lesson_error.is_none(), "{:?}", w.lesson_error);
        let codex = |w: &Widget| w.eval(EngineId::Codex).unwrap().decision;
        let set = |w: &mut Widget, input: &str| {
            w.act(Msg::EditTool("bash".into()));
            w.act(Msg::EditInput(input.into()));
        };
        set(&mut w, "GIT Push origin main");
        assert_eq!(codex(&w), Decision::Deny, "folded, as Codex 0.171.0 does");
        assert_ne!(w.eval(EngineId::OpenCode).unwrap().decision, Decision::Deny);
        w.act(Msg::Reverse);
        assert_eq!(codex(&w), Decision::Deny, "still folded after a reorder");
        set(&mut w, "RM -rf x");
        assert_ne!(
            codex(&w),
            Decision::Deny,
            "a rule without the flag matches as written"
        );
    }

    #[test]
    fn a_broken_import_keeps_the_text_and_the_table() {
        let mut w = widget("");
        w.act(Msg::ImportText("{\"permissions\": {\"allow\": [".into()));
        w.act(Msg::Import);
        assert!(w.import_error.is_some());
        assert_eq!(w.import_text, "{\"permissions\": {\"allow\": [");
        assert_eq!(w.source, Source::Builtin(Preset::Miniagent));
    }

    #[test]
    fn a_broken_lesson_is_reported_and_the_built_ins_remain() {
        let w = with_lesson(
            r#"{"title": "x", "language": "fr", "mode": "quiz", "engines": [], "presets": [{}]}"#,
        );
        assert!(matches!(w.lesson_error, Some(LessonError::Checks(ref p)) if !p.is_empty()));
        assert_eq!(w.source, Source::Builtin(Preset::Miniagent));
    }

    /// Where a move's time goes on a 10 000-row table (run with `--release --ignored --nocapture`).
    #[test]
    #[ignore]
    fn big_table_move_timing() {
        let rules: Vec<String> = (0..10_000)
            .map(|i| {
                format!(
                    "{{\"tool\": \"bash\", \"pattern\": \"cmd{} *\", \"action\": \"{}\"}}",
                    i % 13,
                    ["allow", "ask", "deny"][i % 3]
                )
            })
            .collect();
        let mut w = widget("");
        w.act(Msg::EditTable(format!("[{}]", rules.join(","))));
        let t0 = std::time::Instant::now();
        w.act(Msg::Apply);
        eprintln!("apply {:?}", t0.elapsed());
        let t0 = std::time::Instant::now();
        w.act(Msg::GripKey(RuleId(1), GripKey::Down, true));
        eprintln!("move {:?}", t0.elapsed());
        let t0 = std::time::Instant::now();
        let _ = w.snapshot();
        eprintln!("snapshot {:?}", t0.elapsed());
    }

    #[test]
    fn a_guess_belongs_to_the_order_it_was_made_on() {
        let mut w = widget("");
        w.act(Msg::Source(Source::Builtin(Preset::Git)));
        let deny = Guess::Verdict(Decision::Deny);
        w.act(Msg::Guess(EngineId::ClaudeCode, deny));
        w.act(Msg::Guess(EngineId::OpenCode, deny));
        w.act(Msg::Reveal(EngineId::ClaudeCode));
        w.act(Msg::Reveal(EngineId::OpenCode));
        assert_eq!(
            w.lab.guess_was_right(
                EngineId::ClaudeCode,
                w.eval(EngineId::ClaudeCode).unwrap().decision
            ),
            Some(true)
        );
        w.act(Msg::Reverse);
        // The new order asks for a new guess; the old results stay graded as they were.
        for e in [EngineId::ClaudeCode, EngineId::OpenCode] {
            assert!(!w.revealed(e), "{e}");
            assert_eq!(w.lab.guess(e), None);
        }
        let cc = w.lab.earlier(EngineId::ClaudeCode).unwrap();
        assert_eq!((cc.guess, cc.verdict), (deny, Decision::Deny));
        let oc = w.lab.earlier(EngineId::OpenCode).unwrap();
        assert_eq!((oc.guess, oc.verdict), (deny, Decision::Allow));
        // OpenCode now says deny: the old wrong guess is not turned into a right one.
        assert_eq!(w.eval(EngineId::OpenCode).unwrap().decision, Decision::Deny);
        assert_eq!(
            w.lab.guess_was_right(EngineId::OpenCode, Decision::Deny),
            None
        );
        // The log words the verdicts of the revealed engines only.
        let entry = w.lab.log().last().unwrap();
        assert_eq!(entry.known, [EngineId::ClaudeCode, EngineId::OpenCode]);
        assert!(
            w.announce.contains("OpenCode: 放行 → 拒绝"),
            "{}",
            w.announce
        );
        assert!(w.announce.contains("first-match 改判了"), "{}", w.announce);
        // Nothing revealed on the new order: no decisive mark.
        assert!(w.decisive().is_empty());
    }

    #[test]
    fn the_stepper_withholds_the_step_that_tells_an_unrevealed_verdict() {
        let mut w = widget("");
        w.act(Msg::ToggleStepper);
        w.act(Msg::StepBy(2));
        let k = w.step();
        assert_eq!(k, w.total_steps());
        // No cursor sits on a deciding row before its engine is revealed.
        assert!(w.cursors().is_empty(), "{:?}", w.cursors());
        for e in w.cursor_engines() {
            assert!(w.withholds_step(e, k), "{e}");
        }
        w.act(Msg::Guess(EngineId::FirstMatch, Guess::Skip));
        w.act(Msg::Reveal(EngineId::FirstMatch));
        assert!(!w.withholds_step(EngineId::FirstMatch, k));
        assert_eq!(w.cursors(), [(7, EngineId::FirstMatch)]);
        // Step 1 tells nothing yet (a miss, or the next row to check).
        assert!(!w.withholds_step(EngineId::OpenCode, 1));
    }

    const SPLIT: &str = r#"{"title": "split", "language": "en", "mode": "quiz", "engines": ["codex"],
        "presets": [{"id": "s", "rules": [{"tool": "bash", "pattern": "git *", "action": "allow"},
                     {"tool": "bash", "pattern": "curl *", "action": "deny"}],
                     "calls": [{"tool": "bash", "input": "curl https://x.example; git status"}]}]}"#;

    #[test]
    fn the_stepper_withholds_a_split_calls_steps_from_its_first_part_stop() {
        let mut w = with_lesson(SPLIT);
        let e = w.eval(EngineId::Codex).unwrap().clone();
        assert_eq!(e.parts.len(), 2, "{e:?}");
        // Codex finds `curl *` for part 1 (forbidden, the strictest: the answer) and then
        // walks part 2: that match must not be shown before the reveal.
        let first_stop = e
            .steps
            .iter()
            .position(|s| s.pattern_matched == Some(true))
            .unwrap()
            + 1;
        assert!(first_stop < e.steps.len(), "{:?}", e.steps);
        w.act(Msg::ToggleStepper);
        assert!(!w.withholds_step(EngineId::Codex, first_stop - 1));
        for k in first_stop..=e.steps.len() {
            assert!(w.withholds_step(EngineId::Codex, k), "step {k}");
        }
        w.act(Msg::Guess(EngineId::Codex, Guess::Skip));
        w.act(Msg::Reveal(EngineId::Codex));
        assert!(!w.withholds_step(EngineId::Codex, first_stop));
    }

    const NAIVE: &str = r#"{"title": "naive", "language": "zh", "mode": "quiz", "engines": ["first-match", "opencode"],
        "presets": [{"id": "m", "rules": [{"tool": "bash", "pattern": "*", "action": "deny"},
                     {"tool": "bash", "pattern": "python -m unittest*", "action": "allow"}],
                     "calls": [{"tool": "bash", "input": "python -m unittest -v t.py"}]}]}"#;

    #[test]
    fn exactly_the_lessons_engines_and_the_others_only_on_request() {
        let mut w = with_lesson(NAIVE);
        assert_eq!(w.shown(), [EngineId::FirstMatch, EngineId::OpenCode]);
        assert_eq!(w.cursor_engines(), w.shown());
        assert_eq!(
            w.others(),
            [EngineId::ClaudeCode, EngineId::CoreCoder, EngineId::Codex]
        );
        assert!(!w.compares_opencode_claude());
        w.act(Msg::Codex(true));
        assert_eq!(w.shown().len(), 5);
        assert!(w.compares_opencode_claude());
        // CoreCoder reads no rule: a stepper line, no cursor.
        assert!(!w.cursor_engines().contains(&EngineId::CoreCoder));
        let all = NAIVE.replace(
            r#"["first-match", "opencode"]"#,
            r#"["first-match", "opencode", "claude-code", "corecoder", "codex"]"#,
        );
        assert!(with_lesson(&all).others().is_empty());
        // The built-in rule sets: four engines, Codex on request.
        assert_eq!(widget("").others(), [EngineId::Codex]);
    }

    /// Texts that state outcomes ("only OpenCode changes its verdict") are checked against the
    /// engines the lesson shows: the engines the text names as changing are exactly the ones
    /// whose verdict the reorder flips.
    #[test]
    fn lesson_texts_that_state_outcomes_match_the_shown_engines() {
        let path = format!(
            "{}/../../fixtures/lessons/a3-2-conflict.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut w = with_lesson(&std::fs::read_to_string(path).unwrap());
        let git = w.source_of("l-git").unwrap();
        w.load_source(git);
        for e in w.shown() {
            w.act(Msg::Guess(e, Guess::Skip));
            w.act(Msg::Reveal(e));
        }
        w.act(Msg::Reverse);
        let flipped: Vec<EngineId> = w.lab.log()[0].flipped.iter().map(|f| f.engine).collect();
        for lang in [Lang::Zh, Lang::En] {
            w.lang = lang;
            let text = w.lesson_text("try").unwrap();
            let (only, rest) = match lang {
                Lang::Zh => ("只有", "改判"),
                Lang::En => ("only", "change"),
            };
            let claim = text
                .split(only)
                .nth(1)
                .and_then(|t| t.split(rest).next())
                .unwrap_or("");
            let named: Vec<EngineId> = w
                .shown()
                .into_iter()
                .filter(|e| claim.contains(lang.engine(*e)))
                .collect();
            assert_eq!(named, flipped, "{lang:?}: {text}");
        }
    }

    #[test]
    fn the_hash_round_trips_the_state() {
        let mut w = widget("");
        w.act(Msg::Reverse);
        w.act(Msg::Guess(EngineId::OpenCode, Guess::Skip));
        w.act(Msg::Reveal(EngineId::OpenCode));
        w.act(Msg::ToggleStepper);
        w.act(Msg::StepBy(1));
        let hash = crate::hash::write("", "a3", &w.snapshot().to_entries());
        let w2 = widget(&format!("#{hash}"));
        assert_eq!(ids(&w2), ids(&w));
        assert!(w2.lab.is_revealed(EngineId::OpenCode));
        assert!(w2.stepping);
        assert_eq!(w2.step(), 2);
    }
}
