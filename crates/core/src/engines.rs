//! Every engine over the lesson's common table, by [`EngineId`].
//!
//! The widget, the CLI and the analysis ask for engines through here so that "which engines
//! exist" is written once.
//!
//! ```
//! use permlab_core::{engines, Call, Decision, EngineId, RuleTable};
//! let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
//! let call = Call::parse("bash: python -m unittest -v test_dateparse.py").unwrap();
//! let verdicts: Vec<_> = EngineId::ALL
//!     .iter()
//!     .map(|&id| (id, engines::build(id, &table).decide(&call).0))
//!     .collect();
//! assert_eq!(verdicts, [
//!     (EngineId::FirstMatch, Decision::Deny),        // #8 `bash * deny` comes first
//!     (EngineId::OpenCode, Decision::Allow),         // #9 is the last match
//!     (EngineId::ClaudeCode, Decision::Unavailable), // `deny Bash` removes the tool
//!     (EngineId::CoreCoder, Decision::Ask),          // bash is not read-only
//!     (EngineId::Codex, Decision::Ask),              // nothing expressible matched
//! ]);
//! ```

use crate::claude_code::ClaudeCodeEngine;
use crate::codex::CodexEngine;
use crate::corecoder::CoreCoderEngine;
use crate::evaluation::{Engine, EngineId};
use crate::first_match::FirstMatchEngine;
use crate::opencode::OpenCodeEngine;
use crate::table::RuleTable;

/// The engine `id`, compiled for `table` with the lesson's defaults (Linux matching, an
/// interactive session, Claude Code in `default` mode).
pub fn build(id: EngineId, table: &RuleTable) -> Box<dyn Engine> {
    match id {
        EngineId::FirstMatch => Box::new(FirstMatchEngine::new(table)),
        EngineId::OpenCode => Box::new(OpenCodeEngine::new(table)),
        EngineId::ClaudeCode => Box::new(ClaudeCodeEngine::new(table)),
        EngineId::CoreCoder => Box::new(CoreCoderEngine::new(table)),
        EngineId::Codex => Box::new(CodexEngine::new(table)),
    }
}

/// Several engines compiled for one table, in the order given.
pub fn build_all(ids: &[EngineId], table: &RuleTable) -> Vec<Box<dyn Engine>> {
    ids.iter().map(|&id| build(id, table)).collect()
}
