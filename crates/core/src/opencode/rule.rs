//! One OpenCode rule, and rulesets read from and written as JSON. A leaf: the evaluator, the
//! agents, the config reader, approvals and the lifecycle all build on it.

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
