//! The stages of a bash call's life as data: what each did, its details, and where seed
//! 002's account of it holds.

use super::exec::{RunEnd, TimeoutSource};
use super::output::{HeadTail, Truncation};
use super::registry::ToolDef;
use super::request::{Decision, PatternCheck, Prompt, Request};
use super::Runtime;

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
