//! # The life of one `bash` call in OpenCode v1.18.32 (seed 002)
//!
//! [`lifecycle`] steps one call through the stages of `reference/opencode-lifecycle.md`, in
//! order, and returns every stage as data a lesson can step through:
//!
//! | Stage | Seed step | What happens |
//! |---|---|---|
//! | [`StageKind::ToolLookup`] | ① | which definition answers `bash` ([`registry`]) |
//! | [`StageKind::Arguments`] | — | schema, working directory, timeout ([`exec`]) |
//! | [`StageKind::Parse`] | — | one pattern per sub-command, "always" arity prefixes ([`arity`]), path arguments ([`paths`]) ([`parse`]) |
//! | [`StageKind::ExternalDirectory`] | ② | the `external_directory` request, asked first |
//! | [`StageKind::Command`] | ③ | the `bash` request: each pattern, last match over agent → session → approvals ([`request`]) |
//! | [`StageKind::Confirmation`] | ④ | the prompts shown, the replies (once / always / reject) and what the model is told |
//! | [`StageKind::Execution`] | ⑤ | shell, timeout and timer |
//! | [`StageKind::Output`] | ⑥ | truncation ([`output`]) and the text the model receives |
//!
//! ## Two runtimes
//!
//! OpenCode 1.18.32 ships two. [`Runtime::Classic`] is what the TUI, `opencode run` and the
//! web app use for every prompt; [`Runtime::Next`] is the newer "v2" core, reachable only
//! through `POST /api/session/:id/prompt`, and it is what seed 002 describes: a tool stack
//! popped on scope exit, configured denies no approval overrides, head + tail halves of long
//! output. Each stage carries [`Stage::claims`]: the seed's statements about it and which
//! runtime each holds for ([`SeedMatch`]), per the reference's §10.
//!
//! What the reference does not state for the next runtime is not invented: the texts the
//! model receives after a deny or a reject there are `None`, and its treatment of a timeout
//! above its maximum is only flagged.
//!
//! Not modelled: the `doom_loop` check (three identical calls in a row), the
//! `tool.execute.before` plugin hook, the live `metadata.output` while the command runs,
//! PowerShell, other pending requests released by an "always" (one call at a time here).
//!
//! ```
//! use permlab_core::opencode::lifecycle::{lifecycle, seed_002, End, Runtime, StageKind};
//! use permlab_core::opencode::lifecycle::request::Reply;
//! let s = seed_002();
//! // Classic: the directory prompt first; after "once", the saved `bash rm -rf *` allows it.
//! let c = lifecycle(Runtime::Classic, &s.setup, &s.call, &[Reply::Once], &s.run);
//! assert_eq!(c.end, End::Completed);
//! assert_eq!(c.model_receives.as_deref(), Some("(no output)"));
//! // Next: the configured `bash rm *` deny wins over every saved approval.
//! let n = lifecycle(Runtime::Next, &s.setup, &s.call, &[], &s.run);
//! assert_eq!(n.end, End::Denied);
//! assert_eq!(n.stopped_at(), Some(StageKind::Command));
//! ```

pub mod arity;
pub mod exec;
pub mod output;
pub mod parse;
pub mod paths;
pub mod registry;
pub mod request;
mod run;
mod runtime;
mod seed;
mod stage;

pub(crate) use run::parse_classic;
pub use run::{lifecycle, NO_PATTERN};
pub use runtime::Runtime;
pub use seed::{seed_002, seed_build_log, Scenario};
pub use stage::{
    Arguments, Detail, End, Execution, Lookup, Output, Parsing, Permission, SeedClaim, SeedMatch,
    Stage, StageKind, Status, SubCommand,
};

use crate::error::Error;
use crate::opencode::agents::{Agent, AgentEnv};
use crate::opencode::{Approvals, Rule};
use output::Limits;
use paths::Place;
use registry::ToolDef;

/// One call's whole life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lifecycle {
    /// The runtime.
    pub runtime: Runtime,
    /// The eight stages, in [`StageKind::ORDER`].
    pub stages: Vec<Stage>,
    /// How it ended.
    pub end: End,
    /// What the model receives as the tool result (`None`: waiting, or not stated).
    pub model_receives: Option<String>,
    /// The agent loop goes on after this call.
    pub loop_continues: bool,
    /// The approvals after this call's "always" replies.
    pub approvals: Approvals,
}

impl Lifecycle {
    /// The stage `kind`.
    pub fn stage(&self, kind: StageKind) -> &Stage {
        let i = StageKind::ORDER
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(0);
        &self.stages[i]
    }

    /// The stage where the call stopped or waits, if it did not complete.
    pub fn stopped_at(&self) -> Option<StageKind> {
        self.stages
            .iter()
            .find(|s| matches!(s.status, Status::Stopped | Status::Waiting))
            .map(|s| s.kind)
    }

    /// The permission details of stage ② or ③.
    pub fn permission(&self, kind: StageKind) -> Option<&Permission> {
        match &self.stage(kind).detail {
            Some(Detail::Permission(p)) => Some(p),
            _ => None,
        }
    }
}

/// The session: where it runs, the rulesets, the tools, the settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Session directory, worktree, home, existing directories.
    pub place: Place,
    /// `<data>` (`$XDG_DATA_HOME/opencode`): tool output files go under it.
    pub data_dir: String,
    /// The agent's ruleset (defaults ++ built-ins ++ config).
    pub agent_rules: Vec<Rule>,
    /// The session's ruleset.
    pub session_rules: Vec<Rule>,
    /// Approvals so far (classic: "always" replies in memory; next: saved approvals).
    pub approvals: Approvals,
    /// Tool definitions, in registration order.
    pub tools: Vec<ToolDef>,
    /// `OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS`, if set.
    pub env_default_timeout: Option<String>,
    /// `experimental.continue_loop_on_deny`.
    pub continue_loop_on_deny: bool,
    /// The TUI's auto-approve mode: every prompt is answered `once` (denies still apply).
    pub auto_approve: bool,
    /// `tool_output.max_lines` / `.max_bytes`.
    pub limits: Limits,
    /// The tool call's id (names the output file).
    pub call_id: String,
    /// The configured shell (or `$SHELL`).
    pub shell: Option<String>,
    /// Shells installed.
    pub installed_shells: Vec<String>,
}

impl Setup {
    /// A session in `/home/user/project` (a git worktree), home `/home/user`, data
    /// `/home/user/.local/share/opencode`, with `agent_rules`, no approvals, the default
    /// tools, `/bin/bash`.
    pub fn new(agent_rules: Vec<Rule>) -> Setup {
        Setup {
            place: Place::new("/home/user/project", "/home/user/project", "/home/user"),
            data_dir: "/home/user/.local/share/opencode".into(),
            agent_rules,
            session_rules: Vec::new(),
            approvals: Approvals::new(),
            tools: registry::default_tools(),
            env_default_timeout: None,
            continue_loop_on_deny: false,
            auto_approve: false,
            limits: Limits::default(),
            call_id: "01".into(),
            shell: Some("/bin/bash".into()),
            installed_shells: vec!["/bin/bash".into(), "/bin/sh".into()],
        }
    }

    /// The build agent's ruleset from an `opencode.json` text (`""` or `{}` for none), with
    /// `/tmp` as the temp dir.
    pub fn build_agent(config: &str) -> Result<Setup, Error> {
        let env = AgentEnv::new(
            "/home/user",
            "/home/user/.local/share",
            "/tmp",
            "/home/user/project",
        );
        let config = if config.trim().is_empty() {
            "{}"
        } else {
            config
        };
        let rules =
            crate::opencode::layers::ruleset_from_configs(&[config], Agent::Build.name(), &env)?;
        Ok(Setup::new(rules))
    }
}

/// The call as the model sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BashCall {
    /// The tool name the model used.
    pub tool: String,
    /// `command`.
    pub command: String,
    /// `timeout` (ms), if given.
    pub timeout: Option<i64>,
    /// `workdir`, if given.
    pub workdir: Option<String>,
}

impl BashCall {
    /// `bash` with `command` and nothing else.
    pub fn new(command: &str) -> BashCall {
        BashCall {
            tool: "bash".into(),
            command: command.into(),
            timeout: None,
            workdir: None,
        }
    }
}

#[cfg(test)]
mod tests;
