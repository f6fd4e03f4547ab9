//! The rule table a learner sees (tool · pattern · action) and the call it is asked about.
//!
//! This is the lesson's common language, taken from seed 000 (miniagent's
//! `configs/rules-standard.json`): every engine receives the same [`RuleTable`] and [`Call`], and
//! each decides in its own way. Rows carry a stable [`RuleId`] so that a user interface can keep
//! track of a row while the learner drags it around; engines report *positions* (0-based row
//! indices in the current order).
//!
//! ```
//! use permlab_core::{Action, Call, RuleTable};
//! let table = RuleTable::from_json(r#"[
//!     {"tool": "bash", "pattern": "git push *", "action": "deny"},
//!     {"tool": "bash", "pattern": "git *", "action": "allow"}
//! ]"#).unwrap();
//! assert_eq!(table.len(), 2);
//! assert_eq!(table.rules()[0].action, Action::Deny);
//! let call = Call::parse("bash: git push origin main").unwrap();
//! assert_eq!((call.tool.as_str(), call.input.as_str()), ("bash", "git push origin main"));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{CallProblem, Error, ErrorKind, Expected, Problem};
use crate::json::{self, Value};

/// What a rule says should happen to a call it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Run without asking.
    Allow,
    /// Ask a human first.
    Ask,
    /// Refuse.
    Deny,
}

impl Action {
    /// All actions, in the lesson's display order.
    pub const ALL: [Action; 3] = [Action::Allow, Action::Ask, Action::Deny];

    /// The lower-case name used in every config format: `allow`, `ask`, `deny`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    }

    /// Priority in "deny beats ask beats allow" (Claude Code's groups, the seed's
    /// "highest-priority action"): higher is stronger.
    ///
    /// ```
    /// use permlab_core::Action;
    /// assert!(Action::Deny.priority() > Action::Ask.priority());
    /// assert!(Action::Ask.priority() > Action::Allow.priority());
    /// ```
    pub fn priority(self) -> u8 {
        match self {
            Action::Allow => 0,
            Action::Ask => 1,
            Action::Deny => 2,
        }
    }
}

impl FromStr for Action {
    type Err = Error;

    /// Exactly `allow`, `ask` or `deny`: the harnesses are case-sensitive, so this is too.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "allow" => Ok(Action::Allow),
            "ask" => Ok(Action::Ask),
            "deny" => Ok(Action::Deny),
            other => Err(Error::new(ErrorKind::UnknownAction(other.to_string()))),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stable identity for a row, independent of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(pub u32);

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

/// One row: which tool, which input pattern, what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable identity (the row's position when the table was loaded, starting at 1).
    pub id: RuleId,
    /// Tool name as the agent calls it (`bash`, `edit_file`…). Engines decide whether it is a
    /// pattern.
    pub tool: String,
    /// The pattern the tool's input is matched against, in the engine's own syntax.
    pub pattern: String,
    /// What happens on a match.
    pub action: Action,
}

/// An ordered list of rules. Order is part of the meaning for order-sensitive engines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleTable {
    rules: Vec<Rule>,
}

impl RuleTable {
    /// A table from `(tool, pattern, action)` rows; ids are 1, 2, 3… in the given order.
    ///
    /// ```
    /// use permlab_core::{Action, RuleTable};
    /// let t = RuleTable::new([("bash", "*", Action::Deny)]);
    /// assert_eq!(t.rules()[0].id.0, 1);
    /// ```
    pub fn new<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str, Action)>) -> Self {
        RuleTable {
            rules: rows
                .into_iter()
                .enumerate()
                .map(|(i, (tool, pattern, action))| Rule {
                    id: RuleId(i as u32 + 1),
                    tool: tool.to_string(),
                    pattern: pattern.to_string(),
                    action,
                })
                .collect(),
        }
    }

    /// A table from rules that already carry ids (e.g. a restored order).
    pub fn from_rules(rules: Vec<Rule>) -> Self {
        RuleTable { rules }
    }

    /// Reads the fixtures format: a JSON array of `{"tool", "pattern", "action"}` objects, or an
    /// object with such an array under `"rules"`. Unknown fields are ignored so that tables can
    /// carry notes.
    ///
    /// ```
    /// use permlab_core::RuleTable;
    /// let err = RuleTable::from_json(r#"[{"tool": "bash", "pattern": "*", "action": "Deny"}]"#)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     r#"at [0].action: unknown action "Deny": use "allow", "ask" or "deny" (lower case)"#);
    /// ```
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let value = json::parse(text)?;
        Self::from_value(&value)
    }

    /// Like [`RuleTable::from_json`], from an already parsed value.
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        let (rows, prefix) = match value {
            Value::Array(rows) => (rows.as_slice(), String::new()),
            Value::Object(_) => match value.get("rules") {
                Some(Value::Array(rows)) => (rows.as_slice(), "rules".to_string()),
                Some(other) => return Err(Error::wrong_type("rules", Expected::Rules, other)),
                None => {
                    return Err(Error::shape_as(
                        "",
                        Problem::MissingField("rules".into()),
                        "expected an array of rules, or an object with a \"rules\" array",
                    ))
                }
            },
            other => return Err(Error::wrong_type("", Expected::Rules, other)),
        };
        let mut rules = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let at = format!("{prefix}[{i}]");
            if row.as_object().is_none() {
                return Err(Error::wrong_type(at, Expected::Rule, row));
            }
            let field = |name: &str| -> Result<&str, Error> {
                match row.get(name) {
                    Some(Value::String(s)) => Ok(s),
                    Some(other) => Err(Error::wrong_type(
                        format!("{at}.{name}"),
                        Expected::String,
                        other,
                    )),
                    None => Err(Error::shape_as(
                        at.clone(),
                        Problem::MissingField(name.into()),
                        format!("this rule has no \"{name}\" field"),
                    )),
                }
            };
            let tool = field("tool")?;
            let pattern = field("pattern")?;
            let action = field("action")?
                .parse::<Action>()
                .map_err(|e| match e.kind() {
                    ErrorKind::UnknownAction(a) => Error::shape_as(
                        format!("{at}.action"),
                        Problem::UnknownAction(a.clone()),
                        format!(
                            "unknown action \"{a}\": use \"allow\", \"ask\" or \"deny\" (lower case)"
                        ),
                    ),
                    _ => e,
                })?;
            rules.push(Rule {
                id: RuleId(i as u32 + 1),
                tool: tool.to_string(),
                pattern: pattern.to_string(),
                action,
            });
        }
        Ok(RuleTable { rules })
    }

    /// The table in the fixtures format (a JSON array, two-space indented, one rule per line).
    ///
    /// ```
    /// use permlab_core::{Action, RuleTable};
    /// let t = RuleTable::new([("bash", "git *", Action::Allow)]);
    /// assert_eq!(RuleTable::from_json(&t.to_json()).unwrap(), t);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::from("[");
        for (i, r) in self.rules.iter().enumerate() {
            out.push_str(if i == 0 { "\n  " } else { ",\n  " });
            out.push_str("{\"tool\": ");
            json::write_string(&r.tool, &mut out);
            out.push_str(", \"pattern\": ");
            json::write_string(&r.pattern, &mut out);
            out.push_str(", \"action\": ");
            json::write_string(r.action.as_str(), &mut out);
            out.push('}');
        }
        out.push_str(if self.rules.is_empty() { "]" } else { "\n]" });
        out
    }

    /// The rows in their current order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The current position (0-based) of the row with `id`.
    pub fn position_of(&self, id: RuleId) -> Option<usize> {
        self.rules.iter().position(|r| r.id == id)
    }

    /// Moves the row at `from` to position `to` (both 0-based), shifting the rows in between —
    /// what a drag-and-drop does. Returns `false` (and changes nothing) when either index is out
    /// of range.
    ///
    /// ```
    /// use permlab_core::{Action, RuleTable};
    /// let mut t = RuleTable::new([("a", "*", Action::Allow), ("b", "*", Action::Ask), ("c", "*", Action::Deny)]);
    /// assert!(t.move_rule(0, 2));
    /// let tools: Vec<_> = t.rules().iter().map(|r| r.tool.as_str()).collect();
    /// assert_eq!(tools, ["b", "c", "a"]);
    /// ```
    pub fn move_rule(&mut self, from: usize, to: usize) -> bool {
        if from >= self.rules.len() || to >= self.rules.len() {
            return false;
        }
        let rule = self.rules.remove(from);
        self.rules.insert(to, rule);
        true
    }

    /// Reverses the whole table (the lesson's 整表倒序).
    pub fn reverse(&mut self) {
        self.rules.reverse();
    }

    /// Puts rows in the order of `ids`. Unknown ids are skipped; rows not named keep their
    /// relative order after the named ones. Used to restore an order from a URL.
    pub fn reorder(&mut self, ids: &[RuleId]) {
        let mut rest = std::mem::take(&mut self.rules);
        for id in ids {
            if let Some(i) = rest.iter().position(|r| r.id == *id) {
                self.rules.push(rest.remove(i));
            }
        }
        self.rules.extend(rest);
    }
}

/// One tool call: the tool's name and the one input string the rules look at (a bash command,
/// a file path…).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    /// The tool name as the agent sends it (`bash`, `edit_file`…).
    pub tool: String,
    /// The input the patterns are matched against.
    pub input: String,
}

impl Call {
    /// A call of `tool` with `input`.
    pub fn new(tool: impl Into<String>, input: impl Into<String>) -> Self {
        Call {
            tool: tool.into(),
            input: input.into(),
        }
    }

    /// Reads the lesson's shorthand `tool: input`, e.g. `bash: git push origin main`.
    ///
    /// Only the first `": "` separates; the input is kept byte for byte after it (it may contain
    /// colons, newlines, leading spaces beyond the one after the colon…).
    ///
    /// ```
    /// use permlab_core::Call;
    /// let c = Call::parse("bash: echo a: b").unwrap();
    /// assert_eq!(c.input, "echo a: b");
    /// assert!(Call::parse("git push").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let Some((tool, input)) = text.split_once(':') else {
            return Err(Error::new(ErrorKind::Call(CallProblem::NoColon(
                text.to_string(),
            ))));
        };
        let tool = tool.trim();
        if tool.is_empty() || tool.chars().any(char::is_whitespace) {
            return Err(Error::new(ErrorKind::Call(CallProblem::ToolNotOneWord(
                text.to_string(),
            ))));
        }
        let input = input.strip_prefix(' ').unwrap_or(input);
        Ok(Call::new(tool, input))
    }

    /// Reads `{"tool": …, "input": …}` (the format of `permlab batch` and trace files).
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        let field = |name: &str| {
            match value.get(name) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(Error::wrong_type(name, Expected::String, other)),
            None => Err(Error::shape_as(
                "",
                Problem::MissingField(name.into()),
                format!(
                    "a call needs \"tool\" and \"input\" strings, e.g. {{\"tool\": \"bash\", \"input\": \"git status\"}}; \"{name}\" is missing"
                ),
            )),
        }
        };
        if value.as_object().is_none() {
            return Err(Error::wrong_type("", Expected::Call, value));
        }
        Ok(Call::new(field("tool")?, field("input")?))
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tool, self.input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_errors_name_the_row() {
        let cases = [
            ("{}", "expected an array of rules"),
            ("[1]", "at [0]: expected a rule object"),
            (
                r#"[{"tool": "bash", "action": "deny"}]"#,
                "at [0]: this rule has no \"pattern\" field",
            ),
            (
                r#"[{"tool": 1, "pattern": "*", "action": "deny"}]"#,
                "at [0].tool: expected a string, found a number",
            ),
            (
                r#"{"rules": [{"tool": "a", "pattern": "*", "action": "nope"}]}"#,
                "at rules[0].action: unknown action \"nope\"",
            ),
            ("[", "invalid JSON at line 1, column 2"),
        ];
        for (text, want) in cases {
            let got = RuleTable::from_json(text).unwrap_err().to_string();
            assert!(got.contains(want), "{text}: {got}");
        }
    }

    #[test]
    fn hostile_strings_survive_a_round_trip() {
        let t = RuleTable::new([
            ("bash", "<script>alert(1)</script>", Action::Deny),
            ("edit_file", "\u{202e}txt.exe\n😀\"\\", Action::Ask),
        ]);
        assert_eq!(RuleTable::from_json(&t.to_json()).unwrap(), t);
    }

    #[test]
    fn reorder_restores_an_order_and_keeps_the_rest() {
        let mut t = RuleTable::new([
            ("a", "*", Action::Allow),
            ("b", "*", Action::Allow),
            ("c", "*", Action::Allow),
        ]);
        t.reorder(&[RuleId(3), RuleId(99), RuleId(1)]);
        let ids: Vec<u32> = t.rules().iter().map(|r| r.id.0).collect();
        assert_eq!(ids, [3, 1, 2]);
    }

    #[test]
    fn move_out_of_range_changes_nothing() {
        let mut t = RuleTable::new([("a", "*", Action::Allow)]);
        assert!(!t.move_rule(0, 1));
        assert!(!t.move_rule(5, 0));
        assert_eq!(t.len(), 1);
    }
}
