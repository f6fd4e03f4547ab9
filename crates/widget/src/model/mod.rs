//! One widget instance as plain Rust: what the learner sees ([`Widget`]) and what each of their
//! actions does to it ([`Widget::act`]). No DOM here: the page's components turn clicks and
//! keys into [`Msg`]s, do the [`Effect`]s an action returns and re-run the regions that read
//! the [`Part`]s it changed, so everything between is tested natively. Every verdict comes
//! from [`verdicts`] (the core's engines).
//!
//! The widget is a small tree of parts, each its own type ([`parts`]):
//!
//! ```text
//! Widget
//! ├── config     Config       the host's settings (never change)
//! ├── course     Course       lesson, rule set shown, its calls, custom table
//! ├── lab        Lab          order, call, guesses, reveals, stepper, reorder log
//! ├── verdicts   Verdicts     evaluations, matrix, compiled engines
//! ├── fields     Fields       the call fields as typed, drafts of other presets
//! ├── carry      Carry        keyboard lift, pointer drag
//! ├── panels     Panels       open panels, copy result
//! ├── editor     Editor       table editor text and error
//! ├── import     Import       import panel text, format, error, summary
//! ├── lint       Lint         lint findings
//! ├── waiting    Waiting      requests the worker has not answered
//! ├── selfcheck  SelfCheck    self-check results
//! └── kept       Kept         notes on the restored state
//! ```

use std::rc::Rc;

use permlab_core::import::{self, Format};
use permlab_core::lesson::{LessonMode, Preset as Native};
use permlab_core::{Action, Call, EngineId, Evaluation, RuleId, RuleTable};

use crate::persist::Snapshot;
use crate::presets::{self, Preset};
use crate::protocol::{ImportedRows, Reply, Request};
use crate::state::Lab;
use crate::text::i18n::{Lang, S};
use crate::text::lesson_error::LessonError;

#[cfg(test)]
mod changes;
mod events;
mod format;
mod kept;
mod msg;
mod parts;
mod reading;
pub mod record;
mod regions;
#[cfg(test)]
mod tests;
mod tracked;
mod types;
mod verdicts;

pub use events::{CallRef, HostEvent, Place, ScoreOut};
pub use format::FormatChoice;
pub use msg::{Effect, Msg, Outcome};
pub use parts::{
    Carry, Course, Drag, Editor, Fields, Import, Kept, Lift, Lint, Panels, Progress, SelfCheck,
    Waiting,
};
pub use reading::{import_config, import_config_error};
pub use regions::Region;
pub use tracked::{Part, Parts, Tracked};
pub use types::{
    typing_pause, CheckResult, Config, Control, Focus, GripKey, ImportError, ImportSummary, Source,
    LONG_INPUT, TYPING_PAUSE,
};
pub use verdicts::Verdicts;

#[cfg(test)]
pub(crate) use reading::as_page;
use reading::{check_result, has_codex_config, keep_canonical, native_of, read_lesson, rules_here};

/// One step of an engine's walk in the stepper ([`Widget::walk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkStep {
    /// The engine's own step (an index into its evaluation's steps): revealed engines only.
    Step(usize),
    /// A row of the engine's scan order, its result withheld until the reveal.
    Unseen {
        /// The row (0-based).
        row: usize,
        /// Claude Code's group being searched.
        group: Option<Action>,
    },
    /// Past the last row: what decided when no rule did (revealed), or that this waits.
    End,
}

/// How many lint findings the panel renders at first, and how many more each "show more"
/// adds: a page renders in a few milliseconds, where 20 000 findings at once took 2.4 s.
pub const FINDINGS_PAGE: usize = 50;

/// Which stepper move [`Msg::StepBy`] means.
const FIRST: i8 = -2;
const LAST: i8 = 2;

/// One widget instance: a part per concern, each its own type (see [`parts`]), every one
/// tracked so an action reports what it changed (see [`tracked`]).
pub struct Widget {
    /// How the host configured it (never changes).
    config: Config,
    /// Where the table comes from.
    course: Tracked<Course>,
    /// Order, call, guesses, stepper, log.
    lab: Tracked<Lab>,
    /// Every engine's evaluation of the call, and the lesson calls' matrix.
    verdicts: Tracked<Verdicts>,
    /// The call fields as typed.
    fields: Tracked<Fields>,
    /// A row being carried.
    carry: Tracked<Carry>,
    /// Open panels, the toolbar's last report.
    panels: Tracked<Panels>,
    /// The table editor.
    editor: Tracked<Editor>,
    /// The import panel.
    import: Tracked<Import>,
    /// The imported config's lint findings.
    lint: Tracked<Lint>,
    /// What waits for the worker.
    waiting: Tracked<Waiting>,
    /// The self-check.
    selfcheck: Tracked<SelfCheck>,
    /// What the learner should know about the restored state.
    kept: Tracked<Kept>,
    /// Tasks ticked, answers recorded.
    progress: Tracked<Progress>,
}

/// Read access to each part (the page reads them; only [`Widget::act`] changes them).
macro_rules! readers {
    ($($(#[$m:meta])* $name:ident: $t:ty;)*) => {
        $( $(#[$m])* pub fn $name(&self) -> &$t { &self.$name } )*
    };
}

impl Widget {
    readers! {
        /// How the host configured it.
        config: Config;
        /// Where the table comes from.
        course: Course;
        /// Order, call, guesses, stepper, log.
        lab: Lab;
        /// The evaluations and the matrix.
        verdicts: Verdicts;
        /// The call fields as typed.
        fields: Fields;
        /// A row being carried.
        carry: Carry;
        /// Open panels.
        panels: Panels;
        /// The table editor.
        editor: Editor;
        /// The import panel.
        import: Import;
        /// The lint findings.
        lint: Lint;
        /// What waits for the worker.
        waiting: Waiting;
        /// The self-check.
        selfcheck: SelfCheck;
        /// Notes on the restored state.
        kept: Kept;
        /// Tasks ticked, answers recorded.
        progress: Progress;
    }

    /// The widget's language.
    pub fn lang(&self) -> Lang {
        self.config.lang
    }

    /// A widget as `config` says, with nothing stored: where an old-format link's hash `hash`
    /// says, if it has this widget's entries.
    pub fn new(config: Config, hash: &str) -> Widget {
        Widget::with_stored(config, hash, None)
    }

    /// A widget as `config` says, where the learner was: the widget's stored item `stored`
    /// (see [`crate::persist::store`]) when it is usable, else an old-format link's hash. Requests for
    /// the worker it starts with are in [`Widget::resume`].
    pub fn with_stored(config: Config, hash: &str, stored: Option<&str>) -> Widget {
        let start = crate::persist::store::start(&config.ns, hash, stored);
        let mut snap = start.snap;
        // A state made with another lesson (the page mounted a new one here) does not apply.
        let lesson_print = config.lesson.as_deref().map(crate::persist::fingerprint);
        if snap.lesson.is_some() && snap.lesson != lesson_print {
            snap = Snapshot::default();
        }
        // A Codex `.rules` config in the lesson is read by the worker (the page has no Starlark);
        // the built-in rule sets show meanwhile.
        let lesson_request = config
            .lesson
            .as_deref()
            .filter(|t| !rules_here() && has_codex_config(t))
            .map(|t| Request::Lesson {
                text: t.to_string(),
            });
        let (lesson, lesson_error) = match lesson_request {
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
        let (format, text) = snap
            .import
            .clone()
            .map(|(f, t)| (FormatChoice::from_slug(&f), t))
            .unwrap_or((FormatChoice::Auto, String::new()));
        let mut w = Widget {
            config,
            course: Tracked::new(Course {
                source: Source::Builtin(Preset::Miniagent),
                lesson,
                lesson_error,
                native: None,
                calls: Vec::new(),
                custom,
                loads: 0,
            }),
            lab: Tracked::new(Lab::new(RuleTable::default(), Call::new("bash", "ls"))),
            verdicts: Tracked::default(),
            fields: Tracked::new(Fields {
                drafts: snap.drafts.clone(),
                ..Fields::default()
            }),
            carry: Tracked::default(),
            panels: Tracked::new(Panels {
                others: snap.codex,
                stepping: snap.stepping,
                ..Panels::default()
            }),
            editor: Tracked::default(),
            import: Tracked::new(Import {
                text,
                format,
                error: None,
                summary: None,
                recheck: false,
            }),
            lint: Tracked::default(),
            waiting: Tracked::new(Waiting {
                lesson: lesson_request,
                ..Waiting::default()
            }),
            selfcheck: Tracked::default(),
            kept: Tracked::new(Kept {
                notes: start.notes,
                from_hash: start.from_hash,
            }),
            progress: Tracked::new(Progress {
                tasks: snap.tasks.clone(),
                record: snap
                    .record
                    .as_deref()
                    .map(record::Record::from_text)
                    .unwrap_or_default(),
            }),
        };
        let fx = &mut Vec::new();
        // Where the stored state (or an old link) says, else the lesson's first preset, else the
        // host's table, else the seed's miniagent table; anything that no longer loads falls back
        // in that order.
        let wanted = snap.preset.as_deref().and_then(|s| w.source_of(s));
        let default = if w.course.lesson.is_some() {
            Source::Lesson(0)
        } else if w.config.lesson.is_some() && w.course.lesson_error.is_none() {
            Source::Builtin(Preset::Custom)
        } else {
            Source::Builtin(Preset::Miniagent)
        };
        let loaded = wanted.is_some_and(|s| w.load_source(s, fx)) || w.load_source(default, fx);
        if !loaded {
            w.load_source(Source::Builtin(Preset::Miniagent), fx);
        }
        if w.waiting.import.is_some() || w.waiting.lesson.is_some() {
            // Where the learner was applies to the table the worker is about to give.
            w.waiting.state = Some(snap);
        } else {
            w.restore(&snap, fx);
        }
        w.tick_tasks();
        w.progress.clear();
        w
    }

    /// The widget with one more note for the learner (and the page's author) on where its
    /// state is kept, e.g. [`crate::persist::store::Note::SameId`], which only the page can
    /// see (it counts the page's elements).
    pub fn with_note(mut self, note: crate::persist::store::Note) -> Widget {
        self.kept.notes.push(note);
        self.kept.clear();
        self
    }

    /// What the page sends the worker as the widget starts (or mounts again): every request
    /// that waits for an answer.
    pub fn resume(&self) -> Vec<Effect> {
        let w = &self.waiting;
        let mut fx: Vec<Effect> = [&w.lesson, &w.import, &w.lint]
            .into_iter()
            .flatten()
            .map(|r| Effect::Ask(r.clone()))
            .collect();
        // A lesson the worker reads is ready once it answers (`Msg::LessonReply`).
        if w.lesson.is_none() {
            fx.push(Effect::Ready);
        }
        fx
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
        if self.panels.others {
            v.extend(self.others());
        }
        v
    }

    /// The engines the lesson (or the built-in rule sets) names, before the learner asks for
    /// more.
    fn base_engines(&self) -> Vec<EngineId> {
        let mut v = match (&self.course.lesson, self.course.source) {
            (Some(l), Source::Lesson(_)) => l.engines.clone(),
            _ => Preset::Miniagent.engines(false),
        };
        if let (Source::Import, Some(s)) = (self.course.source, &self.import.summary) {
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
        format!("{}-{name}", crate::persist::hash::encode(&self.config.ns))
    }

    /// Puts back where the learner was (order, call, guesses, reveals, step) on this table.
    fn restore(&mut self, snap: &Snapshot, fx: &mut Vec<Effect>) {
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
                    .map(crate::persist::history::read_log)
                    .unwrap_or_default(),
                snap.undo
                    .as_deref()
                    .map(|u| crate::persist::history::read_undo(u, &ids))
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
        self.restore_texts(snap, fx);
    }

    /// Whether "try again" is offered: a quiz with a guess or a reveal to clear (before any,
    /// there is nothing to try again).
    pub fn can_try_again(&self) -> bool {
        !self.explore() && self.lab.answered_any()
    }

    /// Whether the lesson is for exploring: every verdict shows at once, nothing to guess.
    pub fn explore(&self) -> bool {
        self.course
            .lesson
            .as_ref()
            .is_some_and(|l| l.mode == LessonMode::Explore)
            && matches!(self.course.source, Source::Lesson(_))
    }

    /// Whether an engine's verdict shows: revealed after a guess, or an explore lesson.
    pub fn revealed(&self, e: EngineId) -> bool {
        self.explore() || self.lab.is_revealed(e)
    }

    /// Whether the lesson is a quiz (answers stay folded until asked for).
    pub fn quiz(&self) -> bool {
        self.course
            .lesson
            .as_ref()
            .is_some_and(|l| l.mode == LessonMode::Quiz)
            && matches!(self.course.source, Source::Lesson(_))
    }

    /// One of the lesson's named texts, in the widget's language: the shown preset's own
    /// (`presets[i].texts`) first, else the lesson's.
    ///
    /// Only while one of the lesson's presets is shown: an imported config, the custom table or
    /// a built-in rule set is not what the lesson's question asks about.
    pub fn lesson_text(&self, name: &str) -> Option<String> {
        if !matches!(self.course.source, Source::Lesson(_)) {
            return None;
        }
        let l = self.course.lesson.as_ref()?;
        let preset = match self.course.source {
            Source::Lesson(i) => l.presets.get(i).map(|p| p.texts.as_slice()),
            _ => None,
        };
        let find = |texts: &[(String, permlab_core::lesson::Text)]| {
            texts.iter().find(|(n, _)| n == name).map(|t| t.1.clone())
        };
        let t = preset.and_then(find).or_else(|| find(&l.texts))?;
        let t = t.get(self.config.lang.tag_short());
        (!t.is_empty()).then(|| t.to_string())
    }

    /// The widget's heading: the lesson's title, else the built-in one.
    pub fn title(&self) -> String {
        match &self.course.lesson {
            Some(l) if !l.title.get(self.config.lang.tag_short()).is_empty() => {
                l.title.get(self.config.lang.tag_short()).to_string()
            }
            _ => self.config.lang.s(S::Title).to_string(),
        }
    }

    /// The rule sets offered: (source, its slug for the page, label, current).
    pub fn sources(&self) -> Vec<(Source, String, String, bool)> {
        let mut v = Vec::new();
        let short = self.config.lang.tag_short();
        match &self.course.lesson {
            Some(l) => {
                for (i, p) in l.presets.iter().enumerate() {
                    let label = p
                        .title
                        .as_ref()
                        .map(|t| t.get(short).to_string())
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| p.id.clone());
                    v.push((
                        Source::Lesson(i),
                        self.slug_of(Source::Lesson(i)),
                        label,
                        self.course.source == Source::Lesson(i),
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
                        s,
                        self.slug_of(s),
                        self.config.lang.s(name).to_string(),
                        self.course.source == s,
                    ));
                }
            }
        }
        let c = Source::Builtin(Preset::Custom);
        v.push((
            c,
            self.slug_of(c),
            self.config.lang.s(S::PresetCustom).to_string(),
            self.course.source == c,
        ));
        if self.course.source == Source::Import {
            v.push((
                Source::Import,
                self.slug_of(Source::Import),
                self.config.lang.s(S::PresetImport).to_string(),
                true,
            ));
        }
        v
    }

    /// The slug of a source, as the stored state names it.
    pub fn slug_of(&self, s: Source) -> String {
        match s {
            Source::Builtin(p) => p.slug().to_string(),
            Source::Lesson(i) => match self.course.lesson.as_ref().and_then(|l| l.presets.get(i)) {
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
                .course
                .lesson
                .as_ref()?
                .presets
                .iter()
                .position(|p| p.id == id)?;
            return Some(Source::Lesson(i));
        }
        Preset::from_slug(slug).map(Source::Builtin)
    }

    /// The engines that draw a cursor in the stepper: the shown engines that read the table
    /// (CoreCoder reads no rule; the stepper gives it a line, not a cursor). Decided by the
    /// engine alone, never by its evaluation: a cursor that is missing would tell something.
    pub fn cursor_engines(&self) -> Vec<EngineId> {
        self.shown()
            .into_iter()
            .filter(|e| e.reads_rules())
            .collect()
    }

    /// Where the current call runs: the lesson preset's or imported config's context, else the
    /// default one every engine shares.
    pub fn call_context(&self) -> permlab_core::context::CallContext {
        self.course
            .native
            .as_ref()
            .map(|n| n.context.clone())
            .unwrap_or_default()
    }

    /// Whether the stepper at step `k` (from 1) shows `engine`'s walk blind: before its reveal,
    /// every step does. Where a cursor stops, where it vanishes, a match on the way and how
    /// many steps there are would each tell the verdict, so an unrevealed engine walks its whole
    /// scan order (the same for every call) and says at each row only that the result waits.
    pub fn withholds_step(&self, engine: EngineId, k: usize) -> bool {
        k > 0 && !self.revealed(engine)
    }

    /// The walk the stepper shows for `engine`: its real steps once revealed, then, when no
    /// rule decided, one last step that says what did (the engine's fallback or a step other
    /// than a rule); before the reveal, its whole scan order and a last step that says the
    /// result waits. CoreCoder (no rule read) has none.
    pub fn walk(&self, engine: EngineId) -> Vec<WalkStep> {
        if !engine.reads_rules() {
            return Vec::new();
        }
        if !self.revealed(engine) {
            let actions: Vec<Action> = self.table().rules().iter().map(|r| r.action).collect();
            let mut walk: Vec<WalkStep> = engine
                .scan_order(&actions)
                .into_iter()
                .map(|(row, group)| WalkStep::Unseen { row, group })
                .collect();
            walk.push(WalkStep::End);
            return walk;
        }
        let Some(e) = self.eval(engine) else {
            return Vec::new();
        };
        let mut walk: Vec<WalkStep> = (0..e.steps.len()).map(WalkStep::Step).collect();
        if e.rule.is_none() {
            walk.push(WalkStep::End);
        }
        walk
    }

    /// Step `k` (from 1) of `engine`'s walk; past its end, its last step (where it stopped).
    pub fn walk_step(&self, engine: EngineId, k: usize) -> Option<WalkStep> {
        let walk = self.walk(engine);
        let i = k.min(walk.len()).checked_sub(1)?;
        walk.get(i).copied()
    }

    /// The engine's evaluation of the current call.
    pub fn eval(&self, id: EngineId) -> Option<&Evaluation> {
        self.verdicts.eval(id)
    }

    /// Steps of the longest walk (an unrevealed engine's is its whole scan order: the count
    /// tells nothing about where it stops).
    pub fn total_steps(&self) -> usize {
        self.cursor_engines()
            .iter()
            .map(|e| self.walk(*e).len())
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
        if !self.panels.stepping || k == 0 {
            return Vec::new();
        }
        self.cursor_engines()
            .into_iter()
            .filter_map(|e| match self.walk_step(e, k)? {
                WalkStep::Step(i) => Some((self.eval(e)?.steps.get(i)?.row, e)),
                WalkStep::Unseen { row, .. } => Some((row, e)),
                WalkStep::End => None,
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
        if let Some(l) = self.carry.lift {
            return Some((l.from, l.to));
        }
        self.carry.drag.filter(|d| d.moved).map(|d| (d.from, d.to))
    }

    /// Why the typed tool name cannot be used, if it cannot.
    pub fn tool_problem(&self) -> Option<&'static str> {
        let t = &self.fields.tool;
        if t.trim().is_empty() {
            Some(self.config.lang.s(S::ToolEmpty))
        } else if t.chars().any(char::is_whitespace) {
            Some(self.config.lang.s(S::ToolSpace))
        } else {
            None
        }
    }

    /// What is kept of this state (see [`crate::persist::store`]): every text as typed, up to
    /// [`crate::persist::store::FIELD_LIMIT`] each.
    pub fn snapshot(&self) -> Snapshot {
        let l = &self.lab;
        let fits = |t: &String| t.len() <= crate::persist::store::FIELD_LIMIT;
        let (tool_text, input_text, editor) = self.kept_texts();
        Snapshot {
            preset: Some(self.slug_of(self.course.source)),
            custom: (self.course.source == Source::Builtin(Preset::Custom))
                .then(|| self.course.custom.clone())
                .filter(fits),
            import: (fits(&self.import.text)
                && (self.course.source == Source::Import || !self.import.text.is_empty()))
            .then(|| {
                (
                    self.import.format.slug().to_string(),
                    self.import.text.clone(),
                )
            }),
            tool_text,
            input_text,
            editor,
            editor_error: self.editor.error.is_some(),
            import_error: self.import.error.is_some(),
            drafts: self.fields.drafts.clone(),
            order: (l.is_reordered() && l.table().len() <= 200_000).then(|| l.order()),
            call: (self.course.calls.first() != Some(l.call())).then(|| l.call().clone()),
            guesses: l.guesses().map(|(e, g, _)| (e, g)).collect(),
            revealed: l.guesses().filter(|g| g.2).map(|g| g.0).collect(),
            stepping: self.panels.stepping,
            step: l.step(),
            codex: self.panels.others,
            earlier: l
                .earlier_results()
                .map(|(e, r)| (e, r.guess, r.verdict))
                .collect(),
            log: (!l.log().is_empty()).then(|| crate::persist::history::write_log(l.log())),
            undo: Some(crate::persist::history::write_undo(
                l.undo_orders(),
                l.table().len(),
            ))
            .filter(|u| !u.is_empty()),
            tasks: self.progress.tasks.clone(),
            record: Some(self.progress.record.to_text())
                .filter(|_| self.progress.record != record::Record::default()),
            lesson: self
                .config
                .lesson
                .as_deref()
                .map(crate::persist::fingerprint),
        }
    }

    /// Applies one action: what it changed and what the page must do about it.
    pub fn act(&mut self, msg: Msg) -> Outcome {
        self.clear_marks();
        let (logged, loads) = (self.lab.log().len(), self.course.loads);
        let mut effects = Vec::new();
        let handled = self.apply(msg, &mut effects);
        let mut changed = self.marks();
        // What the tasks check: the table, the lab, the verdicts, the stepper, the engines.
        const TASK_FACTS: [Part; 5] = [
            Part::Course,
            Part::Lab,
            Part::Verdicts,
            Part::Panels,
            Part::Import,
        ];
        if TASK_FACTS.iter().any(|p| changed.has(*p)) && self.tick_tasks() {
            changed = changed.with(Part::Progress);
        }
        if self.lab.log().len() > logged {
            effects.push(Effect::Logged);
        }
        // The order changes only by a reorder (each adds a line to the log) or a new table.
        if self.lab.log().len() != logged || self.course.loads != loads {
            changed = changed.with(Part::Order);
        }
        Outcome {
            handled,
            changed,
            effects,
        }
    }

    /// Ticks the lesson's tasks done by now (a tick stays); whether one was ticked.
    fn tick_tasks(&mut self) -> bool {
        if self
            .course
            .lesson
            .as_ref()
            .is_none_or(|l| l.tasks.is_empty())
        {
            return false;
        }
        let Some(lesson) = self.course.lesson.as_ref() else {
            return false;
        };
        let ticks = crate::tasks::progress(lesson, &self.task_facts(), &self.progress.tasks);
        let changed = ticks != self.progress.tasks;
        if changed {
            self.progress.tasks = ticks;
        }
        changed
    }

    /// What the learner has done so far, as the lesson's task checks read it.
    pub fn task_facts(&self) -> crate::tasks::Facts {
        let preset = match (self.course.source, &self.course.lesson) {
            (Source::Lesson(i), Some(l)) => l.presets.get(i).map(|p| p.id.clone()),
            _ => None,
        }
        .unwrap_or_default();
        crate::tasks::Facts {
            preset,
            revealed: self
                .shown()
                .into_iter()
                .filter(|e| self.revealed(*e))
                .collect(),
            // Walked to the end once every cursor is revealed: before that the walk is blind
            // (nothing seen of where each engine stops, which is what the task asks).
            stepper_end: self.panels.stepping
                && self.total_steps() > 0
                && self.step() >= self.total_steps()
                && self.cursor_engines().iter().all(|e| self.revealed(*e)),
            order: self.table().rules().iter().map(|r| r.id).collect(),
            reverses: self
                .lab
                .log()
                .iter()
                .filter(|e| matches!(e.change, crate::state::Change::Reverse))
                .count(),
        }
    }

    /// Records the answer a reveal of `e` gives (the host hears it) and, in a quiz, the
    /// completion it may bring.
    fn answered(&mut self, e: EngineId, fx: &mut Vec<Effect>) {
        let Some(guess) = self.lab.guess(e) else {
            return;
        };
        let verdict = self.eval(e).map(|v| v.decision);
        let correct = verdict.is_some_and(|d| guess == crate::state::Guess::Verdict(d));
        let item = self.item(e);
        let answered = self.progress.record.answer(item, guess, correct);
        fx.push(Effect::Revealed(e, answered));
        if self.quiz() && !self.progress.record.completed {
            let questions = self.questions();
            if self.progress.record.all_answered(&questions) {
                self.progress.record.completed = true;
                fx.push(Effect::Completed(self.progress.record.score(&questions)));
            }
        }
    }

    /// Forgets which parts changed.
    fn clear_marks(&mut self) {
        self.course.clear();
        self.lab.clear();
        self.verdicts.clear();
        self.fields.clear();
        self.carry.clear();
        self.panels.clear();
        self.editor.clear();
        self.import.clear();
        self.lint.clear();
        self.waiting.clear();
        self.selfcheck.clear();
        self.kept.clear();
        self.progress.clear();
    }

    /// The parts that changed since [`Widget::clear_marks`].
    fn marks(&self) -> Parts {
        [
            (Part::Course, self.course.changed()),
            (Part::Lab, self.lab.changed()),
            (Part::Verdicts, self.verdicts.changed()),
            (Part::Fields, self.fields.changed()),
            (Part::Carry, self.carry.changed()),
            (Part::Panels, self.panels.changed()),
            (Part::Editor, self.editor.changed()),
            (Part::Import, self.import.changed()),
            (Part::Lint, self.lint.changed()),
            (Part::Waiting, self.waiting.changed()),
            (Part::SelfCheck, self.selfcheck.changed()),
            (Part::Kept, self.kept.changed()),
            (Part::Progress, self.progress.changed()),
        ]
        .into_iter()
        .filter(|p| p.1)
        .map(|p| p.0)
        .collect()
    }

    /// [`Widget::act`]'s body. `false`: the key was not for the widget (the browser keeps its
    /// default).
    fn apply(&mut self, msg: Msg, fx: &mut Vec<Effect>) -> bool {
        match msg {
            Msg::Source(s) => {
                self.load_source(s, fx);
            }
            Msg::PickCall(i) => {
                if let Some(c) = self.course.calls.get(i).cloned() {
                    self.set_call(c);
                    self.sync_fields();
                }
            }
            Msg::EditTool(t) => {
                self.fields.tool = t;
                self.apply_fields();
            }
            Msg::EditInput(t) => {
                self.fields.input = t;
                self.apply_fields();
            }
            Msg::Undo => {
                self.reorder(Op::Undo, fx);
            }
            Msg::Reset => {
                self.reorder(Op::Reset, fx);
            }
            Msg::Reverse => {
                self.reorder(Op::Reverse, fx);
            }
            Msg::Codex(on) => self.panels.others = on,
            Msg::Step(id, down) => {
                let (Some(p), n) = (self.position(id), self.table().len()) else {
                    return true;
                };
                let key = if down { Control::Down } else { Control::Up };
                if down && p + 1 < n {
                    self.move_row(p, p + 1, key, fx);
                } else if !down && p > 0 {
                    self.move_row(p, p - 1, key, fx);
                }
            }
            Msg::GripKey(id, key, alt) => return self.grip_key(id, key, alt, fx),
            Msg::Drop(from, to) => self.move_row(from, to, Control::Grip, fx),
            Msg::DragStart(d) => self.carry.drag = Some(d),
            Msg::DragOver(to) => {
                if let Some(d) = self.carry.drag.as_mut() {
                    d.to = to;
                    d.moved = true;
                }
            }
            Msg::DragEnd(commit) => {
                if let Some(d) = self.carry.drag.take() {
                    if commit && d.moved && d.to != d.from {
                        self.move_row(d.from, d.to, Control::Grip, fx);
                    }
                }
            }
            Msg::Copied(result) => self.panels.copied = Some(result),
            Msg::SelfCheck => {
                if self.selfcheck.running {
                    return true;
                }
                *self.selfcheck = SelfCheck {
                    checks: Vec::new(),
                    running: true,
                };
                fx.push(Effect::SelfCheck);
            }
            Msg::CheckReply(reply) => match reply {
                Ok(Reply::Done) => self.selfcheck.running = false,
                Ok(Reply::Check { name, result }) => {
                    let lang = self.config.lang;
                    let result = result.map_err(|e| lang.worker_error(&e));
                    self.selfcheck.checks.push(check_result(name, result))
                }
                Ok(_) => {}
                Err(e) => {
                    self.selfcheck.running = false;
                    let lang = self.config.lang;
                    let failed = lang.s(S::LoadFailed).to_string();
                    self.selfcheck
                        .checks
                        .push((failed, Err(lang.worker_error(&e))));
                }
            },
            Msg::ToggleStepper => {
                self.panels.stepping = !self.panels.stepping;
                if self.panels.stepping {
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
                fx.push(Effect::ShowCursors);
            }
            Msg::Guess(e, g) => {
                if !self.lab.is_revealed(e) && self.lab.guess(e) != Some(g) {
                    self.lab.set_guess(e, g);
                    if self.lab.guess(e) == Some(g) {
                        fx.push(Effect::Guessed(e, g));
                    }
                }
            }
            Msg::Reveal(e) => {
                if !self.lab.is_revealed(e) {
                    self.lab.reveal(e);
                    if self.lab.is_revealed(e) {
                        self.answered(e, fx);
                    }
                }
            }
            Msg::TryAgain => self.lab.try_again(),
            Msg::Term(i) => {
                self.panels.term = if self.panels.term == Some(i) {
                    None
                } else {
                    Some(i)
                }
            }
            Msg::Translations(open) => self.panels.translations = open,
            Msg::Matrix(open) => self.panels.matrix = open,
            Msg::Editor(open) => {
                if open && self.editor.text.is_empty() {
                    self.editor.text = self.table().to_json();
                }
            }
            Msg::EditTable(t) => self.editor.text = t,
            Msg::Apply => {
                crate::browser::perf::mark_start("pl-parse");
                let r = presets::parse_custom(&self.editor.text);
                crate::browser::perf::mark_end("pl-parse");
                match r {
                    Ok((table, calls)) => {
                        self.editor.error = None;
                        self.course.custom = self.editor.text.clone();
                        self.load(Source::Builtin(Preset::Custom), table, calls, None, fx);
                    }
                    Err(e) => self.editor.error = Some(e),
                }
            }
            Msg::ImportFormat(f) => self.import.format = f,
            Msg::ImportText(t) => self.import.text = t,
            Msg::Import => {
                *self.lint = Lint::default();
                self.waiting.lint = None;
                self.load_source(Source::Import, fx);
            }
            Msg::LintReply(request, result) => {
                if self.waiting.lint.as_ref() == Some(&request) {
                    self.waiting.lint = None;
                    let lang = self.config.lang;
                    *self.lint = match result {
                        Ok(linted) => Lint {
                            findings: Some(Ok(linted.findings)),
                            not_checked: linted.not_checked,
                            shown: FINDINGS_PAGE,
                        },
                        Err(e) => Lint {
                            findings: Some(Err(lang.worker_error(&e))),
                            ..Lint::default()
                        },
                    };
                }
            }
            Msg::MoreFindings => {
                if self.lint.page().is_some_and(|(page, all)| page.len() < all) {
                    self.lint.shown += FINDINGS_PAGE;
                }
            }
            Msg::FindingCall(i) => self.finding_call(i, fx),
            Msg::LessonReply(reply) => {
                self.waiting.lesson = None;
                match reply {
                    Ok(text) => {
                        let (lesson, problem) = read_lesson(Some(&text), None);
                        let lesson =
                            lesson.map(|l| Rc::new(keep_canonical(Rc::unwrap_or_clone(l), &text)));
                        self.course.lesson = lesson;
                        self.course.lesson_error = problem;
                        if let Some(l) = &self.course.lesson {
                            let wanted = self.waiting.state.as_ref().and_then(|s| {
                                let id = s.preset.as_deref()?.strip_prefix("l-")?;
                                l.presets.iter().position(|p| p.id == id)
                            });
                            self.load_source(Source::Lesson(wanted.unwrap_or(0)), fx);
                            if let Some(snap) =
                                self.waiting.state.take().filter(|_| wanted.is_some())
                            {
                                self.restore(&snap, fx);
                            }
                        }
                    }
                    Err(e) => self.course.lesson_error = Some(LessonError::Worker(e)),
                }
                fx.push(Effect::Ready);
            }
            Msg::ImportReply(reply) => {
                self.waiting.import = None;
                if std::mem::take(&mut self.import.recheck) {
                    // A failed import's message, read again after a reload.
                    self.import.error = reply.err().map(ImportError::Worker);
                    return true;
                }
                match reply.map(ImportedRows::imported) {
                    Ok(imported) => {
                        self.load_imported(imported, fx);
                        let snap = self.waiting.state.take();
                        if let Some(snap) = snap.filter(|s| s.preset.as_deref() == Some("import")) {
                            self.restore(&snap, fx);
                        }
                    }
                    Err(e) => {
                        self.import.error = Some(ImportError::Worker(e));
                        self.import.summary = None;
                    }
                }
            }
            Msg::WorkerTimeout { request, seconds } => {
                // The pasted text stays (`import_text` is untouched); the table shown stays.
                // A request no longer waited for (a newer paste replaced it) changes nothing.
                let waited = |w: &Option<Request>| w.as_ref() == Some(&request);
                match &request {
                    Request::Import { .. } if waited(&self.waiting.import) => {
                        self.waiting.import = None;
                        self.import.recheck = false;
                        self.import.error = Some(ImportError::Timeout { seconds });
                        self.import.summary = None;
                    }
                    Request::Lesson { .. } if waited(&self.waiting.lesson) => {
                        self.waiting.lesson = None;
                        self.course.lesson_error = Some(LessonError::WorkerTimeout { seconds });
                        self.waiting.state = None;
                        fx.push(Effect::Ready);
                    }
                    Request::Lint { .. } if waited(&self.waiting.lint) => {
                        self.waiting.lint = None;
                        *self.lint = Lint {
                            findings: Some(Err(self.config.lang.lint_timeout(seconds))),
                            ..Lint::default()
                        };
                    }
                    _ => {}
                }
            }
        }
        true
    }

    /// Switches to `source`; `false` (and nothing changes but the import panel's message, or a
    /// `.rules` file handed to the worker) when it cannot be read here.
    fn load_source(&mut self, source: Source, fx: &mut Vec<Effect>) -> bool {
        match source {
            Source::Builtin(Preset::Custom) => match presets::parse_custom(&self.course.custom) {
                Ok((table, calls)) => self.load(source, table, calls, None, fx),
                Err(_) => return false,
            },
            Source::Builtin(p) => self.load(source, p.table(), p.calls(), None, fx),
            Source::Lesson(i) => {
                let Some(p) = self
                    .course
                    .lesson
                    .as_ref()
                    .and_then(|l| l.presets.get(i))
                    .cloned()
                else {
                    return false;
                };
                let calls = p.calls.iter().map(|c| c.call.clone()).collect();
                self.load(source, p.table.clone(), calls, Some(Rc::new(p)), fx);
            }
            Source::Import => {
                let format = self.import.format.resolve(&self.import.text);
                if format == Format::Codex && !rules_here() {
                    // The page's wasm has no Starlark: the worker reads the file (and the table
                    // shown meanwhile stays). An offline page has no worker file to start.
                    self.import.summary = None;
                    if !self.config.has_worker() {
                        self.import.error = Some(ImportError::NeedsWorker);
                    } else {
                        self.import.error = None;
                        let request = Request::Import {
                            format: FormatChoice::Is(Format::Codex),
                            text: self.import.text.clone(),
                        };
                        self.waiting.import = Some(request.clone());
                        fx.push(Effect::Ask(request));
                    }
                    return false;
                }
                if self.import.text.trim().is_empty() {
                    self.import.error = Some(ImportError::Empty);
                    self.import.summary = None;
                    return false;
                }
                match import_config_error(self.import.format, &self.import.text) {
                    Ok(imported) => self.load_imported(imported, fx),
                    Err(e) => {
                        self.import.error = Some(ImportError::Read(e));
                        self.import.summary = None;
                        return false;
                    }
                }
            }
        }
        true
    }

    /// An imported config becomes the table, judged natively.
    fn load_imported(&mut self, imported: import::Imported, fx: &mut Vec<Effect>) {
        self.import.summary = Some(ImportSummary {
            format: imported.format,
            imported: imported.rules_imported(),
            dropped: imported.rules_dropped(),
            warnings: imported
                .warnings
                .iter()
                .map(|w| self.config.lang.import_warning(w))
                .collect(),
        });
        self.import.error = None;
        self.ask_lint(imported.format, fx);
        let native = native_of(imported);
        let calls = native.calls.iter().map(|c| c.call.clone()).collect();
        self.load(
            Source::Import,
            native.table.clone(),
            calls,
            Some(Rc::new(native)),
            fx,
        );
    }

    /// Hands the imported text to the worker's linter (the page's wasm has none); an offline
    /// page, which has no worker, says so instead.
    fn ask_lint(&mut self, format: Format, fx: &mut Vec<Effect>) {
        *self.lint = Lint::default();
        self.waiting.lint = None;
        if !self.config.has_worker() {
            self.lint.findings = Some(Err(self.config.lang.s(S::LintNeedsWorker).to_string()));
        } else {
            let request = Request::Lint {
                format,
                text: self.import.text.clone(),
            };
            self.waiting.lint = Some(request.clone());
            fx.push(Effect::Ask(request));
        }
    }

    /// Loads lint finding `i`'s demonstrating call (the imported table is still shown) and
    /// opens the stepper on it, so the learner sees why the engine answers as the finding says.
    fn finding_call(&mut self, i: usize, fx: &mut Vec<Effect>) {
        let Some(Ok(found)) = &self.lint.findings else {
            return;
        };
        let Some(f) = found.get(i) else {
            return;
        };
        // An agent's rules are not in the table (only the top level is imported).
        if self.course.source != Source::Import || f.agent.is_some() {
            return;
        }
        let call = Call::new(f.tool.clone(), f.input.clone());
        fx.push(Effect::Announce(crate::text::lint_text::loaded(
            self.config.lang,
            &call,
        )));
        self.set_call(call);
        self.sync_fields();
        self.panels.stepping = true;
        self.go_step(1);
    }

    /// A new table (preset or pasted): a fresh lab, nothing carried over.
    fn load(
        &mut self,
        source: Source,
        table: RuleTable,
        calls: Vec<Call>,
        native: Option<Rc<Native>>,
        fx: &mut Vec<Effect>,
    ) {
        let first = calls
            .first()
            .cloned()
            .unwrap_or_else(|| Call::new("bash", "ls"));
        self.keep_draft(source);
        *self.carry = Carry::default();
        // The previous table's status (its last reorder's line, a copy result, an open term)
        // says nothing about this one.
        fx.push(Effect::Announce(String::new()));
        self.panels.copied = None;
        self.panels.term = None;
        self.course.calls = calls;
        *self.lab = Lab::new(table, first);
        // New engines (another table, another native config): nothing compiled is reused.
        *self.verdicts = Verdicts::default();
        self.course.source = source;
        self.course.native = native;
        self.course.loads += 1;
        self.recompute();
        self.sync_fields();
        self.take_draft();
    }

    /// A new call: only the evaluations change (the matrix is about the preset's calls).
    fn set_call(&mut self, c: Call) {
        self.lab.set_call(c);
        let native = self.course.native.as_deref();
        self.verdicts
            .judge_call(self.lab.table(), native, self.lab.call());
    }

    /// The fields show the current call (after a change from elsewhere).
    fn sync_fields(&mut self) {
        self.fields.tool = self.lab.call().tool.clone();
        self.fields.input = self.lab.call().input.clone();
        self.fields.started = true;
    }

    fn apply_fields(&mut self) {
        if self.tool_problem().is_none() {
            let c = Call::new(self.fields.tool.clone(), self.fields.input.clone());
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

    /// A new order (or table): every verdict again.
    fn recompute(&mut self) {
        let native = self.course.native.as_deref();
        let (table, call) = (self.lab.table(), self.lab.call());
        self.verdicts
            .judge_all(table, native, call, &self.course.calls);
    }

    /// Applies a reorder and records what the reorder log and the matrix need.
    fn reorder(&mut self, op: Op, fx: &mut Vec<Effect>) -> bool {
        crate::browser::perf::mark_start("pl-reorder");
        let shown = self.shown();
        let native = self.course.native.clone();
        let verdicts = &self.verdicts;
        let judge = move |t: &RuleTable, c: &Call| verdicts.judge(&shown, native.as_deref(), t, c);
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
            let before = std::mem::take(&mut self.verdicts.matrix);
            self.recompute();
            crate::browser::perf::mark_end("pl-reorder");
            fx.push(Effect::Reordered);
            self.verdicts.before = Some(before);
            if self.panels.stepping {
                // New order, new cursor paths: an open stepper starts again at step 1.
                self.go_step(1);
            }
            if !matches!(op, Op::Move(..)) {
                // What happened and which verdicts flipped: the reorder log's newest line.
                let line = self
                    .lab
                    .log()
                    .last()
                    .map(|e| self.config.lang.log_entry(self.lab.table(), e))
                    .unwrap_or_default();
                fx.push(Effect::Announce(line));
            }
        }
        changed
    }

    /// Moves the row at `from` to `to` (0-based), announces it and keeps focus on the moved
    /// row's `focus` control (the grip when that one is disabled at the row's new place).
    fn move_row(&mut self, from: usize, to: usize, focus: Control, fx: &mut Vec<Effect>) {
        let Some(rule) = self.table().rules().get(from).cloned() else {
            return;
        };
        let n = self.table().len();
        if self.reorder(Op::Move(from, to), fx) {
            fx.push(Effect::Announce(self.config.lang.moved(
                &rule,
                from + 1,
                to + 1,
                n,
            )));
        }
        let disabled = (focus == Control::Up && to == 0) || (focus == Control::Down && to + 1 == n);
        let control = if disabled { Control::Grip } else { focus };
        fx.push(Effect::Focus(Focus {
            rule: rule.id,
            control,
        }));
    }

    fn grip_key(&mut self, id: RuleId, key: GripKey, alt: bool, fx: &mut Vec<Effect>) -> bool {
        let Some(p) = self.position(id) else {
            return false;
        };
        let n = self.table().len();
        let lang = self.config.lang;
        let lifted = self.carry.lift.filter(|l| l.id == id);
        match key {
            GripKey::Toggle => match lifted {
                Some(l) => {
                    self.carry.lift = None;
                    if l.to != l.from {
                        self.move_row(l.from, l.to, Control::Grip, fx);
                    } else {
                        fx.push(Effect::Announce(lang.s(S::Dropped).to_string()));
                    }
                }
                None => {
                    self.carry.lift = Some(Lift { id, from: p, to: p });
                    if let Some(r) = self.table().rules().get(p) {
                        fx.push(Effect::Announce(lang.lifted(r, p + 1, n)));
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
                    self.carry.lift = Some(Lift { to, ..l });
                    fx.push(Effect::Announce(lang.target(to + 1, n)));
                } else if alt {
                    let to = if down { p + 1 } else { p.wrapping_sub(1) };
                    if to < n {
                        self.move_row(p, to, Control::Grip, fx);
                    }
                } else {
                    return false;
                }
            }
            GripKey::Cancel if lifted.is_some() => {
                self.carry.lift = None;
                fx.push(Effect::Announce(lang.s(S::Cancelled).to_string()));
            }
            GripKey::Cancel => return false,
        }
        true
    }
}

#[derive(Clone, Copy)]
enum Op {
    Move(usize, usize),
    Reverse,
    Undo,
    Reset,
}
