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
mod rule;
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
pub use rule::{parse_rules, rules_from_value, rules_to_value, Rule};
pub use wildcard::Platform;
