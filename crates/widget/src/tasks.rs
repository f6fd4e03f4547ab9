//! The lesson's tasks as the widget tracks them: what the learner has done ([`Facts`], read
//! from the widget by the model) goes to the core's checks ([`permlab_core::tasks`]), and a
//! task once done stays ticked ([`progress`]) — moving #8 back up after moving it down does not
//! undo "moved #8 to the end".

use permlab_core::tasks::TaskState;
use permlab_core::{EngineId, RuleId};

use permlab_core::lesson::Lesson;

/// The owned parts of a [`TaskState`] (so it can be borrowed).
pub struct Facts {
    /// The lesson preset shown (empty: another table).
    pub preset: String,
    /// The engines revealed.
    pub revealed: Vec<EngineId>,
    /// The stepper was walked to its end, every cursor revealed.
    pub stepper_end: bool,
    /// The table's order.
    pub order: Vec<RuleId>,
    /// How many times the whole table was reversed.
    pub reverses: usize,
}

impl Facts {
    /// The core's view of these facts.
    pub fn state(&self) -> TaskState<'_> {
        TaskState {
            preset: &self.preset,
            revealed: &self.revealed,
            stepper_end: self.stepper_end,
            order: &self.order,
            reverses: self.reverses,
        }
    }
}

/// Each task of `lesson`'s tick: done before (`prev`), or done now by `facts`.
pub fn progress(lesson: &Lesson, facts: &Facts, prev: &[bool]) -> Vec<bool> {
    let s = facts.state();
    lesson
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| prev.get(i).copied().unwrap_or(false) || t.check.done(&s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Widget;

    fn ticks(w: &Widget, prev: &[bool]) -> Vec<bool> {
        progress(w.course().lesson.as_ref().unwrap(), &w.task_facts(), prev)
    }
    use crate::model::{Config, Msg};
    use crate::state::Guess;
    use crate::text::i18n::Lang;

    /// Seed 000's first "try three things" box, as the demo page's lesson carries it.
    const LESSON: &str = r#"{"title": "t", "language": "zh", "mode": "quiz",
      "engines": ["first-match", "opencode"],
      "presets": [{"id": "m", "rules": [
          {"tool": "read_file", "pattern": "*", "action": "allow"},
          {"tool": "bash", "pattern": "*", "action": "deny"},
          {"tool": "bash", "pattern": "python -m unittest*", "action": "allow"},
          {"tool": "edit_file", "pattern": "*", "action": "allow"}],
        "calls": [{"tool": "bash", "input": "python -m unittest -v t.py"}]},
        {"id": "b", "texts": {"question": {"zh": "第二个问题", "en": "Second question"}},
         "rules": [{"tool": "bash", "pattern": "*", "action": "ask"},
                   {"tool": "bash", "pattern": "ls", "action": "allow"}],
         "calls": [{"tool": "bash", "input": "ls"}]}],
      "texts": {"question": {"zh": "第一个问题", "en": "First question"}},
      "tasks": [
        {"text": "reveal both", "check": {"revealed": ["first-match", "opencode"]}},
        {"text": "step to the end", "check": {"stepped": "last"}},
        {"text": "move #1 last", "check": {"last": 1, "preset": "m"}},
        {"text": "reverse b", "check": {"reversed": 1, "preset": "b"}},
        {"text": "reverse b, then read its verdict", "check": {"reversed": 1, "revealed": ["opencode"], "preset": "b"}}]}"#;

    fn widget() -> Widget {
        Widget::new(
            Config {
                lang: Lang::Zh,
                ns: "t".into(),
                fixtures: "conformance/".into(),
                selfcheck: "selfcheck-loader.js".into(),
                lesson_from: None,
                lesson: Some(LESSON.into()),
            },
            "",
        )
    }

    #[test]
    fn tasks_tick_as_the_learner_does_them_and_stay_ticked() {
        let mut w = widget();
        let mut p = ticks(&w, &[]);
        assert_eq!(p, [false; 5]);
        for e in [EngineId::FirstMatch, EngineId::OpenCode] {
            w.act(Msg::Guess(e, Guess::Skip));
            w.act(Msg::Reveal(e));
            p = ticks(&w, &p);
        }
        assert_eq!(p, [true, false, false, false, false]);
        w.act(Msg::ToggleStepper);
        p = ticks(&w, &p);
        assert!(!p[1], "step 1 is not the end");
        w.act(Msg::StepBy(2));
        p = ticks(&w, &p);
        assert!(p[1]);
        for _ in 0..2 {
            w.act(Msg::Step(RuleId(1), true));
            p = ticks(&w, &p);
            assert!(!p[2], "#1 is not last yet");
        }
        w.act(Msg::Step(RuleId(1), true));
        p = ticks(&w, &p);
        assert!(p[2]);
        // Moving it back keeps the tick; a reversal of the wrong preset does not count.
        w.act(Msg::Step(RuleId(1), false));
        w.act(Msg::Reverse);
        p = ticks(&w, &p);
        assert_eq!(p, [true, true, true, false, false]);
        let b = w.source_of("l-b").unwrap();
        w.act(Msg::Source(b));
        w.act(Msg::Reverse);
        p = ticks(&w, &p);
        assert_eq!(
            p,
            [true, true, true, true, false],
            "reversed, but b's verdict is not revealed yet"
        );
        w.act(Msg::Guess(EngineId::OpenCode, Guess::Skip));
        w.act(Msg::Reveal(EngineId::OpenCode));
        p = ticks(&w, &p);
        assert_eq!(p, [true; 5]);
    }

    #[test]
    fn stepping_to_the_end_before_the_reveals_does_not_tick_the_stepper_task() {
        let mut w = widget();
        w.act(Msg::ToggleStepper);
        w.act(Msg::StepBy(2));
        let p = ticks(&w, &[]);
        assert!(
            !p[1],
            "the walk was blind: nothing seen of where each stops"
        );
        for e in [EngineId::FirstMatch, EngineId::OpenCode] {
            w.act(Msg::Guess(e, Guess::Skip));
            w.act(Msg::Reveal(e));
        }
        w.act(Msg::StepBy(2));
        assert!(ticks(&w, &p)[1]);
    }

    #[test]
    fn a_preset_asks_its_own_question_and_a_switch_clears_the_status_line() {
        let mut w = widget();
        assert_eq!(w.lesson_text("question").as_deref(), Some("第一个问题"));
        let reversed = w.act(Msg::Reverse);
        assert!(!reversed.announced().unwrap_or("").is_empty());
        let b = w.source_of("l-b").unwrap();
        let switched = w.act(Msg::Source(b));
        assert_eq!(w.lesson_text("question").as_deref(), Some("第二个问题"));
        assert_eq!(
            switched.announced(),
            Some(""),
            "the first preset's reorder line is gone"
        );
        let m = w.source_of("l-m").unwrap();
        w.act(Msg::Source(m));
        assert_eq!(w.lesson_text("question").as_deref(), Some("第一个问题"));
    }
}
