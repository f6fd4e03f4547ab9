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
mod seed;

pub use seed::{seed_002, seed_build_log, Scenario};

use crate::error::Error;
use crate::opencode::agents::{Agent, AgentEnv};
use crate::opencode::{Approvals, Rule};
use exec::{Run, RunEnd, TimeoutSource};
use output::{HeadTail, Limits, Truncation};
use paths::Place;
use registry::{NextRegistry, ToolDef};
use request::{Decision, PatternCheck, Prompt, Reply, Request, Rulesets};

/// Which of OpenCode's two runtimes runs the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// The classic path every normal prompt takes (default).
    Classic,
    /// The v2 core seed 002 describes.
    Next,
}

impl Default for Runtime {
    /// The classic runtime: the one every normal prompt takes.
    fn default() -> Self {
        Runtime::Classic
    }
}

impl Runtime {
    /// `classic`, `next`.
    pub fn slug(self) -> &'static str {
        match self {
            Runtime::Classic => "classic",
            Runtime::Next => "next",
        }
    }
}

/// For which runtime a statement of the seed holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedMatch {
    /// Both runtimes.
    Both,
    /// Only the classic runtime.
    Classic,
    /// Only the next runtime.
    Next,
    /// Neither.
    Neither,
}

impl SeedMatch {
    /// `both`, `classic`, `next`, `neither`.
    pub fn slug(self) -> &'static str {
        match self {
            SeedMatch::Both => "both",
            SeedMatch::Classic => "classic",
            SeedMatch::Next => "next",
            SeedMatch::Neither => "neither",
        }
    }

    /// Whether it holds for `runtime`.
    pub fn holds_for(self, runtime: Runtime) -> bool {
        matches!(
            (self, runtime),
            (SeedMatch::Both, _)
                | (SeedMatch::Classic, Runtime::Classic)
                | (SeedMatch::Next, Runtime::Next)
        )
    }
}

/// One statement of seed 002 about a stage, and where it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedClaim {
    /// A slug naming the statement (the widget phrases it).
    pub claim: &'static str,
    /// Where it holds.
    pub matches: SeedMatch,
}

/// The stages, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// ① Which definition answers the call.
    ToolLookup,
    /// Argument decoding, working directory, timeout.
    Arguments,
    /// Sub-commands, patterns, "always" prefixes, path arguments.
    Parse,
    /// ② The `external_directory` request.
    ExternalDirectory,
    /// ③ The `bash` request.
    Command,
    /// ④ The prompts and replies.
    Confirmation,
    /// ⑤ Running the command.
    Execution,
    /// ⑥ What the model receives.
    Output,
}

impl StageKind {
    /// Every stage, in order.
    pub const ORDER: [StageKind; 8] = [
        StageKind::ToolLookup,
        StageKind::Arguments,
        StageKind::Parse,
        StageKind::ExternalDirectory,
        StageKind::Command,
        StageKind::Confirmation,
        StageKind::Execution,
        StageKind::Output,
    ];

    /// `tool-lookup`, `arguments`, `parse`, `external-directory`, `command`, `confirmation`,
    /// `execution`, `output`.
    pub fn slug(self) -> &'static str {
        match self {
            StageKind::ToolLookup => "tool-lookup",
            StageKind::Arguments => "arguments",
            StageKind::Parse => "parse",
            StageKind::ExternalDirectory => "external-directory",
            StageKind::Command => "command",
            StageKind::Confirmation => "confirmation",
            StageKind::Execution => "execution",
            StageKind::Output => "output",
        }
    }

    /// The seed's step number (①–⑥), if the seed draws this stage.
    pub fn seed_step(self) -> Option<u8> {
        match self {
            StageKind::ToolLookup => Some(1),
            StageKind::ExternalDirectory => Some(2),
            StageKind::Command => Some(3),
            StageKind::Confirmation => Some(4),
            StageKind::Execution => Some(5),
            StageKind::Output => Some(6),
            StageKind::Arguments | StageKind::Parse => None,
        }
    }

    /// Seed 002's statements about this stage and where each holds (reference §10).
    pub fn claims(self) -> &'static [SeedClaim] {
        use SeedMatch::*;
        match self {
            StageKind::ToolLookup => &[
                SeedClaim {
                    claim: "four-sources",
                    matches: Classic,
                },
                SeedClaim {
                    claim: "same-name-tools-stack",
                    matches: Next,
                },
                SeedClaim {
                    claim: "scope-exit-pops",
                    matches: Next,
                },
                SeedClaim {
                    claim: "mcp-prefixed-names",
                    matches: Neither,
                },
            ],
            StageKind::Arguments => &[SeedClaim {
                claim: "model-writes-timeout-120000",
                matches: Both,
            }],
            StageKind::Parse => &[SeedClaim {
                claim: "resource-is-whole-command",
                matches: Next,
            }],
            StageKind::ExternalDirectory => &[SeedClaim {
                claim: "directory-then-command",
                matches: Both,
            }],
            StageKind::Command => &[
                SeedClaim {
                    claim: "find-last",
                    matches: Both,
                },
                SeedClaim {
                    claim: "configured-then-saved",
                    matches: Both,
                },
                SeedClaim {
                    claim: "configured-deny-not-overridable",
                    matches: Next,
                },
                SeedClaim {
                    claim: "saved-pattern-rm-rf-star",
                    matches: Neither,
                },
                SeedClaim {
                    claim: "always-saved-per-project-database",
                    matches: Next,
                },
            ],
            StageKind::Confirmation => &[SeedClaim {
                claim: "user-confirms",
                matches: Both,
            }],
            StageKind::Execution => &[SeedClaim {
                claim: "timeout-120000",
                matches: Both,
            }],
            StageKind::Output => &[
                SeedClaim {
                    claim: "limits-2000-lines-51200-bytes",
                    matches: Both,
                },
                SeedClaim {
                    claim: "full-output-saved-to-disk",
                    matches: Both,
                },
                SeedClaim {
                    claim: "head-tail-sampling",
                    matches: Next,
                },
                SeedClaim {
                    claim: "halves-of-max-lines",
                    matches: Neither,
                },
            ],
        }
    }

    /// Where the seed's account of this stage as a whole holds: for one runtime when every
    /// claim holds there.
    pub fn seed_matches(self) -> SeedMatch {
        let all = |r: Runtime| self.claims().iter().all(|c| c.matches.holds_for(r));
        match (all(Runtime::Classic), all(Runtime::Next)) {
            (true, true) => SeedMatch::Both,
            (true, false) => SeedMatch::Classic,
            (false, true) => SeedMatch::Next,
            (false, false) => SeedMatch::Neither,
        }
    }
}

/// What a stage did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Done; the call goes on.
    Pass,
    /// Nothing to do for this call (no directory outside, no bash pattern, no prompt).
    Skipped,
    /// The call ends here.
    Stopped,
    /// A prompt waits for the user.
    Waiting,
    /// The call ended earlier.
    NotReached,
}

impl Status {
    /// `pass`, `skipped`, `stopped`, `waiting`, `not-reached`.
    pub fn slug(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Skipped => "skipped",
            Status::Stopped => "stopped",
            Status::Waiting => "waiting",
            Status::NotReached => "not-reached",
        }
    }
}

/// ① Tool lookup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The name the model called.
    pub requested: String,
    /// The name it resolved to (classic repairs a wrong case: `Bash` → `bash`).
    pub resolved: Option<String>,
    /// The definition that runs.
    pub active: Option<ToolDef>,
    /// Classic: the definitions it replaced, gone for good. Next: the registrations under it,
    /// active again when the scopes above close.
    pub others: Vec<ToolDef>,
    /// Classic: what the hidden `invalid` tool returns when `bash` is not offered.
    pub invalid_message: Option<String>,
}

/// Argument decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arguments {
    /// The effective timeout.
    pub timeout_ms: u64,
    /// Where it came from.
    pub timeout_source: TimeoutSource,
    /// Next runtime: the maximum (classic has none).
    pub max_timeout_ms: Option<u64>,
    /// Next runtime: the requested timeout is above the maximum (what happens then is not
    /// stated by the reference).
    pub over_max: bool,
    /// The working directory (`workdir` resolved against the session directory).
    pub cwd: String,
    /// The schema error the model receives, if any.
    pub error: Option<String>,
}

/// One sub-command as the parse stage reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubCommand {
    /// The node's text (with its redirect when that belongs to it).
    pub text: String,
    /// The tokens.
    pub tokens: Vec<String>,
    /// Its bash pattern (`None` for `cd`-like commands).
    pub pattern: Option<String>,
    /// Its "always" pattern.
    pub always: Option<String>,
    /// Directories outside the project its path arguments reach.
    pub dirs: Vec<String>,
}

/// What parsing produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsing {
    /// Classic: every `command` node. Next: empty (no parsing).
    pub commands: Vec<SubCommand>,
    /// The bash request's patterns (duplicates merged).
    pub patterns: Vec<String>,
    /// Its "always" patterns.
    pub always: Vec<String>,
    /// Directories for the `external_directory` request, in order.
    pub dirs: Vec<String>,
    /// The working directory is outside the project (it is among `dirs`).
    pub cwd_outside: bool,
    /// Next runtime: directories the path arguments reach, reported as warnings only.
    pub advisory_dirs: Vec<String>,
}

/// ② or ③: one permission request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permission {
    /// The request.
    pub request: Request,
    /// Each pattern evaluated (stops at a deny).
    pub checks: Vec<PatternCheck>,
    /// The outcome.
    pub decision: Decision,
    /// The prompt, when the decision asked.
    pub prompt: Option<Prompt>,
}

/// ⑤ Execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// The shell that runs the command (the permission is `bash` whatever it is).
    pub shell: String,
    /// The timeout.
    pub timeout_ms: u64,
    /// The timer the command races: timeout + 100 ms.
    pub timer_ms: u64,
    /// After a timeout or abort, the forced kill follows after this long.
    pub force_kill_after_ms: u64,
    /// How it ended.
    pub end: RunEnd,
    /// `metadata.exit` (null after a timeout or abort).
    pub exit: Option<i32>,
}

/// ⑥ Output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// Classic: the tail truncation.
    pub classic: Option<Truncation>,
    /// Next: the head + tail sample.
    pub next: Option<HeadTail>,
    /// What the model receives.
    pub text: String,
    /// `metadata.truncated`.
    pub truncated: bool,
    /// Next runtime: `Command exited with code N.`, also given to the model.
    pub exit_note: Option<String>,
}

/// A stage's details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// ①.
    Lookup(Lookup),
    /// Arguments.
    Arguments(Arguments),
    /// Parsing.
    Parse(Parsing),
    /// ② / ③.
    Permission(Permission),
    /// ④: every prompt shown, in order.
    Confirmation(Vec<Prompt>),
    /// ⑤.
    Execution(Execution),
    /// ⑥.
    Output(Output),
}

/// One stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Which stage.
    pub kind: StageKind,
    /// What it did.
    pub status: Status,
    /// Its details (`None` when not reached or skipped without anything to show).
    pub detail: Option<Detail>,
    /// The seed's statements about it ([`StageKind::claims`]).
    pub claims: &'static [SeedClaim],
    /// Where the seed's account of it holds ([`StageKind::seed_matches`]).
    pub seed_matches: SeedMatch,
}

/// How the call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It ran; the model received its output.
    Completed,
    /// `bash` was not offered: the call went to `invalid`.
    Invalid,
    /// A custom or plugin definition replaced the built-in: its own code runs, none of the
    /// built-in's stages below.
    CustomTool,
    /// The arguments failed the schema.
    ArgumentError,
    /// A rule denied it.
    Denied,
    /// The user rejected it.
    Rejected,
    /// A prompt waits for an answer.
    Waiting,
}

impl End {
    /// `completed`, `invalid`, `custom-tool`, `argument-error`, `denied`, `rejected`,
    /// `waiting`.
    pub fn slug(self) -> &'static str {
        match self {
            End::Completed => "completed",
            End::Invalid => "invalid",
            End::CustomTool => "custom-tool",
            End::ArgumentError => "argument-error",
            End::Denied => "denied",
            End::Rejected => "rejected",
            End::Waiting => "waiting",
        }
    }
}

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

/// Commands that produce no bash pattern.
pub const NO_PATTERN: [&str; 6] = [
    "cd",
    "chdir",
    "pushd",
    "popd",
    "push-location",
    "set-location",
];

/// Steps `call` through `runtime`'s lifecycle under `setup`. `answers` are the user's replies
/// to the prompts, in order (a prompt with no answer left waits); `run` is what the command
/// does when it runs.
pub fn lifecycle(
    runtime: Runtime,
    setup: &Setup,
    call: &BashCall,
    answers: &[Reply],
    run: &Run,
) -> Lifecycle {
    let mut b = Builder {
        runtime,
        stages: Vec::new(),
        end: End::Completed,
        model_receives: None,
        loop_continues: true,
        approvals: setup.approvals.clone(),
        answers: answers.iter(),
        prompts: Vec::new(),
    };
    b.run(setup, call, run);
    let Builder {
        mut stages,
        end,
        model_receives,
        loop_continues,
        approvals,
        ..
    } = b;
    for kind in StageKind::ORDER.iter().skip(stages.len()) {
        stages.push(stage(*kind, Status::NotReached, None));
    }
    Lifecycle {
        runtime,
        stages,
        end,
        model_receives,
        loop_continues,
        approvals,
    }
}

fn stage(kind: StageKind, status: Status, detail: Option<Detail>) -> Stage {
    Stage {
        kind,
        status,
        detail,
        claims: kind.claims(),
        seed_matches: kind.seed_matches(),
    }
}

struct Builder<'a> {
    runtime: Runtime,
    stages: Vec<Stage>,
    end: End,
    model_receives: Option<String>,
    loop_continues: bool,
    approvals: Approvals,
    answers: std::slice::Iter<'a, Reply>,
    prompts: Vec<Prompt>,
}

impl Builder<'_> {
    fn push(&mut self, kind: StageKind, status: Status, detail: Option<Detail>) {
        self.stages.push(stage(kind, status, detail));
    }

    fn stop(&mut self, end: End, message: Option<String>) {
        self.end = end;
        self.model_receives = message;
    }

    fn run(&mut self, setup: &Setup, call: &BashCall, run: &Run) {
        let next = self.runtime == Runtime::Next;
        let mut rules = setup.agent_rules.clone();
        rules.extend(setup.session_rules.iter().cloned());

        // ① Tool lookup.
        let lookup = self.lookup(setup, &rules, &call.tool);
        let builtin = lookup
            .active
            .as_ref()
            .is_some_and(|d| d.source == registry::Source::BuiltIn);
        if lookup.resolved.is_none() {
            let message = lookup.invalid_message.clone();
            self.push(
                StageKind::ToolLookup,
                Status::Stopped,
                Some(Detail::Lookup(lookup)),
            );
            return self.stop(End::Invalid, message);
        }
        if !builtin {
            self.push(
                StageKind::ToolLookup,
                Status::Stopped,
                Some(Detail::Lookup(lookup)),
            );
            return self.stop(End::CustomTool, None);
        }
        self.push(
            StageKind::ToolLookup,
            Status::Pass,
            Some(Detail::Lookup(lookup)),
        );

        // Arguments.
        let args = arguments(setup, call, next);
        if let Some(e) = args.error.clone() {
            self.push(
                StageKind::Arguments,
                Status::Stopped,
                Some(Detail::Arguments(args)),
            );
            return self.stop(End::ArgumentError, Some(e));
        }
        let mut place = setup.place.clone();
        place.cwd = args.cwd.clone();
        let timeout_ms = args.timeout_ms;
        self.push(
            StageKind::Arguments,
            Status::Pass,
            Some(Detail::Arguments(args)),
        );

        // Parse.
        let parsing = if next {
            parse_next(&call.command, &place)
        } else {
            parse_classic(&call.command, &place)
        };
        self.push(
            StageKind::Parse,
            Status::Pass,
            Some(Detail::Parse(parsing.clone())),
        );

        // ② external_directory, then ③ bash.
        let dir_patterns: Vec<String> =
            parsing.dirs.iter().map(|d| paths::dir_pattern(d)).collect();
        let steps = [
            (
                StageKind::ExternalDirectory,
                "external_directory",
                dir_patterns.clone(),
                dir_patterns,
            ),
            (
                StageKind::Command,
                "bash",
                parsing.patterns.clone(),
                parsing.always.clone(),
            ),
        ];
        for (kind, permission, patterns, always) in steps {
            if patterns.is_empty() {
                self.push(kind, Status::Skipped, None);
                continue;
            }
            let req = Request {
                permission: permission.into(),
                patterns,
                always,
            };
            if !self.permission(kind, setup, req) {
                return;
            }
        }

        // ④ Confirmation: a summary of the prompts.
        let status = if self.prompts.is_empty() {
            Status::Skipped
        } else {
            Status::Pass
        };
        let prompts = self.prompts.clone();
        self.push(
            StageKind::Confirmation,
            status,
            Some(Detail::Confirmation(prompts)),
        );

        // ⑤ Execution.
        let installed: Vec<&str> = setup.installed_shells.iter().map(String::as_str).collect();
        let execution = Execution {
            shell: exec::select_shell(setup.shell.as_deref(), &installed),
            timeout_ms,
            timer_ms: timeout_ms + exec::TIMER_GRACE_MS,
            force_kill_after_ms: exec::FORCE_KILL_AFTER_MS,
            end: run.end,
            exit: run.exit(),
        };
        self.push(
            StageKind::Execution,
            Status::Pass,
            Some(Detail::Execution(execution)),
        );

        // ⑥ Output.
        let file = output::output_file(&setup.data_dir, &setup.call_id);
        let out = if next {
            let ht = output::next_head_tail(&run.output, setup.limits, &file);
            Output {
                text: ht.text.clone(),
                truncated: ht.truncated,
                classic: None,
                next: Some(ht),
                exit_note: run.exit().map(exec::exit_note),
            }
        } else {
            let t = output::classic_bash(&run.output, setup.limits, &file);
            let mut text = t.text.clone();
            match run.end {
                RunEnd::TimedOut => text += &exec::shell_metadata(&exec::timeout_note(timeout_ms)),
                RunEnd::Aborted => text += &exec::shell_metadata(exec::ABORTED_NOTE),
                RunEnd::Exited(_) => {}
            }
            Output {
                text,
                truncated: t.truncated,
                classic: Some(t),
                next: None,
                exit_note: None,
            }
        };
        self.model_receives = Some(out.text.clone());
        self.push(StageKind::Output, Status::Pass, Some(Detail::Output(out)));
    }

    fn lookup(&self, setup: &Setup, rules: &[Rule], requested: &str) -> Lookup {
        match self.runtime {
            Runtime::Classic => match registry::classic_lookup(&setup.tools, rules, requested) {
                Ok(name) => {
                    let r = registry::classic_resolve(&setup.tools, &name);
                    Lookup {
                        requested: requested.into(),
                        resolved: Some(name),
                        active: r.active,
                        others: r.replaced,
                        invalid_message: None,
                    }
                }
                Err(message) => Lookup {
                    requested: requested.into(),
                    resolved: None,
                    active: None,
                    others: Vec::new(),
                    invalid_message: Some(message),
                },
            },
            Runtime::Next => {
                let mut reg = NextRegistry::new();
                for d in &setup.tools {
                    reg.register(d.clone());
                }
                let mut stack: Vec<ToolDef> = reg.stack(requested).into_iter().cloned().collect();
                let active = stack.pop();
                Lookup {
                    requested: requested.into(),
                    resolved: active.as_ref().map(|d| d.name.clone()),
                    active,
                    others: stack,
                    invalid_message: None,
                }
            }
        }
    }

    /// Evaluates one request and handles its prompt. `false`: the call ended.
    fn permission(&mut self, kind: StageKind, setup: &Setup, req: Request) -> bool {
        let next = self.runtime == Runtime::Next;
        let sets = Rulesets {
            agent: &setup.agent_rules,
            session: &setup.session_rules,
            approved: &self.approvals,
        };
        let (checks, decision) = if next {
            request::next(&sets, &req)
        } else {
            request::classic(&sets, &req)
        };
        match decision.clone() {
            Decision::Allow => {
                self.push_permission(kind, Status::Pass, req, checks, decision, None);
                true
            }
            Decision::Deny { message, .. } => {
                self.push_permission(kind, Status::Stopped, req, checks, decision, None);
                if kind == StageKind::ExternalDirectory {
                    self.push(StageKind::Command, Status::NotReached, None);
                }
                // ④ still shows a prompt answered before the deny.
                if !self.prompts.is_empty() {
                    let prompts = self.prompts.clone();
                    self.push(
                        StageKind::Confirmation,
                        Status::Pass,
                        Some(Detail::Confirmation(prompts)),
                    );
                }
                self.stop(End::Denied, message);
                // A deny does not stop the agent loop: the model may try something else.
                self.loop_continues = true;
                false
            }
            Decision::Ask => {
                let reply = if setup.auto_approve {
                    Some(Reply::Once)
                } else {
                    self.answers.next().cloned()
                };
                let prompt = request::answer(
                    &req,
                    reply,
                    &mut self.approvals,
                    next,
                    setup.continue_loop_on_deny,
                );
                self.prompts.push(prompt.clone());
                let (status, goes_on) = match prompt.reply {
                    None => (Status::Waiting, false),
                    Some(_) if prompt.proceeds => (Status::Pass, true),
                    Some(_) => (Status::Stopped, false),
                };
                let message = prompt.model_message.clone();
                let loop_continues = prompt.loop_continues;
                let waiting = prompt.reply.is_none();
                self.push_permission(kind, status, req, checks, decision, Some(prompt));
                if !goes_on {
                    // ④ shows the prompt that stopped the call.
                    let prompts = self.prompts.clone();
                    let status = if waiting {
                        Status::Waiting
                    } else {
                        Status::Stopped
                    };
                    if kind == StageKind::ExternalDirectory {
                        self.push(StageKind::Command, Status::NotReached, None);
                    }
                    self.push(
                        StageKind::Confirmation,
                        status,
                        Some(Detail::Confirmation(prompts)),
                    );
                    if waiting {
                        self.stop(End::Waiting, None);
                    } else {
                        self.stop(End::Rejected, message);
                        self.loop_continues = loop_continues;
                    }
                }
                goes_on
            }
        }
    }

    fn push_permission(
        &mut self,
        kind: StageKind,
        status: Status,
        request: Request,
        checks: Vec<PatternCheck>,
        decision: Decision,
        prompt: Option<Prompt>,
    ) {
        self.push(
            kind,
            status,
            Some(Detail::Permission(Permission {
                request,
                checks,
                decision,
                prompt,
            })),
        );
    }
}

fn arguments(setup: &Setup, call: &BashCall, next: bool) -> Arguments {
    let cwd = match &call.workdir {
        Some(w) => paths::resolve(&setup.place.directory, w),
        None => paths::normalize(&setup.place.directory),
    };
    let mut a = Arguments {
        timeout_ms: exec::DEFAULT_TIMEOUT_MS,
        timeout_source: TimeoutSource::Default,
        max_timeout_ms: next.then_some(exec::NEXT_MAX_TIMEOUT_MS),
        over_max: false,
        cwd,
        error: None,
    };
    match call.timeout {
        Some(t) if t <= 0 => {
            // The schema error is stated for the classic runtime; the next one is not modelled.
            a.error = Some(exec::timeout_schema_error(t));
        }
        Some(t) => {
            a.timeout_ms = t.unsigned_abs();
            a.timeout_source = TimeoutSource::Argument;
            a.over_max = next && a.timeout_ms > exec::NEXT_MAX_TIMEOUT_MS;
        }
        None if !next => {
            let (t, s) = exec::effective_timeout(None, setup.env_default_timeout.as_deref());
            a.timeout_ms = t;
            a.timeout_source = s;
        }
        None => {}
    }
    a
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Classic: every `command` node → a pattern (unless `cd`-like), its "always" prefix, its
/// outside directories; then the working directory when it is outside.
fn parse_classic(command: &str, place: &Place) -> Parsing {
    let mut p = Parsing {
        commands: Vec::new(),
        patterns: Vec::new(),
        always: Vec::new(),
        dirs: Vec::new(),
        cwd_outside: false,
        advisory_dirs: Vec::new(),
    };
    for c in parse::commands(command) {
        let tokens = c.token_texts();
        if tokens.is_empty() {
            continue;
        }
        let no_pattern = NO_PATTERN.contains(&tokens[0]);
        let pattern = (!no_pattern).then(|| c.pattern_text().to_string());
        let always = (!no_pattern).then(|| arity::always_pattern(&tokens));
        let dirs = paths::outside_dirs(&tokens, place);
        if let Some(x) = &pattern {
            push_unique(&mut p.patterns, x.clone());
        }
        if let Some(x) = &always {
            push_unique(&mut p.always, x.clone());
        }
        for d in &dirs {
            push_unique(&mut p.dirs, d.clone());
        }
        p.commands.push(SubCommand {
            text: c.pattern_text().to_string(),
            tokens: tokens.iter().map(|t| t.to_string()).collect(),
            pattern,
            always,
            dirs,
        });
    }
    if !place.inside(&place.cwd) {
        p.cwd_outside = true;
        push_unique(&mut p.dirs, place.cwd.clone());
    }
    p
}

/// Next: the whole command is the one pattern and what "always" saves; only an outside
/// working directory is asked about, outside path arguments are warnings (computed here as
/// the classic path arguments: the reference does not say how v2 finds them).
fn parse_next(command: &str, place: &Place) -> Parsing {
    let classic = parse_classic(command, place);
    let mut dirs = Vec::new();
    if classic.cwd_outside {
        dirs.push(place.cwd.clone());
    }
    let advisory_dirs = classic
        .commands
        .iter()
        .flat_map(|c| c.dirs.iter().cloned())
        .fold(Vec::new(), |mut v, d| {
            push_unique(&mut v, d);
            v
        });
    Parsing {
        commands: Vec::new(),
        patterns: vec![command.to_string()],
        always: vec![command.to_string()],
        dirs,
        cwd_outside: classic.cwd_outside,
        advisory_dirs,
    }
}

#[cfg(test)]
mod tests;
