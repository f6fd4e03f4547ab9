//! What every engine returns: one [`Evaluation`] per call.
//!
//! An evaluation is enough to *show* the decision without deciding anything again: the verdict,
//! the decisive row, every row that matched, and the ordered [`Step`]s the engine took. The widget
//! animates its cursors from `steps` and writes its "why" line from `reason`; it never re-derives
//! either. Rows are positions (0-based) in the table as it was evaluated.

use std::fmt;

use crate::table::Action;

pub use crate::decision::Decision;

/// The engines permlab ports, with the slugs the widget and CLI use (`data-engine`, `--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EngineId {
    /// The naive design from seed 000: top-down, first match wins.
    FirstMatch,
    /// OpenCode v1.18.32: last match wins (`findLast`).
    OpenCode,
    /// Claude Code 2.1.332 (recorded 2026-12-01): deny → ask → allow groups, then the mode.
    ClaudeCode,
    /// CoreCoder 0.7.0: ignores rules; read-only tools run, the rest ask.
    CoreCoder,
    /// Codex 0.171.0 execpolicy: token-prefix rules, strictest match wins.
    Codex,
}

impl EngineId {
    /// Every engine, in the lesson's display order.
    pub const ALL: [EngineId; 5] = [
        EngineId::FirstMatch,
        EngineId::OpenCode,
        EngineId::ClaudeCode,
        EngineId::CoreCoder,
        EngineId::Codex,
    ];

    /// The stable slug: `first-match`, `opencode`, `claude-code`, `corecoder`, `codex`.
    pub fn slug(self) -> &'static str {
        match self {
            EngineId::FirstMatch => "first-match",
            EngineId::OpenCode => "opencode",
            EngineId::ClaudeCode => "claude-code",
            EngineId::CoreCoder => "corecoder",
            EngineId::Codex => "codex",
        }
    }

    /// The engine with this slug.
    ///
    /// ```
    /// use permlab_core::EngineId;
    /// assert_eq!(EngineId::from_slug("opencode"), Some(EngineId::OpenCode));
    /// assert_eq!(EngineId::from_slug("OpenCode"), None);
    /// ```
    pub fn from_slug(slug: &str) -> Option<EngineId> {
        EngineId::ALL.into_iter().find(|e| e.slug() == slug)
    }

    /// The real product version this engine reproduces, as learners and authors are shown it
    /// (the widget's about text, `permlab --version`); `None` for the naive first-match
    /// design, which is no product. This is the one place the pins are written.
    ///
    /// ```
    /// use permlab_core::EngineId;
    /// assert_eq!(EngineId::ClaudeCode.pin(), Some("Claude Code 2.1.332 (recorded 2026-12-01)"));
    /// assert_eq!(EngineId::Codex.pin(), Some("Codex 0.171.0"));
    /// assert_eq!(EngineId::OpenCode.pin(), Some("OpenCode 1.18.32"));
    /// assert_eq!(EngineId::FirstMatch.pin(), None);
    /// ```
    pub fn pin(self) -> Option<&'static str> {
        match self {
            EngineId::FirstMatch => None,
            EngineId::OpenCode => Some("OpenCode 1.18.32"),
            // Kept in step with `claude_code::drift::{CLI_VERSION, RECORDED}` (a test checks).
            EngineId::ClaudeCode => Some("Claude Code 2.1.332 (recorded 2026-12-01)"),
            EngineId::CoreCoder => Some("CoreCoder 0.7.0"),
            EngineId::Codex => Some("Codex 0.171.0"),
        }
    }

    /// Whether the product can take a tool away from the model altogether, so that a call
    /// to it is [`Decision::Unavailable`]: Claude Code (a bare `deny Bash`) and OpenCode (a
    /// last `bash *` deny hides the tool).
    pub fn can_hide_tools(self) -> bool {
        matches!(self, EngineId::OpenCode | EngineId::ClaudeCode)
    }

    /// Whether the engine reads the rule table at all (every engine but CoreCoder, which looks
    /// at the tool name only): the stepper walks a cursor for exactly these.
    pub fn reads_rules(self) -> bool {
        self != EngineId::CoreCoder
    }

    /// The rows the engine looks at, in its order, when none of them stops it: first-match and
    /// Codex from the top, OpenCode from the bottom (`findLast`), Claude Code the deny rows,
    /// then the ask rows, then the allow rows (each with its group). `actions` are the table's
    /// rows' actions, top to bottom. It depends on the table only, never on a call: the walk a
    /// learner may watch before guessing, which tells nothing about where the engine stops.
    ///
    /// ```
    /// use permlab_core::{Action, EngineId};
    /// let t = [Action::Allow, Action::Deny, Action::Ask];
    /// let rows = |e: EngineId| e.scan_order(&t).iter().map(|s| s.0).collect::<Vec<_>>();
    /// assert_eq!(rows(EngineId::FirstMatch), [0, 1, 2]);
    /// assert_eq!(rows(EngineId::OpenCode), [2, 1, 0]);
    /// assert_eq!(rows(EngineId::ClaudeCode), [1, 2, 0]);
    /// assert_eq!(EngineId::ClaudeCode.scan_order(&t)[0], (1, Some(Action::Deny)));
    /// assert!(EngineId::CoreCoder.scan_order(&t).is_empty());
    /// ```
    pub fn scan_order(self, actions: &[Action]) -> Vec<(usize, Option<Action>)> {
        let n = actions.len();
        match self {
            EngineId::FirstMatch | EngineId::Codex => (0..n).map(|i| (i, None)).collect(),
            EngineId::OpenCode => (0..n).rev().map(|i| (i, None)).collect(),
            EngineId::ClaudeCode => [Action::Deny, Action::Ask, Action::Allow]
                .into_iter()
                .flat_map(|g| {
                    (0..n)
                        .filter(move |&i| actions[i] == g)
                        .map(move |i| (i, Some(g)))
                })
                .collect(),
            EngineId::CoreCoder => Vec::new(),
        }
    }

    /// Whether moving rows can change this engine's verdicts at all.
    pub fn order_sensitive(self) -> bool {
        matches!(self, EngineId::FirstMatch | EngineId::OpenCode)
    }
}

#[cfg(test)]
mod pin_tests {
    use super::EngineId;
    use crate::claude_code::drift;

    #[test]
    fn claude_code_pin_names_the_recorded_cli() {
        let pin = EngineId::ClaudeCode.pin().unwrap();
        assert!(pin.contains(drift::CLI_VERSION), "{pin}");
        assert!(pin.contains(drift::RECORDED), "{pin}");
    }
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// One row an engine looked at, in the order it looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The row's position (0-based) in the evaluated table.
    pub row: usize,
    /// For grouped engines (Claude Code), the group being searched; `None` for engines that
    /// scan the table in one pass.
    pub group: Option<Action>,
    /// Whether the row's tool matched the call's tool.
    pub tool_matched: bool,
    /// Whether the row's pattern matched the call's input; `None` when the engine did not look
    /// (the tool already failed).
    pub pattern_matched: Option<bool>,
    /// Whether the engine stopped here because this row decided.
    pub stop: bool,
    /// Which of [`Evaluation::parts`] this step belongs to (`None` when the call was checked
    /// as one piece): the stepper walks the table once per part.
    pub part: Option<usize>,
}

/// What one part of a whole call is: the products do not hand a compound command line to
/// their rules as one string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// One command of the line, as the product checks it (OpenCode: the bash request's
    /// pattern, `git status`; Codex: the split command's words joined by spaces).
    Command(String),
    /// OpenCode: the `external_directory` request for a directory outside the project
    /// (`/tmp/*`), which the bash tool asks before any command.
    OutsideDirectory(String),
}

impl Subject {
    /// The text checked against the rules.
    pub fn text(&self) -> &str {
        match self {
            Subject::Command(s) | Subject::OutsideDirectory(s) => s,
        }
    }
}

/// One part of a whole call, checked on its own against the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// What was checked.
    pub subject: Subject,
    /// The part's own outcome.
    pub decision: Decision,
    /// The row that decided this part (`None`: no rule matched it).
    pub rule: Option<usize>,
    /// Why this part came out as it did.
    pub reason: Reason,
}

/// How the parts of a whole call combine into the product's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// OpenCode's bash tool: requests are asked in order (outside directories first); the
    /// first one that is not allowed decides, and a deny ends the call.
    FirstNotAllowed,
    /// Codex: every command is checked and the strictest decision wins.
    Strictest,
}

/// Why an engine decided as it did, as data the widget renders in zh or en.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The rule at `row` matched and its action decided.
    Rule {
        /// Decisive row (0-based position).
        row: usize,
        /// That rule's action.
        action: Action,
    },
    /// No rule matched; the engine's fallback decided.
    NoMatch {
        /// What the engine does with an unmatched call.
        fallback: Decision,
    },

    // --- CoreCoder ---
    /// CoreCoder read none of the rows: the tool's name and the session decided.
    CoreCoder {
        /// The layer that decided (plan mode, read-only, `--yes`, "always", `-p`, prompt).
        layer: crate::corecoder::Layer,
        /// For a `bash` call that is not refused: the index of the first pattern of
        /// [`crate::corecoder::DANGEROUS_PATTERNS`] that will refuse it at execution, after
        /// consent.
        blacklist: Option<usize>,
        /// How many rows of the table were ignored (all of them).
        rules_ignored: usize,
    },

    // --- OpenCode ---
    /// OpenCode: no rule matched, so `evaluate` returned the rule it synthesizes,
    /// `{permission: <requested permission>, pattern: "*", action: "ask"}`. Its pattern is
    /// always `*`, never the requested input; the decision is `ask`.
    OpenCodeDefault {
        /// The requested permission (the call's tool), copied into the synthesized rule.
        permission: String,
    },

    // --- Claude Code ---
    /// Claude Code: a bare (or tool-name glob) deny at `row` removed the tool from the model's
    /// context; the call could not have been made ([`Decision::Unavailable`]).
    ToolRemoved {
        /// The bare deny row (0-based position).
        row: usize,
    },
    /// Claude Code: a rule matched, and the session's permission mode turned its answer into
    /// the verdict (dontAsk: an ask rule's prompt becomes a deny, since nobody is asked).
    ClaudeRuleInMode {
        /// The matching rule's row (0-based position).
        row: usize,
        /// That rule's action.
        action: Action,
        /// The permission mode that turned it.
        mode: crate::claude_code::Mode,
    },
    /// Claude Code: a step other than a rule decided (the mode's baseline or fallback, the
    /// read-only set, a safety check, the sandbox, a hook…).
    ClaudeCode(crate::claude_code::Decider),
    // --- Codex execpolicy ---
    /// Codex: every matching prefix rule was collected and the strictest decided
    /// (`allow < prompt < forbidden`); `row` is the first row, in table order, with that
    /// decision. Order never matters.
    CodexStrictest {
        /// Decisive row (0-based position).
        row: usize,
        /// That rule's action (prompt is shown as ask, forbidden as deny).
        action: Action,
        /// How many rows matched in total.
        matched: usize,
    },
    /// Codex: no prefix rule matched. execpolicy itself gives no decision; codex-core falls back
    /// to its own heuristics (known-safe commands, sandbox and approval settings), which permlab
    /// does not model. The verdict shown (ask) is a placeholder, not what Codex would do.
    CodexNoRuleMatched,
    /// Codex: execpolicy only sees shell commands; a call of another tool never reaches it
    /// (Codex governs those by its approval and sandbox settings, not modelled). Shown as ask.
    CodexNotACommand {
        /// The call's tool.
        tool: String,
    },
    /// Codex: the command string could not be split into argv (Python `shlex.split` would
    /// raise), so no rule can be checked. Shown as ask.
    CodexUnsplittable {
        /// `No closing quotation` or `No escaped character`.
        message: String,
    },
    /// OpenCode: the bash tool made no permission request at all (the line holds only `cd`
    /// inside the project, assignments, tests or comments), so the command runs.
    OpenCodeNothingAsked,
    /// OpenCode: the last row whose tool matches `bash` is `*` → deny, so the product hides
    /// the tool from the model (`Permission.disabled`): the call cannot be made.
    OpenCodeHidden {
        /// That row (0-based position).
        row: usize,
    },
}

/// The full result of evaluating one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Which engine produced this.
    pub engine: EngineId,
    /// The verdict.
    pub decision: Decision,
    /// The decisive row (0-based position), if a rule decided.
    pub rule: Option<usize>,
    /// Every row whose tool and pattern both match the call, in table order.
    pub matches: Vec<usize>,
    /// The rows the engine examined, in the order it examined them, ending where it stopped.
    pub steps: Vec<Step>,
    /// Why, as structured data.
    pub reason: Reason,
    /// The verdict rests on a point the harness's documentation leaves open (Claude Code only);
    /// the widget says "inferred from the docs".
    pub inferred: bool,
    /// The parts the product split the call into, in the order it checked them; empty when
    /// the call was checked as one piece (its input as written). `rule`, `matches` and
    /// `reason` are then those of the deciding part ([`Evaluation::decided_by`]).
    pub parts: Vec<Part>,
    /// The part that decided, and how the parts combined (`None` for a call checked as one
    /// piece).
    pub decided_by: Option<(usize, Combine)>,
    /// OpenCode, when the call asks: the patterns "Allow always" on that prompt would save
    /// (`git status *`: the command's arity prefix, not the command); empty otherwise.
    pub always: Vec<String>,
}

impl Evaluation {
    /// An evaluation of a call checked as one piece (no parts).
    pub fn whole(
        engine: EngineId,
        decision: Decision,
        rule: Option<usize>,
        matches: Vec<usize>,
        steps: Vec<Step>,
        reason: Reason,
    ) -> Evaluation {
        Evaluation {
            engine,
            decision,
            rule,
            matches,
            steps,
            reason,
            inferred: false,
            parts: Vec::new(),
            decided_by: None,
            always: Vec::new(),
        }
    }

    /// The part that decided, if the call was split.
    pub fn deciding_part(&self) -> Option<&Part> {
        self.decided_by.and_then(|(k, _)| self.parts.get(k))
    }
}

/// An engine compiled for one rule table: built once (patterns parsed and indexed), then asked
/// about many calls. Every engine module provides one over the common [`RuleTable`].
///
/// [`RuleTable`]: crate::RuleTable
pub trait Engine {
    /// Which engine this is.
    fn id(&self) -> EngineId;

    /// Evaluates `call` with the full trace (steps, matches, reason).
    fn evaluate(&self, call: &crate::Call) -> Evaluation;

    /// Only the verdict and the decisive row, as fast as the engine can: what `permlab batch`
    /// and `permlab bench` use. Must agree with [`Engine::evaluate`].
    fn decide(&self, call: &crate::Call) -> (Decision, Option<usize>) {
        let e = self.evaluate(call);
        (e.decision, e.rule)
    }
}
