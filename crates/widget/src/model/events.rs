//! What the host page hears: the `permlab:*` events, made from an action's [`Effect`]s.
//!
//! Plain data (serialised to the event's `detail` in the browser, see `api`), so what a course
//! platform receives is tested natively. Every event about a question names it the same way —
//! the widget, the lesson, the preset, the call (its place in the preset's calls, from 1) and
//! the engine — and says which attempt at it this is; the README's "Progress events" section
//! is the reference.

use serde::Serialize;

use super::record::{Item, Score};
use super::{Effect, Source, Widget};
use crate::persist::guess_str;
use crate::state::Change;

/// A call as the host hears it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallRef {
    /// Its place among the preset's calls, from 1 (`null`: a call the learner typed).
    pub index: Option<usize>,
    /// The tool.
    pub tool: String,
    /// The input.
    pub input: String,
}

/// Where an event happened: the widget, its lesson, the preset and the call.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    /// The placeholder's id (the widget's name on its page).
    pub widget: String,
    /// The lesson's `id`, else the placeholder's id.
    pub lesson: String,
    /// The preset shown: a lesson preset's id, or a built-in rule set's name (`git`,
    /// `miniagent`, `aws`, `custom`, `import`).
    pub preset: String,
    /// The call being judged.
    pub call: CallRef,
}

/// A quiz's score as the host hears it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoreOut {
    /// Points earned: questions answered right the first time.
    pub raw: u32,
    /// Points possible: one per engine per call of the lesson.
    pub max: u32,
    /// `raw / max`, 0 to 1.
    pub scaled: f64,
}

impl From<Score> for ScoreOut {
    fn from(s: Score) -> Self {
        ScoreOut {
            raw: s.raw,
            max: s.max,
            scaled: s.scaled(),
        }
    }
}

/// One `permlab:*` event: its name is [`HostEvent::name`], its `detail` the variant's fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum HostEvent {
    /// `permlab:ready`: the widget is mounted (its lesson read, or why it could not be).
    Ready {
        /// The placeholder's id.
        widget: String,
        /// The lesson's id (else the placeholder's), `null` without a lesson.
        lesson: Option<String>,
        /// The lesson's title in the widget's language.
        title: Option<String>,
        /// `quiz`, `explore`, or `null` without a lesson.
        mode: Option<&'static str>,
        /// Whether the host's lesson (if any) could be used.
        valid: bool,
        /// Why not: each problem with where it is, in the widget's language.
        problems: Vec<String>,
        /// How many questions a quiz scores (its `score.max`); 0 otherwise.
        questions: usize,
        /// The preset shown.
        preset: String,
    },
    /// `permlab:guess`: a guess for an engine not revealed yet.
    Guess {
        /// Where.
        #[serde(flatten)]
        place: Place,
        /// The engine.
        engine: &'static str,
        /// `allow`, `ask`, `deny`, `unavailable` or `skip` ("just show me").
        guess: &'static str,
        /// The attempt this guess is for (1: the first time this question is asked).
        attempt: u32,
    },
    /// `permlab:reveal`: an engine's verdict shown after a guess.
    Reveal {
        /// Where.
        #[serde(flatten)]
        place: Place,
        /// The engine.
        engine: &'static str,
        /// The guess.
        guess: &'static str,
        /// The engine's verdict.
        verdict: &'static str,
        /// Whether the guess was the verdict (`false` for `skip`).
        correct: bool,
        /// Which attempt at this question (a reorder or "try again" asks it again).
        attempt: u32,
    },
    /// `permlab:answer`: the same reveal as a gradebook's answer (xAPI "answered").
    Answer {
        /// Where.
        #[serde(flatten)]
        place: Place,
        /// The engine.
        engine: &'static str,
        /// The learner's response.
        guess: &'static str,
        /// The author's `expect` for this call and engine, when there is one and the table
        /// is in the lesson's order (it was written for that order).
        expected: Option<&'static str>,
        /// The engine's verdict (what the widget shows and grades against).
        verdict: &'static str,
        /// Whether the guess was the verdict.
        correct: bool,
        /// Which attempt.
        attempt: u32,
        /// Whether this answer counts toward the quiz's score (a quiz question's first).
        scored: bool,
    },
    /// `permlab:reorder`: the table was reordered.
    Reorder {
        /// Where.
        #[serde(flatten)]
        place: Place,
        /// `move`, `reverse`, `undo` or `reset`.
        change: &'static str,
        /// Where the moved rule was (from 1; `null` but for a move).
        from: Option<usize>,
        /// Where it went.
        to: Option<usize>,
        /// The engines whose verdict for the call flipped.
        flipped: Vec<&'static str>,
    },
    /// `permlab:complete`: every question of a quiz answered (once per record).
    Complete {
        /// The placeholder's id.
        widget: String,
        /// The lesson's id, else the placeholder's.
        lesson: String,
        /// How many calls the lesson has (over its presets).
        calls: usize,
        /// How many engines each call is asked of.
        engines: usize,
        /// The score: a point per question answered right the first time.
        score: ScoreOut,
        /// Whether `score.scaled` reaches the lesson's `passing`.
        passed: bool,
        /// The share that passes (the lesson's `passing`, default 0.5).
        passing: f64,
    },
}

impl HostEvent {
    /// The event's name.
    pub fn name(&self) -> &'static str {
        match self {
            HostEvent::Ready { .. } => "permlab:ready",
            HostEvent::Guess { .. } => "permlab:guess",
            HostEvent::Reveal { .. } => "permlab:reveal",
            HostEvent::Answer { .. } => "permlab:answer",
            HostEvent::Reorder { .. } => "permlab:reorder",
            HostEvent::Complete { .. } => "permlab:complete",
        }
    }
}

impl Widget {
    /// What the host hears about an action's effects, in order.
    pub fn events(&self, effects: &[Effect]) -> Vec<HostEvent> {
        let mut out = Vec::new();
        for effect in effects {
            match effect {
                Effect::Ready => out.push(self.ready()),
                Effect::Guessed(e, g) => out.push(HostEvent::Guess {
                    place: self.place(),
                    engine: e.slug(),
                    guess: guess_str(*g),
                    attempt: self.progress.record.attempts(&self.item(*e)) + 1,
                }),
                Effect::Revealed(e, answered) => {
                    let verdict = self.eval(*e).map(|v| v.decision);
                    let guess = self.lab.guess(*e).map_or("skip", guess_str);
                    let verdict = verdict.map_or("ask", |d| d.as_str());
                    out.push(HostEvent::Reveal {
                        place: self.place(),
                        engine: e.slug(),
                        guess,
                        verdict,
                        correct: answered.correct,
                        attempt: answered.attempt,
                    });
                    out.push(HostEvent::Answer {
                        place: self.place(),
                        engine: e.slug(),
                        guess,
                        expected: self.expected(*e),
                        verdict,
                        correct: answered.correct,
                        attempt: answered.attempt,
                        scored: answered.attempt == 1 && self.questions().contains(&self.item(*e)),
                    });
                }
                Effect::Logged => {
                    if let Some(entry) = self.lab.log().last() {
                        let (change, from, to) = match entry.change {
                            Change::Move { from, to, .. } => ("move", Some(from), Some(to)),
                            Change::Reverse => ("reverse", None, None),
                            Change::Undo => ("undo", None, None),
                            Change::Reset => ("reset", None, None),
                        };
                        out.push(HostEvent::Reorder {
                            place: self.place(),
                            change,
                            from,
                            to,
                            flipped: entry.flipped.iter().map(|f| f.engine.slug()).collect(),
                        });
                    }
                }
                Effect::Completed(score) => {
                    let passing = self.passing();
                    let calls = self.lesson_calls();
                    out.push(HostEvent::Complete {
                        widget: self.config.ns.clone(),
                        lesson: self.lesson_id(),
                        calls,
                        engines: self.base_engines().len(),
                        score: (*score).into(),
                        passed: score.scaled() >= passing,
                        passing,
                    });
                }
                _ => {}
            }
        }
        out
    }

    /// `permlab:ready`'s detail.
    fn ready(&self) -> HostEvent {
        let lesson = self.course.lesson.as_ref();
        let has_lesson = lesson.is_some() || self.course.lesson_error.is_some();
        let mode = lesson.map(|l| match l.mode {
            permlab_core::lesson::LessonMode::Quiz => "quiz",
            permlab_core::lesson::LessonMode::Explore => "explore",
        });
        HostEvent::Ready {
            widget: self.config.ns.clone(),
            lesson: has_lesson.then(|| self.lesson_id()),
            title: lesson.map(|_| self.title()),
            mode,
            valid: self.course.lesson_error.is_none(),
            problems: self
                .course
                .lesson_error
                .as_ref()
                .map(|e| e.lines(self.config.lang).1)
                .unwrap_or_default(),
            questions: if lesson.is_some_and(|l| l.mode == permlab_core::lesson::LessonMode::Quiz) {
                self.questions().len()
            } else {
                0
            },
            preset: self.preset_id(),
        }
    }

    /// The lesson's own id, else the placeholder's.
    fn lesson_id(&self) -> String {
        self.course
            .lesson
            .as_ref()
            .and_then(|l| l.id.clone())
            .unwrap_or_else(|| self.config.ns.clone())
    }

    /// Where the learner is: the widget, lesson, preset and call.
    fn place(&self) -> Place {
        let call = self.lab.call();
        Place {
            widget: self.config.ns.clone(),
            lesson: self.lesson_id(),
            preset: self.preset_id(),
            call: CallRef {
                index: self
                    .course
                    .calls
                    .iter()
                    .position(|c| c == call)
                    .map(|i| i + 1),
                tool: call.tool.clone(),
                input: call.input.clone(),
            },
        }
    }

    /// The author's answer for `engine` on the current call, while the table is in the
    /// lesson's order.
    fn expected(&self, engine: permlab_core::EngineId) -> Option<&'static str> {
        if self.lab.is_reordered() {
            return None;
        }
        let preset = self.course.native.as_ref()?;
        let call = preset.calls.iter().find(|c| &c.call == self.lab.call())?;
        call.expect
            .iter()
            .find(|(e, _)| *e == engine)
            .map(|(_, d)| d.as_str())
    }

    /// How many calls the lesson asks about, over its presets.
    fn lesson_calls(&self) -> usize {
        self.course
            .lesson
            .as_ref()
            .map_or(0, |l| l.presets.iter().map(|p| p.calls.len()).sum())
    }

    /// The share of points that passes the lesson.
    fn passing(&self) -> f64 {
        self.course
            .lesson
            .as_ref()
            .map_or(permlab_core::lesson::DEFAULT_PASSING, |l| l.passing)
    }

    /// The question "`engine` on the current call, in this preset".
    pub(crate) fn item(&self, engine: permlab_core::EngineId) -> Item {
        let call = self.lab.call();
        Item {
            preset: self.preset_id(),
            tool: call.tool.clone(),
            input: call.input.clone(),
            engine,
        }
    }

    /// Every question a quiz scores: each lesson engine on each call of each preset (a call
    /// written twice in a preset is one question).
    pub fn questions(&self) -> Vec<Item> {
        let Some(l) = self.course.lesson.as_ref() else {
            return Vec::new();
        };
        let mut items = std::collections::BTreeSet::new();
        for p in &l.presets {
            for c in &p.calls {
                for e in &l.engines {
                    items.insert(Item {
                        preset: p.id.clone(),
                        tool: c.call.tool.clone(),
                        input: c.call.input.clone(),
                        engine: *e,
                    });
                }
            }
        }
        items.into_iter().collect()
    }

    /// The preset shown, as the host names it.
    pub fn preset_id(&self) -> String {
        match (self.course.source, &self.course.lesson) {
            (Source::Lesson(i), Some(l)) => l.presets.get(i).map(|p| p.id.clone()),
            _ => None,
        }
        .unwrap_or_else(|| self.slug_of(self.course.source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Config, Msg};
    use crate::state::Guess;
    use crate::text::i18n::Lang;
    use permlab_core::{Decision, EngineId, RuleId};

    /// A quiz of two presets: 2 calls × 2 engines + 1 call × 2 engines = 6 questions.
    const QUIZ: &str = r#"{"id": "a3-2", "title": {"zh": "听谁的", "en": "Who wins"}, "language": "en",
      "mode": "quiz", "engines": ["first-match", "opencode"], "passing": 0.6,
      "presets": [
        {"id": "git", "rules": [
            {"tool": "bash", "pattern": "git push *", "action": "deny"},
            {"tool": "bash", "pattern": "git *", "action": "allow"}],
         "calls": [{"tool": "bash", "input": "git push origin main",
                    "expect": {"first-match": "deny", "opencode": "allow"}},
                   "bash: git status"]},
        {"id": "rm", "rules": [{"tool": "bash", "pattern": "rm *", "action": "ask"}],
         "calls": ["bash: rm -rf build"]}]}"#;

    fn mounted(lesson: &str, stored: Option<&str>) -> Widget {
        Widget::with_stored(
            Config {
                lang: Lang::En,
                ns: "w1".into(),
                fixtures: String::new(),
                selfcheck: "none".into(),
                lesson: Some(lesson.into()),
                lesson_from: None,
            },
            "",
            stored,
        )
    }

    /// Guesses `g` for `e` and reveals it: the events the host hears.
    fn answer(w: &mut Widget, e: EngineId, g: Guess) -> Vec<HostEvent> {
        let guessed = w.act(Msg::Guess(e, g)).effects;
        let mut events = w.events(&guessed);
        let revealed = w.act(Msg::Reveal(e)).effects;
        events.extend(w.events(&revealed));
        events
    }

    fn verdict(w: &Widget, e: EngineId) -> Guess {
        Guess::Verdict(w.eval(e).unwrap().decision)
    }

    fn wrong(w: &Widget, e: EngineId) -> Guess {
        let right = w.eval(e).unwrap().decision;
        Guess::Verdict(if right == Decision::Deny {
            Decision::Allow
        } else {
            Decision::Deny
        })
    }

    #[test]
    fn ready_names_the_lesson_its_questions_and_its_problems() {
        let w = mounted(QUIZ, None);
        let ready = w.events(&w.resume());
        let [HostEvent::Ready {
            widget,
            lesson,
            title,
            mode,
            valid,
            problems,
            questions,
            preset,
        }] = &ready[..]
        else {
            panic!("{ready:?}")
        };
        assert_eq!((widget.as_str(), lesson.as_deref()), ("w1", Some("a3-2")));
        assert_eq!(title.as_deref(), Some("Who wins"));
        assert_eq!((*mode, *valid, *questions), (Some("quiz"), true, 6));
        assert!(problems.is_empty());
        assert_eq!(preset, "git");

        let bad = mounted(
            r#"{"title": "t", "language": "en", "mode": "quiz", "engines": ["opencod"], "presets": []}"#,
            None,
        );
        let ready = bad.events(&bad.resume());
        let [HostEvent::Ready {
            lesson,
            valid,
            problems,
            mode,
            ..
        }] = &ready[..]
        else {
            panic!("{ready:?}")
        };
        assert!(!valid);
        assert_eq!(
            lesson.as_deref(),
            Some("w1"),
            "a broken lesson is named by its widget"
        );
        assert_eq!(*mode, None);
        assert!(
            problems.iter().any(|p| p.contains("engines[0]")),
            "{problems:?}"
        );
    }

    #[test]
    fn a_guess_and_its_reveal_name_the_question_and_the_attempt() {
        let mut w = mounted(QUIZ, None);
        let g = verdict(&w, EngineId::OpenCode);
        let events = answer(&mut w, EngineId::OpenCode, g);
        let names: Vec<_> = events.iter().map(HostEvent::name).collect();
        assert_eq!(names, ["permlab:guess", "permlab:reveal", "permlab:answer"]);
        let HostEvent::Answer {
            place,
            engine,
            guess,
            expected,
            verdict,
            correct,
            attempt,
            scored,
        } = &events[2]
        else {
            panic!()
        };
        assert_eq!(place.lesson, "a3-2");
        assert_eq!(place.preset, "git");
        assert_eq!(
            place.call,
            CallRef {
                index: Some(1),
                tool: "bash".into(),
                input: "git push origin main".into()
            }
        );
        assert_eq!((*engine, *guess, *verdict), ("opencode", "allow", "allow"));
        assert_eq!(*expected, Some("allow"));
        assert!(*correct && *scored);
        assert_eq!(*attempt, 1);
        let HostEvent::Guess { attempt, .. } = &events[0] else {
            panic!()
        };
        assert_eq!(*attempt, 1);
    }

    #[test]
    fn a_reorder_keeps_an_answer_and_try_again_asks_a_second_attempt_that_does_not_score() {
        let mut w = mounted(QUIZ, None);
        let g = wrong(&w, EngineId::FirstMatch);
        answer(&mut w, EngineId::FirstMatch, g);
        let moved = w.act(Msg::Step(RuleId(1), true));
        let reorder = w.events(&moved.effects);
        let [HostEvent::Reorder {
            place,
            change,
            from,
            to,
            flipped,
        }] = &reorder[..]
        else {
            panic!("{reorder:?}")
        };
        assert_eq!((*change, *from, *to), ("move", Some(1), Some(2)));
        assert_eq!(place.call.index, Some(1));
        assert_eq!(flipped, &["first-match", "opencode"]);
        // Still answered: nothing to guess, nothing new for the gradebook.
        assert!(w.revealed(EngineId::FirstMatch));
        assert!(w
            .act(Msg::Guess(EngineId::FirstMatch, Guess::Skip))
            .effects
            .is_empty());
        // OpenCode, answered after the reorder: a first attempt, scored, with no author's
        // answer (the author wrote it for the lesson's order).
        let g = verdict(&w, EngineId::OpenCode);
        let events = answer(&mut w, EngineId::OpenCode, g);
        let HostEvent::Answer {
            attempt,
            scored,
            expected,
            ..
        } = &events[2]
        else {
            panic!()
        };
        assert_eq!((*attempt, *scored, *expected), (1, true, None));
        w.act(Msg::TryAgain);
        let g = verdict(&w, EngineId::FirstMatch);
        let events = answer(&mut w, EngineId::FirstMatch, g);
        let HostEvent::Answer {
            attempt,
            scored,
            correct,
            ..
        } = &events[2]
        else {
            panic!()
        };
        assert_eq!(*attempt, 2);
        assert!(*correct && !*scored);
        let HostEvent::Guess { attempt, .. } = &events[0] else {
            panic!()
        };
        assert_eq!(*attempt, 2);
    }

    #[test]
    fn a_quiz_completes_once_with_its_first_attempt_score() {
        let mut w = mounted(QUIZ, None);
        let mut complete = Vec::new();
        // Preset git, call 1: one right, one wrong.
        let g = verdict(&w, EngineId::FirstMatch);
        answer(&mut w, EngineId::FirstMatch, g);
        let g = wrong(&w, EngineId::OpenCode);
        answer(&mut w, EngineId::OpenCode, g);
        // Call 2: a skip, then a right answer.
        w.act(Msg::PickCall(1));
        answer(&mut w, EngineId::FirstMatch, Guess::Skip);
        let g = verdict(&w, EngineId::OpenCode);
        answer(&mut w, EngineId::OpenCode, g);
        // Preset rm: both right.
        w.act(Msg::Source(crate::model::Source::Lesson(1)));
        for e in [EngineId::FirstMatch, EngineId::OpenCode] {
            let g = verdict(&w, e);
            complete.extend(
                answer(&mut w, e, g)
                    .into_iter()
                    .filter(|e| e.name() == "permlab:complete"),
            );
        }
        let [HostEvent::Complete {
            lesson,
            calls,
            engines,
            score,
            passed,
            passing,
            ..
        }] = &complete[..]
        else {
            panic!("{complete:?}")
        };
        assert_eq!((lesson.as_str(), *calls, *engines), ("a3-2", 3, 2));
        assert_eq!((score.raw, score.max), (4, 6));
        assert!((score.scaled - 4.0 / 6.0).abs() < 1e-9);
        assert!(*passed, "4/6 reaches the lesson's passing 0.6");
        assert_eq!(*passing, 0.6);
        // Trying again answers again, and completes no more.
        w.act(Msg::TryAgain);
        let g = verdict(&w, EngineId::OpenCode);
        let again = answer(&mut w, EngineId::OpenCode, g);
        assert!(again.iter().all(|e| e.name() != "permlab:complete"));
    }

    #[test]
    fn the_record_and_the_ticks_survive_a_reload_but_not_a_new_lesson() {
        let mut w = mounted(QUIZ, None);
        let g = verdict(&w, EngineId::OpenCode);
        answer(&mut w, EngineId::OpenCode, g);
        let stored = crate::persist::store::encode("w1", &w.snapshot().to_stored());
        let mut back = mounted(QUIZ, Some(&stored));
        assert_eq!(back.progress().record, w.progress().record);
        back.act(Msg::TryAgain);
        let g = verdict(&back, EngineId::OpenCode);
        let events = answer(&mut back, EngineId::OpenCode, g);
        let HostEvent::Answer { attempt, .. } = &events[2] else {
            panic!()
        };
        assert_eq!(*attempt, 2, "the reload kept the first attempt");

        let other = QUIZ.replace("a3-2", "a3-3");
        let fresh = mounted(&other, Some(&stored));
        assert_eq!(
            fresh.progress().record,
            crate::model::record::Record::default()
        );
        assert!(
            !fresh.revealed(EngineId::OpenCode),
            "another lesson's reveals do not apply"
        );
    }
}
