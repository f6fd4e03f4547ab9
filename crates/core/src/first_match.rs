//! The lesson's naive design (seed 000, miniagent's `first_match`): read the table top-down, and
//! **the first rule whose tool and pattern both match decides**; no match means `ask`.
//!
//! It uses exactly OpenCode's wildcard for both the tool and the pattern, so that the only
//! difference from [`OpenCodeEngine`](crate::opencode::OpenCodeEngine) is the direction of the
//! scan. That makes the lesson's point precise: first-match on a table gives the same verdict as
//! last-match on the same table reversed.
//!
//! Why it fails in the lesson: miniagent writes "general rule first, exception after"
//! (`bash * deny`, then `bash python -m unittest* allow`). Top-down, the general rule always
//! wins, so the test command is denied.
//!
//! ```
//! use permlab_core::{Call, Decision, Engine, RuleTable};
//! use permlab_core::first_match::FirstMatchEngine;
//! let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
//! let e = FirstMatchEngine::new(&table).evaluate(&Call::new("bash", "python -m unittest -v test_dateparse.py"));
//! assert_eq!(e.decision, Decision::Deny);
//! assert_eq!(e.rule, Some(7)); // row #8, `bash * deny`
//! assert_eq!(e.steps.len(), 8); // rows #1..#8, top-down
//! ```

use crate::evaluation::{Decision, Engine, EngineId, Evaluation, Reason};
use crate::opencode::index::{Direction, Index};
use crate::opencode::wildcard::Platform;
use crate::table::{Action, Call, RuleTable};

/// First-match compiled for one table.
#[derive(Clone, Debug)]
pub struct FirstMatchEngine {
    actions: Vec<Action>,
    index: Index,
}

impl FirstMatchEngine {
    /// Compiles `table` (case-sensitive matching, as on Linux).
    pub fn new(table: &RuleTable) -> Self {
        FirstMatchEngine {
            actions: table.rules().iter().map(|r| r.action).collect(),
            index: Index::new(
                Platform::Linux,
                table
                    .rules()
                    .iter()
                    .map(|r| (r.tool.as_str(), r.pattern.as_str())),
            ),
        }
    }
}

impl Engine for FirstMatchEngine {
    fn id(&self) -> EngineId {
        EngineId::FirstMatch
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        let (matches, rule, steps) =
            self.index
                .trace(Direction::FirstMatch, &call.tool, &call.input);
        let (decision, reason) = match rule {
            Some(row) => {
                let action = self.actions[row];
                (Decision::from(action), Reason::Rule { row, action })
            }
            None => (
                Decision::Ask,
                Reason::NoMatch {
                    fallback: Decision::Ask,
                },
            ),
        };
        Evaluation::whole(EngineId::FirstMatch, decision, rule, matches, steps, reason)
    }

    fn decide(&self, call: &Call) -> (Decision, Option<usize>) {
        match self
            .index
            .find(Direction::FirstMatch, &call.tool, &call.input)
        {
            Some(i) => (Decision::from(self.actions[i]), Some(i)),
            None => (Decision::Ask, None),
        }
    }
}
