//! # A lesson's tasks: "try three things", each with a check the widget can evaluate
//!
//! A lesson's `tasks` are the steps its text asks the learner to do ("guess, then reveal",
//! "open the stepper", "move #8 to the end"). Each one carries a text and a `check`: a
//! condition on what the learner has done, so the widget can show the tasks next to the table
//! and tick each one off. The condition is evaluated here, on a plain [`TaskState`] the widget
//! fills in, so the widget never decides for itself what "done" means.
//!
//! ```
//! use permlab_core::lesson::Lesson;
//! use permlab_core::tasks::TaskState;
//! use permlab_core::{EngineId, RuleId};
//! let l = Lesson::parse(r#"{"title": "t", "language": "en", "mode": "quiz",
//!   "engines": ["first-match", "opencode"],
//!   "presets": [{"id": "p", "rules": [{"tool": "bash", "pattern": "*", "action": "deny"},
//!                                     {"tool": "bash", "pattern": "ls", "action": "allow"}],
//!                "calls": [{"tool": "bash", "input": "ls"}]}],
//!   "tasks": [{"text": "Move #1 last", "check": {"last": 1}},
//!             {"text": "Reveal OpenCode", "check": {"revealed": ["opencode"]}},
//!             {"text": "Reverse, then reveal", "check": {"reversed": 1, "revealed": ["opencode"]}}]}"#)
//! .lesson
//! .unwrap();
//! let order = [RuleId(2), RuleId(1)];
//! let s = TaskState { preset: "p", revealed: &[], stepper_end: false, order: &order, reverses: 0 };
//! assert!(l.tasks[0].check.done(&s));
//! assert!(!l.tasks[1].check.done(&s));
//! let s = TaskState { revealed: &[EngineId::OpenCode], ..s };
//! assert!(l.tasks[1].check.done(&s));
//! // Two conditions: both must hold.
//! assert!(!l.tasks[2].check.done(&s));
//! assert!(l.tasks[2].check.done(&TaskState { reverses: 1, ..s }));
//! ```

use super::Text;
use crate::evaluation::EngineId;
use crate::table::RuleId;

/// One task of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// What the learner is asked to do.
    pub text: Text,
    /// When it counts as done.
    pub check: TaskCheck,
}

/// What has to be true for a task to be done: every one of its conditions (`{"reversed": 1,
/// "revealed": ["opencode"]}`: reversed, and OpenCode's verdict revealed — "look at the verdict
/// after the reverse" is two things). A check may name a preset (`"preset": "aws"`): then it
/// counts only while that preset is the table shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskCheck {
    /// The preset the check is about, if any (its `id`).
    pub preset: Option<String>,
    /// The conditions (at least one), all of which must hold.
    pub all: Vec<CheckKind>,
}

/// The conditions a task can check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// `{"revealed": ["first-match", "opencode"]}`: each engine's verdict is revealed.
    Revealed(Vec<EngineId>),
    /// `{"stepped": "last"}`: the stepper was walked to its last step.
    SteppedToEnd,
    /// `{"last": 8}`: the rule with this lesson number is the table's last row.
    Last(RuleId),
    /// `{"reversed": 1}`: the whole table was reversed at least this many times.
    Reversed(usize),
}

/// What the learner has done, as the widget knows it (all borrowed, nothing computed).
#[derive(Clone, Copy, Debug)]
pub struct TaskState<'a> {
    /// The id of the preset shown (empty for a table that is not a lesson preset).
    pub preset: &'a str,
    /// Engines whose verdict for the current call is revealed.
    pub revealed: &'a [EngineId],
    /// The stepper is open at its last step.
    pub stepper_end: bool,
    /// The rule ids in their current order.
    pub order: &'a [RuleId],
    /// How many whole-table reversals the reorder log holds for this table.
    pub reverses: usize,
}

impl TaskCheck {
    /// Whether the condition holds in `s`.
    pub fn done(&self, s: &TaskState<'_>) -> bool {
        if self.preset.as_deref().is_some_and(|p| p != s.preset) {
            return false;
        }
        self.all.iter().all(|kind| kind.holds(s))
    }
}

impl CheckKind {
    /// Whether this one condition holds in `s`.
    fn holds(&self, s: &TaskState<'_>) -> bool {
        match self {
            CheckKind::Revealed(es) => es.iter().all(|e| s.revealed.contains(e)),
            CheckKind::SteppedToEnd => s.stepper_end,
            CheckKind::Last(id) => s.order.last() == Some(id),
            CheckKind::Reversed(n) => s.reverses >= *n,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lesson::Lesson;

    fn lesson(tasks: &str) -> Vec<String> {
        let text = format!(
            r#"{{"title": "t", "language": "en", "mode": "quiz", "engines": ["first-match", "opencode"],
              "presets": [{{"id": "p", "rules": [{{"tool": "bash", "pattern": "*", "action": "deny"}}],
                           "calls": [{{"tool": "bash", "input": "ls"}}]}}],
              "tasks": {tasks}}}"#
        );
        Lesson::parse(&text)
            .problems
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn good_tasks_read() {
        let p = lesson(
            r#"[{"text": {"zh": "揭示", "en": "Reveal"}, "check": {"revealed": ["opencode"], "preset": "p"}},
                {"text": "step", "check": {"stepped": "last"}},
                {"text": "last", "check": {"last": 1}},
                {"text": "rev", "check": {"reversed": 1}},
                {"text": "both", "check": {"reversed": 1, "revealed": ["opencode"], "preset": "p"}}]"#,
        );
        assert!(p.is_empty(), "{p:?}");
    }

    #[test]
    fn bad_tasks_are_reported_with_paths() {
        let p = lesson(
            r#"[{"text": "a", "check": {"revealed": ["claude-code"]}},
                {"text": "b", "check": {"last": 9}},
                {"text": "c", "check": {"reversed": 1, "preset": "nope"}},
                {"text": "d", "check": {"stepped": "first"}},
                {"check": {"preset": "p"}},
                {"text": "e", "check": {"flipped": 1}},
                {"text": "f", "check": {"last": 9, "reversed": 0}}]"#,
        );
        let has = |path: &str, word: &str| p.iter().any(|m| m.contains(path) && m.contains(word));
        assert!(has("tasks[0].check.revealed[0]", "does not show"), "{p:?}");
        assert!(has("tasks[1].check.last", "no rule #9"), "{p:?}");
        assert!(has("tasks[2].check.preset", "no preset"), "{p:?}");
        assert!(has("tasks[3].check.stepped", "\"last\""), "{p:?}");
        assert!(has("tasks[4].text", "missing"), "{p:?}");
        assert!(has("tasks[4].check", "at least one condition"), "{p:?}");
        assert!(has("tasks[5].check.flipped", "unknown key"), "{p:?}");
        // Each condition of a check is read, and each says where it is wrong.
        assert!(has("tasks[6].check.last", "no rule #9"), "{p:?}");
        assert!(has("tasks[6].check.reversed", "whole number"), "{p:?}");
        assert!(lesson("{}")
            .iter()
            .any(|m| m.contains("expected an array of tasks")));
    }
}
