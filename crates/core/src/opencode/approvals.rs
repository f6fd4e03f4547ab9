//! Runtime asks and "always" approvals (`Permission.ask` / `reply`, v1.18.32).
//!
//! `ask` evaluates every requested pattern against `agent ruleset ++ session ruleset ++
//! approved`. A `deny` on any pattern fails the request at once; otherwise one `ask` is enough
//! to ask the user. Replying **always** appends `{permission, pattern, allow}` to `approved` for
//! each of the request's `always` patterns.
//!
//! Because `approved` comes **last**, an approval beats a config deny: with `bash * ask` and
//! `bash git push --force* deny`, approving `git push *` once makes `git push --force origin`
//! run. (A later revision of OpenCode's own tests expects the opposite.) `approved` lives in
//! memory, per project directory, shared by its sessions, until restart.
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::opencode::{Approvals, AskOutcome, Rule};
//! let config = [Rule::new("bash", "*", Action::Ask), Rule::new("bash", "git push --force*", Action::Deny)];
//! let mut approved = Approvals::new();
//! assert!(matches!(approved.ask(&config, &[], "bash", &["git push --force origin"]), AskOutcome::Deny { .. }));
//! approved.always("bash", &["git push *"]);
//! assert_eq!(approved.ask(&config, &[], "bash", &["git push --force origin"]), AskOutcome::Allow);
//! ```

use super::evaluate::evaluate;
use super::wildcard::matches;
use super::{rules_to_value, Rule};
use crate::table::Action;

/// What `ask` does with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskOutcome {
    /// Every pattern is allowed: the tool runs.
    Allow,
    /// At least one pattern needs a human and none is denied: the request is queued.
    Ask,
    /// A pattern is denied (`DeniedError`), whatever the others say.
    Deny {
        /// The first denied pattern, in request order.
        pattern: String,
        /// The rule that denied it.
        rule: Rule,
        /// What `DeniedError` shows the model: the rules of the agent and session rulesets whose
        /// permission matches the request (not only the deciding one).
        relevant: Vec<Rule>,
    },
}

impl AskOutcome {
    /// The message OpenCode returns to the model for a deny (`DeniedError.message`); `None`
    /// unless this is a deny.
    pub fn denied_message(&self) -> Option<String> {
        let AskOutcome::Deny { relevant, .. } = self else {
            return None;
        };
        Some(format!(
            "The user has specified a rule which prevents you from using this specific tool call. \
             Here are some of the relevant rules {}",
            rules_to_value(relevant).to_json()
        ))
    }
}

/// The in-memory list of "always" approvals, appended after every other ruleset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Approvals {
    approved: Vec<Rule>,
}

impl Approvals {
    /// No approvals yet (a fresh project instance).
    pub fn new() -> Self {
        Self::default()
    }

    /// The reply "always": appends an allow rule for each pattern of the request's `always`
    /// list (for bash, the command's arity prefix plus `" *"`, e.g. `git push *`).
    pub fn always(&mut self, permission: &str, always: &[&str]) {
        self.approved.extend(
            always
                .iter()
                .map(|p| Rule::new(permission, *p, Action::Allow)),
        );
    }

    /// The approved rules, oldest first.
    pub fn rules(&self) -> &[Rule] {
        &self.approved
    }

    /// `ask(permission, patterns)` against `agent ++ session ++ approved`.
    pub fn ask(
        &self,
        agent: &[Rule],
        session: &[Rule],
        permission: &str,
        patterns: &[&str],
    ) -> AskOutcome {
        let mut needs_ask = false;
        for p in patterns {
            let rule = evaluate(permission, p, &[agent, session, &self.approved]);
            match rule.action {
                Action::Deny => {
                    let relevant = agent
                        .iter()
                        .chain(session)
                        .filter(|r| matches(permission, &r.permission))
                        .cloned()
                        .collect();
                    return AskOutcome::Deny {
                        pattern: p.to_string(),
                        rule,
                        relevant,
                    };
                }
                Action::Ask => needs_ask = true,
                Action::Allow => {}
            }
        }
        if needs_ask {
            AskOutcome::Ask
        } else {
            AskOutcome::Allow
        }
    }

    /// Whether `approved` **alone** allows every pattern: after an "always", other pending
    /// requests of the session that pass this test resolve too.
    pub fn covers(&self, permission: &str, patterns: &[&str]) -> bool {
        patterns
            .iter()
            .all(|p| evaluate(permission, p, &[&self.approved]).action == Action::Allow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deny_on_any_pattern_wins_even_after_an_ask() {
        let rules = [
            Rule::new("bash", "*", Action::Ask),
            Rule::new("bash", "rm *", Action::Deny),
        ];
        let a = Approvals::new();
        assert_eq!(a.ask(&rules, &[], "bash", &["ls"]), AskOutcome::Ask);
        assert!(
            matches!(a.ask(&rules, &[], "bash", &["ls", "rm x"]), AskOutcome::Deny { pattern, .. } if pattern == "rm x")
        );
    }

    #[test]
    fn covers_uses_approvals_alone() {
        let mut a = Approvals::new();
        a.always("bash", &["git *"]);
        assert!(a.covers("bash", &["git status", "git"]));
        assert!(!a.covers("bash", &["git status", "ls"]));
    }
}
