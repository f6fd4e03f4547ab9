//! What the lesson says *about* the verdicts: when do two semantics disagree, which engines can a
//! reorder affect, and what changed after one.
//!
//! Seed 000 makes a precise claim instead of a hand-wave: last-match (OpenCode) and priority
//! groups (Claude Code: deny → ask → allow) give opposite answers **only when the last matching
//! rule is not the one with the highest-priority action**. [`Disagreement`] computes both sides
//! of that condition for one call, from the rows that match it.
//!
//! ```
//! use permlab_core::{Action, RuleTable};
//! use permlab_core::analysis::Disagreement;
//! // [deny "git push *", allow "git *"], call `git push origin main`: both rows match.
//! let table = RuleTable::new([("bash", "git push *", Action::Deny), ("bash", "git *", Action::Allow)]);
//! let d = Disagreement::new(&table, &[0, 1]);
//! assert_eq!(d.last, Some((1, Action::Allow)));      // OpenCode: the last match, allow
//! assert_eq!(d.strongest, Some((0, Action::Deny)));  // Claude Code: deny first
//! assert!(d.differ());
//! ```

use crate::evaluation::{Decision, Engine, EngineId};
use crate::table::{Action, Call, RuleTable};

/// The two readings of the same set of matching rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Every row (0-based position) whose tool and pattern match the call, in table order.
    pub matches: Vec<usize>,
    /// The last matching row and its action: what last-match (OpenCode) decides.
    pub last: Option<(usize, Action)>,
    /// The highest-priority action among the matches (deny > ask > allow) and the first row
    /// carrying it: what priority groups decide, when the rows are taken as written.
    pub strongest: Option<(usize, Action)>,
}

impl Disagreement {
    /// Both readings of `matches` (positions in `table`, in table order).
    pub fn new(table: &RuleTable, matches: &[usize]) -> Self {
        let rules = table.rules();
        let action_at = |i: usize| rules.get(i).map(|r| (i, r.action));
        let last = matches.last().and_then(|&i| action_at(i));
        let strongest = matches
            .iter()
            .filter_map(|&i| action_at(i))
            // `max_by_key` keeps the last of equals; we want the first row of the group.
            .fold(None, |best: Option<(usize, Action)>, (i, a)| match best {
                Some((_, b)) if b.priority() >= a.priority() => best,
                _ => Some((i, a)),
            });
        Disagreement {
            matches: matches.to_vec(),
            last,
            strongest,
        }
    }

    /// Whether the last match's action differs from the highest-priority action — the seed's
    /// exact condition for last-match and priority groups to disagree on this call. With no
    /// match, both fall back to their default and this is `false`.
    pub fn differ(&self) -> bool {
        match (self.last, self.strongest) {
            (Some((_, a)), Some((_, b))) => a != b,
            _ => false,
        }
    }

    /// Whether *some* order of the table makes an order-sensitive engine (first-match or
    /// last-match) change its verdict for this call: exactly when the matching rows carry more
    /// than one distinct action.
    pub fn order_can_matter(&self, table: &RuleTable) -> bool {
        let rules = table.rules();
        let mut actions = self
            .matches
            .iter()
            .filter_map(|&i| rules.get(i).map(|r| r.action));
        match actions.next() {
            Some(first) => actions.any(|a| a != first),
            None => false,
        }
    }
}

/// One engine's verdict changing between two orders of a table (a reorder-log line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictChange {
    /// Which engine.
    pub engine: EngineId,
    /// Verdict before the reorder.
    pub before: Decision,
    /// Verdict after.
    pub after: Decision,
}

/// The verdict of each engine in `engines` for `call`, in the order given.
pub fn verdicts(engines: &[&dyn Engine], call: &Call) -> Vec<(EngineId, Decision)> {
    engines.iter().map(|e| (e.id(), e.decide(call).0)).collect()
}

/// The engines whose verdict differs between `before` and `after` (as returned by
/// [`verdicts`] for the same engines), in the same order.
///
/// ```
/// use permlab_core::{Decision, EngineId};
/// use permlab_core::analysis::{diff, VerdictChange};
/// let before = [(EngineId::OpenCode, Decision::Deny), (EngineId::ClaudeCode, Decision::Deny)];
/// let after = [(EngineId::OpenCode, Decision::Allow), (EngineId::ClaudeCode, Decision::Deny)];
/// assert_eq!(diff(&before, &after), [VerdictChange {
///     engine: EngineId::OpenCode, before: Decision::Deny, after: Decision::Allow }]);
/// ```
pub fn diff(before: &[(EngineId, Decision)], after: &[(EngineId, Decision)]) -> Vec<VerdictChange> {
    before
        .iter()
        .filter_map(|&(engine, b)| {
            let &(_, a) = after.iter().find(|(e, _)| *e == engine)?;
            (a != b).then_some(VerdictChange {
                engine,
                before: b,
                after: a,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(actions: &[Action]) -> RuleTable {
        RuleTable::new(actions.iter().map(|&a| ("bash", "*", a)))
    }

    #[test]
    fn strongest_is_the_first_row_of_the_strongest_group() {
        use Action::*;
        let t = table(&[Allow, Deny, Ask, Deny, Allow]);
        let d = Disagreement::new(&t, &[0, 1, 2, 3, 4]);
        assert_eq!(d.strongest, Some((1, Deny)));
        assert_eq!(d.last, Some((4, Allow)));
        assert!(d.differ());
        assert!(d.order_can_matter(&t));
    }

    #[test]
    fn agreeing_and_empty_cases() {
        use Action::*;
        let t = table(&[Allow, Deny, Allow]);
        // Only rows 0 and 2 match: both allow, so nothing can disagree or flip.
        let d = Disagreement::new(&t, &[0, 2]);
        assert!(!d.differ());
        assert!(!d.order_can_matter(&t));
        // Last match is the deny: both readings say deny, but a reorder could still flip
        // last-match.
        let d = Disagreement::new(&t, &[0, 1]);
        assert!(!d.differ());
        assert!(d.order_can_matter(&t));
        let none = Disagreement::new(&t, &[]);
        assert_eq!(
            (none.last, none.strongest, none.differ()),
            (None, None, false)
        );
    }
}
