//! `evaluate` and `merge` (`packages/opencode/src/permission/index.ts`, v1.18.32).
//!
//! ```text
//! evaluate(permission, pattern, ...rulesets) {
//!   const rule = rulesets.flat().findLast(r =>
//!     Wildcard.match(permission, r.permission) && Wildcard.match(pattern, r.pattern))
//!   return rule ?? { action: "ask", permission, pattern: "*" }
//! }
//! ```
//!
//! **The last matching rule wins**: no specificity, no sorting, no action priority. This is what
//! lets OpenCode layer rulesets like CSS (defaults, then the agent's built-ins, then the user's
//! config, then "always" approvals): whatever comes later overrides what came before. It is also
//! why moving one row can silently flip a verdict.
//!
//! Differs from Claude Code, where deny always beats allow whatever the order, and from the
//! lesson's naive [`first_match`](crate::first_match), which scans the other way.
//!
//! These functions compile patterns on every call, like the source; they are the reference the
//! fast [`OpenCodeEngine`](super::OpenCodeEngine) is tested against.
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::opencode::{evaluate, Rule};
//! let rules = [Rule::new("edit", "src/components/*", Action::Allow), Rule::new("edit", "src/*", Action::Deny)];
//! // The broad rule comes last, so it overrides the specific one.
//! assert_eq!(evaluate("edit", "src/components/Button.tsx", &[&rules]).action, Action::Deny);
//! // No rule for `bash`: the synthesized default, whose pattern is "*", not the request's.
//! assert_eq!(evaluate("bash", "ls", &[&rules]), Rule::new("bash", "*", Action::Ask));
//! ```

use super::wildcard::{matches_on, Platform};
use super::Rule;
use crate::table::Action;

/// What `evaluate` returns when no rule matches: `{action: "ask", permission, pattern: "*"}`.
pub fn default_rule(permission: &str) -> Rule {
    Rule::new(permission, "*", Action::Ask)
}

/// `evaluate(permission, pattern, ...rulesets)` on Linux: the last matching rule (a copy), or
/// the synthesized default `ask`.
pub fn evaluate(permission: &str, pattern: &str, rulesets: &[&[Rule]]) -> Rule {
    evaluate_on(Platform::Linux, permission, pattern, rulesets)
}

/// [`evaluate`] with the matching of `platform`.
pub fn evaluate_on(
    platform: Platform,
    permission: &str,
    pattern: &str,
    rulesets: &[&[Rule]],
) -> Rule {
    rulesets
        .iter()
        .flat_map(|rs| rs.iter())
        .rev()
        .find(|r| rule_matches(platform, r, permission, pattern))
        .cloned()
        .unwrap_or_else(|| default_rule(permission))
}

/// The position (in the concatenation of `rulesets`) of the rule `evaluate` would return, or
/// `None` for the synthesized default.
pub fn find_last(
    platform: Platform,
    permission: &str,
    pattern: &str,
    rulesets: &[&[Rule]],
) -> Option<usize> {
    rulesets
        .iter()
        .flat_map(|rs| rs.iter())
        .enumerate()
        .filter(|(_, r)| rule_matches(platform, r, permission, pattern))
        .map(|(i, _)| i)
        .last()
}

fn rule_matches(platform: Platform, rule: &Rule, permission: &str, pattern: &str) -> bool {
    matches_on(platform, permission, &rule.permission)
        && matches_on(platform, pattern, &rule.pattern)
}

/// `merge(...rulesets)`: plain concatenation, no dedupe, no sort. Order is the meaning.
///
/// ```
/// use permlab_core::Action;
/// use permlab_core::opencode::{merge, Rule};
/// let a = [Rule::new("bash", "*", Action::Allow)];
/// let b = [Rule::new("bash", "*", Action::Ask)];
/// assert_eq!(merge(&[&a, &b]).len(), 2);
/// ```
pub fn merge(rulesets: &[&[Rule]]) -> Vec<Rule> {
    rulesets.iter().flat_map(|rs| rs.iter().cloned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Action::*;

    fn rules(rows: &[(&str, &str, Action)]) -> Vec<Rule> {
        rows.iter().map(|&(p, q, a)| Rule::new(p, q, a)).collect()
    }

    #[test]
    fn unknown_permissions_fall_to_ask() {
        let rs = rules(&[("bash", "*", Allow), ("read", "*", Deny)]);
        for p in ["unknown_tool", "Bash", "READ_FILE", "edit_file ", "", "*"] {
            assert_eq!(evaluate(p, "x", &[&rs]), default_rule(p), "{p:?}");
        }
    }

    #[test]
    fn rules_are_not_home_expanded() {
        let rs = rules(&[("read", "~/.ssh/*", Deny)]);
        assert_eq!(
            evaluate("read", "/home/tester/.ssh/id_rsa", &[&rs]).action,
            Ask
        );
    }

    #[test]
    fn find_last_spans_rulesets() {
        let a = rules(&[("bash", "*", Deny)]);
        let b = rules(&[("bash", "git *", Allow), ("edit", "*", Deny)]);
        assert_eq!(
            find_last(Platform::Linux, "bash", "git push", &[&a, &b]),
            Some(1)
        );
        assert_eq!(find_last(Platform::Linux, "bash", "ls", &[&a, &b]), Some(0));
        assert_eq!(find_last(Platform::Linux, "read", "x", &[&a, &b]), None);
    }
}
