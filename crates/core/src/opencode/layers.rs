//! Config layering: the global `~/.config/opencode/opencode.json`, then the project's
//! `opencode.json`, deep-merged; then the agent block `agent.<name>.permission` appended after
//! the user's rules.
//!
//! The merge keeps each key where the **first** layer put it; later layers only replace values.
//! So a project cannot move a global `"*"` after its own exceptions, and because the last match
//! wins, a global `"*": "deny"` written first stays overridable while one written last would not.
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::opencode::{evaluate, AgentEnv};
//! use permlab_core::opencode::layers::ruleset_from_configs;
//! let env = AgentEnv::new("/home/tester", "/home/tester/.local/share", "/tmp", "/home/tester/p");
//! let global = r#"{"permission": {"bash": {"*": "deny", "git *": "allow"}}}"#;
//! let project = r#"{"permission": {"bash": {"npm *": "allow", "*": "ask"}}}"#;
//! let rules = ruleset_from_configs(&[global, project], "build", &env).unwrap();
//! assert_eq!(evaluate("bash", "git status", &[&rules]).action, Action::Allow); // `*: ask` stayed first
//! ```

use std::collections::HashMap;

use super::agents::{agent_ruleset, Agent, AgentEnv};
use super::config::{from_config, js_object, PermissionConfig};
use super::Rule;
use crate::error::Error;
use crate::json::{self, Value};

/// Deep-merges config layers the way OpenCode's loader does (global, then project): two objects
/// merge key by key, and a key keeps the position it has in the **first** layer that defines
/// it; anything else (a string against an object, arrays) is replaced by the later layer.
///
/// So a project cannot move the global `"*"` to the end: global `{"*": "deny", "git *": "allow"}`
/// plus project `{"npm *": "allow", "*": "ask"}` gives `*: ask, git *: allow, npm *: allow`.
///
/// ```
/// use permlab_core::json::parse;
/// use permlab_core::opencode::layers::merge_layers;
/// let global = parse(r#"{"permission": {"bash": {"*": "deny", "git *": "allow"}}}"#).unwrap();
/// let project = parse(r#"{"permission": {"bash": {"npm *": "allow", "*": "ask"}}}"#).unwrap();
/// assert_eq!(merge_layers(&[&global, &project]).to_json(),
///     r#"{"permission":{"bash":{"*":"ask","git *":"allow","npm *":"allow"}}}"#);
/// ```
pub fn merge_layers(layers: &[&Value]) -> Value {
    let mut merged = Value::Object(Vec::new());
    for layer in layers {
        merged = deep_merge(&merged, &js_object(layer));
    }
    js_object(&merged)
}

fn deep_merge(a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut out = x.clone();
            let mut seen: HashMap<String, usize> = x
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            for (k, v) in y {
                match seen.get(k) {
                    Some(&i) => out[i].1 = deep_merge(&out[i].1, v),
                    None => {
                        seen.insert(k.clone(), out.len());
                        out.push((k.clone(), v.clone()));
                    }
                }
            }
            Value::Object(out)
        }
        _ => b.clone(),
    }
}

/// The user's part of an agent's ruleset from a (merged) `opencode.json` value: `fromConfig` of
/// `permission`, and separately `fromConfig` of `agent.<agent>.permission` (appended after it by
/// [`agent_ruleset`]). Missing values give empty rulesets.
///
/// ```
/// use permlab_core::json::parse;
/// use permlab_core::opencode::layers::user_rules;
/// let config = parse(r#"{"permission": {"bash": "ask"}, "agent": {"build": {"permission": {"bash": {"git *": "allow"}}}}}"#).unwrap();
/// let (user, block) = user_rules(&config, "build", "/home/tester").unwrap();
/// assert_eq!((user.len(), block.len()), (1, 1));
/// ```
pub fn user_rules(
    config: &Value,
    agent: &str,
    home: &str,
) -> Result<(Vec<Rule>, Vec<Rule>), Error> {
    let config = js_object(config);
    let user = match config.get("permission") {
        Some(v) => from_config(&PermissionConfig::decode(v)?, home),
        None => Vec::new(),
    };
    let block = match config
        .get("agent")
        .and_then(|a| a.get(agent))
        .and_then(|a| a.get("permission"))
    {
        Some(v) => from_config(
            &PermissionConfig::decode_at(v, &format!("agent.{agent}.permission"))?,
            home,
        ),
        None => Vec::new(),
    };
    Ok((user, block))
}

/// An agent's complete ruleset from the JSONC texts of the config layers (global first, then
/// project): merge, decode, `fromConfig`, then [`agent_ruleset`]. `agent` may name a built-in
/// agent or one defined in config (which gets no built-ins).
pub fn ruleset_from_configs(
    layers: &[&str],
    agent: &str,
    env: &AgentEnv,
) -> Result<Vec<Rule>, Error> {
    let values = layers
        .iter()
        .map(|text| json::parse_jsonc(text))
        .collect::<Result<Vec<Value>, _>>()?;
    let refs: Vec<&Value> = values.iter().collect();
    let (user, block) = user_rules(&merge_layers(&refs), agent, &env.home)?;
    Ok(agent_ruleset(Agent::from_name(agent), env, &user, &block))
}
