//! One widget instance as plain Rust: what the learner sees ([`Widget`]) and what each of their
//! actions does to it ([`Widget::act`]). No DOM here: [`crate::dom`] turns clicks and keys into
//! [`Msg`]s and [`crate::view`] turns the widget into HTML, so everything between is tested
//! natively. Every verdict comes from [`compute`] (the core's engines).

use permlab_core::{Call, Decision, EngineId, Evaluation, RuleId, RuleTable};

use crate::compute;
use crate::i18n::{Lang, S};
use crate::persist::Snapshot;
use crate::presets::{self, Preset};
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

/// One engine's self-check result: sections (name, passed, total) or why it could not run.
pub type CheckResult = (String, Result<Vec<(String, usize, usize)>, String>);

/// What a learner did, as the widget understands it.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A preset button.
    Preset(Preset),
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
    /// A key on a grip: `(rule, key, alt)`.
    GripKey(RuleId, String, bool),
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
    /// The table editor opened or closed.
    Editor(bool),
    /// The table editor's text changed.
    EditTable(String),
    /// Apply the table editor's text.
    Apply,
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
    /// The rule set shown.
    pub preset: Preset,
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
    /// The call fields' text as typed (the call itself changes only when valid).
    pub tool_text: String,
    /// See `tool_text`.
    pub input_text: String,
    /// Bumped when the call changes from elsewhere: the fields are rewritten only then, so
    /// typing never loses the caret.
    pub call_rev: u32,
    /// The table editor's text.
    pub editor_text: String,
    /// Bumped when the editor's text is replaced from elsewhere.
    pub editor_rev: u32,
    /// Why the editor's text was not applied.
    pub editor_error: Option<String>,
    /// Self-check results so far.
    pub checks: Vec<CheckResult>,
    /// The self-check is running.
    pub checking: bool,
    /// Bumped whenever the table is replaced or reordered (the rules region's key).
    pub table_rev: u32,
    /// The focus key (`data-k`) to focus after the next render.
    pub focus: Option<String>,
    /// A reorder's verdicts were measured (`pl-reorder`); the page measures the next frame.
    pub reorder_marked: bool,
}

impl Widget {
    /// A widget as `config` and the URL hash `hash` say.
    pub fn new(config: Config, hash: &str) -> Widget {
        let snap = Snapshot::from_entries(&crate::hash::read(hash, &config.ns));
        let (preset, custom, table, calls) = initial(&config, &snap);
        let first = calls
            .first()
            .cloned()
            .unwrap_or_else(|| Call::new("bash", "ls"));
        let mut lab = Lab::new(table, first);
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
        let mut w = Widget {
            lang: config.lang,
            config,
            lab,
            preset,
            calls,
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
            tool_text: String::new(),
            input_text: String::new(),
            call_rev: 0,
            editor_text: String::new(),
            editor_rev: 0,
            editor_error: None,
            checks: Vec::new(),
            checking: false,
            table_rev: 0,
            focus: None,
            reorder_marked: false,
        };
        w.recompute();
        w.sync_fields();
        let total = w.total_steps();
        w.lab.set_step(snap.step, total);
        w
    }

    /// The table in its current order.
    pub fn table(&self) -> &RuleTable {
        self.lab.table()
    }

    /// The engines with guess panels.
    pub fn shown(&self) -> Vec<EngineId> {
        self.preset.engines(self.codex)
    }

    /// The engines that draw a cursor in the stepper.
    pub fn cursor_engines(&self) -> Vec<EngineId> {
        let mut v = vec![
            EngineId::FirstMatch,
            EngineId::OpenCode,
            EngineId::ClaudeCode,
        ];
        if self.codex {
            v.push(EngineId::Codex);
        }
        v
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
            .filter(|e| self.lab.is_revealed(**e))
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

    /// The URL-hash snapshot of this state.
    pub fn snapshot(&self) -> Snapshot {
        let l = &self.lab;
        Snapshot {
            preset: Some(self.preset.slug().to_string()),
            custom: (self.preset == Preset::Custom)
                .then(|| self.custom.clone())
                .filter(|c| c.len() <= 8_000),
            order: (l.is_reordered() && l.table().len() <= 500).then(|| l.order()),
            call: (self.calls.first() != Some(l.call())).then(|| l.call().clone()),
            guesses: l.guesses().map(|(e, g, _)| (e, g)).collect(),
            revealed: l.guesses().filter(|g| g.2).map(|g| g.0).collect(),
            stepping: self.stepping,
            step: l.step(),
            codex: self.codex,
        }
    }

    /// Applies one learner action. Returns `false` when a key was not for the widget (the
    /// browser keeps its default).
    pub fn act(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::Preset(p) => {
                let (table, calls) = if p == Preset::Custom {
                    match presets::parse_custom(&self.custom) {
                        Ok(x) => x,
                        Err(_) => return true,
                    }
                } else {
                    (p.table(), p.calls())
                };
                self.load(p, table, calls);
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
                let key = if down { "down" } else { "up" };
                if down && p + 1 < n {
                    self.move_row(p, p + 1, key);
                } else if !down && p > 0 {
                    self.move_row(p, p - 1, key);
                }
            }
            Msg::GripKey(id, key, alt) => return self.grip_key(id, &key, alt),
            Msg::Drop(from, to) => self.move_row(from, to, "grip"),
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
            Msg::Editor(open) => {
                if open && self.editor_text.is_empty() {
                    self.editor_text = self.table().to_json();
                    self.editor_rev += 1;
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
                        self.load(Preset::Custom, table, calls);
                    }
                    Err(e) => self.editor_error = Some(e),
                }
            }
        }
        true
    }

    /// A new table (preset or pasted): a fresh lab, nothing carried over.
    fn load(&mut self, preset: Preset, table: RuleTable, calls: Vec<Call>) {
        let first = calls
            .first()
            .cloned()
            .unwrap_or_else(|| Call::new("bash", "ls"));
        self.lift = None;
        self.drag = None;
        self.prev_matrix = None;
        self.calls = calls;
        self.lab = Lab::new(table, first);
        self.preset = preset;
        self.table_rev += 1;
        self.recompute();
        self.sync_fields();
    }

    fn set_call(&mut self, c: Call) {
        self.lab.set_call(c);
        self.recompute();
    }

    /// The fields show the current call (after a change from elsewhere).
    fn sync_fields(&mut self) {
        self.tool_text = self.lab.call().tool.clone();
        self.input_text = self.lab.call().input.clone();
        self.call_rev += 1;
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
        self.evals = compute::evaluate_all(self.lab.table(), self.lab.call());
        self.matrix = compute::matrix(self.lab.table(), &self.calls);
    }

    /// Applies a reorder and records what the reorder log and the matrix need.
    fn reorder(&mut self, op: Op) -> bool {
        crate::web::mark_start("pl-reorder");
        let shown = self.shown();
        let judge = move |t: &RuleTable, c: &Call| compute::judge(&shown, t, c);
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
            self.table_rev += 1;
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
    /// row's `focus` control (`grip`, `up` or `down`; the grip when that one is disabled).
    fn move_row(&mut self, from: usize, to: usize, focus: &str) {
        let Some(rule) = self.table().rules().get(from).cloned() else {
            return;
        };
        let n = self.table().len();
        if self.reorder(Op::Move(from, to)) {
            self.announce = self.lang.moved(&rule, from + 1, to + 1, n);
        }
        let disabled = (focus == "up" && to == 0) || (focus == "down" && to + 1 == n);
        let focus = if disabled { "grip" } else { focus };
        self.focus = Some(format!("{focus}-{}", rule.id.0));
    }

    fn grip_key(&mut self, id: RuleId, key: &str, alt: bool) -> bool {
        let Some(p) = self.position(id) else {
            return false;
        };
        let n = self.table().len();
        let lang = self.lang;
        let lifted = self.lift.filter(|l| l.id == id);
        match key {
            " " | "Enter" | "Spacebar" => match lifted {
                Some(l) => {
                    self.lift = None;
                    if l.to != l.from {
                        self.move_row(l.from, l.to, "grip");
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
            "ArrowUp" | "ArrowDown" | "Up" | "Down" => {
                let down = key.ends_with("Down");
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
                        self.move_row(p, to, "grip");
                    }
                } else {
                    return false;
                }
            }
            "Escape" | "Esc" if lifted.is_some() => {
                self.lift = None;
                self.announce = lang.s(S::Cancelled).to_string();
            }
            _ => return false,
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

fn initial(config: &Config, snap: &Snapshot) -> (Preset, String, RuleTable, Vec<Call>) {
    let mut preset = snap
        .preset
        .as_deref()
        .and_then(Preset::from_slug)
        .unwrap_or(if config.lesson.is_some() {
            Preset::Custom
        } else {
            Preset::Miniagent
        });
    let custom_text = snap
        .custom
        .clone()
        .or_else(|| config.lesson.clone())
        .unwrap_or_else(|| Preset::Miniagent.table().to_json());
    if preset == Preset::Custom {
        if let Ok((t, c)) = presets::parse_custom(&custom_text) {
            return (preset, custom_text, t, c);
        }
        preset = Preset::Miniagent;
    }
    (preset, custom_text, preset.table(), preset.calls())
}

/// Reads one self-check worker message (see `src/bin/selfcheck.rs`).
pub fn parse_check(text: &str) -> CheckResult {
    use permlab_core::json::{self, Value};
    let Ok(v) = json::parse(text) else {
        return ("?".into(), Err(text.to_string()));
    };
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    if v.get("ok").and_then(Value::as_bool) != Some(true) {
        let e = v
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        return (name, Err(e));
    }
    let sections = v
        .get("sections")
        .and_then(Value::as_array)
        .unwrap_or(&[])
        .iter()
        .filter_map(|s| {
            let s = s.as_array()?;
            Some((
                s.first()?.as_str()?.to_string(),
                s.get(1)?.as_f64()? as usize,
                s.get(2)?.as_f64()? as usize,
            ))
        })
        .collect();
    (name, Ok(sections))
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
        assert!(w.act(Msg::GripKey(id, " ".into(), false)));
        assert!(w.announce.contains("#8"), "{}", w.announce);
        w.act(Msg::GripKey(id, "ArrowDown".into(), false));
        w.act(Msg::GripKey(id, "ArrowDown".into(), false));
        assert_eq!(w.target(), Some((7, 9)));
        w.act(Msg::GripKey(id, "Enter".into(), false));
        assert_eq!(ids(&w), [1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
        assert!(w.announce.contains("10"), "{}", w.announce);
        assert_eq!(w.focus.as_deref(), Some("grip-8"));
        assert_eq!(w.lab.log().len(), 1);
        // The matrix remembers the verdicts before the move, for the changed-cell marks.
        assert!(w.prev_matrix.as_ref().is_some_and(|p| *p != w.matrix));
    }

    #[test]
    fn plain_arrows_without_a_lift_are_left_to_the_browser() {
        let mut w = widget("");
        assert!(!w.act(Msg::GripKey(RuleId(3), "ArrowDown".into(), false)));
        assert!(w.act(Msg::GripKey(RuleId(3), "ArrowDown".into(), true)));
        assert_eq!(ids(&w)[..4], [1, 2, 4, 3]);
    }

    #[test]
    fn moving_to_the_edge_focuses_the_grip_not_a_disabled_button() {
        let mut w = widget("");
        w.act(Msg::Step(RuleId(9), true));
        assert_eq!(w.focus.as_deref(), Some("grip-9"));
        w.act(Msg::Step(RuleId(2), false));
        assert_eq!(w.focus.as_deref(), Some("grip-2"));
        w.act(Msg::Step(RuleId(5), true));
        assert_eq!(w.focus.as_deref(), Some("down-5"));
    }

    #[test]
    fn typing_an_invalid_tool_keeps_the_last_valid_call() {
        let mut w = widget("");
        let before = w.lab.call().clone();
        let rev = w.call_rev;
        w.act(Msg::EditTool("two words".into()));
        assert!(w.tool_problem().is_some());
        assert_eq!(w.lab.call(), &before);
        w.act(Msg::EditTool("read_file".into()));
        assert_eq!(w.lab.call().tool, "read_file");
        // Typing never rewrites the fields under the caret.
        assert_eq!(w.call_rev, rev);
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
