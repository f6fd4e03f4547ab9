//! # permlab-core
//!
//! How coding-agent harnesses decide whether a tool call may run, re-implemented faithfully
//! enough that a lesson can say "computed by the same algorithm as the real thing" and be right.
//!
//! The lesson's common language is a [`RuleTable`] (tool · pattern · action rows) and a [`Call`]
//! (`bash: git push origin main`). Each engine module reads as the specification of the harness
//! it names and returns an [`Evaluation`]: the verdict, the decisive row, every matching row,
//! and the steps it took.
//!
//! This crate is pure Rust: no DOM, no wasm-bindgen, no `regex`/`serde_json` (they would
//! multiply the widget's download size). It builds for `wasm32-unknown-unknown` and native.
//!
//! ```
//! use permlab_core::{Action, RuleTable};
//! let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
//! assert_eq!(table.len(), 10);
//! assert_eq!(table.rules()[7].pattern, "*");
//! assert_eq!(table.rules()[7].action, Action::Deny);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
pub mod claude_code;
pub mod codex;
pub mod comparison;
pub mod conformance;
pub mod context;
pub mod corecoder;
mod decision;
pub mod design;
pub mod engines;
pub mod error;
pub mod evaluation;
pub mod first_match;
pub mod import;
pub mod json;
pub mod lcc;
pub mod lesson;
pub mod lint;
pub mod merge;
pub mod opencode;
pub mod pi_gate;
mod pychar;
pub mod replay;
pub mod sort;
pub mod table;
pub mod timeline;
pub mod trace;

pub use error::{Error, ErrorKind};
pub use evaluation::{Decision, Engine, EngineId, Evaluation, Reason, Step};
pub use lesson::tasks;
pub use table::{Action, Call, Rule, RuleId, RuleTable};
