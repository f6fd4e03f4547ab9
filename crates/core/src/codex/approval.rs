//! # Codex's sandbox-first approvals: run, ask or reject
//!
//! Seed 001 sums Codex up as "先划沙箱，越界才审批" — draw the sandbox first, ask only when a
//! command would cross it. This module is the decision codex-core takes for one shell command
//! from four inputs: the `sandbox_mode` ([`SandboxMode`]), the `approval_policy`
//! ([`ApprovalPolicy`], including `granular` with its per-category booleans), the execpolicy
//! decision of a matching `prefix_rule` (or none: then codex-core's heuristics decide), and
//! whether the command stays inside the sandbox ([`Command`]).
//!
//! ## Sources
//!
//! `openai/codex` could not be mirrored here (757 MB, over the 524 MB limit of the snapshot
//! tool) and its release tags are not in the code index, so the 0.171.0 commit could not be
//! identified. The functions below follow the stored revisions of the files that make the
//! decision, cited by commit and function:
//!
//! - `codex-rs/core/src/exec_policy.rs` @ `0017bb4a`: `create_exec_approval_requirement_for_command`
//!   (execpolicy decision → `Skip` / `NeedsApproval` / `Forbidden`), `prompt_is_rejected_by_policy`
//!   (Never and Granular turn a prompt into a rejection), `render_decision_for_unmatched_command`
//!   (the heuristics when no rule matches).
//! - `codex-rs/core/src/tools/sandboxing.rs` @ `04294e00`: `default_exec_approval_requirement`,
//!   `sandbox_override_for_first_attempt`, `Approvable::wants_no_sandbox_approval` and
//!   `should_bypass_approval` (the retry after a sandbox denial).
//! - `codex-rs/core/src/tools/orchestrator.rs` @ `00e7179f`: `ToolOrchestrator::run` — approval,
//!   then the first attempt in the sandbox, then on `SandboxErr::Denied` either the denial goes
//!   back to the model ("Under `Never` or `OnRequest`, do not retry without sandbox") or the user
//!   is asked to rerun it outside the sandbox.
//! - `codex-rs/core/src/tools/handlers/shell.rs` (stored revisions, e.g. code-index id
//!   55593913592): an escalation request (`sandbox_permissions` asking to leave the sandbox) is
//!   refused unless the policy is `OnRequest` — also under Granular, although protocol.rs
//!   documents `sandbox_approval` as covering `require_escalated` requests (the code wins).
//! - `codex-rs/protocol/src/protocol.rs` (`GranularApprovalConfig`): "When a field is `true`,
//!   commands in that category are allowed. When it is `false`, those requests are
//!   automatically rejected instead of shown to the user." — seed 000's misconception 3.
//!
//! `on-failure` is deprecated upstream: the `exec_policy.rs` revision above no longer has it
//! (newer `protocol.rs` revisions read `on-failure` as an alias of `on-request`). This module
//! models it as the `sandboxing.rs` revision does (no approval up front, ask after a sandbox
//! denial) with the heuristics of the revisions that still had it (rely on the sandbox, like
//! `never`, but prompt for a dangerous command). [`ApprovalPolicy::OnFailure`] says so.
//!
//! Not modelled: the Guardian auto-reviewer, network-approval prompts of a managed proxy,
//! session-cached approvals, Windows sandbox levels, `skill_approval`, `request_permissions`
//! and `mcp_elicitations` (they gate other tools than shell commands; kept in [`Granular`] so a
//! config can be written out whole).
//!
//! ```
//! use permlab_core::codex::approval::{decide, ApprovalPolicy, Command, Granular, Outcome, SandboxMode};
//! // `rm -rf build` (dangerous, no rule) in the workspace sandbox:
//! let cmd = Command { dangerous: true, ..Command::default() };
//! let ask = decide(SandboxMode::WorkspaceWrite, ApprovalPolicy::OnRequest, &cmd);
//! assert_eq!(ask.outcome, Outcome::Ask);
//! // Granular with sandbox_approval = false: the same prompt is rejected, nobody is asked.
//! let g = ApprovalPolicy::Granular(Granular { sandbox_approval: false, ..Granular::ALL_TRUE });
//! let v = decide(SandboxMode::WorkspaceWrite, g, &cmd);
//! assert_eq!(v.outcome, Outcome::Reject);
//! assert_eq!(v.reason.as_deref(), Some("approval required by policy, but AskForApproval::Granular.sandbox_approval is false"));
//! ```

use crate::codex::Decision as ExecDecision;
use crate::evaluation::Decision;

/// `sandbox_mode` in `config.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SandboxMode {
    /// `read-only`: no writes anywhere, no network.
    ReadOnly,
    /// `workspace-write`: writes inside the workspace (and temp dirs), no network by default.
    WorkspaceWrite,
    /// `danger-full-access`: no sandbox at all.
    DangerFullAccess,
}

impl SandboxMode {
    /// Every mode, strictest first.
    pub const ALL: [SandboxMode; 3] = [
        SandboxMode::ReadOnly,
        SandboxMode::WorkspaceWrite,
        SandboxMode::DangerFullAccess,
    ];

    /// The config value (`read-only`, `workspace-write`, `danger-full-access`).
    pub fn slug(self) -> &'static str {
        match self {
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::DangerFullAccess => "danger-full-access",
        }
    }

    /// The mode with this config value.
    pub fn from_slug(s: &str) -> Option<SandboxMode> {
        SandboxMode::ALL.into_iter().find(|m| m.slug() == s)
    }

    /// `FileSystemSandboxKind::Restricted` (both sandboxed modes) vs `Unrestricted`.
    pub fn restricted(self) -> bool {
        self != SandboxMode::DangerFullAccess
    }
}

/// `[approval_policy.granular]`: which kinds of prompt may be shown. `false` does **not** mean
/// "ask me": it means the request is rejected without a prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Granular {
    /// Shell command approval requests (sandbox escalations and heuristic prompts).
    pub sandbox_approval: bool,
    /// Prompts triggered by an execpolicy `prompt` rule.
    pub rules: bool,
    /// Skill script execution prompts (not modelled: no skills here).
    pub skill_approval: bool,
    /// The `request_permissions` tool (not modelled).
    pub request_permissions: bool,
    /// MCP elicitations (not modelled).
    pub mcp_elicitations: bool,
}

impl Granular {
    /// Every category allowed: behaves like `on-request` for shell commands.
    pub const ALL_TRUE: Granular = Granular {
        sandbox_approval: true,
        rules: true,
        skill_approval: true,
        request_permissions: true,
        mcp_elicitations: true,
    };
}

/// `approval_policy` (`AskForApproval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApprovalPolicy {
    /// `untrusted` (`UnlessTrusted`): only known-safe read-only commands run without asking.
    Untrusted,
    /// `on-failure` (deprecated upstream, see the module docs): run in the sandbox, ask to rerun
    /// outside it when the sandbox blocks the command.
    OnFailure,
    /// `on-request` (the default): the model asks when it wants to leave the sandbox.
    OnRequest,
    /// `never`: never ask; what would need approval is rejected, sandbox denials go back to the
    /// model.
    Never,
    /// `granular`: like `on-request`, with each kind of prompt allowed or auto-rejected.
    Granular(Granular),
}

impl ApprovalPolicy {
    /// The four named policies (granular needs its booleans).
    pub const NAMED: [ApprovalPolicy; 4] = [
        ApprovalPolicy::Untrusted,
        ApprovalPolicy::OnFailure,
        ApprovalPolicy::OnRequest,
        ApprovalPolicy::Never,
    ];

    /// The config value (`untrusted`, `on-failure`, `on-request`, `never`, `granular`).
    pub fn slug(self) -> &'static str {
        match self {
            ApprovalPolicy::Untrusted => "untrusted",
            ApprovalPolicy::OnFailure => "on-failure",
            ApprovalPolicy::OnRequest => "on-request",
            ApprovalPolicy::Never => "never",
            ApprovalPolicy::Granular(_) => "granular",
        }
    }

    /// The policy as Rust's `{:?}` prints `AskForApproval` (the shell handler's message uses it).
    pub fn debug_name(self) -> String {
        match self {
            ApprovalPolicy::Untrusted => "UnlessTrusted".into(),
            ApprovalPolicy::OnFailure => "OnFailure".into(),
            ApprovalPolicy::OnRequest => "OnRequest".into(),
            ApprovalPolicy::Never => "Never".into(),
            ApprovalPolicy::Granular(g) => format!(
                "Granular(GranularApprovalConfig {{ sandbox_approval: {}, rules: {}, skill_approval: {}, request_permissions: {}, mcp_elicitations: {} }})",
                g.sandbox_approval, g.rules, g.skill_approval, g.request_permissions, g.mcp_elicitations
            ),
        }
    }

    /// `Approvable::wants_no_sandbox_approval` (`sandboxing.rs`): may a sandbox denial be turned
    /// into a prompt to rerun without the sandbox?
    pub fn wants_no_sandbox_approval(self) -> bool {
        match self {
            ApprovalPolicy::OnFailure | ApprovalPolicy::Untrusted => true,
            ApprovalPolicy::Never | ApprovalPolicy::OnRequest => false,
            ApprovalPolicy::Granular(g) => g.sandbox_approval,
        }
    }
}

/// What is known about one shell command (after codex-core's shell splitting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Command {
    /// The decision of the matching execpolicy rules (strictest of all), `None` when no rule
    /// matches (then the heuristics decide).
    pub rule: Option<ExecDecision>,
    /// `is_known_safe_command` (`ls`, `cat`, `git status`…).
    pub known_safe: bool,
    /// `command_might_be_dangerous` (`rm -rf`, `git reset --hard`…).
    pub dangerous: bool,
    /// It writes files at all.
    pub writes: bool,
    /// It writes outside the workspace's writable roots.
    pub writes_outside_workspace: bool,
    /// It needs the network.
    pub network: bool,
    /// The model asked to run it outside the sandbox (`sandbox_permissions: require_escalated`).
    pub requests_escalation: bool,
}

impl Command {
    /// Whether `mode`'s sandbox lets it finish: `read-only` refuses every write and the network,
    /// `workspace-write` writes outside the workspace and the network, `danger-full-access`
    /// nothing.
    pub fn stays_inside(&self, mode: SandboxMode) -> bool {
        match mode {
            SandboxMode::ReadOnly => {
                !self.writes && !self.writes_outside_workspace && !self.network
            }
            SandboxMode::WorkspaceWrite => !self.writes_outside_workspace && !self.network,
            SandboxMode::DangerFullAccess => true,
        }
    }
}

/// The first stage: `ExecApprovalRequirement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Requirement {
    /// `Skip`: run without approval; `bypass_sandbox` when an explicit allow rule matched.
    Skip {
        /// Run the first attempt outside the sandbox.
        bypass_sandbox: bool,
    },
    /// `NeedsApproval`: ask before running.
    NeedsApproval,
    /// `Forbidden`: rejected, with the reason.
    Forbidden,
}

/// How the call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Runs to the end without anyone being asked (in the sandbox or outside it: see
    /// [`Verdict::sandboxed`]).
    Run,
    /// The user is asked before it runs.
    Ask,
    /// It runs in the sandbox, is blocked there, and the user is asked to rerun it outside.
    AskAfterSandboxDenial,
    /// It runs in the sandbox, is blocked, and the denial goes back to the model; nobody asked.
    SandboxDenied,
    /// The user approves it up front, it then runs in the sandbox anyway (an approval is not an
    /// escalation), is blocked, and the denial goes back to the model without a second prompt
    /// (`on-request`, `never`-like retries: "do not retry without sandbox").
    AskThenSandboxDenied,
    /// Rejected before running; nobody is asked.
    Reject,
}

impl Outcome {
    /// The stable slug (`run`, `ask`, `ask-after-sandbox-denial`, `sandbox-denied`, `reject`).
    pub fn slug(self) -> &'static str {
        match self {
            Outcome::Run => "run",
            Outcome::Ask => "ask",
            Outcome::AskAfterSandboxDenial => "ask-after-sandbox-denial",
            Outcome::SandboxDenied => "sandbox-denied",
            Outcome::AskThenSandboxDenied => "ask-then-sandbox-denied",
            Outcome::Reject => "reject",
        }
    }

    /// The lesson's three-way verdict: a human is asked → ask; it does not complete → deny.
    pub fn decision(self) -> Decision {
        match self {
            Outcome::Run => Decision::Allow,
            Outcome::Ask | Outcome::AskAfterSandboxDenial | Outcome::AskThenSandboxDenied => {
                Decision::Ask
            }
            Outcome::SandboxDenied | Outcome::Reject => Decision::Deny,
        }
    }
}

/// One command's path through codex-core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The execpolicy-level decision (the rule's, or the heuristics' when none matched).
    pub exec_decision: ExecDecision,
    /// Whether the heuristics gave it (no rule matched).
    pub heuristic: bool,
    /// The approval requirement.
    pub requirement: Requirement,
    /// How it ends.
    pub outcome: Outcome,
    /// Whether the (first) attempt runs in the sandbox.
    pub sandboxed: bool,
    /// Codex's rejection reason for a rejected prompt (the exact constants of `exec_policy.rs`)
    /// or a refused escalation request (the shell handler's message). `None` for a `Forbidden`
    /// decision: its text comes from `derive_forbidden_reason` (the rule's justification or the
    /// command), which is not modelled.
    pub reason: Option<String>,
}

impl Verdict {
    /// [`Outcome::decision`].
    pub fn decision(&self) -> Decision {
        self.outcome.decision()
    }
}

/// `PROMPT_CONFLICT_REASON` (`exec_policy.rs`).
pub const PROMPT_CONFLICT_REASON: &str =
    "approval required by policy, but AskForApproval is set to Never";
/// `REJECT_SANDBOX_APPROVAL_REASON`.
pub const REJECT_SANDBOX_APPROVAL_REASON: &str =
    "approval required by policy, but AskForApproval::Granular.sandbox_approval is false";
/// `REJECT_RULES_APPROVAL_REASON`.
pub const REJECT_RULES_APPROVAL_REASON: &str =
    "approval required by policy rule, but AskForApproval::Granular.rules is false";

/// `render_decision_for_unmatched_command` (`exec_policy.rs`): no rule matched.
///
/// 1. A known-safe command under `untrusted` → allow.
/// 2. A dangerous command → prompt (forbidden under `never`).
/// 3. Otherwise `never` (and `on-failure`) rely on the sandbox → allow; `untrusted` → prompt;
///    `on-request` / `granular` → allow, unless the command asks to leave a restricted sandbox
///    → prompt.
pub fn unmatched(mode: SandboxMode, policy: ApprovalPolicy, cmd: &Command) -> ExecDecision {
    if cmd.known_safe && policy == ApprovalPolicy::Untrusted {
        return ExecDecision::Allow;
    }
    if cmd.dangerous {
        return match policy {
            ApprovalPolicy::Never => ExecDecision::Forbidden,
            _ => ExecDecision::Prompt,
        };
    }
    match policy {
        ApprovalPolicy::Never | ApprovalPolicy::OnFailure => ExecDecision::Allow,
        ApprovalPolicy::Untrusted => ExecDecision::Prompt,
        ApprovalPolicy::OnRequest | ApprovalPolicy::Granular(_) => {
            if mode.restricted() && cmd.requests_escalation {
                ExecDecision::Prompt
            } else {
                ExecDecision::Allow
            }
        }
    }
}

/// `prompt_is_rejected_by_policy` (`exec_policy.rs`): `never` rejects every prompt; `granular`
/// rejects a rule's prompt when `rules` is false and any other prompt when `sandbox_approval`
/// is false.
pub fn prompt_rejected(policy: ApprovalPolicy, prompt_is_rule: bool) -> Option<&'static str> {
    match policy {
        ApprovalPolicy::Never => Some(PROMPT_CONFLICT_REASON),
        ApprovalPolicy::Granular(g) if prompt_is_rule && !g.rules => {
            Some(REJECT_RULES_APPROVAL_REASON)
        }
        ApprovalPolicy::Granular(g) if !prompt_is_rule && !g.sandbox_approval => {
            Some(REJECT_SANDBOX_APPROVAL_REASON)
        }
        _ => None,
    }
}

/// The whole path: requirement (`create_exec_approval_requirement_for_command`), then the
/// orchestrator's first attempt and its retry after a sandbox denial.
pub fn decide(mode: SandboxMode, policy: ApprovalPolicy, cmd: &Command) -> Verdict {
    let heuristic = cmd.rule.is_none();
    let exec_decision = cmd.rule.unwrap_or_else(|| unmatched(mode, policy, cmd));
    let (requirement, reason) = match exec_decision {
        ExecDecision::Forbidden => (Requirement::Forbidden, None),
        ExecDecision::Prompt => match prompt_rejected(policy, !heuristic) {
            Some(r) => (Requirement::Forbidden, Some(r)),
            None => (Requirement::NeedsApproval, None),
        },
        // Bypass the sandbox only when an explicit rule allowed the command.
        ExecDecision::Allow => (
            Requirement::Skip {
                bypass_sandbox: !heuristic,
            },
            None,
        ),
    };
    let verdict = |outcome, sandboxed, reason: Option<&str>| Verdict {
        exec_decision,
        heuristic,
        requirement,
        outcome,
        sandboxed,
        reason: reason.map(str::to_string),
    };
    // The shell handler refuses an escalation request outright unless the policy is
    // `on-request` (`handlers/shell.rs`: "Approval policy guard for explicit escalation in
    // non-OnRequest modes") — before the exec policy is consulted, whatever Granular says.
    if cmd.requests_escalation && policy != ApprovalPolicy::OnRequest {
        let p = policy.debug_name();
        let msg = format!(
            "approval policy is {p}; reject command — you should not ask for escalated permissions if the approval policy is {p}"
        );
        return Verdict {
            requirement: Requirement::Forbidden,
            ..verdict(Outcome::Reject, false, Some(&msg))
        };
    }
    if requirement == Requirement::Forbidden {
        return verdict(Outcome::Reject, false, reason);
    }
    let approved_up_front = requirement == Requirement::NeedsApproval;
    // `sandbox_override_for_first_attempt`: an escalation request (once approved) or an explicit
    // allow rule skips the sandbox; `danger-full-access` has none to begin with.
    let bypass = matches!(
        requirement,
        Requirement::Skip {
            bypass_sandbox: true
        }
    ) || cmd.requests_escalation;
    let sandboxed = mode.restricted() && !bypass;
    if !sandboxed || cmd.stays_inside(mode) {
        let outcome = if approved_up_front {
            Outcome::Ask
        } else {
            Outcome::Run
        };
        return verdict(outcome, sandboxed, None);
    }
    // Blocked by the sandbox. `wants_no_sandbox_approval` decides whether a retry outside it
    // may be offered; after an up-front approval it is not asked again
    // (`should_bypass_approval(policy, already_approved)`).
    if !policy.wants_no_sandbox_approval() {
        let outcome = if approved_up_front {
            Outcome::AskThenSandboxDenied
        } else {
            Outcome::SandboxDenied
        };
        return verdict(outcome, true, None);
    }
    if approved_up_front {
        return verdict(Outcome::Ask, true, None);
    }
    verdict(Outcome::AskAfterSandboxDenial, true, None)
}

/// One of the calls the approvals lesson runs under every setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonCall {
    /// A stable slug (`data-call`).
    pub slug: &'static str,
    /// The command as the model sends it.
    pub command: &'static str,
    /// What codex-core would know about it.
    pub facts: Command,
}

/// The approvals lesson's calls: one per way out of (or into) the sandbox. The facts are
/// stated, not computed (permlab does not port `is_known_safe_command` or
/// `command_might_be_dangerous`; these commands are unambiguous cases of each).
pub const LESSON_CALLS: [LessonCall; 8] = [
    LessonCall {
        slug: "read",
        command: "ls -la",
        facts: Command {
            rule: None,
            known_safe: true,
            dangerous: false,
            writes: false,
            writes_outside_workspace: false,
            network: false,
            requests_escalation: false,
        },
    },
    LessonCall {
        slug: "build",
        command: "cargo build",
        facts: Command {
            rule: None,
            known_safe: false,
            dangerous: false,
            writes: true,
            writes_outside_workspace: false,
            network: false,
            requests_escalation: false,
        },
    },
    LessonCall {
        slug: "outside",
        command: "echo 'export X=1' >> ~/.bashrc",
        facts: Command {
            rule: None,
            known_safe: false,
            dangerous: false,
            writes: true,
            writes_outside_workspace: true,
            network: false,
            requests_escalation: false,
        },
    },
    LessonCall {
        slug: "network",
        command: "git push origin main",
        facts: Command {
            rule: None,
            known_safe: false,
            dangerous: false,
            writes: false,
            writes_outside_workspace: false,
            network: true,
            requests_escalation: false,
        },
    },
    LessonCall {
        slug: "escalate",
        command: "npm install (sandbox_permissions: require_escalated)",
        facts: Command {
            rule: None,
            known_safe: false,
            dangerous: false,
            writes: true,
            writes_outside_workspace: false,
            network: true,
            requests_escalation: true,
        },
    },
    LessonCall {
        slug: "dangerous",
        command: "rm -rf build",
        facts: Command {
            rule: None,
            known_safe: false,
            dangerous: true,
            writes: true,
            writes_outside_workspace: false,
            network: false,
            requests_escalation: false,
        },
    },
    LessonCall {
        slug: "prompt-rule",
        command: "git push --force (prefix_rule decision=\"prompt\")",
        facts: Command {
            rule: Some(ExecDecision::Prompt),
            known_safe: false,
            dangerous: false,
            writes: false,
            writes_outside_workspace: false,
            network: true,
            requests_escalation: false,
        },
    },
    // A `forbidden` execpolicy rule: `Forbidden` before any sandbox or policy is consulted.
    LessonCall {
        slug: "forbidden-rule",
        command: "git reset --hard (prefix_rule decision=\"forbidden\")",
        facts: Command {
            rule: Some(ExecDecision::Forbidden),
            known_safe: false,
            dangerous: true,
            writes: true,
            writes_outside_workspace: false,
            network: false,
            requests_escalation: false,
        },
    },
];

/// Granular with every category allowed except `sandbox_approval`: the setting behind seed
/// 000's misconception 3 (a learner reads `false` as "ask me"; Codex rejects).
pub const GRANULAR_NO_SANDBOX_APPROVAL: ApprovalPolicy = ApprovalPolicy::Granular(Granular {
    sandbox_approval: false,
    ..Granular::ALL_TRUE
});

/// Every lesson call under one setting, in [`LESSON_CALLS`] order.
///
/// ```
/// use permlab_core::codex::approval::{lesson, ApprovalPolicy, Outcome, SandboxMode, GRANULAR_NO_SANDBOX_APPROVAL};
/// let outcomes = |p| lesson(SandboxMode::WorkspaceWrite, p).iter().map(|v| v.outcome).collect::<Vec<_>>();
/// let on_request = outcomes(ApprovalPolicy::OnRequest);
/// let granular = outcomes(GRANULAR_NO_SANDBOX_APPROVAL);
/// // escalate and dangerous: asked under on-request, rejected without a prompt under granular.
/// assert_eq!((on_request[4], on_request[5]), (Outcome::Ask, Outcome::Ask));
/// assert_eq!((granular[4], granular[5]), (Outcome::Reject, Outcome::Reject));
/// ```
pub fn lesson(mode: SandboxMode, policy: ApprovalPolicy) -> Vec<Verdict> {
    LESSON_CALLS
        .iter()
        .map(|c| decide(mode, policy, &c.facts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WW: SandboxMode = SandboxMode::WorkspaceWrite;

    #[test]
    fn inside_the_sandbox_nobody_is_asked() {
        let build = Command {
            writes: true,
            ..Command::default()
        };
        for p in [
            ApprovalPolicy::OnRequest,
            ApprovalPolicy::Never,
            ApprovalPolicy::OnFailure,
        ] {
            let v = decide(WW, p, &build);
            assert_eq!((v.outcome, v.sandboxed), (Outcome::Run, true), "{p:?}");
        }
        // untrusted asks for anything not known-safe.
        assert_eq!(
            decide(WW, ApprovalPolicy::Untrusted, &build).outcome,
            Outcome::Ask
        );
    }

    #[test]
    fn crossing_the_sandbox() {
        let push = Command {
            network: true,
            ..Command::default()
        };
        let o = |m, p| decide(m, p, &push).outcome;
        assert_eq!(o(WW, ApprovalPolicy::OnRequest), Outcome::SandboxDenied);
        assert_eq!(
            o(WW, ApprovalPolicy::OnFailure),
            Outcome::AskAfterSandboxDenial
        );
        assert_eq!(o(WW, ApprovalPolicy::Never), Outcome::SandboxDenied);
        assert_eq!(
            o(SandboxMode::DangerFullAccess, ApprovalPolicy::OnRequest),
            Outcome::Run
        );
        let esc = Command {
            requests_escalation: true,
            ..push
        };
        assert_eq!(
            decide(WW, ApprovalPolicy::OnRequest, &esc).outcome,
            Outcome::Ask
        );
        let no = ApprovalPolicy::Granular(Granular {
            sandbox_approval: false,
            ..Granular::ALL_TRUE
        });
        let v = decide(WW, no, &esc);
        assert_eq!(v.outcome, Outcome::Reject);
        assert!(v.reason.unwrap().starts_with(
            "approval policy is Granular(GranularApprovalConfig { sandbox_approval: false"
        ));
    }

    #[test]
    fn rules_false_only_rejects_rule_prompts() {
        let g = ApprovalPolicy::Granular(Granular {
            rules: false,
            ..Granular::ALL_TRUE
        });
        let rule_prompt = Command {
            rule: Some(ExecDecision::Prompt),
            ..Command::default()
        };
        assert_eq!(
            decide(WW, g, &rule_prompt).reason.as_deref(),
            Some(REJECT_RULES_APPROVAL_REASON)
        );
        let dangerous = Command {
            dangerous: true,
            ..Command::default()
        };
        assert_eq!(decide(WW, g, &dangerous).outcome, Outcome::Ask);
    }

    #[test]
    fn the_lesson_grid() {
        // Rows: lesson calls; columns: (read-only, workspace-write, danger-full-access) under
        // on-request, then workspace-write under each named policy and granular-false.
        let grid = |m, p| -> String {
            lesson(m, p)
                .iter()
                .map(|v| match v.outcome {
                    Outcome::Run => 'R',
                    Outcome::Ask => 'A',
                    Outcome::AskAfterSandboxDenial => 'a',
                    Outcome::SandboxDenied => 's',
                    Outcome::AskThenSandboxDenied => 'S',
                    Outcome::Reject => 'X',
                })
                .collect()
        };
        let p = ApprovalPolicy::OnRequest;
        // R run · A ask · a ask after the sandbox blocked it · s sandbox denial back to the
        // model · S asked, approved, then blocked anyway · X rejected without a prompt.
        assert_eq!(grid(SandboxMode::ReadOnly, p), "RsssASSX");
        assert_eq!(grid(WW, p), "RRssAASX");
        assert_eq!(grid(SandboxMode::DangerFullAccess, p), "RRRRRAAX");
        assert_eq!(grid(WW, ApprovalPolicy::Untrusted), "RAAAXAAX");
        assert_eq!(grid(WW, ApprovalPolicy::OnFailure), "RRaaXAAX");
        assert_eq!(grid(WW, ApprovalPolicy::Never), "RRssXXXX");
        assert_eq!(grid(WW, GRANULAR_NO_SANDBOX_APPROVAL), "RRssXXSX");
    }

    #[test]
    fn an_allow_rule_leaves_the_sandbox() {
        let c = Command {
            rule: Some(ExecDecision::Allow),
            network: true,
            ..Command::default()
        };
        let v = decide(SandboxMode::ReadOnly, ApprovalPolicy::Never, &c);
        assert_eq!((v.outcome, v.sandboxed), (Outcome::Run, false));
    }
}
