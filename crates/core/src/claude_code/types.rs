//! The types of a Claude Code evaluation: the call and where it is made ([`Context`],
//! [`ToolCall`]) and the answer ([`Verdict`], with its [`Decider`] and trace).

use super::mode::{Mode, Outcome};
use super::settings::Policy;
use crate::json::Value;
use crate::table::Action;

/// Where the call is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The interactive or `-p` CLI.
    Cli,
    /// The Agent SDK: a prompt is the `canUseTool` callback.
    Sdk,
}

/// What a PreToolUse hook answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// The hook approved: replaces the prompt only.
    Allow,
    /// The hook exited with code 2: blocked before any rule.
    Block,
}

/// The facts of the session a verdict depends on (never read from the machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// Current (primary) working directory.
    pub cwd: String,
    /// What `~` and `$HOME` mean.
    pub home: String,
    /// Anchor of `/path` rules from project, local and CLI settings.
    pub project_root: String,
    /// An interactive terminal (not `-p`).
    pub interactive: bool,
    /// CLI or Agent SDK.
    pub surface: Surface,
    /// Whether this Bash command can run inside the sandbox.
    pub sandboxable: bool,
    /// Auto mode is available (matters in plan mode); `None`: true iff the mode is auto.
    pub auto_mode_available: Option<bool>,
    /// The PreToolUse hook's answer, if a hook is configured.
    pub hook: Option<Hook>,
    /// Requested absolute path → the file it resolves to.
    pub symlinks: Vec<(String, String)>,
    /// The called MCP tool is marked `requiresUserInteraction`, or its organisation connector
    /// is set to `ask`: it always prompts (deny in dontAsk), whatever the allow rules.
    pub requires_user_interaction: bool,
    /// The called skill's `SKILL.md` front matter declares `allowed-tools`. CLI 2.1.332
    /// (recorded) runs a skill *without* `allowed-tools` with no prompt in every mode, ask
    /// rules notwithstanding (only a deny stops it); one with `allowed-tools` prompts like
    /// any tool (the docs say every skill prompts by default).
    pub skill_allowed_tools: bool,
}

impl Default for Context {
    /// The conformance file's default environment: `/home/alice/proj`, interactive CLI.
    fn default() -> Self {
        Context {
            cwd: "/home/alice/proj".into(),
            home: "/home/alice".into(),
            project_root: "/home/alice/proj".into(),
            interactive: true,
            surface: Surface::Cli,
            sandboxable: true,
            auto_mode_available: None,
            hook: None,
            symlinks: Vec::new(),
            requires_user_interaction: false,
            skill_allowed_tools: false,
        }
    }
}

/// A tool call as the model sends it: the canonical tool name and its input object.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// `Bash`, `Read`, `mcp__server__tool`… (`Task` is read as `Agent`).
    pub tool: String,
    /// The input object.
    pub input: Value,
}

impl ToolCall {
    /// A call of `tool` with `input`.
    pub fn new(tool: impl Into<String>, input: Value) -> Self {
        ToolCall {
            tool: tool.into(),
            input,
        }
    }

    /// A Bash call.
    pub fn bash(command: &str) -> Self {
        ToolCall::new(
            "Bash",
            Value::Object(vec![("command".into(), Value::from(command))]),
        )
    }

    /// A call whose input is `{field: value}`.
    pub fn with_field(tool: &str, field: &str, value: &str) -> Self {
        ToolCall::new(
            tool,
            Value::Object(vec![(field.into(), Value::from(value))]),
        )
    }

    /// The string value of the top-level input field `name`.
    pub fn str_field(&self, name: &str) -> Option<&str> {
        self.input.get(name).and_then(Value::as_str)
    }
}

/// How a deny matched something other than the call's own input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The call's input itself.
    Direct,
    /// The path's symlink target.
    SymlinkTarget,
    /// A file argument of `cat`/`head`/`tail`/`sed`/`tee`.
    FileCommand,
    /// A redirection target.
    RedirectTarget,
}

/// The step that decided, as data (the widget phrases it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decider {
    /// The PreToolUse hook exited with code 2.
    HookBlock,
    /// The PreToolUse hook approved where the mode would have prompted.
    HookAllow,
    /// A bare or glob deny removed the tool from the model's context.
    ToolRemoved,
    /// A deny rule matched.
    DenyRule(Via),
    /// An ask rule matched.
    AskRule,
    /// A write to a protected path.
    ProtectedPath(String),
    /// `rm`/`rmdir` on a critical path.
    CriticalPath,
    /// `AskUserQuestion` (or a tool requiring user interaction) is never auto-approved.
    RequiresUserInteraction,
    /// `EndConversation` ignores deny and ask rules while any other tool remains.
    EndConversation,
    /// A sandboxed Bash command with `autoAllowBashIfSandboxed`.
    Sandbox,
    /// `bypassPermissions` approves what reached it.
    Bypass,
    /// Allow rules (with the baseline) covered every part of the call.
    AllowRule,
    /// Built-in read-only Bash commands.
    ReadOnly,
    /// A tool that needs no permission (Agent, Glob, Grep, TodoWrite…).
    NoPermissionTool,
    /// A read inside the working directory.
    WorkingDirectory,
    /// A read or edit inside an `additionalDirectories` entry.
    AdditionalDirectory,
    /// acceptEdits approved an edit or a filesystem command in scope.
    AcceptEdits,
    /// Auto mode approved a read or a working-directory edit.
    AutoMode,
    /// Agent SDK: nothing approved the call, so the `canUseTool` callback is asked.
    Callback {
        /// What kept the call from being approved.
        why: Blocker,
    },
    /// Nothing approved the call; the mode's fallback decided. `why` says what stood in the way.
    Mode {
        /// The mode.
        mode: Mode,
        /// What kept the call from being approved.
        why: Blocker,
    },
}

/// What kept a call from being approved before the mode's fallback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// No rule and no baseline covers it.
    NoRule,
    /// The command could not be parsed (allow rules never approve it).
    Unparseable(String),
    /// An exec wrapper: no prefix rule can approve it.
    ExecWrapper(String),
    /// `cd` into another directory combined with `git`.
    CdGit,
    /// A redirection or `tee` target that cannot be approved.
    Target(String),
    /// A path outside the working directories.
    OutsideWorkingDirectory,
    /// Plan mode never auto-approves edits or shell writes.
    PlanWrite,
    /// Not a filesystem command acceptEdits approves.
    NotFilesystemCommand,
    /// A variable assignment an allow rule cannot look past.
    UnsafeEnv(String),
}

/// One rule examined, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// deny, ask or allow.
    pub group: Action,
    /// Position in [`Policy::rules`].
    pub rule: usize,
    /// The rule names the call's tool.
    pub tool_matched: bool,
    /// The specifier matched (`None` when the tool did not).
    pub spec_matched: Option<bool>,
    /// This rule decided.
    pub stop: bool,
}

/// The verdict with its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Claude Code's outcome.
    pub outcome: Outcome,
    /// The deciding step.
    pub decider: Decider,
    /// The deciding rule (position in [`Policy::rules`]), if a rule decided.
    pub rule: Option<usize>,
    /// Every rule whose tool and specifier both match, per group order.
    pub matches: Vec<usize>,
    /// The rules examined, group by group.
    pub trace: Vec<TraceStep>,
    /// The verdict rests on an inferred point of the reference.
    pub inferred: bool,
}

impl Verdict {
    /// A short label in the conformance file's `matched` vocabulary, e.g.
    /// `deny:Bash(rm *)`, `mode:default`, `builtin:read-only`.
    pub fn label(&self, policy: &Policy) -> String {
        let rule = self
            .rule
            .and_then(|r| policy.rules.get(r))
            .map(|r| r.text.as_str())
            .unwrap_or("?");
        match &self.decider {
            Decider::HookBlock => "hook:exit 2".into(),
            Decider::HookAllow => "hook:allow".into(),
            Decider::ToolRemoved => format!("deny:{rule} (tool removed from context)"),
            Decider::DenyRule(Via::Direct) => format!("deny:{rule}"),
            Decider::DenyRule(Via::SymlinkTarget) => format!("deny:{rule} (symlink target)"),
            Decider::DenyRule(Via::FileCommand) => format!("deny:{rule} (recognized file command)"),
            Decider::DenyRule(Via::RedirectTarget) => format!("deny:{rule} (redirect target)"),
            Decider::AskRule if self.outcome == Outcome::Deny => {
                format!("ask:{rule} -> dontAsk denies")
            }
            Decider::AskRule => format!("ask:{rule}"),
            Decider::ProtectedPath(p) => format!("protected-path:{p}"),
            Decider::CriticalPath => "critical-path".into(),
            Decider::RequiresUserInteraction => "requires user interaction".into(),
            Decider::EndConversation => "deny ignored while other tools remain".into(),
            Decider::Sandbox => "sandbox:autoAllowBashIfSandboxed".into(),
            Decider::Bypass => "mode:bypassPermissions".into(),
            Decider::AllowRule => format!("allow:{rule}"),
            Decider::ReadOnly => "builtin:read-only".into(),
            Decider::NoPermissionTool => "builtin:no permission needed".into(),
            Decider::WorkingDirectory => "builtin:read in working directory".into(),
            Decider::AdditionalDirectory => "additionalDirectories".into(),
            Decider::AcceptEdits => "mode:acceptEdits".into(),
            Decider::AutoMode => "mode:auto".into(),
            Decider::Callback { .. } => "canUseTool callback".into(),
            Decider::Mode { mode, why } => {
                let what = match why {
                    Blocker::NoRule => "no rule matches".to_string(),
                    Blocker::Unparseable(e) => format!("unparseable: {e}"),
                    Blocker::ExecWrapper(w) => format!("exec wrapper {w}"),
                    Blocker::CdGit => "cd+git combination".into(),
                    Blocker::Target(t) => format!("redirect target {t}"),
                    Blocker::OutsideWorkingDirectory => "outside working directory".into(),
                    Blocker::PlanWrite => "plan mode never auto-approves writes".into(),
                    Blocker::NotFilesystemCommand => "not a filesystem command".into(),
                    Blocker::UnsafeEnv(v) => format!("allow does not match past {v}="),
                };
                format!("mode:{} ({what})", mode.as_str())
            }
        }
    }
}
