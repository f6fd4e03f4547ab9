//! OpenCode v1.18.32: **the last matching rule wins** (`findLast`), and no match means `ask`.
//!
//! A faithful port of `anomalyco/opencode` at tag `v1.18.32` (npm `opencode-ai@1.18.32`):
//! `Wildcard.match` ([`wildcard`]), `evaluate` and `merge` ([`evaluate()`], [`merge`]),
//! `fromConfig` with the config decoding in front of it ([`config`]), the built-in agent rulesets
//! and tool visibility ([`agents`]), and "always" approvals ([`approvals`]). Every expected value
//! in `fixtures/conformance/opencode.json` was produced by running the real code; the runner in
//! `conformance/opencode.rs` checks all of them.
//! [`lifecycle`] follows one `bash` call through everything around the evaluator (tool lookup,
//! parsing, the two permission requests, the prompt, execution, output), on the classic
//! runtime and on the newer one seed 002 describes.
//!
//! The model is small:
//!
//! - a [`Rule`] is `{permission, pattern, action}`; **both** sides are wildcard patterns;
//! - a ruleset is an ordered list, and the order alone decides: rulesets are layered by plain
//!   concatenation — defaults, the agent's built-ins, the user's config, the agent block of the
//!   config, then runtime approvals — so that each layer overrides the ones before it;
//! - `evaluate(permission, pattern)` returns the last rule matching both, or the synthesized
//!   `{permission, pattern: "*", action: ask}`.
//!
//! Differences worth pinning, because the lesson is about them:
//!
//! - Claude Code checks deny rules first whatever their order; OpenCode has no action priority.
//!   A broad rule written after a specific one overrides it.
//! - `*` crosses `/` and newlines (`git *` allows `git status\nrm -rf /`), `?` is one UTF-16
//!   code unit, backslash is a path separator and never an escape.
//! - "Always" approvals are appended *after* the config, so they beat config denies.
//!
//! ```
//! use permlab_core::{Call, Decision, Engine, RuleTable};
//! use permlab_core::opencode::OpenCodeEngine;
//! // The lesson's git pair, deny first: the later `git *` allow overrides it.
//! let table = RuleTable::from_json(r#"[
//!     {"tool": "bash", "pattern": "git push *", "action": "deny"},
//!     {"tool": "bash", "pattern": "git *", "action": "allow"}
//! ]"#).unwrap();
//! let engine = OpenCodeEngine::new(&table);
//! assert_eq!(engine.decide(&Call::new("bash", "git push --force")), (Decision::Allow, Some(1)));
//! assert_eq!(engine.decide(&Call::new("bash", "gitx")), (Decision::Ask, None));
//! ```

pub mod agents;
pub mod approvals;
pub mod bash_call;
pub mod config;
mod engine;
pub mod evaluate;
pub(crate) mod index;
pub mod layers;
pub mod lifecycle;
pub mod wildcard;

pub use agents::{agent_ruleset, defaults, disabled, visible_tools, Agent, AgentEnv};
pub use approvals::{Approvals, AskOutcome};
pub use bash_call::{
    bash_call, bash_call_with, lesson_place, AskedRequest, BashDecision, PatternCheck, Place,
    RequestKind,
};
pub use config::{expand, from_config, PermissionConfig, PermissionEntry};
pub use engine::{deciding_check, OpenCodeEngine, Scope};
pub use evaluate::{default_rule, evaluate, evaluate_on, find_last, merge};
pub use wildcard::Platform;

use crate::error::Error;
use crate::json::{self, Value};
use crate::table::Action;

/// One OpenCode rule. Both `permission` and `pattern` are `Wildcard.match` patterns.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Which permission (tool) the rule is about: `bash`, `edit`, `read`, `*`, `mcp_*`…
    pub permission: String,
    /// What the requested pattern (command, path…) must match.
    pub pattern: String,
    /// What happens when this rule decides.
    pub action: Action,
}

impl Rule {
    /// A rule.
    pub fn new(permission: impl Into<String>, pattern: impl Into<String>, action: Action) -> Self {
        Rule {
            permission: permission.into(),
            pattern: pattern.into(),
            action,
        }
    }

    /// The rule as OpenCode prints it: `{"permission", "pattern", "action"}`.
    pub fn to_value(&self) -> Value {
        Value::Object(vec![
            (
                "permission".to_string(),
                Value::from(self.permission.as_str()),
            ),
            ("pattern".to_string(), Value::from(self.pattern.as_str())),
            ("action".to_string(), Value::from(self.action.as_str())),
        ])
    }

    /// Reads `{"permission", "pattern", "action"}` (unknown fields ignored); `at` names the
    /// value in error messages.
    pub fn from_value(value: &Value, at: &str) -> Result<Self, Error> {
        if value.as_object().is_none() {
            return Err(Error::shape(
                at,
                format!(
                    "expected an OpenCode rule {{\"permission\", \"pattern\", \"action\"}}, found {}",
                    value.kind()
                ),
            ));
        }
        let field = |name: &str| -> Result<&str, Error> {
            match value.get(name) {
                Some(Value::String(s)) => Ok(s),
                Some(other) => Err(Error::shape(
                    format!("{at}.{name}"),
                    format!("expected a string, found {}", other.kind()),
                )),
                None => Err(Error::shape(
                    at,
                    format!("this rule has no \"{name}\" field"),
                )),
            }
        };
        let (permission, pattern, action) =
            (field("permission")?, field("pattern")?, field("action")?);
        let action = action.parse::<Action>().map_err(|_| {
            Error::shape(
                format!("{at}.action"),
                format!(
                    "unknown action \"{action}\": use \"allow\", \"ask\" or \"deny\" (lower case)"
                ),
            )
        })?;
        Ok(Rule::new(permission, pattern, action))
    }
}

/// Reads a JSON array of OpenCode rules, e.g. what `opencode debug agent build` prints:
/// `[{"permission": "bash", "pattern": "git *", "action": "allow"}, …]`.
///
/// ```
/// use permlab_core::opencode::parse_rules;
/// let rules = parse_rules(r#"[{"permission": "bash", "pattern": "*", "action": "deny"}]"#).unwrap();
/// assert_eq!(rules[0].permission, "bash");
/// let err = parse_rules(r#"[{"permission": "bash", "pattern": "*"}]"#).unwrap_err();
/// assert_eq!(err.to_string(), r#"at [0]: this rule has no "action" field"#);
/// ```
pub fn parse_rules(text: &str) -> Result<Vec<Rule>, Error> {
    rules_from_value(&json::parse(text)?)
}

/// Like [`parse_rules`], from a parsed value.
pub fn rules_from_value(value: &Value) -> Result<Vec<Rule>, Error> {
    let Some(items) = value.as_array() else {
        return Err(Error::shape(
            "",
            format!(
                "expected an array of OpenCode rules [{{\"permission\", \"pattern\", \"action\"}}, …], found {}",
                value.kind()
            ),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| Rule::from_value(v, &format!("[{i}]")))
        .collect()
}

/// A ruleset as a JSON array value (OpenCode's own shape).
pub fn rules_to_value(rules: &[Rule]) -> Value {
    Value::Array(rules.iter().map(Rule::to_value).collect())
}
