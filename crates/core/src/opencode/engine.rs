//! [`OpenCodeEngine`]: `evaluate` compiled once for a ruleset, with the lesson's trace.
//!
//! The lesson's table maps onto OpenCode rules one to one: a row's `tool` is the rule's
//! `permission`, its `pattern` the rule's `pattern`; a call's tool is the requested permission,
//! its input the requested pattern. Both sides of a rule are `Wildcard.match` patterns, so a
//! row for tool `*` or `edit*` applies to several tools — and still takes part in the order.
//!
//! The trace walks the way `findLast` does: from the **last** row upward, stopping at the first
//! row whose permission and pattern both match.

use super::evaluate::default_rule;
use super::index::{Direction, Index};
use super::wildcard::Platform;
use super::{parse_rules, Approvals, Rule};
use crate::error::Error;
use crate::evaluation::{Decision, Engine, EngineId, Evaluation, Reason};
use crate::table::{Call, RuleTable};

/// OpenCode's evaluator compiled for one ruleset (from the lesson's table or from native
/// OpenCode rules).
///
/// ```
/// use permlab_core::{Call, Decision, Engine, RuleTable};
/// use permlab_core::opencode::OpenCodeEngine;
/// let table = RuleTable::from_json(include_str!("../../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let engine = OpenCodeEngine::new(&table);
/// let e = engine.evaluate(&Call::new("bash", "python -m unittest; rm -rf /"));
/// assert_eq!(e.decision, Decision::Allow);   // row #9 is the last match
/// assert_eq!(e.rule, Some(8));
/// assert_eq!(e.matches, [7, 8]);             // #8 (bash * deny) matched too, but earlier
/// assert_eq!(e.steps.first().unwrap().row, 9); // the cursor starts at the bottom
/// assert_eq!(engine.decide(&Call::new("bash", "ls")), (Decision::Deny, Some(7)));
/// ```
#[derive(Clone, Debug)]
pub struct OpenCodeEngine {
    rules: Vec<Rule>,
    index: Index,
}

impl OpenCodeEngine {
    /// Compiles the lesson's table with Linux matching (case-sensitive).
    pub fn new(table: &RuleTable) -> Self {
        Self::with_platform(table, Platform::Linux)
    }

    /// Compiles the lesson's table with the matching of `platform`.
    pub fn with_platform(table: &RuleTable, platform: Platform) -> Self {
        Self::from_rules_on(
            platform,
            table
                .rules()
                .iter()
                .map(|r| Rule::new(&r.tool, &r.pattern, r.action))
                .collect(),
        )
    }

    /// Compiles native OpenCode rules (e.g. a whole agent ruleset from
    /// [`agent_ruleset`](super::agent_ruleset)) with Linux matching.
    pub fn from_rules(rules: Vec<Rule>) -> Self {
        Self::from_rules_on(Platform::Linux, rules)
    }

    /// Compiles native OpenCode rules with the matching of `platform`.
    pub fn from_rules_on(platform: Platform, rules: Vec<Rule>) -> Self {
        let index = Index::new(
            platform,
            rules
                .iter()
                .map(|r| (r.permission.as_str(), r.pattern.as_str())),
        );
        OpenCodeEngine { rules, index }
    }

    /// Compiles the lesson's table followed by runtime approvals (Linux matching): rows
    /// `table.len()..` of every result are approvals. They come last, so they beat the table's
    /// denies, as in OpenCode.
    ///
    /// ```
    /// use permlab_core::{Call, Decision, Engine, RuleTable};
    /// use permlab_core::opencode::{Approvals, OpenCodeEngine};
    /// let table = RuleTable::from_json(r#"[{"tool": "bash", "pattern": "git push *", "action": "deny"}]"#).unwrap();
    /// let mut approvals = Approvals::new();
    /// approvals.always("bash", &["git *"]);
    /// let engine = OpenCodeEngine::with_approvals(&table, &approvals);
    /// assert_eq!(engine.decide(&Call::new("bash", "git push")), (Decision::Allow, Some(1)));
    /// ```
    pub fn with_approvals(table: &RuleTable, approvals: &Approvals) -> Self {
        let mut rules: Vec<Rule> = table
            .rules()
            .iter()
            .map(|r| Rule::new(&r.tool, &r.pattern, r.action))
            .collect();
        rules.extend_from_slice(approvals.rules());
        Self::from_rules(rules)
    }

    /// Reads a JSON array of OpenCode rules `{"permission", "pattern", "action"}` (see
    /// [`parse_rules`]) and compiles it.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        Ok(Self::from_rules(parse_rules(text)?))
    }

    /// The rules, in order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Position of the rule `evaluate` returns, `None` for the synthesized default.
    pub fn find_last(&self, permission: &str, pattern: &str) -> Option<usize> {
        self.index.find(Direction::LastMatch, permission, pattern)
    }

    /// `evaluate(permission, pattern, rules)`: the matched rule or the synthesized default.
    ///
    /// ```
    /// use permlab_core::Action;
    /// use permlab_core::opencode::{OpenCodeEngine, Rule};
    /// let e = OpenCodeEngine::from_rules(vec![Rule::new("git *", "*", Action::Deny)]);
    /// // A final " *" is optional on the permission side as well.
    /// assert_eq!(e.evaluate_rule("git", "x").action, Action::Deny);
    /// assert_eq!(e.evaluate_rule("gitx", "x"), Rule::new("gitx", "*", Action::Ask));
    /// ```
    pub fn evaluate_rule(&self, permission: &str, pattern: &str) -> Rule {
        match self.find_last(permission, pattern) {
            Some(i) => self.rules[i].clone(),
            None => default_rule(permission),
        }
    }

    /// The full trace for a request: every row's match, the walk from the bottom, the verdict.
    pub fn trace(&self, permission: &str, pattern: &str) -> Evaluation {
        let (matches, rule, steps) = self.index.trace(Direction::LastMatch, permission, pattern);
        let (decision, reason) = match rule {
            Some(row) => {
                let action = self.rules[row].action;
                (Decision::from(action), Reason::Rule { row, action })
            }
            None => (
                Decision::Ask,
                Reason::OpenCodeDefault {
                    permission: permission.to_string(),
                },
            ),
        };
        Evaluation {
            engine: EngineId::OpenCode,
            decision,
            rule,
            matches,
            steps,
            reason,
            inferred: false,
        }
    }
}

impl Engine for OpenCodeEngine {
    fn id(&self) -> EngineId {
        EngineId::OpenCode
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        self.trace(&call.tool, &call.input)
    }

    fn decide(&self, call: &Call) -> (Decision, Option<usize>) {
        match self
            .index
            .find(Direction::LastMatch, &call.tool, &call.input)
        {
            Some(i) => (Decision::from(self.rules[i].action), Some(i)),
            None => (Decision::Ask, None),
        }
    }
}
