//! The widget's state as plain Rust: the current order, undo history, guesses, reveals, the
//! stepper position and the reorder log. No DOM, no signals — tested natively; the components
//! hold one `Lab` in a signal and call its methods.
//!
//! Verdicts are never computed here: the caller passes a `judge` (the core's engines for the
//! current table) whenever a change needs before/after verdicts for the reorder log.

use std::collections::BTreeMap;

use permlab_core::analysis::{diff, VerdictChange};
use permlab_core::{Action, Call, Decision, EngineId, RuleId, RuleTable};

/// A learner's prediction for one engine, before revealing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    /// "I think it will be this."
    Verdict(Decision),
    /// "Just show me" — explicit, so revealing never happens by accident.
    Skip,
}

/// How a reorder-log entry came about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// One rule moved from one position to another (1-based positions in the entry).
    Move {
        /// The rule that moved.
        rule: RuleId,
        /// Its position before (1-based).
        from: usize,
        /// Its position after (1-based).
        to: usize,
    },
    /// The whole table reversed (整表倒序).
    Reverse,
    /// The last reorder was undone.
    Undo,
    /// Back to the lesson's order.
    Reset,
}

/// One line of the reorder log (重排记录): what changed and which engines flipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// What the learner did.
    pub change: Change,
    /// The engines whose verdict for the current call changed, with before/after.
    pub flipped: Vec<VerdictChange>,
    /// The engines asked, so the log can also say "unchanged".
    pub engines: Vec<EngineId>,
    /// The engines the learner had revealed on the order this change left: only their
    /// before → after verdicts are worded (the others' verdicts are still to be guessed).
    pub known: Vec<EngineId>,
}

/// The order a revealed guess was made on, kept after a reorder: the guess is graded against
/// that order's verdict, never re-graded against a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// What the learner guessed (or skip).
    pub guess: Guess,
    /// The engine's verdict on that order.
    pub verdict: Decision,
}

/// The whole state of one widget instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Lab {
    lesson_order: Vec<RuleId>,
    table: RuleTable,
    call: Call,
    undo: Vec<Vec<RuleId>>,
    guesses: BTreeMap<EngineId, Guess>,
    revealed: Vec<EngineId>,
    step: usize,
    log: Vec<LogEntry>,
    earlier: BTreeMap<EngineId, Earlier>,
}

/// Verdicts of the shown engines for one table and call.
pub type Judge<'a> = dyn Fn(&RuleTable, &Call) -> Vec<(EngineId, Decision)> + 'a;

impl Lab {
    /// A fresh lab on `table` (the lesson order) and `call`.
    pub fn new(table: RuleTable, call: Call) -> Self {
        Lab {
            lesson_order: ids(&table),
            table,
            call,
            undo: Vec::new(),
            guesses: BTreeMap::new(),
            revealed: Vec::new(),
            step: 0,
            log: Vec::new(),
            earlier: BTreeMap::new(),
        }
    }

    /// The table in its current order.
    pub fn table(&self) -> &RuleTable {
        &self.table
    }

    /// The call being judged.
    pub fn call(&self) -> &Call {
        &self.call
    }

    /// The reorder log, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Whether there is a reorder to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether the current order differs from the lesson's.
    pub fn is_reordered(&self) -> bool {
        ids(&self.table) != self.lesson_order
    }

    /// Moves the rule at `from` to `to` (0-based) and logs it. Returns `false` when nothing
    /// moved (same place or out of range).
    pub fn move_rule(&mut self, from: usize, to: usize, judge: &Judge) -> bool {
        if from == to || from >= self.table.len() || to >= self.table.len() {
            return false;
        }
        let rule = self.table.rules()[from].id;
        self.reorder_with(
            judge,
            Change::Move {
                rule,
                from: from + 1,
                to: to + 1,
            },
            |t| {
                t.move_rule(from, to);
            },
        );
        true
    }

    /// Reverses the whole table and logs it.
    pub fn reverse(&mut self, judge: &Judge) {
        if self.table.len() > 1 {
            self.reorder_with(judge, Change::Reverse, RuleTable::reverse);
        }
    }

    /// Restores the previous order. Returns `false` when there is nothing to undo.
    pub fn undo(&mut self, judge: &Judge) -> bool {
        let Some(order) = self.undo.pop() else {
            return false;
        };
        let before = judge(&self.table, &self.call);
        self.table.reorder(&order);
        self.push_log(Change::Undo, before, judge);
        true
    }

    /// Back to the lesson's order (itself undoable).
    pub fn reset(&mut self, judge: &Judge) {
        if self.is_reordered() {
            let order = self.lesson_order.clone();
            self.reorder_with(judge, Change::Reset, |t| t.reorder(&order));
        }
    }

    fn reorder_with(&mut self, judge: &Judge, change: Change, f: impl FnOnce(&mut RuleTable)) {
        let before = judge(&self.table, &self.call);
        self.undo.push(ids(&self.table));
        f(&mut self.table);
        self.push_log(change, before, judge);
    }

    fn push_log(&mut self, change: Change, before: Vec<(EngineId, Decision)>, judge: &Judge) {
        let after = judge(&self.table, &self.call);
        let known = self.retire(&before);
        self.log.push(LogEntry {
            change,
            flipped: diff(&before, &after),
            engines: before.iter().map(|(e, _)| *e).collect(),
            known,
        });
        // A new order means new cursor paths: start the stepper again.
        self.step = 0;
    }

    /// A revealed engine stays revealed through a reorder: the reorder log words its before →
    /// after (that is what a reorder teaches), so asking for a new guess would ask for what the
    /// page already says. Its guess keeps the grade of the order it was made on: the first
    /// reorder after a reveal keeps that order's verdict as an [`Earlier`] result. Engines not
    /// revealed keep their guess, graded on the order they are revealed on. Returns the
    /// engines that were revealed.
    fn retire(&mut self, before: &[(EngineId, Decision)]) -> Vec<EngineId> {
        let known: Vec<EngineId> = self
            .revealed
            .iter()
            .copied()
            .filter(|e| before.iter().any(|(b, _)| b == e))
            .collect();
        for e in &known {
            let verdict = before.iter().find(|(b, _)| b == e).map(|b| b.1);
            if let (Some(guess), Some(verdict), false) =
                (self.guess(*e), verdict, self.earlier.contains_key(e))
            {
                self.earlier.insert(*e, Earlier { guess, verdict });
            }
        }
        known
    }

    /// The result revealed for `engine` on an earlier order (after a reorder), if any.
    pub fn earlier(&self, engine: EngineId) -> Option<Earlier> {
        self.earlier.get(&engine).copied()
    }

    /// The orders Undo would go back to, oldest first (what a reload keeps).
    pub fn undo_orders(&self) -> &[Vec<RuleId>] {
        &self.undo
    }

    /// Puts back the reorder log and the undo history a reload kept (see
    /// [`crate::persist::history`]); the order itself is restored separately.
    pub fn restore_history(&mut self, log: Vec<LogEntry>, undo: Vec<Vec<RuleId>>) {
        self.log = log;
        self.undo = undo;
    }

    /// Every result of an earlier order, by engine (what a reload keeps).
    pub fn earlier_results(&self) -> impl Iterator<Item = (EngineId, Earlier)> + '_ {
        self.earlier.iter().map(|(e, r)| (*e, *r))
    }

    /// Puts back a result of an earlier order (a reload: the order it was made on is gone,
    /// its grade is not).
    pub fn restore_earlier(&mut self, engine: EngineId, result: Earlier) {
        self.earlier.insert(engine, result);
    }

    /// Switches to another call: guesses, reveals and the stepper start over; the order stays.
    pub fn set_call(&mut self, call: Call) {
        if call != self.call {
            self.call = call;
            self.try_again();
        }
    }

    /// The guess for `engine`, if made.
    pub fn guess(&self, engine: EngineId) -> Option<Guess> {
        self.guesses.get(&engine).copied()
    }

    /// Records a guess. A revealed engine keeps its guess (the answer is already visible).
    pub fn set_guess(&mut self, engine: EngineId, guess: Guess) {
        if !self.is_revealed(engine) {
            self.guesses.insert(engine, guess);
        }
    }

    /// Reveals `engine`'s verdict. Refused (returns `false`) until a guess or an explicit skip
    /// is recorded: predicting first is the point of the exercise.
    pub fn reveal(&mut self, engine: EngineId) -> bool {
        if self.guesses.contains_key(&engine) && !self.is_revealed(engine) {
            self.revealed.push(engine);
            true
        } else {
            self.is_revealed(engine)
        }
    }

    /// Whether `engine` has been revealed.
    pub fn is_revealed(&self, engine: EngineId) -> bool {
        self.revealed.contains(&engine)
    }

    /// Whether the guess for `engine` was right, once revealed (`None`: not revealed or
    /// skipped): against `actual`, the current order's verdict, unless the guess was made on
    /// an order a reorder left (then against that order's).
    pub fn guess_was_right(&self, engine: EngineId, actual: Decision) -> Option<bool> {
        if !self.is_revealed(engine) {
            return None;
        }
        let (guess, verdict) = match self.earlier(engine) {
            Some(e) => (e.guess, e.verdict),
            None => (self.guess(engine)?, actual),
        };
        match guess {
            Guess::Verdict(d) => Some(d == verdict),
            Guess::Skip => None,
        }
    }

    /// Whether there is anything for "try again" to clear: a guess made or a verdict revealed.
    pub fn answered_any(&self) -> bool {
        !self.guesses.is_empty() || !self.revealed.is_empty()
    }

    /// "Try again": clears guesses and reveals only — the order and the log stay.
    pub fn try_again(&mut self) {
        self.guesses.clear();
        self.revealed.clear();
        self.earlier.clear();
        self.step = 0;
    }

    /// The stepper position (0 = before the first step).
    pub fn step(&self) -> usize {
        self.step
    }

    /// Sets the stepper position, clamped to `0..=total`.
    pub fn set_step(&mut self, step: usize, total: usize) {
        self.step = step.min(total);
    }

    /// The current order as ids (what the stored state keeps).
    pub fn order(&self) -> Vec<RuleId> {
        ids(&self.table)
    }

    /// Restores an order (from the stored state); unknown ids are ignored, missing rows keep their
    /// lesson order after the named ones. Not logged, not undoable: it is where the learner was.
    pub fn restore_order(&mut self, order: &[RuleId]) {
        self.table.reorder(order);
    }

    /// All guesses and reveals, for the stored state.
    pub fn guesses(&self) -> impl Iterator<Item = (EngineId, Guess, bool)> + '_ {
        self.guesses
            .iter()
            .map(|(e, g)| (*e, *g, self.revealed.contains(e)))
    }
}

fn ids(table: &RuleTable) -> Vec<RuleId> {
    table.rules().iter().map(|r| r.id).collect()
}

/// The action a decision corresponds to, where there is one (guess buttons offer the three
/// actions; "unavailable" is revealed, never guessed).
pub fn action_of(d: Decision) -> Option<Action> {
    match d {
        Decision::Allow => Some(Action::Allow),
        Decision::Ask => Some(Action::Ask),
        Decision::Deny => Some(Action::Deny),
        Decision::Unavailable => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in judge for state tests: "last row wins" on the action, per engine.
    fn judge(table: &RuleTable, _call: &Call) -> Vec<(EngineId, Decision)> {
        let last = table
            .rules()
            .last()
            .map_or(Decision::Ask, |r| r.action.into());
        vec![
            (EngineId::OpenCode, last),
            (EngineId::ClaudeCode, Decision::Deny),
        ]
    }

    fn lab() -> Lab {
        Lab::new(
            RuleTable::new([
                ("bash", "git push *", Action::Deny),
                ("bash", "git *", Action::Allow),
                ("bash", "*", Action::Ask),
            ]),
            Call::new("bash", "git push origin main"),
        )
    }

    fn order(l: &Lab) -> Vec<u32> {
        l.order().iter().map(|id| id.0).collect()
    }

    #[test]
    fn moves_are_logged_with_the_engines_that_flipped() {
        let mut l = lab();
        assert!(l.move_rule(0, 2, &judge));
        assert_eq!(order(&l), [2, 3, 1]);
        let entry = &l.log()[0];
        assert_eq!(
            entry.change,
            Change::Move {
                rule: RuleId(1),
                from: 1,
                to: 3
            }
        );
        assert_eq!(
            entry.flipped,
            [VerdictChange {
                engine: EngineId::OpenCode,
                before: Decision::Ask,
                after: Decision::Deny
            }]
        );
        assert_eq!(entry.engines, [EngineId::OpenCode, EngineId::ClaudeCode]);
        assert!(!l.move_rule(1, 1, &judge));
        assert!(!l.move_rule(0, 3, &judge));
        assert_eq!(l.log().len(), 1);
    }

    #[test]
    fn undo_reset_and_reverse() {
        let mut l = lab();
        l.reverse(&judge);
        l.reverse(&judge);
        assert_eq!(order(&l), [1, 2, 3]);
        assert!(!l.is_reordered());
        l.move_rule(2, 0, &judge);
        assert!(l.undo(&judge));
        assert_eq!(order(&l), [1, 2, 3]);
        l.move_rule(2, 0, &judge);
        l.reset(&judge);
        assert_eq!(order(&l), [1, 2, 3]);
        assert_eq!(l.log().last().unwrap().change, Change::Reset);
        assert!(l.undo(&judge));
        assert_eq!(order(&l), [3, 1, 2]);
    }

    #[test]
    fn reveal_needs_a_guess_or_skip() {
        let mut l = lab();
        assert!(!l.reveal(EngineId::OpenCode));
        l.set_guess(EngineId::OpenCode, Guess::Verdict(Decision::Allow));
        assert!(l.reveal(EngineId::OpenCode));
        assert_eq!(
            l.guess_was_right(EngineId::OpenCode, Decision::Deny),
            Some(false)
        );
        l.set_guess(EngineId::OpenCode, Guess::Verdict(Decision::Deny));
        assert_eq!(
            l.guess(EngineId::OpenCode),
            Some(Guess::Verdict(Decision::Allow))
        );
        l.set_guess(EngineId::ClaudeCode, Guess::Skip);
        assert!(l.reveal(EngineId::ClaudeCode));
        assert_eq!(
            l.guess_was_right(EngineId::ClaudeCode, Decision::Deny),
            None
        );
        l.move_rule(0, 1, &judge);
        l.try_again();
        assert!(!l.is_revealed(EngineId::OpenCode));
        assert_eq!(l.log().len(), 1, "try again keeps the log");
        assert_eq!(order(&l), [2, 1, 3], "try again keeps the order");
    }

    #[test]
    fn stepper_is_clamped_and_restarts_after_a_reorder() {
        let mut l = lab();
        l.set_step(9, 4);
        assert_eq!(l.step(), 4);
        l.reverse(&judge);
        assert_eq!(l.step(), 0);
    }
}
