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
