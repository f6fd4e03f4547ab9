//! The four-state merge of seed 003: a Claude-Code-like permission system rebuilt by hand.
//!
//! A decision is not a boolean. Two needs break `true`/`false`: a rule that wants "ask first"
//! (`false` would refuse, `true` would run), and a participant with no opinion (under "all must
//! say true", abstaining becomes a yes vote). So every decision is one of four
//! [`Behavior`]s — `allow`, `deny`, `ask`, `passthrough` — and carries a `source` and a
//! `reason`.
//!
//! One permission check, in the order the seed gives it (prepare → **decide** → invoke):
//!
//! 1. **Every participant runs** ([`Participant`]): the workspace hard boundary, the shell
//!    default, the rules, the hook's suggestion. None short-circuits, so the audit sees the
//!    whole conflict, not "whatever happened to match first". A participant with no opinion
//!    returns no candidate.
//! 2. **Merge** ([`merge`]): the first `deny`, else the first `ask`, else the first `allow`, else
//!    `passthrough`. *The more conservative wins*: deny > ask > allow > passthrough.
//! 3. **Converge**: `passthrough` becomes `allow` from source `default`; `ask` calls the
//!    approval provider — and *only* `ask` does: with `[deny, ask]` the user never sees a
//!    prompt, because their answer could not change the result.
//! 4. **Audit** ([`audit_line`]), after merging and approval, before execution:
//!    `[Permission] <tool>: <behavior> (<source>) - <reason>`.
//!
//! ```
//! use permlab_core::merge::{decide, Approval, Effect, Participant, Request};
//! let participants = Participant::chapter3();
//! let glob = Request { tool: "glob", effect: Effect::Read, path: None, workspace: "/w/code" };
//! let trace = decide(&glob, &participants, |_, _| unreachable!("no prompt"));
//! assert_eq!(trace.audit_line(),
//!     "[Permission] glob: allow (default) - No permission rule blocked the request");
//! ```
//!
//! Compared with Claude Code ([`crate::evaluation::EngineId::ClaudeCode`]), which searches
//! rule *groups* deny → ask → allow, this merge ranks *candidates from different kinds of
//! participants*; the same ordering, applied one level up.

use std::fmt;

use crate::lcc::safe_path;

/// One of the four behaviors (`PERMISSION_BEHAVIORS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Behavior {
    /// Run it.
    Allow,
    /// Refuse it. No other participant's allow can overturn a deny.
    Deny,
    /// Ask the approval provider.
    Ask,
    /// "I have no opinion": loses to everything, and alone becomes allow (`default`).
    Passthrough,
}

impl Behavior {
    /// `allow`, `deny`, `ask` or `passthrough`.
    pub fn as_str(self) -> &'static str {
        match self {
            Behavior::Allow => "allow",
            Behavior::Deny => "deny",
            Behavior::Ask => "ask",
            Behavior::Passthrough => "passthrough",
        }
    }

    /// Strength in the merge: deny 3 > ask 2 > allow 1 > passthrough 0.
    pub fn strength(self) -> u8 {
        match self {
            Behavior::Deny => 3,
            Behavior::Ask => 2,
            Behavior::Allow => 1,
            Behavior::Passthrough => 0,
        }
    }
}

impl fmt::Display for Behavior {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `PermissionDecision(behavior, reason, source)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionDecision {
    /// What to do.
    pub behavior: Behavior,
    /// Why, in words (printed in the audit line and the approval prompt).
    pub reason: String,
    /// Who decided (`workspace-boundary`, `shell-default`, `default`, `terminal-approval`…).
    pub source: String,
}

impl PermissionDecision {
    /// A decision.
    pub fn new(behavior: Behavior, reason: impl Into<String>, source: impl Into<String>) -> Self {
        PermissionDecision {
            behavior,
            reason: reason.into(),
            source: source.into(),
        }
    }
}

/// The reason of the `default` allow that an all-passthrough merge converges to.
pub const DEFAULT_REASON: &str = "No permission rule blocked the request";
/// The reason of the workspace boundary's deny.
pub const OUTSIDE_WORKSPACE_REASON: &str = "Writing outside the workspace is forbidden";
/// The reason of the shell default's ask.
pub const SHELL_REASON: &str = "Shell execution requires approval";
/// The reason of an approval the user gave.
pub const APPROVED_REASON: &str = "User approved this tool call";
/// The reason of an approval the user refused. *Not in the seed*, which prints this audit line
/// only as `[Permission] write_file: deny (terminal-approval)`; the wording is ours.
pub const REJECTED_REASON: &str = "User rejected this tool call";

/// What a tool does, from its trusted local definition (never from the model's arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Reads only (`read_file`, `glob`…).
    Read,
    /// Writes files (`write_file`, `edit_file`).
    Write,
    /// Runs commands (`shell`/`bash`).
    Execute,
}

/// A prepared tool call: the definition exists, the arguments parsed and validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// Its effect, from the tool's definition.
    pub effect: Effect,
    /// The path argument, for file tools.
    pub path: Option<&'a str>,
    /// The workspace (absolute).
    pub workspace: &'a str,
}

/// A rule or a hook suggestion: applies to one tool name (or `*`, every tool).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRule {
    /// The rule's name, e.g. `confirm-file-write`.
    pub name: String,
    /// The tool it applies to, or `*`.
    pub tool: String,
    /// What it says when it applies.
    pub behavior: Behavior,
    /// Why (shown in the approval prompt for `ask`).
    pub reason: String,
}

impl PolicyRule {
    /// A rule.
    pub fn new(
        name: impl Into<String>,
        tool: impl Into<String>,
        behavior: Behavior,
        reason: impl Into<String>,
    ) -> Self {
        PolicyRule {
            name: name.into(),
            tool: tool.into(),
            behavior,
            reason: reason.into(),
        }
    }

    fn applies(&self, tool: &str) -> bool {
        self.tool == "*" || self.tool == tool
    }
}

/// One participant of the decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Participant {
    /// The system hard boundary: a `write` whose path resolves outside the workspace (s03's
    /// `safe_path`, here [`crate::lcc::safe_path`]) → deny from `workspace-boundary`. Other
    /// effects, and writes inside: no candidate. A write without a path cannot be checked and
    /// is denied (fail closed; the seed's write tools always carry a path).
    WorkspaceBoundary,
    /// Every `execute` effect → ask from `shell-default`: a command that looks read-only can
    /// still reach outside the workspace, start processes or use the network.
    ShellDefault,
    /// A user rule; its source is `rule:<name>` (the seed never prints a rule's source).
    Rule(PolicyRule),
    /// A PreToolUse hook's suggestion (chapter 4); its source is `hook:<name>` (our naming).
    Hook(PolicyRule),
}

impl Participant {
    /// The participants of the seed's chapter 3 profile: workspace boundary, shell default and
    /// the rule `confirm-file-write` (`write_file` → ask, "File writes require explicit
    /// approval from chapter 3 onward").
    pub fn chapter3() -> Vec<Participant> {
        vec![
            Participant::WorkspaceBoundary,
            Participant::ShellDefault,
            Participant::Rule(PolicyRule::new(
                "confirm-file-write",
                "write_file",
                Behavior::Ask,
                "File writes require explicit approval from chapter 3 onward",
            )),
        ]
    }

    /// This participant's candidate for `request`, or `None` when it has no opinion.
    pub fn candidate(&self, request: &Request<'_>) -> Option<PermissionDecision> {
        match self {
            Participant::WorkspaceBoundary => {
                if request.effect != Effect::Write {
                    return None;
                }
                let inside = request
                    .path
                    .is_some_and(|p| safe_path(request.workspace, p).is_ok());
                (!inside).then(|| {
                    PermissionDecision::new(
                        Behavior::Deny,
                        OUTSIDE_WORKSPACE_REASON,
                        "workspace-boundary",
                    )
                })
            }
            Participant::ShellDefault => (request.effect == Effect::Execute)
                .then(|| PermissionDecision::new(Behavior::Ask, SHELL_REASON, "shell-default")),
            Participant::Rule(rule) => rule.applies(request.tool).then(|| {
                PermissionDecision::new(rule.behavior, &rule.reason, format!("rule:{}", rule.name))
            }),
            Participant::Hook(hook) => hook.applies(request.tool).then(|| {
                PermissionDecision::new(hook.behavior, &hook.reason, format!("hook:{}", hook.name))
            }),
        }
    }
}

/// The merge: first deny, else first ask, else first allow, else a passthrough (with the
/// first passthrough's source and reason if a participant said passthrough explicitly, else
/// from `default`). Order among candidates only picks *which* deny (or ask…) is reported.
///
/// ```
/// use permlab_core::merge::{merge, Behavior, PermissionDecision as D};
/// let cands = [D::new(Behavior::Allow, "a", "x"), D::new(Behavior::Ask, "b", "y"),
///              D::new(Behavior::Deny, "c", "z")];
/// assert_eq!(merge(&cands).source, "z");
/// assert_eq!(merge(&[]).behavior, Behavior::Passthrough);
/// ```
pub fn merge(candidates: &[PermissionDecision]) -> PermissionDecision {
    for behavior in [
        Behavior::Deny,
        Behavior::Ask,
        Behavior::Allow,
        Behavior::Passthrough,
    ] {
        if let Some(d) = candidates.iter().find(|d| d.behavior == behavior) {
            return d.clone();
        }
    }
    PermissionDecision::new(Behavior::Passthrough, DEFAULT_REASON, "default")
}

/// What the approval provider (the terminal prompt `允许本次调用? [y/N]`) returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approval {
    /// `y`.
    Approve,
    /// Anything else, including a bare Enter (the default is N).
    Reject,
    /// The provider failed (threw). Fails closed: deny. The seed asks what happens and what
    /// "default allow" would risk; it does not print this line, so the wording is ours.
    Failed(String),
}

/// One participant's contribution, for the audit view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Position of the participant in the list given to [`decide`].
    pub participant: usize,
    /// Its candidate, or `None` for "no opinion".
    pub decision: Option<PermissionDecision>,
}

/// Everything one decision did, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The tool name (for the audit line).
    pub tool: String,
    /// Every participant's candidate, in participant order (all of them ran).
    pub candidates: Vec<Candidate>,
    /// The merged candidate (may be `ask` or `passthrough`).
    pub merged: PermissionDecision,
    /// The approval provider's answer, when it was called (only if `merged` is `ask`).
    pub approval: Option<Approval>,
    /// The final decision: `allow` or `deny`, never `ask` or `passthrough`.
    pub decision: PermissionDecision,
}

impl Trace {
    /// The audit line of the final decision.
    pub fn audit_line(&self) -> String {
        audit_line(self.tool.as_str(), &self.decision)
    }

    /// What the model receives instead of the tool's result when denied:
    /// `Error [permission_denied]: <reason>`; `None` when the handler runs.
    pub fn tool_error(&self) -> Option<String> {
        (self.decision.behavior == Behavior::Deny)
            .then(|| format!("Error [permission_denied]: {}", self.decision.reason))
    }
}

/// `[Permission] <tool>: <behavior> (<source>) - <reason>` — written to stderr, so that a
/// redirected stdout holds only the answer.
pub fn audit_line(tool: &str, decision: &PermissionDecision) -> String {
    format!(
        "[Permission] {tool}: {} ({}) - {}",
        decision.behavior, decision.source, decision.reason
    )
}

/// Decides one request: all participants, merge, converge (approval only for `ask`).
/// `approve` receives the request and the merged `ask` (whose reason the prompt shows).
pub fn decide(
    request: &Request<'_>,
    participants: &[Participant],
    approve: impl FnOnce(&Request<'_>, &PermissionDecision) -> Approval,
) -> Trace {
    let candidates: Vec<Candidate> = participants
        .iter()
        .enumerate()
        .map(|(participant, p)| Candidate {
            participant,
            decision: p.candidate(request),
        })
        .collect();
    let offered: Vec<PermissionDecision> = candidates
        .iter()
        .filter_map(|c| c.decision.clone())
        .collect();
    let merged = merge(&offered);
    let mut approval = None;
    let decision = match merged.behavior {
        Behavior::Allow | Behavior::Deny => merged.clone(),
        Behavior::Passthrough => {
            PermissionDecision::new(Behavior::Allow, DEFAULT_REASON, "default")
        }
        Behavior::Ask => {
            let answer = approve(request, &merged);
            let decision = match &answer {
                Approval::Approve => {
                    PermissionDecision::new(Behavior::Allow, APPROVED_REASON, "terminal-approval")
                }
                Approval::Reject => {
                    PermissionDecision::new(Behavior::Deny, REJECTED_REASON, "terminal-approval")
                }
                Approval::Failed(message) => PermissionDecision::new(
                    Behavior::Deny,
                    format!("Approval failed: {message}"),
                    "terminal-approval",
                ),
            };
            approval = Some(answer);
            decision
        }
    };
    Trace {
        tool: request.tool.to_string(),
        candidates,
        merged,
        approval,
        decision,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WS: &str = "/home/learner/code";

    fn never(_: &Request<'_>, _: &PermissionDecision) -> Approval {
        panic!("the approval provider must not be called")
    }

    /// Walkthrough 1: `glob`. No participant has an opinion → passthrough → allow (default),
    /// no approval.
    #[test]
    fn seed_walkthrough_glob() {
        let req = Request {
            tool: "glob",
            effect: Effect::Read,
            path: None,
            workspace: WS,
        };
        let t = decide(&req, &Participant::chapter3(), never);
        assert!(t.candidates.iter().all(|c| c.decision.is_none()));
        assert_eq!(t.merged.behavior, Behavior::Passthrough);
        assert_eq!(t.approval, None);
        // The seed prints it as "[Permission] glob: allow (default) - No ..." and in full for
        // read_file: "[Permission] read_file: allow (default) - No permission rule blocked the request".
        assert_eq!(
            t.audit_line(),
            "[Permission] glob: allow (default) - No permission rule blocked the request"
        );
        let read = Request {
            tool: "read_file",
            path: Some("README.md"),
            ..req
        };
        assert_eq!(
            decide(&read, &Participant::chapter3(), never).audit_line(),
            "[Permission] read_file: allow (default) - No permission rule blocked the request"
        );
    }

    /// Walkthrough 2: `write_file` inside the workspace. The boundary abstains, the rule asks,
    /// the user types `y`.
    #[test]
    fn seed_walkthrough_write_inside() {
        let req = Request {
            tool: "write_file",
            effect: Effect::Write,
            path: Some("chapter3-note.txt"),
            workspace: WS,
        };
        let mut prompt_reason = None;
        let t = decide(&req, &Participant::chapter3(), |_, ask| {
            prompt_reason = Some(ask.reason.clone());
            Approval::Approve
        });
        assert_eq!(t.candidates[0].decision, None);
        assert_eq!(t.merged.behavior, Behavior::Ask);
        assert_eq!(
            prompt_reason.as_deref(),
            Some("File writes require explicit approval from chapter 3 onward")
        );
        assert_eq!(
            t.audit_line(),
            "[Permission] write_file: allow (terminal-approval) - User approved this tool call"
        );
        assert_eq!(t.tool_error(), None);
        // A bare Enter: "[Permission] write_file: deny (terminal-approval)".
        let t = decide(&req, &Participant::chapter3(), |_, _| Approval::Reject);
        assert!(t
            .audit_line()
            .starts_with("[Permission] write_file: deny (terminal-approval)"));
    }

    /// Walkthrough 3: `write_file` outside the workspace. Deny and ask are both candidates;
    /// deny wins and the user never sees a prompt.
    #[test]
    fn seed_walkthrough_write_outside() {
        let req = Request {
            tool: "write_file",
            effect: Effect::Write,
            path: Some("../outside.txt"),
            workspace: WS,
        };
        let t = decide(&req, &Participant::chapter3(), never);
        let offered: Vec<_> = t
            .candidates
            .iter()
            .filter_map(|c| c.decision.as_ref().map(|d| d.behavior))
            .collect();
        assert_eq!(offered, [Behavior::Deny, Behavior::Ask]);
        assert_eq!(t.approval, None);
        assert_eq!(
            t.audit_line(),
            "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden"
        );
        assert_eq!(
            t.tool_error().unwrap(),
            "Error [permission_denied]: Writing outside the workspace is forbidden"
        );
    }

    #[test]
    fn merge_order_is_deny_ask_allow_passthrough() {
        use Behavior::*;
        let d = |b: Behavior, s: &str| PermissionDecision::new(b, "r", s);
        type Case<'a> = (&'a [(Behavior, &'a str)], (Behavior, &'a str));
        let cases: &[Case<'_>] = &[
            (&[], (Passthrough, "default")),
            (&[(Passthrough, "h")], (Passthrough, "h")),
            (&[(Passthrough, "h"), (Allow, "a")], (Allow, "a")),
            (&[(Allow, "a"), (Ask, "b"), (Allow, "c")], (Ask, "b")),
            (&[(Ask, "a"), (Ask, "b")], (Ask, "a")),
            (
                &[(Allow, "a"), (Deny, "b"), (Deny, "c"), (Ask, "d")],
                (Deny, "b"),
            ),
        ];
        for (cands, (want_b, want_s)) in cases {
            let cands: Vec<_> = cands.iter().map(|&(b, s)| d(b, s)).collect();
            let m = merge(&cands);
            assert_eq!((m.behavior, m.source.as_str()), (*want_b, *want_s));
            // The behavior never depends on order.
            let mut rev = cands.clone();
            rev.reverse();
            assert_eq!(merge(&rev).behavior, *want_b);
        }
    }

    #[test]
    fn shell_asks_and_a_failing_approver_denies() {
        let req = Request {
            tool: "shell",
            effect: Effect::Execute,
            path: None,
            workspace: WS,
        };
        let t = decide(&req, &Participant::chapter3(), |_, _| {
            Approval::Failed("stdin closed".into())
        });
        assert_eq!(t.merged.source, "shell-default");
        assert_eq!(t.decision.behavior, Behavior::Deny);
        // A hook's allow cannot overturn the shell default's ask.
        let mut ps = Participant::chapter3();
        ps.push(Participant::Hook(PolicyRule::new(
            "trust-ls",
            "shell",
            Behavior::Allow,
            "ls is harmless",
        )));
        let t = decide(&req, &ps, |_, _| Approval::Approve);
        assert_eq!(t.merged.behavior, Behavior::Ask);
        // A write without a path fails closed.
        let nopath = Request {
            tool: "write_file",
            effect: Effect::Write,
            path: None,
            workspace: WS,
        };
        assert_eq!(
            decide(&nopath, &Participant::chapter3(), never)
                .decision
                .source,
            "workspace-boundary"
        );
    }
}
