//! The learner's record, for a course's gradebook: how many times each question was answered
//! and how its first answer went, the lesson's score and whether it was completed.
//!
//! A question ([`Item`]) is one engine's verdict for one call of one preset. Each reveal
//! answers it once more (a reorder or "try again" asks it again: a new attempt). A quiz scores
//! one point per engine per call of the lesson, for a right first answer: what the host hears
//! in `permlab:answer` (`scored`) and `permlab:complete` (`score`).

use std::collections::BTreeMap;

use permlab_core::EngineId;

use crate::persist::{guess_str, hash, parse_guess};
use crate::state::Guess;

/// Past this many questions the record stops growing (a learner typing call after call): a
/// new question is still answered, always as a first attempt, and is not kept. A lesson has
/// far fewer (its calls × its engines, within the lesson limits).
pub const ITEM_LIMIT: usize = 2000;

/// One question: an engine's verdict for a call, in a preset.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Item {
    /// The preset's id (a lesson preset's own id, or a built-in rule set's slug).
    pub preset: String,
    /// The call's tool.
    pub tool: String,
    /// The call's input.
    pub input: String,
    /// The engine.
    pub engine: EngineId,
}

/// How a question went so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// How many times it was answered (revealed).
    pub attempts: u32,
    /// The first answer (a guess, or "just show me").
    pub first: Guess,
    /// Whether the first answer was the verdict.
    pub first_correct: bool,
}

/// One answer, as the host hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answered {
    /// Which attempt at the question this is (1 for the first).
    pub attempt: u32,
    /// Whether the answer was the verdict (never for "just show me").
    pub correct: bool,
}

/// A lesson's score: one point per question answered right the first time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Points earned.
    pub raw: u32,
    /// Points possible.
    pub max: u32,
}

impl Score {
    /// `raw / max`, 0 to 1 (1 for a lesson with no question).
    pub fn scaled(self) -> f64 {
        if self.max == 0 {
            1.0
        } else {
            f64::from(self.raw) / f64::from(self.max)
        }
    }
}

/// Every question answered so far, and whether the lesson's completion was announced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    tallies: BTreeMap<Item, Tally>,
    /// `permlab:complete` was sent for this record (once; a new record after a reset).
    pub completed: bool,
}

impl Record {
    /// How many times `item` was answered.
    pub fn attempts(&self, item: &Item) -> u32 {
        self.tallies.get(item).map_or(0, |t| t.attempts)
    }

    /// How `item` went, if it was answered.
    pub fn tally(&self, item: &Item) -> Option<Tally> {
        self.tallies.get(item).copied()
    }

    /// Records an answer to `item` (`guess`, right or not) and says which attempt it was.
    ///
    /// ```
    /// use permlab_widget::model::record::{Item, Record};
    /// use permlab_widget::state::Guess;
    /// use permlab_core::{Decision, EngineId};
    /// let item = Item { preset: "git".into(), tool: "bash".into(), input: "git push".into(), engine: EngineId::OpenCode };
    /// let mut r = Record::default();
    /// assert_eq!(r.answer(item.clone(), Guess::Verdict(Decision::Deny), false).attempt, 1);
    /// assert_eq!(r.answer(item.clone(), Guess::Verdict(Decision::Allow), true).attempt, 2);
    /// // The first answer is the one that counts.
    /// assert!(!r.tally(&item).unwrap().first_correct);
    /// ```
    pub fn answer(&mut self, item: Item, guess: Guess, correct: bool) -> Answered {
        let full = self.tallies.len() >= ITEM_LIMIT;
        let attempt = match self.tallies.get_mut(&item) {
            Some(t) => {
                t.attempts = t.attempts.saturating_add(1);
                t.attempts
            }
            None => {
                if !full {
                    self.tallies.insert(
                        item,
                        Tally {
                            attempts: 1,
                            first: guess,
                            first_correct: correct,
                        },
                    );
                }
                1
            }
        };
        Answered { attempt, correct }
    }

    /// The score over `items` (the lesson's questions): a point for each right first answer.
    pub fn score(&self, items: &[Item]) -> Score {
        let raw = items
            .iter()
            .filter(|i| self.tallies.get(*i).is_some_and(|t| t.first_correct))
            .count();
        Score {
            raw: u32::try_from(raw).unwrap_or(u32::MAX),
            max: u32::try_from(items.len()).unwrap_or(u32::MAX),
        }
    }

    /// Whether every one of `items` has been answered at least once.
    pub fn all_answered(&self, items: &[Item]) -> bool {
        items.iter().all(|i| self.tallies.contains_key(i))
    }

    /// The record as stored text: one line per question, fields percent-encoded and separated
    /// by spaces (`preset tool input engine attempts first right`), `completed` first.
    pub fn to_text(&self) -> String {
        let mut out = String::from(if self.completed {
            "completed\n"
        } else {
            "open\n"
        });
        for (i, t) in &self.tallies {
            let first = guess_str(t.first);
            out.push_str(&format!(
                "{} {} {} {} {} {first} {}\n",
                hash::encode(&i.preset),
                hash::encode(&i.tool),
                hash::encode(&i.input),
                i.engine.slug(),
                t.attempts,
                u8::from(t.first_correct)
            ));
        }
        out
    }

    /// Reads [`Record::to_text`]; a line that cannot be read is dropped (never half-applied).
    pub fn from_text(text: &str) -> Record {
        let mut lines = text.lines();
        let completed = lines.next() == Some("completed");
        let mut tallies = BTreeMap::new();
        for line in lines.take(ITEM_LIMIT) {
            let f: Vec<&str> = line.split(' ').collect();
            let [preset, tool, input, engine, attempts, first, right] = f[..] else {
                continue;
            };
            let read = || {
                let item = Item {
                    preset: hash::decode(preset)?,
                    tool: hash::decode(tool)?,
                    input: hash::decode(input)?,
                    engine: EngineId::from_slug(engine)?,
                };
                let first = parse_guess(first)?;
                let tally = Tally {
                    attempts: attempts.parse().ok().filter(|n| *n >= 1)?,
                    first,
                    first_correct: right == "1",
                };
                Some((item, tally))
            };
            if let Some((item, tally)) = read() {
                tallies.insert(item, tally);
            }
        }
        Record { tallies, completed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use permlab_core::Decision;

    fn item(engine: EngineId, input: &str) -> Item {
        Item {
            preset: "git".into(),
            tool: "bash".into(),
            input: input.into(),
            engine,
        }
    }

    #[test]
    fn only_first_answers_score() {
        let items = [
            item(EngineId::OpenCode, "git push"),
            item(EngineId::FirstMatch, "git push"),
        ];
        let mut r = Record::default();
        r.answer(items[0].clone(), Guess::Verdict(Decision::Allow), true);
        r.answer(items[1].clone(), Guess::Verdict(Decision::Allow), false);
        r.answer(items[1].clone(), Guess::Verdict(Decision::Deny), true);
        assert_eq!(r.score(&items), Score { raw: 1, max: 2 });
        assert_eq!(r.score(&items).scaled(), 0.5);
        assert!(r.all_answered(&items));
        assert!(!r.all_answered(&[item(EngineId::Codex, "git push")]));
    }

    #[test]
    fn a_skip_answers_without_a_point() {
        let i = item(EngineId::OpenCode, "ls");
        let mut r = Record::default();
        let a = r.answer(i.clone(), Guess::Skip, false);
        assert_eq!(
            a,
            Answered {
                attempt: 1,
                correct: false
            }
        );
        assert_eq!(r.score(&[i]).raw, 0);
    }

    #[test]
    fn the_record_round_trips_through_its_text_with_hostile_inputs() {
        let mut r = Record::default();
        r.answer(
            item(EngineId::ClaudeCode, "echo 'a b'\n% \u{202e}"),
            Guess::Verdict(Decision::Unavailable),
            true,
        );
        r.answer(item(EngineId::OpenCode, ""), Guess::Skip, false);
        r.answer(item(EngineId::OpenCode, ""), Guess::Skip, false);
        r.completed = true;
        let back = Record::from_text(&r.to_text());
        assert_eq!(back, r);
        assert_eq!(back.attempts(&item(EngineId::OpenCode, "")), 2);
    }

    #[test]
    fn unreadable_lines_are_dropped() {
        let r = Record::from_text("open\ngit bash ls opencode 0 allow 1\nx y\ngit bash ls nope 1 allow 1\ngit bash ls opencode 2 allow 1\n");
        assert_eq!(r.attempts(&item(EngineId::OpenCode, "ls")), 2);
        assert_eq!(r.tallies.len(), 1);
        assert!(!r.completed);
    }

    #[test]
    fn the_record_stops_growing_at_its_limit() {
        let mut r = Record::default();
        for n in 0..ITEM_LIMIT + 5 {
            let a = r.answer(item(EngineId::OpenCode, &n.to_string()), Guess::Skip, false);
            assert_eq!(a.attempt, 1);
        }
        assert_eq!(r.tallies.len(), ITEM_LIMIT);
    }
}
