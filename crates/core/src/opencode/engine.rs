//! [`OpenCodeEngine`]: `evaluate` compiled once for a ruleset, with the lesson's trace.
//!
//! The lesson's table maps onto OpenCode rules one to one: a row's `tool` is the rule's
//! `permission`, its `pattern` the rule's `pattern`; a call's tool is the requested permission,
//! its input the requested pattern. Both sides of a rule are `Wildcard.match` patterns, so a
//! row for tool `*` or `edit*` applies to several tools — and still takes part in the order.
//!
//! The trace walks the way `findLast` does: from the **last** row upward, stopping at the first
//! row whose permission and pattern both match.

use super::bash_call::requests::{decide, BashDecision, RequestKind};
use super::evaluate::default_rule;
use super::index::{Direction, Index};
use super::lifecycle::paths::Place;
use super::wildcard::matches;
use super::wildcard::Platform;
use super::{parse_rules, Approvals, Rule};
use crate::context::CallContext;
use crate::error::Error;
use crate::evaluation::{
    Combine, Decision, Engine, EngineId, Evaluation, Part, Reason, Step, Subject,
};
use crate::table::Action;
use crate::table::{Call, RuleTable};

/// OpenCode's evaluator compiled for one ruleset (from the lesson's table or from native
/// OpenCode rules). A `bash` call is checked whole, as the product's bash tool does
/// ([`Scope::WholeCall`]); other tools, and [`Scope::Evaluate`], ask `evaluate` once with the
/// call's input.
///
/// ```
/// use permlab_core::{Call, Decision, Engine, RuleTable};
/// use permlab_core::opencode::{OpenCodeEngine, Scope};
/// let table = RuleTable::from_json(include_str!("../../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let engine = OpenCodeEngine::new(&table);
/// let call = Call::new("bash", "python -m unittest; rm -rf /");
/// // The whole call: `rm -rf /` reaches outside the project, so `external_directory` is
/// // asked first; no row answers it, so the product asks.
/// let e = engine.evaluate(&call);
/// assert_eq!(e.decision, Decision::Ask);
/// assert_eq!(e.parts[0].subject.text(), "/*");
/// // `evaluate` alone sees one string: row #9 is the last match.
/// let e = engine.clone().scoped(Scope::Evaluate).evaluate(&call);
/// assert_eq!(e.decision, Decision::Allow);
/// assert_eq!(e.rule, Some(8));
/// assert_eq!(e.matches, [7, 8]);             // #8 (bash * deny) matched too, but earlier
/// assert_eq!(e.steps.first().unwrap().row, 9); // the cursor starts at the bottom
/// assert_eq!(engine.decide(&Call::new("bash", "ls")), (Decision::Deny, Some(7)));
/// ```
#[derive(Clone, Debug)]
pub struct OpenCodeEngine {
    rules: Vec<Rule>,
    index: Index,
    scope: Scope,
    place: Place,
}

/// What a `bash` call is checked as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The whole call, as the product's bash tool decides it (the default).
    WholeCall,
    /// Only `Permission.evaluate` on the command text as one pattern (what `permlab bench`
    /// compares with the real `evaluate`).
    Evaluate,
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
        OpenCodeEngine {
            rules,
            index,
            scope: Scope::WholeCall,
            place: Place::of(&CallContext::default()),
        }
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

    /// The same engine checking calls as `scope`.
    pub fn scoped(self, scope: Scope) -> Self {
        OpenCodeEngine { scope, ..self }
    }

    /// The same engine running calls in `place` (project, home, working directory).
    pub fn in_place(self, place: Place) -> Self {
        OpenCodeEngine { place, ..self }
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
        Evaluation::whole(EngineId::OpenCode, decision, rule, matches, steps, reason)
    }
}

impl Engine for OpenCodeEngine {
    fn id(&self) -> EngineId {
        EngineId::OpenCode
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        if self.scope == Scope::Evaluate || call.tool != BASH {
            return self.trace(&call.tool, &call.input);
        }
        self.whole_bash_call(&call.input)
    }

    fn decide(&self, call: &Call) -> (Decision, Option<usize>) {
        if self.scope == Scope::Evaluate || call.tool != BASH {
            return match self
                .index
                .find(Direction::LastMatch, &call.tool, &call.input)
            {
                Some(i) => (Decision::from(self.rules[i].action), Some(i)),
                None => (Decision::Ask, None),
            };
        }
        if let Some(row) = self.hidden_by() {
            return (Decision::Unavailable, Some(row));
        }
        let d = bash_call_with(self, &call.input, &self.place);
        let checks = deciding_check(&d);
        (
            Decision::from(d.decision),
            checks.and_then(|(r, c)| d.requests[r].checks[c].rule),
        )
    }
}

/// [`bash_call`] over a precompiled engine (its index makes a large table cheap).
///
/// ```
/// use permlab_core::Action;
/// use permlab_core::opencode::{bash_call_with, lesson_place, OpenCodeEngine, Rule};
/// let engine = OpenCodeEngine::from_rules(vec![
///     Rule::new("external_directory", "*", Action::Deny),
///     Rule::new("bash", "*", Action::Allow),
/// ]);
/// let d = bash_call_with(&engine, "rm -rf /tmp/x", &lesson_place());
/// assert_eq!(d.requests.len(), 1); // bash is never asked
/// assert_eq!(d.decision, Action::Deny);
/// ```
pub fn bash_call_with(engine: &OpenCodeEngine, command: &str, place: &Place) -> BashDecision {
    decide(
        engine.rules(),
        |permission, pattern| engine.find_last(permission, pattern),
        command,
        place,
    )
}

/// The tool whose calls OpenCode's bash tool parses.
const BASH: &str = "bash";

impl BashDecision {
    /// The row that decided the whole call: that of [`deciding_check`].
    pub fn deciding_rule(&self) -> Option<usize> {
        let (r, c) = deciding_check(self)?;
        self.requests[r].checks[c].rule
    }
}

/// Which check decided, as (request, pattern): within the deciding request (the first that is
/// not allow), its first pattern with that request's action; when every request allows, the
/// last pattern checked.
pub fn deciding_check(d: &BashDecision) -> Option<(usize, usize)> {
    match d.decided_by {
        Some(r) => {
            let req = &d.requests[r];
            let c = req.checks.iter().position(|c| c.action == req.action)?;
            Some((r, c))
        }
        None => {
            let r = d.requests.len().checked_sub(1)?;
            Some((r, d.requests[r].checks.len().checked_sub(1)?))
        }
    }
}

impl OpenCodeEngine {
    /// The row that hides `bash` from the model (`Permission.disabled`): the last row whose
    /// tool matches `bash`, when it is `*` → deny.
    pub fn hidden_by(&self) -> Option<usize> {
        let row = self
            .rules
            .iter()
            .rposition(|r| matches(BASH, &r.permission))?;
        let r = &self.rules[row];
        (r.pattern == "*" && r.action == Action::Deny).then_some(row)
    }

    /// The whole `bash` call as the real bash tool decides it ([`bash_call_with`]): one part
    /// per request pattern it evaluated (outside directories first), each walked from the
    /// bottom of the table; the first part that is not allowed decides.
    fn whole_bash_call(&self, command: &str) -> Evaluation {
        if let Some(row) = self.hidden_by() {
            // `findLast` over the tool column only: from the bottom to the first `bash` row.
            let steps = (row..self.rules.len())
                .rev()
                .map(|i| Step {
                    row: i,
                    group: None,
                    tool_matched: i == row,
                    pattern_matched: None,
                    stop: i == row,
                    part: None,
                })
                .collect();
            return Evaluation::whole(
                EngineId::OpenCode,
                Decision::Unavailable,
                Some(row),
                vec![row],
                steps,
                Reason::OpenCodeHidden { row },
            );
        }
        let d = bash_call_with(self, command, &self.place);
        let Some((dr, dc)) = deciding_check(&d) else {
            return Evaluation::whole(
                EngineId::OpenCode,
                Decision::Allow,
                None,
                Vec::new(),
                Vec::new(),
                Reason::OpenCodeNothingAsked,
            );
        };
        let mut parts = Vec::new();
        let mut steps = Vec::new();
        let mut deciding = 0;
        let mut matches = Vec::new();
        for (r, req) in d.requests.iter().enumerate() {
            let permission = req.permission.name();
            // `Permission.ask` stops at the first pattern that denies.
            let last = req
                .checks
                .iter()
                .position(|c| c.action == Action::Deny)
                .unwrap_or(req.checks.len().saturating_sub(1));
            for (c, check) in req.checks.iter().enumerate().take(last + 1) {
                let k = parts.len();
                let trace = self.trace(permission, &check.pattern);
                steps.extend(trace.steps.into_iter().map(|s| Step { part: Some(k), ..s }));
                if (r, c) == (dr, dc) {
                    deciding = k;
                    matches = trace.matches;
                }
                parts.push(Part {
                    subject: match req.permission {
                        RequestKind::ExternalDirectory => {
                            Subject::OutsideDirectory(check.pattern.clone())
                        }
                        RequestKind::Bash => Subject::Command(check.pattern.clone()),
                    },
                    decision: Decision::from(check.action),
                    rule: check.rule,
                    reason: trace.reason,
                });
            }
        }
        let part = &parts[deciding];
        let (rule, reason) = (part.rule, part.reason.clone());
        let one_piece =
            parts.len() == 1 && matches!(&parts[0].subject, Subject::Command(c) if c == command);
        // A call checked as one piece, as written, has no parts (and its steps none either).
        let steps = if one_piece {
            steps
                .into_iter()
                .map(|s| Step { part: None, ..s })
                .collect()
        } else {
            steps
        };
        let mut whole = Evaluation::whole(
            EngineId::OpenCode,
            Decision::from(d.decision),
            rule,
            matches,
            steps,
            reason,
        );
        if d.decision == Action::Ask {
            // The prompt the call shows is the asking request's: its "Allow always" patterns.
            whole.always = d.requests[dr].always.clone();
        }
        if one_piece {
            return whole;
        }
        Evaluation {
            parts,
            decided_by: Some((deciding, Combine::FirstNotAllowed)),
            ..whole
        }
    }
}
