//! The `permission` value of `opencode.json` → a ruleset: decoding, then `fromConfig`.
//!
//! **Decoding** is what OpenCode's config loader does before `fromConfig` ever runs: JSONC, then
//! an Effect schema that collects *all* errors and rejects the whole configuration on any of
//! them (`ConfigInvalidError`), so no partial ruleset exists. The schema
//! (`ConfigPermissionV1.Info`) is:
//!
//! - the value is an action string (shorthand for `{"*": action}`) or an object;
//! - an action is exactly `ask`, `allow` or `deny` (case-sensitive);
//! - known keys `read edit glob grep list bash task external_directory lsp skill` take an action
//!   or an object `{pattern: action}`; `todowrite question webfetch websearch doom_loop` take an
//!   action only (so granular `webfetch` URL rules, shown in the docs, are a config error);
//! - every key, known or not, is also checked by the rest record `{[key]: action | object}`,
//!   which is why most errors appear twice in OpenCode's message.
//!
//! **Key order is the user's**, at the top level and inside each tool object — but it is a
//! JavaScript object's order: integer-like keys first in ascending order, then the others in
//! insertion order, and a duplicated key keeps its first position with its last value
//! ([`js_object`]). `"*"` is not hoisted: `{"git *": "allow", "*": "ask"}` asks for `git status`.
//!
//! **`fromConfig`** then walks the entries in that order: `key: action` gives
//! `{permission: key, pattern: "*", action}`; `key: {p: a, …}` gives one rule per entry with the
//! pattern home-expanded by [`expand`].
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::opencode::{from_config, PermissionConfig, Rule};
//! let config = PermissionConfig::parse(r#"{"bash": {"git *": "allow", "git push *": "deny"}, "edit": "ask"}"#).unwrap();
//! assert_eq!(from_config(&config, "/home/tester"), [
//!     Rule::new("bash", "git *", Action::Allow),
//!     Rule::new("bash", "git push *", Action::Deny),
//!     Rule::new("edit", "*", Action::Ask),
//! ]);
//! let err = PermissionConfig::parse(r#"{"webfetch": {"https://*": "allow"}}"#).unwrap_err();
//! assert!(err.to_string().starts_with("ConfigInvalidError: permission.webfetch: Expected PermissionActionConfig | undefined"));
//! ```

use std::collections::HashMap;

use super::Rule;
use crate::error::{Error, ErrorKind};
use crate::json::{self, Value};
use crate::table::Action;

/// What a known key of the schema accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum KeyKind {
    /// An action or an object of pattern → action.
    Rule,
    /// An action only.
    ActionOnly,
}

/// The schema's known keys, in the schema's order (errors are reported in this order).
const KNOWN_KEYS: [(&str, KeyKind); 15] = [
    ("read", KeyKind::Rule),
    ("edit", KeyKind::Rule),
    ("glob", KeyKind::Rule),
    ("grep", KeyKind::Rule),
    ("list", KeyKind::Rule),
    ("bash", KeyKind::Rule),
    ("task", KeyKind::Rule),
    ("external_directory", KeyKind::Rule),
    ("todowrite", KeyKind::ActionOnly),
    ("question", KeyKind::ActionOnly),
    ("webfetch", KeyKind::ActionOnly),
    ("websearch", KeyKind::ActionOnly),
    ("lsp", KeyKind::Rule),
    ("doom_loop", KeyKind::ActionOnly),
    ("skill", KeyKind::Rule),
];

/// One entry of a decoded `permission` object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PermissionEntry {
    /// `"bash": "ask"`: one rule with pattern `*`.
    Action(Action),
    /// `"bash": {"git *": "allow", …}`: one rule per pattern, in order (may be empty).
    Patterns(Vec<(String, Action)>),
}

/// A decoded, valid `permission` value: entries in JavaScript object order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PermissionConfig {
    /// `(permission, entry)` in the order `fromConfig` walks them.
    pub entries: Vec<(String, PermissionEntry)>,
}

impl PermissionConfig {
    /// Decodes the JSONC text of a `permission` value (exact text, so that key order, integer-like
    /// keys and duplicates behave as in JavaScript).
    ///
    /// ```
    /// use permlab_core::opencode::{PermissionConfig, PermissionEntry};
    /// let c = PermissionConfig::parse(r#"{"bash": {"2": "deny", "1": "allow", "*": "ask", "10": "ask"}}"#).unwrap();
    /// let PermissionEntry::Patterns(p) = &c.entries[0].1 else { panic!() };
    /// let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
    /// assert_eq!(keys, ["1", "2", "10", "*"]); // integer-like keys first, ascending
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::decode(&json::parse_jsonc(text)?)
    }

    /// Decodes a parsed `permission` value, reporting errors under the path `permission`.
    pub fn decode(value: &Value) -> Result<Self, Error> {
        Self::decode_at(value, "permission")
    }

    /// Decodes a parsed value, reporting errors under `path` (e.g. `agent.build.permission`).
    pub fn decode_at(value: &Value, path: &str) -> Result<Self, Error> {
        Self::decode_with_limits(value, path, &Limits::default())
    }

    /// [`PermissionConfig::parse`] within `limits`.
    pub fn parse_with_limits(text: &str, limits: &Limits) -> Result<Self, Error> {
        Self::decode_with_limits(&json::parse_jsonc(text)?, "permission", limits)
    }

    /// [`PermissionConfig::decode_at`] within `limits`: a config with more keys than
    /// [`Limits::keys`] is refused before anything else is looked at, and at most
    /// [`Limits::errors`] errors are listed.
    pub fn decode_with_limits(value: &Value, path: &str, limits: &Limits) -> Result<Self, Error> {
        let keys = match value {
            Value::Object(entries) => entries
                .iter()
                .map(|(_, v)| 1 + v.as_object().map_or(0, <[_]>::len))
                .sum(),
            _ => 0,
        };
        if keys > limits.keys {
            return Err(Error::new(ErrorKind::Config(format!(
                "{path}: {keys} keys and patterns, more than permlab's limit of {} for one permission config \
                 (opencode::config::Limits::keys): split it, or raise the limit",
                limits.keys
            ))));
        }
        let value = js_object(value);
        let mut errors = Vec::new();
        match &value {
            Value::String(s) => match s.parse::<Action>() {
                Ok(a) => {
                    return Ok(PermissionConfig {
                        entries: vec![("*".to_string(), PermissionEntry::Action(a))],
                    })
                }
                Err(_) => errors.push(expected(path, "PermissionActionConfig", &value)),
            },
            Value::Object(entries) => {
                for (key, kind) in KNOWN_KEYS {
                    if let Some(v) = value.get(key) {
                        let at = format!("{path}.{key}");
                        match kind {
                            KeyKind::Rule => check_rule(&at, v, true, &mut errors),
                            KeyKind::ActionOnly => match v {
                                Value::String(s) if s.parse::<Action>().is_ok() => {}
                                Value::String(_) => {
                                    errors.push(expected(&at, "PermissionActionConfig", v))
                                }
                                _ => errors.push(expected(
                                    &at,
                                    "PermissionActionConfig | undefined",
                                    v,
                                )),
                            },
                        }
                    }
                }
                for (key, v) in entries {
                    check_rule(&format!("{path}.{key}"), v, false, &mut errors);
                }
            }
            other => errors.push(expected(
                path,
                "PermissionActionConfig | object | undefined",
                other,
            )),
        }
        if !errors.is_empty() {
            let more = errors.len().saturating_sub(limits.errors);
            errors.truncate(limits.errors);
            if more > 0 {
                errors.push(format!(
                    "… and {more} more errors (opencode::config::Limits::errors is {})",
                    limits.errors
                ));
            }
            return Err(Error::new(ErrorKind::Config(format!(
                "ConfigInvalidError: {}",
                errors.join("; ")
            ))));
        }
        let mut out = Vec::new();
        for (key, v) in value.as_object().unwrap_or_default() {
            let entry = match v {
                Value::String(s) => PermissionEntry::Action(action(s)?),
                Value::Object(pairs) => PermissionEntry::Patterns(
                    pairs
                        .iter()
                        .map(|(p, a)| Ok((p.clone(), action(a.as_str().unwrap_or_default())?)))
                        .collect::<Result<_, Error>>()?,
                ),
                _ => continue, // rejected above
            };
            out.push((key.clone(), entry));
        }
        Ok(PermissionConfig { entries: out })
    }
}

/// How large an OpenCode `permission` config may be ([`PermissionConfig::decode_with_limits`]).
///
/// The largest config of the shared corpus has a few dozen keys; the default of 100 000 keys
/// and patterns (tool keys plus the patterns under them) is thousands of times that, and a
/// 10 000-rule generated config still loads.
///
/// ```
/// use permlab_core::opencode::config::{Limits, PermissionConfig};
/// let text = r#"{"bash": {"a": "allow", "b": "deny"}}"#;
/// assert!(PermissionConfig::parse_with_limits(text, &Limits { keys: 3, ..Limits::default() }).is_ok());
/// let err = PermissionConfig::parse_with_limits(text, &Limits { keys: 2, ..Limits::default() }).unwrap_err();
/// assert!(err.to_string().contains("Limits::keys"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most keys and patterns (each top-level key counts one, plus one per pattern under it).
    pub keys: usize,
    /// Most errors listed in one `ConfigInvalidError` (OpenCode lists them all).
    pub errors: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            keys: 100_000,
            errors: 100,
        }
    }
}

fn action(s: &str) -> Result<Action, Error> {
    s.parse::<Action>()
}

/// `action | {pattern: action}` (the schema's `PermissionRuleConfig`), optional for known keys.
fn check_rule(at: &str, v: &Value, optional: bool, errors: &mut Vec<String>) {
    match v {
        Value::String(s) if s.parse::<Action>().is_ok() => {}
        Value::String(_) => errors.push(expected(at, "PermissionActionConfig", v)),
        Value::Object(pairs) => {
            for (p, a) in pairs {
                if !matches!(a, Value::String(s) if s.parse::<Action>().is_ok()) {
                    errors.push(expected(&format!("{at}.{p}"), "PermissionActionConfig", a));
                }
            }
        }
        _ if optional => errors.push(expected(at, "PermissionRuleConfig | undefined", v)),
        _ => errors.push(expected(at, "PermissionRuleConfig", v)),
    }
}

fn expected(at: &str, what: &str, got: &Value) -> String {
    format!("{at}: Expected {what}, got {}", got.to_json())
}

/// `fromConfig(permission)`: the ruleset, in the config's order, patterns home-expanded.
pub fn from_config(config: &PermissionConfig, home: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for (key, entry) in &config.entries {
        match entry {
            PermissionEntry::Action(a) => rules.push(Rule::new(key.as_str(), "*", *a)),
            PermissionEntry::Patterns(pairs) => rules.extend(
                pairs
                    .iter()
                    .map(|(p, a)| Rule::new(key.as_str(), expand(p, home), *a)),
            ),
        }
    }
    rules
}

/// `expand(pattern)`: `~/…`, `~` and a leading `$HOME` become the home directory. Applied by
/// `fromConfig` to every pattern key (never to the top-level permission keys), and nowhere else:
/// `evaluate` itself treats `~` and `$HOME` as plain characters.
///
/// ```
/// use permlab_core::opencode::expand;
/// let home = "/home/tester";
/// assert_eq!(expand("~/projects/*", home), "/home/tester/projects/*");
/// assert_eq!(expand("~", home), "/home/tester");
/// assert_eq!(expand("$HOMEBOY/x", home), "/home/testerBOY/x"); // only a prefix test
/// assert_eq!(expand("~user/x", home), "~user/x");
/// assert_eq!(expand("${HOME}/x", home), "${HOME}/x");
/// ```
pub fn expand(pattern: &str, home: &str) -> String {
    if let Some(rest) = pattern.strip_prefix('~') {
        if rest.is_empty() {
            return home.to_string();
        }
        if rest.starts_with('/') {
            return format!("{home}{rest}");
        }
    }
    if let Some(rest) = pattern.strip_prefix("$HOME") {
        return format!("{home}{rest}");
    }
    pattern.to_string()
}

/// Whether `key` is a JavaScript array index ("0", "1", … up to 2³² − 2, no leading zeros):
/// such keys are enumerated first, in ascending order, whatever order they were written in.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    (n < u64::from(u32::MAX)).then_some(n as u32)
}

/// A parsed value as JavaScript would hold it after `JSON.parse`: in every object, a duplicated
/// key keeps the position of its first occurrence with the value of its last, and integer-like
/// keys come first in ascending numeric order. Numbers are re-printed from their value.
///
/// ```
/// use permlab_core::json::parse;
/// use permlab_core::opencode::config::js_object;
/// let v = js_object(&parse(r#"{"bash": "allow", "edit": "ask", "bash": {"rm *": "deny"}, "10": 1, "2": 2}"#).unwrap());
/// assert_eq!(v.to_json(), r#"{"2":2,"10":1,"bash":{"rm *":"deny"},"edit":"ask"}"#);
/// ```
pub fn js_object(value: &Value) -> Value {
    match value {
        Value::Object(entries) => {
            let mut out: Vec<(String, Value)> = Vec::with_capacity(entries.len());
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (k, v) in entries {
                let v = js_object(v);
                match seen.get(k.as_str()) {
                    Some(&i) => out[i].1 = v,
                    None => {
                        seen.insert(k, out.len());
                        out.push((k.clone(), v));
                    }
                }
            }
            // Stable: non-index keys keep insertion order behind the index keys.
            crate::sort::by_rank(&mut out, |(k, _)| match array_index(k) {
                Some(n) => u64::from(n),
                None => u64::MAX,
            });
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(js_object).collect()),
        Value::Number(n) => Value::from(n.value),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        PermissionConfig::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_are_shaped_like_opencode() {
        assert_eq!(
            err(r#"{"bash": "maybe"}"#),
            "ConfigInvalidError: permission.bash: Expected PermissionActionConfig, got \"maybe\"; permission.bash: Expected PermissionActionConfig, got \"maybe\""
        );
        assert_eq!(
            err(r#""Allow""#),
            "ConfigInvalidError: permission: Expected PermissionActionConfig, got \"Allow\""
        );
        assert_eq!(
            err(r#"{"mcp_x": 1}"#),
            "ConfigInvalidError: permission.mcp_x: Expected PermissionRuleConfig, got 1"
        );
        assert!(err("{\"bash\": {\"x\": null}}")
            .contains("permission.bash.x: Expected PermissionActionConfig, got null"));
    }

    #[test]
    fn shorthand_and_empty_objects() {
        let c = PermissionConfig::parse(r#""allow""#).unwrap();
        assert_eq!(from_config(&c, "/h"), [Rule::new("*", "*", Action::Allow)]);
        let c = PermissionConfig::parse(r#"{"bash": {}}"#).unwrap();
        assert!(from_config(&c, "/h").is_empty());
        let c = PermissionConfig::parse("{\n // jsonc\n \"bash\": {\"\": \"deny\",},\n}").unwrap();
        assert_eq!(from_config(&c, "/h"), [Rule::new("bash", "", Action::Deny)]);
    }

    #[test]
    fn decoding_corners() {
        let rules = |text: &str| from_config(&PermissionConfig::parse(text).unwrap(), "/h");
        // Duplicates: first position, last value (also across a string and an object).
        assert_eq!(
            rules(r#"{"bash": "allow", "edit": "ask", "bash": {"rm *": "deny"}}"#),
            [
                Rule::new("bash", "rm *", Action::Deny),
                Rule::new("edit", "*", Action::Ask)
            ]
        );
        // "*" is not hoisted: written last, it overrides everything before it.
        assert_eq!(
            rules(r#"{"bash": {"git *": "allow", "*": "ask"}}"#),
            [
                Rule::new("bash", "git *", Action::Allow),
                Rule::new("bash", "*", Action::Ask)
            ]
        );
        // Integer-like keys move first, also at the top level; "01" is not integer-like.
        assert_eq!(
            rules(r#"{"x": "deny", "01": "ask", "7": "allow"}"#),
            [
                Rule::new("7", "*", Action::Allow),
                Rule::new("x", "*", Action::Deny),
                Rule::new("01", "*", Action::Ask)
            ]
        );
        // Every pattern key is expanded, top-level keys never.
        assert_eq!(
            rules(r#"{"~": {"~": "deny", "$HOME/x": "ask"}}"#),
            [
                Rule::new("~", "/h", Action::Deny),
                Rule::new("~", "/h/x", Action::Ask)
            ]
        );
        // Case-sensitive actions, null anywhere, objects under action-only keys: all rejected.
        for bad in [
            r#"{"bash": {"git *": "Allow"}}"#,
            r#"{"edit": null}"#,
            r#"null"#,
            r#"{"doom_loop": {"*": "ask"}}"#,
            r#"{"todowrite": {"*": "deny"}}"#,
            r#"{"mcp_*": [1]}"#,
            r#"true"#,
        ] {
            assert!(PermissionConfig::parse(bad).is_err(), "{bad}");
        }
        // Unknown keys take objects too.
        assert_eq!(
            rules(r#"{"?ash": {"x": "deny"}}"#),
            [Rule::new("?ash", "x", Action::Deny)]
        );
    }

    #[test]
    fn expand_table() {
        let home = "/home/tester";
        for (input, want) in [
            ("~/x", "/home/tester/x"),
            ("~", "/home/tester"),
            ("$HOME", "/home/tester"),
            ("$HOME/x", "/home/tester/x"),
            ("$HOMEBOY/x", "/home/testerBOY/x"),
            ("$HOME$HOME", "/home/tester$HOME"),
            ("~user/x", "~user/x"),
            ("/a/~/b", "/a/~/b"),
            ("~\\win", "~\\win"),
            ("$home/x", "$home/x"),
            ("${HOME}/x", "${HOME}/x"),
            (" ~/x", " ~/x"),
        ] {
            assert_eq!(expand(input, home), want, "{input:?}");
        }
    }

    #[test]
    fn array_index_keys() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("10"), Some(10));
        assert_eq!(array_index("01"), None);
        assert_eq!(array_index("-1"), None);
        assert_eq!(array_index("4294967294"), Some(4_294_967_294));
        assert_eq!(array_index("4294967295"), None);
        assert_eq!(array_index("99999999999"), None);
    }
}
